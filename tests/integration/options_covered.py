"""Every option the help lists is run by a test of its command.

The list comes from the command table itself: `dcbkit help` names the commands, `dcbkit help CMD`
lists each one's options (its own, the source options of its groups and the common -T/-v/-q/-h)
and `dcbtop --help` dcbtop's; a new option therefore shows up here without editing this file.
An option with a short and a long spelling ("-T, --format") is one option, covered by either;
"--csv, --jsonl" are two.

A (command, option) pair is covered when one invocation in a test under tests/integration names
both the command and the option:
  Python  one statement (its string literals, however many lines its argv list spans) that
          names the command word ("store", "collect"; DCBTOP for dcbtop) or calls a helper
          that prepends it (WRAPPERS);
  shell   one simple command from "$DCBKIT"/"$DCBTOP" (or a bare dcbkit/dcbtop first word) to
          the next pipe, ;, && or ||; in a for loop, a command that uses the loop variable
          also gets the loop's list. Heredocs (Python inside a shell test) are skipped.
So `--once` in a serve test does not count for collect, nor `grep -q` for -q.

A pair that no test runs is a failure, listed with every other, unless ALLOWED says why; an
allowed pair that a test runs is a failure too (take it off). This checks that a test runs the
option; that the test checks the option's effect, not only that it is accepted, is for review."""
import io
import os
import re
import subprocess
import sys
import tokenize

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, "lib"))
from help_text import DCBKIT, DCBTOP, commands, fail, help_of, options  # noqa: E402

# Helpers that run a command with the caller's arguments: a call of one counts as naming it.
# (test file or None for every test, helper name): command
WRAPPERS = {
    (None, "Serve"): "serve",
    ("dcbtop_sources.py", "top"): "dcbtop",
    ("dcbtop_sources.py", "found"): "dcbtop",
    ("report_sources.py", "report"): "report",
    ("report_gnmi.py", "report"): "report",
    ("report_pcap.py", "report"): "report",
    ("report_cli.py", "rules_found"): "report",
    ("report_cli.py", "windowed"): "report",
    ("collect_ethtool_dump.py", "mapped_count"): "collect",
    ("collect_pcap.py", "collected"): "collect",
    ("collect_sources.py", "raw_per_sample"): "collect",
    ("replay_scenarios.py", "replay"): "replay",
    ("replay_warmup.py", "replay"): "replay",
    ("replay_warmup.py", "replay_json"): "replay",
    ("gnmi_client.py", "base"): "gnmi",            # base = [..., "gnmi", "-a", ADDRESS, ...]
}

# Options every dcbkit command takes through one code path, exercised once for all of them: the
# test named runs each command `dcbkit help` lists with the option and checks its effect.
EVERY_COMMAND = {
    "--help": "cli.sh runs every listed command with --help: usage on stdout, exit 0, nothing run",
}

# (command, option): why no test here shows its effect. Keep it short and honest.
# The command says nothing on stderr at its default level, with -v or with -q, in every run of
# it tried (calc, metrics, fabric check, decode -r, analyze, replay, report and diagnose over
# fabric files and captures, serve --once, dcbtop -b over the demo): -v and -q have nothing to
# change there. Their one code path (cli_common_option) shows its effect in store import
# (cli.sh), serve (serve_cli.sh) and analyze -v (analyze_errors.sh).
SILENT = "no effect to show: says nothing on stderr at any verbosity in the runs tried"
ALLOWED = {
    ("analyze", "--quiet"): SILENT,
    ("calc", "--quiet"): SILENT,
    ("calc", "--verbose"): SILENT,
    ("completion", "--quiet"): SILENT,
    ("completion", "--verbose"): SILENT,
    ("dcbtop", "--quiet"): SILENT,
    ("dcbtop", "--verbose"): SILENT,
    ("decode", "--quiet"): SILENT,
    ("diagnose", "--quiet"): SILENT,
    ("fabric", "--quiet"): SILENT,
    ("fabric", "--verbose"): SILENT,
    ("help", "--quiet"): SILENT,
    ("help", "--verbose"): SILENT,
    ("metrics", "--quiet"): SILENT,
    ("metrics", "--verbose"): SILENT,
    ("replay", "--verbose"): SILENT,
    ("report", "--quiet"): SILENT,
    ("serve", "--verbose"): SILENT,
    # tried: capabilities, get, subscribe (stream, poll, --updates-only), a rejected path
    ("gnmi", "--quiet"): "no effect to show: without -v gnmi says only errors; the notices -q "
                         "drops (a retry, data again after a gap) need a client that reconnects, "
                         "and gnmi's does not",
}



