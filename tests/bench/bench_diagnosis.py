#!/usr/bin/python3
"""`make bench`'s diagnosis benchmark: every case of the tuning seeds (tests/diagnosis) replayed,
diagnosed and scored, with each change `diagnose --verify` rates "helps" tried on another seed,
workload and duration. Prints the figures docs/benchmarks.md records; asserts nothing about them
(make check's diagnosis_bench.py holds the floor). Extra arguments go to score.py."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCORE = os.path.join(HERE, "..", "diagnosis", "score.py")
os.execv(sys.executable, [sys.executable, SCORE, "--verify"] + sys.argv[1:])
