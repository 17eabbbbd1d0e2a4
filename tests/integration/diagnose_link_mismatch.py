"""Two-ended config checks over a store: a replay of the leaf-spine fixture fabric with three
one-ended faults, recorded with `replay --store` and judged with `diagnose --store`. The store
holds each port's config and a topology row naming its partner; the rules follow it to the
partner's own config (peer.*).

The answer, written before the code ran:
  spine1:Ethernet0 (to leaf1:Ethernet4) PFC 0x10, every other port 0x08
      -> cfg-pfc-mask-mismatch at spine1:Ethernet0 only, proposing 0x08 (the partner's);
         leaf1:Ethernet4 is right and is not named
  spine2 MTU 1500 on both ports, the leaves 9216
      -> cfg-mtu at spine2:Ethernet0 and spine2:Ethernet1 (the switch end below its partner),
         proposing 9216; no leaf port
  leaf2:Ethernet6 (to spine3:Ethernet1) maps DSCP 26 to priority 0, the rest to 3
      -> cfg-dscp-map-mismatch at leaf2:Ethernet6 only, knob dscp2prio.26
and the same fabric without the faults: none of the three rules fires, and none is undecided
for want of the partner's config."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from store_helpers import fail  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DCBKIT = os.environ.get("DCBKIT", os.path.join(ROOT, "build", "cc", "bin", "dcbkit"))
FABRIC = os.path.join(ROOT, "fixtures", "scenarios", "fabrics", "leaf-spine-40g.json")
RULES = ("cfg-pfc-mask-mismatch", "cfg-mtu", "cfg-dscp-map-mismatch")

FAULTS = [
    {"type": "config", "device": "spine1", "ifname": "Ethernet0", "set": {"pfc.enabled": 16}},
    {"type": "config", "device": "spine2", "set": {"mtu": 1500}},
    {"type": "config", "device": "leaf2", "ifname": "Ethernet6", "set": {"dscp2prio.26": 0}},
]
WANT = {
    ("cfg-pfc-mask-mismatch", "spine1", "Ethernet0"): ("pfc.enabled", "0x08"),
    ("cfg-mtu", "spine2", "Ethernet0"): ("mtu", "9216"),
    ("cfg-mtu", "spine2", "Ethernet1"): ("mtu", "9216"),
    ("cfg-dscp-map-mismatch", "leaf2", "Ethernet6"): ("dscp2prio.26", None),
}


def diagnose(tmp, name, faults):
    scenario = {"name": name, "fabric": FABRIC, "faults": faults, "duration_ms": 1, "seed": 1,
                "sample_interval_us": 100,
                "workload": {"type": "incast", "receiver": "host8", "count": 4, "bytes": "64KB",
                             "dscp": 26}}
    path = os.path.join(tmp, name + ".json")
    with open(path, "w") as f:
        json.dump(scenario, f)
    db = os.path.join(tmp, name + ".db")
    r = subprocess.run([DCBKIT, "replay", path, "--store", db], capture_output=True, text=True,
                       timeout=120)
    if r.returncode != 0:
        fail("replay %s: exit %d: %s" % (name, r.returncode, r.stderr[-1000:]))
    r = subprocess.run([DCBKIT, "diagnose", "--store", db, "-v", "-T", "json"],
                       capture_output=True, text=True, timeout=120)
    if r.returncode not in (0, 1, 2):
        fail("diagnose %s: exit %d: %s" % (name, r.returncode, r.stderr[-1000:]))
    return json.loads(r.stdout)


with tempfile.TemporaryDirectory() as tmp:
    d = diagnose(tmp, "link-mismatch", FAULTS)
    got = {(f["rule"], f["device"], f["ifname"]): f for f in d["findings"] if f["rule"] in RULES}
    if set(got) != set(WANT):
        fail("want findings at %s, got %s" % (sorted(WANT), sorted(got)))
    for key, (knob, proposed) in WANT.items():
        f = got[key]
        if f["knob"] != knob or (proposed is not None and f["proposed"] != proposed):
            fail("%s: knob %s proposed %s, want %s %s" % (key, f["knob"], f["proposed"], knob,
                                                          proposed))
    healthy = diagnose(tmp, "link-healthy", [])
    fired = [(f["rule"], f["device"], f["ifname"]) for f in healthy["findings"]
             if f["rule"] in RULES]
    if fired:
        fail("the fault-free fabric drew %s" % fired)
    lacking = [(u["rule"], u["device"], u["ifname"]) for u in healthy["undecided"]
               if u["rule"] in RULES and "peer." in u["missing"]]
    if lacking:
        fail("the partner's config is still missing over the store: %s" % lacking[:5])
    print("ok: %d findings at the deviating ends; the fault-free fabric has none" % len(got))
