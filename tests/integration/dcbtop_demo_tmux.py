"""dcbtop --demo in a real terminal (tmux): the built-in replay scenario (a 5->1 incast on
priority 3 into host1, a slow receiver host8) runs paced to the wall clock. Rates appear after
the second sample round, the rows are sorted by PFC frames received, the incast's victim ports
pause, p and l change the priorities the columns cover, the QoS view shows the fabric's intent
against the link partner's, and the findings pane names the scenario's expected rule:
slow-receiver on host8 (it drains at 2G on a 10G link). Also the same demo in batch mode."""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from dcbtop_helpers import DCBTOP, Tmux, fail, need_binaries, table_rows  # noqa: E402

need_binaries()
EXPECTED_RULE = "slow-receiver"
EXPECTED_PLACE = "host8/eth0"
RULES_WAIT = float(os.environ.get("DCBTOP_RULES_WAIT", "20"))   # rules run every 5 s


def column(screen, name, col):
    """The text of a value column (0-based among the value columns) in name's row."""
    for ln in screen.splitlines():
        parts = ln[2:].split()
        if parts and parts[0][1:] == name:
            return parts[1 + col]
    return None


def number(text):
    m = re.fullmatch(r"([0-9.]+)([kMGTP]?)%?", text or "")
    if not m:
        return None
    return float(m.group(1)) * {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}[m.group(2)]


t = Tmux("demo", "%s --demo -d 0.5" % DCBTOP, 140, 45)
try:
    s = t.wait_text("first frame", "replay demo")
    # rates known and pauses seen: the top row's PFC rx is a number above 0, not "…" (on a
    # loaded machine the simulator can trail the wall clock, so the first known rates may be 0)
    s = t.wait_for("rates", lambda s: table_rows(s) and
                   (number(column(s, table_rows(s)[0], 2)) or 0) > 0)
    rows = table_rows(s)
    if len(rows) != 24:
        fail("24 interfaces expected (8 hosts, 16 switch ports), got %d:\n%s" % (len(rows), s))
    values = [number(column(s, r, 2)) for r in rows]
    known = [v for v in values if v is not None]
    if known != sorted(known, reverse=True) or not known[0] > 0:
        fail("not sorted by PFC rx: %s\n%s" % (values, s))
    print("top rows: %s; PFC rx %s" % (rows[:3], known[:3]))

    # one priority, then the lossless set again
    t.keys("p", "0")
    s = t.wait_text("prio 0", "prio 0 - sort")
    t.wait_for("no pauses on priority 0",
               lambda s: all((number(column(s, r, 2)) or 0) == 0 for r in table_rows(s)))
    t.keys("l")
    t.wait_text("lossless", "lossless - sort")

    # the QoS view of the selected port: the fabric's intent and its link partner's
    t.keys("Tab", "Tab")
    s = t.wait_text("QoS view", "QoS config of")
    if "(fabric)" not in s or "link partner:" not in s or "PFC enabled   0x08" not in s:
        fail("QoS view:\n" + s)

    t.keys("f")
    t.wait = RULES_WAIT
    s = t.wait_for("findings name the expected rule",
                   lambda s: re.search(r"%s +%s" % (EXPECTED_RULE, EXPECTED_PLACE), s))
    if "knob:" not in s or "evidence:" not in s:
        fail("the finding's evidence and knob are missing:\n" + s)
    t.keys("q")
    t.wait_text("quit", "DCBTOP-EXIT=0")
finally:
    t.close()

r = subprocess.run([DCBTOP, "--demo", "-b", "-n", "14", "-d", "0.5", "-T", "json"],
                   capture_output=True, text=True, timeout=60)
if r.returncode != 0:
    fail("batch demo: " + r.stderr)
frames = [json.loads(x) for x in r.stdout.splitlines()]
last = {i["device"] + "/" + i["ifname"]: i for i in frames[-1]["interfaces"]}
if len(frames) != 14 or not any((i["pfc_rx_per_s"] or 0) > 0 for i in last.values()):
    fail("batch demo frames: %s" % [len(f["interfaces"]) for f in frames])
if not any(f["rule"] == EXPECTED_RULE and f["device"] + "/" + f["ifname"] == EXPECTED_PLACE
           for f in frames[-1]["findings"]):
    fail("batch demo findings: %s" % {f["rule"] for f in frames[-1]["findings"]})
print("ok")
