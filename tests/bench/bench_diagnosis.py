#!/usr/bin/python3
"""`make bench`'s diagnosis benchmark: every case of the tuning seeds and then of the held-out
seeds (tests/diagnosis/seeds.py) replayed, diagnosed and scored, with each change
`diagnose --verify` rates "helps" tried on another seed, workload and duration. Prints both sets'
figures, which docs/benchmarks.md records side by side; asserts nothing about them (make check's
diagnosis_bench.py holds the floor). Extra arguments go to both score.py runs; `--json F` writes
F for the tuning seeds and F with `.held-out` before its extension for the others."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCORE = os.path.join(HERE, "..", "diagnosis", "score.py")



def args_for(name, args):
    out = list(args)
    if name != "tuning" and "--json" in out[:-1]:
        i = out.index("--json") + 1
        stem, ext = os.path.splitext(out[i])
        out[i] = "%s.%s%s" % (stem, name, ext)
    return out


status = 0
for name in ("tuning", "held-out"):
    print("# %s seeds\n" % name, flush=True)
    rc = subprocess.call([sys.executable, SCORE, "--verify", "--seeds", name] +
                         args_for(name, sys.argv[1:]))
    status = status or rc
    print(flush=True)
sys.exit(status)
