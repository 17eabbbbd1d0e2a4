"""dcbtop -b -T json --prometheus against a real Prometheus (started here, 1 s scrapes) scraping
`dcbkit serve --local` on a copy of the mlx5 sysfs fixture whose counters a thread of this test
keeps advancing (CE marks +50 and rx bytes +1,000,000 every 0.1 s). dcbtop reads the window back
with --step 1s; its data time T is the window's end, and each rate it shows must be what
Prometheus itself answers for T and T - 1 s (instant queries), divided by the step: the same
numbers seen through two views. The link speed gauge must be the fixture's 100 Gb/s."""
import json
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from serve_helpers import FixtureTree, Prometheus, Serve, fail, tmpdir  # noqa: E402

DCBTOP = os.environ.get("DCBTOP") or fail("DCBTOP is not set (run through make check)")
CE = 'dcbkit_roce_ecn_marked_rx_total{instance="127.0.0.1:%d",ifname="ens1f0"}'
RX = 'dcbkit_port_rx_bytes_total{instance="127.0.0.1:%d",ifname="ens1f0"}'


class Advance(threading.Thread):
    """Raises the CE-mark and rx-byte counters in place until stopped."""

    def __init__(self, tree):
        super().__init__(daemon=True)
        self.ce = os.path.join(tree.root, "class", "infiniband", "mlx5_0", "ports", "1",
                               "hw_counters", "np_ecn_marked_roce_packets")
        self.tree = tree
        self.done = threading.Event()

    def run(self):
        with open(self.ce) as f:
            ce = int(f.read())
        while not self.done.wait(0.1):
            ce += 50
            with open(self.ce, "w") as f:
                f.write("%d\n" % ce)
            self.tree.advance("rx_bytes", 1000000)


def at(prom, expr, t):
    r = prom.api("query", query=expr, time="%.9f" % t)["result"]
    return float(r[0]["value"][1]) if r else None


tmp = tmpdir("dcbtop-prom")
serve = prom = adv = None
try:
    tree = FixtureTree(tmp)
    serve = Serve(["--local", "--sysfs-root", tree.root, "--device", "thishost", "--interval",
                   "250ms"], tmp)
    prom = Prometheus(tmp, [serve.port])
    prom.wait_up()
    adv = Advance(tree)
    adv.start()
    ce, rx = CE % serve.port, RX % serve.port
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:      # a few scrapes of the rising counters
        r = prom.query("changes(%s[10s])" % ce)
        if r and float(r[0]["value"][1]) >= 4:
            break
        time.sleep(0.5)
    else:
        fail("Prometheus never saw the CE counter rise four times")
    r = subprocess.run([DCBTOP, "-b", "-n", "1", "-T", "json", "--prometheus", prom.url(""),
                        "--match", 'instance="127.0.0.1:%d"' % serve.port, "--step", "1s"],
                       capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        fail("dcbtop --prometheus exit %d: %s" % (r.returncode, r.stderr.strip()))
    frame = json.loads(r.stdout.splitlines()[-1])
    rows = [i for i in frame["interfaces"] if i["device"] == "thishost" and
            i["ifname"] == "ens1f0"]
    if not rows:
        fail("no thishost/ens1f0 row: %s" % [(i["device"], i["ifname"])
                                             for i in frame["interfaces"]])
    row = rows[0]
    t = frame["time"] / 1e9
    want_ce = (at(prom, ce, t) - at(prom, ce, t - 1)) / 1.0
    want_rx = (at(prom, rx, t) - at(prom, rx, t - 1)) * 8 / 1.0
    print("T=%.3f ce/s dcbtop %s prometheus %s; rx b/s dcbtop %s prometheus %s; speed %s" %
          (t, row["ecn_marks_per_s"], want_ce, row["rx_bps"], want_rx, row["speed_bps"]))
    if not 100 <= want_ce <= 1000:
        fail("the counter was not rising at the window's end (%s/s): the check would be empty"
             % want_ce)
    for key, want in (("ecn_marks_per_s", want_ce), ("rx_bps", want_rx)):
        got = row[key]
        if got is None or abs(got - want) > 1e-6 * max(1.0, abs(want)):
            fail("%s: dcbtop shows %s, Prometheus holds %s for the last step" % (key, got, want))
    if row["speed_bps"] != 100e9:
        fail("speed_bps: %s, the fixture says 100 Gb/s" % row["speed_bps"])
    print("ok: dcbtop over Prometheus shows what Prometheus holds")
finally:
    if adv:
        adv.done.set()
    if prom:
        prom.stop()
    if serve:
        serve.stop()
