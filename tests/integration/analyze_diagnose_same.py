#!/usr/bin/python3
"""dcbkit analyze and dcbkit diagnose --pcap judge a capture alike.

analyze reads a capture through the capture source into a ring and runs the rule catalog over it,
as diagnose --pcap does; with the same options the two must find the same set of (rule, device,
ifname, prio, qp, severity). Checked on every capture of ../shared/captures (skipped, saying so,
when ../shared is absent), on every analyze fixture with the arguments of its expected file, and
on variants that show each option they share changes both alike:

  pfc-storm.pcap      at 100G, one 250.3 ms storm on prio 3 (pause-storm); at the default 400G
                      its 65535-quanta XOFFs run out between refreshes: no storm. --storm-ms 300:
                      no storm. --lossless 3: PFC on the lossy prio 1 (pfc-on-lossy-priority);
                      without it nothing is known lossless and prio 1 is not judged.
  roce-gap-retx.pcap  --max-qps 1: three of its four QPs are not tracked (capture-qp-table-full),
                      and the per-QP findings of the untracked ones go.

A set that is the same but empty would prove nothing: the fixtures must give findings, some per
QP (a qp >= 0 that analyze's flows list names), and each variant must differ from its base as
said."""
import concurrent.futures
import glob
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from store_helpers import DCBKIT, ROOT, fail, skip  # noqa: E402

FIX = os.path.join(ROOT, "fixtures", "captures", "analyze")
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "captures")
TIMEOUT = 60


def run_json(argv):
    r = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT)
    try:
        return r.returncode, json.loads(r.stdout)
    except ValueError:
        fail("%s: exit %d, no JSON: %s" % (" ".join(argv[1:]), r.returncode, r.stderr.strip()))


def places(doc):
    return {(f["rule"], f["device"], f["ifname"], f["prio"], f["qp"], f["severity"])
            for f in doc["findings"]}


def judge(case):
    """Both commands on one capture with one set of options: (case, analyze doc, diagnose doc)."""
    path, args = case
    rc_a, analyzed = run_json([DCBKIT, "analyze", path] + list(args) + ["-T", "json"])
    rc_d, diagnosed = run_json([DCBKIT, "diagnose", "--pcap", path] + list(args) + ["-T", "json"])
    if rc_a != 0 or rc_d not in (0, 1, 2):
        fail("%s %s: analyze exit %d, diagnose exit %d" % (os.path.basename(path),
                                                          " ".join(args), rc_a, rc_d))
    return case, analyzed, diagnosed


def fixture_cases():
    cases = []
    for spec in sorted(glob.glob(os.path.join(FIX, "*.expected.json"))):
        with open(spec) as f:
            d = json.load(f)
        cases.append((os.path.join(FIX, d["capture"]), tuple(d["args"])))
    if len(cases) < 10:
        fail("only %d analyze fixtures in %s" % (len(cases), FIX))
    return cases


STORM = os.path.join(FIX, "pfc-storm.pcap")
GAPS = os.path.join(FIX, "roce-gap-retx.pcap")
VARIANTS = [
    (STORM, ("--link-speed", "100G")),
    (STORM, ()),
    (STORM, ("--link-speed", "100G", "--storm-ms", "300")),
    (STORM, ("--link-speed", "100G", "--lossless", "3")),
    (GAPS, ("--link-speed", "100G")),
    (GAPS, ("--link-speed", "100G", "--max-qps", "1")),
]


def rules_of(results, path, args):
    return {p[0] for p in places(results[(path, tuple(args))][1])}


