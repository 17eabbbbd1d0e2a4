#!/usr/bin/python3
"""Every gNMI source option, with every command that takes it, shows its effect against the test
peer (gnmi_target.py): each experiment runs the command with the option and without it and
checks the difference, either in what the command collected or in what the peer was asked.

Commands: collect, dcbtop, report and serve read switches through the one source-option parser
(collectors/source_opts.c); gnmi has its own flags of the same names. A runner per command runs
it briefly against a peer and says whether it collected counters and what it said:

  collect   --interval 500ms --duration D -T json: sample lines from the gnmi source
  dcbtop    -b -n N -d 0.5 -T json: a frame with interfaces; the status line
  report    --collect D --interval 1s --out DIR: report.json's traffic.samples
  serve     --listen 127.0.0.1:0 --interval 1s for D: /metrics has the device's counters
  gnmi      get of COUNTERS_DB COUNTERS/Ethernet0: leaves printed

Options (with / without):
  --tls-ca             TLS peer, certificate of a test CA: collects / refused (certificate)
  --insecure           the same peer, no CA: collects / refused (certificate)
  --tls-cert/--tls-key the peer wants a client certificate of the CA: collects / refused
  --tls-server-name    certificate for DNS:switch1.test only: collects / refused (name)
  --credentials        peer with a password: the right file collects / a wrong one is
                       UNAUTHENTICATED (and none at all too)
  --encoding proto     the peer is asked for proto (and data flows) / json_ietf
  --gnmi-mode poll     the peer sees a POLL subscription and polls / STREAM only
  --gnmi-mode once     the peer sees ONCE subscriptions only / STREAM
  --gnmi-path-retry 1s peer without Pfcwd: the path is asked again within the run / once
  --config-interval 1s two or more config rounds in the run / one; never: no Get (a round is a
                       Get per target of the map's config paths: CONFIG_DB and APPL_DB)
  --max-message 1KiB   refused, over the limit / collects
  --timeout 500ms      peer that never answers: "deadline exceeded" within the run / not
                       (serve has no gNMI --timeout: its --timeout is the HTTP one)
  gnmi --type          config / state / operational leaves only (the peer honours Get types)
  gnmi --updates-only  a ONCE subscription gets the sync alone / the whole tree

The experiments run at once on a thread pool (each with its own peer) so the whole test stays
well under a minute; every failure is listed at the end."""
import concurrent.futures
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from dcbtop_helpers import DCBTOP  # noqa: E402
from gnmi_helpers import (DCBKIT, ROOT, Peer, fail, json_lines, make_ca, make_cert,  # noqa: E402
                          need_peer)

RUN_S = 2.5          # how long a run collects
LONG_S = 3.5         # runs that count repeated requests (retries, Gets)
WORKERS = 14


class Miss(Exception):
    pass


def need(cond, msg):
    if not cond:
        raise Miss(msg)


class Result:
    def __init__(self, data, said, rc=None):
        self.data = data        # counters came from the peer
        self.said = said        # what the command said (stderr, status lines)
        self.rc = rc

    def __repr__(self):
        return "data=%s rc=%s said=%r" % (self.data, self.rc, self.said[-400:])


def bounded(argv, seconds, slack=6.0):
    """Runs argv; past seconds plus slack it is stopped with SIGTERM. (rc, stdout, stderr)"""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = p.communicate(timeout=seconds + slack)
    except subprocess.TimeoutExpired:
        p.send_signal(signal.SIGTERM)
        try:
            out, err = p.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
    return p.returncode, out, err


# ---- runners: run the command against addr with args for about seconds ------------------------

def run_collect(addr, args, seconds, tmp):
    rc, out, err = bounded([DCBKIT, "collect", "--gnmi", addr, "--map", "sonic", *args,
                            "--interval", "500ms", "--duration", "%gs" % seconds, "-T", "json"],
                           seconds)
    data = any(d.get("source") == "gnmi" and "value" in d for d in json_lines(out))
    return Result(data, err, rc)


def run_dcbtop(addr, args, seconds, tmp):
    frames = max(2, int(round(seconds / 0.5)))
    rc, out, err = bounded([DCBTOP, "-b", "-n", str(frames), "-d", "0.5", "-T", "json", "--gnmi",
                            addr, "--map", "sonic", *args], seconds + 3)
    frames = json_lines(out)
    said = "\n".join(f["status"] for f in frames if f.get("status")) + "\n" + err
    return Result(any(f.get("interfaces") for f in frames), said, rc)


