"""How far back dcbkit serve's rules look, by the findings it exports:
  --history       fixtures/series/slow-receiver.fires.jsonl (three readings 10 s apart) in a
                  store: serve --store --once exports the slow-receiver finding with the default
                  5m and with --history 15s (two readings), none with --history 5s (one reading:
                  no rate, the rule cannot decide);
  --ring-samples  two serves read one copy of the mlx5 fixture every 20 ms; packet_seq_err moves
                  once by 30 and both export roce-loss-go-back-n; the serve with
                  --ring-samples 1024 (about 12 samples a round) loses the reading from before the
                  move out of its ring within seconds and the finding with it, while the one with
                  the default ring keeps it for the 5 minutes of --history."""
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from serve_helpers import DCBKIT, ROOT, FixtureTree, Serve, fail, tmpdir  # noqa: E402
from serve_helpers import page_series  # noqa: E402

SERIES = os.path.join(ROOT, "fixtures", "series", "slow-receiver.fires.jsonl")
RING_WAIT_S = 15.0


def findings(page):
    return sorted(dict(ls)["rule"] for (n, ls), _ in page_series(page).items()
                  if n == "dcbkit_finding")


def once(db, *args):
    r = subprocess.run([DCBKIT, "serve", "--store", db, "--once"] + list(args),
                       capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        fail("serve --store --once %s: exit %d: %s" % (args, r.returncode, r.stderr))
    return findings(r.stdout)


def history(tmp):
    db = os.path.join(tmp, "slow.db")
    subprocess.run([DCBKIT, "store", "import", "--store", db, SERIES], check=True,
                   capture_output=True, timeout=60)
    got = [once(db), once(db, "--history", "15s"), once(db, "--history", "5s")]
    if got != [["slow-receiver"], ["slow-receiver"], []]:
        fail("findings with the default --history, 15s and 5s: %s" % got)
    print("--history: slow-receiver with 5m and 15s (two readings), none with 5s (one)")


def ring(tmp):
    tree = FixtureTree(tmp)
    seq_err = os.path.join(tree.root, "class", "infiniband", "mlx5_0", "ports", "1",
                           "hw_counters", "packet_seq_err")
    common = ["--local", "--sysfs-root", tree.root, "--device", "fx", "--interval", "20ms"]
    servers = []
    try:
        small = Serve(common + ["--ring-samples", "1024"], tmp, tag="small")
        servers.append(small)
        big = Serve(common, tmp, tag="big")
        servers.append(big)
        with open(seq_err) as f:
            moved = int(f.read()) + 30
        with open(seq_err, "w") as f:
            f.write("%d\n" % moved)
        t0 = time.monotonic()
        seen, lost = None, None
        while time.monotonic() - t0 < RING_WAIT_S and lost is None:
            both = [findings(s.get("/metrics")[1]) for s in (small, big)]
            if seen is None and both == [["roce-loss-go-back-n"]] * 2:
                seen = time.monotonic() - t0
            elif seen is not None and both == [[], ["roce-loss-go-back-n"]]:
                lost = time.monotonic() - t0
            elif seen is not None and both != [["roce-loss-go-back-n"]] * 2:
                fail("findings of --ring-samples 1024 and the default ring: %s" % both)
            time.sleep(0.1)
        if lost is None:
            fail("within %.0f s: the move was %s by both, %s by the small ring only"
                 % (RING_WAIT_S, "seen" if seen else "not seen", "forgotten" if lost
                    else "not forgotten"))
        print("--ring-samples 1024: roce-loss-go-back-n from %.1f s, gone from the small ring "
              "after %.1f s, kept by the default ring" % (seen, lost))
    finally:
        rcs = [s.stop() for s in servers]
    if any(rcs):
        fail("serve exited %s on SIGTERM" % rcs)


tmp = tmpdir("serve-history")
try:
    history(tmp)
    ring(tmp)
    print("ok")
finally:
    shutil.rmtree(tmp, ignore_errors=True)
