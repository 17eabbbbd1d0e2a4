"""dcbkit report built from the replay engine's fault scenario: a 3:1 incast onto a slow
receiver on the healthy 2x2 leaf-spine (whose leaves are gNMI targets), the simulated samples
and events in a store (test_report_replay --write-store), then rendered in headless Chromium at
1280x2000: no console error, the verdict, findings and SVG charts in the DOM, the senders'
ports the top pause offenders, every device with data. The screenshot is kept as
$ARTIFACTS/report_replay.png."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from chromium import Chromium  # noqa: E402
from report_store import FABRICS, fail, run  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build", "cc"))
ARTIFACTS = os.environ.get("ARTIFACTS", os.path.join(BUILD, "tests", "artifacts"))
SCENARIO = os.path.join(BUILD, "tests", "unit", "test_report_replay")
FABRIC = os.path.join(FABRICS, "healthy.json")

if not os.access(SCENARIO, os.X_OK):
    fail("no %s: run 'make build-tests' first" % SCENARIO)
tmp = tempfile.mkdtemp(prefix="dcbkit-report-replay-")
try:
    db = os.path.join(tmp, "replay.db")
    p = subprocess.run([SCENARIO, "--write-store", db, FABRIC], capture_output=True, text=True)
    if p.returncode != 0:
        fail("the replay scenario: %s" % p.stderr.strip())
    out = os.path.join(tmp, "out")
    p = run(["report", "--fabric", FABRIC, "--store", db, "--since", "40ms", "--out", out])
    if p.returncode not in (0, 1, 2):
        fail("report exit %d: %s" % (p.returncode, p.stderr))
    m = json.load(open(os.path.join(out, "report.json")))
    silent = [d["name"] for d in m["devices"] if d["status"] != "ok"]
    if silent:
        fail("devices without data from the replay: %r" % silent)
    gnmi = [d for d in m["devices"] if d["reach"] == "gnmi"]
    if len(gnmi) != 2 or any("pause_ns" not in d["charts"] for d in gnmi):
        fail("the gNMI targets have no pause charts: %r" % [(d["name"], list(d["charts"])) for d in gnmi])
    top = m["top"]["pause"]
    if not top or top[0]["device"] not in ("host1", "host2", "host3") or not top[0]["pause_ns"] > 1e6:
        fail("the incast senders are not the top pause offenders: %r" % top[:3])
    if not m["heatmap"]["rows"]:
        fail("no heatmap rows")
    os.makedirs(ARTIFACTS, exist_ok=True)
    shot = os.path.join(ARTIFACTS, "report_replay.png")
    with Chromium(width=1280, height=2000) as b:
        b.load(os.path.join(out, "report.html"))
        dom = b.evaluate("""(() => ({
            verdict: document.querySelector('#verdict .level')?.textContent,
            findings: document.querySelectorAll('#findings article.finding').length,
            nofindings: document.querySelector('#findings p')?.textContent,
            charts: document.querySelectorAll('#devices svg').length,
            heatmap: document.querySelectorAll('#heatmap svg rect > title').length,
            scripts: document.querySelectorAll('script').length,
        }))()""")
        png = b.screenshot(shot)
        if b.errors:
            fail("console errors: %r" % b.errors)
        w, h, colours, share = b.image_stats(png)
    if dom["verdict"] != m["verdict"]["level"] or dom["scripts"]:
        fail("DOM: %r" % dom)
    if dom["findings"] != len(m["findings"]) or (not m["findings"] and dom["nofindings"] != "No findings."):
        fail("findings in the DOM: %r vs %d" % (dom, len(m["findings"])))
    if dom["charts"] != len(m["devices"]) or dom["heatmap"] < 3:
        fail("charts in the DOM: %r" % dom)
    if colours < 16 or share > 0.95:
        fail("screenshot looks blank: %d colours" % colours)
    print("ok: %s; top pause %s:%s %.1f ms; %d device charts, %d heatmap cells; screenshot %s"
          % (m["verdict"]["summary"], top[0]["device"], top[0]["ifname"], top[0]["pause_ns"] / 1e6,
             dom["charts"], dom["heatmap"], shot))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
