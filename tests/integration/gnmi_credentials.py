#!/usr/bin/python3
"""gNMI credentials hygiene: a password given through the credentials file reaches the target
(as username/password metadata) but never appears in /proc/<pid>/cmdline, in the output or the
logs (-v -v, DCBKIT_LOG=debug, DCBKIT_CURL_DEBUG=1), nor in the store. A credentials file
others can read is refused, a wrong password gives UNAUTHENTICATED, and there is no way to put
a password on the command line."""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from gnmi_helpers import DCBKIT, Peer, dcbkit, fail, need_peer  # noqa: E402

SECRET = "Zq9-s3cret-Pa55word-7731"


def check(cond, msg):
    if not cond:
        fail(msg)


def main():
    need_peer()
    with tempfile.TemporaryDirectory() as tmp:
        pw = os.path.join(tmp, "peer-password")
        with open(pw, "w") as f:
            f.write(SECRET + "\n")
        cred = os.path.join(tmp, "leaf1.cred")
        fd = os.open(cred, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, ("# gNMI login for leaf1\nusername: admin\npassword: %s\n" % SECRET).encode())
        os.close(fd)
        with Peer("--password-file", pw, "--ports", "1") as p:
            env = dict(os.environ, DCBKIT_LOG="debug", DCBKIT_CURL_DEBUG="1")
            db = os.path.join(tmp, "c.db")
            args = [DCBKIT, "-v", "-v", "collect", "--gnmi", p.address, "--plaintext", "--map", "sonic",
                    "--credentials", cred, "--interval", "200ms", "--duration", "1500ms", "--store", db]
            proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
            time.sleep(0.5)
            with open("/proc/%d/cmdline" % proc.pid, "rb") as f:
                cmdline = f.read()
            out, err = proc.communicate(timeout=30)
            check(proc.returncode == 0, "collect with credentials: exit %d: %s" % (proc.returncode, err[-500:]))
            check(b"pfc.rx_pause" in out, "collect with credentials got no samples")
            check(b"curl:" in err, "DCBKIT_CURL_DEBUG gave no transport log to check")
            for name, blob in (("cmdline", cmdline), ("stdout", out), ("stderr", err)):
                check(SECRET.encode() not in blob, "the password appears in %s" % name)
            for f in os.listdir(tmp):
                if f.startswith("c.db"):
                    with open(os.path.join(tmp, f), "rb") as fh:
                        check(SECRET.encode() not in fh.read(), "the password appears in the store %s" % f)
            print("ok: password used (samples came) and absent from cmdline, -v -v output, debug logs, store")

            r = dcbkit("-v", "gnmi", "-a", p.address, "--plaintext", "--credentials", cred, "--target",
                       "COUNTERS_DB", "--path", "COUNTERS/Ethernet0", "get", env={"DCBKIT_CURL_DEBUG": "1"})
            check(SECRET not in r.stdout + r.stderr, "the password appears in gnmi get -v")
            # the environment works as well
            r = dcbkit("gnmi", "-a", p.address, "--plaintext", "--target", "COUNTERS_DB", "--path",
                       "COUNTERS/Ethernet0", "get", env={"DCBKIT_GNMI_USERNAME": "admin", "DCBKIT_GNMI_PASSWORD": SECRET})
            check("SAI_PORT_STAT" in r.stdout, "credentials from the environment")
            # a wrong password: UNAUTHENTICATED, and the error does not echo it
            bad = os.path.join(tmp, "bad.cred")
            fd = os.open(bad, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            os.write(fd, b"username: admin\npassword: not-the-Zq9-one\n")
            os.close(fd)
            r = dcbkit("gnmi", "-a", p.address, "--plaintext", "--credentials", bad, "--path", "x", "get", check=False)
            check(r.returncode == 1 and "UNAUTHENTICATED" in r.stderr and "not-the-Zq9-one" not in r.stderr,
                  "wrong password: %d %s" % (r.returncode, r.stderr))
            # no credentials at all
            r = dcbkit("gnmi", "-a", p.address, "--plaintext", "--path", "x", "get", check=False)
            check(r.returncode == 1 and "UNAUTHENTICATED" in r.stderr, "no credentials: %s" % r.stderr)
        # a file others may read is refused before anything is sent
        os.chmod(cred, 0o644)
        r = dcbkit("gnmi", "-a", "127.0.0.1:9", "--plaintext", "--credentials", cred, "capabilities", check=False)
        check(r.returncode == 1 and "chmod 600" in r.stderr and SECRET not in r.stderr,
              "0644 credentials file: %d %s" % (r.returncode, r.stderr))
        # no password option on the command line
        for opt in ("--password", "-p", "--username"):
            r = dcbkit("gnmi", "-a", "127.0.0.1:9", opt, "x", "capabilities", check=False)
            check(r.returncode == 64, "%s on the command line: exit %d" % (opt, r.returncode))
        print("ok: 0644 file refused, wrong password UNAUTHENTICATED, no --password option")
    print("ok")


if __name__ == "__main__":
    main()
