"""dcbkit collect --pcap FILE --store DB: a capture's pause evidence recorded, read back with
`dcbkit store`, against what tshark reads in the same capture (fixtures/captures/analyze):

  capture.pfc_frames per priority   = PFC frames (opcode 0x0101) with that class enabled
  capture.pause_frames              = 802.3x PAUSE frames (opcode 0x0001)
  pfc_xoff events per priority      = pauses that start: a PFC frame with non-zero quanta for
                                      a class of a sender that is not paused at that time
                                      (a pause lasts quanta * 512 bit times at --link-speed; a
                                      zero-quanta frame ends it)
  pause_global events that start    = the same for 802.3x PAUSE (its events that carry quanta)

on three captures: two senders on two classes with expiries, XONs and a refresh
(pfc-classes), PAUSE on a PFC link (pause-on-pfc) and a 250 ms storm (pfc-storm).

--lossless LIST is the PFC mask meant on the capture's port: its config snapshot carries it
(none without), so diagnose over the store finds pfc-classes' pauses on priority 4 a PFC on a
lossy priority with --lossless 3, and nothing with 3,4 or without the option. --max-qps 1 leaves
all but one QP of roce-non-ect.pcap untracked (capture.untracked_packets)."""
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from store_helpers import DCBKIT, ROOT, fail, skip  # noqa: E402

LINK_BPS = 100 * 10 ** 9
CAPTURES = ("pfc-classes", "pause-on-pfc", "pfc-storm")


def tshark_frames(path):
    fields = ["frame.time_epoch", "eth.src", "macc.opcode", "macc.cbfc.enbv", "macc.pause_time"]
    fields += ["macc.cbfc.pause_time.c%d" % c for c in range(8)]
    args = ["tshark", "-r", path, "-Y", "macc", "-T", "fields"]
    for f in fields:
        args += ["-e", f]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        v = line.split("\t")
        t_ns = int(v[0].replace(".", ""))           # seconds.nanoseconds, 9 digits
        yield t_ns, v[1], int(v[2], 16), int(v[3] or "0", 16), v[4], v[5:13]


def expected(path):
    """Frames and pause starts, from tshark's fields and the pause arithmetic."""
    pfc, starts, until = Counter(), Counter(), {}
    pause_frames = 0

    def quanta(key, t_ns, q):
        end = until.get(key, -1)
        if q and t_ns >= end:
            starts[key[1]] += 1
        until[key] = t_ns + q * 512 * 10 ** 9 // LINK_BPS if q else min(end, t_ns)

    for t_ns, src, op, enbv, pause_q, class_q in tshark_frames(path):
        if op == 0x0001:
            pause_frames += 1
            quanta((src, "global"), t_ns, int(pause_q))
        elif op == 0x0101:
            for c in range(8):
                if enbv >> c & 1:
                    pfc[c] += 1
                    quanta((src, c), t_ns, int(class_q[c]))
    return pfc, pause_frames, starts


def stored(db):
    q = subprocess.run([DCBKIT, "store", "query", "--store", db, "--latest", "-T", "json"],
                       capture_output=True, text=True, check=True).stdout
    pfc, pause = Counter(), 0
    for s in json.loads(q)["samples"]:
        if s["metric"] == "capture.pfc_frames" and s["value"]:
            pfc[s["prio"]] = s["value"]
        elif s["metric"] == "capture.pause_frames":
            pause = s["value"]
    ev = subprocess.run([DCBKIT, "store", "events", "--store", db, "--since", "36500d", "-T",
                         "json"], capture_output=True, text=True, check=True).stdout
    starts = Counter()
    for e in json.loads(ev)["events"]:
        if e["kind"] == "pfc_xoff":
            starts[e["prio"]] += 1
        elif e["kind"] == "pause_global" and "quanta" in e["details"]:
            starts["global"] += 1
    return pfc, pause, starts