def run_report(addr, args, seconds, tmp):
    out_dir = tempfile.mkdtemp(prefix="report-", dir=tmp)
    rc, out, err = bounded([DCBKIT, "report", "--gnmi", addr, "--map", "sonic", *args, "--collect",
                            "%gs" % seconds, "--interval", "1s", "--out", out_dir], seconds)
    samples, findings = 0, []
    path = os.path.join(out_dir, "report.json")
    if os.path.exists(path):
        with open(path) as f:
            model = json.load(f)
        samples = model["traffic"]["samples"]
        findings = [f["summary"] for f in model["findings"]]
    # a device that gave nothing is a device-unreachable finding with the source's reason
    return Result(samples > 0, "\n".join([err] + findings), rc)


def fetch(url):
    """(status, body), an HTTP error status included."""
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace")


def run_serve(addr, args, seconds, tmp):
    """serve says why it has nothing on /healthz: 503 with the source's last error, once its
    first round is over (the gNMI source waits up to 3 s for the first data). Every reason it
    gave while it ran is kept."""
    errpath = scratch("serve-", ".err")
    reasons, page = [], ""
    with open(errpath, "w") as errf:
        p = subprocess.Popen([DCBKIT, "serve", "--listen", "127.0.0.1:0", "--interval", "1s",
                              "--gnmi", addr, "--map", "sonic", *args],
                             stdout=subprocess.DEVNULL, stderr=errf)
        try:
            start, port = time.monotonic(), None
            while time.monotonic() - start < seconds + 4:
                time.sleep(0.25)
                if port is None:
                    with open(errpath) as f:
                        m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/metrics", f.read())
                    port = m and m.group(1)
                    continue
                status, health = fetch("http://127.0.0.1:%s/healthz" % port)
                if health not in reasons:
                    reasons.append(health)
                if time.monotonic() - start >= seconds and (status == 200 or "yet: " in health):
                    break
            if port:
                _, page = fetch("http://127.0.0.1:%s/metrics" % port)
        finally:
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
    with open(errpath) as f:
        said = f.read() + "".join(reasons)
    counter = r'^dcbkit_\w+_total\{device="%s",ifname="Ethernet0"' % re.escape(addr)
    data = re.search(counter, page, re.M) is not None
    return Result(data, said, p.returncode)


def run_gnmi(addr, args, seconds, tmp):
    rc, out, err = bounded([DCBKIT, "gnmi", "-a", addr, *args, "--target", "COUNTERS_DB",
                            "--path", "COUNTERS/Ethernet0", "-T", "json", "get"], seconds, slack=0)
    return Result(rc == 0 and "SAI_PORT_STAT" in out, err, rc)


RUNNERS = {"collect": run_collect, "dcbtop": run_dcbtop, "report": run_report,
           "serve": run_serve, "gnmi": run_gnmi}


class Ctx:
    """What every experiment shares: the certificates, the credentials files, a scratch dir."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.ca, self.cert, self.key = make_ca(tmp, "t")
        self.client_cert, self.client_key = make_cert(tmp, "t", "client", "dcbkit test client",
                                                      client=True)
        self.sw_cert, self.sw_key = make_cert(tmp, "t", "switch1", "switch1.test",
                                              "DNS:switch1.test")
        self.password = os.path.join(tmp, "peer-password")
        with open(self.password, "w") as f:
            f.write("s3cret-for-options\n")
        self.good_cred = self.cred("good.cred", "s3cret-for-options")
        self.bad_cred = self.cred("bad.cred", "not-the-password")

    def cred(self, name, password):
        path = os.path.join(self.tmp, name)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, ("username: admin\npassword: %s\n" % password).encode())
        os.close(fd)
        return path


def run(cmd, addr, args, seconds=RUN_S):
    return RUNNERS[cmd](addr, list(args), seconds, CTX.tmp)


def scratch(prefix, suffix):
    """A new empty file in the test's folder."""
    fd, path = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=CTX.tmp)
    os.close(fd)
    return path


