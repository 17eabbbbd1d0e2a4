"""Every knob means something: each config path `dcbkit fabric paths` lists either changes a
replay run, or is in docs/scenario.md's "Not modelled" list and draws a warning naming it.

For every path the fabric lists (whatever it lists: paths added later are covered too):
  not modelled  --set path=value prints "warning: PATH is set" on stderr, the -T json
                document's "warnings" names it, and the figures are those of the run without it
                (the engine ignores it: the list is honest);
  modelled      a small run (6 hosts at 40G, 0.5 ms: a 4:1 RoCE incast with DCQCN, a reverse
                RoCE flow that the CNPs share a port with, a lossy DSCP 0 flow beside it) with
                the path at its default and at a changed value gives different output (every
                figure, flow and host of -T json but the wall and CPU times). A path may need
                its context set first in both runs (dscp2prio.N needs traffic on DSCP N, a
                TC's knobs traffic in that TC, ...); the changed value comes from a table, else
                from a generic rule on the default (a boolean flipped, a number x2 or x0.5, ...,
                the first that loads and moves the run).
  direction     for key paths, the figure they should move, and which way (raising WRED Kmin
                lowers marks; lowering XOFF raises the switches' PFC frames; lowering the MTU
                raises drop.tx_oversize; ...).
Prints its duration; runs two simulations at a time."""
import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

DCBKIT = os.environ.get("DCBKIT", "build/cc/bin/dcbkit")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
T0 = time.monotonic()


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


FABRIC = {
    "name": "knobs-star",
    "generate": {"type": "star", "hosts": 6, "speed": "40G", "cable_m": 3},
    "defaults": {
        "trust": "dscp", "dscp2prio": {"0": 0, "26": 3, "48": 6},
        "prio2tc": [0, 1, 2, 3, 4, 5, 6, 7],
        "ets": {"tsa": ["ets", "ets", "ets", "ets", "ets", "ets", "strict", "ets"],
                "bw": [50, 0, 0, 50, 0, 0, 0, 0]},
        "pfc": {"enabled": 8}, "cnp": {"dscp": 48, "prio": 6}},
    "host_defaults": {"mtu": 1100, "nic": {"dcqcn": {"np_enabled": 8, "rp_enabled": 8}}},
    "switch_defaults": {
        "mtu": 9216,
        "switch": {
            "wred": {"3": {"min_bytes": "5KB", "max_bytes": "200KB", "max_p": 1, "ecn": True}},
            "buffer": {"0": {"size": "300KB"},
                       "3": {"xoff": "50KB", "xon": "2500", "headroom": "50KB"}},
            "pfcwd": {"detect_ms": 100, "restore_ms": 100, "action": "drop"}}}}

FLOWS = [{"src": "host%d" % i, "dst": "host6"} for i in range(1, 5)] + [
    {"src": "host6", "dst": "host1"}, {"src": "host5", "dst": "host6", "dscp": 0}]
BASE = {"name": "knobs", "fabric": "fabric.json", "duration_ms": 0.5, "seed": 1,
        "dcqcn": {"preset": "paper", "enabled": True},
        "workload": {"type": "flows", "dscp": 26, "flows": FLOWS}}
# The PFC watchdog polls every 10 ms: a pause storm from host6 on priority 3 for 15 ms of 30,
# and a flow that starts at 22 ms, through if the watchdog has restored the queue by then.
STORM = {"name": "knobs-storm", "fabric": "fabric.json", "duration_ms": 30, "seed": 1,
         "sample_interval_us": 1000,
         "workload": {"type": "flows", "dscp": 26, "flows": [
             {"src": "host1", "dst": "host6"},
             {"src": "host2", "dst": "host6", "start_us": 22000, "bytes": 100000}]},
         "faults": [{"type": "pause-storm", "host": "host6", "prio": 3, "until_ms": 15}]}

work = tempfile.mkdtemp(prefix="replay_knobs.")
atexit.register(shutil.rmtree, work, True)
for name, doc in (("fabric.json", FABRIC), ("base.json", BASE), ("storm.json", STORM)):
    with open(os.path.join(work, name), "w") as f:
        json.dump(doc, f)

TIMING = ("wall_s", "cpu_s", "events_per_cpu_s", "warnings")


