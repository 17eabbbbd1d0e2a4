"""dcbkit collect --gnmi against a SONiC without the PFC watchdog: the gNMI test target
(gnmi_target.py --missing Pfcwd,PORT_QOS_MAP, one port) lacks COUNTERS/Ethernet*/Pfcwd and
CONFIG_DB PORT_QOS_MAP, and rejects any Subscribe or Get naming them whole, NOT_FOUND "no such
path: 'Pfcwd'". The map (sonic, unedited) asks for both. Every other path must flow, in stream,
poll and once modes, with the target's figures (value(epoch) = base + epoch * step):

  pfc.rx_pause prio 3       1000 + 100*3 + 50 e      (SAI_PORT_STAT_PFC_3_RX_PKTS)
  port.rx_bytes             10^9 + 12500000 e        (SAI_PORT_STAT_IF_IN_OCTETS)
  queue.tx_packets queue 3  10000 + 1000*3 + 700 e   (SAI_QUEUE_STAT_PACKETS)
  queue.ecn_marked queue 3  60 + 30 e                (SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS)
  pg.headroom_watermark_bytes prio 3  8192 + 512 e   (PERIODIC_WATERMARKS ... XOFF_ROOM)

where e counts the samples sent on one call: a stream gives e = 0, 1, 2...; once asks anew
each round (e = 0 every time); poll's first round is a ONCE call (e = 0), then the POLL call
gives e = 0, 1, 2... No pfcwd.* sample may exist. Each missing path is said once on stderr with
the target's words. The config Gets bring what exists: PFC_WD (detection 200 ms, restoration
200 ms, action drop), BUFFER_PG 3 -> xoff 116736, WRED 3 min 153600, DSCP 26 -> 3, and
pfc.enabled stays unknown (PORT_QOS_MAP is missing).

Then --gnmi-path-retry: a target whose Pfcwd comes back after 2 s (--missing-for 2), asked
again every 1 s, ends with pfcwd samples says the path is served again, and
restarts the stream with it (storm_detected = 0 + e // 4 from there).

And --maps DIR: a map directory of the test's own (the sonic map under the name 'lab') is
used with --map lab; without --maps the name is unknown and collect fails naming it."""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from gnmi_helpers import ROOT, Peer, dcbkit, fail, need_peer  # noqa: E402
import store_sql  # noqa: E402

# (metric, prio, queue): (base, step)
WANT = {("pfc.rx_pause", 3, -1): (1300, 50), ("port.rx_bytes", -1, -1): (10 ** 9, 12500000),
        ("queue.tx_packets", -1, 3): (13000, 700), ("queue.ecn_marked", -1, 3): (60, 30),
        ("pg.headroom_watermark_bytes", 3, -1): (8192, 512)}
MISSING = {"COUNTERS_DB:COUNTERS/Ethernet*/Pfcwd": "NOT_FOUND: no such path: 'Pfcwd'",
           "CONFIG_DB:PORT_QOS_MAP": "NOT_FOUND: no such path: 'PORT_QOS_MAP'"}


def series(db, metric, prio, queue):
    args = ["store", "query", "--store", db, "--device", "leaf1", "--ifname", "Ethernet0",
            "--metric", metric, "--since", "1h", "-T", "json"]
    if prio >= 0:
        args += ["--prio", str(prio)]
    if queue >= 0:
        args += ["--queue", str(queue)]
    samples = json.loads(dcbkit(*args).stdout)["samples"]
    return [s["value"] for s in sorted(samples, key=lambda s: s["ts"])]


def epochs(mode, n):
    if mode == "stream":
        return list(range(n))
    if mode == "once":
        return [0] * n
    return [0] + list(range(n - 1))     # poll: the ONCE probe's round, then the POLL call


def check_counters(db, mode):
    for (metric, prio, queue), (base, step) in WANT.items():
        got = series(db, metric, prio, queue)
        want = [base + step * e for e in epochs(mode, len(got))]
        if len(got) < 3 or got != want:
            fail("%s: %s prio %d queue %d stored %s, the target served %s" %
                 (mode, metric, prio, queue, got, want))
    for metric in ("pfcwd.storm_detected", "pfcwd.tx_drop"):
        if series(db, metric, -1, -1):
            fail("%s: %s stored, but the target has no Pfcwd table" % (mode, metric))


def check_said_once(stderr, mode):
    for path, words in MISSING.items():
        lines = [ln for ln in stderr.splitlines() if path in ln]
        if len(lines) != 1 or words not in lines[0]:
            fail("%s: want the missing path %s said once with '%s', stderr:\n%s" %
                 (mode, path, words, stderr))