def with_stats(peer_args, fn):
    """fn(address) against a plaintext peer of its own; (fn's result, the peer's --stats)."""
    path = scratch("stats-", ".json")
    with Peer("--ports", "1", "--stats", path, *peer_args) as p:
        got = fn(p.address)
    with open(path) as f:
        return got, json.load(f)


# ---- experiments: (command, the option's arguments as the "with" run passes them) --------------

def tls_ca(cmd, *opt):
    with Peer("--ports", "1", "--tls-cert", CTX.cert, "--tls-key", CTX.key) as p:
        yes, no = run(cmd, p.address, opt), run(cmd, p.address, [])
    need(yes.data, "with %s: nothing collected: %r" % (" ".join(opt), yes))
    need(not no.data and "certificate" in no.said.lower(),
         "without it (the system's CAs): not refused for the certificate: %r" % no)
    return "collects with it; without: %s" % first_line(no.said)


def insecure(cmd, *opt):
    with Peer("--ports", "1", "--tls-cert", CTX.cert, "--tls-key", CTX.key) as p:
        yes, no = run(cmd, p.address, opt), run(cmd, p.address, [])
    need(yes.data, "with %s: nothing collected: %r" % (" ".join(opt), yes))
    need(not no.data and "certificate" in no.said.lower(),
         "without it: not refused for the certificate: %r" % no)
    return "collects with it; without: %s" % first_line(no.said)


def client_cert(cmd, *opt):
    peer = ["--ports", "1", "--tls-cert", CTX.cert, "--tls-key", CTX.key, "--client-ca", CTX.ca]
    with Peer(*peer) as p:
        yes = run(cmd, p.address, ["--tls-ca", CTX.ca, *opt])
        no = run(cmd, p.address, ["--tls-ca", CTX.ca])
    need(yes.data, "with %s: nothing collected: %r" % (" ".join(opt), yes))
    # the target ends the handshake: libcurl's words vary ("Failed sending data to the peer",
    # "HTTP/2 stream 1 was not closed cleanly"), so an error naming the target is what is asked
    need(not no.data and p.address in no.said,
         "without a client certificate: not refused, or refused without a word: %r" % no)
    return "collects with it; without: %s" % first_line(no.said)


def server_name(cmd, *opt):
    with Peer("--ports", "1", "--tls-cert", CTX.sw_cert, "--tls-key", CTX.sw_key) as p:
        yes = run(cmd, p.address, ["--tls-ca", CTX.ca, *opt])
        no = run(cmd, p.address, ["--tls-ca", CTX.ca])
    need(yes.data, "with %s: nothing collected: %r" % (" ".join(opt), yes))
    need(not no.data and "name" in no.said.lower(),
         "without it (the certificate names switch1.test, not 127.0.0.1): not refused for the "
         "name: %r" % no)
    return "collects with it; without: %s" % first_line(no.said)


def credentials(cmd, *opt):
    with Peer("--ports", "1", "--password-file", CTX.password) as p:
        yes = run(cmd, p.address, ["--plaintext", *opt])
        wrong = run(cmd, p.address, ["--plaintext", opt[0], CTX.bad_cred])
        none = run(cmd, p.address, ["--plaintext"])
    need(yes.data, "with %s: nothing collected: %r" % (" ".join(opt), yes))
    for label, r in (("a wrong password", wrong), ("no credentials", none)):
        need(not r.data and "UNAUTHENTICATED" in r.said,
             "%s: not refused UNAUTHENTICATED: %r" % (label, r))
    return "the right file collects; a wrong one and none: %s" % first_line(wrong.said)


def encoding(cmd, *opt):
    yes, st_yes = with_stats([], lambda a: run(cmd, a, ["--plaintext", *opt]))
    no, st_no = with_stats([], lambda a: run(cmd, a, ["--plaintext"]))
    def asked(st):      # {"subscribe:proto": 1, "get:proto": 1} -> {"proto"}
        return set(e.split(":")[1] for e in st["encodings"])
    need(yes.data, "with %s: nothing collected: %r" % (" ".join(opt), yes))
    need(asked(st_yes) == {opt[1]},
         "with %s the peer was asked for %s" % (" ".join(opt), st_yes["encodings"]))
    need(no.data and asked(st_no) == {"json_ietf"},
         "without it: the peer was asked for %s (%r)" % (st_no["encodings"], no))
    return "peer asked for %s; without: %s" % (st_yes["encodings"], st_no["encodings"])


