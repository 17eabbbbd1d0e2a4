"""dcbtop --demo shows the rates `dcbkit replay --demo --stream` gives for the same simulated
seconds, and a simulation that cannot keep pace says so instead of repeating frames.

  paced     -b -T json -d 1: every frame from 1.5 s of simulated time on ("simulated_s"), every
            port's rx_bps, tx_bps, pfc_rx_per_s, pfc_tx_per_s and paused_pct equal what the
            stream's counters give over the second before it (the refresh interval), to 1e-9.
            Before the fix they were the simulated bytes over wall-clock seconds: about half on
            an idle machine (the child blocked on a full pipe), five times lower under load.
            Then, in one run in 15 on a loaded machine, some ports of a frame differed (a few
            64-byte control frames on a host, up to 5 % of an uplink's bytes, 8 % of a PFC
            rate): the frame was made while the child was half way through writing a round, so
            it stood at the round's time with the ports not read yet giving the second half a
            refresh earlier (each such value was the stream's over that second, exactly).
            dcbtop now takes a round only once the child has sent its end (test_source_replay
            ticks the source inside rounds and scripts a child that stops in the middle of
            one).
  behind    --replay-speed 100 -d 0.05 (1000 for the text and the screen checks, where 100
            was kept on an idle machine): the simulation cannot keep that pace, so it falls behind: no two frames stand at the same time, the
            frames say how far behind ("behind_s", and the text frame's note), and the rates are
            still the stream's, over the 5 simulated seconds a refresh spans.
  screen    in tmux at -d 1, host1's RXb/s on the screen lies within what the stream gives over
            the refresh interval at the half seconds of its run (it showed about half); at
            --replay-speed 1000 the header says BEHIND and the status line why.
  help      `dcbtop --help` and `dcbkit replay --help` describe the demo with the speeds its
            fabric gives the ports (the QoS view's speed, from the scenario): hosts at 10G,
            uplinks at 20G (the help said 25G).
Waits are bounded by DCBTOP_WAIT (tmux) and DEMO_RATES_TIMEOUT (the batch runs)."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from dcbtop_helpers import DCBKIT, DCBTOP, Tmux, fail, need_binaries  # noqa: E402

need_binaries()
TIMEOUT = float(os.environ.get("DEMO_RATES_TIMEOUT", "120"))
SEC = 10**9
METRICS = ('"port.rx_bytes"', '"port.tx_bytes"', '"pfc.rx_pause"', '"pfc.tx_pause"',
           '"pfc.rx_pause_us"')


def frames(*args):
    r = subprocess.run([DCBTOP, "-b", "-T", "json", "--demo"] + list(args),
                       capture_output=True, text=True, timeout=TIMEOUT)
    if r.returncode != 0:
        fail("dcbtop %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr))
    return [json.loads(x) for x in r.stdout.splitlines()]


def stream(seconds):
    """(device, ifname, metric, prio) -> {simulated ns: counter} of the metrics compared."""
    p = subprocess.Popen([DCBKIT, "replay", "--demo", "--duration", "%gs" % seconds, "--stream"],
                         stdout=subprocess.PIPE, text=True)
    series = {}
    for line in p.stdout:
        if '"metric"' not in line or not any(m in line for m in METRICS):
            continue
        s = json.loads(line)
        series.setdefault((s["device"], s["ifname"], s["metric"], s["prio"]), {})[s["ts"]] = \
            s["value"]
    if p.wait(timeout=TIMEOUT) != 0:
        fail("replay --demo --stream: exit %d" % p.returncode)
    return series


def rate(series, key, t0, t1):
    pts = series.get(key)
    if not pts or t0 not in pts or t1 not in pts:
        return None
    return (pts[t1] - pts[t0]) * SEC / (t1 - t0)


def want(series, port, prios, t0, t1):
    dev, ifn = port
    out = {"rx_bps": rate(series, (dev, ifn, "port.rx_bytes", -1), t0, t1),
           "tx_bps": rate(series, (dev, ifn, "port.tx_bytes", -1), t0, t1)}
    for key in ("rx_bps", "tx_bps"):
        out[key] = None if out[key] is None else 8 * out[key]
    for key, metric in (("pfc_rx_per_s", "pfc.rx_pause"), ("pfc_tx_per_s", "pfc.tx_pause")):
        r = [rate(series, (dev, ifn, metric, p), t0, t1) for p in prios]
        out[key] = sum(r) if r and None not in r else None
    paused = [rate(series, (dev, ifn, "pfc.rx_pause_us", p), t0, t1) for p in prios]
    out["paused_pct"] = (min(100.0, max(paused) * 1e-4) if paused and None not in paused
                         else None)
    return out


def compare(what, got, series, window_ns, from_ns):
    checked = 0
    for f in got:
        s_ns = round(f["simulated_s"] * SEC)
        if s_ns < from_ns:
            continue
        for i in f["interfaces"]:
            exp = want(series, (i["device"], i["ifname"]), i["prios_shown"], s_ns - window_ns,
                       s_ns)
            for key, value in exp.items():
                if value is None:
                    continue
                if i[key] is None or abs(i[key] - value) > 1e-9 * max(1.0, abs(value)):
                    fail("%s: %s/%s %s at %.2f s simulated: dcbtop %s, the stream %s"
                         % (what, i["device"], i["ifname"], key, s_ns / SEC, i[key], value))
                checked += 1
    if checked < 100:
        fail("%s: only %d values compared" % (what, checked))
    return checked


# ---- paced: -d 1, rates over the simulated second before each frame ------------------------
got = frames("-n", "6", "-d", "1")
if any(f["simulated_s"] is None for f in got):
    fail("a demo frame without simulated_s: %s" % [f["simulated_s"] for f in got])
last = max(f["simulated_s"] for f in got)
series = stream(last + 0.5)
n = compare("paced", got, series, SEC, int(1.5 * SEC))
host1 = [i for i in got[-1]["interfaces"] if i["device"] == "host1"][0]
print("paced: %d values equal the stream's over the second before each frame (host1 rx %.1f "
      "Mb/s at %.1f s)" % (n, host1["rx_bps"] / 1e6, got[-1]["simulated_s"]))

# ---- behind: 100 times real time cannot be kept ----------------------------------------------
got = frames("-n", "5", "-d", "0.05", "--replay-speed", "100")
times = [f["time"] for f in got]
if any(b <= a for a, b in zip(times, times[1:])):
    fail("a frame repeats the time of the one before: %s" % times)
behind = [f["behind_s"] for f in got]
if not any(b and b > 0.1 for b in behind):
    fail("at 100x the frames never say they are behind: %s" % behind)
last = max(f["simulated_s"] for f in got)
series = stream(last + 0.5)
n = compare("behind", got, series, 5 * SEC, int(7.5 * SEC))
print("behind: frames at %s s simulated, behind %s s; %d values equal the stream's over 5 s"
      % ([f["simulated_s"] for f in got], ["%.2f" % (b or 0) for b in behind], n))

r = subprocess.run([DCBTOP, "-b", "-n", "3", "-d", "0.05", "--demo", "--replay-speed", "1000"],
                   capture_output=True, text=True, timeout=TIMEOUT)
if "note: behind real time by" not in r.stdout:
    fail("text frames at 1000x: no note that they are behind:\n" + r.stdout[-2000:])

# ---- screen: the rate the screen shows, and BEHIND -------------------------------------------
def shown_number(text):
    k = " kMGTP".index(text[-1]) if text[-1] in "kMGTP" else 0
    return float(text[:-1] if k else text) * 1000 ** k


key = ("host1", "eth0", "port.rx_bytes", -1)
windows = [8 * rate(series, key, t - SEC, t) for t in range(SEC, int(last * SEC), SEC // 2)]
low, high = min(windows), max(windows)
t = Tmux("paced", "%s --demo --sort name" % DCBTOP, 140, 40)
try:
    def host1_rx(s):
        for ln in s.splitlines():
            parts = ln[2:].split()
            if parts[:1] == ["+host1/eth0"] and parts[1][:1].isdigit():
                return parts[1]
        return None
    # three refreshes with a rate: the first may span half an interval, the later ones a whole
    seen = []
    t.wait_for("host1's rate, three refreshes", lambda s: host1_rx(s) and (
        seen.append(host1_rx(s)) or len(set(seen)) >= 3))
    got_rx = shown_number(seen[-1])
    # the screen prints 3 digits: within half a unit of the last one of the stream's range
    if not low * 0.995 <= got_rx <= high * 1.005:
        fail("the screen shows host1 RXb/s %s, the stream %.4g to %.4g over 1 s windows"
             % (seen[-1], low, high))
    t.keys("q")
    t.wait_text("quit", "DCBTOP-EXIT=0")
finally:
    t.close()
print("screen: host1 RXb/s %s (the stream: %.4g to %.4g)" % (seen[-1], low, high))

t = Tmux("behind", "%s --demo --replay-speed 1000 -d 0.2" % DCBTOP, 140, 40)
try:
    s = t.wait_for("BEHIND in the header", lambda s: "BEHIND" in (s.splitlines() or [""])[0])
    t.wait_text("the status line says why", "this machine is too busy")
    t.keys("q")
    t.wait_text("quit", "DCBTOP-EXIT=0")
finally:
    t.close()
print("screen: %s" % s.splitlines()[0])

# ---- help: the demo's speeds as the scenario has them -------------------------------------------
r = subprocess.run([DCBTOP, "-b", "-n", "1", "--demo", "--view", "qos", "-T", "json"],
                   capture_output=True, text=True, timeout=TIMEOUT)
speeds = {}
for i in json.loads(r.stdout)["interfaces"]:
    role = "host" if i["device"].startswith("host") else (
        "uplink" if i["device"].startswith("spine") or i["ifname"] in ("Ethernet4", "Ethernet5")
        else "leaf-host")
    speeds.setdefault(role, set()).update(f["here"] for f in i["fields"] if f["field"] == "speed_bps")
if speeds != {"host": {"10G"}, "leaf-host": {"10G"}, "uplink": {"20G"}}:
    fail("the demo's port speeds: %s" % speeds)
for cmd in ([DCBTOP, "--help"], [DCBKIT, "replay", "--help"]):
    text = " ".join(subprocess.run(cmd, capture_output=True, text=True).stdout.split())
    if "hosts at 10G and uplinks at 20G" not in text or "25G" in text:
        fail("%s describes the demo otherwise: %s" % (" ".join(cmd[1:]),
                                                      text[text.find("--demo"):][:300]))
print("help: hosts at 10G and uplinks at 20G, as the demo's fabric has them")
print("ok")
