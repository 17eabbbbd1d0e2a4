#!/usr/bin/python3
"""The diagnosis benchmark (tests/diagnosis) in `make check`: its answer matcher on hand-made
findings, then its check subset (the first setting of every fault kind, every third healthy case,
tuning seed 1) replayed, diagnosed and scored against the floor the README records. Fails when
top-1 or top-3 falls below the floor, or healthy warnings or false criticals rise above it."""
import io
import json
import os
import subprocess
import sys
import tempfile
from contextlib import redirect_stderr

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "diagnosis"))

import answers    # noqa: E402
import generate   # noqa: E402
import score      # noqa: E402

DCBKIT = os.environ.get("DCBKIT", os.path.join(ROOT, "build", "cc", "bin", "dcbkit"))


def finding(rule, knob="", proposed=None, device="switch1", ifname="Ethernet0", also=()):
    return {"rule": rule, "knob": knob, "proposed": proposed, "device": device,
            "ifname": ifname, "also": list(also), "severity": "warn"}


def check_matcher():
    cases = {c.id: c for c in generate.build(1)}
    c = next(c for c in cases.values() if c.kind == "ecn-above-xoff")
    e, p = c.expect[0], c.setting.p
    ref = c.setting.reference()
    kmin = "switch.wred.%d.min_bytes" % p
    kmax = "switch.wred.%d.max_bytes" % p
    good = ref["kmin"]
    good_kmax = "%s=%d" % (kmax, ref["kmax"])
    assert answers.matches(e, finding("cfg-threshold-order", kmin, good, also=[good_kmax]))
    assert answers.matches(e, finding("ecn-too-late", kmin, "%dB" % good, also=[good_kmax]))
    assert not answers.matches(e, finding("cfg-threshold-order", kmin, good)), \
        "Kmin alone leaves the staged Kmax above XOFF"
    assert not answers.matches(e, finding("ecn-too-early", kmin, good)), "another rule"
    assert not answers.matches(e, finding("cfg-threshold-order", kmin, ref["xoff"])), \
        "Kmin at XOFF is not below it"
    assert not answers.matches(e, finding("cfg-threshold-order", kmin, None)), "no value"
    assert not answers.matches(e, finding("cfg-threshold-order", "switch.buffer.%d.xoff" % p,
                                          4 * ref["xoff"])), "another knob"
    assert not answers.matches(e, finding("cfg-threshold-order", kmin, good,
                                          also=["%s=%d" % (kmax, 10 * ref["xoff"])])), \
        "a side change out of range"
    assert not answers.matches(e, finding("cfg-threshold-order", kmax, good)), \
        "Kmax alone leaves Kmin above XOFF"
    assert answers.matches(e, finding("cfg-threshold-order", kmax, ref["kmax"],
                                      also=["%s=%d" % (kmin, good)]))
    assert not answers.matches(e, finding("cfg-threshold-order", kmax, ref["kmin"],
                                          also=["%s=%d" % (kmin, good)])), \
        "Kmax below its own band's floor"
    # a fix that needs a second change: the ETS shares move together
    t = next(c for c in cases.values() if c.kind == "ets-share-small")
    bw_p, bw_0 = "ets.bw.%d" % t.setting.p, "ets.bw.0"
    assert not answers.matches(t.expect[0], finding("cfg-ets-share", bw_p, 50)), "sum != 100"
    assert answers.matches(t.expect[0], finding("cfg-ets-share", bw_p, 50, also=[bw_0 + "=50"]))
    assert answers.matches(e, finding("cfg-threshold-order"), rule_only=True)
    # a fault on one host: the rule alone, at that host or the switch port facing it
    s = next(c for c in cases.values() if c.kind == "slow-receiver")
    host = s.stages[0].vars["slow_host"]
    leaf, port = s.setting.leaf_of(host)
    assert answers.matches(s.expect[0], finding("slow-receiver", device=host, ifname="eth0"))
    assert answers.matches(s.expect[0], finding("slow-receiver", device=leaf, ifname=port))
    other = next(h for h in s.setting.hosts() if h != host)
    assert not answers.matches(s.expect[0], finding("slow-receiver", device=other,
                                                    ifname="eth0")), "another host"
    # an entry whose knob is already right is left out (cnp.prio when only the DSCP is wrong)
    for c in cases.values():
        if c.kind == "cnp-on-data-prio":
            knobs = {a["knob"] for a in c.expect[0]["accept"]}
            assert ("cnp.prio" in knobs) == (c.setting.severity == "gross"), c.id
    # masks: np_enabled needs the RoCE bit
    n = next(c for c in cases.values() if c.kind == "np-disabled")
    where = n.expect[0]["at"][0] if n.expect[0]["at"] else "host1"
    bit = 1 << n.setting.p
    assert answers.matches(n.expect[0], finding("cnp-missing", "nic.dcqcn.np_enabled",
                                                "0x%02x" % (bit | 1), device=where))
    assert not answers.matches(n.expect[0], finding("cnp-missing", "nic.dcqcn.np_enabled",
                                                    bit >> 1, device=where))


def check_floor_logic(headline):
    """The floor test fails above today's figures and passes at them."""
    with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False) as f:
        f.write("make check floor (x): top-1 %d/%d, top-3 %d/%d, healthy warned %d/%d, "
                "false criticals %d.\n" % (headline["top1"] + 1, headline["cases"],
                                           headline["top3"], headline["cases"],
                                           headline["healthy_warned"], headline["healthy"],
                                           headline["false_crit_cases"]))
        higher = f.name
    err = io.StringIO()
    with redirect_stderr(err):
        assert score.check_floor(headline, higher) == 1, "a floor above today must fail"
    assert "below the floor" in err.getvalue()
    os.unlink(higher)


def main():
    if not os.access(DCBKIT, os.X_OK):
        print("diagnosis_bench: no dcbkit at %s (build it first)" % DCBKIT)
        return 1
    check_matcher()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "score.json")
        env = dict(os.environ, DCBKIT=DCBKIT)
        p = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "diagnosis", "score.py"),
                            "--seeds", "1", "--subset", "check", "--json", out,
                            "--check", os.path.join(ROOT, "README.md")],
                           capture_output=True, text=True, env=env, timeout=300)
        print(p.stdout.split("\n## Confusion")[0])
        print(p.stderr, file=sys.stderr)
        with open(out) as f:
            headline = json.load(f)["headline"]
    check_floor_logic(headline)
    if p.returncode != 0:
        print("diagnosis_bench: score.py exit %d" % p.returncode)
        return 1
    print("diagnosis_bench: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
