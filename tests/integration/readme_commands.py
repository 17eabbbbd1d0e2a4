"""Issue 31: the README is a landing page of at most 200 lines, and every dcbkit and dcbtop
command in its sh blocks runs: in a scratch directory that sees the tree's fixtures, in the
README's order (later steps read what earlier ones wrote), with the built binaries first on the
PATH. Exit statuses 0-2 are results (diagnose and report exit 1 and 2 on warnings and critical
findings); 3 and above, a signal or a timeout fail. An interactive dcbtop line runs in batch
mode (-b -n 1) with its own flags. Every link to a file in the tree must resolve."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build", "cc"))
DCBKIT = os.environ.get("DCBKIT", os.path.join(BUILD, "bin", "dcbkit"))
TIMEOUT = float(os.environ.get("README_TIMEOUT", "120"))
MAX_LINES = 200


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


readme = open(os.path.join(ROOT, "README.md")).read()
if len(readme.splitlines()) > MAX_LINES:
    fail("README.md has %d lines, more than %d" % (len(readme.splitlines()), MAX_LINES))
for link in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme):
    if not re.match(r"https?:", link) and not os.path.exists(os.path.join(ROOT, link)):
        fail("README links to %s, which does not exist" % link)

commands = []
for block in re.findall(r"```sh\n(.*?)```", readme, re.S):
    for line in block.splitlines():
        cmd = re.sub(r"\s+#.*$", "", line).strip()
        if re.match(r"(dcbkit|dcbtop)\b", cmd):
            commands.append(cmd)
if len(commands) < 8:
    fail("only %d commands found in the README's sh blocks" % len(commands))

bindir = os.path.dirname(os.path.abspath(DCBKIT))
tmp = tempfile.mkdtemp(prefix="dcbkit-readme-")
try:
    os.symlink(os.path.join(ROOT, "fixtures"), os.path.join(tmp, "fixtures"))
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
    for cmd in commands:
        run = cmd
        if cmd.startswith("dcbtop") and not re.search(r"(^| )-b( |$)", cmd):
            run = cmd + " -b -n 1 -d 0.2"
        try:
            p = subprocess.run(["bash", "-c", run], cwd=tmp, env=env, capture_output=True,
                               text=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            fail("%s: no end in %.0f s" % (run, TIMEOUT))
        if not 0 <= p.returncode <= 2 or not p.stdout.strip():
            fail("%s: exit %d, %d bytes out; stderr: %s" % (run, p.returncode, len(p.stdout),
                                                            p.stderr.strip()[-300:]))
        print("ran (exit %d): %s" % (p.returncode, cmd))
    print("ok: %d README commands ran; %d lines" % (len(commands), len(readme.splitlines())))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
