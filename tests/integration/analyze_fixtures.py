#!/usr/bin/python3
"""dcbkit analyze on the synthetic captures of fixtures/captures/analyze/.

1. make_analyze_captures.py writes exactly the committed files (the same set, byte for byte).
2. For each NAME.expected.json, `dcbkit analyze NAME.pcap ARGS... -T json` must contain the
   "expect" object as a subset:
   * a dict matches when every expected key is present and its value matches;
   * a list matches when each expected item matches some item of the actual list (in any
     order, so a list of findings or classes may hold more than is asserted) -- except that an
     expected empty list means the actual list is empty too;
   * null matches only null, a bool only the same bool, an int only the same int (0 != false);
     when either side is a float, numbers match within 1e-6 relative.
Every mismatch of every fixture is printed (fixture, JSON path, expected, actual) before the
test fails."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from store_helpers import DCBKIT, ROOT, fail, skip  # noqa: E402

FIX = os.path.join(ROOT, "fixtures", "captures", "analyze")
GENERATOR = os.path.join(FIX, "make_analyze_captures.py")
REL_TOL = 1e-6
# keys that name an item of a list, shown when no actual item matches an expected one
ID_KEYS = ("src", "prio", "kind", "src_ip", "dst_ip", "dqpn", "chassis", "port", "opcode",
           "severity", "protocol", "a", "b")


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def ident(item):
    """The identifying keys of a list item, for messages: 'src_ip=.. dst_ip=.. dqpn=17'."""
    if not isinstance(item, dict):
        return json.dumps(item)
    parts = ["%s=%s" % (k, json.dumps(item[k])) for k in ID_KEYS if k in item]
    return " ".join(parts) if parts else json.dumps(item, sort_keys=True)[:80]


def short(v):
    text = json.dumps(v, sort_keys=True)
    return text if len(text) <= 200 else text[:200] + "..."


def compare(exp, act, path, out):
    """Appends (path, message) for every way act fails to contain exp; returns True if none."""
    before = len(out)
    if exp is None or isinstance(exp, bool) or isinstance(act, bool):
        if not (type(exp) is type(act) and exp == act):
            out.append((path, "expected %s, actual %s" % (short(exp), short(act))))
    elif is_num(exp):
        if not is_num(act):
            out.append((path, "expected %s, actual %s" % (short(exp), short(act))))
        elif isinstance(exp, int) and isinstance(act, int):
            if exp != act:
                out.append((path, "expected %d, actual %d (off by %+d)" % (exp, act, act - exp)))
        elif abs(act - exp) > REL_TOL * max(abs(exp), abs(act)):
            out.append((path, "expected %r, actual %r (relative tolerance %g)" %
                        (exp, act, REL_TOL)))
    elif isinstance(exp, str):
        if exp != act:
            out.append((path, "expected %s, actual %s" % (short(exp), short(act))))
    elif isinstance(exp, dict):
        if not isinstance(act, dict):
            out.append((path, "expected an object, actual %s" % short(act)))
        else:
            for key, value in exp.items():
                sub = "%s.%s" % (path, key) if path else key
                if key not in act:
                    out.append((sub, "missing (expected %s)" % short(value)))
                else:
                    compare(value, act[key], sub, out)
    elif isinstance(exp, list):
        if not isinstance(act, list):
            out.append((path, "expected a list, actual %s" % short(act)))
        elif not exp and act:
            out.append((path, "expected an empty list, actual %d item(s): %s" %
                        (len(act), "; ".join(ident(a) for a in act))))
        else:
            for item in exp:
                compare_item(item, act, path, out)
    else:
        raise TypeError("unexpected value in an expected file at %s: %r" % (path, exp))
    return len(out) == before


def compare_item(item, act, path, out):
    """One expected list item against every actual item: fine if one matches whole."""
    for a in act:
        if compare(item, a, path, []):
            return
    where = "%s[%s]" % (path, ident(item))
    if not act:
        out.append((where, "no such item: the actual list is empty"))
        return
    # The actual items with the same identity (all the ID_KEYS the expected item has) are
    # the ones it was meant to match: show how each differs.
    keys = [k for k in ID_KEYS if isinstance(item, dict) and k in item]
    same = [a for a in act if isinstance(a, dict) and keys and all(
        k in a and compare(item[k], a[k], "", []) for k in keys)]
    dicts = [a for a in act if isinstance(a, dict)]
    if not same and not keys and isinstance(item, dict) and len(dicts) == 1:
        same = dicts                  # nothing to identify it by, and only one candidate
    if same:
        for a in same:
            compare(item, a, where, out)
    else:
        out.append((where, "no item matches %s; actual items: %s" %
                    (short(item), "; ".join(ident(a) for a in act))))


def check_generator(tmp):
    gen = os.path.join(tmp, "gen")
    os.makedirs(gen)
    r = subprocess.run([sys.executable, GENERATOR, gen], capture_output=True, text=True)
    if r.returncode != 0:
        fail("make_analyze_captures.py failed (exit %d):\n%s" % (r.returncode, r.stderr))

    def files(d):
        return sorted(os.path.basename(p) for p in glob.glob(os.path.join(d, "*.pcap")) +
                      glob.glob(os.path.join(d, "*.expected.json")))
    committed, generated = files(FIX), files(gen)
    if committed != generated:
        fail("fixtures/captures/analyze and make_analyze_captures.py disagree on the file set: "
             "only committed %s, only generated %s (regenerate: /usr/bin/python3 %s)" %
             (sorted(set(committed) - set(generated)), sorted(set(generated) - set(committed)),
              os.path.relpath(GENERATOR, ROOT)))
    for name in committed:
        with open(os.path.join(FIX, name), "rb") as a, open(os.path.join(gen, name), "rb") as b:
            if a.read() != b.read():
                fail("fixtures/captures/analyze/%s differs from what make_analyze_captures.py "
                     "writes (regenerate and commit both)" % name)
    return [n for n in committed if n.endswith(".expected.json")]


def run_analyze(spec):
    pcap = os.path.join(FIX, spec["capture"])
    cmd = [DCBKIT, "analyze", pcap] + spec["args"] + ["-T", "json"]
    shown = " ".join(["dcbkit", "analyze", os.path.relpath(pcap, ROOT)] + spec["args"] +
                     ["-T", "json"])
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return shown, None, "timed out after 120 s"
    try:
        return shown, json.loads(r.stdout), None
    except ValueError as e:
        return shown, None, "exit %d, stdout is not JSON (%s); stderr: %s; stdout: %s" % (
            r.returncode, e, r.stderr.strip()[:500], r.stdout.strip()[:300])


def main():
    try:
        import scapy  # noqa: F401
    except ImportError:
        skip("python3-scapy not installed (scripts/bootstrap installs it)")
    tmp = tempfile.mkdtemp(prefix="dcbkit-analyze-")
    try:
        expected_files = check_generator(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if not expected_files:
        fail("no *.expected.json in %s" % FIX)
    print("ok   the committed captures are what make_analyze_captures.py writes")

    if not os.access(DCBKIT, os.X_OK):
        fail("no dcbkit binary at %s (build first, or set DCBKIT)" % DCBKIT)

    failed = []
    for name in expected_files:
        fixture = name[:-len(".expected.json")]
        with open(os.path.join(FIX, name)) as f:
            spec = json.load(f)
        shown, actual, err = run_analyze(spec)
        if err:
            failed.append(fixture)
            print("FAIL %s: %s\n  %s" % (fixture, shown, err))
            continue
        problems = []
        compare(spec["expect"], actual, "", problems)
        if problems:
            failed.append(fixture)
            print("FAIL %s: %s (%s)" % (fixture, shown, spec.get("description", "")))
            for path, msg in problems:
                print("  %s: %s" % (path or "(top)", msg))
        else:
            print("ok   %s" % fixture)
    if failed:
        fail("%d of %d fixtures differ from their expected files: %s" %
             (len(failed), len(expected_files), " ".join(failed)))
    print("all %d analyze fixtures match" % len(expected_files))


if __name__ == "__main__":
    main()