def replay(scenario, sets):
    args = [DCBKIT, "replay", os.path.join(work, scenario), "-T", "json"]
    for s in sets:
        args += ["--set", s]
    r = subprocess.run(args, capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        return None, r.stderr.strip()
    doc = json.loads(r.stdout)
    return doc, r.stderr


def run_of(doc):
    return {k: v for k, v in doc.items() if k not in TIMING}


# ---- the paths, the not-modelled list and the defaults --------------------------------------
r = subprocess.run([DCBKIT, "fabric", "paths", "-T", "json"], capture_output=True, text=True,
                   check=True)
paths = [p["path"] for p in json.loads(r.stdout)["paths"]]
with open(os.path.join(REPO, "docs", "scenario.md")) as f:
    doc_text = f.read()
m = re.search(r"^## Not modelled\n(.*?)(?=^## )", doc_text, re.S | re.M)
if not m:
    fail("docs/scenario.md has no '## Not modelled' section")
not_modelled = re.findall(r"^\| `([^`]+)` \|", m.group(1), re.M)
for p in not_modelled:
    if p not in paths:
        fail("docs/scenario.md lists %s as not modelled, and fabric paths has no such path" % p)

r = subprocess.run([DCBKIT, "fabric", "check", os.path.join(work, "fabric.json"), "-c"],
                   capture_output=True, text=True, check=True)
defaults = {}                      # (device, path) -> text
device = iface = None
for line in r.stdout.splitlines():
    mm = re.match(r"^(\S+)\s+(host|switch)\s", line)
    if mm:
        device, iface = mm.group(1), None
        continue
    mm = re.match(r"^    (\S+)$", line)
    if mm:
        iface = mm.group(1)
        continue
    mm = re.match(r"^      (\S+)\s+(.*)$", line)
    if mm and (device, iface) in (("switch1", "Ethernet0"), ("host1", "eth0")):
        defaults[(device, mm.group(1))] = mm.group(2).strip()


def default_of(path):
    dev = "host1" if path.startswith("nic.") else "switch1"
    return defaults.get((dev, path), defaults.get(("host1", path)))


# ---- what each path needs around it, and what to change it to -------------------------------
def ctx_tc(n):
    """RoCE (priority 3) in TC n, scheduled beside the lossy TC 0 as TC 3 was."""
    if n in (0, 3):
        return []
    return ["prio2tc.3=%d" % n, "ets.tsa.%d=ets" % n, "ets.bw.%d=50" % n, "ets.bw.3=0"]


def ctx_wred(n):
    if n == 3:
        return []
    return (ctx_tc(n) or ["prio2tc.3=0"]) + ["switch.wred.%d.min_bytes=5000" % n, "switch.wred.%d.max_bytes=200000" % n,
                        "switch.wred.%d.max_p=1" % n, "switch.wred.%d.ecn=true" % n]


def ctx_pg(n, lossless=True):
    """RoCE on priority n (its PG), TC 3 kept; lossless there as priority 3 was, or lossy."""
    c = [] if n == 3 else ["dscp2prio.26=%d" % n, "prio2tc.%d=3" % n,
                           "switch.buffer.%d.xoff=50000" % n, "switch.buffer.%d.xon=2500" % n,
                           "switch.buffer.%d.headroom=50000" % n]
    return c + ["pfc.enabled=%d" % ((1 << n) if lossless else 0)]


MLX5 = ["dcqcn.preset=mlx5"]
WD = ["switch.pfcwd.detect_ms=5", "switch.pfcwd.restore_ms=2"]
# path pattern -> (context, changed value, scenario); \1 is the index in the path
TABLE = [
    (r"trust$", lambda n: ([], "pcp")),
    (r"dscp2prio\.(\d+)$", lambda n: (["workload.dscp=%d" % n],
                                      "0" if default_of("dscp2prio.%d" % n) == "3" else "3")),
    (r"prio2tc\.(\d)$", lambda n: ([] if n == 3 else ["dscp2prio.26=%d" % n],
                                   "0" if n == 3 else "3")),
    (r"ets\.tsa\.(\d)$", lambda n: (ctx_tc(n), "ets" if default_of("ets.tsa.%d" % n) == "strict"
                                    and not ctx_tc(n) else "strict")),
    (r"ets\.bw\.(\d)$", lambda n: (ctx_tc(n), "20")),
    (r"pfc\.enabled$", lambda n: ([], "0")),
    (r"switch\.wred\.(\d)\.min_bytes$", lambda n: (ctx_wred(n), "50000")),
    (r"switch\.wred\.(\d)\.max_bytes$", lambda n: (ctx_wred(n), "20000")),
    (r"switch\.wred\.(\d)\.max_p$", lambda n: (ctx_wred(n), "20")),
    (r"switch\.wred\.(\d)\.ecn$", lambda n: (ctx_wred(n), "false")),
    (r"switch\.buffer\.(\d)\.size$", lambda n: (ctx_pg(n, lossless=False), "10000")),
    (r"switch\.buffer\.(\d)\.xon$", lambda n: (ctx_pg(n), "25000")),
    (r"switch\.buffer\.(\d)\.xoff$", lambda n: (ctx_pg(n), "20000")),
    (r"switch\.buffer\.(\d)\.headroom$", lambda n: (ctx_pg(n), "2000")),
    (r"switch\.buffer\.(\d)\.dynamic_th$",
     lambda n: (ctx_pg(n) + ["switch.buffer.%d.xoff=400000" % n, "dcqcn.enabled=false"], "-7")),
    (r"switch\.buffer\.headroom_pool$", lambda n: ([], "1000")),
    # detected at the 10 ms poll and restored at the 20 ms one (2 ms after the storm's XON)
    (r"switch\.pfcwd\.detect_ms$", lambda n: (WD, "20", "storm.json")),
    (r"switch\.pfcwd\.restore_ms$", lambda n: (WD, "20", "storm.json")),
    (r"switch\.pfcwd\.action$", lambda n: (WD, "forward", "storm.json")),
    (r"mtu$", lambda n: ([], "1000")),
    (r"speed_bps$", lambda n: ([], "20G")),
    (r"cable_m$", lambda n: ([], "100")),
    (r"nic\.dcqcn\.np_enabled$", lambda n: ([], "0")),
    (r"nic\.dcqcn\.rp_enabled$", lambda n: ([], "0")),
    (r"nic\.dcqcn\.rai_mbps$", lambda n: ([], "400")),
    (r"nic\.dcqcn\.rhai_mbps$",
     lambda n: (["nic.dcqcn.threshold=1", "nic.dcqcn.time_reset_us=5",
                 "nic.dcqcn.byte_reset=100"], "2000")),
    (r"nic\.dcqcn\.min_rate_mbps$", lambda n: ([], "30000")),
    (r"nic\.dcqcn\.max_rate_mbps$", lambda n: ([], "5000")),
    (r"nic\.dcqcn\.rate_on_first_cnp_mbps$", lambda n: ([], "1000")),
    (r"nic\.dcqcn\.g$", lambda n: ([], "64")),
    (r"nic\.dcqcn\.initial_alpha$", lambda n: (MLX5, "256")),
    (r"nic\.dcqcn\.gd$", lambda n: ([], "12")),
    (r"nic\.dcqcn\.min_dec_fac$", lambda n: (MLX5, "10")),
    (r"nic\.dcqcn\.threshold$", lambda n: ([], "1")),
    (r"nic\.dcqcn\.byte_reset$", lambda n: ([], "100")),
    (r"nic\.dcqcn\.clamp_tgt_rate$", lambda n: ([], "false")),
    (r"nic\.dcqcn\.alpha_update_us$", lambda n: ([], "5")),
    (r"nic\.dcqcn\.rate_reduce_period_us$", lambda n: (MLX5, "50")),
    (r"nic\.dcqcn\.time_reset_us$", lambda n: ([], "10")),
    (r"nic\.dcqcn\.min_time_between_cnps_us$", lambda n: ([], "5")),
    (r"cnp\.dscp$", lambda n: ([], "26")),                 # CNPs behind the reverse data
    (r"nic\.roce_dscp$", lambda n: ([], "0")),             # the NICs' RoCE on the lossy DSCP 0
    (r"cnp\.prio$", lambda n: (["switch1/trust=pcp"], "3")),
    (r"pause\.global_tx$", lambda n: ([], "true")),
    (r"pause\.global_rx$", lambda n: (["switch1/pause.global_tx=true"], "true")),
    # the DCBX exchange and the staged faults (what their docs' examples set)
    (r"pfc\.willing$", lambda n: (["dcbx.mode=ieee", "switch1/pfc.enabled=0"], "true")),
    (r"ets\.willing$", lambda n: (["dcbx.mode=ieee", "host6/prio2tc.3=0"], "true")),
    (r"switch\.dscp_rewrite$", lambda n: ([], "0")),
    (r"dcbx\.mode$", lambda n: (["pfc.willing=true", "switch1/pfc.enabled=0"], "ieee")),
    (r"app$", lambda n: (["dcbx.mode=ieee", "host6/pfc.willing=true"], "5:26:0")),
]


def generic(path):
    """Candidates from the default: a boolean flipped, a number x2 and x0.5 (and some values
    when it is 0 or unset), an enum's usual words."""
    d = default_of(path)
    if d in ("true", "false"):
        return ["false" if d == "true" else "true"]
    out = []
    try:
        v = float(d)
        if v:
            out += ["%g" % (v * 2), "%g" % (v / 2)]
    except (TypeError, ValueError):
        pass
    return out + ["true", "false", "1000", "100", "10", "1", "26:0", "0:26", "strict", "ets"]


def plan(path):
    for pat, fn in TABLE:
        mm = re.match(pat, path)
        if mm:
            got = fn(int(mm.group(1)) if mm.groups() else None)
            return got[0], [got[1]], got[2] if len(got) > 2 else "base.json"
    return [], generic(path), "base.json"


# ---- run ------------------------------------------------------------------------------------
baselines = {}


def baseline(scenario, context):
    key = (scenario, tuple(context))
    if key not in baselines:
        doc, err = replay(scenario, context)
        if doc is None:
            fail("baseline %s with %s: %s" % (scenario, context, err))
        baselines[key] = doc
    return baselines[key]


def check(path):
    context, values, scenario = plan(path)
    base = baseline(scenario, context)
    tried = []
    for value in values:
        doc, err = replay(scenario, context + ["%s=%s" % (path, value)])
        if doc is None:
            tried.append("%s (refused: %s)" % (value, err.splitlines()[-1] if err else ""))
            continue
        if path in not_modelled:
            if "warning: %s is set" % path not in err:
                return "no warning on stderr for %s=%s: %r" % (path, value, err)
            if not any(w.startswith(path + " ") for w in doc.get("warnings", [])):
                return "no %s in the JSON warnings: %s" % (path, doc.get("warnings"))
            if run_of(doc) != run_of(base):
                return "%s is listed as not modelled but %s changes the run" % (path, value)
            return None
        if any(w.startswith(path + " ") for w in doc.get("warnings", [])):
            return "%s=%s warns though modelled: %s" % (path, value, doc["warnings"])
        if run_of(doc) != run_of(base):
            return None
        tried.append(value)
    return "%s changes nothing (context %s, tried %s) and is not in docs/scenario.md's " \
           "Not modelled list" % (path, context, tried)


# the baselines first (one per context), then every path, two simulations at a time
with ThreadPoolExecutor(max_workers=2) as pool:
    plans = {p: plan(p) for p in paths}
    for p in paths:
        baseline(plans[p][2], plans[p][0])
    results = dict(zip(paths, pool.map(check, paths)))
bad = [msg for msg in results.values() if msg]
if bad:
    fail("%d of %d paths:\n  %s" % (len(bad), len(paths), "\n  ".join(bad)))
print("%d paths: %d change the run, %d not modelled and warned (%s); %d baselines"
      % (len(paths), len(paths) - len(not_modelled), len(not_modelled),
         ", ".join(not_modelled), len(baselines)))


# ---- direction: the figure a key path should move ---------------------------------------------
def fig(sets, scenario="base.json"):
    doc, err = replay(scenario, sets)
    if doc is None:
        fail("%s: %s" % (sets, err))
    return doc["figures"]


LONGER = ["duration_ms=3"]             # DCQCN's increase needs more than 0.5 ms to show
DIRECTIONS = [
    # (what, the baseline's sets, the change, figure, +1 raises / -1 lowers)
    ("raising WRED Kmin", [], ["switch.wred.3.min_bytes=50000"], "ecn_marked", -1),
    ("lowering XOFF", [], ["switch.buffer.3.xoff=20000"], "pfc_tx_switch", +1),
    ("lowering the MTU", [], ["mtu=1000"], "drops_oversize", +1),
    ("lowering the headroom", [], ["switch.buffer.3.headroom=2000"], "drops_pg", +1),
    ("a small headroom pool", [], ["switch.buffer.headroom_pool=1000"], "drops_pg", +1),
    ("PFC off", [], ["pfc.enabled=0"], "pfc_tx_switch", -1),
    ("the NP off", [], ["nic.dcqcn.np_enabled=0"], "cnp_sent", -1),
    ("the RP off", [], ["nic.dcqcn.rp_enabled=0"], "cnp_handled", -1),
    ("a higher DCQCN rate_ai", LONGER, ["nic.dcqcn.rai_mbps=400"], "pfc_tx_switch", +1),
    ("a lower DCQCN max rate", [], ["nic.dcqcn.max_rate_mbps=5000"], "ecn_marked", -1),
    ("WRED in drop mode", [], ["switch.wred.3.ecn=false"], "drops_wred", +1),
    ("halving the speed", [], ["speed_bps=20G"], "goodput_bps", -1),
    ("802.3x sent", [], ["pause.global_tx=true"], "pause_global_tx", +1),
]
for what, base_sets, sets, key, sign in DIRECTIONS:
    before, after = fig(base_sets), fig(base_sets + sets)
    if (after[key] - before[key]) * sign <= 0:
        fail("%s (%s) should %s %s: %s -> %s" % (what, " ".join(sets),
             "raise" if sign > 0 else "lower", key, before[key], after[key]))
    print("%-24s %-16s %s -> %s" % (what, key, before[key], after[key]))

print("replay_knobs: %.1f s" % (time.monotonic() - T0))
