#!/usr/bin/python3
"""Score `dcbkit diagnose --store` on the diagnosis benchmark.

    tests/diagnosis/score.py [--seeds tuning|held-out|N,N...] [--subset check] [--verify] [--jobs J]
                             [--only TEXT] [--json FILE] [--keep DIR] [--check README.md] [-v]

Replays every case of each seed (default: the tuning seeds 1, 2, 3; `held-out` for the seeds
drawn after the catalog work, seeds.py) into a fresh store,
diagnoses it, and prints the figures: top-1 rule and knob and top-3 by stratum, the confusion
table, healthy cases warned, false criticals, the unstaged and pending cases; with --verify,
whether each change `diagnose --verify` rates "helps" still helps on another seed, workload and
duration, and whether the expected rule stops firing.
--check FILE compares the figures with the floor recorded in FILE (the README's "make check
floor") and exits 1 when accuracy is below it or healthy warnings or false criticals are above.
DCBKIT names the binary (default build/cc/bin/dcbkit).
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import generate       # noqa: E402
import metrics        # noqa: E402
import run_cases      # noqa: E402
import seeds as seed_sets  # noqa: E402
import verify_check   # noqa: E402

FLOOR = re.compile(r"make check floor[^:]*: top-1 (\d+)/(\d+), top-3 (\d+)/(\d+), "
                   r"healthy warned (\d+)/(\d+), false criticals (\d+)")


def subset(cases):
    """The `make check` subset: the first setting of every kind and pair, every third healthy
    case, nothing pending."""
    out = []
    for c in cases:
        if c.pending:
            continue
        if c.healthy:
            if int(c.id.rsplit("-", 1)[1]) % 3 == 1:
                out.append(c)
        elif c.id.endswith("-1"):
            out.append(c)
    return out


def finding_text(f):
    if not f:
        return "(nothing)"
    knob = " -> %s=%s" % (f["knob"], f["proposed"]) if f.get("knob") else ""
    where = f.get("device") or ""
    if f.get("ifname"):
        where += ":" + f["ifname"]
    return "%s %s%s @%s" % (f["severity"], f["rule"], knob, where)


def case_lines(results):
    lines = ["| case | setting | first finding | top-1 | top-3 |", "|---|---|---|---|---|"]
    for r in results:
        c = r.case
        if r.run.error:
            status = ("error: " + r.run.error, "", "")
        elif c.healthy:
            status = (finding_text(r.first), "warned" if r.warned else "quiet", "")
        else:
            status = (finding_text(r.first), "yes" if r.top1 else "no", "yes" if r.top3 else "no")
        lines.append("| %s | %s | %s | %s | %s |" % ((c.id, c.setting.label()) + status))
    return "\n".join(lines)


def report(results, pend, verified, seeds, elapsed):
    out = []
    h = metrics.headline(results)
    out.append("# Diagnosis benchmark, seed%s %s (%d cases scored, %.0f s)\n" % (
        "s" if len(seeds) > 1 else "", ", ".join(map(str, seeds)), h["cases"], elapsed))
    out.append("Top-1 rule + knob %s, top-3 %s; healthy warned %d/%d; false criticals %d "
               "(in %d cases)\n" % (metrics.pct(h["top1"], h["cases"]),
                                    metrics.pct(h["top3"], h["cases"]), h["healthy_warned"],
                                    h["healthy"], h["false_crit"], h["false_crit_cases"]))
    out.append("## By stratum\n")
    out.append(metrics.strata_table(results) + "\n")
    out.append("## Confusion (expected rule -> first rule)\n")
    out.append(metrics.confusion(results) + "\n")
    hs, warned = metrics.healthy(results)
    out.append("## Healthy cases warned (%d/%d)\n" % (len(warned), len(hs)))
    for r in warned:
        out.append("- %s (%s): %s" % (r.case.id, r.case.setting.label(), finding_text(r.first)))
    out.append("\n## False criticals (a critical finding of a rule the answer neither expects nor "
               "lists as a consequence; any critical on a healthy case)\n")
    grouped = {}
    for r, f in metrics.false_criticals(results):
        grouped.setdefault((r.case.id, f["rule"]), []).append(f)
    for (cid, rule), fs in grouped.items():
        out.append("- %s: %s x%d, e.g. %s" % (cid, rule, len(fs), finding_text(fs[0])))
    engine = {}
    for r, f, a in metrics.engine_criticals(results):
        engine.setdefault((r.case.id, f["rule"], a[1], a[2]), []).append(f)
    if engine:
        out.append("\nCriticals the replay engine causes, not counted above:\n")
        for (cid, rule, issue, why), fs in engine.items():
            out.append("- %s: %s x%d (#%d: %s)" % (cid, rule, len(fs), issue, why))
    unstaged = [r for r in results if r.run.unstaged and not r.case.pending]
    errors = [r for r in results if r.run.error]
    out.append("\n## Unstaged (the replay did not show the fault; not scored): %d\n"
               % len(unstaged))
    for r in unstaged:
        out.append("- %s (%s): %s" % (r.case.id, r.case.setting.label(), "; ".join(r.run.unstaged)))
    if errors:
        out.append("\n## Errors: %d\n" % len(errors))
        for r in errors:
            out.append("- %s: %s" % (r.case.id, r.run.error))
    out.append("\n## Pending (never counted)\n")
    out.append("| case | issue | why | first finding (if replayed) | would be top-1 |")
    out.append("|---|---|---|---|---|")
    for c, r in pend:
        got = finding_text(r.first) if r else "not run: the engine cannot express it"
        out.append("| %s | #%d | %s | %s | %s |" % (c.id, c.pending["issue"], c.pending["why"], got,
                                                   ("yes" if r.top1 else "no") if r else "-"))
    if verified is not None:
        out.append("\n## --verify: changes rated \"helps\"\n")
        out.append(verify_table(verified))
    out.append("\n## Cases\n")
    out.append(case_lines(results))
    return "\n".join(out)


def verify_table(verified):
    rows = [(cid, v) for cid, vs in verified.items() for v in vs]
    n = len(rows)
    holds = sum(1 for _, v in rows if v["holds"])
    judged = sum(1 for _, v in rows if v["holds"] is not None)
    stops = sum(1 for _, v in rows if v["stops"])
    lines = ["%d changes rated \"helps\" in %d cases; still helps on another seed, workload and "
             "duration: %s (%d not judged there); the expected rule stops firing: %s\n" % (
                 n, len(verified), metrics.pct(holds, judged), n - judged, metrics.pct(stops, n)),
             "| case | rule | change | variant | still helps | expected rule stops |",
             "|---|---|---|---|---|---|"]
    for cid, v in rows:
        lines.append("| %s | %s | `%s` | %s | %s | %s |" % (
            cid, v["rule"], v["change"], v["variant"],
            {True: "yes", False: "no", None: "not judged"}[v["holds"]],
            "yes" if v["stops"] else "no (%s)" % ", ".join(v["still"] or []) if v["stops"] is
            not None else "replay failed"))
    return "\n".join(lines)


def run_verify(results, workdir, jobs):
    todo = [r for r in metrics.scored(results)]
    out = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futs = {pool.submit(verify_check.check, r.run, r.case.seed, workdir,
                            os.path.join(workdir, "cache", r.case.id)): r for r in todo}
        for fut in concurrent.futures.as_completed(futs):
            r = futs[fut]
            try:
                found = fut.result()
            except RuntimeError as e:
                r.run.error = str(e)
                continue
            if found:
                out[r.case.id] = found
    return {cid: out[cid] for cid in sorted(out)}


def check_floor(h, path):
    with open(path) as f:
        m = FLOOR.search(f.read())
    if not m:
        print("score: no \"make check floor\" line in %s" % path, file=sys.stderr)
        return 1
    t1, n1, t3, n3, hw, hn, fc = map(int, m.groups())
    bad = []
    if n1 != h["cases"] or hn != h["healthy"]:
        bad.append("the subset has %d cases and %d healthy, the floor was recorded on %d and %d"
                   % (h["cases"], h["healthy"], n1, hn))
    if h["top1"] < t1:
        bad.append("top-1 %d below the floor %d" % (h["top1"], t1))
    if h["top3"] < t3:
        bad.append("top-3 %d below the floor %d" % (h["top3"], t3))
    if h["healthy_warned"] > hw:
        bad.append("%d healthy cases warned, the floor allows %d" % (h["healthy_warned"], hw))
    if h["false_crit_cases"] > fc:
        bad.append("%d cases with false criticals, the floor allows %d"
                   % (h["false_crit_cases"], fc))
    for b in bad:
        print("score: " + b, file=sys.stderr)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="tuning", help="'tuning' (1,2,3: the default), "
                    "'held-out' (seeds.py: report them, never tune on them) or seeds, "
                    "comma-separated")
    ap.add_argument("--subset", choices=("check",))
    ap.add_argument("--only", help="run the cases whose id contains this")
    ap.add_argument("--verify", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json")
    ap.add_argument("--keep", help="keep the scenarios and stores in this folder")
    ap.add_argument("--check")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    t0 = time.time()
    seeds = seed_sets.parse(a.seeds)
    cases = []
    for seed in seeds:
        these = generate.build(seed)
        if a.subset:
            these = subset(these)
        if len(seeds) > 1:
            for c in these:
                c.id = "s%d-%s" % (seed, c.base_id)
        cases += these
    if a.only:
        cases = [c for c in cases if a.only in c.id]
    workdir = a.keep or tempfile.mkdtemp(prefix="dcbkit-diagnosis-")
    os.makedirs(workdir, exist_ok=True)
    try:
        def progress(r):
            if a.verbose:
                print("%-30s %s" % (r.case.id, r.error or finding_text(
                    (r.findings or [None])[0])), file=sys.stderr)
        runs = run_cases.run_all(cases, workdir, a.jobs, progress=progress)
        by_id = {r.case.id: metrics.Result(r) for r in runs}
        results = [by_id[c.id] for c in cases if c.id in by_id and not c.pending]
        pend = [(c, by_id.get(c.id)) for c in cases if c.pending]
        verified = run_verify(results, workdir, a.jobs) if a.verify else None
        elapsed = time.time() - t0
        print(report(results, pend, verified, seeds, elapsed))
        h = metrics.headline(results)
        if a.json:
            with open(a.json, "w") as f:
                json.dump({"seeds": seeds, "headline": h, "elapsed_s": elapsed,
                           "verified": verified,
                           "cases": [{"id": r.case.id, "stratum": r.case.stratum,
                                      "faults": r.case.faults, "top1": r.top1, "top3": r.top3,
                                      "warned": r.warned, "unstaged": r.run.unstaged,
                                      "error": r.run.error,
                                      "first": r.first} for r in results]}, f, indent=1)
        errors = [r for r in results if r.run.error]
        if errors:
            return 2
        return check_floor(h, a.check) if a.check else 0
    finally:
        if not a.keep:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
