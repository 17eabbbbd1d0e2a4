"""The help lists only what the command accepts, and -T only where there is JSON output.

For every command `dcbkit help` lists, and dcbtop: each option its help lists is known to its
parser (`CMD OPTION VALUE --help` never says "unknown option"), and -T json is taken exactly
when the help lists -T (serve, which writes the Prometheus text format, once listed it and
refused it). A made-up option is refused, so the check can fail."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "lib"))
from help_text import DCBKIT, DCBTOP, commands, fail, help_of, options  # noqa: E402

# A command whose first word is an action or formula: the option goes after it, and belongs to
# at least one of them.
FIRST_WORD = {"calc": ["pause", "headroom", "thresholds"], "fabric": ["check", "diff", "paths"],
              "store": ["info", "query", "delta", "events", "export", "import", "prune"]}
NO_JSON = "has no JSON output"


def stderr_of(argv):
    r = subprocess.run(argv, capture_output=True, text=True, timeout=20,
                       stdin=subprocess.DEVNULL)
    return r.returncode, r.stderr


def check(name, base, firsts=None):
    text = help_of(base + ["--help"])
    opts = options(text)
    if not opts:
        fail("%s: no options read from its help" % name)
    bases = [base + [w] for w in firsts] if firsts else [base]
    for spellings in opts:
        flag = spellings[-1]
        # a value after it whatever it takes: an option that takes none leaves "x" an operand
        errs = [stderr_of(b + [flag, "x", "--help"])[1] for b in bases]
        if all("unknown option" in err for err in errs):
            fail("%s --help lists %s, which it does not know: %s" % (name, flag, errs[0].strip()))
    base = bases[0]
    rc, err = stderr_of(base + ["--no-such-option", "--help"])
    if rc != 64 or "unknown option" not in err:
        fail("%s: a made-up option was not refused (exit %d): %s" % (name, rc, err.strip()))
    lists_t = any(s[-1] == "--format" for s in opts)
    rc, err = stderr_of(base + ["-T", "json", "--help"])
    if lists_t and NO_JSON in err:
        fail("%s lists -T but refuses -T json: %s" % (name, err.strip()))
    if not lists_t and (rc != 64 or NO_JSON not in err):
        fail("%s does not list -T, yet -T json gave exit %d: %s" % (name, rc, err.strip()))
    return lists_t


def main():
    without = []
    for c in commands():
        if not check(c, [DCBKIT, c], FIRST_WORD.get(c)):
            without.append(c)
    check("dcbtop", [DCBTOP, "-b", "-n", "1"])
    if "serve" not in without:
        fail("serve lists -T, but it writes the Prometheus text format")
    overview = help_of([DCBKIT, "help"])
    for c in without:
        if c not in overview.split("takes -T json", 1)[0].split("Every command", 1)[-1]:
            fail("the overview does not name %s among the commands without -T json" % c)
    print("ok: -T json refused by %s only" % ", ".join(without))


main()
