"""dcbtop in a real terminal (tmux) on a fixture store built with `dcbkit store import`: sort,
filter, expand, the views, help, resize to 80x24 and 200x60, quit; what is on screen is read
back with capture-pane (-e where attributes matter). The link partner's LLDP system name holds
escape sequences: they show up as \\xNN text and never reach the terminal. A terminal without
colour (TERM=vt100) still marks the critical row. DCBTOP_WAIT bounds each wait (seconds)."""
import os
import time
import re
import sys
import tempfile
import shutil

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from dcbtop_helpers import (DCBTOP, Tmux, build_store, fail, fixture_lines,  # noqa: E402
                            need_binaries, table_rows)

need_binaries()
tmp = tempfile.mkdtemp(prefix="dcbtop-tmux-")
sessions = []


REFRESH = os.environ.get("DCBTOP_TEST_REFRESH", "0.5")


def check(what, cond, screen):
    if not cond:
        fail("%s:\n%s" % (what, screen))


try:
    db = build_store(os.path.join(tmp, "fix.db"), fixture_lines())
    t = Tmux("store", "%s --store %s -d %s" % (DCBTOP, db, REFRESH), 120, 30)
    sessions.append(t)
    s = t.wait_text("first frame", "INTERFACE")
    # the first frame holds the window's last intervals; the whole window replaces it on the next
    # refresh (source_store.c): keys sent before that could land on rows about to be rebuilt
    time.sleep(3 * float(REFRESH))

    # the default sort: PFC frames received per second, largest first
    t.wait_for("sorted by PFC rx", lambda s: table_rows(s)[:1] == ["ens2f0"])
    s = t.screen()
    check("PFC rx order", table_rows(s) == ["ens2f0", "ens1f0", "ens1f1", "eth9", "ens2f1"], s)
    check("sort named in the header", "sort PFCrx" in s.splitlines()[0], s)

    # < three times: PFCrx -> TXb/s -> RXb/s -> name
    t.keys("<")
    t.wait_text("sorted by TX", "sort TXb/s")
    t.keys("<")
    # the header and the rows reach the terminal in one refresh, but a capture can fall between
    # them: wait for both (a wrong order fails here, when the wait runs out)
    t.wait_for("sorted by RX, eth9 (which carries most) first",
               lambda s: "sort RXb/s" in s and table_rows(s)[:1] == ["eth9"])
    t.keys("<")
    t.wait_for("sorted by name, five rows in order",
               lambda s: "sort name" in s and len(table_rows(s)) == 5 and
               table_rows(s) == sorted(table_rows(s)))
    t.keys(">", ">", ">")
    t.wait_text("back to PFC rx", "sort PFCrx")

    # filter: / ens2 Enter -> 2 rows; / Esc clears it
    t.keys("/")
    t.literal("ens2")
    t.keys("Enter")
    s = t.wait_text("filter applied", 'filter "ens2": 2 of 5')
    check("filtered rows", table_rows(s) == ["ens2f0", "ens2f1"], s)
    t.keys("/", "Escape")
    t.wait_for("filter cleared", lambda s: len(table_rows(s)) == 5)

    # Enter expands the selected interface (the first row) into its priorities
    t.keys("Enter")
    s = t.wait_text("expanded", "prio 3")
    check("eight priority rows", sum(1 for ln in s.splitlines() if "   prio " in ln) == 8, s)
    check("expanded marker", re.search(r"-ens2f0", s) is not None, s)
    t.keys("Enter")
    t.wait_for("folded", lambda s: "   prio 3" not in s)

    # select ens1f0 (second row), then Tab through the views
    t.keys("Down")
    t.keys("Tab")
    s = t.wait_text("priority view", "Priorities of gpu1/ens1f0")
    check("prio 3 is the lossless one", re.search(r"^3 L ", s, re.M) is not None, s)
    t.keys("Tab")
    s = t.wait_text("QoS view", "QoS config of gpu1/ens1f0")
    pfc = [ln for ln in s.splitlines() if ln.startswith("PFC enabled")]
    check("PFC mask mismatch marked", pfc and "MISMATCH" in pfc[0] and "0x08" in pfc[0]
          and "0x10" in pfc[0], s)
    check("a matching row is not marked", all("MISMATCH" not in ln for ln in s.splitlines()
                                               if ln.startswith("prio>TC")), s)
    # the escape sequences of the partner's name are text on screen
    s = t.wait_for("peer name escaped", lambda s: "evil\\x1b]0;pwned\\x07sw\\x1b[31mRED" in s)
    e = t.screen(escapes=True)
    line = [ln for ln in e.splitlines() if "PFC enabled" in ln]
    check("mismatch highlighted (reverse or colour)",
          line and re.search(r"\x1b\[[0-9;]*(7|41)[;m]", line[0]) is not None, e)
    check("no red text from the peer name", "RED" in e and "\x1b[31mRED" not in e, e)
    t.keys("Tab")
    s = t.wait_text("findings view", "cfg-pfc-mask-mismatch")
    check("finding: evidence and knob", "evidence: pfc.enabled" in s and
          "knob: pfc.enabled -> 0x10" in s, s)
    t.keys("Tab")
    t.wait_text("back to the interfaces", "[interfaces]")
    t.keys("f")
    t.wait_text("f opens the findings", "[findings]")
    t.keys("f")
    t.wait_text("f again closes them", "[interfaces]")

    # help, and any key returns
    t.keys("h")
    s = t.wait_text("help", "Filter interfaces by name")
    t.keys("x")
    t.wait_text("help closed", "INTERFACE")

    # resize: 80x24 keeps every column; 200x60 adds the 60-sample sparkline
    t.resize(80, 24)
    s = t.wait_for("80x24", lambda s: len(s.splitlines()[0]) <= 80 and "Drp/s" in s
                   and len(table_rows(s)) == 5)
    check("80 columns", max(len(ln) for ln in s.splitlines()) <= 80, s)
    t.resize(200, 60)
    s = t.wait_text("200x60 sparkline", "last 60: PFCrx")
    row = [ln for ln in s.splitlines() if "+ens2f0" in ln]
    check("sparkline drawn", row and re.search("[\u2581-\u2588]{10,}", row[0]) is not None, s)

    # d changes the interval; Space pauses
    t.keys("d")
    t.wait_text("interval prompt", "refresh interval")
    t.keys("BSpace", "BSpace", "BSpace", "BSpace")
    t.literal("2")
    t.keys("Enter")
    t.wait_text("interval changed", "every 2s")
    t.keys("Space")
    t.wait_text("paused", "PAUSED")
    t.keys("Space")

    t.keys("q")
    t.wait_text("quit", "DCBTOP-EXIT=0")

    # no colour, 80x24: the critical row is still marked
    t2 = Tmux("mono", "%s --store %s" % (DCBTOP, db), 80, 24, env={"TERM": "vt100"})
    sessions.append(t2)
    s = t2.wait_text("vt100 first frame", "INTERFACE")
    crit = [ln for ln in s.splitlines() if "+ens1f0" in ln]
    check("critical row marked without colour", crit and crit[0].startswith("!"), s)
    e = t2.screen(escapes=True)
    check("no colour codes", re.search(r"\x1b\[[0-9;]*3[0-7]m", e) is None, e)
    t2.keys("q")
    t2.wait_text("quit (vt100)", "DCBTOP-EXIT=0")
    # a live source: the first frame has no rates ("…", not 0), and a host without PFC
    # counters says so and offers the demo
    fix = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures",
                       "sysfs", "mlx5", "t0")
    t3 = Tmux("local", "%s --sysfs-root %s --proc-root %s -d 30" %
              (DCBTOP, fix, os.path.join(tmp, "noproc")), 100, 24)
    sessions.append(t3)
    s = t3.wait_text("local first frame", "+ens1f0")
    row = [ln for ln in s.splitlines() if "+ens1f0" in ln][0]
    check("rates wait for a second sample", row.split()[1:3] == ["\u2026", "\u2026"], s)
    check("no PFC counters: the demo is offered",
          "no interface here has PFC counters: try dcbtop --demo" in s.splitlines()[-1], s)
    t3.keys("q")
    t3.wait_text("quit (local)", "DCBTOP-EXIT=0")
finally:
    for t in sessions:
        t.close()
    shutil.rmtree(tmp, ignore_errors=True)
