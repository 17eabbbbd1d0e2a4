#!/usr/bin/python3
"""dcbkit's gNMI client against a real gRPC gNMI server (python3-grpcio, gnmi_target.py).

For both trees (SONiC COUNTERS_DB with numbers as strings, OpenConfig with uint_val leaves and
JSON_IETF containers), over cleartext h2c and over TLS with a CA made here:
  capabilities, get, subscribe ONCE, POLL (full duplex: polls on one call) and STREAM SAMPLE,
  each checked value by value against the peer's formulas, and `dcbkit collect --gnmi`
  landing canonical samples and config snapshots in the store with the right values.
A certificate from another CA is refused, and accepted with --insecure.
"""
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from gnmi_helpers import Peer, dcbkit, fail, json_lines, make_ca, need_peer  # noqa: E402
import store_sql  # noqa: E402


def leaves(r):
    return {(x["target"], x["path"]): x["value"] for x in json_lines(r.stdout)}


def values_of(r, path):
    return [x["value"] for x in json_lines(r.stdout) if x["path"] == path]


def check(cond, msg):
    if not cond:
        fail(msg)


def run_tree(tree, conn, tmp, label):
    extra = ["--ports", "2"]
    peer_args = ["--tree", tree] + extra + conn["peer"]
    with Peer(*peer_args) as p:
        base = ["-T", "json", "gnmi", "-a", p.address, "--timeout", "5s"] + conn["client"]
        caps = json.loads(dcbkit(*base, "capabilities").stdout)
        check(caps["schema"] == 1 and caps["gnmi_version"] == "0.10.0", "%s: capabilities %s" % (label, caps))
        check("json_ietf" in caps["encodings"], "%s: encodings %s" % (label, caps["encodings"]))
        if tree == "sonic":
            tgt = ["--target", "COUNTERS_DB"]
            path = "COUNTERS/Ethernet0/SAI_PORT_STAT_PFC_3_RX_PKTS"
            leaf = "/COUNTERS/Ethernet0/SAI_PORT_STAT_PFC_3_RX_PKTS"
            first, step = "1300", 50     # SONiC sends numbers as strings
            get = leaves(dcbkit(*base, *tgt, "--path", "COUNTERS/Ethernet0", "get"))
            check(get.get(("COUNTERS_DB", leaf)) == "1300", "%s: get %s" % (label, list(get.items())[:5]))
            check(get.get(("COUNTERS_DB", "/COUNTERS/Ethernet0/SAI_PORT_STAT_PFC_3_RX_PAUSE_DURATION_US")) == "500",
                  "%s: pause duration" % label)
        else:
            tgt = []
            path = "/qos/interfaces/interface[interface-id=Ethernet0]/output/queues/queue[name=3]/state/ecn-marked-pkts"
            leaf = path
            first, step = 60, 30
            get = leaves(dcbkit(*base, "--path", "/interfaces/interface[name=Ethernet4]/state/counters", "get"))
            # JSON_IETF container: RFC 7951 sends uint64 as strings
            check(get.get(("", "/interfaces/interface[name=Ethernet4]/state/counters/in-octets")) == "2000000000",
                  "%s: get %s" % (label, list(get.items())[:5]))
            get = leaves(dcbkit(*base, "--encoding", "proto", "--path", "/interfaces/interface[name=*]/state/counters/in-octets", "get"))
            check(get.get(("", "/interfaces/interface[name=Ethernet4]/state/counters/in-octets")) == 2000000000,
                  "%s: uint_val get %s" % (label, get))
            # --prefix: the target joins it to each path; the leaf comes back under its full path
            get = leaves(dcbkit(*base, "--prefix", "/interfaces", "--path",
                                "interface[name=Ethernet4]/state/counters/in-octets", "get"))
            check(get == {("", "/interfaces/interface[name=Ethernet4]/state/counters/in-octets"):
                          2000000000}, "%s: get under --prefix %s" % (label, get))
        once = values_of(dcbkit(*base, *tgt, "--path", path, "--mode", "once", "subscribe"), leaf)
        check(once == [first], "%s: ONCE %s" % (label, once))
        poll = values_of(dcbkit(*base, *tgt, "--path", path, "--mode", "poll", "--interval", "100ms",
                                "--count", "3", "subscribe"), leaf)
        want = [first if isinstance(first, int) else str(int(first) + 0)]
        want = [(int(first) + step * i) for i in range(4)]
        got = [int(v) for v in poll]
        check(got == want, "%s: POLL on one call: %s, want %s" % (label, got, want))
        stream = values_of(dcbkit(*base, *tgt, "--path", path, "--sample-interval", "100ms",
                                  "--duration", "700ms", "subscribe"), leaf)
        got = [int(v) for v in stream]
        check(len(got) >= 3 and got == [int(first) + step * i for i in range(len(got))],
              "%s: STREAM %s" % (label, got))
        # --count ends a stream: its first sync, then each further sample (no --duration)
        for n in (1, 3):
            t0 = time.monotonic()
            counted = values_of(dcbkit(*base, *tgt, "--path", path, "--sample-interval", "100ms",
                                       "--count", str(n), "subscribe", timeout=10), leaf)
            took = time.monotonic() - t0
            got = [int(v) for v in counted]
            check(got == [int(first) + step * i for i in range(n)] and took < 5,
                  "%s: STREAM --count %d: %s in %.1f s, want %d samples from %s" %
                  (label, n, got, took, n, first))
        # ON_CHANGE: the ECN counter moves every sample; dropped-pkts never does
        still = "/qos/interfaces/interface[interface-id=Ethernet0]/output/queues/queue[name=3]/state/dropped-pkts" \
            if tree == "openconfig" else "COUNTERS/Ethernet0/SAI_PORT_STAT_IF_IN_DISCARDS"
        oc = dcbkit(*base, *tgt, "--path", still, "--stream-mode", "on-change", "--sample-interval",
                    "100ms", "--duration", "600ms", "subscribe")
        check(len(json_lines(oc.stdout)) == 1, "%s: ON_CHANGE sent an unchanged value again: %s" % (label, oc.stdout))

        # collect into the store
        db = os.path.join(tmp, "%s.db" % label)
        dcbkit("collect", "--gnmi", p.address, "--map", tree, "--device", "leaf1", "--interval", "200ms",
               "--duration", "900ms", "--store", db, "-q", *conn["client"])
        con = store_sql.connect(db)
        rows = dict(((m, i, pr, q), v) for m, i, pr, q, v in con.execute(
            "SELECT s.metric, s.ifname, s.prio, s.queue, MIN(v.value) FROM samples_all v JOIN series s "
            "ON s.id = v.series GROUP BY s.id"))
        if tree == "sonic":
            want = {("pfc.rx_pause", "Ethernet0", 3, -1): 1300, ("pfc.rx_pause_us", "Ethernet4", 3, -1): 1000,
                    ("queue.ecn_marked", "Ethernet0", -1, 3): 60, ("queue.watermark_bytes", "Ethernet0", -1, 3): 40960,
                    ("pg.headroom_watermark_bytes", "Ethernet4", 3, -1): 16384, ("pfcwd.tx_drop", "Ethernet4", -1, 3): 11,
                    ("pg.drops", "Ethernet4", 3, -1): 2, ("port.rx_bytes", "Ethernet0", -1, -1): 10 ** 9}
        else:
            want = {("queue.ecn_marked", "Ethernet0", -1, 3): 60, ("port.rx_bytes", "Ethernet4", -1, -1): 2 * 10 ** 9,
                    ("queue.watermark_bytes", "Ethernet0", -1, 3): 40960, ("pause.rx_global", "Ethernet4", -1, -1): 5}
        for k, v in want.items():
            check(rows.get(k) == v, "%s: store %s = %s, want %s" % (label, k, rows.get(k), v))
        n = con.execute("SELECT COUNT(*) FROM samples_all v JOIN series s ON s.id = v.series "
                        "WHERE s.metric = 'queue.ecn_marked' AND s.ifname = 'Ethernet0' AND s.queue = 3").fetchone()[0]
        check(n >= 3, "%s: %d stream samples of queue.ecn_marked, want >= 3" % (label, n))
        cfg = {i: json.loads(j) for i, j in con.execute("SELECT ifname, config FROM config_snapshots WHERE source = 'gnmi'")}
        e0 = cfg.get("Ethernet0", {})
        wred = e0.get("switch", {}).get("wred", {}).get("3", {})
        check(wred.get("min_bytes") == 153600 and wred.get("max_bytes") == 1536000,
              "%s: WRED config of Ethernet0 queue 3: %s" % (label, e0))
        if tree == "sonic":
            check(e0.get("pfc", {}).get("enabled") == 0x18, "%s: pfc_enable 3,4: %s" % (label, e0))
            check(e0["switch"]["buffer"]["4"]["xoff"] == 116736, "%s: buffer profile of PG 4: %s" % (label, e0))
        con.close()
    print("ok: %s" % label)


