"""bench_dcbtop: what dcbtop costs with 64 interfaces.

  - CPU of `dcbtop -b -d 1` (batch frames to /dev/null, 64 interfaces), from a store (64
    interfaces x 11 series, 2 minutes at 1 s) and from a fixture sysfs tree (64 copies of the
    mlx5 fixture's port, netdev and RDMA counters, DCQCN knobs); the target is under 1% of a
    core. The reference in the same run: `dcbkit collect` on the same tree at the same rate.
  - Start-up to the first frame (spawn to the first byte of `dcbtop -b -n 1`), median of 9;
    the target is under 100 ms.

CPU time comes from getrusage of the children, next to wall time, so that figures mean
something on a shared machine. Prints figures; never asserts on time. BENCH_FRAMES sets the
frames measured after the first three (default 10).

DCBTOP_OLD=/path/to/an/older/dcbtop compares the two instead: every figure is measured
BENCH_ROUNDS times (default 5) for each binary, old and new in turn, and the medians are
printed side by side (this machine's noise is larger than the differences looked for)."""
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration", "lib"))
from dcbtop_helpers import DCBKIT, DCBTOP, ROOT, build_store, fixture_lines  # noqa: E402

IFACES = 64
FRAMES = int(os.environ.get("BENCH_FRAMES", "10"))


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def cpu_run(cmd):
    """(cpu seconds, wall seconds) of one command run to its end."""
    c0, w0 = child_cpu(), time.monotonic()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return child_cpu() - c0, time.monotonic() - w0


