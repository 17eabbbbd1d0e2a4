"""One severity vocabulary: crit, warn, info (verdicts: ok, warn, crit, unknown) in every
command's text, JSON and files; never "warning", "warnings" or "critical".

Runs diagnose, analyze, report (stdout, report.md, report.html, report.json) and serve --once
over inputs with warn and crit findings, and checks every severity they print: the JSON
"severity" and "level" values, serve's severity label, and that no text output uses another
word for them (the rule catalog's own texts use neither word, so any hit is a severity)."""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, "lib"))
from help_text import DCBKIT, fail  # noqa: E402

FABRICS = os.path.join(ROOT, "fixtures", "fabrics")
SCENARIOS = os.path.join(ROOT, "fixtures", "scenarios")
CAPTURE = os.path.join(ROOT, "fixtures", "captures", "analyze", "pfc-storm.pcap")
OTHER_WORDS = re.compile(r"\b(warnings?|critical)\b", re.I)
SEVERITIES = {"crit", "warn", "info"}
LEVELS = {"ok", "warn", "crit", "unknown"}


def out_of(argv):
    r = subprocess.run([DCBKIT] + argv, capture_output=True, text=True, timeout=120,
                       stdin=subprocess.DEVNULL)
    if r.returncode not in (0, 1, 2):
        fail("dcbkit %s: exit %d: %s" % (" ".join(argv), r.returncode, r.stderr))
    return r.stdout


def json_values(doc, keys, found):
    """Every string value of doc under one of keys, at any depth, into found."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k in keys and isinstance(v, str):
                found.append((k, v))
            json_values(v, keys, found)
    elif isinstance(doc, list):
        for v in doc:
            json_values(v, keys, found)


def check_text(what, text):
    m = OTHER_WORDS.search(text)
    if m:
        line = text[:m.end()].rsplit("\n", 1)[-1] + text[m.end():].split("\n", 1)[0]
        fail("%s says %r: %s" % (what, m.group(0), line.strip()[:200]))


def check_json(what, text, seen):
    found = []
    json_values(json.loads(text), ("severity", "level"), found)
    for key, value in found:
        if value not in (SEVERITIES if key == "severity" else LEVELS):
            fail("%s: %s is %r" % (what, key, value))
        seen.add(value)


def main():
    tmp = tempfile.mkdtemp(prefix="dcbkit-sev.")
    seen = set()
    for fab in ("dcqcn-off.json", "pfc-mismatch.json"):
        path = os.path.join(FABRICS, fab)
        check_text("diagnose " + fab, out_of(["diagnose", "--fabric", path]))
        check_json("diagnose -T json " + fab, out_of(["diagnose", "--fabric", path, "-T",
                                                      "json"]), seen)
    check_text("analyze", out_of(["analyze", CAPTURE]))
    check_json("analyze -T json", out_of(["analyze", CAPTURE, "-T", "json"]), seen)
    for sc in ("slow-receiver.json", "pause-storm.json"):
        out = os.path.join(tmp, sc)
        args = ["report", "--replay", os.path.join(SCENARIOS, sc), "--out", out]
        check_text("report " + sc, out_of(args))
        check_json("report -T json " + sc, out_of(args + ["-T", "json"]), seen)
        for name in ("report.md", "report.html"):
            with open(os.path.join(out, name)) as f:
                check_text("%s of %s" % (name, sc), f.read())
        with open(os.path.join(out, "report.json")) as f:
            check_json("report.json of " + sc, f.read(), seen)
    page = out_of(["serve", "--replay", os.path.join(SCENARIOS, "pause-storm.json"), "--once",
                   "--interval", "1s"])
    labels = set(re.findall(r'^dcbkit_finding\{[^}]*severity="([^"]*)"', page, re.M))
    if not labels or not labels <= SEVERITIES:
        fail("serve's dcbkit_finding severities: %s" % sorted(labels))
    seen |= labels
    # the inputs were chosen to show both: a check that saw neither proves nothing
    if not {"crit", "warn"} <= seen:
        fail("the runs gave only %s" % sorted(seen))
    print("ok: severities seen %s" % sorted(seen))


main()
