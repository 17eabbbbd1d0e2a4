"""Shared by the dcbtop tests and benchmark: the binary, a fixture store written through
`dcbkit store import`, and a tmux session driven with send-keys and read with capture-pane."""
import json
import os
import shutil
import subprocess
import time

from store_helpers import DCBKIT, ROOT, fail, skip

DCBTOP = os.environ.get("DCBTOP", os.path.join(ROOT, "build", "cc", "bin", "dcbtop"))
BASE_NS = 1700000000 * 10**9

# An LLDP system name carrying escape sequences: a title change (OSC), a colour (CSI), a bell.
EVIL_PEER = "evil\x1b]0;pwned\x07sw\x1b[31mRED"

# interface -> PFC frames received per second on priority 3 (the default sort column)
PFC_RATES = {"ens1f0": 500, "ens1f1": 100, "ens2f0": 3000, "ens2f1": 0, "eth9": 50}


def need_binaries():
    for b in (DCBKIT, DCBTOP):
        if not os.access(b, os.X_OK):
            fail("no binary at %s: run 'make' first" % b)


def fixture_lines(device="gpu1", ifaces=None, seconds=30, interval_s=1):
    """Samples of every interface, a config snapshot of ens1f0 and of what its link partner
    advertises (PFC on priority 4 where ens1f0 has 3: a mismatch), and the partner's dcbx_seen
    event whose system name holds escape sequences."""
    ifaces = ifaces or PFC_RATES
    for t in range(0, seconds, interval_s):
        ts = BASE_NS + t * 10**9
        for k, (ifname, pfc) in enumerate(sorted(ifaces.items())):
            rates = {("port.rx_bytes", -1): 10**9 * (k + 1), ("port.tx_bytes", -1): 5 * 10**8,
                     ("prio.rx_bytes", 3): 9 * 10**8, ("pfc.rx_pause", 3): pfc,
                     ("pfc.tx_pause", 3): pfc // 10, ("pfc.rx_pause_us", 3): pfc * 100,
                     ("ecn.marked", 3): 20 * (k + 1), ("cnp.sent", -1): 7, ("cnp.handled", -1): 9,
                     ("roce.out_of_sequence", -1): k, ("drop.rx_discards", -1): 0}
            for (metric, prio), rate in rates.items():
                yield {"ts": ts, "device": device, "ifname": ifname, "metric": metric,
                       "prio": prio, "queue": -1, "value": rate * t + 1000}
    ts = BASE_NS + 10**9
    yield {"ts": ts, "device": device, "ifname": "ens1f0", "config_source": "dcbnl",
           "config": {"trust": "dscp", "pfc": {"enabled": 8, "willing": False},
                      "dscp2prio": {"26": 3, "48": 6}, "prio2tc": [0, 0, 0, 3, 0, 0, 6, 0]}}
    yield {"ts": ts, "event": "dcbx_seen", "device": device, "ifname": "ens1f0", "prio": -1,
           "details": {"peer": EVIL_PEER, "port": "Ethernet7", "dcbx": "ieee"}}
    yield {"ts": ts, "device": EVIL_PEER, "ifname": "Ethernet7", "config_source": "lldp",
           "seen_on": device + ":ens1f0",
           "config": {"pfc": {"enabled": 16, "willing": True},
                      "prio2tc": [0, 0, 0, 3, 0, 0, 6, 0]}}


def build_store(path, lines):
    jsonl = path + ".jsonl"
    with open(jsonl, "w") as f:
        for obj in lines:
            f.write(json.dumps(obj) + "\n")
    r = subprocess.run([DCBKIT, "store", "import", "--store", path, jsonl],
                       capture_output=True, text=True)
    if r.returncode != 0:
        fail("store import: " + r.stderr)
    return path


class Tmux:
    """One tmux server of our own (-L), one session running a command."""

    def __init__(self, name, command, width, height, env=None, wait=None):
        if not shutil.which("tmux"):
            skip("tmux not installed (scripts/bootstrap installs it)")
        self.sock = "dcbtop-test-%d-%s" % (os.getpid(), name)
        self.name = name
        self.wait = wait if wait is not None else float(os.environ.get("DCBTOP_WAIT", "8"))
        env = dict(env or {})
        env.setdefault("LANG", "C.UTF-8")
        env.setdefault("TERM", "xterm-256color")
        envs = " ".join("%s=%s" % (k, v) for k, v in env.items())
        # the pane stays after the program exits, so that its exit can be seen
        self.tmux("new-session", "-d", "-s", name, "-x", str(width), "-y", str(height),
                  "env %s %s; echo DCBTOP-EXIT=$?; sleep 30" % (envs, command))

    def tmux(self, *args):
        return subprocess.run(["tmux", "-L", self.sock] + list(args), capture_output=True,
                              text=True, check=False)

    def keys(self, *keys):
        self.tmux("send-keys", "-t", self.name, *keys)

    def literal(self, text):
        self.tmux("send-keys", "-t", self.name, "-l", text)

    def screen(self, escapes=False):
        args = ["capture-pane", "-p", "-t", self.name] + (["-e"] if escapes else [])
        return self.tmux(*args).stdout

    def wait_for(self, what, pred, escapes=False):
        end = time.monotonic() + self.wait
        while True:
            s = self.screen(escapes)
            if pred(s):
                return s
            if time.monotonic() > end:
                fail("%s: not on screen within %.0f s:\n%s" % (what, self.wait, s))
            time.sleep(0.1)

    def wait_text(self, what, text, escapes=False):
        return self.wait_for(what, lambda s: text in s, escapes)

    def resize(self, width, height):
        self.tmux("resize-window", "-t", self.name, "-x", str(width), "-y", str(height))

    def close(self):
        self.tmux("kill-server")


def table_rows(screen):
    """The interface names of the main view, top to bottom."""
    lines = screen.splitlines()
    for i, line in enumerate(lines):
        if "INTERFACE" in line:
            names = []
            for row in lines[i + 1:]:
                parts = row[2:].split()
                if not parts or not parts[0][:1] in "+-":
                    break
                names.append(parts[0][1:])
            return names
    return []
