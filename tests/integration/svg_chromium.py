"""The SVG charts render in headless Chromium: the sample chart and heatmap (with hostile labels)
parse as XML, open as standalone .svg files and inline in HTML with no console error, the DOM
has the panels, series, lanes and heatmap cells we wrote, the hostile labels are text (no
<script>, <b> or <i> element), and the screenshot is not blank. The screenshots are kept in
$ARTIFACTS (default: build tree's tests/artifacts) for a human to look at."""
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from chromium import Chromium  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build", "cc"))
SAMPLE = os.path.join(BUILD, "tests", "unit", "test_svg_chart")
ARTIFACTS = os.environ.get("ARTIFACTS", os.path.join(BUILD, "tests", "artifacts"))
SVG = "{http://www.w3.org/2000/svg}"


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


if not os.access(SAMPLE, os.X_OK):
    fail("no %s: run 'make build-tests' first" % SAMPLE)

tmp = tempfile.mkdtemp(prefix="dcbkit-svg-")
try:
    r = subprocess.run([SAMPLE, "--write-sample", tmp], capture_output=True, text=True)
    if r.returncode != 0:
        fail("writing the samples: %s" % r.stderr.strip())

    # Well-formed XML, in the SVG namespace, no script anywhere.
    for name in ("chart.svg", "heatmap.svg"):
        root = ET.parse(os.path.join(tmp, name)).getroot()
        if root.tag != SVG + "svg":
            fail("%s: root element is %s" % (name, root.tag))
        tags = {el.tag for el in root.iter()}
        for bad in ("script", "foreignObject", "image", "use", "a"):
            if SVG + bad in tags:
                fail("%s has a <%s> element" % (name, bad))
    chart = ET.parse(os.path.join(tmp, "chart.svg")).getroot()
    title = chart.find(SVG + "title").text
    if title != "leaf1 <script>alert(1)</script>":
        fail("the chart title did not survive as text: %r" % title)

    os.makedirs(ARTIFACTS, exist_ok=True)
    with Chromium(width=1280, height=1400) as b:
        # standalone SVG
        b.load(os.path.join(tmp, "chart.svg"))
        panels = b.evaluate("document.querySelectorAll('g.panel').length")
        if panels != 4:
            fail("standalone chart: %r panels in the DOM, expected 4" % panels)
        paths = b.evaluate("document.querySelectorAll('path[stroke-linejoin]').length")
        if paths != 4:
            fail("standalone chart: %r series paths, expected 4" % paths)
        if b.evaluate("document.querySelectorAll('script').length") != 0:
            fail("a <script> element exists in the standalone chart")
        bbox = b.evaluate("(() => { const r = document.documentElement.getBBox();"
                          " return [r.width, r.height]; })()")
        if not bbox or bbox[0] < 900 or bbox[1] < 400:
            fail("the chart draws nothing of size: bbox %r" % bbox)
        png = b.screenshot(os.path.join(ARTIFACTS, "svg_chart.png"))

        # inline in HTML: two charts and a heatmap, hostile labels as text
        b.load(os.path.join(tmp, "page.html"))
        counts = b.evaluate("""(() => ({
            svgs: document.querySelectorAll('body > svg').length,
            panels: document.querySelectorAll('g.panel').length,
            cells: document.querySelectorAll('svg rect > title').length,
            scripts: document.querySelectorAll('script').length,
            injected: document.querySelectorAll('b, i').length,
            text: document.body.textContent.includes('<script>alert(1)</script>')
                  && document.body.textContent.includes('<b>Ethernet12</b> p3'),
        }))()""")
        expect = {"svgs": 3, "panels": 8, "cells": 144, "scripts": 0, "injected": 0,
                  "text": True}
        if counts != expect:
            fail("inline page DOM: %r, expected %r" % (counts, expect))
        png_page = b.screenshot(os.path.join(ARTIFACTS, "svg_page.png"), full_page=True)
        if b.errors:
            fail("console errors: %r" % b.errors)

        for name, data in (("svg_chart.png", png), ("svg_page.png", png_page)):
            w, h, colours, top = b.image_stats(data)
            if colours < 8 or top > 0.97:
                fail("%s looks blank: %dx%d, %d colours, %.1f%% one colour" %
                     (name, w, h, colours, top * 100))
            print("%s: %dx%d, %d colours, background %.0f%%" % (name, w, h, colours, top * 100))
    print("ok: chart (4 panels), page (3 SVGs, 144 heatmap cells), no console errors; "
          "screenshots in %s" % ARTIFACTS)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
