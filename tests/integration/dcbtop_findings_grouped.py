"""Issue 31: dcbtop's findings view groups findings by cause, as the report does. On the shipped
report case (fixtures/reports/four-faults.sh: 37 findings of six causes), `f` shows one entry
per cause, worst first, with its places compacted ("8 places: switch1 Ethernet0-7, prio 3"),
its evidence and the proposed value with its unit; batch JSON still lists every finding.
Enter lists each place of the cause at the top of the screen (its evidence, its own proposed
value), and folds it again."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from dcbtop_helpers import DCBTOP, Tmux, fail, need_binaries  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DCBKIT = os.environ.get("DCBKIT", os.path.join(ROOT, "build", "cc", "bin", "dcbkit"))

need_binaries()
tmp = tempfile.mkdtemp(prefix="dcbtop-grouped-")
t = None
try:
    subprocess.run([os.path.join(ROOT, "fixtures", "reports", "four-faults.sh"), DCBKIT, tmp],
                   check=True)
    db = os.path.join(tmp, "store.db")
    model = json.load(open(os.path.join(tmp, "report", "report.json")))
    t = Tmux("grouped", "%s --store %s -d 0.05" % (DCBTOP, db), 160, 60)
    t.wait_text("first frame", "INTERFACE")
    t.keys("f")
    s = t.wait_text("findings view", "[findings]")
    # the four replays were stored within about 0.3 s of wall time: a refresh interval (the
    # store's grid step) must be shorter than that for a counter to have two readings in the
    # window, hence -d 0.05. The first frame holds the window's last intervals only; the next
    # refresh has the whole window (the headroom drops among them): measure once the screen
    # stops changing
    # (the rules run every 5 s, so this may take two runs on a loaded machine)
    t.wait, wait = max(t.wait, 20), t.wait
    t.wait_for("the whole window's findings", lambda s: "headroom-underprovisioned" in s)
    t.wait = wait
    last = {"screen": None}

    def settled(s):
        time.sleep(0.8)
        now = t.screen()
        same = now == s and now == last["screen"]
        last["screen"] = now
        return same and "places:" in now
    s = t.wait_for("findings grouped, settled", settled)
    grouped = [ln for ln in s.splitlines()
               if re.search(r"^\S+ +(crit|warn|info) +\S+ +\d+ places: ", ln)]
    m = None
    for ln in grouped:
        m = m or re.search(r"(\d+) places: switch1 Ethernet0\u2013(\d+), prio 3", ln)
    if not m or int(m.group(1)) != int(m.group(2)) + 1:
        fail("no cause with its ports compacted into one range:\n" + s)
    if not re.search(r"evidence at switch1/Ethernet\d+: ", s):
        fail("a group's evidence does not say whose it is:\n" + s)
    if "-> 41218 (41.2 KB)" not in s:
        fail("the proposed headroom has no unit:\n" + s)
    if not re.search(r"^    see: /\S*/rules-references\.md#sonic-buffers #pause$", s, re.M):
        fail("a cause does not cite the shipped list by its path:\n" + s)
    entries = [ln for ln in s.splitlines() if re.match(r"^\S+ +(crit|warn|info) +\S", ln)]
    rules = [re.match(r"^\S+ +\S+ +(\S+)", ln).group(1) for ln in entries]
    if len(rules) != len(set(rules)):
        fail("a rule appears twice for one cause: %r" % rules)
    # scroll the grouped headroom cause to the top, list its places, fold them
    lines = s.splitlines()
    row = next(k for k, ln in enumerate(lines) if m.group(0) in ln)
    for _ in range(row - 2):
        t.keys("Down")
    s = t.wait_for("the grouped cause at the top", lambda s: m.group(0) in s.splitlines()[2]
                   and "[Enter lists each]" in s.splitlines()[2])
    t.keys("Enter")
    n = int(m.group(1))
    place_re = re.compile(r"^ {6}switch1/Ethernet(\d+) prio 3: \S+ = .+  -> \d+ \([\d.]+ [KM]B\)$")
    s = t.wait_for("each place listed",
                   lambda s: sum(1 for ln in s.splitlines() if place_re.match(ln)) == n)
    ports = sorted(int(place_re.match(ln).group(1)) for ln in s.splitlines() if place_re.match(ln))
    if ports != list(range(n)):
        fail("the listed places are not Ethernet0-%d: %r" % (n - 1, ports))
    if "[Enter folds]" not in s.splitlines()[2]:
        fail("the expanded cause does not say Enter folds it:\n" + s)
    t.keys("Enter")
    t.wait_for("folded again", lambda s: not any(place_re.match(ln) for ln in s.splitlines()))
    t.keys("q")
    t.wait_text("quit", "DCBTOP-EXIT=0")
    # batch JSON keeps every finding on its own
    out = subprocess.run([DCBTOP, "--store", db, "-b", "-n", "2", "-d", "0.05", "-T", "json"],
                         capture_output=True, text=True, timeout=60).stdout.splitlines()
    last = json.loads(out[-1])
    got = sum(1 for f in last.get("findings", []) if f.get("rule") == "cfg-headroom")
    if got != int(m.group(1)) and int(m.group(1)) > 1 and "cfg-headroom" in m.string:
        fail("batch JSON does not list the %s places one by one: %d" % (m.group(1), got))
    if len(last.get("findings", [])) <= len(rules):
        fail("batch JSON grouped the findings: %d for %d causes"
             % (len(last.get("findings", [])), len(rules)))
    print("ok: %d causes on screen; %s, listed one by one and folded" % (len(rules), m.group(0)))
finally:
    if t:
        t.close()
    shutil.rmtree(tmp, ignore_errors=True)
