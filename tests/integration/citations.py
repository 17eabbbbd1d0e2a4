"""Citations point to documents that ship.

No shipped file (sources, the rule catalog, the counter maps, docs/, the READMEs) cites the
design notes that stay out of a release: "../shared", "seed 004", "rules.md", "[S10]", or their
table rows ("R10", "C06").
Every `reference =` of the catalog and every counter map names its documents by anchors into
docs/rules-references.md ("docs/rules-references.md#qbb #nvidia-roce"), and every anchor cited
anywhere resolves to an entry there; every entry is cited by something. `diagnose` prints the
reference with the list's path, and its JSON gives a file:// link per anchor to a list that
exists."""
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DCBKIT = os.environ.get("DCBKIT", os.path.join(ROOT, "build", "cc", "bin", "dcbkit"))
DOC = "docs/rules-references.md"
SHIPPED_DIRS = ["lib", "decoders", "collectors", "rules", "report", "cmd", "docs"]
SHIPPED_TOP = ["README.md", "Makefile"]
SUFFIXES = (".c", ".h", ".def", ".rules", ".json", ".md", ".proto", ".py", ".sh")

FORBIDDEN = [
    # the design document and the test data beside the tree in development are not sources
    (re.compile(r"\.\./shared(?!/ARCHITECTURE\.md|/captures|/`)"), "../shared"),
    (re.compile(r"\bseeds?\s+\d{3}\b"), "seed NNN"),
    (re.compile(r"(?<![\w-])rules\.md\b"), "rules.md"),
    (re.compile(r"\[S\d+\]"), "[Sn]"),
    # the rows of the background notes' tables (R01-R34, C01-C18): the catalog names rules by id
    (re.compile(r"\b[RC]\d{2}\b"), "a background rule row"),
]
# an anchor list as lib/cite.c reads it: the list's path with one anchor, then " #id" ...
ANCHORS = re.compile(r"docs/rules-references\.md(#[a-z0-9-]+(?:[ \t\n]+#[a-z0-9-]+)*)")


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def cited_ids(text):
    return [i for m in ANCHORS.finditer(text) for i in re.findall(r"#([a-z0-9-]+)", m.group(1))]


def self_check():
    """The patterns catch what they are for and leave the rest alone."""
    for sample, what in [("see ../shared/background/x.md", "../shared"),
                         ("(seed 004 2.3)", "seed NNN"), ("rules.md R10", "rules.md"),
                         ("[S10][S2]", "[Sn]"), ("Rule C06 checks", "a background rule row"),
                         ("(R05, R33)", "a background rule row")]:
        if not any(p.search(sample) and w == what for p, w in FORBIDDEN):
            fail("the pattern for %s misses %r" % (what, sample))
    for clean in [DOC + "#qbb", "tuning seed 1 / 2", "IEEE 802.3 [docs]", "seeds 1-3",
                  "`../shared/ARCHITECTURE.md`", "cfg-threshold-order", "RC2 C4 R100"]:
        hit = [w for p, w in FORBIDDEN if p.search(clean)]
        if hit:
            fail("%r taken for %s" % (clean, hit))
    got = cited_ids("x [" + DOC + "#qbb #nvidia-roce\n  #pause] and (" + DOC + "#lldp) #not")
    if got != ["qbb", "nvidia-roce", "pause", "lldp"]:
        fail("anchor parsing: %r" % got)


def shipped_files():
    files = [os.path.join(ROOT, f) for f in SHIPPED_TOP]
    for d in SHIPPED_DIRS:
        for dirpath, _, names in os.walk(os.path.join(ROOT, d)):
            files += [os.path.join(dirpath, n) for n in names if n.endswith(SUFFIXES)]
    return sorted(files)


