#!/usr/bin/python3
"""dcbkit's gNMI client against targets that fail: each fault gives its documented behaviour,
never a crash, never a hang longer than the deadline.

  never answering       gnmi get/subscribe: "deadline exceeded", exit 1, within --timeout
  closing mid-stream    exit 1, "the stream ended inside a message"
  malformed prefix      exit 1, "malformed gRPC message prefix"
  64 MiB message        exit 1, refused from its prefix ("over the ... limit")
  UNAUTHENTICATED, RESOURCE_EXHAUSTED, UNIMPLEMENTED: exit 1 with the gRPC status
  UNIMPLEMENTED Subscribe in collect: falls back to Get polling; samples still land
  a target that goes away: collect reconnects with backoff and writes a source_gap event
  covering the outage
"""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from free_port import free_port  # noqa: E402
from gnmi_helpers import DCBKIT, Peer, dcbkit, fail, need_h2, need_peer  # noqa: E402
import store_sql  # noqa: E402

TIMEOUT_S = 1.0   # the client deadline the tests give; a hang must end within it plus slack


def check(cond, msg):
    if not cond:
        fail(msg)


def timed(*args):
    t = time.monotonic()
    r = dcbkit(*args, check=False, timeout=30)
    return r, time.monotonic() - t


def expect_error(label, r, elapsed, words, limit):
    check(r.returncode == 1, "%s: exit %d, want 1 (%s)" % (label, r.returncode, r.stderr))
    check(r.stderr.startswith("dcbkit: gnmi"), "%s: not a one-line dcbkit error: %r" % (label, r.stderr))
    for w in words:
        check(w in r.stderr, "%s: %r does not say %r" % (label, r.stderr, w))
    check(elapsed < limit, "%s: took %.2f s, deadline %.2f s" % (label, elapsed, limit))
    check("Traceback" not in r.stderr and "AddressSanitizer" not in r.stderr, "%s: crash: %s" % (label, r.stderr))
    print("ok: %s (%.2f s)" % (label, elapsed))




