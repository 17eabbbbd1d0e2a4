"""The exit statuses the help documents are the ones the commands return.

Each command's table comes from `dcbkit help CMD` (its "Exit status:" section, made from the
command table); a run that must end a given way is checked twice: its exit status, and that the
command's own table documents that status under the label expected (a diagnose that finds only
warnings exits 1, and diagnose's table says 1 is "warnings", not "runtime error"). The overview
of `dcbkit help` and dcbkit(1) must give each command the same codes and labels."""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, "lib"))
from help_text import DCBKIT, DCBTOP, commands, exit_table as table, fail  # noqa: E402
FABRICS = os.path.join(ROOT, "fixtures", "fabrics")
SCENARIOS = os.path.join(ROOT, "fixtures", "scenarios")
CAPTURES = os.path.join(ROOT, "fixtures", "captures", "analyze")


def run(argv, env=None):
    r = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env,
                       stdin=subprocess.DEVNULL)
    return r.returncode, r.stdout, r.stderr


def main():
    tmp = tempfile.mkdtemp(prefix="dcbkit-exit.")
    env = dict(os.environ, DCBKIT_STORE=os.path.join(tmp, "default.db"),
               DCBKIT_CACHE_DIR=os.path.join(tmp, "cache"))
    tables = {}
    for c in commands():
        rc, out, err = run([DCBKIT, "help", c])
        if rc != 0:
            fail("help %s: exit %d %s" % (c, rc, err))
        tables[c] = table(out)
        rc2, out2, _ = run([DCBKIT, c, "--help"])
        if rc2 != 0 or table(out2) != tables[c]:
            fail("%s --help gives another table than help %s" % (c, c))
        if tables[c].get(64) != "usage error" or tables[c].get(0) not in ("success", "healthy"):
            fail("%s: 0 and 64 are not success/healthy and usage error: %s" % (c, tables[c]))
    rc, out, _ = run([DCBTOP, "--help"])
    tables["dcbtop"] = table(out)

    missing = os.path.join(tmp, "missing")
    bogus = os.path.join(tmp, "bogus.json")
    with open(bogus, "w") as f:
        f.write("{\"devices\": [")
    report_out = os.path.join(tmp, "r")
    # (command word, argv after the binary, expected status, the label its table must give)
    cases = [
        ("diagnose", ["diagnose", "--fabric", os.path.join(FABRICS, "healthy.json")], 0,
         "healthy"),
        ("diagnose", ["diagnose", "--fabric", os.path.join(FABRICS, "dcqcn-off.json")], 1,
         "warnings"),
        ("diagnose", ["diagnose", "--fabric", os.path.join(FABRICS, "pfc-mismatch.json")], 2,
         "critical"),
        ("diagnose", ["diagnose", "--pcap", missing], 3, "could not decide"),
        ("diagnose", ["diagnose", "--store", missing], 3, "could not decide"),
        ("diagnose", ["diagnose", "--frob"], 64, "usage error"),
        ("report", ["report", "--replay", os.path.join(SCENARIOS, "healthy-incast.json"),
                    "--out", report_out + "0"], 0, "healthy"),
        ("report", ["report", "--replay", os.path.join(SCENARIOS, "slow-receiver.json"),
                    "--out", report_out + "1"], 1, "warnings"),
        ("report", ["report", "--replay", os.path.join(SCENARIOS, "pause-storm.json"),
                    "--out", report_out + "2"], 2, "critical"),
        # the stored verdict's status
        ("report", ["report", "--from-json", os.path.join(report_out + "1", "report.json"),
                    "--out", report_out + "1"], 1, "warnings"),
        ("report", ["report", "--from-json", missing], 3, "could not decide"),
        ("report", ["report", "--fabric", os.path.join(FABRICS, "healthy.json"), "--store",
                    missing], 3, "could not decide"),
        ("report", ["report", "--frob"], 64, "usage error"),
        # analyze: a warn verdict is still a capture read
        ("analyze", ["analyze", os.path.join(CAPTURES, "pfc-storm.pcap")], 0, "success"),
        ("analyze", ["analyze", missing], 1, "runtime error"),
        ("analyze", ["analyze", "--frob", "x"], 64, "usage error"),
        ("calc", ["calc", "pause", "1", "--link-speed", "100G"], 0, "success"),
        ("calc", ["calc", "pause", "1", "--frob"], 64, "usage error"),
        ("fabric", ["fabric", "check", os.path.join(FABRICS, "healthy.json")], 0, "success"),
        ("fabric", ["fabric", "check", missing], 1, "runtime error"),
        ("fabric", ["fabric", "check", bogus], 1, "runtime error"),
        ("store", ["store", "info", "--store", missing], 1, "runtime error"),
        ("decode", ["decode", "-r", missing], 1, "runtime error"),
        ("replay", ["replay", missing], 1, "runtime error"),
        ("serve", ["serve", "--store", missing, "--once"], 1, "runtime error"),
        ("serve", ["serve", "--demo", "-T", "json"], 64, "usage error"),
        ("metrics", ["metrics"], 0, "success"),
        ("help", ["help"], 0, "success"),
        ("help", ["help", "nope"], 64, "usage error"),
    ]
    for cmd, argv, want, label in cases:
        rc, out, err = run([DCBKIT] + argv, env=env)
        if rc != want:
            fail("dcbkit %s: exit %d, expected %d: %s" % (" ".join(argv), rc, want, err[-300:]))
        if tables[cmd].get(want) != label:
            fail("dcbkit %s exits %d, which help %s documents as %r, not %r" %
                 (" ".join(argv), want, cmd, tables[cmd].get(want), label))
    for argv, want, label in [(["-b", "-n", "1", "--fabric", os.path.join(FABRICS, "healthy.json")],
                               0, "success"),
                              (["-b", "-n", "1", "--pcap", missing], 1, "runtime error"),
                              (["-b", "--frob"], 64, "usage error")]:
        rc, _, err = run([DCBTOP] + argv, env=env)
        if rc != want or tables["dcbtop"].get(want) != label:
            fail("dcbtop %s: exit %d (documented %r), expected %d %r: %s" %
                 (" ".join(argv), rc, tables["dcbtop"].get(rc), want, label, err[-300:]))

    # the overview groups the commands; each one's codes and labels are its help's
    rc, out, _ = run([DCBKIT, "help"])
    groups = out.split("\nExit status", 1)[1].split(":\n", 1)[1]
    seen = set()
    for names, codes in re.findall(r"^  (\S[^\n]*):\n((?:      [^\n]*\n)+)", groups, re.M):
        listed = dict((int(c), l.strip()) for c, l in
                      re.findall(r"(\d+) ([^,]+)", " ".join(codes.split())))
        for name in names.split(", "):
            seen.add(name)
            if listed != tables[name]:
                fail("dcbkit help gives %s %s, its help %s" % (name, listed, tables[name]))
    if seen != set(commands()):
        fail("the overview's exit status misses %s" % (set(commands()) - seen))
    # dcbkit(1): under each command, the same codes and labels
    rc, man, _ = run([DCBKIT, "help", "--man"])
    for c in commands():
        section = man.split(".SS %s " % c, 1)[1].split("\n.SS ", 1)[0].split("\n.SH ", 1)[0]
        got = dict((int(code), label.replace("\\-", "-")) for code, label in
                   re.findall(r"^\.TP\n\.B (\d+)\n([^:\n]+)", section, re.M))
        if got != tables[c]:
            fail("dcbkit(1) gives %s %s, its help %s" % (c, got, tables[c]))
    if "1 runtime error" in man.split(".SS diagnose ", 1)[1].split(".SS ", 1)[0]:
        fail("dcbkit(1) still says 1 is a runtime error for diagnose")
    print("ok: %d runs, %d tables" % (len(cases) + 3, len(tables)))


if __name__ == "__main__":
    main()
