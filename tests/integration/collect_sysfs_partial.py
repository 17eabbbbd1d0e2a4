"""dcbkit collect on host trees with a piece missing: copies of fixtures/sysfs/mlx5 (t0 and t1)
with one piece taken out, built here. Each source of an interface stands on its own:

  no-statistics   class/net/IF/statistics gone (and no net/dev line): the RDMA counters and the
                  speed are still collected, the missing netdev counters said once, exit 0;
  device-net      no gid_attrs/ndevs: the RDMA device is found by class/infiniband/DEV/device/net/IF
                  (the link ibdev2netdev follows);
  no-driver       no class/infiniband/DEV/device/driver link: the map is guessed from the counter
                  names, said once as "map guessed from names", and the counters keep their metrics;
  all-three       all of the above at once;
  bnxt-no-driver  fixtures/sysfs/bnxt-re-old without its driver link: bnxt_re's older names
                  (oos_drop_count, tx_cnp_pkts, ...) are known to the bnxt map alone.

Expected figures come from the tree's own files: each hw_counters file's value at t0 and t1 and
the width the mlx5 driver gives it (Q-counters are 32-bit, congestion counters 64-bit), so the
32-bit out_of_sequence wraps into a small increase and the 64-bit np_cnp_sent, which goes back,
gives a counter_reset event. A map guessed wrongly (bnxt's, with 64-bit widths) would turn the
wrap into a reset instead."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from store_helpers import DCBKIT, ROOT, fail  # noqa: E402

FIX = os.path.join(ROOT, "fixtures", "sysfs", "mlx5")
IF = "ens1f0"
DEV = "class/infiniband/mlx5_0"
HW = DEV + "/ports/1/hw_counters"
# hw_counters file -> (canonical metric, width in bits)
RDMA = {"out_of_sequence": ("roce.out_of_sequence", 32),
        "packet_seq_err": ("roce.packet_seq_err", 32),
        "local_ack_timeout_err": ("roce.local_ack_timeout_err", 32),
        "np_cnp_sent": ("cnp.sent", 64), "rp_cnp_handled": ("cnp.handled", 64),
        "np_ecn_marked_roce_packets": ("roce.ecn_marked_rx", 64)}
NETDEV = {"rx_bytes": "port.rx_bytes", "tx_bytes": "port.tx_bytes",
          "rx_packets": "port.rx_packets", "tx_packets": "port.tx_packets"}


def read_num(tree, rel):
    with open(os.path.join(tree, rel)) as f:
        return int(f.read().strip())


def no_statistics(tree):
    shutil.rmtree(os.path.join(tree, "class/net", IF, "statistics"))


def device_net(tree):
    shutil.rmtree(os.path.join(tree, DEV, "ports/1/gid_attrs"))
    os.makedirs(os.path.join(tree, DEV, "device/net", IF))


def no_driver(tree):
    os.unlink(os.path.join(tree, DEV, "device/driver"))


VARIANTS = {"no-statistics": [no_statistics], "device-net": [device_net],
            "no-driver": [no_driver], "all-three": [no_statistics, device_net, no_driver]}

tmp = tempfile.mkdtemp(prefix="dcbkit-partial-")
try:
    empty_proc = os.path.join(tmp, "proc")
    os.makedirs(os.path.join(empty_proc, "net"))
    open(os.path.join(empty_proc, "net", "dev"), "w").write(
        "Inter-|   Receive\n face |bytes    packets\n")
    for name, cuts in VARIANTS.items():
        trees = []
        for t in ("t0", "t1"):
            tree = os.path.join(tmp, name, t)
            shutil.copytree(os.path.join(FIX, t), tree, symlinks=True)
            for cut in cuts:
                cut(tree)
            trees.append(tree)
        root = os.path.join(tmp, name, "root")
        os.symlink(trees[0], root)
        p = subprocess.Popen([DCBKIT, "collect", "--sysfs-root", root, "--proc-root", empty_proc,
                              "--count", "2", "--interval", "1s", "-T", "json"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(0.4)
        os.symlink(trees[1], root + ".new")
        os.replace(root + ".new", root)
        out, err = p.communicate(timeout=30)
        if p.returncode != 0:
            fail("%s: exit %d: %s" % (name, p.returncode, err.strip()))
        rows = [json.loads(line) for line in out.splitlines()]
        samples = [r for r in rows if "counter" in r]
        events = [r for r in rows if "event" in r]
        rdma = [r for r in samples if r["source"] == "rdma"]
        for counter, (metric, bits) in RDMA.items():
            got = [r for r in rdma if r["counter"] == counter]
            v0, v1 = (read_num(t, os.path.join(HW, counter)) for t in trees)
            if [r["value"] for r in got] != [v0, v1] or any(r["metric"] != metric for r in got):
                fail("%s: %s: %s, expected %s = %d then %d" % (name, counter, got, metric, v0, v1))
            dt = (got[1]["ts"] - got[0]["ts"]) / 1e9
            resets = [e for e in events if e["event"] == "counter_reset"
                      and e["details"]["counter"] == counter]
            if v1 < v0 and bits == 64:
                if len(resets) != 1:
                    fail("%s: %s went back %d -> %d without one counter_reset" %
                         (name, counter, v0, v1))
                continue
            increase = (v1 - v0) % (1 << bits)
            if resets or abs(got[1]["rate"] * dt - increase) > 1e-6 * max(1, increase):
                fail("%s: %s: rate %s over %.3f s, expected an increase of %d" %
                     (name, counter, got[1]["rate"], dt, increase))
        netdev = {r["metric"] for r in samples if r["source"] == "netdev"}
        speed = [r["value"] for r in samples if r["metric"] == "link.speed_bps"]
        want_speed = [read_num(t, "class/net/%s/speed" % IF) * 10**6 for t in trees]
        if speed != want_speed:
            fail("%s: link.speed_bps %s, expected %s" % (name, speed, want_speed))
        said_stats = err.count("no statistics directory")
        said_guess = err.count("map guessed from names")
        if no_statistics in cuts:
            if netdev or said_stats != 1 or "its other counters are still read" not in err:
                fail("%s: netdev metrics %s, stderr %r" % (name, netdev, err))
        else:
            for counter, metric in NETDEV.items():
                got = [r["value"] for r in samples if r["metric"] == metric]
                want = [read_num(t, "class/net/%s/statistics/%s" % (IF, counter)) for t in trees]
                if got != want:
                    fail("%s: %s %s, expected %s" % (name, metric, got, want))
        if no_driver in cuts:
            if said_guess != 1 or "map guessed from names: mlx5_core" not in err:
                fail("%s: the guess said %d times: %r" % (name, said_guess, err))
        elif said_guess:
            fail("%s: a guess with a driver link: %r" % (name, err))
        print("%-13s %d RDMA samples, %d netdev metrics, %d events; %s" %
              (name, len(rdma), len(netdev), len(events),
               "; ".join(line for line in err.splitlines() if "collected" not in line)
               or "no warnings"))
    # the guess goes by names: bnxt_re's older names are bnxt's map's alone
    tree = os.path.join(tmp, "bnxt-no-driver")
    shutil.copytree(os.path.join(ROOT, "fixtures", "sysfs", "bnxt-re-old", "t0"), tree,
                    symlinks=True)
    os.unlink(os.path.join(tree, "class/infiniband/bnxt_re0/device/driver"))
    r = subprocess.run([DCBKIT, "collect", "--sysfs-root", tree, "--once", "-T", "json"],
                       capture_output=True, text=True, timeout=30)
    hw = os.path.join(tree, "class/infiniband/bnxt_re0/ports/1/hw_counters")
    want = {"oos_drop_count": "roce.out_of_sequence", "seq_err_naks_rcvd": "roce.packet_seq_err",
            "to_retransmits": "roce.local_ack_timeout_err", "tx_cnp_pkts": "cnp.sent",
            "rx_cnp_pkts": "cnp.handled", "rx_ecn_marked_pkts": "roce.ecn_marked_rx",
            "active_qps": None}
    got = {x["counter"]: (x["metric"], x["value"]) for x in map(json.loads, r.stdout.splitlines())
           if x.get("source") == "rdma"}
    expect = {c: (m, read_num(hw, c)) for c, m in want.items()}
    if r.returncode != 0 or got != expect or \
            "map guessed from names: bnxt_en (6 of 8 counters known)" not in r.stderr:
        fail("bnxt without a driver link: exit %d, %s, expected %s; %r" %
             (r.returncode, got, expect, r.stderr))
    print("bnxt-no-driver %d RDMA counters by the guessed bnxt_en map" % len(got))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print("ok")
