"""Every program a test or the README runs comes from a package scripts/bootstrap installs.

On a fresh Debian 12 with only git and make, `make check` failed once because a test ran curl
and nothing installed it. This lists the programs the tests (tests/: shell scripts, Python
tests and helpers) and the README's shell blocks call - a heuristic read: the first word of each
shell command (and the command a wrapper such as timeout runs), and in Python the programs
given to subprocess, os.exec*, shutil.which or named by an absolute /usr/bin path - and asks
dpkg which package provides each (dpkg -S on its path). That package must be in bootstrap's
check set, be pulled in by one (its Depends and Pre-Depends, followed through what is
installed), or be Essential or of priority required. A name the heuristic picks that is not a
program goes on NOT_PROGRAMS with the reason; bootstrap's run set must be within its check set.
"""
import ast
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BOOTSTRAP = os.path.join(ROOT, "scripts", "bootstrap")

# Shell words that are not programs: builtins and keywords of bash (and sh) the tests use.
BUILTINS = set("""
. : [ [[ ]] alias bg bind break builtin caller case cd command compgen complete compopt continue
declare dirs disown do done echo elif else enable esac eval exec exit export false fc fg fi for
function getopts hash help history if in jobs kill let local logout mapfile popd printf pushd pwd
read readarray readonly return select set shift shopt source suspend test then time times trap
true type typeset ulimit umask unalias unset until wait while { } !
""".split())
# What the project builds or ships itself: not from a package.
OWN = {"dcbkit", "dcbtop", "bootstrap", "run"}
# Words the heuristic reads as a command that are not one here (keep the reason).
NOT_PROGRAMS = {
}
# Wrappers that run the command after their options: both count.
WRAPPERS = {"timeout": 1, "env": 0, "nohup": 0, "setpriv": 0, "sudo": 0, "xargs": 0,
            "nice": 0, "stdbuf": 0, "exec": 0, "command": 0, "time": 0}
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9._+-]*$")


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


# ---- shell ------------------------------------------------------------------------------------

def shell_code(src):
    """The lines of a shell script as code: quoted text made one "@" (an argument: a word, but
    no name, so '"$DCBKIT" analyze' does not read as analyze), the command substitutions
    inside double quotes ("$(cat x)") as lines of their own, arithmetic $((...)) one "@", and
    comments, heredoc bodies and line continuations gone. Quotes may span lines."""
    out, subs, i, quote, heredocs = [], [], 0, None, []
    n = len(src)

    def skip_parens(j, depth):
        while j < n and depth:
            depth += {"(": 1, ")": -1}.get(src[j], 0)
            j += 1
        return j

    while i < n:
        c = src[i]
        if quote == "'":
            if c == "'":
                quote = None
            i += 1
            continue
        if quote == '"':
            if c == "\\":
                i += 2
                continue
            if c == '"':
                quote = None
            elif src.startswith("$((", i):
                i = skip_parens(i + 3, 2)
                continue
            elif src.startswith("$(", i):
                j = skip_parens(i + 2, 1)
                subs.append(src[i + 2:j - 1])
                i = j
                continue
            i += 1
            continue
        if src.startswith("$((", i):
            out.append("@")
            i = skip_parens(i + 3, 2)
            continue
        if c in "'\"":
            quote = c
            out.append("@")
        elif c == "#" and (i == 0 or src[i - 1] in " \t\n;"):
            while i < n and src[i] != "\n":
                i += 1
            continue
        elif c == "\\" and i + 1 < n and src[i + 1] == "\n":
            out.append(" ")
            i += 2
            continue
        elif src.startswith("<<", i) and not src.startswith("<<<", i):
            m = re.match(r"<<-?\s*['\"]?(\w+)['\"]?", src[i:])
            if m:
                heredocs.append(m.group(1))
                out.append(" ")
                i += m.end()
                continue
        elif c == "\n" and heredocs:
            out.append("\n")
            i += 1
            while heredocs and i < n:        # the bodies, each to its terminator line
                end = src.find("\n", i)
                line = src[i:end if end >= 0 else n]
                i = end + 1 if end >= 0 else n
                if line.strip() == heredocs[0]:
                    heredocs.pop(0)
            continue
        else:
            out.append(c)
        i += 1
    lines = "".join(out).split("\n")
    for sub in subs:
        lines.extend(shell_code(sub))
    return lines