def python_units(src):
    """Each logical line of a Python test: (names, string tokens)."""
    names, words = set(), []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(src).readline):
            if tok.type == tokenize.NAME:
                names.add(tok.string)
            elif tok.type == tokenize.STRING:
                body = re.sub(r"^[a-zA-Z]*('''|\"\"\"|'|\")", "", tok.string)
                body = re.sub(r"('''|\"\"\"|'|\")$", "", body)
                words.extend(body.split())
            elif tok.type == tokenize.NEWLINE:
                yield names, words
                names, words = set(), []
    except (tokenize.TokenError, IndentationError) as e:
        fail("cannot read a test: %s" % e)
    yield names, words


INVOKE = re.compile(r"^(\$\{?(DCBKIT|DCBTOP)\}?|(.*/)?(dcbkit|dcbtop))$")


def shell_segments(line):
    """The words of each simple command on a shell line that runs dcbkit or dcbtop ("$DCBKIT"
    anywhere in it, a bare dcbkit only as its first word), from the binary on (what a pipe, ;,
    && or || ends belongs to another command)."""
    for seg in re.split(r"\s(?:\|\|?|&&|;)\s|;\s*$|\$\(", line):
        words = [w.strip("\"'();&<>`{}") for w in seg.split()]
        at = next((i for i, w in enumerate(words)
                   if INVOKE.match(w) and (i == 0 or w.startswith("$"))), None)
        if at is not None:
            yield words[at:]


def shell_lines(src):
    """Logical lines: continuations joined, heredoc bodies (other languages) and comments out."""
    end = None
    for line in src.replace("\\\n", " ").splitlines():
        if end is not None:
            end = None if line.strip() == end else end
            continue
        m = re.search(r"<<-?\s*['\"]?(\w+)", line)
        end = m.group(1) if m else None
        yield re.sub(r"(^|\s)#.*", "", line)


def shell_units(src):
    """Each dcbkit or dcbtop command of a shell test: (names, words). In a for loop's body, a
    command that uses the loop variable gets the loop's list too (the argv it iterates over)."""
    loops = []                                   # (variable, list words) of the open loops
    for line in shell_lines(src):
        m = re.match(r"\s*for\s+(\w+)\s+in\s+(.*?)(;\s*do\b|$)", line)
        if m:
            words = [w.strip("\"'") for w in m.group(2).split()]
            loops.append((m.group(1), words))
        for words in shell_segments(line):
            for var, items in loops:
                if any("$" + var in w or "${" + var in w for w in words):
                    words = words + items
            yield set(), words
        if loops and re.search(r"(^|;)\s*done\b", line):
            loops.pop()


def invocations():
    for name in sorted(os.listdir(HERE)):
        path = os.path.join(HERE, name)
        if name == os.path.basename(__file__) or not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            src = f.read()
        if name.endswith(".py"):
            units = python_units(src)
        elif name.endswith(".sh"):
            units = shell_units(src)
        else:
            continue
        for names, words in units:
            yield name, names, words


def names_command(cmd, test, names, words):
    if any(WRAPPERS.get((f, n)) == cmd for n in names for f in (None, test)):
        return True
    if cmd == "dcbtop":
        return "DCBTOP" in names or any(w in ("dcbtop", "$DCBTOP", "${DCBTOP}") for w in words)
    return cmd in words


def names_option(spellings, words):
    return any(w == s or (s.startswith("--") and w.startswith(s + "="))
               for w in words for s in spellings)


def main():
    table = [(c, o) for c in commands() for o in options(help_of([DCBKIT, "help", c]))]
    table += [("dcbtop", o) for o in options(help_of([DCBTOP, "--help"]))]
    if len(table) < 100:
        fail("only %d (command, option) pairs read from the help: the help format changed?"
             % len(table))
    units = list(invocations())
    uncovered, allowed, seen = [], 0, set()
    for cmd, spellings in table:
        key = (cmd, spellings[-1])
        if key in seen:         # documented twice: collect --duration, report --format
            continue
        seen.add(key)
        if spellings[-1] in EVERY_COMMAND and cmd != "dcbtop":
            continue
        hit = any(names_command(cmd, t, n, w) and names_option(spellings, w) for t, n, w in units)
        if hit and key in ALLOWED:
            uncovered.append("%s %s is on the allow-list but a test runs it: take it off" % key)
        if not hit and key in ALLOWED:
            allowed += 1
        elif not hit:
            uncovered.append("%s %s" % (cmd, "/".join(spellings)))
    stale = [k for k in ALLOWED if k not in seen]
    if stale:
        fail("allow-list entries the help no longer lists: %s" % stale)
    print("%d (command, option) pairs, %d allowed without a test, %d uncovered"
          % (len(seen), allowed, len(uncovered)))
    if uncovered:
        fail("no test runs these options with their command:\n  " + "\n  ".join(uncovered))


main()
