"""No command lets a hostile name drive the terminal.

Names that came from the network, a file or a store carry an OSC 52 clipboard write, a screen
clear, a bell and an 8-bit CSI (U+009B): a store imported with such device and interface names,
an event detail, a capture whose LLDP system name, port ID and chassis are such names (and one
whose file name is: a capture's device is its file name), a fabric
file named so, a scenario named so, and command-line values echoed in errors. Every command that
`dcbkit help` lists (and dcbtop) runs on them in text mode; its stdout and stderr may hold no
control byte but newline and tab: no ESC, no BEL, no C1 (raw or UTF-8 encoded), no DEL. A command
the table lists with no case here fails the test, so a new command gets one.

serve's /metrics page is Prometheus text (its own escaping, read by Prometheus, not a terminal):
`serve --once` is checked on stderr only."""
import json
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from store_helpers import DCBKIT, fail  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DCBTOP = os.environ.get("DCBTOP", os.path.join(ROOT, "build", "cc", "bin", "dcbtop"))
EVIL = "\x1b]52;c;aGk=\x07\x1b[2Jevil\u009b1m\x7f"


def unsafe(data):
    """The first control byte a terminal would obey, or None."""
    text = data.decode("utf-8", errors="replace")
    for ch in text:
        if (ord(ch) < 0x20 and ch not in "\n\t") or 0x7f <= ord(ch) <= 0x9f:
            return repr(ch)
    return None


def lldp_pcap(path):
    def tlv(t, body):
        return struct.pack("!H", t << 9 | len(body)) + body
    name = EVIL.encode()
    pdu = (tlv(1, b"\x07" + name) + tlv(2, b"\x05" + name) + tlv(3, b"\x00\x78") +
           tlv(5, name) + tlv(127, b"\x00\x80\xc2\x0b\x08\x08") + tlv(0, b""))
    frame = b"\x01\x80\xc2\x00\x00\x0e" + b"\x02\x00\x00\x00\x00\x01" + b"\x88\xcc" + pdu
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        f.write(struct.pack("<IIII", 1700000000, 0, len(frame), len(frame)) + frame)


def hostile_store(tmp):
    db = os.path.join(tmp, "h.db")
    lines = [{"ts": 1700000000000000000 + t * 10**9, "device": "sw" + EVIL, "ifname": "e" + EVIL,
              "metric": "pfc.rx_pause", "prio": 3, "value": 1000 * t} for t in range(3)]
    lines.append({"ts": 1700000000000000000, "device": "sw" + EVIL, "ifname": "e" + EVIL,
                  "source": "gnmi", "config": {"pfc": {"enabled": 8}}})
    lines.append({"ts": 1700000000000000000, "device": "sw" + EVIL, "ifname": "e" + EVIL,
                  "source": "peer:lldp", "config": {"pfc": {"enabled": 16}}})
    lines.append({"ts": 1700000001000000000, "kind": "pause_storm", "device": "sw" + EVIL,
                  "ifname": "e" + EVIL, "prio": 3, "details": {"why": EVIL}})
    r = subprocess.run([DCBKIT, "store", "import", "--store", db],
                       input="".join(json.dumps(x) + "\n" for x in lines),
                       capture_output=True, text=True)
    if r.returncode:
        fail("import: %s" % r.stderr)
    return db