def gnmi_mode(cmd, *opt):
    yes, st_yes = with_stats([], lambda a: run(cmd, a, ["--plaintext", *opt]))
    no, st_no = with_stats([], lambda a: run(cmd, a, ["--plaintext"]))
    need(yes.data, "with %s: nothing collected: %r" % (" ".join(opt), yes))
    modes = st_yes["modes"]
    if opt[1] == "poll":
        need(modes.get("POLL", 0) >= 1 and st_yes["polls"] >= 1 and "STREAM" not in modes,
             "with %s the peer saw %s and %d polls" % (" ".join(opt), modes, st_yes["polls"]))
    else:
        need(modes.get("ONCE", 0) >= 2 and set(modes) == {"ONCE"},
             "with %s the peer saw %s (want ONCE every interval)" % (" ".join(opt), modes))
    need(set(st_no["modes"]) == {"STREAM"} and st_no["polls"] == 0,
         "without it the peer saw %s and %d polls" % (st_no["modes"], st_no["polls"]))
    return "peer saw %s, %d polls; without: %s" % (modes, st_yes["polls"], st_no["modes"])


def path_retry(cmd, *opt):
    missing = ["--missing", "Pfcwd"]
    yes, st_yes = with_stats(missing, lambda a: run(cmd, a, ["--plaintext", *opt], LONG_S))
    no, st_no = with_stats(missing, lambda a: run(cmd, a, ["--plaintext"], LONG_S))
    need(yes.data and no.data, "the other paths did not flow: with %r; without %r" % (yes, no))
    # rejected once in the whole call, then once asked alone; the retries ask alone again
    again = st_yes["rejected_elems"].get("Pfcwd", 0)
    once = st_no["rejected_elems"].get("Pfcwd", 0)
    need(again > once, "with %s the peer rejected Pfcwd %d times, without %d: not asked again"
         % (" ".join(opt), again, once))
    need(once <= 2, "without it (5m) Pfcwd was asked %d times in %.1f s" % (once, LONG_S))
    return "Pfcwd asked and rejected %d times in %.1f s; by default %d" % (again, LONG_S, once)


def config_targets():
    """One Get per target of the sonic map's config subscriptions makes a config round."""
    with open(os.path.join(ROOT, "collectors", "maps", "sonic_gnmi.json")) as f:
        subs = json.load(f)["subscribe"]
    return len({s.get("target", "") for s in subs if s.get("config")})


def config_interval(cmd, *opt):
    per_round = config_targets()
    yes, st_yes = with_stats([], lambda a: run(cmd, a, ["--plaintext", *opt], LONG_S))
    never, st_never = with_stats([], lambda a: run(cmd, a, ["--plaintext", opt[0], "never"],
                                                   LONG_S))
    dflt, st_dflt = with_stats([], lambda a: run(cmd, a, ["--plaintext"], LONG_S))
    need(yes.data and never.data and dflt.data,
         "counters did not flow: %r %r %r" % (yes, never, dflt))
    need(st_yes["get"] >= 2 * per_round, "with %s: %d Gets in %.1f s (a round is %d)" %
         (" ".join(opt), st_yes["get"], LONG_S, per_round))
    need(st_never["get"] == 0, "with %s never: %d Gets" % (opt[0], st_never["get"]))
    need(st_dflt["get"] == per_round, "without it: %d Gets (want one round at start, %d)" %
         (st_dflt["get"], per_round))
    return "Gets: %d with %s, %d never, %d by default" % (st_yes["get"], opt[1], st_never["get"],
                                                         st_dflt["get"])


def max_message(cmd, *opt):
    with Peer("--ports", "1") as p:
        yes = run(cmd, p.address, ["--plaintext", *opt])
        no = run(cmd, p.address, ["--plaintext"])
    need(not yes.data and "limit" in yes.said,
         "with %s: not refused over the limit: %r" % (" ".join(opt), yes))
    need(no.data, "without it: nothing collected: %r" % no)
    return "refused with it: %s" % first_line(yes.said)


def timeout(cmd, *opt):
    with Peer("--ports", "1", "--fault", "hang") as p:
        yes = run(cmd, p.address, ["--plaintext", *opt])
        no = run(cmd, p.address, ["--plaintext"])
    need(not yes.data and "deadline exceeded" in yes.said,
         "with %s the silent peer was not said to time out: %r" % (" ".join(opt), yes))
    need("deadline exceeded" not in no.said,
         "without it (10 s) a timeout within %.1f s: %r" % (RUN_S, no))
    return "with it: %s" % first_line(yes.said)


