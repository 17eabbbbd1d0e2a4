"""Issue 14's integration test: one report from the shipped fault scenarios plus a real gNMI
target. Four scenarios (pause-storm, headroom-small, np-disabled, ecn-above-xoff) are replayed
into one store, each on its own devices (replay --device-prefix) and in its own time window;
then `report --collect`
collects a fabric of two gNMI switches for a few seconds: the python3-grpcio test peer on
127.0.0.1, and a port nobody listens on. report.json must name each scenario's expected rule
on that scenario's devices, give the gNMI switch its charts and collected config, and make the
dead switch a device-unreachable finding. report.html is rendered in headless Chromium at
1280x2000 (the issue's flags, a fresh --user-data-dir): no console error; the verdict, every
finding and the SVG charts (the gNMI switch's among them) in the DOM. The screenshot is kept as
$ARTIFACTS/report_scenarios.png. Last, `report --verify ecn-above-xoff.json` replays each
finding's change: ecn-too-late's WRED thresholds at least halve the simulated pause time, and the
before/after figures show in report.html and in the Markdown re-rendered with --from-json."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from free_port import free_port  # noqa: E402
from chromium import Chromium  # noqa: E402
from gnmi_helpers import Peer, need_peer  # noqa: E402
from report_store import DCBKIT, fail, run  # noqa: E402
import store_sql  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build", "cc"))
ARTIFACTS = os.environ.get("ARTIFACTS", os.path.join(BUILD, "tests", "artifacts"))
SCENARIOS = os.path.join(ROOT, "fixtures", "scenarios")
COLLECT = os.environ.get("REPORT_COLLECT", "3s")       # the gNMI collect time
# scenario -> the rule it must raise on its own devices (the table of issue 11)
EXPECT = {"pause-storm": {"pause-storm"},
          "headroom-small": {"headroom-underprovisioned"},
          "np-disabled": {"cnp-missing"},
          "ecn-above-xoff": {"ecn-too-late", "cfg-threshold-order"}}




need_peer()
tmp = tempfile.mkdtemp(prefix="dcbkit-report-scenarios-")
try:
    db = os.path.join(tmp, "fabric.db")
    for name in EXPECT:
        run(["replay", os.path.join(SCENARIOS, name + ".json"), "--store", db,
             "--device-prefix", name + "-"], expect=0)
    # each run on its own devices and in its own time: no window overlaps the one before
    con = store_sql.connect(db)
    spans = [con.execute("SELECT min(ts), max(ts) FROM samples_all JOIN series ON series = id "
                         "WHERE device LIKE ?", (name + "-%",)).fetchone() for name in EXPECT]
    con.close()
    if any(lo is None for lo, _ in spans) or any(spans[i + 1][0] <= spans[i][1]
                                                 for i in range(len(spans) - 1)):
        fail("the scenarios' sample windows overlap or are empty: %r" % spans)
    with Peer("--tree", "sonic", "--ports", "4", "--default-interval", "0.5") as peer:
        fabric = os.path.join(tmp, "fabric.json")
        with open(fabric, "w") as f:
            json.dump({"name": "lab", "devices": [
                {"name": "gnmi-leaf1", "role": "switch",
                 "reach": {"gnmi": {"target": peer.address, "insecure": True, "map": "sonic"}}},
                {"name": "gnmi-dead", "role": "switch",
                 "reach": {"gnmi": {"target": "127.0.0.1:%d" % free_port(), "insecure": True,
                                    "map": "sonic"}}}]}, f)
        out = os.path.join(tmp, "out")
        p = run(["report", "--fabric", fabric, "--store", db, "--collect", COLLECT,
                 "--interval", "500ms", "--out", out])
    if p.returncode != 2:
        fail("report exit %d (expected 2, critical): %s" % (p.returncode, p.stderr[-1500:]))
    m = json.load(open(os.path.join(out, "report.json")))
    if m["schema"] != 1 or m["verdict"]["level"] != "crit":
        fail("verdict: %r" % m["verdict"])
    rules = {}
    for f in m["findings"]:
        rules.setdefault(f["device"], set()).add(f["rule"])
    for name, want in EXPECT.items():
        got = set().union(*[r for d, r in rules.items() if d.startswith(name + "-")] or [set()])
        if not got & want:
            fail("%s: no %s finding on its devices; got %s" % (name, sorted(want), sorted(got)))
    dev = {d["name"]: d for d in m["devices"]}
    leaf = dev.get("gnmi-leaf1")
    if not leaf or leaf["status"] != "ok" or leaf["reach"] != "gnmi":
        fail("the gNMI switch has no data: %r" % (leaf and {k: leaf[k] for k in ("status", "reach", "series")}))
    if not {"pause_ns", "marks"} <= set(leaf["charts"]):
        fail("the gNMI switch's charts: %r" % list(leaf["charts"]))
    if not any(c["source"] == "gnmi" for c in leaf["config"]):
        fail("no QoS config collected over gNMI: %r" % [c["source"] for c in leaf["config"]])
    dead = [f for f in m["findings"] if f["device"] == "gnmi-dead"]
    if [f["rule"] for f in dead] != ["device-unreachable"] or "gNMI" not in dead[0]["summary"]:
        fail("the dead gNMI switch: %r" % dead)
    if dev["gnmi-dead"]["status"] != "no-data":
        fail("the dead gNMI switch's section: %r" % dev["gnmi-dead"]["status"])

    os.makedirs(ARTIFACTS, exist_ok=True)
    shot = os.path.join(ARTIFACTS, "report_scenarios.png")
    with Chromium(width=1280, height=2000) as b:
        b.load(os.path.join(out, "report.html"))
        dom = b.evaluate("""(() => {
            const art = [...document.querySelectorAll('#devices article.device')];
            const leaf = art.find(a => a.querySelector('h3')?.textContent.includes('gnmi-leaf1'));
            return {
                verdict: document.querySelector('#verdict .level')?.textContent,
                findings: document.querySelectorAll('#findings article.finding').length,
                places: document.querySelectorAll('#all-places table tr').length - 1,
                text: document.querySelector('#findings')?.textContent || '',
                charts: document.querySelectorAll('svg').length,
                leafCharts: leaf ? leaf.querySelectorAll('svg').length : -1,
                leafText: leaf ? leaf.textContent : '',
                scripts: document.querySelectorAll('script').length,
            };
        })()""")
        png = b.screenshot(shot)
        if b.errors:
            fail("console errors: %r" % b.errors)
        w, h, colours, share = b.image_stats(png)
    if dom["verdict"] != m["verdict"]["level"] or dom["scripts"]:
        fail("DOM verdict/scripts: %r" % {k: dom[k] for k in ("verdict", "scripts")})
    groups = {(f["rule"], f["severity"], f.get("knob") or "") for f in m["findings"]}
    if dom["findings"] != len(groups) or dom["places"] != len(m["findings"]):
        fail("finding groups in the DOM: %d (report.json %d), places %d (findings %d)"
             % (dom["findings"], len(groups), dom["places"], len(m["findings"])))
    for want in ("pause-storm", "headroom-underprovisioned", "cnp-missing", "device-unreachable"):
        if want not in dom["text"]:
            fail("the DOM's findings do not name %s" % want)
    if dom["leafCharts"] < 1 or "gnmi" not in dom["leafText"]:
        fail("the gNMI switch's section in the DOM: %d charts" % dom["leafCharts"])
    if (w, h) != (1280, 2000) or colours < 16 or share > 0.95:
        fail("screenshot %dx%d, %d colours, %.2f one colour" % (w, h, colours, share))

    # report --verify: each finding's change replayed in its scenario; section 6 shows the
    # figures before and after (HTML and Markdown, also when re-rendered from report.json)
    vout = os.path.join(tmp, "verified")
    env = dict(os.environ, DCBKIT_CACHE_DIR=os.path.join(tmp, "cache"))
    p = subprocess.run([DCBKIT, "report", "--fabric", fabric, "--store", db, "--out", vout,
                        "--verify", os.path.join(SCENARIOS, "ecn-above-xoff.json")],
                       capture_output=True, text=True, env=env)
    if p.returncode != 2:
        fail("report --verify: exit %d: %s" % (p.returncode, p.stderr[-1500:]))
    vm = json.load(open(os.path.join(vout, "report.json")))
    late = [f for f in vm["findings"] if f["rule"] == "ecn-too-late" and f["verified"]]
    if not late or not late[0]["verified"]["done"]:
        fail("ecn-too-late was not verified: %r" % (late[:1] and late[0]["verified"]))
    v = late[0]["verified"]
    before, after = v["before"]["pause_us"], v["after"]["pause_us"]
    if not after < before / 2:
        fail("the proposed WRED thresholds do not halve the pause time: %r -> %r" % (before, after))
    html = open(os.path.join(vout, "report.html")).read()
    md = run(["report", "--from-json", os.path.join(vout, "report.json"), "--format", "md"]).stdout
    for text, what in ((html, "HTML"), (md.replace("\\", ""), "Markdown")):
        for want in (v["change"].split()[0], "%.0f" % before, "%.0f" % after):
            if want not in text:
                fail("%s: the verification's %s is not shown" % (what, want))

    print("ok: %s; %d findings (%s); gnmi-leaf1 %d series, %d charts in its section; "
          "%d SVG in the DOM; --verify ecn-too-late pause %.0f -> %.0f us; screenshot %s"
          % (m["verdict"]["summary"][:60], len(m["findings"]),
             ", ".join(sorted({f["rule"] for f in m["findings"]})), leaf["series"],
             dom["leafCharts"], dom["charts"], before, after, shot))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