def check_config(db, mode):
    con = store_sql.connect(db)
    rows = dict(con.execute("SELECT ifname, config FROM config_snapshots WHERE device = 'leaf1' "
                            "AND source = 'gnmi'").fetchall())
    con.close()
    port = json.loads(rows.get("Ethernet0", "{}"))
    dev = json.loads(rows.get("", "{}"))
    sw = port.get("switch", {})
    got = (sw.get("pfcwd"), sw.get("buffer", {}).get("3", {}).get("xoff"),
           sw.get("wred", {}).get("3", {}).get("min_bytes"), dev.get("dscp2prio", {}).get("26"))
    want = ({"detect_ms": 200, "restore_ms": 200, "action": "drop"}, 116736, 153600, 3)
    if got != want or "pfc" in port:
        fail("%s: config %s / %s: want pfcwd, xoff, wred min, dscp 26 = %s and no pfc.enabled"
             % (mode, rows.get("Ethernet0"), rows.get(""), want))


def modes(tmp):
    with Peer("--tree", "sonic", "--ports", "1", "--missing", "Pfcwd,PORT_QOS_MAP") as p:
        for mode in ("stream", "poll", "once"):
            db = os.path.join(tmp, "missing-%s.db" % mode)
            r = dcbkit("collect", "--gnmi", p.address, "--plaintext", "--map", "sonic",
                       "--device", "leaf1", "--gnmi-mode", mode, "--interval", "200ms",
                       "--count", "4", "--store", db, timeout=60)
            check_said_once(r.stderr, mode)
            check_counters(db, mode)
            check_config(db, mode)
            print("ok: %s: every served counter has the target's figures, no pfcwd, the "
                  "config that exists, each missing path said once" % mode)


def path_retry(tmp):
    with Peer("--tree", "sonic", "--ports", "1", "--missing", "Pfcwd", "--missing-for", "2") as p:
        db = os.path.join(tmp, "retry.db")
        r = dcbkit("collect", "--gnmi", p.address, "--plaintext", "--map", "sonic", "--device",
                   "leaf1", "--interval", "200ms", "--duration", "5s", "--gnmi-path-retry", "1s",
                   "--config-interval", "never", "--store", db, timeout=60)
        path = "COUNTERS_DB:COUNTERS/Ethernet*/Pfcwd"
        if "path %s is not served" % path not in r.stderr or \
                "path %s is served again" % path not in r.stderr:
            fail("--gnmi-path-retry: want the path said missing, then served again:\n%s"
                 % r.stderr)
        # The target's COUNTERS/Ethernet* also covers its sub-tables, so Pfcwd may show on the
        # running stream (epoch e) before the retry finds the path and the stream restarts
        # with it (epoch 0 again): from that restart on, storm_detected is 0 + e // 4.
        got = series(db, "pfcwd.storm_detected", -1, 3)
        tail = got[got.index(0):] if 0 in got else []
        if len(tail) < 5 or tail != [e // 4 for e in range(len(tail))]:
            fail("--gnmi-path-retry: pfcwd.storm_detected queue 3 %s, want a run of "
                 "0 + e // 4 once the stream restarts with the path" % got)
    print("ok: --gnmi-path-retry 1s: Pfcwd back after 2 s, %d pfcwd samples" % len(got))


def maps_dir(tmp):
    d = os.path.join(tmp, "maps")
    os.mkdir(d)
    shutil.copy(os.path.join(ROOT, "collectors", "maps", "sonic_gnmi.json"),
                os.path.join(d, "lab_gnmi.json"))
    env = {"DCBKIT_MAPS": os.path.join(tmp, "no-maps-here")}
    with Peer("--tree", "sonic", "--ports", "1") as p:
        db = os.path.join(tmp, "maps.db")
        dcbkit("collect", "--gnmi", p.address, "--plaintext", "--map", "lab", "--maps", d,
               "--device", "leaf1", "--interval", "200ms", "--count", "4", "--store", db,
               env=env)
        got = series(db, "pfc.rx_pause", 3, -1)
        if len(got) < 3 or got != [1300 + 50 * e for e in range(len(got))]:
            fail("--maps: pfc.rx_pause prio 3 through the map 'lab': %s" % got)
        r = dcbkit("collect", "--gnmi", p.address, "--plaintext", "--map", "lab", "--device",
                   "leaf1", "--count", "1", "--store", os.path.join(tmp, "nomaps.db"), env=env,
                   check=False)
        if r.returncode == 0 or "lab" not in r.stderr:
            fail("without --maps, --map lab should fail naming the map: exit %d, %s"
                 % (r.returncode, r.stderr))
    print("ok: --maps DIR: the test's own map 'lab' gives %d samples of pfc.rx_pause" % len(got))


def main():
    need_peer()
    with tempfile.TemporaryDirectory() as tmp:
        modes(tmp)
        path_retry(tmp)
        maps_dir(tmp)
    print("ok")


if __name__ == "__main__":
    main()