# gnmi's own Get type and updates_only, which the peer honours (gnmi_target.py's docstring)

def leaf_kinds(out):
    """The kinds of leaves printed: config, state (counters separately), beside the list keys."""
    kinds = set()
    for d in json_lines(out):
        p = d["path"]
        if "/config/" in p:
            kinds.add("config")
        elif "/counters/" in p:
            kinds.add("counters")
        elif "/state/" in p:
            kinds.add("state")
    return kinds


GET_OC = ["--plaintext", "--path", "/interfaces", "--path", "/qos", "-T", "json"]
WANT_KINDS = {"config": {"config"}, "state": {"state", "counters"}, "operational": {"counters"}}


def get_type(cmd, *opt):
    def get(args):
        return lambda a: subprocess.run([DCBKIT, "gnmi", "-a", a, *GET_OC, *args, "get"],
                                        capture_output=True, text=True, timeout=20)
    yes, st_yes = with_stats(["--tree", "openconfig"], get(opt))
    no, st_no = with_stats(["--tree", "openconfig"], get([]))
    want = WANT_KINDS[opt[1]]
    need(yes.returncode == 0 and leaf_kinds(yes.stdout) == want,
         "with %s: leaves of kinds %s, want %s: %s" % (" ".join(opt), leaf_kinds(yes.stdout),
                                                       want, yes.stderr))
    need(st_yes["get_types"] == {opt[1].upper(): 1},
         "with %s the peer saw %s" % (" ".join(opt), st_yes["get_types"]))
    need(leaf_kinds(no.stdout) == {"config", "state", "counters"} and
         st_no["get_types"] == {"ALL": 1},
         "without it: %s, peer saw %s" % (leaf_kinds(no.stdout), st_no["get_types"]))
    return "leaves %s; without: %s" % (sorted(want), sorted(leaf_kinds(no.stdout)))


def updates_only(cmd, *opt):
    def once(args):
        return lambda a: subprocess.run(
            [DCBKIT, "gnmi", "-a", a, "--plaintext", "--target", "COUNTERS_DB", "--path",
             "COUNTERS/Ethernet0", "--mode", "once", "-T", "json", *args, "subscribe"],
            capture_output=True, text=True, timeout=20)
    yes, st_yes = with_stats([], once(opt))
    no, st_no = with_stats([], once([]))
    got = len(json_lines(yes.stdout))
    need(yes.returncode == 0 and got == 0 and st_yes["updates_only"] == {"true": 1},
         "with %s: exit %d, %d leaves, peer saw updates_only %s: %s" % (
             " ".join(opt), yes.returncode, got, st_yes["updates_only"], yes.stderr))
    need(no.returncode == 0 and len(json_lines(no.stdout)) > 10 and
         st_no["updates_only"] == {"false": 1},
         "without it: %d leaves, peer saw %s" % (len(json_lines(no.stdout)), st_no["updates_only"]))
    return "ONCE gets the sync alone; without: %d leaves" % len(json_lines(no.stdout))


def first_line(text):
    """The first line that says something of the target, else the first line."""
    lines = [line for line in text.splitlines() if line.strip()]
    return next((line for line in lines if "127.0.0.1:" in line and "listening" not in line),
                lines[0] if lines else "")[:160]


CTX = None


