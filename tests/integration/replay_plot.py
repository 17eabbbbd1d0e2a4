"""dcbkit replay --plot: the SVG is well-formed XML in the SVG namespace with no script, headless
Chromium renders it without a console error, and the rendered document has its three panels (the
bottleneck queue, the flows' Rc and Rt, the PFC pause lanes) with the series and lanes the run
produced, on a non-blank screenshot kept in $ARTIFACTS."""
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from chromium import Chromium  # noqa: E402
from store_helpers import DCBKIT, ROOT, fail  # noqa: E402

BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build", "cc"))
ARTIFACTS = os.environ.get("ARTIFACTS", os.path.join(BUILD, "tests", "artifacts"))
SVG = "{http://www.w3.org/2000/svg}"
SCEN = os.path.join(ROOT, "fixtures", "scenarios", "ecn-above-xoff.json")

tmp = tempfile.mkdtemp(prefix="dcbkit-plot-")
try:
    svg = os.path.join(tmp, "plot.svg")
    p = subprocess.run([DCBKIT, "replay", SCEN, "--plot", svg], capture_output=True, text=True,
                       timeout=60)
    if p.returncode != 0:
        fail("replay --plot: %s" % p.stderr)
    root = ET.parse(svg).getroot()
    if root.tag != SVG + "svg":
        fail("root element is %s" % root.tag)
    if any(el.tag == SVG + "script" for el in root.iter()):
        fail("a <script> in the plot")

    # an unwritable path is a one-line error, not a crash
    p = subprocess.run([DCBKIT, "replay", SCEN, "--plot", os.path.join(tmp, "no", "x.svg")],
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 1 or not p.stderr.startswith("dcbkit: replay: --plot") or \
            p.stderr.count("\n") != 1:
        fail("unwritable --plot: exit %d, %r" % (p.returncode, p.stderr))

    os.makedirs(ARTIFACTS, exist_ok=True)
    with Chromium(width=1100, height=900) as b:
        b.load(svg)
        got = b.evaluate("""(() => {
            const panels = [...document.querySelectorAll('g.panel')];
            return {
                panels: panels.length,
                titles: panels.map(g => (g.querySelector('text') || {}).textContent || ''),
                paths: panels.map(g => g.querySelectorAll('path[stroke-linejoin]').length),
                rects: panels.map(g => g.querySelectorAll('rect').length),
                text: document.documentElement.textContent,
            };
        })()""")
        if got["panels"] != 3:
            fail("%r panels in the rendered plot, expected 3" % got["panels"])
        want = ["bottleneck queue: switch1:Ethernet8 TC 3", "flow rates (DCQCN Rc, Rt)",
                "PFC pauses (XOFF to XON, by port and priority)"]
        for w in want:
            if w not in got["text"]:
                fail("the plot has no %r (titles %r)" % (w, got["titles"]))
        if got["paths"][0] < 1:
            fail("no queue depth line: %r" % got["paths"])
        if got["paths"][1] < 16:     # 8 flows, Rc and Rt each
            fail("expected 16 rate lines, got %r" % got["paths"])
        for port in range(8):
            if "switch1:Ethernet%d p3" % port not in got["text"]:
                fail("no pause lane for switch1:Ethernet%d p3" % port)
        png = b.screenshot(os.path.join(ARTIFACTS, "replay_plot.png"))
        if b.errors:
            fail("console errors: %r" % b.errors)
        w, h, colours, top_share = b.image_stats(png)
        if colours < 8 or top_share > 0.98:
            fail("the rendered plot looks blank: %d colours, top colour %.2f" % (colours,
                                                                               top_share))
    print("ok: 3 panels, %d rate lines, 8 pause lanes, %d colours" % (got["paths"][1], colours))
finally:
    shutil.rmtree(tmp)