def first_frame_ms(cmd, runs=9):
    """Median wall ms from spawn to the first byte, and median CPU ms of the whole -n 1 run."""
    times, cpus = [], []
    for _ in range(runs):
        c0, w0 = child_cpu(), time.monotonic()
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        p.stdout.read(1)
        times.append((time.monotonic() - w0) * 1000)
        p.stdout.read()
        p.wait()
        cpus.append((child_cpu() - c0) * 1000)
    times.sort()
    cpus.sort()
    return times[len(times) // 2], cpus[len(cpus) // 2]


def sysfs_tree(root):
    """64 copies of the mlx5 fixture port (netdev statistics, RDMA hw_counters, DCQCN knobs)."""
    fix = os.path.join(ROOT, "fixtures", "sysfs", "mlx5", "t0")
    shutil.copytree(os.path.join(fix, "bus"), os.path.join(root, "bus"), symlinks=True)
    for i in range(IFACES):
        shutil.copytree(os.path.join(fix, "class", "net", "ens1f0"),
                        os.path.join(root, "class", "net", "eth%d" % i), symlinks=True)
        ib = os.path.join(root, "class", "infiniband", "mlx5_%d" % i)
        shutil.copytree(os.path.join(fix, "class", "infiniband", "mlx5_0"), ib, symlinks=True)
        with open(os.path.join(ib, "ports", "1", "gid_attrs", "ndevs", "0"), "w") as f:
            f.write("eth%d\n" % i)


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def steady(cmd, count_flag):
    """CPU of the first frame alone, and of FRAMES frames after the first three, and the wall
    time: the CPU of N+3 frames less that of 3 frames (start-up, the first read, and what the
    second frame adds: the store's whole window, the local config), over the N seconds."""
    c1, _ = cpu_run(cmd + [count_flag, "1"])
    c3, _ = cpu_run(cmd + [count_flag, "3"])
    cn, wall = cpu_run(cmd + [count_flag, str(FRAMES + 3)])
    return c1, cn - c3, wall


def compare(old, db, tree, noproc):
    """Old and new dcbtop, interleaved, medians of BENCH_ROUNDS."""
    rounds = int(os.environ.get("BENCH_ROUNDS", "5"))
    figures = {}       # (figure, binary) -> [values]

    def args(name):
        return {"store": ["-b", "--store", db],
                "sysfs": ["-b", "--sysfs-root", tree, "--proc-root", noproc],
                "demo": ["-b", "--demo"]}[name]

    for r in range(rounds):
        for label, binary in (("old", old), ("new", DCBTOP)) if r % 2 == 0 else \
                (("new", DCBTOP), ("old", old)):
            for name in ("store", "sysfs"):
                _, cpu, _ = steady([binary] + args(name) + ["-d", "1"], "-n")
                figures.setdefault(("%s: %% of a core, steady" % name, label), []).append(
                    100 * cpu / FRAMES)
            for name in ("store", "sysfs", "demo"):
                ms, cpu_ms = first_frame_ms([binary] + args(name) + ["-n", "1"], runs=3)
                figures.setdefault(("%s: ms to the first frame" % name, label), []).append(ms)
                figures.setdefault(("%s: ms CPU of -n 1" % name, label), []).append(cpu_ms)
        print("round %d of %d done" % (r + 1, rounds), flush=True)
    print("%-36s %10s %10s %8s" % ("figure (medians of %d, interleaved)" % rounds, "old", "new",
                                   "new/old"))
    for fig in sorted({f for f, _ in figures}):
        o, n = median(figures[(fig, "old")]), median(figures[(fig, "new")])
        print("%-36s %10.3f %10.3f %8.2f" % (fig, o, n, n / o if o else float("nan")))


def main():
    for b in (DCBKIT, DCBTOP):
        if not os.access(b, os.X_OK):
            print("bench_dcbtop: no binary at %s: run 'make' first" % b, file=sys.stderr)
            return 1
    tmp = tempfile.mkdtemp(prefix="bench-dcbtop-")
    try:
        ifaces = {"eth%d" % i: 100 * i for i in range(IFACES)}
        db = build_store(os.path.join(tmp, "b.db"), fixture_lines(ifaces=ifaces, seconds=120))
        tree = os.path.join(tmp, "sys")
        sysfs_tree(tree)
        noproc = os.path.join(tmp, "noproc")
        old = os.environ.get("DCBTOP_OLD")
        if old:
            print("old %s, new %s" % (old, DCBTOP))
            compare(old, db, tree, noproc)
            return 0
        store_cmd = [DCBTOP, "-b", "--store", db]
        sysfs_cmd = [DCBTOP, "-b", "--sysfs-root", tree, "--proc-root", noproc]
        n = json.loads(subprocess.run(sysfs_cmd + ["-n", "1", "-T", "json"], capture_output=True,
                                      text=True, check=True).stdout)["interfaces"]
        print("sysfs tree: %d interfaces; store: %d interfaces x 11 series x 120 s" %
              (len(n), IFACES))
        top = {}
        for name, cmd in (("store", store_cmd), ("sysfs", sysfs_cmd)):
            first, cpu, wall = steady(cmd + ["-d", "1"], "-n")
            top[name] = 100 * cpu / FRAMES
            print("dcbtop -b -d 1, %s: %.1f ms CPU per frame after the first = %.2f%% of a "
                  "core (target < 1%%); %d frames took %.2f s wall; the first frame alone "
                  "%.0f ms CPU" % (name, 1000 * cpu / FRAMES, top[name], FRAMES + 3, wall,
                                   1000 * first))
        first, cpu, wall = steady([DCBKIT, "collect", "--sysfs-root", tree, "--proc-root",
                                   noproc, "--interval", "1s", "-q"], "--count")
        ref = 100 * cpu / FRAMES
        print("reference: dcbkit collect --interval 1s on the same tree: %.1f ms CPU per sample "
              "after the first = %.2f%% of a core" % (1000 * cpu / FRAMES, ref))
        if ref > 0:
            print("ratio dcbtop/collect on sysfs (steady state): %.2f" % (top["sysfs"] / ref))
        for name, cmd in (("store", store_cmd), ("sysfs", sysfs_cmd),
                          ("demo", [DCBTOP, "-b", "--demo"])):
            ms, cpu_ms = first_frame_ms(cmd + ["-n", "1"])
            print("start-up to the first frame, %s: %.1f ms wall, %.0f ms CPU (medians of 9; "
                  "target < 100 ms)" % (name, ms, cpu_ms))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