def main():
    need_peer()
    with tempfile.TemporaryDirectory() as tmp:
        ca, cert, key = make_ca(tmp, "good")
        other_ca, other_cert, other_key = make_ca(tmp, "other")
        conns = {
            "plain": {"peer": [], "client": ["--plaintext"]},
            "tls": {"peer": ["--tls-cert", cert, "--tls-key", key], "client": ["--tls-ca", ca]},
        }
        for tree in ("sonic", "openconfig"):
            for name, conn in conns.items():
                run_tree(tree, conn, tmp, "%s-%s" % (tree, name))
        # a certificate our CA did not sign: refused, unless --insecure
        with Peer("--tls-cert", other_cert, "--tls-key", other_key) as p:
            r = dcbkit("gnmi", "-a", p.address, "--tls-ca", ca, "capabilities", check=False)
            check(r.returncode == 1 and "dcbkit: gnmi capabilities" in r.stderr and
                  ("certificate" in r.stderr.lower() or "ssl" in r.stderr.lower()),
                  "wrong certificate accepted or unclear: %d %s" % (r.returncode, r.stderr))
            check(r.stdout == "", "wrong certificate: output %r" % r.stdout)
            r = dcbkit("collect", "--gnmi", p.address, "--tls-ca", ca, "--map", "sonic", "--count", "1",
                       "--interval", "300ms", check=False)
            check(r.returncode == 1 and "certificate" in r.stderr.lower(), "collect took a wrong certificate: %s" % r.stderr)
            r = dcbkit("gnmi", "-a", p.address, "--insecure", "capabilities")
            check("gNMI version: 0.10.0" in r.stdout, "--insecure: %s" % r.stdout)
        # collect --fabric F --gnmi all: every device reached over gNMI, each with its transport and map
        with Peer("--tree", "sonic", "--ports", "1") as ps, \
                Peer("--tree", "openconfig", "--ports", "1", "--tls-cert", cert, "--tls-key", key) as po:
            fab = os.path.join(tmp, "fabric.json")
            with open(fab, "w") as f:
                json.dump({"name": "lab", "devices": [
                    {"name": "leaf1", "role": "switch",
                     "reach": {"gnmi": {"target": ps.address, "insecure": True, "map": "sonic"}}},
                    {"name": "spine1", "role": "switch",
                     "reach": {"gnmi": {"target": po.address, "tls": {"ca": ca}, "map": "openconfig"}}},
                    {"name": "gpu1", "role": "host", "reach": "none"}]}, f)
            db = os.path.join(tmp, "fabric.db")
            dcbkit("collect", "--fabric", fab, "--gnmi", "all", "--interval", "200ms", "--duration",
                   "800ms", "--store", db, "-q")
            con = store_sql.connect(db)
            got = dict(con.execute("SELECT s.device, COUNT(*) FROM samples_all v JOIN series s ON s.id = v.series "
                                   "GROUP BY s.device"))
            con.close()
            check(got.get("leaf1", 0) > 0 and got.get("spine1", 0) > 0 and "gpu1" not in got,
                  "collect --fabric: samples per device %s" % got)
            print("ok: collect --fabric %s" % got)
        # TLS against a cleartext peer and the reverse fail cleanly
        with Peer() as p:
            r = dcbkit("gnmi", "-a", p.address, "--tls-ca", ca, "--timeout", "2s", "capabilities", check=False)
            check(r.returncode == 1 and r.stderr.startswith("dcbkit: gnmi capabilities: "), "TLS to h2c: %s" % r.stderr)
    print("ok")


if __name__ == "__main__":
    main()
