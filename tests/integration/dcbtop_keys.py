"""dcbtop's keys in a real terminal (tmux), each typed and read back from the screen:
  d         the prompt starts empty: d 2 Enter refreshes every 2 s (not 12), then d 0.5 Enter
            every 0.5 s and the data time goes on moving (not 120.5 s and a frozen screen);
            garbage and out-of-range values are refused with a message, the interval kept;
  f         the findings view scrolls within its lines: PgDn four times shows the last page
            (not a blank one), Up moves from there at once, Home goes back to the first
            finding and End to the last line;
  names     at 100 columns every port of the demo keeps its whole name (spine1/Ethernet0 and
            spine1/Ethernet1 were both "spine1/Ethe"); at 72 columns, where no whole name fits,
            they are cut in the middle of the port and the device names and stay apart;
  help      q and F10 in the help return to the view (the help says any key does); F10 quits.
Every wait polls the screen up to DCBTOP_WAIT seconds (a loaded machine)."""
import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from dcbtop_helpers import (DCBTOP, Tmux, build_store, fail, fixture_lines,  # noqa: E402
                            need_binaries, table_rows)

need_binaries()
tmp = tempfile.mkdtemp(prefix="dcbtop-keys-")
sessions = []


def header_time(screen):
    m = re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ", screen.splitlines()[0] if screen else "")
    return m.group(0) if m else None


def interval_prompt():
    t = Tmux("interval", "%s --demo" % DCBTOP, 120, 30)
    sessions.append(t)
    t.wait_text("first frame", "every 1s")
    t.keys("d")
    s = t.wait_text("the prompt", "refresh interval in seconds")
    prompt = s.splitlines()[-1]
    if not re.search(r"\(now 1s\): *$", prompt):
        fail("the prompt starts empty, with the current interval in its label: %r" % prompt)
    t.literal("2")
    t.keys("Enter")
    s = t.wait_text("d 2 Enter: every 2s", "every 2s")
    if "every 12s" in s:
        fail("d 2 Enter kept the old digits:\n" + s)
    t.keys("d")
    t.wait_text("the prompt again", "(now 2s)")
    t.literal("0.5")
    t.keys("Enter")
    s = t.wait_text("d 0.5 Enter: every 0.5s", "every 0.5s")
    # refreshing: the data time in the header moves on (a 120.5 s interval froze it)
    first = header_time(s)
    t.wait_for("the screen refreshes at 0.5 s", lambda s: header_time(s) not in (None, first))
    for bad, why in (("abc", "garbage"), ("5000", "above 3600"), ("0.001", "below 0.01"),
                     ("1.5.2", "two points")):
        t.keys("d")
        t.wait_text("prompt for %s" % why, "(now 0.5s)")
        t.literal(bad)
        t.keys("Enter")
        s = t.wait_text("%s refused" % why, "not an interval: '%s'" % bad)
        if "every 0.5s" not in s.splitlines()[0]:
            fail("%s changed the interval:\n%s" % (why, s))
    t.keys("d")
    t.wait_text("prompt, then Esc", "(now 0.5s)")
    t.keys("Escape")
    t.wait_text("Esc keeps the interval", "every 0.5s (unchanged)")
    t.keys("q")
    t.wait_text("quit", "DCBTOP-EXIT=0")
    print("interval: d 2 -> every 2s, d 0.5 -> every 0.5s and refreshing; garbage refused")


def settled(t, quiet=1.0):
    """The screen once two captures quiet seconds apart are the same."""
    box = {"last": None}

    def same(s):
        time.sleep(quiet)
        now = t.screen()
        same_screen = now == s and now == box["last"]
        box["last"] = now
        return same_screen
    return t.wait_for("a settled screen", same)


