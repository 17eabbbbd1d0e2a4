"""The figures of a scored run: top-1 rule and knob, top-3, by stratum; the confusion table;
healthy cases warned; false criticals."""
import collections

import answers
import kinds as K


def advice(findings, n):
    """The findings of the first n distinct pieces of advice (rule and knob), in rank order."""
    keys, out = [], []
    for f in findings:
        k = (f["rule"], f.get("knob") or "")
        if k not in keys:
            if len(keys) == n:
                break
            keys.append(k)
        out.append(f)
    return out


class Result:
    def __init__(self, run):
        self.run = run
        c = run.case
        self.case = c
        f = run.findings or []
        self.first = f[0] if f else None
        root = c.expect[0] if c.expect else None
        self.top1 = bool(root and self.first and answers.matches(root, self.first))
        self.top1_rule = bool(root and self.first and answers.matches(root, self.first, True))
        self.top3 = bool(root and any(answers.matches(root, x) for x in advice(f, 3)))
        self.both3 = bool(len(c.expect) > 1 and self.top3 and
                          any(answers.matches(c.expect[1], x) for x in advice(f, 3)))
        self.warned = any(x["severity"] in ("warn", "crit") for x in f)
        allowed = set()
        for e in c.expect:
            allowed |= answers.rules_of(e) | set(e["consequences"])
        artefact = {a[0]: a for k in c.faults if k in K.KIND_BY_NAME
                    for a in K.KIND_BY_NAME[k].artefacts}
        crit = [x for x in f if x["severity"] == "crit" and x["rule"] not in allowed]
        self.false_crit = [x for x in crit if x["rule"] not in artefact]
        self.engine_crit = [(x, artefact[x["rule"]]) for x in crit if x["rule"] in artefact]

    @property
    def strata(self):
        c = self.case
        return ["all", c.stratum, "one fault" if len(c.faults) == 1 else "two faults"]


def scored(results):
    return [r for r in results if r.case.faults and not r.case.pending and not r.run.unstaged
            and not r.run.error]


def pct(n, d):
    return "%d/%d (%.0f%%)" % (n, d, 100.0 * n / d) if d else "-"


def strata_table(results):
    rows = collections.OrderedDict((k, []) for k in ("all", "config", "symptom", "one fault",
                                                     "two faults"))
    for r in scored(results):
        for s in r.strata:
            rows[s].append(r)
    lines = ["| stratum | cases | top-1 rule + knob | top-1 rule | top-3 |",
             "|---|---|---|---|---|"]
    for name, rs in rows.items():
        n = len(rs)
        lines.append("| %s | %d | %s | %s | %s |" % (
            name, n, pct(sum(r.top1 for r in rs), n), pct(sum(r.top1_rule for r in rs), n),
            pct(sum(r.top3 for r in rs), n)))
    two = [r for r in scored(results) if len(r.case.faults) > 1]
    if two:
        lines.append("")
        lines.append("Two faults, root and latent both among the first three: %s"
                     % pct(sum(r.both3 for r in two), len(two)))
    return "\n".join(lines)


def confusion(results):
    """Expected rule (the root's first accepted rule) -> the first finding's rule, by kind."""
    table = collections.OrderedDict()
    for r in scored(results):
        kind = r.case.faults[0]
        exp = r.case.expect[0]["accept"][0]["rules"][0] if r.case.expect[0]["accept"] else "?"
        got = r.first["rule"] if r.first else "(nothing)"
        table.setdefault((kind, exp), collections.Counter())[got] += 1
    lines = ["| root kind | expected rule | first rule (cases) |", "|---|---|---|"]
    for (kind, exp), got in table.items():
        lines.append("| %s | %s | %s |" % (kind, exp, ", ".join(
            "%s%s %d" % ("**" if g == exp else "", g + ("**" if g == exp else ""), n)
            for g, n in got.most_common())))
    return "\n".join(lines)


def healthy(results):
    hs = [r for r in results if r.case.healthy and not r.run.error]
    warned = [r for r in hs if r.warned]
    return hs, warned


def false_criticals(results):
    return [(r, f) for r in results
            if not r.case.pending and not r.run.error and not r.run.unstaged
            for f in (r.false_crit if r.case.faults else
                      [x for x in (r.run.findings or []) if x["severity"] == "crit"])]


def engine_criticals(results):
    return [(r, f, a) for r in results if r.case.faults and not r.case.pending
            and not r.run.error and not r.run.unstaged for f, a in r.engine_crit]


def headline(results):
    s = scored(results)
    hs, warned = healthy(results)
    return {
        "cases": len(s), "top1": sum(r.top1 for r in s), "top3": sum(r.top3 for r in s),
        "healthy": len(hs), "healthy_warned": len(warned),
        "false_crit": len(false_criticals(results)),
        "false_crit_cases": len({r.case.id for r, _ in false_criticals(results)}),
    }
