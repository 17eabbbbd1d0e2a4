"""dcbkit replay --warmup: the summary measured after the warm-up, against the same run without.

Four long-lived flows into one 40G port, each ingress pausing at 100 KB: at the start every
sender is at line rate, the queue passes 400 KB and the ingresses pause; by 30 ms DCQCN holds the
queue near its fixed point and nothing pauses. With --warmup 30ms the start is left out: no PFC
frames and no pause time, a lower queue maximum, half the 10 ms windows, each flow's bytes and
throughput after the warm-up, and the counters exactly those of the full run less those of a
30 ms run (the same seed runs the same first 30 ms). A warm-up as long as the run is refused."""
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from store_helpers import DCBKIT, ROOT, fail  # noqa: E402

SCENARIO = os.path.join(ROOT, "fixtures", "scenarios", "healthy-incast.json")
SETS = ["--set", "workload.count=4", "--set", "workload.bytes=0",
        "--set", "switch.buffer.3.xoff=100KB", "--set", "series_interval_us=10",
        "--set", "sample_interval_us=1000"]
RUN_MS, WARMUP_MS = 60, 30


def replay(*args):
    p = subprocess.run([DCBKIT, "replay", SCENARIO] + SETS + list(args), capture_output=True,
                       text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def replay_json(*args):
    rc, out, err = replay(*args, "-T", "json")
    if rc != 0:
        fail("replay %s: exit %d: %s" % (" ".join(args), rc, err.strip()))
    return json.loads(out)


def bottleneck(d):
    return next(q for q in d["queues"] if q["ifname"] == "Ethernet8" and q["tc"] == 3)


def main():
    with ThreadPoolExecutor(4) as pool:
        full = pool.submit(replay_json, "--duration", "%dms" % RUN_MS)
        warm = pool.submit(replay_json, "--duration", "%dms" % RUN_MS,
                           "--warmup", "%dms" % WARMUP_MS)
        first = pool.submit(replay_json, "--duration", "%dms" % WARMUP_MS)
        text = pool.submit(replay, "--duration", "%dms" % RUN_MS, "--warmup", "%dms" % WARMUP_MS)
        full, warm, first, text = full.result(), warm.result(), first.result(), text.result()
    f, w = full["figures"], warm["figures"]

    if full["warmup_ns"] != 0 or warm["warmup_ns"] != WARMUP_MS * 1000000:
        fail("warmup_ns: %s without, %s with" % (full["warmup_ns"], warm["warmup_ns"]))
    if warm["measured_from_ns"] != WARMUP_MS * 1000000:
        fail("counters measured from %s, want the sample at 30 ms" % warm["measured_from_ns"])
    # the start transient pauses; after it nothing does
    if not (f["pfc_tx_switch"] > 0 and f["pause_fraction_max"] > 0):
        fail("the full run should pause at the start: %s" % json.dumps(f))
    if w["pfc_tx_switch"] != 0 or w["pause_fraction_max"] != 0:
        fail("after the warm-up nothing should pause: %s" % json.dumps(w))
    # counters: the full run's less those of the first 30 ms
    for key in ("ecn_marked", "cnp_sent", "ce_received", "pfc_tx_switch"):
        if w[key] != f[key] - first["figures"][key]:
            fail("%s after the warm-up: %s, want %s - %s" % (key, w[key], f[key],
                                                              first["figures"][key]))
    # queues: sampled every 10 us from the warm-up to the end, the start's peak left out
    qf, qw = bottleneck(full), bottleneck(warm)
    if qw["samples"] != (RUN_MS - WARMUP_MS) * 100 + 1:
        fail("bottleneck samples after the warm-up: %s" % qw["samples"])
    if not (qf["max_bytes"] > 300000 and qw["max_bytes"] < 0.6 * qf["max_bytes"]):
        fail("queue max %s without, %s with the warm-up" % (qf["max_bytes"], qw["max_bytes"]))
    if w["queue_max_bytes"] != max(q["max_bytes"] for q in warm["queues"]):
        fail("queue_max_bytes is not the largest queue's max")
    # fairness windows: 10 ms each, whole ones after the warm-up
    if f["jain_window_min"] is None or w["jain_window_min"] is None:
        fail("no fairness windows: %s %s" % (f, w))
    # flows: bytes and throughput after the warm-up
    for a, b, c in zip(full["flows"], warm["flows"], first["flows"]):
        if a["bytes_measured"] != a["bytes_acked"] or b["bytes_acked"] != a["bytes_acked"]:
            fail("flow %s: acked bytes changed with the warm-up" % a["flow"])
        if b["bytes_measured"] != a["bytes_acked"] - c["bytes_acked"]:
            fail("flow %s: %s bytes after the warm-up, want %s - %s"
                 % (a["flow"], b["bytes_measured"], a["bytes_acked"], c["bytes_acked"]))
        want = b["bytes_measured"] * 8 / ((RUN_MS - WARMUP_MS) / 1000)
        if abs(b["throughput_bps"] - want) > 1e-6 * want:
            fail("flow %s: throughput %s, want %s" % (a["flow"], b["throughput_bps"], want))
    rc, out, err = text
    if rc != 0 or "measured after a warm-up of 30" not in out or "QUEUE" not in out:
        fail("text output: exit %d, %s %s" % (rc, out[:600], err))

    rc, out, err = replay("--duration", "20ms", "--warmup", "20ms")
    if rc != 1 or "not shorter than the run" not in err:
        fail("a warm-up as long as the run: exit %d, %s" % (rc, err.strip()))
    rc, out, err = replay("--warmup", "soon")
    if rc != 64 or "--warmup" not in err:
        fail("--warmup soon: exit %d, %s" % (rc, err.strip()))
    print("replay --warmup: start transient left out (PFC %d -> 0, queue max %.0f -> %.0f KB), "
          "counters after it exact, flows measured after it"
          % (f["pfc_tx_switch"], qf["max_bytes"] / 1000, qw["max_bytes"] / 1000))


main()