def findings_scroll(db):
    # 7 findings, 48 lines: four pages of 15 go past the end
    t = Tmux("findings", "%s --store %s -d 0.2" % (DCBTOP, db), 100, 20)
    sessions.append(t)
    t.wait_text("first frame", "INTERFACE")
    t.keys("f")
    t.wait_text("findings view", "[findings]")
    # the first frame holds the window's last intervals, the next refresh all of it (with other
    # counts in the findings): read the lines once they no longer change
    s = settled(t)
    first = [ln for ln in s.splitlines()[2:-1] if ln.strip()][0]
    for _ in range(4):
        t.keys("NPage")
    s = settled(t, 0.5)
    last_page = s.splitlines()[2:-1]
    # the last entry ends with its knob, then the documents its rule cites
    if sum(1 for ln in last_page if ln.strip()) != 17 or "see:" not in last_page[-1]:
        fail("PgDn x4: not the last page of findings:\n" + s)
    t.keys("Up")
    s = t.wait_for("Up scrolls back one line at once",
                   lambda s: s.splitlines()[3:-1] == last_page[:-1])
    t.keys("Home")
    s = t.wait_for("Home: the first finding", lambda s: s.splitlines()[2] == first)
    t.keys("End")
    s = t.wait_for("End: the last page again", lambda s: s.splitlines()[2:-1] == last_page)
    t.keys("PPage")
    t.wait_for("PgUp moves up a page", lambda s: s.splitlines()[2:-1] != last_page)
    t.keys("q")
    t.wait_text("quit", "DCBTOP-EXIT=0")
    print("findings: PgDn x4 stops at the last page; Up, Home, End and PgUp move")


DEMO_PORTS = sorted(["host%d/eth0" % h for h in range(1, 9)] +
                    ["leaf%d/Ethernet%d" % (leaf, p) for leaf in (1, 2) for p in range(6)] +
                    ["spine%d/Ethernet%d" % (s, p) for s in (1, 2) for p in range(2)])


def names():
    t = Tmux("names", "%s --demo --sort name" % DCBTOP, 100, 30)
    sessions.append(t)
    s = t.wait_for("24 ports at 100 columns", lambda s: len(table_rows(s)) == 24)
    if table_rows(s) != DEMO_PORTS:
        fail("names at 100 columns: %s\n%s" % (table_rows(s), s))
    t.resize(72, 30)
    # 72 columns leave the names 10 cells with their fold mark: every name longer than 9 is
    # cut (a capture taken before the redraw shows them whole, cut only by tmux at 72)
    s = t.wait_for("72 columns", lambda s: len(table_rows(s)) == 24 and all(
        len(r) <= 9 and ("\u2026" in r) == (len(p) > 9) for r, p in zip(table_rows(s),
                                                                      DEMO_PORTS)))
    rows = table_rows(s)
    # cut where it tells least: the ends of the device and of the port stay ("sp…e1/E…0")
    ends = [(r.split("/")[0][-1], r[-1]) for r in rows]
    if len(set(rows)) != 24 or ends != [(p.split("/")[0][-1], p[-1]) for p in DEMO_PORTS]:
        fail("names at 72 columns, cut in the middle: %s\n%s" % (rows, s))
    t.keys("q")
    t.wait_text("quit", "DCBTOP-EXIT=0")
    print("names: whole at 100 columns; at 72 cut in the middle: %s" % rows[-4:])


def help_keys(db):
    t = Tmux("help", "%s --store %s -d 0.3" % (DCBTOP, db), 120, 30)
    sessions.append(t)
    t.wait_text("first frame", "INTERFACE")
    settled(t, 0.6)              # the whole window replaces the first frame's rows
    t.keys("h")
    s = t.wait_text("help", "any key returns")
    if not re.search(r"q F10 +Quit", s):
        fail("the help names F10:\n" + s)
    t.keys("q")
    s = t.wait_text("q in the help returns", "INTERFACE")
    if "DCBTOP-EXIT" in s:
        fail("q in the help quit dcbtop:\n" + s)
    t.keys("F1")
    t.wait_text("F1: help", "any key returns")
    t.keys("F10")
    t.wait_text("F10 in the help returns", "INTERFACE")
    # Home and End move the selection: Enter expands the row they chose
    t.keys("End", "Enter")
    t.wait_for("End selects the last row", lambda s: table_rows(s)[-1:] == ["ens2f1"] and
               "-ens2f1" in s)
    t.keys("Enter", "Home", "Enter")
    t.wait_for("Home selects the first row", lambda s: "-ens2f0" in s and "-ens2f1" not in s)
    t.keys("F10")
    t.wait_text("F10 quits", "DCBTOP-EXIT=0")
    print("help: q and F10 return; F10 quits; Home and End select")


try:
    db = build_store(os.path.join(tmp, "fix.db"), fixture_lines())
    interval_prompt()
    findings_scroll(db)
    names()
    help_keys(db)
    print("ok")
finally:
    for t in sessions:
        t.close()
    shutil.rmtree(tmp, ignore_errors=True)
