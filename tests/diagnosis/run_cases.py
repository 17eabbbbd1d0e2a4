"""Running the cases: each replayed into a fresh store (`dcbkit replay CASE --store DB`), its
staging checked against the kind's signature, then diagnosed (`dcbkit diagnose --store DB -T
json`). Independent cases run on a thread pool."""
import concurrent.futures
import json
import os
import subprocess

import kinds as K


class Run:
    def __init__(self, case):
        self.case = case
        self.replay = None       # dcbkit replay -T json
        self.findings = None     # dcbkit diagnose -T json: findings
        self.error = None
        self.unstaged = []       # signatures the replay did not show
        self.store = None
        self.path = None


def dcbkit():
    return os.environ.get("DCBKIT") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "cc", "bin", "dcbkit")


def command(args, timeout=300):
    p = subprocess.run([dcbkit()] + args, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def signatures(run):
    """The root fault's signature (a latent one need not show), or for a healthy case: no drop
    and no watchdog storm."""
    fig = run.replay
    if run.case.healthy:
        drops = sum(fig["pg_drops"]) + sum(fig["queue_drops"])
        storms = fig["figures"]["watchdog_storms"] or 0
        if drops or storms:
            return ["healthy: %d drops, %d watchdog storms" % (drops, storms)]
        return []
    name, stage = run.case.faults[0], run.case.stages[0]
    sig = K.KIND_BY_NAME[name].signature
    if sig and not sig[1](fig, run.case.setting, stage):
        return ["%s: %s" % (name, sig[0])]
    return []


def run_one(case, workdir, diagnose=True):
    r = Run(case)
    r.path = os.path.join(workdir, case.id + ".json")
    r.store = os.path.join(workdir, case.id + ".db")
    with open(r.path, "w") as f:
        json.dump(case.scenario, f)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(r.store + suffix):
            os.unlink(r.store + suffix)
    rc, out, err = command(["replay", r.path, "--store", r.store, "-T", "json", "-q"])
    if rc != 0:
        r.error = "replay: exit %d: %s" % (rc, err.strip()[:300])
        return r
    r.replay = json.loads(out)
    r.unstaged = signatures(r)
    if diagnose:
        rc, out, err = command(["diagnose", "--store", r.store, "-T", "json"])
        if rc not in (0, 1, 2):
            r.error = "diagnose: exit %d: %s" % (rc, err.strip()[:300])
            return r
        r.findings = json.loads(out)["findings"]
    return r


def run_all(cases, workdir, jobs, diagnose=True, progress=None):
    runs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futs = {pool.submit(run_one, c, workdir, diagnose): c for c in cases if c.runnable}
        for fut in concurrent.futures.as_completed(futs):
            r = fut.result()
            runs[r.case.id] = r
            if progress:
                progress(r)
    return [runs[c.id] for c in cases if c.id in runs]
