"""A real Prometheus (started here on 127.0.0.1, temporary data dir, 1 s scrape interval)
scrapes `dcbkit serve --local` on a fixture sysfs tree whose counters this test advances, for
SERVE_PROM_SECONDS (default 6). Then the test asks Prometheus' API for the series: canonical
names in base units, the device and ifname labels, values that increase as the tree did, the
exporter's own series, and `promtool check metrics` on the page."""
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from serve_helpers import (FixtureTree, Prometheus, Serve, fail, skip,  # noqa: E402
                           tmpdir)

SECONDS = float(os.environ.get("SERVE_PROM_SECONDS", "6"))
STEP_BYTES = 125000000          # 1 Gb/s worth per second

if not shutil.which("promtool"):
    skip("promtool not installed (Debian package prometheus; scripts/bootstrap)")
tmp = tmpdir("serve-prom")
tree = FixtureTree(tmp)
serve = Serve(["--local", "--sysfs-root", tree.root, "--device", "fixture", "--interval",
               "250ms"], tmp)
prom = None
try:
    status, page, _ = serve.get("/metrics")
    if status != 200:
        fail("/metrics answered %d" % status)
    chk = subprocess.run(["promtool", "check", "metrics"], input=page, text=True,
                         capture_output=True)
    if chk.returncode != 0:
        fail("promtool check metrics: " + chk.stdout + chk.stderr)
    print("promtool check metrics: ok (%d lines)" % page.count("\n"))

    prom = Prometheus(tmp, [serve.port], scrape_s=1)
    prom.wait_up()
    start = time.time()
    while time.time() - start < SECONDS:
        tree.advance("rx_bytes", STEP_BYTES // 4)
        tree.advance("tx_bytes", STEP_BYTES // 8)
        time.sleep(0.25)
    time.sleep(1.5)                 # one more scrape after the last step
    end = time.time()

    up = prom.query('up{job="dcbkit"}')
    if not up or up[0]["value"][1] != "1":
        fail("Prometheus does not see the target up: %s\n%s" % (up, prom.logtext()))
    sel = 'dcbkit_port_rx_bytes_total{job="dcbkit",device="fixture",ifname="ens1f0"}'
    series = prom.query_range(sel, start, end, "1")
    if len(series) != 1:
        fail("expected one series for %s, got %s" % (sel, series))
    vals = [float(v) for _, v in series[0]["values"]]
    if len(vals) < max(3, int(SECONDS) - 2):
        fail("too few points for %s: %s" % (sel, vals))
    if any(b < a for a, b in zip(vals, vals[1:])) or vals[-1] <= vals[0]:
        fail("%s does not increase: %s" % (sel, vals))
    labels = series[0]["metric"]
    for k in ("device", "ifname", "instance", "job"):
        if k not in labels:
            fail("label %s missing: %s" % (k, labels))
    if "prio" in labels or "queue" in labels:
        fail("a port counter carries prio/queue: %s" % labels)
    print("%s: %d points, %.0f -> %.0f" % (sel, len(vals), vals[0], vals[-1]))

    rate = prom.query('rate(dcbkit_port_rx_bytes_total{device="fixture"}[4s])')
    r = float(rate[0]["value"][1]) if rate else 0.0
    if not (0.3 * STEP_BYTES < r < 3 * STEP_BYTES):
        fail("rate(rx_bytes) = %.0f B/s, the tree moved %d B/s" % (r, STEP_BYTES))
    print("rate(dcbkit_port_rx_bytes_total[4s]) = %.3g B/s (tree: %.3g)" % (r, STEP_BYTES))

    names = {m["__name__"] for m in prom.api("series", **{"match[]": '{job="dcbkit"}'})}
    for want in ("dcbkit_port_tx_bytes_total", "dcbkit_scrape_errors_total",
                 "dcbkit_last_collect_timestamp_seconds", "dcbkit_build_info",
                 "dcbkit_link_fcs_errors_total"):
        if want not in names:
            fail("series %s missing; Prometheus has %s" % (want, sorted(names)))
    errs = prom.query('dcbkit_scrape_errors_total{source="local"}')
    if not errs or errs[0]["value"][1] != "0":
        fail("scrape errors on a healthy tree: %s" % errs)
    print("series names: %d, scrape errors 0" % len(names))
finally:
    if prom:
        prom.stop()
    rc = serve.stop()
    shutil.rmtree(tmp, ignore_errors=True)
if rc != 0:
    fail("serve exited %d on SIGTERM" % rc)
print("ok")
