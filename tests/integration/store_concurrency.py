"""A reader polls the latest values every 100 ms while a writer ingests at full speed. No poll
fails with SQLITE_BUSY, none sees a torn batch (all series at the same timestamp, since each
batch is one timestamp of every series), and every poll returns within 50 ms plus what starting
the process costs. After each poll one series' whole range is read: every second up to the
newest the poll saw, once, while batches move from the recent tier into the main table. Prints
the worst case.

Then six writers start together on one store that does not exist yet (two collectors starting
at once): each creates or opens it, none fails (switching a new file to WAL takes a lock SQLite
does not wait for), and all six imports are in it."""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from store_helpers import DCBKIT, fail, write_stream  # noqa: E402

SERIES = 1000
SECONDS = 600
POLL_S = float(os.environ.get("POLL_INTERVAL", "0.1"))
LIMIT_MS = 50.0
# ASan+UBSan builds (make check SANITIZE=1 builds into build/*-san) run several times slower,
# process start included; the 50 ms promise is for the release build.
if os.environ.get("BUILD", "").endswith("-san"):
    LIMIT_MS *= 4

# Each poll is a new process. What the binary costs to start (the shared libraries of the gNMI
# and exporter code: libcurl and its TLS stack, protobuf-c, libmicrohttpd) is measured here and
# added to the limit: the promise is about the store, not the dynamic loader.
starts = []
for _ in range(10):
    t0 = time.monotonic()
    subprocess.run([DCBKIT, "--version"], capture_output=True, check=True)
    starts.append((time.monotonic() - t0) * 1000)
START_MS = sorted(starts)[len(starts) // 2]
LIMIT_MS += START_MS

tmp = tempfile.mkdtemp(prefix="dcbkit-conc-")
db = os.path.join(tmp, "conc.db")
stream = os.path.join(tmp, "in.jsonl")
write_stream(stream, SECONDS, SERIES)
# Create the store first so the first poll has a schema to read.
subprocess.run([DCBKIT, "store", "info", "--store", db], capture_output=True)
subprocess.run([DCBKIT, "store", "import", "--store", db, "-q", os.devnull], check=True)

writer = subprocess.Popen([DCBKIT, "store", "import", "--store", db, "--batch", str(SERIES),
                           stream], stderr=subprocess.PIPE)
polls, worst, seen_ts, ranges = 0, 0.0, set(), 0
slow = []
while writer.poll() is None:
    t0 = time.monotonic()
    r = subprocess.run([DCBKIT, "store", "query", "--store", db, "--latest", "-T", "json"],
                       capture_output=True, text=True)
    ms = (time.monotonic() - t0) * 1000
    polls += 1
    worst = max(worst, ms)
    if ms > LIMIT_MS:
        slow.append(ms)
    if r.returncode != 0:
        fail("poll %d failed (exit %d): %s" % (polls, r.returncode, r.stderr.strip()))
    if "busy" in r.stderr.lower() or "locked" in r.stderr.lower():
        fail("poll %d: %s" % (polls, r.stderr.strip()))
    samples = json.loads(r.stdout)["samples"]
    if samples:
        stamps = {s["ts"] for s in samples}
        if len(samples) != SERIES or len(stamps) != 1:
            fail("poll %d: torn batch: %d series, timestamps %s" %
                 (polls, len(samples), sorted(stamps)[:5]))
        seen_ts |= stamps
        # One series' whole range, read while the writer appends to the recent tier and merges
        # it into the main table (every 60 s of sample time): every second from 0 to at least
        # the latest seen, once each, whichever tier holds it.
        newest = max(stamps)
        r = subprocess.run([DCBKIT, "store", "query", "--store", db, "--device", "h3",
                            "--ifname", "eth7", "--metric", "pfc.rx_pause", "--since", "40000d",
                            "-T", "json"], capture_output=True, text=True)
        if r.returncode != 0:
            fail("range read %d failed (exit %d): %s" % (polls, r.returncode, r.stderr.strip()))
        got = [s["ts"] for s in json.loads(r.stdout)["samples"]]
        want = list(range(0, len(got) * 1000000000, 1000000000))
        if got != want or (got and got[-1] < newest):
            fail("range read %d: %d samples, not every second from 0 to at least %d s once: %s" %
                 (polls, len(got), newest // 1000000000, got[:3] + got[-3:]))
        ranges += 1
    time.sleep(max(0.0, POLL_S - (time.monotonic() - t0)))

err = writer.stderr.read().decode()
if writer.returncode != 0:
    fail("writer failed: %s" % err.strip())
print("polls: %d while the writer ingested %d samples; %d distinct batches seen; "
      "worst poll %.1f ms (limit %.0f ms: 50 ms and the median process start, %.1f ms); "
      "%d whole-range reads of one series complete" %
      (polls, SERIES * SECONDS, len(seen_ts), worst, LIMIT_MS, START_MS, ranges))
if polls < 5 or len(seen_ts) < 3:
    fail("the writer finished too fast to test anything (%d polls)" % polls)
if slow:
    fail("%d polls over %.0f ms: %s" % (len(slow), LIMIT_MS, ["%.1f" % x for x in slow[:5]]))
fresh = os.path.join(tmp, "fresh.db")
line = '{"ts": %d, "device": "w%d", "ifname": "e0", "metric": "port.rx_bytes", "value": 1}\n'
procs = [subprocess.Popen([DCBKIT, "store", "import", "--store", fresh], stdin=subprocess.PIPE,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for _ in range(6)]
outs = [p.communicate((line % (10**18, i)).encode(), timeout=60) for i, p in enumerate(procs)]
bad = [(p.returncode, e.decode().strip()) for p, (_, e) in zip(procs, outs) if p.returncode]
if bad:
    fail("writers starting together on a new store: %s" % bad)
r = subprocess.run([DCBKIT, "store", "query", "--store", fresh, "--latest", "-T", "json"],
                   capture_output=True, text=True)
devices = sorted({x["device"] for x in json.loads(r.stdout)["samples"]}) if r.returncode == 0 else r.stderr
if devices != ["w%d" % i for i in range(6)]:
    fail("after six writers started together, the store holds %s" % devices)
print("six writers starting together on a new store: all in")
subprocess.run(["rm", "-rf", tmp])
