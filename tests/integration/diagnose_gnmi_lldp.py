"""A switch's LLDP table over gNMI joins the switch's port to the host's, by name.

The gNMI test target (gnmi_target.py, SONiC tree, 2 ports, PFC on 3,4 = 0x18 everywhere) serves
APPL_DB LLDP_ENTRY_TABLE: Ethernet0 hears "host1.lab" port eth0 (chassis 02:00:00:00:00:01),
Ethernet4 hears "host2" port eth0. The fabric file knows sw1 (reach gNMI) and host1, whose
LLDP name is listed as an alias ("host1.lab"); it has no links, so only LLDP says who is cabled
to whom. `collect --fabric F --gnmi all --store S` records sw1's counters and config, the
topology:lldp rows and the names; host1's own NIC config (PFC on 3 only, 0x08) comes in with
`store import`, as another collector would write it.

The answer, written first:
  - the store holds topology:lldp rows sw1:Ethernet0 -> host1.lab:eth0 and sw1:Ethernet4 ->
    host2:eth0, and alias rows joining host1.lab to host1 and the chassis ID to host1.lab;
  - diagnose --store names cfg-pfc-mask-mismatch at host1:eth0 only, proposing 0x18 (the
    switch port's mask, every other port's too), with peer.pfc.enabled 0x18 in its evidence;
    sw1:Ethernet0 is the usual end and is not named;
  - with the alias removed from the fabric file, the LLDP name leads nowhere: no mismatch, and
    host1's check lacks the partner's config.
The same table from an openconfig target gives the same topology:lldp rows."""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from gnmi_helpers import DCBKIT, Peer, dcbkit, fail, need_peer  # noqa: E402

need_peer()
LLDP = "Ethernet0=host1.lab:eth0:02:00:00:00:00:01,Ethernet4=host2:eth0:02:00:00:00:00:02"
HOST = ('{"ts": 1700000000000000000, "device": "host1", "ifname": "eth0", "source": "dcbnl", '
        '"config": {"pfc": {"enabled": 8}}}\n')


def collect(tmp, tag, peer, tree, aliases):
    fabric = os.path.join(tmp, tag + ".json")
    host = {"name": "host1", "role": "host"}
    if aliases:
        host["aliases"] = aliases
    with open(fabric, "w") as f:
        json.dump({"name": tag, "devices": [
            {"name": "sw1", "role": "switch",
             "reach": {"gnmi": {"target": peer.address, "insecure": True, "map": tree}}},
            host], "links": []}, f)
    db = os.path.join(tmp, tag + ".db")
    dcbkit("collect", "--fabric", fabric, "--gnmi", "all", "--count", "3", "--interval",
           "300ms", "--store", db)
    r = subprocess.run([DCBKIT, "store", "import", "--store", db], input=HOST,
                       capture_output=True, text=True, timeout=30)
    if r.returncode != 0:
        fail("import: %s" % r.stderr)
    return db


def rows(db, source):
    q = "SELECT device, ifname, config FROM config_snapshots WHERE source = ?"
    return {(d, i): json.loads(c) for d, i, c in sqlite3.connect(db).execute(q, (source,))}


def diagnose(db):
    r = dcbkit("diagnose", "--store", db, "-v", "-T", "json", check=False)
    if r.returncode not in (0, 1, 2):
        fail("diagnose: exit %d: %s" % (r.returncode, r.stderr))
    return json.loads(r.stdout)


with tempfile.TemporaryDirectory() as tmp:
    with Peer("--tree", "sonic", "--ports", "2", "--lldp", LLDP) as p:
        db = collect(tmp, "joined", p, "sonic", ["host1.lab"])
    seen = {k: (v["peer"]["device"], v["peer"]["ifname"]) for k, v in
            rows(db, "topology:lldp").items()}
    if seen != {("sw1", "Ethernet0"): ("host1.lab", "eth0"),
                ("sw1", "Ethernet4"): ("host2", "eth0")}:
        fail("topology:lldp rows %s" % seen)
    names = {d: sorted(c["names"]) for (d, _), c in rows(db, "alias:lldp").items()}
    names.update({d: sorted(c["names"]) for (d, _), c in rows(db, "alias:fabric").items()})
    if names.get("host1.lab") != ["02:00:00:00:00:01"] or names.get("host1") != ["host1.lab"]:
        fail("alias rows %s" % names)
    d = diagnose(db)
    got = [(f["device"], f["ifname"], f["proposed"],
            {e["name"]: e["value"] for e in f["evidence"]}.get("peer.pfc.enabled"))
           for f in d["findings"] if f["rule"] == "cfg-pfc-mask-mismatch"]
    if got != [("host1", "eth0", "0x18", "0x18")]:
        fail("cfg-pfc-mask-mismatch: want host1:eth0 proposing 0x18, got %s" % got)

    with Peer("--tree", "sonic", "--ports", "2", "--lldp", LLDP) as p:
        db = collect(tmp, "apart", p, "sonic", None)
    d = diagnose(db)
    if any(f["rule"] == "cfg-pfc-mask-mismatch" for f in d["findings"]):
        fail("without the alias, host1.lab is nobody, yet: %s" % d["findings"])
    lacking = [u["missing"] for u in d["undecided"]
               if u["rule"] == "cfg-pfc-mask-mismatch" and u["device"] == "host1"]
    if lacking != ["peer.pfc.enabled"]:
        fail("without the alias, host1's check should lack the partner: %s" % lacking)

    with Peer("--tree", "openconfig", "--ports", "2", "--lldp", LLDP) as p:
        db = collect(tmp, "oc", p, "openconfig", ["host1.lab"])
    seen_oc = {k: (v["peer"]["device"], v["peer"]["ifname"]) for k, v in
               rows(db, "topology:lldp").items()}
    if seen_oc != seen:
        fail("openconfig topology:lldp rows %s, sonic gave %s" % (seen_oc, seen))
print("ok: sw1:Ethernet0 joined to host1:eth0 through its LLDP name; the mismatch named at host1")
