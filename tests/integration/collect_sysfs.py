"""dcbkit collect on the fixture sysfs trees (fixtures/sysfs, from make_sysfs.py): two snapshots
one interval apart, swapped under a running collector. Each driver's names become the same
canonical metrics; the 32-bit Q-counter wraps into a small positive rate; the 64-bit counter
that went back gives a counter_reset event and no rate (null) across it; unmapped counters
are kept under their raw names. Each tree's class/net/<if>/speed becomes a link.speed_bps gauge
(Mb/s -> bits/s; -1, the kernel's "unknown", gives no sample). mlx5-pfc-off, the same NIC with
PFC off everywhere, yields exactly its netdev and RDMA metrics: no pfc.* or pause.* series
(those are ethtool-only; see fixtures/sysfs/make_sysfs.py) and loss-recovery rates well above
the mlx5 tree's."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from store_helpers import DCBKIT, ROOT, fail  # noqa: E402

FIX = os.path.join(ROOT, "fixtures", "sysfs")

# canonical metric -> increase between t0 and t1 (None: the counter reset, expect an event)
COMMON = {"port.rx_bytes": 50 * 10**9, "port.tx_bytes": 25 * 10**9,
          "port.rx_packets": 12500000, "port.tx_packets": 6250000, "link.fcs_errors": 0}
EXPECT = {
    "mlx5": ("ens1f0", {"roce.out_of_sequence": 16, "roce.packet_seq_err": 30,
                        "roce.local_ack_timeout_err": 0, "cnp.sent": None, "cnp.handled": 900,
                        "roce.ecn_marked_rx": 1800}, {"rx_write_requests", "rx_dropped"}),
    "bnxt-re-old": ("enp65s0f0np0", {"roce.out_of_sequence": 16, "roce.packet_seq_err": 30,
                                     "roce.local_ack_timeout_err": 0, "cnp.sent": None,
                                     "cnp.handled": 900, "roce.ecn_marked_rx": 1800},
                    {"active_qps"}),
    "bnxt-re-new": ("enp65s0f0np0", {"roce.out_of_sequence": 16, "roce.packet_seq_err": 30,
                                     "roce.local_ack_timeout_err": 0, "cnp.sent": None,
                                     "cnp.handled": 900, "roce.ecn_marked_rx": 1800}, set()),
    "mlx5-upstream": ("ens1f0", {"roce.out_of_sequence": 16, "roce.packet_seq_err": 30,
                                  "roce.local_ack_timeout_err": 0, "cnp.sent": None,
                                  "cnp.handled": 900, "roce.ecn_marked_rx": 1800},
                      {"rx_write_requests", "rx_dropped"}),
    "mlx5-pfc-off": ("ens1f0", {"roce.out_of_sequence": 600, "roce.packet_seq_err": 120,
                                 "roce.implied_nak_seq_err": 25,
                                 "roce.local_ack_timeout_err": 12, "roce.duplicate_request": 6,
                                 "cnp.sent": None, "cnp.handled": 1400,
                                 "roce.ecn_marked_rx": 2500},
                     {"rx_write_requests", "rx_dropped"}),
    "irdma": ("ens2f0", {"cnp.sent": 16, "cnp.handled": 900, "roce.ecn_marked_rx": None,
                         "roce.retransmits": 0}, {"ip4InOctets"}),
}

# link.speed_bps at t0 and t1 (None: the tree says -1, no sample)
SPEED = {"mlx5": (10**11, 10**11), "mlx5-upstream": (10**11, 10**11),
         "mlx5-pfc-off": (10**11, 10**11), "bnxt-re-old": (2 * 10**11, 2 * 10**11),
         "bnxt-re-new": (2 * 10**11, 2 * 10**11), "irdma": (10**11, None)}

if not os.path.isdir(FIX):
    fail("fixtures/sysfs missing")
tmp = tempfile.mkdtemp(prefix="dcbkit-sysfs-")


def snapshot(top):
    """Every file and link under top, with its content or target."""
    out = {}
    for d, dirs, files in os.walk(top):
        for name in dirs + files:
            path = os.path.join(d, name)
            rel = os.path.relpath(path, top)
            if os.path.islink(path):
                out[rel] = "-> " + os.readlink(path)
            elif os.path.isfile(path):
                out[rel] = open(path).read()
    return out


try:
    # the committed trees are exactly what the generator writes
    regen = os.path.join(tmp, "regen")
    os.makedirs(regen)
    shutil.copy(os.path.join(FIX, "make_sysfs.py"), regen)
    subprocess.run(["/usr/bin/python3", os.path.join(regen, "make_sysfs.py")], check=True)
    for tree in EXPECT:
        if snapshot(os.path.join(FIX, tree)) != snapshot(os.path.join(regen, tree)):
            fail("fixtures/sysfs/%s differs from make_sysfs.py output" % tree)

    for tree, (ifname, metrics, raw_names) in EXPECT.items():
        root = os.path.join(tmp, tree)
        os.symlink(os.path.join(FIX, tree, "t0"), root)
        p = subprocess.Popen([DCBKIT, "collect", "--sysfs-root", root, "--count", "2",
                              "--interval", "1s", "-T", "json"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(0.4)
        nxt = root + ".new"
        os.symlink(os.path.join(FIX, tree, "t1"), nxt)
        os.replace(nxt, root)                  # atomic: the second sample sees t1 whole
        out, err = p.communicate(timeout=30)
        if p.returncode != 0:
            fail("%s: collect failed: %s" % (tree, err.strip()))
        rows = [json.loads(line) for line in out.splitlines()]
        samples = [r for r in rows if "counter" in r]
        events = [r for r in rows if "event" in r]
        want = dict(COMMON, **metrics)
        by_metric = {}
        for r in samples:
            if r["metric"]:
                by_metric.setdefault(r["metric"], []).append(r)
        for metric, increase in want.items():
            got = by_metric.get(metric)
            if not got or len(got) != 2:
                fail("%s: %s: %d samples, expected 2" % (tree, metric, len(got or [])))
            first, second = got
            assert first["ifname"] == ifname and first["rate"] is None
            dt = (second["ts"] - first["ts"]) / 1e9
            if increase is None:
                resets = [e for e in events if e["event"] == "counter_reset"
                          and e["details"]["counter"] == second["counter"]]
                if len(resets) != 1:
                    fail("%s: %s went back without a counter_reset event" % (tree, metric))
                if second["rate"] is not None:       # no rate spans a reset
                    fail("%s: %s: rate %s across a reset, want null" %
                         (tree, metric, second["rate"]))
            elif abs(second["rate"] * dt - increase) > 1e-6 * max(1, increase):
                fail("%s: %s: rate %s over %.3f s, expected an increase of %d" %
                     (tree, metric, second["rate"], dt, increase))
        speeds = [r for r in samples if r["metric"] == "link.speed_bps"]
        want_speed = [v for v in SPEED[tree] if v is not None]
        if ([r["value"] for r in speeds] != want_speed or
                any(r["rate"] is not None or r["source"] != "sysfs" or r["ifname"] != ifname
                    for r in speeds)):
            fail("%s: link.speed_bps samples %s, expected values %s" % (tree, speeds, want_speed))
        if tree == "mlx5-pfc-off":
            # exactly the netdev and RDMA metrics: PFC off leaves no pfc.* / pause.* series
            extra = set(by_metric) - set(want) - {"link.speed_bps"}
            if extra:
                fail("%s: unexpected canonical metrics %s" % (tree, sorted(extra)))
        # DCQCN knobs: a snapshot at t0 and another when rai changed, saying where they came from
        configs = [r for r in rows if "config" in r]
        if tree.startswith("mlx5"):
            ofed = tree in ("mlx5", "mlx5-pfc-off")
            source = "mlnx_ofed sysfs" if ofed else "mlx5 debugfs"
            rai = [c["config"]["nic"]["dcqcn"]["rai_mbps"] for c in configs]
            if rai != [5, 10] or {c["config_source"] for c in configs} != {source}:
                fail("%s: config snapshots %s" % (tree, configs))
            first = configs[0]["config"]
            if first["cnp"] != {"dscp": 48, "prio": 6}:
                fail("%s: cnp %s" % (tree, first["cnp"]))
            masks = first["nic"]["dcqcn"].get("np_enabled"), first["nic"]["dcqcn"].get("rp_enabled")
            if masks != ((8, 8) if ofed else (None, None)):
                fail("%s: enable masks %s (debugfs has none: they must stay unknown)" % (tree, masks))
        elif configs:
            fail("%s: config from nowhere: %s" % (tree, configs))
        raw = {r["counter"] for r in samples if r["metric"] is None}
        if not raw_names <= raw:
            fail("%s: raw counters %s missing from %s" % (tree, raw_names - raw, sorted(raw)))
        print("%-13s %2d canonical metrics, %d raw counters, %d events, %d config snapshots" %
              (tree, len(by_metric), len(raw), len(events), len(configs)))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print("ok")
