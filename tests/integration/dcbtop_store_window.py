"""dcbtop --store on a large store (30 s of the demo that `dcbkit replay --demo --store` wrote: a
reading of each of its 576 series every 10 ms, 1.7 million samples): rates come from a window,
and memory stays bounded.

  window   at --at -20s and at -19.99s (10 ms apart, the issue's -60s / -59.99s) every port's
           rx_bps and tx_bps and the paused share of spine1's ports equal the increase of the
           store's counters over the refresh interval: from the last reading at or before the
           instant back to the last at or before one interval earlier (1 s, and 0.5 s under
           -d 0.5), read back with `dcbkit store export`. Before, the rates came from the last
           two readings (10 ms apart): 0 at one instant and double at the next.
  memory   the peak resident size of each dcbtop run (wait4) stays under MEMORY_MAX_MB: the
           window is read a slice of steps at a time and only one reading a step is kept
           (about 45 MB; before, the whole window's samples were held at once: 143 MB at
           --at -20s and 316 MB following the newest data here, 609 MB on 60 s of the demo,
           579 MB on the issue's 99 MB store). Following the newest data stays under it too.
  screen   in tmux at --at -20s, host1's RXb/s on the screen is the window's rate as the
           screen prints it (it showed 0).
STORE_WINDOW_TIMEOUT bounds each command (seconds)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from dcbtop_helpers import DCBKIT, DCBTOP, Tmux, fail, need_binaries  # noqa: E402

need_binaries()
TIMEOUT = float(os.environ.get("STORE_WINDOW_TIMEOUT", "300"))
MEMORY_MAX_MB = float(os.environ.get("STORE_WINDOW_MEMORY_MB", "120"))
SEC = 10**9
tmp = tempfile.mkdtemp(prefix="dcbtop-window-")


def run_measured(args):
    """stdout of a command and its peak resident size in MB."""
    out = tempfile.TemporaryFile(dir=tmp)
    err = tempfile.TemporaryFile(dir=tmp)
    p = subprocess.Popen(args, stdout=out, stderr=err)
    deadline = time.monotonic() + TIMEOUT
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            p.kill()
            fail("%s: no end within %.0f s" % (" ".join(args), TIMEOUT))
        time.sleep(0.05)
    out.seek(0)
    err.seek(0)
    if os.waitstatus_to_exitcode(status) != 0:
        fail("%s: exit %d: %s" % (" ".join(args), os.waitstatus_to_exitcode(status),
                                   err.read().decode(errors="replace")))
    return out.read().decode(), usage.ru_maxrss / 1024.0


def series_of(db, **flt):
    args = [DCBKIT, "store", "export", "--store", db, "--jsonl"]
    for k, v in flt.items():
        args += ["--" + k, str(v)]
    r = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT)
    if r.returncode != 0:
        fail("store export: " + r.stderr)
    pts = {}
    for line in r.stdout.splitlines():
        s = json.loads(line)
        pts.setdefault((s["device"], s["ifname"], s["prio"]), []).append((s["ts"], s["value"]))
    return {k: sorted(v) for k, v in pts.items()}


def window_rate(pts, at, step):
    now = max((x for x in pts if x[0] <= at), default=None)
    then = max((x for x in pts if x[0] <= at - step), default=None)
    if now is None or then is None or now == then:
        return None
    return (now[1] - then[1]) * SEC / (now[0] - then[0])


def shown(v):
    """A rate as the screen prints it (view_format)."""
    k = 0
    while abs(v) >= 999.5 and k < 5:
        v /= 1000.0
        k += 1
    text = ("%.0f" if v == 0 or abs(v) >= 9.95 else "%.1f") % v
    return text + " kMGTP"[k].strip()


def close(got, want, what):
    if got is None or abs(got - want) > 1e-9 * max(1.0, abs(want)):
        fail("%s: dcbtop %s, the store's window %s" % (what, got, want))


try:
    db = os.path.join(tmp, "demo.db")
    t0 = time.monotonic()
    r = subprocess.run([DCBKIT, "replay", "--demo", "--duration", "30s", "--store", db, "-q"],
                       capture_output=True, text=True, timeout=TIMEOUT)
    if r.returncode != 0:
        fail("replay --demo --store: " + r.stderr)
    print("store: 30 s of the demo, %.1f MB, written in %.1f s"
          % (os.path.getsize(db) / 1e6, time.monotonic() - t0))
    rx = series_of(db, metric="port.rx_bytes")
    tx = series_of(db, metric="port.tx_bytes")
    paused = series_of(db, metric="pfc.rx_pause_us", prio=3, device="spine1")
    end = max(t for pts in rx.values() for t, _ in pts)

    checked, peak = 0, 0.0
    for back, delay in (("20s", "1"), ("19.99s", "1"), ("10s", "0.5")):
        at = end - round(float(back[:-1]) * SEC)
        step = round(float(delay) * SEC)
        out, mb = run_measured([DCBTOP, "-b", "-n", "2", "-T", "json", "-d", delay, "--store",
                                db, "--at=-" + back])
        peak = max(peak, mb)
        frame = json.loads(out.splitlines()[-1])
        if frame["time"] != at:
            fail("--at -%s: the frame stands at %d, not %d" % (back, frame["time"], at))
        host1 = None
        for i in frame["interfaces"]:
            key = (i["device"], i["ifname"], -1)
            for col, pts in (("rx_bps", rx), ("tx_bps", tx)):
                if key in pts:
                    close(i[col], 8 * window_rate(pts[key], at, step),
                          "--at -%s -d %s %s/%s %s" % (back, delay, key[0], key[1], col))
                    checked += 1
            pkey = (i["device"], i["ifname"], 3)
            if pkey in paused:
                close(i["paused_pct"], min(100.0, window_rate(paused[pkey], at, step) * 1e-4),
                      "--at -%s %s/%s paused_pct" % (back, pkey[0], pkey[1]))
                checked += 1
            if i["device"] == "host1":
                host1 = i["rx_bps"]
        print("--at -%s -d %s: host1 rx %.1f Mb/s; peak resident %.0f MB"
              % (back, delay, host1 / 1e6, mb))
        if mb > MEMORY_MAX_MB:
            fail("--at -%s: %.0f MB resident, more than %.0f MB" % (back, mb, MEMORY_MAX_MB))
    if checked < 100:
        fail("only %d values compared" % checked)

    out, mb = run_measured([DCBTOP, "-b", "-n", "3", "-T", "json", "--store", db])
    frames = [json.loads(x) for x in out.splitlines()]
    if mb > MEMORY_MAX_MB or frames[-1]["time"] != end:
        fail("following: %.0f MB resident, the frame at %d (store end %d)"
             % (mb, frames[-1]["time"], end))
    print("following the newest data: peak resident %.0f MB" % mb)

    at = end - 20 * SEC
    want_rx = shown(8 * window_rate(rx[("host1", "eth0", -1)], at, SEC))
    t = Tmux("store-window", "%s --store %s --at=-20s --sort name" % (DCBTOP, db), 140, 40)
    try:
        s = t.wait_for("host1 on screen", lambda s: any(ln[2:].split()[:1] == ["+host1/eth0"]
                                                        for ln in s.splitlines()))
        row = [ln for ln in s.splitlines() if ln[2:].split()[:1] == ["+host1/eth0"]][0]
        if row[2:].split()[1] != want_rx:
            fail("the screen shows host1 RXb/s %s, the window's rate is %s:\n%s"
                 % (row[2:].split()[1], want_rx, s))
        t.keys("q")
        t.wait_text("quit", "DCBTOP-EXIT=0")
    finally:
        t.close()
    print("screen at --at -20s: host1 RXb/s %s" % want_rx)
    print("ok: %d values over the refresh interval; at most %.0f MB resident (limit %.0f)"
          % (checked, max(peak, mb), MEMORY_MAX_MB))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
