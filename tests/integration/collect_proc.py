"""dcbkit collect --proc-root on fixtures/proc (from make_proc.py): ens3 has no sysfs statistics
directory, so its netdev counters come from /proc/net/dev; two snapshots swapped under a running
collector give port.* samples whose rates add up to the t0->t1 increase, raw counters under the
kernel's column names, and the sysfs speed file as link.speed_bps. Malformed lines in the table
give one warning line and the good lines are still read; a missing net/dev is a clear error."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from store_helpers import DCBKIT, ROOT, fail  # noqa: E402

FIX = os.path.join(ROOT, "fixtures", "proc")
SYS = os.path.join(FIX, "sys")
# canonical metric -> (value at t0, increase to t1)
WANT = {"port.rx_bytes": (8 * 10**9, 3125 * 10**6), "port.rx_packets": (6 * 10**6, 2500000),
        "port.tx_bytes": (5 * 10**9, 1250 * 10**6), "port.tx_packets": (4 * 10**6, 1000000)}


def snapshot(top):
    out = {}
    for d, _, files in os.walk(top):
        for name in files:
            path = os.path.join(d, name)
            out[os.path.relpath(path, top)] = open(path).read()
    return out


def collect(proc, *extra):
    return subprocess.run([DCBKIT, "collect", "--sysfs-root", SYS, "--proc-root", proc,
                           "--ifname", "ens3", "-T", "json"] + list(extra),
                          capture_output=True, text=True, timeout=30)


tmp = tempfile.mkdtemp(prefix="dcbkit-proc-")
try:
    # the committed fixture is exactly what the generator writes
    regen = os.path.join(tmp, "regen")
    os.makedirs(regen)
    shutil.copy(os.path.join(FIX, "make_proc.py"), regen)
    subprocess.run(["/usr/bin/python3", os.path.join(regen, "make_proc.py")], check=True)
    if snapshot(FIX) != snapshot(regen):
        fail("fixtures/proc differs from make_proc.py output")

    # 1. t0 then t1 under one running collector
    root = os.path.join(tmp, "proc")
    os.symlink(os.path.join(FIX, "t0"), root)
    p = subprocess.Popen([DCBKIT, "collect", "--sysfs-root", SYS, "--proc-root", root,
                          "--count", "2", "--interval", "1s", "-T", "json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.4)
    os.symlink(os.path.join(FIX, "t1"), root + ".new")
    os.replace(root + ".new", root)
    out, err = p.communicate(timeout=30)
    if p.returncode != 0:
        fail("collect failed: %s" % err.strip())
    rows = [json.loads(line) for line in out.splitlines()]
    if {r["ifname"] for r in rows} != {"ens3"}:
        fail("interfaces %s: only ens3 is in sysfs (lo is left out by default)" %
             sorted({r["ifname"] for r in rows}))
    for metric, (v0, inc) in WANT.items():
        got = [r for r in rows if r.get("metric") == metric]
        if len(got) != 2 or any(r["source"] != "netdev" for r in got):
            fail("%s: %s" % (metric, got))
        first, second = got
        if first["value"] != v0 or first["rate"] is not None or second["value"] != v0 + inc:
            fail("%s: values %d, %d; expected %d, %d" % (metric, first["value"], second["value"],
                                                         v0, v0 + inc))
        dt = (second["ts"] - first["ts"]) / 1e9
        if abs(second["rate"] * dt - inc) > 1e-6 * inc:
            fail("%s: rate %s over %.3f s, expected an increase of %d" %
                 (metric, second["rate"], dt, inc))
    raw = {r["counter"]: r["value"] for r in rows if r.get("metric") is None}
    if raw.get("rx_drop") != 9 or raw.get("multicast") != 950 or "tx_carrier" not in raw:
        fail("raw /proc/net/dev columns: %s" % raw)
    speed = [r["value"] for r in rows if r.get("metric") == "link.speed_bps"]
    if speed != [25 * 10**9] * 2:
        fail("link.speed_bps %s, expected 25e9 twice" % speed)

    # 2. malformed lines: one warning line, ens3 still read
    r = collect(os.path.join(FIX, "bad"), "--once")
    warn = [line for line in r.stderr.splitlines() if "malformed" in line]
    if r.returncode != 0 or len(warn) != 1 or "4 malformed lines" not in warn[0] \
            or "line 4:" not in warn[0]:
        fail("bad table: exit %d, stderr %r" % (r.returncode, r.stderr))
    rx = [json.loads(line) for line in r.stdout.splitlines()]
    rx = [x for x in rx if x.get("metric") == "port.rx_bytes"]
    if [x["value"] for x in rx] != [8 * 10**9 + 3125 * 10**6]:
        fail("bad table: ens3 rx_bytes %s" % rx)
    print("warning: " + warn[0])

    # 3. no net/dev at all: a clear error, exit 1
    r = collect(os.path.join(tmp, "nowhere"), "--once")
    if r.returncode != 1 or "ens3: no statistics directory, and" not in r.stderr \
            or "net/dev: No such file or directory" not in r.stderr:
        fail("missing net/dev: exit %d, stderr %r" % (r.returncode, r.stderr))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print("ok")