def first_words(line):
    """The first word of each simple command of a code line (and of a wrapper's command)."""
    for seg in re.split(r"\|\||&&|[|;&`(){}]|\$\(|\bthen\b|\bdo\b|\belse\b", line):
        words = seg.split()
        while words and (re.match(r"^\w+=", words[0]) or words[0] in ("!", "if", "elif",
                                                                      "while", "until")):
            words.pop(0)
        while words:
            w = words[0]
            if w.startswith("/usr/bin/") or w.startswith("/bin/") or w.startswith("/usr/sbin/"):
                w = os.path.basename(w)
            if not NAME.match(w):
                break
            yield w
            if w not in WRAPPERS:
                break
            skip = WRAPPERS[w]
            words = words[1:]
            while words and (words[0].startswith("-") or re.match(r"^\w+=", words[0])):
                words.pop(0)
            words = words[skip:]


def shell_functions(src):
    return set(re.findall(r"^\s*(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)", src, re.M))


# ---- python -----------------------------------------------------------------------------------

def python_programs(src):
    names = set()
    names.update(re.findall(r"shutil\.which\(\s*[\"']([\w.+-]+)[\"']", src))
    names.update(re.findall(r"subprocess\.\w+\(\s*\[\s*[\"']([\w./+-]+)[\"']", src))
    names.update(re.findall(r"os\.exec\w*\(\s*[\"']([\w./+-]+)[\"']", src))
    names.update(re.findall(r"[\"'](?:/usr)?/s?bin/([\w.+-]+)[\"']", src))
    return {os.path.basename(n) for n in names if not n.startswith("-")}


# ---- what calls what --------------------------------------------------------------------------

def sources():
    """(path, kind) of every test file and the README."""
    for top, dirs, files in os.walk(os.path.join(ROOT, "tests")):
        dirs[:] = [d for d in dirs if d not in ("corpus", "__pycache__")]
        for f in sorted(files):
            path = os.path.join(top, f)
            if f.endswith(".py"):
                yield path, "py"
            elif f.endswith((".sh", ".bash")):
                yield path, "sh"
            else:
                try:
                    with open(path, "rb") as fh:
                        head = fh.readline()
                except OSError:
                    continue
                if head.startswith(b"#!") and (b"sh" in head.split(b"/")[-1]):
                    yield path, "sh"
    yield os.path.join(ROOT, "README.md"), "md"


def readme_shell(src):
    blocks = re.findall(r"^```(\w*)\n(.*?)^```", src, re.M | re.S)
    return "\n".join(body for lang, body in blocks if lang in ("sh", "bash", "shell", "console"))


def programs():
    """{program: [files that call it]}"""
    found, funcs = {}, set()
    texts = []
    for path, kind in sources():
        with open(path, encoding="utf-8", errors="replace") as f:
            src = f.read()
        texts.append((path, kind, src))
        if kind == "sh":
            funcs |= shell_functions(src)
    for path, kind, src in texts:
        rel = os.path.relpath(path, ROOT)
        if kind == "py":
            names = python_programs(src)
        else:
            body = readme_shell(src) if kind == "md" else src
            names = {w for line in shell_code(body) for w in first_words(line)}
            names -= funcs
        for n in names - BUILTINS - OWN - set(NOT_PROGRAMS):
            found.setdefault(n, []).append(rel)
    return found


# ---- which package, and does bootstrap bring it -----------------------------------------------

def bootstrap_set(name):
    r = subprocess.run([BOOTSTRAP, "--list", name], capture_output=True, text=True)
    if r.returncode != 0:
        fail("bootstrap --list %s: exit %d %s" % (name, r.returncode, r.stderr))
    return set(r.stdout.split())


