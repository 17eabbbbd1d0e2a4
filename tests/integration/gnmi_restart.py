"""A switch that restarts mid-run: the gNMI test target (gnmi_target.py, SONiC tree, one port) is
killed and started again on the same port after an outage, and its counters begin again from
their initial values (value(epoch) = base + epoch * step, epoch counting the samples of the new
subscription). pfc.rx_pause{prio=3} of Ethernet0 is 1300 + 50 e: 50 per sample.

- `collect --gnmi --store` (one sample every 500 ms: the true rate is 50 / 0.5 s = 100/s) records
  exactly one counter_reset event for that series, from the last reading before the outage back
  to 1300 (and prints it with -T json); `store delta` across the restart gives the sum of the
  steps (50 times the intervals on each side) over the time of those intervals - the stored timestamps give the expected figure
  exactly, and it is within a few per cent of 100/s (with the restart's 1300 counted, or the
  outage's time, it would be far off);
- `dcbtop -b -T json -d 1` over the same target meanwhile: no frame shows a rate spanning the
  reset (every known pfc_rx_per_s on priority 3 is 50 per sample period, about 50/s), the port
  is stale during the outage (stale_s a number, its rates null), and the frames keep their
  one-second cadence while the target is unreachable (and with a target that never answers);
  on screen (tmux) the port's row is greyed and says "stale Ns";
- `serve --gnmi` counts the reset in dcbkit_events_total{kind="counter_reset"} and exports the
  raw counter (back at the target's initial values after the restart)."""
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from free_port import free_port  # noqa: E402
from gnmi_helpers import DCBKIT, Peer, dcbkit, fail, json_lines, need_peer  # noqa: E402

DCBTOP = os.environ.get("DCBTOP", os.path.join(os.path.dirname(DCBKIT), "dcbtop"))
BASE, STEP = 1300, 50            # SAI_PORT_STAT_PFC_3_RX_PKTS of Ethernet0: 1000 + 100*3 + 50 e
UP_S, OUTAGE_S, RUN_S = 5.0, 4.0, 24.0


class Reader(threading.Thread):
    """Reads a child's stdout lines with the monotonic time each arrived."""

    def __init__(self, proc):
        super().__init__(daemon=True)
        self.proc, self.lines = proc, []
        self.start()

    def run(self):
        for line in self.proc.stdout:
            self.lines.append((time.monotonic(), line))




def gnmi_args(address, device):
    return ["--gnmi", address, "--plaintext", "--map", "sonic", "--device", device]


