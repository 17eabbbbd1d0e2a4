"""Stores for the report tests: a day of counters through `dcbkit store import`, then events
and config snapshots written into the same SQLite tables the collectors fill (there is no
import for those yet). Shapes follow the fault scenarios: a pause storm on one port, drops on
a lossless priority group, a QP that retransmits, and an LLDP neighbour whose system name is
hostile."""
import json
import os
import sqlite3
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
DCBKIT = os.environ.get("DCBKIT", os.path.join(ROOT, "build", "cc", "bin", "dcbkit"))
FABRICS = os.path.join(ROOT, "fixtures", "fabrics")
T0 = 1795392000 * 10**9          # 2026-11-23 00:00 UTC
STEP = 60 * 10**9
HOSTILE = "<script>alert(1)</script>"

PORTS = {"leaf1": ["Ethernet0", "Ethernet1", "Ethernet2", "Ethernet3"],
         "leaf2": ["Ethernet0", "Ethernet1", "Ethernet2", "Ethernet3"],
         "spine1": ["Ethernet0", "Ethernet1"], "spine2": ["Ethernet0", "Ethernet1"],
         "host1": ["eth0"], "host2": ["eth0"], "host3": ["eth0"], "host4": ["eth0"]}


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def run(args, expect=None):
    p = subprocess.run([DCBKIT] + args, capture_output=True, text=True)
    if expect is not None and p.returncode != expect:
        fail("dcbkit %s: exit %d, expected %d\nstdout: %s\nstderr: %s" %
             (" ".join(args), p.returncode, expect, p.stdout[-2000:], p.stderr[-2000:]))
    return p


def build(path, devices=None, minutes=24 * 60, storm=True, drops=True, lldp=True, qp=True,
          offset=0):
    """A store at path with devices (default: all of PORTS) sampled every minute."""
    devices = list(PORTS) if devices is None else devices
    lines = []
    for step in range(minutes):
        t = T0 + offset + step * STEP
        for d in devices:
            for k, ifname in enumerate(PORTS[d]):
                storm_on = storm and d == "leaf1" and ifname == "Ethernet0" and step > minutes // 2
                paused = step * 200 + (step - minutes // 2) * 30_000_000 if storm_on else step * 200
                vals = [("pfc.rx_pause_us", paused, 3, -1), ("pfc.tx_pause_us", step * 50, 3, -1),
                        ("pfc.rx_pause", step * 40, 3, -1), ("queue.ecn_marked", step * (k + 1) * 3, -1, 3),
                        ("pg.drops", step // 10 if drops and d == "leaf2" and ifname == "Ethernet2" else 0, 3, -1),
                        ("port.tx_bytes", step * 10**9, -1, -1)]
                for m, v, prio, q in vals:
                    lines.append(json.dumps({"ts": t, "device": d, "ifname": ifname, "metric": m,
                                             "prio": prio, "queue": q, "value": v}))
    src = path + ".jsonl"
    with open(src, "w") as f:
        f.write("\n".join(lines) + "\n")
    run(["store", "import", "--store", path, src], expect=0)
    os.unlink(src)
    con = sqlite3.connect(path)
    end = T0 + offset + (minutes - 1) * STEP
    if lldp and "leaf1" in devices:
        details = json.dumps({"peer": HOSTILE, "port": "<img src=x onerror=alert(2)>",
                              "dcbx": "ieee"})
        con.execute("INSERT INTO events (ts, kind, device, ifname, prio, details) VALUES "
                    "(?, 'dcbx_seen', 'leaf1', 'Ethernet0', -1, ?)", (end - STEP, details))
        cfg = json.dumps({"pfc": {"enabled": 8}, "system_name": HOSTILE})
        con.execute("INSERT INTO config_snapshots (ts, device, ifname, source, config) VALUES "
                    "(?, 'leaf1', 'Ethernet0', 'peer:lldp', ?)", (end - STEP, cfg))
    if qp and "host1" in devices:
        for i in range(25):
            details = json.dumps({"src_ip": "10.0.0.1", "dst_ip": "10.0.1.2", "dqpn": 0x11,
                                  "from_psn": i * 100, "high_psn": i * 100 + 50})
            con.execute("INSERT INTO events (ts, kind, device, ifname, prio, details) VALUES "
                        "(?, 'retransmit', 'host1', '', -1, ?)", (end - i * STEP, details))
    con.commit()
    con.close()
    return end