def main():
    need_peer()
    need_h2()
    sonic = ["--plaintext", "--timeout", "%gs" % TIMEOUT_S, "--target", "COUNTERS_DB"]
    path = ["--path", "COUNTERS/Ethernet0"]
    with Peer("--fault", "hang") as p:
        r, t = timed("gnmi", "-a", p.address, *sonic, *path, "get")
        expect_error("hang: get", r, t, ["deadline exceeded"], TIMEOUT_S + 1.5)
        r, t = timed("gnmi", "-a", p.address, *sonic, *path, "--mode", "poll", "subscribe")
        expect_error("hang: subscribe poll", r, t, ["deadline exceeded"], TIMEOUT_S + 1.5)
        r, t = timed("gnmi", "-a", p.address, *sonic, *path, "--sample-interval", "200ms", "subscribe")
        expect_error("hang: subscribe stream", r, t, ["deadline exceeded"], TIMEOUT_S + 1.5)
    with Peer("--fault", "close-mid-stream") as p:
        r, t = timed("gnmi", "-a", p.address, *sonic, *path, "subscribe")
        expect_error("close mid-stream", r, t, ["ended"], TIMEOUT_S + 1.5)
    with Peer("--fault", "malformed-prefix") as p:
        r, t = timed("gnmi", "-a", p.address, *sonic, *path, "get")
        expect_error("malformed prefix", r, t, ["malformed gRPC message prefix"], TIMEOUT_S + 1.5)
    with Peer("--fault", "huge") as p:
        r, t = timed("gnmi", "-a", p.address, *sonic, "--timeout", "10s", *path, "get")
        expect_error("64 MiB message", r, t, ["over the 16777216-byte limit"], 10)
        r, t = timed("gnmi", "-a", p.address, *sonic, "--timeout", "10s", "--max-message", "128MiB", *path, "get")
        check(r.returncode == 0 and "aaaa" in r.stdout, "--max-message 128MiB: %s" % r.stderr)
        print("ok: 64 MiB message taken with --max-message 128MiB (%.2f s)" % t)
    for fault, status in (("unauthenticated", "UNAUTHENTICATED"), ("resource-exhausted", "RESOURCE_EXHAUSTED"),
                          ("unimplemented", "UNIMPLEMENTED")):
        with Peer("--fault", fault) as p:
            r, t = timed("gnmi", "-a", p.address, *sonic, *path, "subscribe")
            expect_error(fault, r, t, [status], TIMEOUT_S + 1.5)

    with tempfile.TemporaryDirectory() as tmp:
        # UNIMPLEMENTED Subscribe: collect polls with Get and still stores samples
        db = os.path.join(tmp, "fallback.db")
        with Peer("--fault", "unimplemented", "--ports", "1") as p:
            r = dcbkit("collect", "--gnmi", p.address, "--plaintext", "--map", "sonic", "--interval", "200ms",
                       "--duration", "1s", "--store", db, "-q", check=False)
            check(r.returncode == 0, "fallback: exit %d: %s" % (r.returncode, r.stderr))
            con = store_sql.connect(db)
            vals = [v for (v,) in con.execute(
                "SELECT v.value FROM samples_all v JOIN series s ON s.id = v.series WHERE s.metric='pfc.rx_pause' "
                "AND s.prio=3 AND s.ifname='Ethernet0' ORDER BY v.ts")]
            con.close()
            check(len(vals) >= 3 and vals[0] == 1300, "fallback: Get polls stored %s" % vals)
            print("ok: UNIMPLEMENTED Subscribe -> Get polling, %d rounds stored" % len(vals))

        # the target goes away and comes back on the same port: reconnect and a source_gap event
        port = free_port()
        db = os.path.join(tmp, "gap.db")
        peer = Peer("--port", str(port), "--ports", "1")
        col = subprocess.Popen([DCBKIT, "collect", "--gnmi", "127.0.0.1:%d" % port, "--plaintext", "--map", "sonic",
                                "--interval", "200ms", "--timeout", "1s", "--duration", "30s", "--store", db],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            time.sleep(1.2)
            peer.stop()
            down = time.time()
            time.sleep(1.5)
            peer = Peer("--port", str(port), "--ports", "1")
            up = time.time()
            # wait (bounded) for the reconnect's gap event, then stop collect as Ctrl-C would
            deadline = time.time() + 15
            while time.time() < deadline:
                time.sleep(0.5)
                try:
                    c = sqlite3.connect(db)
                    n = c.execute("SELECT COUNT(*) FROM events WHERE kind='source_gap'").fetchone()[0]
                    c.close()
                except sqlite3.Error:
                    n = 0
                if n:
                    time.sleep(1.0)   # and a few samples after it
                    break
            col.send_signal(signal.SIGINT)
            _, err = col.communicate(timeout=20)
        finally:
            peer.stop()
            if col.poll() is None:
                col.kill()
        check(col.returncode == 0, "reconnect: collect exit %d: %s" % (col.returncode, err))
        check("retrying" in err, "reconnect: no retry reported: %s" % err)
        con = store_sql.connect(db)
        gaps = [(ts, json.loads(d)) for ts, d in con.execute(
            "SELECT ts, details FROM events WHERE kind='source_gap' AND device='127.0.0.1:%d'" % port)]
        after = con.execute("SELECT COUNT(*) FROM samples_all v JOIN series s ON s.id = v.series WHERE v.ts > ?",
                            (int(up * 1e9),)).fetchone()[0]
        con.close()
        check(len(gaps) >= 1, "reconnect: no source_gap event")
        g = gaps[0][1]
        check(g["from_ns"] <= down * 1e9 + 0.5e9 and g["to_ns"] >= up * 1e9 - 0.5e9 and g["seconds"] >= 1.0,
              "reconnect: the gap %s does not cover the outage %.3f..%.3f" % (g, down, up))
        check(after > 0, "reconnect: no samples after the target came back")
        print("ok: reconnect after %.1f s outage, source_gap %.3f s, %d samples after" % (up - down, g["seconds"], after))
    print("ok")


if __name__ == "__main__":
    main()
