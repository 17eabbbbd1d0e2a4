"""Progress on stderr for work over 2 s, only when stderr is a terminal (lib/progress.h).

Under a pseudo-terminal (python3's pty): a replay that runs past 2 s, report --collect 3s and
an analyze whose capture keeps coming for 2.5 s each show a progress line - rewritten in place
with a raw CR and erase-line (not shown as \\x0d or \\x1b), and wiped before the command's own
output - and a replay shorter than 2 s shows none. With stderr a pipe, or the quiet option on
the terminal, the same runs print no progress at all."""
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, "lib"))
from help_text import DCBKIT, fail  # noqa: E402

SYSFS = os.path.join(ROOT, "fixtures", "sysfs", "mlx5", "t0")
STOP_AFTER = 3.5          # seconds: past the 2 s a line waits for, with room for one more
WIPE = b"\r\x1b[K"


def run(argv, tty, stop_after=None, stdin_writer=None, timeout=60):
    """(exit status, what stderr got, what stdout got). stderr is a pty when tty is true (and
    stdout is the same terminal), else a pipe; stop_after sends SIGINT after that long."""
    if tty:
        master, slave = pty.openpty()
        out_fd, err_fd = slave, slave
    else:
        master = None
        out_fd, err_fd = subprocess.PIPE, subprocess.PIPE
    p = subprocess.Popen(argv, stdout=out_fd, stderr=err_fd,
                         stdin=subprocess.PIPE if stdin_writer else subprocess.DEVNULL)
    if stdin_writer:
        threading.Thread(target=stdin_writer, args=(p.stdin,), daemon=True).start()
    start = time.monotonic()
    if not tty:
        if stop_after:
            threading.Timer(stop_after, p.send_signal, (signal.SIGINT,)).start()
        out, err = p.communicate(timeout=timeout)
        return p.returncode, err, out
    os.close(slave)
    got, stopped = b"", False
    while True:
        if stop_after and not stopped and time.monotonic() - start > stop_after:
            p.send_signal(signal.SIGINT)
            stopped = True
        if time.monotonic() - start > timeout:
            p.kill()
            fail("%s: still running after %d s" % (" ".join(argv), timeout))
        r, _, _ = select.select([master], [], [], 0.1)
        if r:
            try:
                chunk = os.read(master, 65536)
            except OSError:         # EIO: the last holder of the terminal closed it
                chunk = b""
            if not chunk:
                break
            got += chunk
        elif p.poll() is not None and not select.select([master], [], [], 0.2)[0]:
            break
    p.wait()
    os.close(master)
    return p.returncode, got, got


def expect_progress(what, got, word):
    line = b"\r" + word
    if line not in got:
        fail("%s: no progress line %r on the terminal: %r" % (what, line, got[-400:]))
    if b"\\x0d" in got or b"\\x1b" in got:
        fail("%s: the control bytes were printed as text: %r" % (what, got[-400:]))
    last = got.rfind(line)
    if got.find(WIPE, last) < 0:
        fail("%s: the progress line was not wiped at the end: %r" % (what, got[last:][:300]))


def expect_none(what, got, word):
    # (a terminal turns the output's "\n" into "\r\n": a bare CR alone proves nothing)
    if b"\r" + word in got or b"\x1b[K" in got or (b"\r" in got.replace(b"\r\n", b"")):
        fail("%s: progress where there must be none: %r" % (what, got[-400:]))


def pcap_writer(stream):
    """A capture that keeps coming: 60,000 frames, 2.5 s of nothing, 60,000 more."""
    frame = bytes.fromhex("0180c2000001020000000001" "8808" "0101" "0008" + "00" * 16) + b"\0" * 26
    rec = struct.pack("<IIII", 0, 0, len(frame), len(frame)) + frame
    try:
        stream.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        stream.write(rec * 60000)
        stream.flush()
        time.sleep(2.5)
        stream.write(rec * 60000)
        stream.close()
    except BrokenPipeError:
        pass


def main():
    tmp = tempfile.mkdtemp(prefix="dcbkit-progress.")
    long_replay = [DCBKIT, "replay", "--demo", "--duration", "1000s"]
    collect = [DCBKIT, "report", "--local", "--sysfs-root", SYSFS, "--collect", "3s",
               "--out", os.path.join(tmp, "r")]
    analyze = [DCBKIT, "analyze", "-"]

    rc, got, _ = run(long_replay, True, stop_after=STOP_AFTER)
    expect_progress("replay on a terminal", got, b"replay: ")
    rc, got, _ = run(collect, True)
    if rc != 0:
        fail("report --collect: exit %d: %r" % (rc, got[-300:]))
    expect_progress("report --collect on a terminal", got, b"report: collecting, ")
    # the summary on the same terminal starts on a clean line
    if WIPE + b"REPORT ok" not in got:
        fail("report's summary does not follow a wiped line: %r" % got[-400:])
    rc, got, _ = run(analyze, True, stdin_writer=pcap_writer)
    if rc != 0:
        fail("analyze -: exit %d: %r" % (rc, got[-300:]))
    expect_progress("analyze on a terminal", got, b"analyze: ")

    rc, got, _ = run([DCBKIT, "replay", "--demo", "--duration", "50ms"], True)
    expect_none("a replay under 2 s on a terminal", got, b"replay: ")
    rc, got, _ = run(long_replay + ["-q"], True, stop_after=STOP_AFTER)
    expect_none("replay -q on a terminal", got, b"replay: ")

    rc, err, _ = run(long_replay, False, stop_after=STOP_AFTER)
    expect_none("replay with stderr a pipe", err, b"replay: ")
    rc, err, out = run(collect, False)
    if rc != 0 or b"REPORT ok" not in out:
        fail("report --collect to pipes: exit %d: %r" % (rc, err[-300:]))
    expect_none("report --collect with stderr a pipe", err, b"report: ")
    rc, err, _ = run(analyze, False, stdin_writer=pcap_writer)
    expect_none("analyze with stderr a pipe", err, b"analyze: ")
    print("ok")


main()