def lossless(tmp):
    path = os.path.join(ROOT, "fixtures", "captures", "analyze", "pfc-classes.pcap")

    def collected(tag, *extra):
        """(the capture port's config snapshots, diagnose's findings over the store)"""
        db = os.path.join(tmp, "lossless-%s.db" % tag)
        r = subprocess.run([DCBKIT, "collect", "--pcap", path, "--link-speed", "100G",
                            "--store", db, "-T", "json", "-q"] + list(extra),
                           capture_output=True, text=True)
        if r.returncode:
            fail("collect --pcap %s: exit %d: %s" % (extra, r.returncode, r.stderr))
        port = [json.loads(l)["config"] for l in r.stdout.splitlines()
                if json.loads(l).get("config_source") == "capture"]
        d = subprocess.run([DCBKIT, "diagnose", "--store", db, "-T", "json"],
                           capture_output=True, text=True)
        return port, sorted((f["rule"], f["prio"]) for f in json.loads(d.stdout)["findings"])
    got = [collected("none"), collected("3", "--lossless", "3"),
           collected("34", "--lossless", "3,4")]
    want = [([{}], []), ([{"pfc": {"enabled": 8}}], [("pfc-on-lossy-priority", 4)]),
            ([{"pfc": {"enabled": 24}}], [])]
    if got != want:
        fail("capture port config and findings without --lossless, with 3, with 3,4: %s, "
             "want %s" % (got, want))
    print("ok: --lossless 3: the port's PFC mask 8 and pfc-on-lossy-priority on 4; 3,4: mask "
          "24, none; without: no mask, none")


def max_qps():
    """roce-non-ect.pcap holds three QPs: with --max-qps 1 the packets of two are counted but
    not tracked (capture.untracked_packets 7, 0 without the option)."""
    path = os.path.join(ROOT, "fixtures", "captures", "analyze", "roce-non-ect.pcap")

    def untracked(*extra):
        r = subprocess.run([DCBKIT, "collect", "--pcap", path, "-T", "json", "-q"] + list(extra),
                           capture_output=True, text=True)
        if r.returncode:
            fail("collect --pcap %s: exit %d: %s" % (extra, r.returncode, r.stderr))
        return [json.loads(l)["value"] for l in r.stdout.splitlines()
                if json.loads(l).get("metric") == "capture.untracked_packets"][-1]
    got = (untracked(), untracked("--max-qps", "1"))
    if got != (0, 7):
        fail("capture.untracked_packets without --max-qps and with 1: %s, want (0, 7)" % (got,))
    print("ok: --max-qps 1: 7 packets of untracked QPs; without: 0")


def main():
    max_qps()
    with tempfile.TemporaryDirectory() as tmp:
        lossless(tmp)
    if subprocess.run(["which", "tshark"], capture_output=True).returncode:
        skip("tshark not installed")
    with tempfile.TemporaryDirectory() as tmp:
        for name in CAPTURES:
            path = os.path.join(ROOT, "fixtures", "captures", "analyze", name + ".pcap")
            db = os.path.join(tmp, name + ".db")
            r = subprocess.run([DCBKIT, "collect", "--pcap", path, "--link-speed", "100G",
                                "--store", db, "-q"], capture_output=True, text=True)
            if r.returncode and "not built yet" in r.stderr:
                skip("the capture source is not built in this tree yet")
            if r.returncode:
                fail("%s: collect --pcap: exit %d: %s" % (name, r.returncode, r.stderr))
            want, got = expected(path), stored(db)
            if got != want:
                fail("%s: stored PFC frames %s, PAUSE frames %d, pause starts %s; tshark says "
                     "%s, %d, %s" % (name, dict(got[0]), got[1], dict(got[2]), dict(want[0]),
                                     want[1], dict(want[2])))
            print("ok: %s: PFC frames %s, PAUSE frames %d, pause starts %s" %
                  (name, dict(want[0]), want[1], dict(want[2])))
    print("ok")


if __name__ == "__main__":
    main()
