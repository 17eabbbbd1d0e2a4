"""dcbkit replay --realtime: over 3 s the demo's samples carry Unix wall-clock timestamps that
advance with the wall clock within 5% (each instant is read as it is written), --replay-speed 0.5
stretches 500 ms of simulated time over 1 s, and SIGINT ends a --duration forever run cleanly with the
summary."""
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from store_helpers import DCBKIT, fail  # noqa: E402

RUN_S = float(os.environ.get("REPLAY_REALTIME_S", "3"))
TOLERANCE = 0.05


def stream(args):
    """(ts of each sample instant, wall time it arrived) and the run's wall time."""
    t0 = time.time()
    p = subprocess.Popen([DCBKIT, "replay", "--demo", "--realtime", "--stream"] + args,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    rounds = []
    last = None
    for line in p.stdout:
        # the reader must keep up with ~70k lines/s on a loaded machine: no full JSON parse
        ts = line[6:line.index(",")]
        if ts != last and '"metric"' in line:
            rounds.append((int(ts), time.time()))
            last = ts
    p.wait(timeout=30)
    if p.returncode != 0:
        fail("replay %s: exit %d: %s" % (args, p.returncode, p.stderr.read()))
    return rounds, time.time() - t0


rounds, wall = stream(["--duration", "%gs" % RUN_S])
ts_span = (rounds[-1][0] - rounds[0][0]) / 1e9
arrival_span = rounds[-1][1] - rounds[0][1]
# the timestamps advance as the wall clock did while they were written, within 5%
if abs(ts_span - arrival_span) > TOLERANCE * arrival_span:
    fail("samples spanning %.3f s arrived over %.3f s of wall clock" % (ts_span, arrival_span))
if ts_span < RUN_S * (1 - TOLERANCE):
    fail("timestamps span %.3f s for %.1f s of simulated time in real time" % (ts_span, RUN_S))
# drift: how far the timestamps ran from the wall clock since the first instant
ts0, at0 = rounds[0]
worst = max(abs((ts - ts0) / 1e9 - (at - at0)) for ts, at in rounds)
if worst > TOLERANCE * RUN_S:
    fail("the timestamps drifted %.3f s from the wall clock" % worst)
offset = abs(ts0 / 1e9 - at0)
if offset > 1.0:
    fail("the first timestamp is %.3f s from the Unix wall clock" % offset)
if wall < RUN_S * (1 - TOLERANCE):
    fail("the run took %.3f s, less than real time" % wall)
steps = sorted(b[0] - a[0] for a, b in zip(rounds, rounds[1:]))
print("ok realtime: %d instants over %.3f s of timestamps, %.3f s of arrivals, drift at most "
      "%.1f ms, start %.1f ms off the wall clock, median step %.1f ms"
      % (len(rounds), ts_span, arrival_span, worst * 1e3, offset * 1e3, steps[len(steps) // 2] / 1e6))

rounds, wall = stream(["--duration", "500ms", "--replay-speed", "0.5"])
ts_span = (rounds[-1][0] - rounds[0][0]) / 1e9
if abs(ts_span - 1.0) > TOLERANCE or wall < 1.0 - TOLERANCE:
    fail("--replay-speed 0.5 over 500 ms: timestamps span %.3f s, run %.3f s" % (ts_span, wall))
print("ok --replay-speed 0.5: 500 ms simulated in %.3f s, timestamps span %.3f s" % (wall, ts_span))

# forever, until SIGINT: exits 0 and prints the summary
p = subprocess.Popen([DCBKIT, "replay", "--demo", "--realtime", "--duration", "forever",
                      "-T", "json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
time.sleep(0.7)
p.send_signal(signal.SIGINT)
out, err = p.communicate(timeout=10)
if p.returncode != 0:
    fail("interrupted forever run: exit %d: %s" % (p.returncode, err))
d = json.loads(out)
if not (d["stopped"] and 0.4e9 < d["simulated_ns"] < 1.5e9):
    fail("interrupted forever run: stopped %s after %s ns" % (d["stopped"], d["simulated_ns"]))
print("ok forever: stopped by SIGINT after %.2f s simulated, %d passes" % (d["simulated_ns"] / 1e9,
                                                                        d["passes"]))
