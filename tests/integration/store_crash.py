"""SIGKILL a store writer at random points 20 times while it ingests. After each kill the
database opens, PRAGMA integrity_check is ok, and every batch the writer reported committed is
there (and nothing torn: each timestamp is all-or-nothing)."""
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from store_helpers import DCBKIT, db_check, fail, write_stream  # noqa: E402
import store_sql  # noqa: E402

SERIES = 500
SECONDS = 800          # per run: 400,000 samples, more than a run lasts before its kill (~1 s)
KILLS = 20
committed_re = re.compile(r"committed (\d+) samples \(through line (\d+)\)")

random.seed(int(os.environ.get("SEED", "4791")))
tmp = tempfile.mkdtemp(prefix="dcbkit-crash-")
db = os.path.join(tmp, "crash.db")
expected = 0           # samples committed by all runs so far
for run in range(KILLS):
    stream = os.path.join(tmp, "in.jsonl")
    write_stream(stream, SECONDS, SERIES, t_offset=run * SECONDS)
    p = subprocess.Popen([DCBKIT, "store", "import", "--store", db, "--batch", str(SERIES),
                          "-v", stream], stderr=subprocess.PIPE)
    deadline = time.monotonic() + random.uniform(0.05, 0.35)
    reported = 0
    fd = p.stderr.fileno()
    os.set_blocking(fd, False)
    raw = b""
    while time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.005)
        try:
            raw += os.read(fd, 65536)
        except BlockingIOError:
            pass
    p.send_signal(signal.SIGKILL)
    p.wait()
    os.set_blocking(fd, True)
    raw += p.stderr.read()
    buf = raw.decode(errors="replace")
    for m in committed_re.finditer(buf):
        reported = max(reported, int(m.group(1)))
    if p.returncode != -signal.SIGKILL:
        fail("run %d: the writer finished before it was killed; make SECONDS larger" % run)

    # The store opens with dcbkit, and SQLite agrees it is intact.
    info = subprocess.run([DCBKIT, "store", "info", "--store", db, "-T", "json"],
                          capture_output=True, text=True)
    if info.returncode != 0:
        fail("run %d: store does not open after SIGKILL: %s" % (run, info.stderr.strip()))
    ok, total = db_check(db)
    if ok != "ok":
        fail("run %d: integrity_check says %s" % (run, ok))
    this_run = total - expected
    if this_run < reported:
        fail("run %d: writer reported %d committed, only %d present" % (run, reported, this_run))
    if this_run % SERIES:
        fail("run %d: %d samples present, not whole batches of %d: a torn batch" %
             (run, this_run, SERIES))
    lo, hi = run * SECONDS * 10**9, (run + 1) * SECONDS * 10**9
    con = store_sql.connect(db, t0=lo, t1=hi)
    per_ts = con.execute("SELECT ts, count(*) FROM samples_all WHERE ts >= ? AND ts < ? GROUP BY ts "
                         "HAVING count(*) != ?", (lo, hi, SERIES)).fetchall()
    con.close()
    if per_ts:
        fail("run %d: timestamps with a partial set of series: %s" % (run, per_ts[:3]))
    print("run %2d: killed after %d reported committed, %d present" % (run, reported, this_run))
    expected = total

print("ok: %d kills, %d samples survive, integrity ok each time" % (KILLS, expected))
subprocess.run(["rm", "-rf", tmp])
