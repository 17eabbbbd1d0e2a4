#!/usr/bin/python3
"""The diagnosis benchmark's cases: healthy fabrics and fabrics with one or two faults, each a
replay scenario (docs/scenario.md) with the answer it must get (answers/KIND.toml).

    tests/diagnosis/generate.py [--seed N] [--out DIR] [--table]

--out writes DIR/NAME.json for every runnable case and DIR/index.json (every case, with its
setting, what was staged and the resolved answer); --table prints the cases as a Markdown table.
The seed draws the details inside each setting (receivers, faulty devices, magnitudes within a
severity, the replay seed) and rotates which settings each kind gets; the same seed gives the
same cases.
"""
import argparse
import itertools
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import answers            # noqa: E402
import kinds as K         # noqa: E402
from setting import SEVERITIES, Setting   # noqa: E402

PRIO_PAIRS = [(3, 6), (4, 7), (5, 6), (3, 7), (4, 6), (5, 7)]


class Case:
    def __init__(self, cid, kind, faults, setting, stratum, stages, pending, scenario, expect):
        self.id, self.kind, self.faults, self.setting = cid, kind, faults, setting
        self.stratum, self.stages, self.pending = stratum, stages, pending
        self.scenario, self.expect = scenario, expect

    @property
    def healthy(self):
        return not self.faults

    @property
    def runnable(self):
        return self.scenario is not None

    def record(self):
        return {"id": self.id, "kind": self.kind, "faults": self.faults,
                "stratum": self.stratum, "setting": self.setting.label(),
                "pending": self.pending, "runnable": self.runnable,
                "staged": [{"fault": f, "note": st.note, "at": st.at}
                           for f, st in zip(self.faults, self.stages)],
                "expect": self.expect}


def differs(a, b, dims=3):
    """How many of topology, speed and workload differ (and with dims=4, the priorities)."""
    pick = [lambda x: x.topology, lambda x: x.gbps, lambda x: x.workload,
            lambda x: (x.p, x.c)][:dims]
    return sum(f(a) != f(b) for f in pick)


def choose_settings(kind_index, seed, topologies, speeds, workloads, count, congested=False):
    """count settings, each pair differing in at least two of topology, speed and workload (or,
    for a kind that allows fewer, two of those and the priorities), rotated by the kind and the
    seed; priorities and severity rotate too."""
    combos = [(t, v, w) for t, v, w in itertools.product(topologies, speeds, workloads)
              if not congested or (w != "ring" and (t, w) != ("star", "all-to-all"))]
    start = (kind_index * 5 + seed * 7) % len(combos)
    combos = combos[start:] + combos[:start]
    for dims in (3, 4):
        picked = []
        for topo, gbps, load in combos:
            j = len(picked)
            p, c = PRIO_PAIRS[(kind_index + j + seed) % len(PRIO_PAIRS)]
            sev = SEVERITIES[(kind_index + j + seed) % 2]
            s = Setting(topo, gbps, p, c, load, sev)
            if all(differs(s, o, dims) >= 2 for o in picked):
                picked.append(s)
            if len(picked) == count:
                return picked
    raise SystemExit("no %d distinct settings for kind %d" % (count, kind_index))


def scenario(cid, s, rng, stages, kinds, note):
    duration = s.duration_ms()
    bytes_per_flow = 0
    for k in kinds:
        if k.duration_ms:
            duration = max(duration, k.duration_ms(s))
        bytes_per_flow = bytes_per_flow or k.bytes_per_flow
    return {
        "name": cid,
        "description": note,
        "fabric": s.fabric(),
        "workload": None,                 # filled by build_case
        "faults": [f for st in stages for f in st.faults],
        "duration_ms": duration,
        "seed": rng.randrange(1, 1 << 31),
        "sample_interval_us": round(duration * 1000 / 50, 3),
    }, bytes_per_flow


def build_case(cid, kind_names, s, seed):
    rng = random.Random("%d:%s" % (seed, cid))
    kinds = [K.KIND_BY_NAME[n] for n in kind_names]
    sc, bytes_per_flow = scenario(cid, s, rng, [], kinds, "")
    workload = s.workload_spec(rng, bytes_per_flow)
    ctx = {"receiver": workload.get("receiver")}
    stages = [k.stage(s, rng, ctx) for k in kinds]
    for st in stages:
        if st.workload:
            workload = st.workload(workload, s, rng)
        if st.edit:
            st.edit(sc["fabric"])
    sc["workload"] = workload
    sc["faults"] = [f for st in stages for f in st.faults]
    sc["description"] = "; ".join(st.note for st in stages) or "healthy"
    pending = next(({"issue": k.pending[0], "why": k.pending[1]} for k in kinds if k.pending),
                   None)
    vars_ = s.reference()
    for st in stages:
        vars_.update(st.vars)
    expect = [answers.resolve(n, s, vars_, st.at) for n, st in zip(kind_names, stages)]
    return Case(cid, "+".join(kind_names), kind_names, s, kinds[0].stratum, stages, pending, sc,
                expect)


