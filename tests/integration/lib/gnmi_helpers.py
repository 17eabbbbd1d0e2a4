"""Shared by the gNMI integration tests: start/stop the test peer, a test CA made with openssl,
and running dcbkit."""
import json
import os
import shutil
import subprocess
import sys
import time

from store_helpers import fail, skip  # noqa: F401  (re-exported for the gNMI tests)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
DCBKIT = os.environ.get("DCBKIT", os.path.join(ROOT, "build", "cc", "bin", "dcbkit"))
PEER = os.path.join(ROOT, "tests", "integration", "gnmi_target.py")
PY = "/usr/bin/python3"


def need_peer():
    r = subprocess.run([PY, "-c", "import grpc"], capture_output=True)
    if r.returncode != 0:
        skip("python3-grpcio is not installed (scripts/bootstrap installs it)")
    if not os.access(DCBKIT, os.X_OK):
        skip("no dcbkit binary at %s (make first)" % DCBKIT)


def need_h2():
    r = subprocess.run([PY, "-c", "import h2"], capture_output=True)
    if r.returncode != 0:
        skip("python3-h2 is not installed (scripts/bootstrap installs it)")


class Peer:
    def __init__(self, *args, wait=10.0):
        self.proc = subprocess.Popen([PY, PEER] + list(args), stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        deadline = time.time() + wait
        line = ""
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if line.startswith("PORT "):
                break
            if self.proc.poll() is not None:
                break
        if not line.startswith("PORT "):
            err = self.proc.stderr.read() if self.proc.poll() is not None else ""
            self.stop()
            fail("the gNMI test peer did not start: %s" % err[-500:])
        self.port = int(line.split()[1])
        self.address = "127.0.0.1:%d" % self.port

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.stop()


def openssl(*args, cwd):
    r = subprocess.run(["openssl"] + list(args), cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        fail("openssl %s: %s" % (" ".join(args), r.stderr[-300:]))


def make_ca(d, name):
    """A CA (NAME-ca.pem) and a server certificate for 127.0.0.1 / localhost it signed."""
    if not shutil.which("openssl"):
        skip("openssl is not installed")
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
            "/CN=dcbkit test CA %s" % name, "-keyout", name + "-ca.key", "-out", name + "-ca.pem",
            cwd=d)
    cert, key = make_cert(d, name, "server", "localhost", "IP:127.0.0.1,DNS:localhost")
    return os.path.join(d, name + "-ca.pem"), cert, key


def make_cert(d, ca, tag, cn, san=None, client=False):
    """A certificate and key (CA-TAG.pem, CA-TAG.key) that make_ca(d, CA)'s CA signed: for a
    server with subjectAltName san (such as "DNS:switch1.test"), or for a TLS client."""
    base = "%s-%s" % (ca, tag)
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=%s" % cn, "-keyout",
            base + ".key", "-out", base + ".csr", cwd=d)
    with open(os.path.join(d, base + "-ext.cnf"), "w") as f:
        if san:
            f.write("subjectAltName=%s\n" % san)
        f.write("extendedKeyUsage=%s\n" % ("clientAuth" if client else "serverAuth"))
    openssl("x509", "-req", "-in", base + ".csr", "-CA", ca + "-ca.pem", "-CAkey", ca + "-ca.key",
            "-CAcreateserial", "-days", "2", "-extfile", base + "-ext.cnf", "-out", base + ".pem",
            cwd=d)
    return os.path.join(d, base + ".pem"), os.path.join(d, base + ".key")


def dcbkit(*args, timeout=30, env=None, check=True):
    e = dict(os.environ)
    if env:
        e.update(env)
    r = subprocess.run([DCBKIT] + list(args), capture_output=True, text=True, timeout=timeout,
                       env=e)
    if check and r.returncode != 0:
        fail("dcbkit %s: exit %d\n%s" % (" ".join(args), r.returncode, r.stderr[-2000:]))
    return r


def json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]
