"""dcbtop -b -T json over each source, checking the values against what the source holds,
worked out here from first principles:
  --local   a fixture sysfs tree swapped from t0 to t1 between two frames: each rate is the
            counter's increase between the trees (a 32-bit wrap, a reset counted from zero)
            over the time between the frames;
  --store   a store `dcbkit replay --store` wrote (a reading every 1 ms): at three instants
            (--at -D) under -d 0.01 every port's rates equal the increase of its counters over
            the refresh interval, from the last reading at or before the instant back to the
            last at or before 10 ms earlier (not between the last two readings, 1 ms apart),
            read back with `dcbkit store export`;
  --demo    both ends of every link of the demo's leaf-spine see the same bytes (one's tx is
            the other's rx, up to what is in flight), and no port goes above its link's speed
            (hosts 10G, uplinks 20G);
  --fabric  alone: no rates at all (no connection, no counters), and the QoS view of each
            interface is the file's intent (defaults, role defaults, device, interface, link)
            against its link partner's;
  --pcap    pfc-storm.pcap played at 2x: over each frame's refresh interval, the PFC frames per
            second and the share of time paused on priorities 3 and 1 are those the capture's
            own timestamps and quanta imply (read with tshark; 5000 frames/s and 100% paused
            inside the storm).
Options that change what a source gives, each against a run without it:
  --auto      on the mlx5 tree (no PFC counter: the demo, and the status says why; without
              --auto, that host) and on a copy with a per-priority pause counter that a copy of
              the maps names (that host);
  --storm-ms  pfc-storm.pcap's 250 ms pause is a storm at the default 200 ms and at 100, so the
              rules (rerun 5 s in) find pause-storm on priority 3; with --storm-ms 300 it is not;
  --window    a store whose pause_storm event lies 90 s before its newest sample: --window 2m
              reads it in (pause-storm found), 1m and the default (60 refreshes of -d 0.1) do not.
The gNMI source is checked in dcbtop_gnmi.py."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from dcbtop_helpers import DCBKIT, DCBTOP, ROOT, fail, need_binaries  # noqa: E402

need_binaries()
tmp = tempfile.mkdtemp(prefix="dcbtop-sources-")
RATE_KEYS = ("rx_bps", "tx_bps", "pfc_rx_per_s", "pfc_tx_per_s", "paused_pct",
             "ecn_marks_per_s", "cnp_sent_per_s", "cnp_handled_per_s", "out_of_sequence_per_s",
             "drops_per_s")


def top(*args, timeout=60):
    r = subprocess.run([DCBTOP, "-b", "-T", "json"] + list(args), capture_output=True,
                       text=True, timeout=timeout)
    if r.returncode != 0:
        fail("dcbtop %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr))
    return [json.loads(line) for line in r.stdout.splitlines()]


def close(got, want, rel=1e-9, what=""):
    if got is None or abs(got - want) > rel * max(1.0, abs(want)):
        fail("%s: dcbtop %s, expected %s" % (what, got, want))


# ---- --local: a sysfs tree, two readings ----------------------------------------------------
def local():
    fix = os.path.join(ROOT, "fixtures", "sysfs", "mlx5")
    net = "class/net/ens1f0/statistics"
    hw = "class/infiniband/mlx5_0/ports/1/hw_counters"

    def read(tree, rel):
        return int(open(os.path.join(fix, tree, rel)).read())

    def increase(rel, width=64):
        a, b = read("t0", rel), read("t1", rel)
        if b >= a:
            return b - a
        wrapped = (1 << width) - a + b
        return wrapped if width == 32 and wrapped <= (1 << 30) else None  # a reset: no rate

    want_counts = {"rx_bps": 8 * increase(net + "/rx_bytes"),
                   "tx_bps": 8 * increase(net + "/tx_bytes"),
                   "cnp_sent_per_s": increase(hw + "/np_cnp_sent", 32),
                   "cnp_handled_per_s": increase(hw + "/rp_cnp_handled", 32),
                   "out_of_sequence_per_s": increase(hw + "/out_of_sequence", 32),
                   "ecn_marks_per_s": increase(hw + "/np_ecn_marked_roce_packets", 32)}
    root = os.path.join(tmp, "root")
    os.symlink(os.path.join(fix, "t0"), root)
    p = subprocess.Popen([DCBTOP, "-b", "-T", "json", "-n", "2", "-d", "1", "--local",
                          "--sysfs-root", root, "--proc-root", os.path.join(tmp, "noproc"),
                          "--ifname", "ens1f0", "--no-lldp"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    frames = [json.loads(p.stdout.readline())]
    os.symlink(os.path.join(fix, "t1"), root + ".new")
    os.replace(root + ".new", root)
    line = p.stdout.readline()
    if not line:
        fail("dcbtop --local ended early: " + p.stderr.read())
    frames.append(json.loads(line))
    p.wait(timeout=10)
    dt = (frames[1]["time"] - frames[0]["time"]) / 1e9
    i = frames[1]["interfaces"][0]
    for key, count in want_counts.items():
        if count is None:
            if i[key] is not None:
                fail("--local %s: %s across a reset, want null" % (key, i[key]))
            continue
        close(i[key], count / dt, 1e-6, "--local %s (%d over %.3f s)" % (key, count, dt))
    print("local: " + ", ".join("%s %s" % (k, i[k]) for k in want_counts))


# ---- --store: what dcbkit replay --store wrote ------------------------------------------------
def store():
    db = os.path.join(tmp, "replay.db")
    scenario = os.path.join(ROOT, "fixtures", "scenarios", "slow-receiver.json")
    r = subprocess.run([DCBKIT, "replay", scenario, "--duration", "100ms", "--set",
                        "sample_interval_us=1000", "--store", db, "-q"], capture_output=True,
                       text=True, timeout=120)
    if r.returncode != 0:
        fail("replay --store: " + r.stderr)
    r = subprocess.run([DCBKIT, "store", "export", "--store", db, "--jsonl"],
                       capture_output=True, text=True, timeout=60)
    series = {}
    for line in r.stdout.splitlines():
        s = json.loads(line)
        series.setdefault((s["device"], s["ifname"], s["metric"], s["prio"], s["queue"]),
                          []).append((s["ts"], s["value"]))
    end = max(t for pts in series.values() for t, _ in pts)

    step = 10 * 1000 * 1000          # -d 0.01, longer than the store's spacing

    def rate(dev, ifname, metric, prios, at):
        """The increase per second from the last reading at or before at - step to the last at
        or before at, summed over prios (None: port-wide); None when the source has no such
        series."""
        total, found = 0.0, False
        for (d, i, m, p, _q), pts in series.items():
            if (d, i, m) != (dev, ifname, metric) or (prios is None) != (p < 0):
                continue
            if prios is not None and p not in prios:
                continue
            now = max((x for x in pts if x[0] <= at), default=None)
            then = max((x for x in pts if x[0] <= at - step), default=None)
            if now is None or then is None or now == then:
                continue
            found = True
            total += (now[1] - then[1]) / ((now[0] - then[0]) / 1e9)
        return total if found else None

    checked = 0
    for back_us in (15000, 45000, 75000):
        at = end - back_us * 1000
        frame = top("-n", "1", "-d", "0.01", "--store", db, "--at=-%dus" % back_us)[0]
        if frame["time"] != at:
            fail("--store --at -%dus: the frame stands at %d, not %d" % (back_us, frame["time"],
                                                                         at))
        for i in frame["interfaces"]:
            dev, ifn, lossless = i["device"], i["ifname"], i["prios_shown"]
            want = {"rx_bps": (rate(dev, ifn, "port.rx_bytes", None, at), 8),
                    "tx_bps": (rate(dev, ifn, "port.tx_bytes", None, at), 8),
                    "pfc_rx_per_s": (rate(dev, ifn, "pfc.rx_pause", lossless, at), 1),
                    "pfc_tx_per_s": (rate(dev, ifn, "pfc.tx_pause", lossless, at), 1),
                    "cnp_sent_per_s": (rate(dev, ifn, "cnp.sent", None, at), 1),
                    "cnp_handled_per_s": (rate(dev, ifn, "cnp.handled", None, at), 1)}
            for key, (value, scale) in want.items():
                if value is None:
                    continue
                close(i[key], value * scale, 1e-6, "--store %s/%s %s at -%dus" %
                      (dev, ifn, key, back_us))
                checked += 1
        busy = [(i["device"], i["ifname"], i["rx_bps"], i["pfc_rx_per_s"])
                for i in frame["interfaces"] if i["rx_bps"] or i["pfc_rx_per_s"]]
        print("store at -%dus: %s" % (back_us, busy))
    if checked < 50:
        fail("--store: only %d values checked" % checked)
    print("store: %d values equal the store's counter increases" % checked)


# ---- --demo: both ends of each link ---------------------------------------------------------
def demo():
    frames = top("-n", "3", "-d", "1", "--demo")
    ports = {(i["device"], i["ifname"]): i for i in frames[-1]["interfaces"]}
    # the demo's fabric: leaf-spine, 2 leaves, 2 spines, 4 hosts a leaf at 10G, uplinks at 20G
    # (rules/replay/scenario_demo.c; docs/fabric.md:
    # leaf ports Ethernet0..3 to its hosts, Ethernet4.. to the spines; spine port Ethernet(L-1)
    # to leaf L)
    links = []
    for leaf in (1, 2):
        for h in range(4):
            links.append((("host%d" % ((leaf - 1) * 4 + h + 1), "eth0"),
                          ("leaf%d" % leaf, "Ethernet%d" % h)))
        for s in (1, 2):
            links.append((("leaf%d" % leaf, "Ethernet%d" % (3 + s)),
                          ("spine%d" % s, "Ethernet%d" % (leaf - 1))))
    if sorted(ports) != sorted(e for link in links for e in link):
        fail("--demo: ports %s" % sorted(ports))
    for a, b in links:
        speed = 10e9 if a[0].startswith("host") else 20e9
        for x, y in ((a, b), (b, a)):
            tx, rx = ports[x]["tx_bps"], ports[y]["rx_bps"]
            if tx is None or rx is None:
                fail("--demo: %s/%s -> %s/%s unknown after 3 frames" % (x + y))
            if abs(tx - rx) > 0.01 * max(tx, rx) + 0.001 * speed:
                fail("--demo: %s/%s sends %.6g b/s, %s/%s receives %.6g" % (x + (tx,) + y +
                                                                           (rx,)))
            if tx > speed * 1.001:
                fail("--demo: %s/%s sends %.6g b/s on a %gG link" % (x + (tx, speed / 1e9)))
    total = sum(p["tx_bps"] for p in ports.values())
    if total < 1e8:
        fail("--demo: hardly any traffic (%.3g b/s in all)" % total)
    print("demo: %d links, both ends agree; %.3g b/s in all" % (len(links), total))
    demo_view_options(frames[-1])


def demo_view_options(plain):
    """-f keeps the ports whose device or name holds the text, --sort orders by a JSON key
    (largest first), -p shows the named priority where the default is the PFC-enabled set."""
    if {tuple(i["prios_shown"]) for i in plain["interfaces"]} != {(3,)}:
        fail("--demo: default priorities %s, the demo's PFC set is {3}"
             % {tuple(i["prios_shown"]) for i in plain["interfaces"]})
    got = top("-n", "3", "-d", "1", "--demo", "-f", "Ethernet0", "--sort", "tx_bps", "-p", "6")
    ports = got[-1]["interfaces"]
    want = {(d, "Ethernet0") for d in ("leaf1", "leaf2", "spine1", "spine2")}
    if {(i["device"], i["ifname"]) for i in ports} != want:
        fail("-f Ethernet0: ports %s" % [(i["device"], i["ifname"]) for i in ports])
    tx = [i["tx_bps"] for i in ports]
    if None in tx or tx != sorted(tx, reverse=True):
        fail("--sort tx_bps: %s" % tx)
    if [i["prios_shown"] for i in ports] != [[6]] * len(ports):
        fail("-p 6: %s" % [i["prios_shown"] for i in ports])
    print("demo: -f, --sort and -p select, order and show as asked")


# ---- --fabric alone: intent, no connection --------------------------------------------------
FABRIC = {
    "name": "sources-test",
    "defaults": {"trust": "dscp", "pfc": {"enabled": 8}, "prio2tc": [0, 0, 0, 3, 0, 0, 6, 0],
                 "cnp": {"dscp": 48, "prio": 6}},
    "host_defaults": {"mtu": 4200},
    "switch_defaults": {"mtu": 9216},
    "devices": [
        # a switch that is reachable over gNMI, at an address where nothing listens: --fabric
        # alone must not try it
        {"name": "sw1", "role": "switch",
         "reach": {"gnmi": {"target": "127.0.0.1:9", "insecure": True}},
         "interfaces": {"Ethernet1": {"pfc": {"enabled": 24}}}},
        {"name": "h1", "role": "host"},
        {"name": "h2", "role": "host", "config": {"mtu": 9000}},
    ],
    "links": [{"a": "sw1:Ethernet0", "b": "h1:eth0", "speed": "100G", "cable_m": 3},
              {"a": "sw1:Ethernet1", "b": "h2:eth0", "speed": "200G", "cable_m": 3}],
}


def intent(device, ifname):
    """The effective config, layer by layer as docs/fabric.md says, as the view prints it."""
    d = next(x for x in FABRIC["devices"] if x["name"] == device)
    cfg = json.loads(json.dumps(FABRIC["defaults"]))
    for layer in (FABRIC[d["role"] + "_defaults"], d.get("config", {}),
                  d.get("interfaces", {}).get(ifname, {})):
        for k, v in layer.items():
            if isinstance(v, dict):
                cfg.setdefault(k, {}).update(v)
            else:
                cfg[k] = v
    link = next(x for x in FABRIC["links"] if "%s:%s" % (device, ifname) in (x["a"], x["b"]))
    return {"trust": cfg["trust"], "pfc.enabled": "0x%02x" % cfg["pfc"]["enabled"],
            "prio2tc": " ".join(str(x) for x in cfg["prio2tc"]), "mtu": str(cfg["mtu"]),
            "cnp.dscp": str(cfg["cnp"]["dscp"]), "speed_bps": link["speed"]}


def fabric():
    path = os.path.join(tmp, "fabric.json")
    with open(path, "w") as f:
        json.dump(FABRIC, f)
    frames = top("-n", "2", "-d", "0.1", "--fabric", path, timeout=20)
    names = sorted((i["device"], i["ifname"]) for i in frames[-1]["interfaces"])
    want = [("h1", "eth0"), ("h2", "eth0"), ("sw1", "Ethernet0"), ("sw1", "Ethernet1")]
    if names != want:
        fail("--fabric: interfaces %s, the file has %s" % (names, want))
    for i in frames[-1]["interfaces"]:
        rates = {k: i[k] for k in RATE_KEYS if i[k] is not None}
        if rates:
            fail("--fabric alone gave %s/%s rates %s" % (i["device"], i["ifname"], rates))
    qos = top("-n", "1", "-d", "0.1", "--view", "qos", "--fabric", path, timeout=20)[0]
    if qos["view"] != "qos" or len(qos["interfaces"]) != 4:
        fail("--view qos: %s" % qos)
    peer_of = {}
    for link in FABRIC["links"]:
        peer_of[tuple(link["a"].split(":"))] = tuple(link["b"].split(":"))
        peer_of[tuple(link["b"].split(":"))] = tuple(link["a"].split(":"))
    mismatches = set()
    for i in qos["interfaces"]:
        me = (i["device"], i["ifname"])
        peer = peer_of[me]
        if i["partner"] is None or (i["partner"]["name"], i["partner"]["port"]) != peer:
            fail("--fabric %s/%s: partner %s, the links say %s" % (me + (i["partner"], peer)))
        fields = {f["field"]: f for f in i["fields"]}
        for key, value in intent(*me).items():
            if fields[key]["here"] != value:
                fail("--fabric %s/%s %s: %s, the file says %s" % (me + (key, fields[key]["here"],
                                                                       value)))
            if fields[key]["partner"] != intent(*peer)[key]:
                fail("--fabric %s/%s partner's %s: %s, the file says %s" %
                     (me + (key, fields[key]["partner"], intent(*peer)[key])))
        if fields["pfc.enabled"]["mismatch"]:
            mismatches.add(me)
    # sw1:Ethernet1 has PFC on 3 and 4 (24), h2 on 3 only: both ends see the mismatch
    if mismatches != {("sw1", "Ethernet1"), ("h2", "eth0")}:
        fail("--fabric: PFC mismatches at %s" % sorted(mismatches))
    print("fabric: 4 interfaces, no rates, intent and partners as the file says; "
          "PFC mismatch at %s" % sorted(mismatches))

    r = subprocess.run([DCBTOP, "-b", "-n", "1", "--view", "qos", "--fabric", path],
                       capture_output=True, text=True, timeout=20)
    if r.returncode != 0 or "PFC enabled    0x18" not in r.stdout or "MISMATCH" not in r.stdout:
        fail("--view qos text: exit %d\n%s%s" % (r.returncode, r.stdout, r.stderr))


# ---- --pcap: a capture played at 10x -----------------------------------------------------------
def capture_pfc(path):
    """The PFC frames of a capture as tshark reads them: (ns, sender, enabled mask, quanta[8])."""
    if not shutil.which("tshark"):
        return None
    fields = ["frame.time_epoch", "eth.src", "macc.cbfc.enbv"] + \
        ["macc.cbfc.pause_time.c%d" % p for p in range(8)]
    r = subprocess.run(["tshark", "-r", path, "-Y", "macc.opcode == 0x0101", "-T", "fields",
                        "-E", "separator=,"] + sum((["-e", f] for f in fields), []),
                       capture_output=True, text=True, timeout=60)
    out = []
    for line in r.stdout.splitlines():
        t, src, mask, *q = line.split(",")
        sec, _, frac = t.partition(".")
        out.append((int(sec) * 10**9 + int((frac + "000000000")[:9]), src, int(mask, 16),
                    [int(x or 0) for x in q]))
    return out


def pause_intervals(frames, prio, speed_bps):
    """[start, end) ns the sender paused prio: a frame with the class enabled and quanta q
    pauses until its time + q * 512 bit times (refreshing what is open); q = 0 ends it."""
    spans, start, until = [], None, None
    for t, _src, mask, q in frames:
        if not mask & (1 << prio):
            continue
        if start is not None and t >= until:          # expired before this frame
            spans.append((start, until))
            start = None
        if q[prio] == 0:
            if start is not None:
                spans.append((start, t))
            start = None
            continue
        if start is None:
            start = t
        until = t + q[prio] * 512 * 10**9 // speed_bps
    if start is not None:
        spans.append((start, until))
    return spans


def overlap(spans, a, b):
    return sum(max(0, min(e, b) - max(s, a)) for s, e in spans)


def pcap():
    """pfc-storm.pcap at 2x under -d 0.05 (a refresh spans 100 ms of capture): per frame window
    (a, b] of capture time, the PFC frames naming each priority per capture second and the share
    of (a, b] it was paused, from tshark's reading of the capture at 100G. a is the frame
    before's time, or the one before that when the frame before is less than 3/4 of a refresh
    older (a late tick on a loaded machine): rates span the refresh interval."""
    path = os.path.join(ROOT, "fixtures", "captures", "analyze", "pfc-storm.pcap")
    frames = capture_pfc(path)
    if frames is None:
        print("pcap: skipped (no tshark)")
        return
    speed = 100 * 10**9
    t0 = time.monotonic()
    window = 0.05 * 2 * 1e9
    got = top("-n", "10", "-d", "0.05", "--pcap", path, "--pcap-speed", "2", "--link-speed",
              "100G", "--lossless", "3")
    wall = time.monotonic() - t0
    first = frames[0][0]
    shift = got[0]["time"] - first           # the play starts at the first frame's time
    storm = 0
    for k in range(1, len(got)):
        prev, cur = got[k - 1], got[k]
        if cur["time"] <= prev["time"]:
            continue                           # the capture ended: frames repeat the last
        if 4 * (cur["time"] - prev["time"]) < 3 * window and k >= 2:
            prev = got[k - 2]
        a, b = prev["time"] - shift, cur["time"] - shift
        rows = cur["interfaces"]
        if len(rows) != 1 or rows[0]["prios_shown"] != [3]:
            fail("--pcap: rows %s" % rows)
        per_prio = {p["prio"]: p for p in rows[0]["per_prio"]}
        for prio in (1, 3):
            count = sum(1 for t, _s, mask, _q in frames if a < t <= b and mask & (1 << prio))
            paused = overlap(pause_intervals(frames, prio, speed), a, b)
            want_rate, want_pct = count / ((b - a) / 1e9), 100.0 * paused / (b - a)
            row = per_prio[prio]
            close(row["pfc_rx_per_s"], want_rate, 1e-9,
                  "--pcap prio %d PFC frames/s in (%d, %d] ns" % (prio, a - first, b - first))
            if row["paused_pct"] is None or abs(row["paused_pct"] - want_pct) > 0.01:
                fail("--pcap prio %d paused %s%% in (%d, %d] ns, the capture implies %.4f%%" %
                     (prio, row["paused_pct"], a - first, b - first, want_pct))
            if prio == 3:
                close(rows[0]["pfc_rx_per_s"], want_rate, 1e-9, "--pcap PFCrx (lossless set)")
                # inside the storm: one frame every 200 us, give or take one at each end
                storm += abs(row["pfc_rx_per_s"] - 5000) < 50 and row["paused_pct"] > 99.99
            print("pcap (%6.2f, %6.2f] ms prio %d: %8.2f frames/s, %7.3f%% paused "
                  "(capture: %8.2f, %7.3f%%)" % ((a - first) / 1e6, (b - first) / 1e6, prio,
                                                 row["pfc_rx_per_s"], row["paused_pct"],
                                                 want_rate, want_pct))
    if storm < 1:
        fail("--pcap: no frame inside the storm (5000 frames/s, 100% paused)")
    # 300.2 ms of capture at 2x: about 150 ms of play, not 300
    if wall > 5:
        fail("--pcap-speed 2: %.1f s wall" % wall)


# ---- the rules: --rules DIR and --profile -----------------------------------------------------
def rules():
    """dcqcn-off.json: 8 links (16 interface ends, each under the MTU bound of fixtures/rules'
    one rule), its 4 hosts without DCQCN: the catalog finds those 4, --profile pfc-only none,
    --rules fixtures/rules adds the 16."""
    path = os.path.join(ROOT, "fixtures", "fabrics", "dcqcn-off.json")

    def found(*args):
        frame = top("-n", "1", "-d", "0.1", "--fabric", path, *args, timeout=20)[0]
        return dict(Counter(f["rule"] for f in frame["findings"]))

    got = [found(), found("--profile", "pfc-only"),
           found("--rules", os.path.join(ROOT, "fixtures", "rules"))]
    want = [{"cfg-dcqcn-disabled": 4}, {},
            {"cfg-dcqcn-disabled": 4, "test-mtu-under-100000": 16}]
    if got != want:
        fail("findings as catalog, --profile pfc-only, --rules: %s, want %s" % (got, want))
    print("rules: --profile pfc-only and --rules change the findings as expected")


# ---- --replay: a scenario, its --set overrides and --replay-speed ----------------------------
def replay():
    """pause-storm.json: host9 sends XOFF on prio 3 from 1 ms, so ports see PFC; with
    --set faults=[] nothing pauses anything. --replay-speed 0.5 plays at half speed and the
    source says so."""
    scenario = os.path.join(ROOT, "fixtures", "scenarios", "pause-storm.json")

    def pfc(frame):
        return sum(i["pfc_rx_per_s"] or 0 for i in frame["interfaces"])

    storm = top("-n", "3", "-d", "0.5", "--replay", scenario)
    calm = top("-n", "3", "-d", "0.5", "--replay", scenario, "--set", "faults=[]")
    if pfc(storm[-1]) <= 0 or any(pfc(f) for f in calm):
        fail("--set faults=[]: PFC rx/s %s with the storm, %s without"
             % ([pfc(f) for f in storm], [pfc(f) for f in calm]))
    slow = top("-n", "1", "-d", "0.1", "--replay", scenario, "--replay-speed", "0.5")
    if not slow[0]["source"].endswith(" at 0.5x") or storm[0]["source"].endswith("x"):
        fail("--replay-speed 0.5: source %r, at full speed %r" % (slow[0]["source"],
                                                                 storm[0]["source"]))
    print("replay: --set faults=[] leaves no pauses; --replay-speed 0.5 plays at 0.5x")


# ---- --auto, --storm-ms, --window: each against a run without it ---------------------------
def found(frame):
    return sorted((f["rule"], f["prio"]) for f in frame["findings"])


def auto(pool):
    """The mlx5 tree has no PFC counter. A host with one: a copy of the tree whose RDMA port has
    a per-priority pause counter too, and a copy of the maps whose mlx5 RDMA map names it."""
    tree = os.path.join(ROOT, "fixtures", "sysfs", "mlx5", "t0")
    pfc_tree, maps = os.path.join(tmp, "pfc-tree"), os.path.join(tmp, "pfc-maps")
    shutil.copytree(tree, pfc_tree, symlinks=True)
    with open(os.path.join(pfc_tree, "class", "infiniband", "mlx5_0", "ports", "1",
                           "hw_counters", "rx_prio3_pause"), "w") as f:
        f.write("1000\n")
    shutil.copytree(os.path.join(ROOT, "collectors", "maps"), maps)
    rdma = os.path.join(maps, "mlx5_rdma.json")
    with open(rdma) as f:
        m = json.load(f)
    m["counters"].append({"match": "rx_prio([0-7])_pause", "metric": "pfc.rx_pause", "prio": 1})
    with open(rdma, "w") as f:
        json.dump(m, f)
    local = ["-n", "1", "-d", "0.1", "--device", "fx", "--no-lldp"]
    runs = [pool.submit(top, "--auto", "--sysfs-root", tree, *local),
            pool.submit(top, "--sysfs-root", tree, *local),
            pool.submit(top, "--auto", "--sysfs-root", pfc_tree, "--maps", maps, *local)]

    def check():
        got = [(f[0]["source"], f[0]["status"]) for f in (r.result() for r in runs)]
        if not got[0][0].startswith("replay demo") or "showing the built-in demo" not in \
                got[0][1] or got[1][0] != "local fx" or got[2][0] != "local fx" or \
                got[2][1] is not None:
            fail("--auto without PFC counters, without --auto, --auto with one: %s" % got)
        print("--auto: %s (%s) without PFC counters; this host with one" % got[0])
    return check


def storm_ms(pool):
    path = os.path.join(ROOT, "fixtures", "captures", "analyze", "pfc-storm.pcap")
    play = ["-n", "2", "-d", "5.1", "--pcap", path, "--pcap-speed", "10", "--link-speed", "100G"]
    runs = [pool.submit(top, *play, timeout=30), pool.submit(top, "--storm-ms", "100", *play,
                                                               timeout=30),
            pool.submit(top, "--storm-ms", "300", *play, timeout=30)]

    def check():
        got = [found(r.result()[-1]) for r in runs]
        if got != [[("pause-storm", 3)], [("pause-storm", 3)], []]:
            fail("findings over pfc-storm.pcap at the default --storm-ms, 100 and 300: %s" % got)
        print("--storm-ms: the 250 ms pause is a storm at 200 and 100 ms, not at 300")
    return check


def max_qps(pool):
    """roce-non-ect.pcap's three QPs in a table of one: the rules (rerun 5 s in) find the table
    full; without the option they do not."""
    path = os.path.join(ROOT, "fixtures", "captures", "analyze", "roce-non-ect.pcap")
    play = ["-n", "2", "-d", "5.1", "--pcap", path]
    runs = [pool.submit(top, *play, timeout=30), pool.submit(top, "--max-qps", "1", *play,
                                                               timeout=30)]

    def check():
        got = [[r for r, _ in found(x.result()[-1])] for x in runs]
        if "capture-qp-table-full" in got[0] or "capture-qp-table-full" not in got[1]:
            fail("findings over roce-non-ect.pcap without --max-qps and with 1: %s" % got)
        print("--max-qps 1: capture-qp-table-full; without: not")
    return check


def window(pool):
    db = os.path.join(tmp, "window.db")
    base = 1700000000 * 10**9
    lines = [{"ts": base + t * 10**9, "device": "h1", "ifname": "eth0", "metric": "pfc.rx_pause",
              "prio": 3, "queue": -1, "value": 10 * t} for t in range(120)]
    lines.append({"ts": base + 30 * 10**9, "kind": "pause_storm", "device": "h1",
                  "ifname": "eth0", "prio": 3, "details": {"paused_ns": 300000000}})
    with open(db + ".jsonl", "w") as f:
        f.write("".join(json.dumps(x) + "\n" for x in lines))
    subprocess.run([DCBKIT, "store", "import", "--store", db, db + ".jsonl"], check=True,
                   capture_output=True, timeout=60)
    store = ["-n", "2", "-d", "0.1", "--store", db]
    runs = [pool.submit(top, *store), pool.submit(top, "--window", "2m", *store),
            pool.submit(top, "--window", "1m", *store)]

    def check():
        got = [found(r.result()[-1]) for r in runs]
        if got != [[], [("pause-storm", 3)], []]:
            fail("findings with the default window, --window 2m and 1m, over a store whose "
                 "storm event is 90 s old: %s" % got)
        print("--window: the storm 90 s back is read in with 2m, not with 1m or the default")
    return check


def options():
    with ThreadPoolExecutor(9) as pool:
        checks = [auto(pool), storm_ms(pool), max_qps(pool), window(pool)]
        for check in checks:
            check()


try:
    local()
    store()
    demo()
    replay()
    rules()
    fabric()
    pcap()
    options()
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print("ok")
