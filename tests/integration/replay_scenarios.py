"""dcbkit replay on every scenario in fixtures/scenarios: each runs in under 5 s of wall time and
shows the signature its file names (the table in docs/scenario.md). Also: the same seed gives
byte-identical JSON output, --compare on ecn-above-xoff shows the fix (WRED below XOFF) trading
pauses for marks, and --store puts the samples and events where the rules engine reads them."""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from store_helpers import DCBKIT, ROOT, fail  # noqa: E402

SCEN = os.path.join(ROOT, "fixtures", "scenarios")
WALL_LIMIT_S = 5.0


def replay(*args):
    t0 = time.monotonic()
    p = subprocess.run([DCBKIT, "replay"] + list(args) + ["-T", "json"], capture_output=True,
                       text=True, timeout=60)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        fail("replay %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()))
    return json.loads(p.stdout), wall, p.stdout


def check(name, cond, what, d):
    if not cond:
        f = d["figures"]
        fail("%s: signature does not hold: %s (figures: %s; pg_drops %s; queue_drops %s; "
             "pfc_tx_switch %s; pfc_tx_host %s; hosts %s)"
             % (name, what, json.dumps(f), d["pg_drops"], d["queue_drops"], d["pfc_tx_switch"],
                d["pfc_tx_host"], [(h["device"], round(h["rx_util"], 3), h["pfc_tx"])
                                   for h in d["hosts"]]))


def host(d, name):
    return next(h for h in d["hosts"] if h["device"] == name)


def sig_healthy_incast(d, f):
    check("healthy-incast", f["drops_pg"] == 0 and f["drops_queue"] == 0, "no drops", d)
    check("healthy-incast", f["pause_fraction_max"] < 0.01, "pause fraction < 1%", d)
    check("healthy-incast", f["ecn_marked"] > 0, "ECN marks > 0", d)
    check("healthy-incast", f["jain"] >= 0.95, "Jain >= 0.95", d)
    check("healthy-incast", f["out_of_sequence"] == 0 and f["retransmitted"] == 0,
          "no go-back-N", d)
    check("healthy-incast", f["cnp_handled"] == f["cnp_sent"] > 0 and f["cnp_ignored"] == 0,
          "every CNP handled by the senders' RP", d)


def sig_ecn_above_xoff(d, f):
    check("ecn-above-xoff", f["pfc_tx_switch"] > 0 and f["first_pause_ns"] is not None,
          "pauses > 0", d)
    check("ecn-above-xoff", f["marks_by_first_pause"] == 0, "no marks before the first pause", d)


def sig_headroom_small(d, f):
    check("headroom-small", d["pg_drops"][3] > 0, "pg.drops > 0 on priority 3", d)
    check("headroom-small", sum(d["pg_drops"]) == d["pg_drops"][3], "drops only there", d)
    check("headroom-small", f["out_of_sequence"] > 0 and f["naks_received"] > 0 and
          f["retransmitted"] > 0, "the loss shows at the transport: out of sequence, NAKs", d)


def sig_np_disabled(d, f):
    check("np-disabled", f["ce_received"] > 0, "CE marks > 0", d)
    check("np-disabled", f["cnp_sent"] == 0, "CNPs = 0", d)


def sig_roce_lossy_queue(d, f):
    check("roce-lossy-queue", d["queue_drops"][0] > 0, "queue drops on the lossy TC 0", d)
    check("roce-lossy-queue", d["pfc_tx_switch"][3] == 0 and d["pfc_tx_host"][3] == 0,
          "no PFC on priority 3", d)


def sig_slow_receiver(d, f):
    h = host(d, "host9")
    check("slow-receiver", h["pfc_tx"] > 0, "host9 sends PFC", d)
    check("slow-receiver", h["rx_util"] < 0.5, "host9's link under-used (< 50%)", d)


def sig_pause_storm(d, f):
    detect_ns = 100 * 10**6   # switch.pfcwd.detect_ms of fabrics/star-40g.json
    check("pause-storm", f["longest_pause_ns"] > detect_ns,
          "a priority paused without a break for longer than the watchdog's detect time", d)
    check("pause-storm", d["longest_pause_prio"] == 3, "on priority 3", d)
    check("pause-storm", f["watchdog_storms"] >= 1, "the watchdog fires", d)


def sig_ecmp_polarization(d, f):
    ratio = d["uplink_max_bytes"] / d["uplink_siblings_bytes"] \
        if d["uplink_siblings_bytes"] > 0 else float("inf")
    check("ecmp-polarization", ratio >= 2.0, "one uplink >= 2x the mean of its siblings", d)
    check("ecmp-polarization", d["uplink_device"] in ("leaf1", "leaf2"), "on a leaf", d)


def sig_dcqcn_conservative(d, f):
    check("dcqcn-conservative", f["bottleneck_util"] < 0.6, "link utilisation < 60%", d)
    check("dcqcn-conservative", f["drops_pg"] == 0 and f["drops_queue"] == 0, "no drops", d)
    check("dcqcn-conservative", f["pause_fraction_max"] < 0.05 and f["pfc_tx_switch"] < 50,
          "few pauses (< 5% of the time, < 50 PFC frames)", d)


def sig_link_corruption(d, f):
    check("link-corruption", f["drops_fcs"] > 0, "FCS errors > 0", d)
    check("link-corruption", f["out_of_sequence"] > 0 and f["naks_received"] > 0,
          "out-of-sequence packets and NAKs behind them", d)
    check("link-corruption", f["drops_pg"] == 0 and f["drops_queue"] == 0, "no buffer drop", d)


def sig_ecn_bleaching(d, f):
    check("ecn-bleaching", f["ecn_marked"] > 0, "ECN marks > 0", d)
    check("ecn-bleaching", f["ce_received"] == 0 and f["cnp_sent"] == 0, "no CE seen, no CNP", d)


def sig_non_ect_senders(d, f):
    check("non-ect-senders", f["drops_wred"] > 0 and d["queue_drops"][3] == f["drops_wred"],
          "WRED drops on TC 3", d)
    check("non-ect-senders", f["ecn_marked"] == 0, "no ECN mark", d)


def sig_dcbx_willing_wrong(d, f):
    check("dcbx-willing-wrong", f["ce_received"] > 0, "CE marks received > 0", d)
    check("dcbx-willing-wrong", f["cnp_sent"] == 0, "CNPs = 0", d)


def check_retransmissions(name, d):
    """Go-back-N: a packet is retransmitted when its PSN was sent before. So no more than the
    packets sent beyond those delivered, and when every flow finished, at least one per data
    packet dropped."""
    sent = sum(fl["packets_sent"] for fl in d["flows"])
    retx = sum(fl["retransmitted"] for fl in d["flows"])
    delivered = sum(-(-fl["bytes_acked"] // 1000) for fl in d["flows"])
    check(name, retx <= sent - delivered,
          "retransmitted %d <= sent %d - delivered %d" % (retx, sent, delivered), d)
    drops = d["figures"]["drops_pg"] + d["figures"]["drops_queue"]
    if all(fl["fct_ns"] is not None for fl in d["flows"]):
        check(name, retx >= drops, "retransmitted %d >= dropped %d" % (retx, drops), d)


SIGNATURES = {
    "healthy-incast": sig_healthy_incast,
    "ecn-above-xoff": sig_ecn_above_xoff,
    "headroom-small": sig_headroom_small,
    "np-disabled": sig_np_disabled,
    "roce-lossy-queue": sig_roce_lossy_queue,
    "slow-receiver": sig_slow_receiver,
    "pause-storm": sig_pause_storm,
    "ecmp-polarization": sig_ecmp_polarization,
    "dcqcn-conservative": sig_dcqcn_conservative,
    "link-corruption": sig_link_corruption,
    "ecn-bleaching": sig_ecn_bleaching,
    "non-ect-senders": sig_non_ect_senders,
    "dcbx-willing-wrong": sig_dcbx_willing_wrong,
}

shipped = sorted(f[:-5] for f in os.listdir(SCEN) if f.endswith(".json"))
if shipped != sorted(SIGNATURES):
    fail("fixtures/scenarios has %s, the test knows %s" % (shipped, sorted(SIGNATURES)))
for name in shipped:
    path = os.path.join(SCEN, name + ".json")
    doc = json.load(open(path))
    if not doc.get("signature"):
        fail("%s: no signature in the file" % name)
    d, wall, _ = replay(path)
    if wall >= WALL_LIMIT_S:
        fail("%s: %.2f s of wall time, the limit is %.0f s" % (name, wall, WALL_LIMIT_S))
    SIGNATURES[name](d, d["figures"])
    check_retransmissions(name, d)
    print("ok %-20s %.2f s wall, %d events  (%s)" % (name, wall, d["events"], doc["signature"]))

# Determinism: the same seed twice, byte for byte (wall and cpu times aside).
def strip_times(text):
    d = json.loads(text)
    for k in ("wall_s", "cpu_s", "events_per_cpu_s"):
        d.pop(k)
    return json.dumps(d, sort_keys=True)


a = replay(os.path.join(SCEN, "healthy-incast.json"), "--seed", "7")[2]
b = replay(os.path.join(SCEN, "healthy-incast.json"), "--seed", "7")[2]
if strip_times(a) != strip_times(b):
    fail("the same seed gave different output")

# --compare: moving WRED below XOFF turns pauses into marks.
d, _, _ = replay(os.path.join(SCEN, "ecn-above-xoff.json"),
                 "--compare", "switch.wred.3.min_bytes=5KB",
                 "--compare", "switch.wred.3.max_bytes=200KB")
rows = {r["key"]: r for r in d["compare"]}
if not (rows["ecn_marked"]["baseline"] == 0 and rows["ecn_marked"]["variant"] > 0):
    fail("--compare: marks should appear with WRED below XOFF: %s" % rows["ecn_marked"])
if not rows["pfc_tx_switch"]["variant"] < rows["pfc_tx_switch"]["baseline"]:
    fail("--compare: fewer pauses expected: %s" % rows["pfc_tx_switch"])
if rows["ecn_marked"]["delta"] != rows["ecn_marked"]["variant"] - rows["ecn_marked"]["baseline"]:
    fail("--compare: delta is not variant - baseline: %s" % rows["ecn_marked"])
if d["changes"] != ["switch.wred.3.min_bytes=5KB", "switch.wred.3.max_bytes=200KB"]:
    fail("--compare: changes %s" % d["changes"])

# --store: samples, events, config and the run land in the SQLite store.
tmp = tempfile.mkdtemp(prefix="dcbkit-replay-")
try:
    db = os.path.join(tmp, "r.db")
    d, _, _ = replay(os.path.join(SCEN, "pause-storm.json"), "--store", db)
    con = sqlite3.connect(db)
    tables = {r[0] for r in con.execute("select name from sqlite_master where type='table'")}
    counts = {t: con.execute("select count(*) from %s" % t).fetchone()[0]
              for t in tables if t in ("samples", "events", "config", "runs")}
    con.close()
    p = subprocess.run([DCBKIT, "store", "info", "--store", db, "-T", "json"], capture_output=True,
                       text=True, timeout=30)
    if p.returncode != 0:
        fail("store info: %s" % p.stderr)
    info = json.loads(p.stdout)
    if not (info["samples"] > 1000 and info["events"] >= 2 and info["config_snapshots"] > 0
            and info["runs"] == 1):
        fail("--store: %s" % info)
    now = time.time() * 1e9
    if not (now - 600e9 < info["first_ns"] <= info["last_ns"] <= now + 600e9):
        fail("--store: times should be the wall clock: %s" % info)
    p = subprocess.run([DCBKIT, "store", "events", "--store", db, "--kind", "watchdog", "-T", "json"],
                       capture_output=True, text=True, timeout=30)
    if p.returncode != 0 or "storm" not in p.stdout:
        fail("--store: no watchdog event read back: %s %s" % (p.stdout[:300], p.stderr))
finally:
    for f in os.listdir(tmp):
        os.unlink(os.path.join(tmp, f))
    os.rmdir(tmp)
print("ok determinism, --compare, --store")
