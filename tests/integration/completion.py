"""dcbkit completion bash|zsh completes what the help lists.

bash: the script registers itself (complete -p dcbkit), and a COMP_WORDS simulation completes a
command, a formula, an option, an option's choices, files and folders; for every command the
options offered after "-" are exactly the spellings its help lists (so serve offers no -T).
Each first word offered (calc's formulas, store's actions ...) is one the command knows.
The same script completes dcbtop: after "-" exactly the spellings dcbtop --help lists, and an
option's choices and files.
zsh: typed into an interactive zsh on a pseudo-terminal, Tab completes a command, a formula, an
option and an option's choices, and dcbtop's options and their choices."""
import os
import pty
import select
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, "lib"))
from help_text import DCBKIT, commands, fail, help_of, options  # noqa: E402

SIMULATE = r'''
source <("$DCBKIT" completion bash) || exit 1
comp() {
    COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=()
    _dcbkit
    printf '%s\n' "${COMPREPLY[@]}"
    echo "--end--"
}
'''


def bash_complete(cases, prog="dcbkit"):
    """The completions of each word list (the last word is the one being completed)."""
    script = SIMULATE.replace("_dcbkit\n", "_%s\n" % prog) + "".join(
        "comp " + " ".join("'%s'" % w.replace("'", "'\\''") for w in [prog] + c) + "\n"
        for c in cases)
    r = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=ROOT,
                       env=dict(os.environ, DCBKIT=DCBKIT), timeout=60)
    if r.returncode != 0:
        fail("bash completion: exit %d: %s" % (r.returncode, r.stderr))
    out = r.stdout.split("--end--\n")[:-1]
    return [set(filter(None, o.split("\n"))) for o in out]


def expect(what, got, want):
    if got != set(want):
        fail("%s: completed %s, expected %s" % (what, sorted(got), sorted(want)))


def check_bash():
    r = subprocess.run(["bash", "-c", 'source <("$DCBKIT" completion bash); complete -p dcbkit'],
                       capture_output=True, text=True, env=dict(os.environ, DCBKIT=DCBKIT))
    if r.stdout.strip() != "complete -o filenames -F _dcbkit dcbkit":
        fail("complete -p dcbkit: %r %r" % (r.stdout, r.stderr))
    names = commands()
    fab_dir = os.path.join("fixtures", "fabrics")
    cases = [
        (["ana"], ["analyze"]),
        ([""], names),
        (["help", "dia"], ["diagnose"]),
        (["calc", "hea"], ["headroom"]),
        (["diagnose", "--fab"], ["--fabric"]),
        (["analyze", "-T", ""], ["text", "json"]),
        (["calc", "--medium", ""], ["fiber", "dac"]),
        (["diagnose", "--fabric", os.path.join(fab_dir, "healt")],
         [os.path.join(fab_dir, "healthy.json")]),
        (["diagnose", "--rules", "fixtures/fab"], ["fixtures/fabrics"]),
        (["calc", "--link-speed", ""], []),
        # HOST:PORT comes as three words; the action is still the first operand
        (["gnmi", "-a", "leaf1", ":", "8080", ""], ["capabilities", "get", "subscribe"]),
        (["completion", ""], ["bash", "zsh"]),
    ]
    got = bash_complete([c for c, _ in cases])
    for (words, want), g in zip(cases, got):
        expect("dcbkit " + " ".join(words), g, want)
    # once the formula is given, files follow, not the formulas again
    g = bash_complete([["calc", "pause", "hea"]])[0]
    if "headroom" in g:
        fail("calc pause hea offered the formula again: %s" % sorted(g))

    # every command: after "-" exactly the spellings its help lists
    got = bash_complete([[c, "-"] for c in names])
    for c, g in zip(names, got):
        listed = {s for o in options(help_of([DCBKIT, "help", c])) for s in o}
        expect("dcbkit %s -" % c, g, listed)
    if "-T" in got[names.index("serve")]:
        fail("serve's completion offers -T")

    # the first words offered are words the command knows
    env = dict(os.environ, DCBKIT_STORE=os.path.join(os.sep, "nonexistent", "dcbkit.db"))
    for c in names:
        words = bash_complete([[c, ""]])[0] if c not in ("help",) else set()
        if c in ("help", "analyze", "decode") or not words or words == set(names):
            continue
        if any(os.path.exists(os.path.join(ROOT, w)) for w in words):
            continue                 # files: the command takes no first word
        for w in words:
            r = subprocess.run([DCBKIT, c, w], capture_output=True, text=True, timeout=10,
                               stdin=subprocess.DEVNULL, env=env)
            if "unknown" in r.stderr:
                fail("completion offers '%s %s', which it refuses: %s" % (c, w, r.stderr))


def check_bash_dcbtop():
    dcbtop = os.environ.get("DCBTOP", os.path.join(os.path.dirname(DCBKIT), "dcbtop"))
    listed = {s for o in options(help_of([dcbtop, "--help"])) for s in o}
    cases = [
        (["-"], listed),
        (["--vi"], ["--view"]),
        (["--view", ""], ["interfaces", "qos"]),
        (["-T", ""], ["text", "json"]),
        (["--fabric", os.path.join("fixtures", "fabrics", "healt")],
         [os.path.join("fixtures", "fabrics", "healthy.json")]),
        (["-d", ""], []),
    ]
    got = bash_complete([c for c, _ in cases], "dcbtop")
    for (words, want), g in zip(cases, got):
        expect("dcbtop " + " ".join(words), g, want)


def zsh_line(typed, want, wait=3.0):
    """What an interactive zsh shows after typed (ending in a Tab), read until want shows or
    wait seconds pass."""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "dumb"
        os.chdir(ROOT)
        os.execvp("zsh", ["zsh", "-f", "-i"])
    got = b""

    def read(seconds, until=None):
        nonlocal got
        end = time.time() + seconds
        while time.time() < end and not (until and until in got):
            if select.select([fd], [], [], 0.1)[0]:
                try:
                    got += os.read(fd, 65536)
                except OSError:
                    return

    os.write(fd, ("PS1='> '; autoload -Uz compinit; compinit -u -D; "
                  "source <('%s' completion zsh); print READY\n" % DCBKIT).encode())
    read(20, b"READY\r\n")
    got = b""
    os.write(fd, typed.encode())
    read(wait, want.encode())
    os.write(fd, b"\x03exit\n")
    read(0.3)
    os.close(fd)
    os.waitpid(pid, 0)
    return got.decode(errors="replace")


def check_zsh():
    if not shutil.which("zsh"):
        print("skip: zsh not installed (scripts/bootstrap installs it)")
        sys.exit(77)
    for typed, want in [("dcbkit ana\t", "dcbkit analyze "), ("dcbkit calc hea\t", "headroom"),
                        ("dcbkit diagnose --fab\t", "--fabric"),
                        ("dcbkit analyze -T \t", "json  text"),
                        ("dcbtop --vi\t", "dcbtop --view"),
                        ("dcbtop --view \t", "interfaces  qos")]:
        shown = zsh_line(typed, want)
        if want not in shown:
            fail("zsh: %r completed to %r, expected %r in it" % (typed, shown, want))


check_bash()
check_bash_dcbtop()
check_zsh()
print("ok")
