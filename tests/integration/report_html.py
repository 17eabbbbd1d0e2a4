"""dcbkit report renders in headless Chromium at 1280x2000 over the DevTools protocol: no console
error, no script element, the verdict, the findings and SVG charts (the heatmap and a chart per
device with data) are in the DOM, in the order the issue gives; the hostile LLDP system name is
text in the HTML (never an element) and escaped in the Markdown. The evidence is a day of a
2-leaf 2-spine fabric with fault shapes (a pause storm, lossless drops, a retransmitting QP),
two switches reached by gNMI, one device that sends nothing. The screenshot is kept in
$ARTIFACTS (default: the build tree's tests/artifacts/report.png)."""
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from chromium import Chromium  # noqa: E402
from report_store import FABRICS, HOSTILE, PORTS, build, fail, run  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build", "cc"))
ARTIFACTS = os.environ.get("ARTIFACTS", os.path.join(BUILD, "tests", "artifacts"))

tmp = tempfile.mkdtemp(prefix="dcbkit-report-")
try:
    db = os.path.join(tmp, "fabric.db")
    devices = [d for d in PORTS if d != "host4"]          # host4 sends nothing
    build(db, devices=devices)
    out = os.path.join(tmp, "out")
    fabric = os.path.join(FABRICS, "pfc-mismatch.json")   # leaf1, leaf2: gNMI targets
    p = run(["report", "--fabric", fabric, "--store", db, "--out", out], expect=2)

    html = open(os.path.join(out, "report.html"), encoding="utf-8").read()
    md = open(os.path.join(out, "report.md"), encoding="utf-8").read()
    model = json.load(open(os.path.join(out, "report.json")))
    # the raw HTML: the name only as escaped text
    if HOSTILE in html or "<img" in html or "<script" in html:
        fail("a network string reached the HTML unescaped")
    if "&lt;script&gt;alert(1)&lt;/script&gt;" not in html:
        fail("the hostile LLDP name is not in the HTML as escaped text")
    if HOSTILE in md or "<img" in md or "<script" in md:
        fail("a network string reached the Markdown unescaped")
    if "&lt;script&gt;alert(1)&lt;/script&gt;" not in md:
        fail("the hostile LLDP name is not in the Markdown, escaped")
    # Links to the cited documents' public addresses are navigation, not assets: only the
    # References section may hold them, and only as <a href>.
    refs = re.search(r'<section id="references">.*?</section>', html, re.S)
    if not refs or '<a href="#ref-' not in html:
        fail("report.html has no References section that the findings link to")
    outside = html.replace(refs.group(0), "")
    inside = re.sub(r'<a href="https://[^"<>]*">https://[^"<>]*</a>', "", refs.group(0))
    for needle in ("http://", "https://", "src=\"", "@import", "url("):
        if needle in (outside + inside).replace('xmlns="http://www.w3.org/2000/svg"', ""):
            fail("report.html refers to something outside itself: %r" % needle)
    rules = {f["rule"] for f in model["findings"]}
    unreachable = [f["device"] for f in model["findings"] if f["rule"] == "device-unreachable"]
    if "host4" not in unreachable:
        fail("host4 sent nothing but is not a device-unreachable finding: %r" % unreachable)
    if "cfg-pfc-mask-mismatch" not in rules:
        fail("the PFC mismatch is not a finding: %r" % sorted(rules))
    if model["top"]["pause"][0]["device"] != "leaf1" or model["top"]["pause"][0]["ifname"] != "Ethernet0":
        fail("the pause storm port is not the top pause offender: %r" % model["top"]["pause"][0])
    if model["top"]["marks_drops"][0]["ifname"] != "Ethernet2":
        fail("the dropping port is not the top drop offender: %r" % model["top"]["marks_drops"][0])
    if not model["top"]["retransmits"] or model["top"]["retransmits"][0]["retransmits"] != 25:
        fail("the retransmitting QP is missing: %r" % model["top"]["retransmits"])

    os.makedirs(ARTIFACTS, exist_ok=True)
    shot = os.path.join(ARTIFACTS, "report.png")
    with Chromium(width=1280, height=2000) as b:
        b.load(os.path.join(out, "report.html"))
        dom = b.evaluate("""(() => {
            const ids = [...document.querySelectorAll('body > section')].map(s => s.id);
            const lldp = [...document.querySelectorAll('table.neighbours td')]
                .some(td => td.textContent === '<script>alert(1)</script>');
            return {
                sections: ids,
                verdict: document.querySelector('#verdict .level')?.textContent,
                findings: document.querySelectorAll('#findings article.finding').length,
                places: document.querySelectorAll('#all-places table tr').length - 1,
                changes: document.querySelectorAll('#changes table tr').length - 1,
                heatmap: document.querySelectorAll('#heatmap svg').length,
                charts: document.querySelectorAll('#devices svg g.panel').length,
                svgs: document.querySelectorAll('svg').length,
                scripts: document.querySelectorAll('script, img, iframe, object, embed').length,
                lldp: lldp,
                width: document.documentElement.scrollWidth,
            };
        })()""")
        png = b.screenshot(shot)
        if b.errors:
            fail("console errors: %r" % b.errors)
        stats = b.image_stats(png)
    want_sections = ["verdict", "changes", "findings", "top", "heatmap", "devices",
                     "all-places", "references", "raw"]
    if dom["sections"] != want_sections:
        fail("sections %r, expected %r" % (dom["sections"], want_sections))
    if dom["verdict"] != "crit":
        fail("verdict in the DOM: %r" % dom["verdict"])
    # one article per rule, severity and knob; every finding on its own row under All places
    groups = {(f["rule"], f["severity"], f.get("knob") or "") for f in model["findings"]}
    if dom["findings"] != len(groups) or dom["findings"] < 3:
        fail("%r finding groups in the DOM, %d in report.json" % (dom["findings"], len(groups)))
    if dom["places"] != len(model["findings"]):
        fail("%r rows under All places, %d findings in report.json"
             % (dom["places"], len(model["findings"])))
    if dom["heatmap"] != 1 or dom["charts"] < 7 or dom["scripts"] != 0:
        fail("DOM: %r" % dom)
    if not dom["lldp"]:
        fail("the hostile LLDP name is not shown as text in the neighbours table")
    if dom["width"] > 1280:
        fail("the page is wider than the 1280 px viewport: %d" % dom["width"])
    w, h, colours, top = stats
    if (w, h) != (1280, 2000) or colours < 16 or top > 0.95:
        fail("screenshot looks wrong: %dx%d, %d colours, %.0f%% one colour" % (w, h, colours, top * 100))
    print("ok: %d findings (%s), %d SVGs, %d chart panels; screenshot %s (%d colours); %.0f KB html"
          % (dom["findings"], ", ".join(sorted(rules)), dom["svgs"], dom["charts"], shot, colours,
             len(html) / 1024))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