def installed_packages():
    """{name: (depends names, essential or required)} of what dpkg has installed, and the
    virtual names each provides."""
    r = subprocess.run(["dpkg-query", "-W", "-f=${db:Status-Status}\t${Package}\t${Depends}, "
                        "${Pre-Depends}\t${Provides}\t${Essential}\t${Priority}\n"],
                       capture_output=True, text=True)
    pkgs, provided = {}, {}
    for line in r.stdout.splitlines():
        status, name, deps, provides, essential, priority = line.split("\t")
        if status != "installed":
            continue
        # "a (>= 1) | b, c:any" -> every alternative counts as reachable
        names = {re.sub(r"[\s(:].*", "", d.strip()) for d in re.split(r"[,|]", deps)}
        pkgs[name] = (names - {""}, essential == "yes" or priority == "required")
        for p in provides.split(","):
            p = re.sub(r"[\s(].*", "", p.strip())
            if p:
                provided.setdefault(p, set()).add(name)
    return pkgs, provided


def closure(roots, pkgs, provided):
    seen, todo = set(), list(roots)
    while todo:
        p = todo.pop()
        for name in [p] + sorted(provided.get(p, ())):
            if name in seen or name not in pkgs:
                continue
            seen.add(name)
            todo.extend(pkgs[name][0])
    return seen


def paths_of(prog):
    """The program's path (the system's: a test runs /usr/bin/python3, not a pyenv shim ahead
    on PATH) and the spellings dpkg may know it by (usrmerge, alternatives); (None, []) when it
    is not installed."""
    path = shutil.which(prog, path="/usr/sbin:/usr/bin:/sbin:/bin") or shutil.which(prog)
    if not path:
        return None, []
    tries = [path, os.path.realpath(path)]
    for p in list(tries):
        for a, b in (("/usr/bin/", "/bin/"), ("/usr/sbin/", "/sbin/")):
            if p.startswith(a):
                tries.append(b + p[len(a):])
            elif p.startswith(b):
                tries.append(a + p[len(b):])
    return path, tries


def owners(paths):
    """{path: package} for the paths dpkg knows, in one dpkg -S call."""
    r = subprocess.run(["dpkg", "-S"] + sorted(set(paths)), capture_output=True, text=True)
    found = {}
    for line in r.stdout.splitlines():
        pkgs, _, path = line.partition(": ")
        found[path.strip()] = pkgs.split(",")[0].split(":")[0].strip()
    return found


def main():
    if not shutil.which("dpkg"):
        print("skip: no dpkg: bootstrap supports Debian 12 and derivatives only")
        sys.exit(77)
    run_set, check_set = bootstrap_set("run"), bootstrap_set("check")
    if not run_set <= check_set:
        fail("bootstrap's run set is not within its check set: %s" % sorted(run_set - check_set))
    pkgs, provided = installed_packages()
    brought = closure(check_set, pkgs, provided)
    found = programs()
    if len(found) < 15:
        fail("only %d programs found in the tests and README: the heuristic broke? %s"
             % (len(found), sorted(found)))
    bad = []
    paths = {prog: paths_of(prog) for prog in found}
    known = owners([t for _, tries in paths.values() for t in tries])
    for prog in sorted(found):
        path, tries = paths[prog]
        pkg = next((known[t] for t in tries if t in known), "")
        where = ", ".join(sorted(set(found[prog]))[:3])
        if path is None:
            bad.append("%s (called in %s) is not installed: bootstrap lacks its package, or "
                       "it is not a program (NOT_PROGRAMS)" % (prog, where))
        elif not pkg:
            bad.append("%s (%s, called in %s) comes from no package" % (prog, path, where))
        elif pkg not in brought and not (pkg in pkgs and pkgs[pkg][1]):
            bad.append("%s (called in %s) comes from %s, which bootstrap's check set does not "
                       "install" % (prog, where, pkg))
        else:
            print("%-16s %s" % (prog, pkg))
    stale = [n for n in NOT_PROGRAMS if shutil.which(n)]
    if stale:
        fail("NOT_PROGRAMS lists programs after all: %s" % stale)
    if bad:
        fail("programs bootstrap does not bring:\n  " + "\n  ".join(bad))
    print("ok: %d programs, each from a package bootstrap installs (or essential)" % len(found))


main()