def catalog_references():
    """(file, rule, reference) for every rule of the shipped catalog."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "rules", "catalog", "*.rules"))):
        rule, ref = None, None
        for line in open(path, encoding="utf-8").read().split("\n") + ["[end]"]:
            if ref is not None and line.startswith((" ", "\t")) and line.strip():
                ref += " " + line.strip()
                continue
            if ref is not None:
                out.append((os.path.basename(path), rule, ref))
                ref = None
            m = re.match(r"^\[([^\]]+)\]$", line)
            if m:
                rule = m.group(1)
            m = re.match(r"^reference\s*=\s*(.*)$", line)
            if m:
                ref = m.group(1)
    return out


def main():
    self_check()
    doc = open(os.path.join(ROOT, DOC), encoding="utf-8").read()
    anchors = re.findall(r'<a id="([a-z0-9-]+)"></a>', doc)
    if len(anchors) < 20 or len(set(anchors)) != len(anchors):
        fail("%s: %d anchors, %d distinct" % (DOC, len(anchors), len(set(anchors))))
    known = set(anchors)

    bad, cited = [], {}
    for path in shipped_files():
        rel = os.path.relpath(path, ROOT)
        text = open(path, encoding="utf-8", errors="replace").read()
        for pat, what in FORBIDDEN:
            for m in pat.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                bad.append("%s:%d cites %s: %r" % (rel, line, what, m.group(0)))
        for i in cited_ids(text):
            cited.setdefault(i, rel)
            if i not in known:
                bad.append("%s cites %s#%s, which %s does not have" % (rel, DOC, i, DOC))
    if bad:
        fail("citations that do not ship:\n  " + "\n  ".join(bad))

    refs = catalog_references()
    if len(refs) < 40:
        fail("only %d references read from the catalog" % len(refs))
    for f, rule, ref in refs:
        if not cited_ids(ref):
            fail("%s [%s]: the reference names no document in %s: %r" % (f, rule, DOC, ref))
    for path in sorted(glob.glob(os.path.join(ROOT, "collectors", "maps", "*.json"))):
        m = json.load(open(path))
        if not cited_ids("\n".join(m.get("references", []))):
            fail("%s: its references name no document in %s" % (os.path.basename(path), DOC))
    orphans = sorted(known - set(cited))
    if orphans:
        fail("%s entries nothing cites: %s" % (DOC, ", ".join(orphans)))

    # diagnose shows the citation with the list's path, and links each anchor to it
    fabric = os.path.join(ROOT, "fixtures", "fabrics", "pfc-mismatch.json")
    p = subprocess.run([DCBKIT, "diagnose", "--fabric", fabric, "-T", "json"],
                       capture_output=True, text=True, timeout=120)
    findings = json.loads(p.stdout)["findings"]
    if not findings:
        fail("diagnose of %s found nothing: %s" % (fabric, p.stderr))
    for f in findings:
        ids = cited_ids(f["reference"])
        links = f.get("reference_links")
        want = ["#" + i for i in ids]
        if not links or [lnk[lnk.index("#"):] for lnk in links] != want:
            fail("%s: reference_links %r for anchors %r" % (f["rule"], links, want))
        for lnk in links:
            target = lnk[len("file://"):lnk.index("#")]
            if not lnk.startswith("file:///") or not os.path.isfile(target):
                fail("%s: %s does not point to a file" % (f["rule"], lnk))
            if open(target, encoding="utf-8").read() != doc:
                fail("%s: %s is not %s" % (f["rule"], target, DOC))
    p = subprocess.run([DCBKIT, "diagnose", "--fabric", fabric], capture_output=True, text=True,
                       timeout=120)
    see = [ln for ln in p.stdout.splitlines() if ln.strip().startswith("see: ")]
    path = re.compile(r"(/\S*/rules-references\.md)#[a-z0-9-]+")
    if len(see) != len(findings) or not all(path.search(ln) and os.path.isfile(
            path.search(ln).group(1)) for ln in see):
        fail("diagnose's text does not name the list by a path that exists:\n" + "\n".join(see))
    print("ok: %d anchors in %s, %d catalog references, %d shipped files clean; diagnose links "
          "%d findings" % (len(known), DOC, len(refs), len(shipped_files()), len(findings)))


main()
