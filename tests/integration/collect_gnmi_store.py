"""dcbkit collect --gnmi into a store, read back with `dcbkit store query`: the gNMI test target
(gnmi_target.py, SONiC tree, one port) serves value(epoch) = base + epoch * step for each
counter, epoch counting the samples sent on the subscription, so the stored series of
Ethernet0 must be exactly base, base + step, base + 2 step... with the target's figures:

  pfc.rx_pause prio 3     1000 + 100*3 + 50 e   (SAI_PORT_STAT_PFC_3_RX_PKTS)
  pfc.tx_pause prio 3     2000 + 100*3 + 20 e   (SAI_PORT_STAT_PFC_3_TX_PKTS)
  pfc.rx_pause_us prio 3   500 + 1000 e          (SAI_PORT_STAT_PFC_3_RX_PAUSE_DURATION_US)
  port.rx_bytes           10^9 + 12500000 e     (SAI_PORT_STAT_IF_IN_OCTETS)

The same through --fabric F --gnmi all, and through --fabric F alone (collect's shorthand for
it), where the fabric's intended config is recorded beside the switch's."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from gnmi_helpers import Peer, dcbkit, fail, need_peer  # noqa: E402
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
            for label, args in (("--fabric --gnmi all", ["--gnmi", "all"]), ("--fabric alone", [])):
                db = os.path.join(tmp, "fabric%d.db" % len(args))
                dcbkit("collect", "--fabric", fab, *args, "--interval", "200ms", "--count", "4",
                       "--store", db, "-q")
                check_values(db, "leaf1", label)
                con = store_sql.connect(db)
                sources = {s for (s,) in con.execute("SELECT DISTINCT source FROM config_snapshots "
                                                     "WHERE device = 'leaf1'")}
                con.close()
                if "gnmi" not in sources or "fabric" not in sources:
                    fail("%s: config snapshots from %s, want the switch's (gnmi) and the intent "
                         "(fabric)" % (label, sources))
    print("ok")


if __name__ == "__main__":
    main()