def commands():
    out = subprocess.run([DCBKIT, "help"], capture_output=True, text=True).stdout
    body = out.split("\nCommands:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in body.splitlines() if line.startswith("  ")]


with tempfile.TemporaryDirectory() as tmp:
    db = hostile_store(tmp)
    pcap = os.path.join(tmp, "evil.pcap")
    lldp_pcap(pcap)
    fabric = os.path.join(tmp, "fabric.json")
    with open(fabric, "w") as f:
        json.dump({"name": "lab" + EVIL, "devices": [{"name": "h1", "role": "host"}],
                   "links": []}, f)
    bad_fabric = os.path.join(tmp, "bad.json")
    with open(bad_fabric, "w") as f:
        json.dump({"devices": [{"name": "h1", "role": "host",
                                "interfaces": {"e" + EVIL: {}}}]}, f)
    scenario = os.path.join(tmp, "s.json")
    with open(os.path.join(ROOT, "fixtures", "scenarios", "healthy-incast.json")) as f:
        s = json.load(f)
    s["name"] = "incast" + EVIL
    s["fabric"] = os.path.join(ROOT, "fixtures", "scenarios", s["fabric"])
    s["duration_ms"] = 1
    with open(scenario, "w") as f:
        json.dump(s, f)
    out = os.path.join(tmp, "report")
    named = os.path.join(tmp, "cap" + EVIL + ".pcap")   # a capture is its file's name
    lldp_pcap(named)
    cases = {}      # one statement a command: options_covered.py reads them so
    cases["analyze"] = [[pcap]]
    cases["calc"] = [["headroom", "--link-speed", EVIL, "--cable", "3m", "--mtu", "9216"]]
    cases["collect"] = [["--pcap", pcap, "--store", os.path.join(tmp, "c.db")], ["--pcap", named]]
    cases["decode"] = [["-r", pcap]]
    cases["diagnose"] = [["--store", db, "-v"], ["--pcap", pcap, "-v"]]
    cases["fabric"] = [["check", fabric], ["check", bad_fabric]]
    cases["gnmi"] = [["-a", EVIL, "capabilities"]]
    cases["metrics"] = [[EVIL]]
    cases["replay"] = [[scenario]]
    cases["report"] = [["--store", db, "--fabric", fabric, "--out", out], ["--out", out, EVIL]]
    cases["serve"] = [["--store", db, "--once", "--listen", "127.0.0.1:0"]]
    cases["store"] = [["query", "--store", db],
                      ["events", "--store", db],
                      ["import", "--store", os.path.join(tmp, "i.db"), "-"]]
    cases["help"] = [[EVIL]]
    cases["completion"] = [[EVIL]]
    stdin = {"store": '{"ts": 1, "device": "d", "ifname": "i", "metric": "x%s", "value": 1}\n'
             % EVIL}
    missing = [c for c in commands() if c not in cases]
    if missing:
        fail("no hostile-input case for: %s (add one here)" % missing)
    bad, runs, shown = [], 0, []
    for cmd in commands():
        for args in cases[cmd]:
            r = subprocess.run([DCBKIT, cmd] + args, capture_output=True, timeout=60,
                               input=stdin.get(cmd, "").encode())
            runs += 1
            streams = [("stderr", r.stderr)] + ([] if cmd == "serve" else [("stdout", r.stdout)])
            if b"\\x1b" in r.stdout + r.stderr:
                shown.append(cmd)
            for name, data in streams:
                u = unsafe(data)
                if u:
                    bad.append("%s %s: %s holds %s" % (cmd, " ".join(a[:20] for a in args),
                                                       name, u))
    for args in (["-b", "-n", "2", "-d", "0.1", "--store", db], ["-b", "-n", "1", "--pcap", pcap]):
        r = subprocess.run([DCBTOP] + args, capture_output=True, timeout=60)
        runs += 1
        for name, data in (("stdout", r.stdout), ("stderr", r.stderr)):
            u = unsafe(data)
            if u:
                bad.append("dcbtop %s: %s holds %s" % (" ".join(args[:4]), name, u))
    if bad:
        fail("raw control bytes reached the terminal:\n  " + "\n  ".join(bad))
    # the hostile names went through, shown escaped, in most commands (not only absent)
    want = {"calc", "collect", "decode", "diagnose", "fabric", "gnmi", "metrics", "replay",
            "report", "store", "help", "completion"}
    if not want <= set(shown):
        fail("the hostile text was never shown (escaped) by %s: is the case still hostile?"
             % sorted(want - set(shown)))
    print("ok: %d runs of %d commands and dcbtop over hostile names: no control byte on a "
          "terminal stream" % (runs, len(cases)))
