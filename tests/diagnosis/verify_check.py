"""`diagnose --verify` checked: each change it rates "helps" (verified.improved) is tried again on
another seed, workload and duration of the same fault, and applied to the case itself to see
whether the expected rule stops firing.

For a case: `diagnose --store DB --verify --scenario CASE` gives the changes that help there;
`diagnose --store DB --verify --scenario VARIANT` judges the same findings' changes on a variant
(the same kind in the same topology and speed, another workload where the kind allows one, another
seed, 1.5x the duration), with the same objective verify uses; and `replay CASE --set CHANGE
--store DB2` then `diagnose --store DB2` says whether the case's expected rules still fire."""
import json
import os
import random

import answers
import generate
import kinds as K
import run_cases
from setting import Setting

VARIANT_SEED = 7919


def variant_case(case, seed):
    s = case.setting
    kinds = [K.KIND_BY_NAME[n] for n in case.faults]
    loads = [w for w in kinds[0].workloads if not kinds[0].congested or
             (w != "ring" and (s.topology, w) != ("star", "all-to-all"))]
    others = [w for w in loads if w != s.workload] or loads
    load = random.Random("%d:%s:variant" % (seed, case.base_id)).choice(others)
    v = Setting(s.topology, s.gbps, s.p, s.c, load, s.severity)
    vc = generate.build_case(case.base_id + "-variant", case.faults, v, seed + VARIANT_SEED)
    vc.id = case.id + "-variant"
    vc.scenario["duration_ms"] = round(vc.scenario["duration_ms"] * 1.5, 3)
    vc.scenario["sample_interval_us"] = round(vc.scenario["duration_ms"] * 1000 / 50, 3)
    return vc


def verify(store, scenario_path, cache):
    rc, out, err = run_cases.command(["diagnose", "--store", store, "--verify", "--scenario",
                                      scenario_path, "--cache-dir", cache, "-T", "json"],
                                     timeout=900)
    if rc not in (0, 1, 2):
        raise RuntimeError("diagnose --verify: exit %d: %s" % (rc, err.strip()[:300]))
    return json.loads(out)["findings"]


def helps(findings):
    out = {}
    for f in findings:
        v = f.get("verified") or {}
        if v.get("done") and v.get("improved") and v.get("change"):
            out.setdefault(v["change"], f)
    return out


def still_fires(run, change, workdir):
    """Apply the change to the case and diagnose again: which expected rules still fire?"""
    store = os.path.join(workdir, run.case.id + ".fixed.db")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(store + suffix):
            os.unlink(store + suffix)
    args = ["replay", run.path, "--store", store, "-T", "json", "-q"]
    for item in change.split():
        args += ["--set", item]
    rc, _, err = run_cases.command(args)
    if rc != 0:
        return None
    rc, out, _ = run_cases.command(["diagnose", "--store", store, "-T", "json"])
    if rc not in (0, 1, 2):
        return None
    expected = answers.rules_of(run.case.expect[0])
    return sorted({f["rule"] for f in json.loads(out)["findings"] if f["rule"] in expected})


def check(run, seed, workdir, cache):
    """[{change, rule, holds (on the variant: True/False/None when verify did not judge it
    there), stops (the expected rules stop firing), still (those that do not)}]"""
    found = helps(verify(run.store, run.path, cache))
    if not found:
        return []
    vc = variant_case(run.case, seed)
    vpath = os.path.join(workdir, vc.id + ".json")
    with open(vpath, "w") as f:
        json.dump(vc.scenario, f)
    on_variant = {}
    for f in verify(run.store, vpath, cache):
        v = f.get("verified") or {}
        if v.get("done") and v.get("change"):
            on_variant.setdefault(v["change"], bool(v.get("improved")))
    out = []
    for change, f in found.items():
        still = still_fires(run, change, workdir)
        out.append({"change": change, "rule": f["rule"], "holds": on_variant.get(change),
                    "stops": still == [] if still is not None else None, "still": still,
                    "variant": vc.setting.label()})
    return out