def check_variants(results):
    """Each shared option changes what both commands find, the same way."""
    storm = rules_of(results, STORM, ("--link-speed", "100G"))
    checks = [
        ("pfc-storm at 100G: a storm", "pause-storm" in storm),
        ("pfc-storm at 400G: no storm", "pause-storm" not in rules_of(results, STORM, ())),
        ("pfc-storm --storm-ms 300: no storm", "pause-storm" not in
         rules_of(results, STORM, ("--link-speed", "100G", "--storm-ms", "300"))),
        ("pfc-storm without --lossless: prio 1 not judged", "pfc-on-lossy-priority" not in storm),
        ("pfc-storm --lossless 3: prio 1 is lossy", ("pfc-on-lossy-priority", 1) in {
            (p[0], p[3]) for p in places(results[(STORM, ("--link-speed", "100G", "--lossless",
                                                          "3"))][1])}),
        ("roce-gap-retx: no table overflow", "capture-qp-table-full" not in
         rules_of(results, GAPS, ("--link-speed", "100G"))),
        ("roce-gap-retx --max-qps 1: the table overflows", "capture-qp-table-full" in
         rules_of(results, GAPS, ("--link-speed", "100G", "--max-qps", "1"))),
    ]
    # the variant as one run of its own (the pool ran it too): the same findings
    _, direct = run_json([DCBKIT, "diagnose", "--pcap", GAPS, "--link-speed", "100G", "--max-qps",
                          "1", "-T", "json"])
    checks.append(("diagnose --max-qps 1 run alone: the same findings", places(direct) ==
                   places(results[(GAPS, ("--link-speed", "100G", "--max-qps", "1"))][2])))
    full = places(results[(GAPS, ("--link-speed", "100G"))][1])
    capped = places(results[(GAPS, ("--link-speed", "100G", "--max-qps", "1"))][1])
    checks.append(("roce-gap-retx --max-qps 1: fewer per-QP findings",
                   len([p for p in capped if p[4] >= 0]) < len([p for p in full if p[4] >= 0])))
    for what, ok in checks:
        if not ok:
            fail(what)
        print("ok   %s" % what)


def check_qp_named(results):
    """Per-QP findings name a QP the flows list of analyze has."""
    named = 0
    for (path, args), analyzed, _ in results.values():
        qps = {f["qp"] for f in analyzed["flows"]["list"] if f["qp"] is not None}
        for f in analyzed["findings"]:
            if f["qp"] < 0:
                continue
            if f["qp"] not in qps or f["flow"] is None:
                fail("%s: %s names qp %d, which no flow has" % (os.path.basename(path), f["rule"],
                                                               f["qp"]))
            named += 1
    if not named:
        fail("no finding per QP on any capture")
    print("ok   %d findings per QP, each naming a flow of analyze's list" % named)


def main():
    if not os.access(DCBKIT, os.X_OK):
        fail("no dcbkit binary at %s (build first, or set DCBKIT)" % DCBKIT)
    shared = sorted(glob.glob(os.path.join(SHARED, "*.pcap")) +
                    glob.glob(os.path.join(SHARED, "*.pcapng")))
    cases = [(p, ()) for p in shared] + fixture_cases()
    cases += [c for c in VARIANTS if c not in cases]
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        results = {case: (case, a, d) for case, a, d in pool.map(judge, cases)}
    differ, found = [], 0
    for (path, args), analyzed, diagnosed in results.values():
        a, d = places(analyzed), places(diagnosed)
        found += len(a)
        if a != d:
            differ.append("%s %s: only analyze %s; only diagnose %s" % (
                os.path.basename(path), " ".join(args), sorted(a - d), sorted(d - a)))
        else:
            print("ok   %-36s %-34s %d findings alike" % (os.path.basename(path), " ".join(args),
                                                         len(a)))
    if differ:
        fail("analyze and diagnose --pcap disagree:\n  " + "\n  ".join(differ))
    if not found:
        fail("no capture gave any finding: the comparison proves nothing")
    check_qp_named(results)
    check_variants(results)
    if not shared:
        skip("analyze and diagnose agree on the %d fixture runs; ../shared/captures is absent, "
             "so the shared captures were not compared" % len(cases))
    print("analyze and diagnose --pcap agree on %d runs (%d shared captures)" %
          (len(cases), len(shared)))


if __name__ == "__main__":
    main()