def main():
    global CTX
    need_peer()
    if not os.access(DCBTOP, os.X_OK):
        fail("no dcbtop binary at %s (make first)" % DCBTOP)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="dcbkit-gnmiopts-") as tmp:
        CTX = Ctx(tmp)
        c = CTX
        jobs = []
        pool = concurrent.futures.ThreadPoolExecutor(WORKERS)

        def job(cmd, experiment, *opt):
            jobs.append(((cmd,) + opt, pool.submit(experiment, cmd, *opt)))

        # the longest first
        job("collect", config_interval, "--config-interval", "1s")
        job("dcbtop", config_interval, "--config-interval", "1s")
        job("report", config_interval, "--config-interval", "1s")
        job("serve", config_interval, "--config-interval", "1s")
        job("collect", path_retry, "--gnmi-path-retry", "1s")
        job("dcbtop", path_retry, "--gnmi-path-retry", "1s")
        job("report", path_retry, "--gnmi-path-retry", "1s")
        job("serve", path_retry, "--gnmi-path-retry", "1s")
        job("collect", credentials, "--credentials", c.good_cred)
        job("dcbtop", credentials, "--credentials", c.good_cred)
        job("report", credentials, "--credentials", c.good_cred)
        job("serve", credentials, "--credentials", c.good_cred)
        job("gnmi", credentials, "--credentials", c.good_cred)
        job("collect", gnmi_mode, "--gnmi-mode", "poll")
        job("dcbtop", gnmi_mode, "--gnmi-mode", "poll")
        job("report", gnmi_mode, "--gnmi-mode", "poll")
        job("serve", gnmi_mode, "--gnmi-mode", "poll")
        job("collect", gnmi_mode, "--gnmi-mode", "once")
        job("dcbtop", gnmi_mode, "--gnmi-mode", "once")
        job("report", gnmi_mode, "--gnmi-mode", "once")
        job("serve", gnmi_mode, "--gnmi-mode", "once")
        job("collect", tls_ca, "--tls-ca", c.ca)
        job("dcbtop", tls_ca, "--tls-ca", c.ca)
        job("report", tls_ca, "--tls-ca", c.ca)
        job("serve", tls_ca, "--tls-ca", c.ca)
        job("gnmi", tls_ca, "--tls-ca", c.ca)
        job("collect", insecure, "--insecure")
        job("dcbtop", insecure, "--insecure")
        job("report", insecure, "--insecure")
        job("serve", insecure, "--insecure")
        job("gnmi", insecure, "--insecure")
        job("collect", client_cert, "--tls-cert", c.client_cert, "--tls-key", c.client_key)
        job("dcbtop", client_cert, "--tls-cert", c.client_cert, "--tls-key", c.client_key)
        job("report", client_cert, "--tls-cert", c.client_cert, "--tls-key", c.client_key)
        job("serve", client_cert, "--tls-cert", c.client_cert, "--tls-key", c.client_key)
        job("gnmi", client_cert, "--tls-cert", c.client_cert, "--tls-key", c.client_key)
        job("collect", server_name, "--tls-server-name", "switch1.test")
        job("dcbtop", server_name, "--tls-server-name", "switch1.test")
        job("report", server_name, "--tls-server-name", "switch1.test")
        job("serve", server_name, "--tls-server-name", "switch1.test")
        job("gnmi", server_name, "--tls-server-name", "switch1.test")
        job("collect", encoding, "--encoding", "proto")
        job("dcbtop", encoding, "--encoding", "proto")
        job("report", encoding, "--encoding", "proto")
        job("serve", encoding, "--encoding", "proto")
        job("gnmi", encoding, "--encoding", "proto")
        job("collect", max_message, "--max-message", "1KiB")
        job("dcbtop", max_message, "--max-message", "1KiB")
        job("report", max_message, "--max-message", "1KiB")
        job("serve", max_message, "--max-message", "1KiB")
        job("gnmi", max_message, "--max-message", "1KiB")
        job("collect", timeout, "--timeout", "500ms")
        job("dcbtop", timeout, "--timeout", "500ms")
        job("report", timeout, "--timeout", "500ms")
        job("gnmi", timeout, "--timeout", "500ms")
        job("gnmi", get_type, "--type", "config")
        job("gnmi", get_type, "--type", "state")
        job("gnmi", get_type, "--type", "operational")
        job("gnmi", updates_only, "--updates-only")

        problems = []
        for what, fut in jobs:
            label = " ".join(w if not w.startswith(tmp) else os.path.basename(w) for w in what)
            try:
                print("ok: %s: %s" % (label, fut.result()), flush=True)
            except Miss as e:
                problems.append("%s: %s" % (label, e))
            except Exception:       # noqa: BLE001 - a broken experiment is a failure too
                problems.append("%s: %s" % (label, traceback.format_exc()))
        pool.shutdown()
    print("%d experiments in %.1f s" % (len(jobs), time.monotonic() - t0))
    if problems:
        fail("%d of %d experiments:\n  %s" % (len(problems), len(jobs), "\n  ".join(problems)))
    print("ok")


if __name__ == "__main__":
    main()
