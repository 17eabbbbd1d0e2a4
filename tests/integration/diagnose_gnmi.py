"""dcbkit diagnose --gnmi against the real gRPC gNMI test peer (gnmi_target.py, a SONiC tree of
4 ports): two readings --interval apart, then the rules. The peer moves priority 3 only, by
50 PFC frames and 1000 us of pause per sample (tree_value's steps), and every other priority not
at all; a probe rule reads the deltas back: on every port prio 3 moved k * 50 frames and
k * 1000 us with the same k >= 1 (so 20 us a frame), the other priorities 0. The catalog names
pfc-everywhere on priority 3 over all 4 ports (the switch pauses, no host sent PFC). An
unreachable target is one line, exit 3."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from gnmi_helpers import DCBKIT, Peer, fail, need_peer  # noqa: E402

need_peer()
PROBE = """[probe-pfc]
severity   = info
scope      = priority
priorities = all
when       = delta(pfc.rx_pause{prio=$prio}[5m]) >= 0
message    = {delta(pfc.rx_pause{prio=$prio}[5m])} {delta(pfc.rx_pause_us{prio=$prio}[5m])}
"""
PORTS = ["Ethernet0", "Ethernet12", "Ethernet4", "Ethernet8"]

with tempfile.TemporaryDirectory() as tmp:
    with open(os.path.join(tmp, "probe.rules"), "w") as f:
        f.write(PROBE)
    with Peer("--tree", "sonic", "--ports", "4") as p:
        r = subprocess.run([DCBKIT, "diagnose", "--gnmi", p.address, "--plaintext", "--map",
                            "sonic", "--device", "sw1", "--interval", "2s", "--rules", tmp,
                            "-T", "json"], capture_output=True, text=True, timeout=60)
    if r.returncode not in (0, 1, 2):
        fail("diagnose --gnmi exited %d: %s" % (r.returncode, r.stderr))
    d = json.loads(r.stdout)
    if d["source"] != {"kind": "gnmi", "name": p.address}:
        fail("source %s" % d["source"])
    probe = {(f["ifname"], f["prio"]): [int(float(x)) for x in f["summary"].split()]
             for f in d["findings"] if f["rule"] == "probe-pfc" and f["device"] == "sw1"}
    if sorted({k[0] for k in probe}) != PORTS or len(probe) != 32:
        fail("probe places: %s" % sorted(probe))
    for (port, prio), (frames, us) in sorted(probe.items()):
        if prio == 3:
            if frames <= 0 or frames % 50 or us != frames // 50 * 1000:
                fail("%s prio 3: %d frames, %d us (want k*50 and k*1000)" % (port, frames, us))
        elif frames or us:
            fail("%s prio %d moved: %d frames, %d us" % (port, prio, frames, us))
    print("gnmi: prio 3 deltas %s" % {k[0]: v for k, v in probe.items() if k[1] == 3})
    spread = [f for f in d["findings"] if f["rule"] == "pfc-everywhere"]
    if len(spread) != 1 or spread[0]["prio"] != 3 or "4 of 4 ports" not in spread[0]["summary"]:
        fail("pfc-everywhere: %s" % spread)
    print("pfc-everywhere: %s" % spread[0]["summary"][:60])

r = subprocess.run([DCBKIT, "diagnose", "--gnmi", "127.0.0.1:1", "--plaintext", "--map",
                    "sonic", "--interval", "100ms"], capture_output=True, text=True, timeout=60)
if r.returncode != 3 or r.stderr.count("\n") != 1 or "127.0.0.1:1" not in r.stderr:
    fail("unreachable: exit %d, %r" % (r.returncode, r.stderr))
print("ok")