def run_with_restart(port, tmp):
    """collect, dcbtop and serve against the target, which goes away after UP_S and comes back
    OUTAGE_S later on the same port. Returns (the store, dcbtop's frames with their arrival
    times, the outage in monotonic time, serve's page at the end, collect's JSON lines)."""
    address = "127.0.0.1:%d" % port
    db = os.path.join(tmp, "restart.db")
    serve_port = free_port()
    peer = Peer("--tree", "sonic", "--ports", "1", "--port", str(port))
    procs = []
    try:
        procs.append(subprocess.Popen(
            [DCBKIT, "collect"] + gnmi_args(address, "leaf1") +
            ["--interval", "500ms", "--duration", "%ds" % RUN_S, "--store", db, "-T", "json"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        printed = Reader(procs[0])
        top = subprocess.Popen([DCBTOP, "-b", "-T", "json", "-d", "1", "-n", str(int(RUN_S))] +
                               gnmi_args(address, "leaf1"),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        procs.append(top)
        serve = subprocess.Popen([DCBKIT, "serve"] + gnmi_args(address, "leaf1") +
                                 ["--interval", "500ms", "--listen", "127.0.0.1:%d" % serve_port],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        procs.append(serve)
        frames = Reader(top)
        time.sleep(UP_S)
        peer.stop()
        down = time.monotonic()
        time.sleep(OUTAGE_S)
        peer = Peer("--tree", "sonic", "--ports", "1", "--port", str(port))
        up = time.monotonic()
        for p in procs[:2]:
            p.wait(timeout=RUN_S + 30)
            if p.returncode != 0:
                fail("%s: exit %d: %s" % (p.args[:2], p.returncode, p.stderr.read()[-1500:]))
        frames.join(5)
        printed.join(5)
        metrics = scrape(serve_port)
        return db, frames.lines, (down, up), metrics, [json.loads(line) for _, line in
                                                         printed.lines]
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
                p.wait(10)
        peer.stop()


def scrape(port):
    with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=10) as r:
        return r.read().decode()


def stored_series(db):
    r = dcbkit("store", "query", "--store", db, "--device", "leaf1", "--ifname", "Ethernet0",
               "--metric", "pfc.rx_pause", "--prio", "3", "--since", "1h", "-T", "json")
    return sorted((s["ts"], s["value"]) for s in json.loads(r.stdout)["samples"])


def check_collect(db, printed):
    pts = stored_series(db)
    back = [k for k in range(1, len(pts)) if pts[k][1] < pts[k - 1][1]]
    if len(back) != 1:
        fail("the stored pfc.rx_pause went back %d times, want once (the restart): %s" %
             (len(back), [v for _, v in pts]))
    k = back[0]
    before, after = pts[:k], pts[k:]
    for side in (before, after):
        want = [BASE + STEP * e for e in range(len(side))]
        if [v for _, v in side] != want or len(side) < 3:
            fail("stored %s, the target served %s" % ([v for _, v in side], want))
    r = dcbkit("store", "events", "--store", db, "--kind", "counter_reset", "--since", "1h",
               "-T", "json")
    doc = json.loads(r.stdout)
    events = doc["events"] if isinstance(doc, dict) else doc
    mine = [e for e in events if e["ifname"] == "Ethernet0" and e["prio"] == 3 and
            e["details"].get("metric") == "pfc.rx_pause"]
    if len(mine) != 1:
        fail("counter_reset events for Ethernet0 pfc.rx_pause prio 3: %s, want one" % mine)
    d = mine[0]["details"]
    if (d["previous"], d["value"], mine[0]["ts"]) != (before[-1][1], BASE, after[0][0]):
        fail("counter_reset %s, want previous %d, value %d at %d" %
             (mine[0], before[-1][1], BASE, after[0][0]))
    # the steps on each side, over the time of the intervals without the reset
    want_delta = STEP * (len(before) - 1 + len(after) - 1)
    covered_s = ((before[-1][0] - before[0][0]) + (after[-1][0] - after[0][0])) / 1e9
    r = dcbkit("store", "delta", "--store", db, "--device", "leaf1", "--ifname", "Ethernet0",
               "--metric", "pfc.rx_pause", "--prio", "3", "--since", "1h", "-T", "json")
    s = json.loads(r.stdout)["series"][0]
    if s["delta"] != want_delta or s["resets"] != 1:
        fail("store delta %s, want delta %d and one reset" % (s, want_delta))
    if abs(s["rate_per_sec"] - want_delta / covered_s) > 1e-6 * want_delta / covered_s:
        fail("store delta rate %s/s, the steps give %s/s" % (s["rate_per_sec"],
                                                            want_delta / covered_s))
    if not 90 <= s["rate_per_sec"] <= 100.5:
        fail("store delta rate %s/s, the target serves 50 per 500 ms sample: 100/s" %
             s["rate_per_sec"])
    shown = [e for e in printed if e.get("event") == "counter_reset" and
             e.get("ifname") == "Ethernet0" and e.get("prio") == 3 and
             e["details"].get("metric") == "pfc.rx_pause"]
    if len(shown) != 1 or shown[0]["details"] != d:
        fail("collect -T json printed %s, want the stored counter_reset %s" % (shown, d))
    print("ok: collect: %d + %d samples, one counter_reset (%d -> %d); store delta %d over "
          "%.2f s = %.2f/s" % (len(before), len(after), d["previous"], d["value"], want_delta,
                               covered_s, s["rate_per_sec"]))


def prio3(iface):
    return next((p for p in iface["per_prio"] if p["prio"] == 3), None)


def check_dcbtop(lines, outage):
    down, up = outage
    frames = [(t, json.loads(line)) for t, line in lines]
    if len(frames) != int(RUN_S):
        fail("dcbtop printed %d frames, want %d" % (len(frames), int(RUN_S)))
    stale_seen, known = 0, []
    for t, f in frames:
        eth0 = [i for i in f["interfaces"] if i["ifname"] == "Ethernet0"]
        if not eth0:
            continue
        i, p = eth0[0], prio3(eth0[0])
        if i["stale_s"] is not None:
            stale_seen += 1
            rates = [v for k, v in i.items() if k.endswith(("_bps", "_per_s", "_pct"))
                     and k != "speed_bps"]
            if any(v is not None for v in rates) or (p and p["pfc_rx_per_s"] is not None):
                fail("a stale frame shows rates: %s" % i)
            if not down < t < up + 15:
                fail("stale at %.1f s, the outage was %.1f..%.1f s" % (t - down, 0, up - down))
        elif p and p["pfc_rx_per_s"] is not None:
            known.append(p["pfc_rx_per_s"])
    # one sample a second: 50/s; a rate spanning the reset would be 1300 or more over the gap
    bad = [v for v in known if not 45 <= v <= 51]
    if bad or len(known) < 6:
        fail("dcbtop pfc_rx_per_s on priority 3: %s (want about 50/s, never across the reset)"
             % known)
    if stale_seen < 1:
        fail("no frame marked Ethernet0 stale during the %.0f s outage" % OUTAGE_S)
    gaps = [b[0] - a[0] for a, b in zip(frames[1:], frames[2:])]   # the first waits for data
    if max(gaps) > 1.6:
        fail("dcbtop -d 1 frames %.2f s apart (with the target unreachable): %s" %
             (max(gaps), ["%.2f" % g for g in gaps]))
    print("ok: dcbtop: %d frames at most %.2f s apart, %d stale during the outage, rates %s" %
          (len(frames), max(gaps), stale_seen, ", ".join("%.1f" % v for v in known)))


def check_serve(metrics):
    resets = [line for line in metrics.splitlines()
              if line.startswith("dcbkit_events_total{") and 'kind="counter_reset"' in line
              and 'ifname="Ethernet0"' in line]
    total = sum(float(line.rsplit(" ", 1)[1]) for line in resets)
    if total < 1:
        fail("serve: dcbkit_events_total counts no counter_reset for Ethernet0: %s" % resets)
    raw = [line for line in metrics.splitlines()
           if line.startswith("dcbkit_pfc_rx_pause_total{") and 'ifname="Ethernet0"' in line
           and 'prio="3"' in line]
    if len(raw) != 1:
        fail("serve: dcbkit_pfc_rx_pause_total for Ethernet0 prio 3: %s" % raw)
    value = float(raw[0].rsplit(" ", 1)[1])
    if (value - BASE) % STEP or value > BASE + STEP * 2 * (RUN_S - UP_S - OUTAGE_S + 5):
        fail("serve exports %s, not a raw reading of the restarted target (1300 + 50 e)" % value)
    print("ok: serve: %d counter_reset in dcbkit_events_total, raw counter %d" % (total, value))


def check_unreachable():
    """A target that never answers (a closed port): after the first frame (which waits up to 3 s
    for data) the frames come one second apart, not in a burst nor one per retry."""
    p = subprocess.Popen([DCBTOP, "-b", "-T", "json", "-d", "1", "-n", "5"] +
                         gnmi_args("127.0.0.1:%d" % free_port(), "gone"),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t0, arrived = time.monotonic(), []
    for line in p.stdout:
        arrived.append(time.monotonic() - t0)
        if json.loads(line)["interfaces"]:
            fail("an unreachable target shows interfaces: %s" % line)
    p.wait(10)
    gaps = [b - a for a, b in zip(arrived, arrived[1:])]
    if len(arrived) != 5 or arrived[0] > 4 or not all(0.8 <= g <= 1.3 for g in gaps):
        fail("dcbtop -d 1 with an unreachable target: frames at %s s" %
             ["%.2f" % t for t in arrived])
    print("ok: unreachable target: frames at %s s" % ", ".join("%.2f" % t for t in arrived))


def check_screen():
    """On screen (tmux), the port of a target that went away is greyed (dim) and says
    "stale Ns" instead of its rates."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
    from dcbtop_helpers import Tmux
    peer = Peer("--tree", "sonic", "--ports", "1")
    t = Tmux("restart", "%s -d 0.5 %s" % (DCBTOP, " ".join(gnmi_args(peer.address, "leaf1"))),
             120, 30)
    try:
        t.wait_for("Ethernet0 with rates", lambda s: any(
            "Ethernet0" in line and "stale" not in line and re.search(r" [0-9.]+M ", line)
            for line in s.splitlines()))
        peer.stop()
        s = t.wait_for("Ethernet0 stale", lambda s: any(
            "Ethernet0" in line and re.search(r"stale [0-9]+s", line) for line in s.splitlines()))
        e = t.screen(escapes=True)
        row = next(line for line in e.splitlines() if "Ethernet0" in line)
        if not re.search(r"\x1b\[([0-9;]*;)?2[;m]", row):
            fail("the stale row is not dim: %r" % row)
        line = next(line for line in s.splitlines() if "Ethernet0" in line)
        print("ok: on screen: %s" % " ".join(line.split()))
    finally:
        t.close()
        peer.stop()


def main():
    need_peer()
    check_unreachable()
    check_screen()
    with tempfile.TemporaryDirectory() as tmp:
        db, lines, outage, metrics, printed = run_with_restart(free_port(), tmp)
        check_collect(db, printed)
        check_dcbtop(lines, outage)
        check_serve(metrics)
    print("ok")


if __name__ == "__main__":
    main()
