"""dcbkit collect --from-ethtool-dump: saved `ethtool -S` text of mlx5 (PFC on priority 3 and
PFC off), bnxt_en and ice become the same canonical metrics, through the same maps and counter
logic as the live ioctl; garbage is refused with one line naming the line."""
import filecmp
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from store_helpers import DCBKIT, ROOT, fail  # noqa: E402

FIX = os.path.join(ROOT, "fixtures", "ethtool")
PFC3 = {("pfc.rx_pause", 3): 450, ("pfc.tx_pause", 3): 2}
EXPECT = {
    "mlx5-pfc3": {**PFC3, **{("pfc.rx_pause_us", 3): 9000, ("pfc.rx_transitions", 3): 225,
                               ("port.rx_bytes", -1): 50 * 10**9, ("ecn.marked", 3): 250,
                               ("drop.rx_discards", -1): 0}},
    "mlx5-pfc-off": {("port.rx_bytes", -1): 50 * 10**9, ("ecn.marked", 3): 250},
    "bnxt_en": {**PFC3, **{("pfc.rx_pause_us", 3): 9000, ("pfc.rx_transitions", 3): 225,
                             ("drop.rx_discards", -1): 0}},
    "ice": {**PFC3, **{("port.rx_bytes", -1): 50 * 10**9, ("drop.rx_discards", -1): 0}},
}

tmp = tempfile.mkdtemp(prefix="dcbkit-dump-")
try:
    shutil.copy(os.path.join(FIX, "make_dumps.py"), tmp)
    subprocess.run(["/usr/bin/python3", os.path.join(tmp, "make_dumps.py")], check=True)
    for name in EXPECT:
        for snap in (0, 1):
            f = "%s-t%d.txt" % (name, snap)
            if not filecmp.cmp(os.path.join(FIX, f), os.path.join(tmp, f), shallow=False):
                fail("fixtures/ethtool/%s differs from make_dumps.py output" % f)

    # --driver names the map: ice's names none of an mlx5 dump's counters; mlx5_core's maps
    # what guessing from the names maps
    def mapped_count(*driver):
        r = subprocess.run([DCBKIT, "collect", "--ifname", "ens1f0", "--from-ethtool-dump",
                            os.path.join(FIX, "mlx5-pfc3-t0.txt"), "-T", "json", *driver],
                           capture_output=True, text=True, check=True)
        return sum(json.loads(line)["metric"] is not None for line in r.stdout.splitlines())

    mapped = [mapped_count(), mapped_count("--driver", "mlx5_core"),
              mapped_count("--driver", "ice")]
    if mapped[0] == 0 or mapped[1] != mapped[0] or mapped[2] != 0:
        fail("mapped counters guessed, --driver mlx5_core, --driver ice: %s" % mapped)

    for name, want in EXPECT.items():
        db = os.path.join(tmp, name + ".db")
        r = subprocess.run([DCBKIT, "collect", "--device", "gpu1", "--ifname", "ens1f0",
                            "--from-ethtool-dump", os.path.join(FIX, name + "-t0.txt"),
                            "--from-ethtool-dump", os.path.join(FIX, name + "-t1.txt"),
                            "--interval", "1s", "--store", db, "-T", "json"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            fail("%s: %s" % (name, r.stderr.strip()))
        rows = [json.loads(line) for line in r.stdout.splitlines()]
        rates = {(x["metric"], x["prio"]): x["rate"] for x in rows
                 if x.get("metric") and x["rate"] is not None}
        for key, increase in want.items():
            if key not in rates or abs(rates[key] - increase) > 1e-6 * max(1, increase):
                fail("%s: %s{prio=%d}: rate %s, expected %d/s" %
                     (name, key[0], key[1], rates.get(key), increase))
        pfc = {k for k in rates if k[0].startswith("pfc.")}
        if name == "mlx5-pfc-off" and pfc:
            fail("mlx5 with PFC off produced %s" % pfc)
        raw = [x for x in rows if x.get("counter") and x["metric"] is None]
        if not raw and name != "mlx5-pfc-off":
            fail("%s: unmapped counters were dropped" % name)
        q = subprocess.run([DCBKIT, "store", "query", "--store", db, "--metric", "pfc.rx_pause",
                            "--prio", "3", "-T", "json"], capture_output=True, text=True)
        stored = json.loads(q.stdout)["samples"] if q.returncode == 0 else None
        if name != "mlx5-pfc-off" and (not stored or stored[0]["device"] != "gpu1"):
            fail("%s: the store lacks pfc.rx_pause{3}: %s %s" % (name, q.stdout, q.stderr))
        print("%-13s %d canonical rates, %d raw counters" % (name, len(rates), len(raw) // 2))

    # Garbage: one line naming the line, exit 1; no --ifname: usage error.
    bad = {"noheader.txt": ("rx_packets: 1\n", "line 1: not an ethtool -S dump"),
           "badvalue.txt": ("NIC statistics:\n     rx_packets: 1\n     tx_packets: -4\n",
                            "line 3: the value is not an unsigned 64-bit number"),
           "noname.txt": ("NIC statistics:\n     : 12\n", "line 2: not a \"name: value\" line"),
           "empty.txt": ("", "empty: not an ethtool -S dump")}
    for f, (text, why) in bad.items():
        path = os.path.join(tmp, f)
        open(path, "w").write(text)
        r = subprocess.run([DCBKIT, "collect", "--ifname", "eth0", "--from-ethtool-dump", path],
                           capture_output=True, text=True)
        lines = r.stderr.strip().splitlines()
        if r.returncode != 1 or len(lines) != 1 or why not in lines[0]:
            fail("%s: exit %d, %r" % (f, r.returncode, r.stderr))
    r = subprocess.run([DCBKIT, "collect", "--from-ethtool-dump", path], capture_output=True,
                       text=True)
    if r.returncode != 64 or "--ifname" not in r.stderr:
        fail("dump without --ifname: exit %d %r" % (r.returncode, r.stderr))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print("ok")
