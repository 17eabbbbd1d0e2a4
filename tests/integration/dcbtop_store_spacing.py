"""dcbtop --store on a store sampled every 60 s, viewed at the default -d 1: the rates are
taken over the store's own spacing, and the status says so.

The store (dcbtop_helpers.fixture_lines, written through `dcbkit store import`) holds ten
readings of each counter, 60 s apart, each interface's pfc.rx_pause on priority 3 growing by
PFC_RATES[ifname] per second: every frame must show exactly those rates (ens2f1's 0 as 0, not
as unknown), where before it showed none (one reading per 60-interval window). The same store
sampled every second keeps its status free of the remark."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from dcbtop_helpers import (DCBTOP, PFC_RATES, build_store, fail,  # noqa: E402
                            fixture_lines, need_binaries)

need_binaries()
tmp = tempfile.mkdtemp(prefix="dcbtop-spacing-")


def frames(db, *args):
    r = subprocess.run([DCBTOP, "-b", "-n", "3", "-T", "json", "--store", db] + list(args),
                       capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        fail("dcbtop --store %s: %s" % (db, r.stderr))
    return [json.loads(line) for line in r.stdout.splitlines()]


sparse = build_store(os.path.join(tmp, "sparse.db"), fixture_lines(seconds=600, interval_s=60))
got = frames(sparse, "-d", "1")
if len(got) != 3:
    fail("3 frames expected, got %d" % len(got))
for n, frame in enumerate(got):
    rates = {i["ifname"]: i["pfc_rx_per_s"] for i in frame["interfaces"]}
    if rates != {k: float(v) for k, v in PFC_RATES.items()}:
        fail("frame %d: pfc_rx_per_s %s, expected %s" % (n, rates, PFC_RATES))
    if "a sample every 60 s in the store: rates are over that spacing" not in (
            frame["status"] or ""):
        fail("frame %d: status %r" % (n, frame["status"]))
print("sparse store at -d 1: %s; status: %s" % (rates, got[-1]["status"]))

dense = build_store(os.path.join(tmp, "dense.db"), fixture_lines(seconds=30, interval_s=1))
for frame in frames(dense, "-d", "1"):
    if "rates are over that spacing" in (frame["status"] or ""):
        fail("a store sampled every second: status %r" % frame["status"])
print("ok")
