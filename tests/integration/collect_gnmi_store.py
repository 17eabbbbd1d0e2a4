"""dcbkit collect --gnmi into a store, read back with `dcbkit store query`: the gNMI test target
(gnmi_target.py, SONiC tree, one port) serves value(epoch) = base + epoch * step for each
counter, epoch counting the samples sent on the subscription, so the stored series of
Ethernet0 must be exactly base, base + step, base + 2 step... with the target's figures:

  pfc.rx_pause prio 3     1000 + 100*3 + 50 e   (SAI_PORT_STAT_PFC_3_RX_PKTS)
  pfc.tx_pause prio 3     2000 + 100*3 + 20 e   (SAI_PORT_STAT_PFC_3_TX_PKTS)
  pfc.rx_pause_us prio 3   500 + 1000 e          (SAI_PORT_STAT_PFC_3_RX_PAUSE_DURATION_US)
  port.rx_bytes           10^9 + 12500000 e     (SAI_PORT_STAT_IF_IN_OCTETS)

The same through --fabric F --gnmi all, where the fabric's intended config is recorded beside
the switch's; and --fabric F alone, which records the intent only and opens no connection."""
import json
import os
import subprocess
import sys
import time
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from gnmi_helpers import DCBKIT, Peer, dcbkit, fail, need_peer  # noqa: E402
import store_sql  # noqa: E402

WANT = {("pfc.rx_pause", 3): (1300, 50), ("pfc.tx_pause", 3): (2300, 20),
        ("pfc.rx_pause_us", 3): (500, 1000), ("port.rx_bytes", -1): (10 ** 9, 12500000)}


def series(db, device, metric, prio):
    r = dcbkit("store", "query", "--store", db, "--device", device, "--ifname", "Ethernet0",
               "--metric", metric, "--prio", str(prio), "--since", "1h", "-T", "json")
    return [s["value"] for s in sorted(json.loads(r.stdout)["samples"], key=lambda s: s["ts"])]


def check_values(db, device, label):
    for (metric, prio), (base, step) in WANT.items():
        got = series(db, device, metric, prio)
        want = [base + step * e for e in range(len(got))]
        if len(got) < 3 or got != want:
            fail("%s: %s prio %d stored %s, the target served %s" %
                 (label, metric, prio, got, want))
    print("ok: %s: %d samples of each series, each the target's value" %
          (label, len(series(db, device, "pfc.rx_pause", 3))))


def main():
    need_peer()
    with tempfile.TemporaryDirectory() as tmp:
        with Peer("--tree", "sonic", "--ports", "1") as p:
            db = os.path.join(tmp, "gnmi.db")
            dcbkit("collect", "--gnmi", p.address, "--plaintext", "--map", "sonic",
                   "--device", "leaf1",
                   "--interval", "200ms", "--count", "4", "--store", db, "-q")
            check_values(db, "leaf1", "--gnmi")
            fab = os.path.join(tmp, "fabric.json")
            with open(fab, "w") as f:
                json.dump({"name": "lab", "defaults": {"pfc": {"enabled": 8}},
                           "devices": [{"name": "leaf1", "role": "switch",
                                        "reach": {"gnmi": {"target": p.address, "insecure": True,
                                                           "map": "sonic"}}},
                                       {"name": "gpu1", "role": "host", "reach": "none"}],
                           "links": [{"a": "leaf1:Ethernet0", "b": "gpu1:eth0"}]}, f)
            label = "--fabric --gnmi all"
            db = os.path.join(tmp, "fabric-gnmi.db")
            dcbkit("collect", "--fabric", fab, "--gnmi", "all", "--interval", "200ms", "--count",
                   "4", "--store", db, "-q")
            check_values(db, "leaf1", label)
            sources = config_sources(db, "leaf1")
            if "gnmi" not in sources or "fabric" not in sources:
                fail("%s: config snapshots from %s, want the switch's (gnmi) and the intent "
                     "(fabric)" % (label, sources))
            fabric_alone(tmp, fab)
    print("ok")


def config_sources(db, device):
    con = store_sql.connect(db)
    sources = {s for (s,) in con.execute("SELECT DISTINCT source FROM config_snapshots "
                                         "WHERE device = ?", (device,))}
    con.close()
    return sources


def fabric_alone(tmp, fab):
    """--fabric F alone records the fabric's intent and opens no connection: with the switch's
    target pointed at a closed port it still ends at once, with leaf1's intended PFC mask (8,
    the file's default), its partner's, where it sits, and not one sample."""
    with open(fab) as f:
        doc = json.load(f)
    doc["devices"][0]["reach"]["gnmi"]["target"] = "127.0.0.1:1"
    closed = os.path.join(tmp, "fabric-closed.json")
    with open(closed, "w") as f:
        json.dump(doc, f)
    db = os.path.join(tmp, "fabric-alone.db")
    t0 = time.monotonic()
    dcbkit("collect", "--fabric", closed, "--store", db, "-q")
    took = time.monotonic() - t0
    if took > 5:
        fail("--fabric alone took %.1f s: it should record the intent and end" % took)
    sources = config_sources(db, "leaf1")
    if not {"fabric", "peer:fabric", "topology"} <= sources or "gnmi" in sources:
        fail("--fabric alone: config snapshots from %s, want the intent only" % sources)
    con = store_sql.connect(db)
    (text,) = con.execute("SELECT config FROM config_snapshots WHERE device = 'leaf1' AND "
                          "ifname = 'Ethernet0' AND source = 'fabric'").fetchone()
    con.close()
    if json.loads(text).get("pfc", {}).get("enabled") != 8:
        fail("--fabric alone: leaf1:Ethernet0's intent %s, want pfc.enabled 8" % text)
    out = subprocess.run([DCBKIT, "store", "info", "--store", db, "-T", "json"],
                         capture_output=True, text=True, check=True).stdout
    if json.loads(out).get("samples"):
        fail("--fabric alone stored samples: %s" % out)
    print("ok: --fabric alone: the intent in %.2f s, no connection, no samples" % took)


if __name__ == "__main__":
    main()