HEALTHY = [  # (topology, Gb/s, workload): every value of every dimension, each run healthy
    ("star", 25, "incast"), ("star", 100, "incast"), ("star", 400, "incast"),
    ("star", 100, "all-to-all"), ("star", 400, "ring"), ("star", 25, "ring"),
    ("leaf-spine", 25, "all-to-all"), ("leaf-spine", 100, "all-to-all"),
    ("leaf-spine", 400, "all-to-all"), ("leaf-spine", 25, "ring"), ("leaf-spine", 100, "ring"),
    ("leaf-spine", 400, "ring"), ("leaf-spine", 25, "incast"),
    ("fat-tree", 25, "all-to-all"), ("fat-tree", 100, "all-to-all"),
    ("fat-tree", 400, "all-to-all"), ("fat-tree", 100, "ring"), ("fat-tree", 400, "ring"),
]


def healthy_cases(seed):
    out = []
    for i, (topo, gbps, load) in enumerate(HEALTHY):
        p, c = PRIO_PAIRS[(i + seed) % len(PRIO_PAIRS)]
        s = Setting(topo, gbps, p, c, load, "mild")
        cid = "healthy-%d" % (i + 1)
        rng = random.Random("%d:%s" % (seed, cid))
        sc, _ = scenario(cid, s, rng, [], [], "healthy")
        sc["workload"] = s.workload_spec(rng)
        sc["description"] = "healthy: every knob at its reference (tests/diagnosis/README.md)"
        out.append(Case(cid, "healthy", [], s, "healthy", [], None, sc, []))
    return out


def fault_cases(seed):
    out = []
    for i, k in enumerate(K.KINDS):
        for j, s in enumerate(choose_settings(i, seed, k.topologies, k.speeds, k.workloads,
                                              k.settings, k.congested)):
            out.append(build_case("%s-%d" % (k.name, j + 1), [k.name], s, seed))
    for i, (name, root, latent) in enumerate(K.PAIRS):
        a, b = K.KIND_BY_NAME[root], K.KIND_BY_NAME[latent]
        topos = [t for t in a.topologies if t in b.topologies]
        speeds = [v for v in a.speeds if v in b.speeds]
        loads = [w for w in a.workloads if w in b.workloads]
        for j, s in enumerate(choose_settings(len(K.KINDS) + i, seed, topos, speeds, loads, 3,
                                              a.congested or b.congested)):
            out.append(build_case("%s-%d" % (name, j + 1), [root, latent], s, seed))
    for i, (name, issue, why) in enumerate(K.UNSTAGEABLE):
        for j, s in enumerate(choose_settings(100 + i, seed, K.ANY_TOPO, K.ANY_SPEED,
                                              K.ANY_LOAD, 3)):
            vars_ = s.reference()
            expect = [answers.resolve(name, s, vars_, None)]
            out.append(Case("%s-%d" % (name, j + 1), name, [name], s,
                            answers.stratum(name), [], {"issue": issue, "why": why}, None,
                            expect))
    return out


def build(seed):
    cases = healthy_cases(seed) + fault_cases(seed)
    for c in cases:
        c.seed, c.base_id = seed, c.id      # a scorer may prefix id; base_id keeps the draws
    return cases


def table(cases):
    lines = ["| case | setting | staged | expected first (rule -> knob in range) | status |",
             "|---|---|---|---|---|"]
    for c in cases:
        staged = c.scenario["description"] if c.scenario else c.pending["why"]
        exp = answers.describe(c.expect) if c.expect else "no warning, no critical"
        status = "pending #%d" % c.pending["issue"] if c.pending else "scored"
        lines.append("| %s | %s | %s | %s | %s |" % (c.id, c.setting.label(),
                                                       staged.replace("|", "/"), exp, status))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out")
    ap.add_argument("--table", action="store_true")
    a = ap.parse_args()
    cases = build(a.seed)
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        for c in cases:
            if c.runnable:
                with open(os.path.join(a.out, c.id + ".json"), "w") as f:
                    json.dump(c.scenario, f, indent=1)
        with open(os.path.join(a.out, "index.json"), "w") as f:
            json.dump({"seed": a.seed, "cases": [c.record() for c in cases]}, f, indent=1)
    if a.table:
        print(table(cases))
    if not a.out and not a.table:
        n = sum(1 for c in cases if c.faults)
        print("%d cases: %d healthy, %d with faults (%d pending)" % (
            len(cases), len(cases) - n, n, sum(1 for c in cases if c.pending)))


if __name__ == "__main__":
    main()
