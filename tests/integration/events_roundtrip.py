"""Events as structured data, end to end:

- hostile counter names in an `ethtool -S` dump (rx_"evil", one with a backslash and a control
  byte) go down between two dumps, so collect emits counter_reset events naming them: every line
  of `collect -T json` and of `store events -T json` parses, and each name comes back exactly;
  the store's own details column holds JSON a strict reader accepts;
- `collect -T json | dcbkit store import` round-trips the events (count, kinds, where, when and
  every details value) of those dumps and of a capture's pauses, and they are the events that
  `collect --store` kept;
- the streams' event lines carry "kind" and, for schema 2, "event" with the same value;
- a store written before the builder, holding details that are not JSON, still lists as JSON
  lines: {"unparsed": the stored text}."""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from store_helpers import DCBKIT, ROOT, fail  # noqa: E402

HOSTILE = {"rx_\"evil\"": (100, 5), "rx_back\\slash\x01": (50, 1)}
MAPPED_RESET = ("rx_prio3_packets", 7)   # a mapped counter going down: an event with a prio


def run(args, stdin=None):
    r = subprocess.run([DCBKIT] + args, input=stdin, capture_output=True, text=True)
    if r.returncode != 0:
        fail("dcbkit %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr.strip()))
    return r.stdout


def json_lines(text, what):
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        try:
            rows.append(json.loads(line))
        except ValueError as e:
            fail("%s line %d is not JSON (%s): %r" % (what, n, e, line))
    return rows


def key(e):
    return (e["ts"], e["kind"], e["device"], e["ifname"], e["prio"],
            json.dumps(e["details"], sort_keys=True))


def stored_events(db):
    return json.loads(run(["store", "events", "--store", db, "--since", "36500d", "-T",
                           "json"]))["events"]


def write_dumps(tmp):
    fix = os.path.join(ROOT, "fixtures", "ethtool")
    paths = []
    for snap in (0, 1):
        with open(os.path.join(fix, "mlx5-pfc3-t%d.txt" % snap)) as f:
            lines = f.read().splitlines()
        if snap:
            lines = ["     %s: %d" % MAPPED_RESET if l.strip().startswith(MAPPED_RESET[0] + ":")
                     else l for l in lines]
        lines += ["     %s: %d" % (name, v[snap]) for name, v in HOSTILE.items()]
        path = os.path.join(tmp, "dump-t%d.txt" % snap)
        with open(path, "w", newline="\n") as f:
            f.write("\n".join(lines) + "\n")
        paths.append(path)
    return paths


def check_stream_events(rows, what):
    events = [r for r in rows if "kind" in r or "event" in r]
    for e in events:
        if e.get("event") != e.get("kind") or e.get("schema") != 2:
            fail("%s: an event line without kind, its event alias and schema 2: %s" % (what, e))
    return events


def hostile_and_roundtrip(tmp):
    t0, t1 = write_dumps(tmp)
    db = os.path.join(tmp, "collected.db")
    out = run(["collect", "--device", "gpu1", "--ifname", "ens1f0", "--from-ethtool-dump", t0,
               "--from-ethtool-dump", t1, "--interval", "1s", "--store", db, "-T", "json", "-q"])
    events = check_stream_events(json_lines(out, "collect -T json"), "collect")
    resets = {e["details"].get("counter"): e for e in events if e["kind"] == "counter_reset"}
    for name, (before, after) in HOSTILE.items():
        e = resets.get(name)
        if not e or (e["details"]["previous"], e["details"]["value"], e["prio"]) != \
                (before, after, -1):
            fail("collect: no counter_reset naming %r %d -> %d: %s" % (name, before, after,
                                                                        sorted(resets)))
    if MAPPED_RESET[0] not in resets or resets[MAPPED_RESET[0]]["prio"] != 3:
        fail("collect: the mapped %s reset on prio 3 missing: %s" % (MAPPED_RESET[0], resets))

    listed = json_lines(run(["store", "events", "--store", db, "--since", "36500d", "-T",
                             "json"]), "store events -T json")
    kept = listed[0]["events"]
    names = {e["details"].get("counter") for e in kept}
    if not set(HOSTILE) <= names:
        fail("store events: the names came back as %s" % sorted(names))
    with sqlite3.connect(db) as con:
        for (details,) in con.execute("SELECT details FROM events"):
            try:
                json.loads(details)
            except ValueError:
                fail("the store's details column holds %r" % details)
    text = run(["store", "events", "--store", db, "--since", "36500d"])
    if "\"counter\":\"rx_\\\"evil\\\"\"" not in text or "\x01" in text:
        fail("store events text: the name not shown escaped:\n%s" % text)

    imported = os.path.join(tmp, "imported.db")
    run(["store", "import", "--store", imported, "-q"], stdin=out)
    want = Counter(key(e) for e in events)
    for name, got in (("collect -T json | store import", stored_events(imported)),
                      ("collect --store", kept)):
        if Counter(key(e) for e in got) != want:
            fail("%s: events %s, collect printed %s" % (name, sorted(Counter(map(key, got))),
                                                        sorted(want)))
    print("ok: %d events from the dumps (%s) round-trip; rx_\"evil\" and its kin survive in "
          "collect, store events and the store" % (len(events),
                                                   dict(Counter(e["kind"] for e in events))))
    return imported


def capture_roundtrip(tmp):
    pcap = os.path.join(ROOT, "fixtures", "captures", "analyze", "pfc-classes.pcap")
    out = run(["collect", "--pcap", pcap, "--link-speed", "100G", "-T", "json", "-q"])
    events = check_stream_events(json_lines(out, "collect --pcap -T json"), "collect --pcap")
    kinds = Counter(e["kind"] for e in events)
    if kinds["pfc_xoff"] < 2 or kinds["pfc_xon"] < 2:
        fail("collect --pcap: events %s, want pauses that start and end" % dict(kinds))
    db = os.path.join(tmp, "capture.db")
    run(["store", "import", "--store", db, "-q"], stdin=out)
    got = stored_events(db)
    if Counter(map(key, got)) != Counter(map(key, events)):
        fail("capture: imported %s, collect printed %s" % (sorted(map(key, got)),
                                                          sorted(map(key, events))))
    print("ok: the capture's %d events (%s) round-trip with their details" %
          (len(events), dict(kinds)))


def old_store(db):
    """Details a store kept before the builder: not JSON; listed as {"unparsed": text}."""
    bad = '{"source":"ethtool","counter":"rx_"evil"","previous":100,"value":5}'
    with sqlite3.connect(db) as con:
        con.execute("INSERT INTO events (ts, kind, device, ifname, prio, details) "
                    "VALUES (1, 'counter_reset', 'old', 'eth0', -1, ?)", (bad,))
    rows = [e for e in stored_events(db) if e["device"] == "old"]
    if [e["details"] for e in rows] != [{"unparsed": bad}]:
        fail("an old store's bad details listed as %s" % rows)
    print("ok: an old row's bad details list as {\"unparsed\": ...}")


with tempfile.TemporaryDirectory(prefix="dcbkit-events-") as tmp:
    old_store(hostile_and_roundtrip(tmp))
    capture_roundtrip(tmp)
print("ok")
