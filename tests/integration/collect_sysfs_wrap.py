"""A 32-bit counter that wraps, through the store: `dcbkit collect --store` over the mlx5 sysfs
fixture (fixtures/sysfs/mlx5), whose hw_counters/out_of_sequence (a 32-bit mlx5 Q-counter, "bits":
32 in collectors/maps/mlx5_rdma.json) reads 4294967290 at t0 and 10 at t1: 5 to the top, then
0..10, an increase of 16. The store keeps the width with the series, so every reader of it says
16 and no reset: `store delta` (delta 16, resets 0), dcbtop --store (16 over the readings'
spacing), diagnose --store (the go-back-N rule's evidence), and no counter_reset event is stored
for it. np_cnp_sent in the same trees is 64 bits and truly went back (5000000 -> 12): a reset,
its event stored, its interval left out.

The effect of the width: the same samples exported without "bits" and imported again read as
64-bit, and there 4294967290 -> 10 is a reset (delta 0, resets 1, no rate), as every reader said
before the store kept widths; export --jsonl | import with "bits" keeps the wrap."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from dcbtop_helpers import DCBTOP, need_binaries  # noqa: E402
from store_helpers import DCBKIT, ROOT, fail  # noqa: E402

TREE = os.path.join(ROOT, "fixtures", "sysfs", "mlx5")
OOS = "roce.out_of_sequence"
WRAP = (4294967290, 10, 16)        # t0, t1, the increase: (2^32 - 1 - 4294967290) + 10 + 1

need_binaries()
if not os.path.isdir(TREE):
    fail("fixtures/sysfs/mlx5 missing")
tmp = tempfile.mkdtemp(prefix="dcbkit-wrap-")


def run(*argv, ok=(0,)):
    r = subprocess.run(list(argv), capture_output=True, text=True, timeout=60)
    if r.returncode not in ok:
        fail("%s: %s" % (" ".join(argv[1:4]), r.stderr.strip()))
    return r.stdout


def delta(db, metric):
    out = run(DCBKIT, "store", "delta", "--store", db, "--since", "1h", "--metric", metric,
              "-T", "json")
    series = json.loads(out)["series"]
    if len(series) != 1:
        fail("%s: %s: %d series, expected 1" % (db, metric, len(series)))
    return series[0]


def oos_rate_in_dcbtop(db):
    out = run(DCBTOP, "-b", "-n", "1", "-T", "json", "--store", db)
    ifaces = json.loads(out.splitlines()[-1])["interfaces"]
    return [i["out_of_sequence_per_s"] for i in ifaces if i["ifname"] == "ens1f0"][0]


def oos_evidence(db):
    out = run(DCBKIT, "diagnose", "--store", db, "-T", "json", ok=(2,))   # 2: crit findings
    for f in json.loads(out)["findings"]:
        if f["rule"] == "roce-loss-go-back-n":
            return {e["name"]: e["value"] for e in f["evidence"]}.get(OOS + "[5m]")
    fail("%s: diagnose: no roce-loss-go-back-n finding" % db)


try:
    # two readings a second apart, the tree swapped under the running collector
    root = os.path.join(tmp, "root")
    db = os.path.join(tmp, "wrap.db")
    os.symlink(os.path.join(TREE, "t0"), root)
    p = subprocess.Popen([DCBKIT, "collect", "--sysfs-root", root, "--count", "2",
                          "--interval", "1s", "--store", db],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.4)
    os.symlink(os.path.join(TREE, "t1"), root + ".new")
    os.replace(root + ".new", root)
    out, err = p.communicate(timeout=30)
    if p.returncode != 0:
        fail("collect --store: %s" % err.strip())

    info = json.loads(run(DCBKIT, "store", "info", "--store", db, "-T", "json"))
    if info["schema_version"] != 4:
        fail("store info: schema_version %s, expected 4" % info["schema_version"])

    rows = json.loads(run(DCBKIT, "store", "query", "--store", db, "--since", "1h",
                          "--metric", OOS, "-T", "json"))["samples"]
    if [r["value"] for r in rows] != list(WRAP[:2]) or {r.get("bits") for r in rows} != {32}:
        fail("query: %s samples %s, expected %s with bits 32" % (OOS, rows, WRAP[:2]))
    dt = (rows[1]["ts"] - rows[0]["ts"]) / 1e9
    rx = json.loads(run(DCBKIT, "store", "query", "--store", db, "--since", "1h",
                        "--metric", "port.rx_bytes", "-T", "json"))["samples"]
    if not rx or any("bits" in r for r in rx):
        fail("query: port.rx_bytes (64 bits) samples %s, expected no bits" % rx)

    got = delta(db, OOS)
    if (got["delta"] != WRAP[2] or got["resets"] != 0 or
            abs(got["rate_per_sec"] - WRAP[2] / dt) > 1e-6 * WRAP[2]):
        fail("store delta %s: %s, expected delta %d over %.3f s, 0 resets" %
             (OOS, got, WRAP[2], dt))
    cnp = delta(db, "cnp.sent")
    if cnp["delta"] != 0 or cnp["resets"] != 1 or cnp["rate_per_sec"] is not None:
        fail("store delta cnp.sent (64 bits, went back): %s, expected a reset" % cnp)

    events = json.loads(run(DCBKIT, "store", "events", "--store", db, "--since", "1h",
                            "--kind", "counter_reset", "-T", "json"))["events"]
    if [e["details"]["counter"] for e in events] != ["np_cnp_sent"]:
        fail("counter_reset events %s, expected np_cnp_sent's only (out_of_sequence wrapped)" %
             events)

    # the same samples with the width and without it
    jsonl = run(DCBKIT, "store", "export", "--store", db, "--since", "1h", "--jsonl")
    exported = [json.loads(line) for line in jsonl.splitlines()]
    if [r.get("bits") for r in exported if r["metric"] == OOS] != [32, 32]:
        fail("export --jsonl: %s without bits 32: %s" % (OOS, jsonl))
    copies = {"kept": jsonl, "dropped": re.sub(r',"bits":32', "", jsonl)}
    for name, text in copies.items():
        path = os.path.join(tmp, name + ".jsonl")
        with open(path, "w") as f:
            f.write(text)
        run(DCBKIT, "store", "import", "--store", os.path.join(tmp, name + ".db"), path)
    kept, dropped = (os.path.join(tmp, n + ".db") for n in ("kept", "dropped"))
    copied = delta(kept, OOS)
    if copied["delta"] != WRAP[2] or copied["resets"] != 0:
        fail("export --jsonl | import lost the width: %s" % copied)
    as64 = delta(dropped, OOS)
    if as64["delta"] != 0 or as64["resets"] != 1 or as64["rate_per_sec"] is not None:
        fail("without its width: %s, expected the 64-bit reading (a reset)" % as64)

    for name, path, want in (("with", db, str(WRAP[2])), ("without", dropped, "0")):
        rate = oos_rate_in_dcbtop(path)
        want_rate = WRAP[2] / dt if want != "0" else None
        if (rate is None) != (want_rate is None) or (
                rate is not None and abs(rate - want_rate) > 1e-6 * want_rate):
            fail("dcbtop --store %s the width: out_of_sequence_per_s %s, expected %s" %
                 (name, rate, want_rate))
        evidence = oos_evidence(path)
        if evidence != want:
            fail("diagnose --store %s the width: %s[5m] = %s, expected %s" %
                 (name, OOS, evidence, want))
    print("%s: delta %d over %.3f s, 0 resets (64-bit reading: delta %s, %d reset); "
          "dcbtop %.1f/s; counter_reset events: %s" %
          (OOS, got["delta"], dt, as64["delta"], as64["resets"], oos_rate_in_dcbtop(db),
           [e["details"]["counter"] for e in events]))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print("ok")
