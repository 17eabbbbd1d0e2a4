"""dcbtop -b: 10 frames of -T json from a fixture store, each one JSON object with the documented
shape and the fixture's rates; the first frame from a live source has null rates, not 0; and on a
fixture sysfs tree whose counters the test advances between frames (t0 -> t1 -> t2: a 32-bit
wrap, a reset, plain increases) the rates agree with `dcbkit collect` on the same tree: the same
increases, over the intervals each measured. Usage errors exit 64 with one line."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from dcbtop_helpers import (DCBKIT, DCBTOP, PFC_RATES, ROOT, build_store, fail,  # noqa: E402
                            fixture_lines, need_binaries)

need_binaries()
FIX = os.path.join(ROOT, "fixtures", "sysfs", "mlx5")
TOP_KEYS = {"time", "source", "status", "behind_s", "simulated_s", "prio", "interfaces",
            "findings"}
IF_KEYS = {"device", "ifname", "speed_bps", "severity", "prios_shown", "rx_bps", "tx_bps",
           "pfc_rx_per_s", "pfc_tx_per_s", "paused_pct", "ecn_marks_per_s", "cnp_sent_per_s",
           "cnp_handled_per_s", "out_of_sequence_per_s", "drops_per_s", "per_prio", "stale_s"}
tmp = tempfile.mkdtemp(prefix="dcbtop-batch-")


def advance(src, dst, step):
    """A copy of tree src whose counters grew by step per file (t2 after t1)."""
    shutil.copytree(src, dst, symlinks=True)
    for d, _, files in os.walk(dst):
        if not (d.endswith("statistics") or d.endswith("hw_counters")):
            continue
        for name in files:
            path = os.path.join(d, name)
            text = open(path).read().strip()
            if re.fullmatch(r"\d+", text):
                open(path, "w").write("%d\n" % (int(text) + step))


def swap(link, target):
    nxt = link + ".new"
    os.symlink(target, nxt)
    os.replace(nxt, link)           # atomic: a reading sees one tree whole


try:
    # ---- 10 frames from a store ---------------------------------------------------------
    db = build_store(os.path.join(tmp, "fix.db"), fixture_lines())
    r = subprocess.run([DCBTOP, "-b", "-n", "10", "-d", "0.05", "-T", "json", "--store", db],
                       capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        fail("dcbtop --store: " + r.stderr)
    lines = r.stdout.splitlines()
    if len(lines) != 10:
        fail("10 frames expected, got %d lines" % len(lines))
    for n, line in enumerate(lines):
        frame = json.loads(line)
        if set(frame) != TOP_KEYS:
            fail("frame %d keys %s" % (n, sorted(frame)))
        if frame["behind_s"] is not None or frame["simulated_s"] is not None:
            fail("frame %d of a store: behind_s %s, simulated_s %s" % (n, frame["behind_s"],
                                                                     frame["simulated_s"]))
        for i in frame["interfaces"]:
            if set(i) != IF_KEYS:
                fail("interface keys %s" % sorted(i))
    frame = json.loads(lines[-1])
    by_name = {i["ifname"]: i for i in frame["interfaces"]}
    for ifname, pfc in PFC_RATES.items():
        got = by_name[ifname]["pfc_rx_per_s"]
        if got is None or abs(got - pfc) > 1e-9 * max(1, pfc):
            fail("%s: pfc_rx_per_s %s, the fixture has %d" % (ifname, got, pfc))
    if [i["ifname"] for i in frame["interfaces"]] != ["ens2f0", "ens1f0", "ens1f1", "eth9",
                                                       "ens2f1"]:
        fail("not sorted by pfc_rx_per_s: %s" % [i["ifname"] for i in frame["interfaces"]])
    if by_name["ens1f0"]["prios_shown"] != [3] or by_name["ens1f0"]["severity"] != "crit":
        fail("ens1f0: lossless set %s, severity %s" % (by_name["ens1f0"]["prios_shown"],
                                                      by_name["ens1f0"]["severity"]))
    rules = {f["rule"] for f in frame["findings"]}
    if "cfg-pfc-mask-mismatch" not in rules:
        fail("findings %s" % rules)
    if by_name["eth9"]["rx_bps"] != 8 * 5 * 10**9:
        fail("eth9 rx_bps %s, the fixture sends 5 GB/s" % by_name["eth9"]["rx_bps"])
    print("store: 10 frames, %d interfaces, findings %s" % (len(frame["interfaces"]),
                                                            sorted(rules)))

    # ---- the same tree through dcbtop and collect -----------------------------------------
    t2 = os.path.join(tmp, "t2")
    advance(os.path.join(FIX, "t1"), t2, 1000)
    trees = [os.path.join(FIX, "t0"), os.path.join(FIX, "t1"), t2]
    root = os.path.join(tmp, "root")

    os.symlink(trees[0], root)
    p = subprocess.Popen([DCBTOP, "-b", "-n", "3", "-d", "1", "-T", "json", "--sysfs-root", root,
                          "--proc-root", os.path.join(tmp, "noproc"), "--ifname", "ens1f0"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    frames = []
    for k in range(3):
        line = p.stdout.readline()
        if not line:
            fail("dcbtop ended early: " + p.stderr.read())
        frames.append(json.loads(line))
        if k + 1 < 3:
            swap(root, trees[k + 1])
    p.wait(timeout=10)
    first = frames[0]["interfaces"][0]
    if any(first[k] is not None for k in IF_KEYS - {"device", "ifname", "speed_bps", "severity",
                                                     "prios_shown", "per_prio"}):
        fail("first frame from a live source has rates: %s" % first)
    if first["speed_bps"] != 10**11:
        fail("speed_bps %s" % first["speed_bps"])

    os.unlink(root)
    os.symlink(trees[0], root)
    c = subprocess.Popen([DCBKIT, "collect", "--sysfs-root", root, "--proc-root",
                          os.path.join(tmp, "noproc"), "--ifname", "ens1f0", "--count", "3",
                          "--interval", "1s", "-T", "json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    rows, seen_ts = [], []
    for line in c.stdout:
        row = json.loads(line)
        rows.append(row)
        if "counter" in row and row["ts"] not in seen_ts:
            seen_ts.append(row["ts"])
            if len(seen_ts) < 3:
                # swap once this sample is written out (collect flushes per sample)
                time.sleep(0.3)
                swap(root, trees[len(seen_ts)])
    c.wait(timeout=10)
    if c.returncode != 0:
        fail("collect: " + c.stderr.read())

    # metric -> dcbtop JSON key, and the scale between them
    pairs = {"port.rx_bytes": ("rx_bps", 8), "port.tx_bytes": ("tx_bps", 8),
             "cnp.sent": ("cnp_sent_per_s", 1), "cnp.handled": ("cnp_handled_per_s", 1),
             "roce.out_of_sequence": ("out_of_sequence_per_s", 1),
             "roce.ecn_marked_rx": ("ecn_marks_per_s", 1)}
    for step in (1, 2):
        top = frames[step]["interfaces"][0]
        dt_top = (frames[step]["time"] - frames[step - 1]["time"]) / 1e9
        for metric, (key, scale) in pairs.items():
            mine = [r for r in rows if r.get("metric") == metric]
            if len(mine) != 3:
                fail("collect: %d samples of %s" % (len(mine), metric))
            dt_col = (mine[step]["ts"] - mine[step - 1]["ts"]) / 1e9
            got = top[key]
            if mine[step]["rate"] is None:          # a reset: no rate spans it, in either
                if got is not None:
                    fail("step %d: %s: dcbtop %s/s across a reset, collect null" %
                         (step, key, got))
                print("step %d %-22s null across a reset in both" % (step, metric))
                continue
            want = mine[step]["rate"] * scale
            if got is None:
                fail("step %d: %s is null" % (step, key))
            inc_top, inc_col = got * dt_top, want * dt_col
            if abs(inc_top - inc_col) > 1e-6 * max(1.0, abs(inc_col)):
                fail("step %d: %s: dcbtop counts %.6g over %.3f s, collect %.6g over %.3f s" %
                     (step, metric, inc_top, dt_top, inc_col, dt_col))
            if abs(got - want) > 0.05 * max(1.0, abs(want)):
                fail("step %d: %s: dcbtop %s/s, collect %s/s" % (step, key, got, want))
            print("step %d %-22s dcbtop %14.6g/s  collect %14.6g/s" % (step, metric, got, want))

    # ---- usage errors ----------------------------------------------------------------------
    for args, text in ((["-b", "-n", "0"], "-n takes"), (["-b", "-T", "xml"], "-T takes"),
                       (["-b", "--at", "yesterday", "--store", db], "--at takes"),
                       (["-b", "--bogus"], "unknown option")):
        r = subprocess.run([DCBTOP] + args, capture_output=True, text=True)
        if r.returncode != 64 or text not in r.stderr or r.stderr.count("\n") != 1:
            fail("%s: exit %d, %r" % (args, r.returncode, r.stderr))
    r = subprocess.run([DCBTOP, "-b", "--store", os.path.join(tmp, "missing.db")],
                       capture_output=True, text=True)
    if r.returncode != 1 or not r.stderr.startswith("dcbtop: "):
        fail("missing store: exit %d, %r" % (r.returncode, r.stderr))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print("ok")
