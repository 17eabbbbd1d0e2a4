"""What the help says, read back for the tests that check the help against the commands
(options_covered.py, help_accepts.py, exit_status.py, completion.sh's helper).

    from help_text import DCBKIT, DCBTOP, commands, help_of, options, exit_table"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
DCBKIT = os.environ.get("DCBKIT", os.path.join(ROOT, "build", "cc", "bin", "dcbkit"))
DCBTOP = os.environ.get("DCBTOP", os.path.join(ROOT, "build", "cc", "bin", "dcbtop"))


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def help_of(argv):
    """The help argv prints on stdout; a failure fails the test."""
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode != 0:
        fail("%s: exit %d: %s" % (" ".join(argv), r.returncode, r.stderr))
    return r.stdout


def commands():
    """The command names `dcbkit help` lists, in its order."""
    body = help_of([DCBKIT, "help"]).split("\nCommands:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in body.splitlines() if line.startswith("  ")]


def options(text):
    """The options of a help text's Options and Source options sections, each as the tuple of
    its spellings: "-T, --format text|json" is one option, "--csv, --jsonl" two."""
    opts, section = [], None
    for line in text.splitlines():
        if line and not line.startswith(" "):
            section = line.rstrip(":") if line.endswith(":") else None
            continue
        if section not in ("Options", "Source options") or not re.match(r"  ([A-Z]+, )?-", line):
            continue
        shorts = []
        for part in re.sub(r"\(.*?\)", "", line).strip().split(", "):
            flag = part.split()[0].split("=")[0]
            if re.fullmatch(r"-[A-Za-z0-9]", flag):
                shorts.append(flag)
            elif flag.startswith("--"):
                opts.append(tuple(shorts) + (flag,))
                shorts = []
        if shorts:
            opts.append(tuple(shorts))
    return opts


def exit_table(text):
    """{code: label} from a help text's "Exit status:" section."""
    body = text.split("\nExit status:\n", 1)
    if len(body) != 2:
        fail("no Exit status section in:\n" + text[:300])
    codes = {}
    for line in body[1].split("\n\n", 1)[0].splitlines():
        m = re.match(r"  (\d+)\s+([^:]+?)(:|$)", line)
        if m:
            codes[int(m.group(1))] = m.group(2).strip()
    if not codes:
        fail("an empty Exit status section")
    return codes
