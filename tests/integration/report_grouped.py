"""Issue 31: the report groups findings. The shipped case (fixtures/reports/four-faults.sh: four
fault scenarios in one store, 37 findings) is reported and rendered by headless Chromium at
1280x800. The whole page fits in three screens; one article per cause (rule, severity, knob),
its places compacted ("switch1 Ethernet0-7, prio 3"); every finding still on its own row under
All places and in report.json; evidence and proposals carry units; Markdown code spans hold no
backslash escapes."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from chromium import Chromium  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DCBKIT = os.environ.get("DCBKIT", os.path.join(ROOT, "build", "cc", "bin", "dcbkit"))
SCREEN_H = 800


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


tmp = tempfile.mkdtemp(prefix="dcbkit-report-grouped-")
try:
    subprocess.run([os.path.join(ROOT, "fixtures", "reports", "four-faults.sh"), DCBKIT, tmp],
                   check=True)
    out = os.path.join(tmp, "report")
    with open(os.path.join(out, "report.json")) as f:
        model = json.load(f)
    findings = model["findings"]
    groups = []
    for f in findings:
        key = (f["rule"], f["severity"], f.get("knob") or "")
        if key not in groups:
            groups.append(key)
    if len(findings) < 20 or len(groups) > len(findings) // 3:
        fail("the case should have many findings of few causes: %d findings, %d causes"
             % (len(findings), len(groups)))
    with Chromium(width=1280, height=SCREEN_H) as b:
        b.load(os.path.join(out, "report.html"))
        dom = b.evaluate("""(() => ({
            height: document.documentElement.scrollHeight,
            articles: [...document.querySelectorAll('#findings article.finding')]
                .map(a => a.querySelector('p').textContent),
            changes: [...document.querySelectorAll('#changes table tr')].slice(1)
                .map(r => r.textContent),
            places: document.querySelectorAll('#all-places table tr').length - 1,
            evidence: [...document.querySelectorAll('#findings .evidence-line')]
                .map(p => p.textContent).join('\\n'),
        }))()""")
        if b.errors:
            fail("console errors: %r" % b.errors)
    if dom["height"] > 3 * SCREEN_H:
        fail("the report is %d px high at 1280 px: more than three screens of %d"
             % (dom["height"], SCREEN_H))
    if len(dom["articles"]) != len(groups) or len(dom["changes"]) != len(groups):
        fail("%d articles and %d overview rows for %d causes"
             % (len(dom["articles"]), len(dom["changes"]), len(groups)))
    if dom["places"] != len(findings):
        fail("All places has %d rows for %d findings" % (dom["places"], len(findings)))
    # the worst cause first, in the one order of report.json
    for text, (rule, _sev, _knob) in zip(dom["articles"], groups):
        if rule not in text:
            fail("articles out of order: %r where %s was expected" % (text, rule))
    # eight ports with the same headroom drop are one row, their places compacted
    head = [r for r in dom["changes"] if "headroom-underprovisioned" in r]
    n_head = sum(1 for f in findings if f["rule"] == "headroom-underprovisioned")
    if len(head) != 1 or "%d places" % n_head not in head[0] or "Ethernet0\u2013" not in head[0]:
        fail("headroom-underprovisioned is not one row with its ports as a range: %r" % head)
    # units: a pause time in microseconds reads in ms or s, never as 6.785e+05
    if re.search(r"\d\.\d+e[+-]\d\d", dom["evidence"]):
        fail("a raw exponent in the evidence: %r" % re.findall(r"\S+e[+-]\d\d", dom["evidence"]))
    pause = [f for f in findings if any(e["name"].startswith("pfc.rx_pause_us")
                                        for e in f["evidence"])]
    shown = [v.strip() for v in re.findall(r"pfc\.rx_pause_us\[[^\]]*\] = ([^;\n]+)",
                                           dom["evidence"])]
    if pause and (not shown or any(v != "0" and not re.fullmatch(r"[\d.]+ (ns|ms|s|\u00b5s)", v)
                                   for v in shown)):
        fail("the pause time's evidence has no time unit: %r" % shown)
    with open(os.path.join(out, "report.md")) as f:
        md = f.read()
    spans = re.findall(r"`([^`]+)`", md)
    if not spans or any("\\" in s for s in spans):
        fail("Markdown code spans with backslashes: %r" % [s for s in spans if "\\" in s][:3])
    if "switch.buffer.3.headroom" not in md:
        fail("the headroom knob is not in report.md")
    # JSON keeps every finding, with its raw value
    if not all("proposed" in f for f in findings):
        fail("a finding lost its proposed key")
    # --from-json in every format: -T json is the document, text is a summary, never HTML
    src = os.path.join(out, "report.json")
    as_json = subprocess.run([DCBKIT, "report", "--from-json", src, "-T", "json"],
                             capture_output=True, text=True)
    if json.loads(as_json.stdout) != model:
        fail("--from-json -T json is not the stored document")
    for flags in (["-T", "text"], ["--format", "text"]):
        text = subprocess.run([DCBKIT, "report", "--from-json", src] + flags,
                              capture_output=True, text=True).stdout
        if "<" in text or not text.startswith("REPORT crit") or \
                len(text.splitlines()) != len(groups) + 1:
            fail("--from-json %s: %r" % (" ".join(flags), text[:200]))
    html = subprocess.run([DCBKIT, "report", "--from-json", src], capture_output=True,
                          text=True).stdout
    if not html.startswith("<!DOCTYPE html>"):
        fail("--from-json with no format is not HTML")
    # diagnose's text gives the same units; its JSON keeps the raw values
    diag = subprocess.run([DCBKIT, "diagnose", "--store", os.path.join(tmp, "store.db")],
                          capture_output=True, text=True).stdout
    if not re.search(r"switch\.buffer\.3\.headroom .*-> 41218 \(41\.2 KB\)", diag):
        fail("diagnose's text gives the headroom proposal without its unit")
    diag_json = json.loads(subprocess.run([DCBKIT, "diagnose", "--store",
                                           os.path.join(tmp, "store.db"), "-T", "json"],
                                          capture_output=True, text=True).stdout)
    if not any(f.get("proposed") == "41218" for f in diag_json["findings"]):
        fail("diagnose -T json lost the raw proposed value")
    print("ok: %d findings in %d causes, %d px at 1280 px (three screens: %d)"
          % (len(findings), len(groups), dom["height"], 3 * SCREEN_H))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
