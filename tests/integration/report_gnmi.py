"""dcbkit report over gNMI against a real gRPC target (gnmi_target.py, a SONiC tree of 4 ports):
  --fabric F --gnmi all   the fabric's gNMI device polled (as --fabric F --collect does);
  --gnmi HOST:PORT        the target by address, named with --device, no fabric file.
The target's counters move by fixed steps per sample on priority/queue 3 (gnmi_target.py
sonic_port_fields): PFC frames +50 received and +20 sent, pause time +1000 us received and
+400 us sent, WRED ECN marks +30. So whatever number of samples came, every port's report row
holds k steps of those: paused_ns = k x 1 ms, pausing_ns = k x 0.4 ms, pause_frames = k x 70,
marks = k x 30, with k >= 1 and the same k on the four ports. A fabric device nobody answers
for is listed as device-unreachable with the reason the gNMI source gave, in the one order of
findings (after any critical one; pfc-everywhere, a warning, is among them)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from gnmi_helpers import DCBKIT, Peer, fail, need_peer  # noqa: E402

need_peer()
PORTS = ["Ethernet0", "Ethernet12", "Ethernet4", "Ethernet8"]


def report(args, out):
    p = subprocess.run([DCBKIT, "report"] + args + ["--collect", "3s", "--interval", "1s",
                                                    "--out", out],
                       capture_output=True, text=True, timeout=60)
    if p.returncode not in (0, 1, 2):
        fail("report %s: exit %d\n%s" % (" ".join(args), p.returncode, p.stderr[-2000:]))
    with open(os.path.join(out, "report.json")) as f:
        return json.load(f)


SEVERITY = {"crit": 2, "warn": 1, "info": 0}


def check_order(m):
    """The one order (rules/findings.h), device-unreachable included: severity, confidence,
    rule, device, interface, priority."""
    keys = [(-SEVERITY[f["severity"]], -f["confidence"], f["rule"], f["device"], f["ifname"],
             f["prio"]) for f in m["findings"]]
    if keys != sorted(keys):
        fail("findings out of the one order: %s" % keys)


def check_steps(m, device):
    pause = {r["ifname"]: r for r in m["top"]["pause"] if r["device"] == device}
    marks = {r["ifname"]: r["marks"] for r in m["top"]["marks_drops"] if r["device"] == device}
    if sorted(pause) != PORTS or sorted(marks) != PORTS:
        fail("%s: ports with pauses %s, with marks %s" % (device, sorted(pause), sorted(marks)))
    ks = set()
    for name, r in pause.items():
        k = r["pause_frames"] // 70
        if (k < 1 or r["pause_frames"] != 70 * k or r["paused_ns"] != k * 1000000 or
                r["pausing_ns"] != k * 400000 or marks[name] != 30 * k):
            fail("%s:%s: %s, marks %s: not k steps of the target's +70 frames, +1 ms paused, "
                 "+0.4 ms pausing, +30 marks" % (device, name, r, marks[name]))
        ks.add(k)
    if len(ks) != 1:
        fail("%s: the ports moved by different numbers of samples: %s" % (device, ks))
    return ks.pop()


tmp = tempfile.mkdtemp(prefix="dcbkit-report-gnmi-")
try:
    with Peer("--tree", "sonic", "--ports", "4") as p:
        fabric = os.path.join(tmp, "fabric.json")
        with open(fabric, "w") as f:
            json.dump({"name": "lab", "devices": [
                {"name": "sw1", "role": "switch",
                 "reach": {"gnmi": {"target": p.address, "insecure": True, "map": "sonic"}}},
                {"name": "sw9", "role": "switch",
                 "reach": {"gnmi": {"target": "127.0.0.1:9", "insecure": True}}}],
                "links": []}, f)
        m = report(["--fabric", fabric, "--gnmi", "all"], os.path.join(tmp, "fab"))
        k = check_steps(m, "sw1")
        status = {d["name"]: d["status"] for d in m["devices"]}
        if status != {"sw1": "ok", "sw9": "no-data"}:
            fail("device status %s" % status)
        why = [f["summary"] for f in m["findings"] if f["device"] == "sw9"]
        if len(why) != 1 or "sw9 could not be reached: gNMI 127.0.0.1:9: " not in why[0]:
            fail("the silent device's finding: %s" % why)
        check_order(m)
        order = [(f["rule"], f["severity"]) for f in m["findings"]]
        at = order.index(("device-unreachable", "warn"))
        if any(sev == "crit" for _, sev in order[at:]) or \
                ("pfc-everywhere", "warn") not in order:
            fail("the unreachable device's warning is not after the critical findings, or "
                 "pfc-everywhere is missing: %s" % order)
        print("--fabric --gnmi all: sw1 moved %d steps on every port; sw9: %s" % (k, why[0]))
        m = report(["--gnmi", p.address, "--plaintext", "--map", "sonic", "--device", "sw2"],
                   os.path.join(tmp, "addr"))
        k = check_steps(m, "sw2")
        if [d["name"] for d in m["devices"]] != ["sw2"]:
            fail("devices %s" % [d["name"] for d in m["devices"]])
        print("--gnmi HOST:PORT: sw2 moved %d steps on every port" % k)
    print("ok")
finally:
    shutil.rmtree(tmp, ignore_errors=True)
