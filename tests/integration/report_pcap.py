"""dcbkit report --pcap on shipped captures (fixtures/captures/analyze), as fast as possible: the
capture's pause and PFC frames and CE marks in report.json are what tshark counts in the same
file (MAC control opcodes 0x0101 and 0x0001; RoCEv2 packets with ECN CE), and what the capture's
expected analyze output says when tshark is missing:
  pfc-storm.pcap      1255 PFC frames, no PAUSE: the capture device's pause_frames;
  pause-on-pfc.pcap   2 PFC + 5 PAUSE frames: pause_frames 7, and the global-pause-with-pfc
                      finding's evidence capture.pause_frames = 5;
  roce-ce-cnp.pcap    7 CE-marked RoCE packets: the capture device's marks."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from report_store import DCBKIT, fail, run  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CAPTURES = os.path.join(ROOT, "fixtures", "captures", "analyze")


def tshark_count(path, flt):
    r = subprocess.run(["tshark", "-r", path, "-Y", flt], capture_output=True, text=True)
    if r.returncode != 0:
        fail("tshark %s: %s" % (flt, r.stderr))
    return len([line for line in r.stdout.splitlines() if line.strip()])


def expected(name):
    with open(os.path.join(CAPTURES, name + ".expected.json")) as f:
        return json.load(f)["expect"]


def counts(name):
    """(PFC frames, PAUSE frames, CE-marked RoCE packets) in the capture."""
    path = os.path.join(CAPTURES, name + ".pcap")
    if shutil.which("tshark"):
        return (tshark_count(path, "macc.opcode == 0x0101"),
                tshark_count(path, "macc.opcode == 0x0001"),
                tshark_count(path, "udp.dstport == 4791 && (ip.dsfield.ecn == 3 || "
                                   "ipv6.tclass.ecn == 3)"))
    e = expected(name)
    p = e.get("pauses", {})
    ce = sum(f["ce_packets"] for f in e.get("flows", {}).get("list", []))
    return p.get("frames_pfc", 0), p.get("frames_pause", 0), ce


def report(name, tmp, *args):
    out = os.path.join(tmp, "-".join((name,) + args))
    p = run(["report", "--pcap", os.path.join(CAPTURES, name + ".pcap"), "--out", out] +
            list(args))
    if p.returncode not in (0, 1, 2):
        fail("report --pcap %s: exit %d\n%s" % (name, p.returncode, p.stderr[-2000:]))
    with open(os.path.join(out, "report.json")) as f:
        m = json.load(f)
    dev = [d for d in m["devices"] if d["name"] == name + ".pcap"]
    if len(dev) != 1 or dev[0]["status"] != "ok":
        fail("%s: devices %s" % (name, [(d["name"], d["status"]) for d in m["devices"]]))
    return m, dev[0]["totals"]


def rules_of(m):
    return {f["rule"] for f in m["findings"]}


def pcap_options(tmp):
    """The capture options change what report reads from pfc-storm.pcap (its README): prio 3
    gets 65535 quanta every 200 us for 250 ms, 1000 quanta on prio 1 at 260 ms, then 65535
    quanta at 300 ms refreshed at 300.1 and ended by XON at 300.2 ms.
    --link-speed 25G: a quantum is 20.48 ns, so 65535 quanta outlast the 200 us gap: one
    interval of 250 ms + 1.3421568 ms, then 0.02048 ms on prio 1 and 0.2 ms: 251.5626368 ms
    paused, one interval over the 200 ms storm threshold (at the default 400G each XOFF ends
    before the next: no storm). --storm-ms 300 raises the threshold above it, 250 does not.
    --lossless 1 makes prio 3 lossy, where the capture sends PFC."""
    m, t = report("pfc-storm", tmp, "--link-speed", "25G")
    if abs(t["pause_ns"] - 251562637) > 1000 or "pause-storm" not in rules_of(m):
        fail("--link-speed 25G: pause_ns %s, findings %s; want 251562637 and pause-storm"
             % (t["pause_ns"], rules_of(m)))
    m, _ = report("pfc-storm", tmp)
    if "pause-storm" in rules_of(m) or "pfc-on-lossy-priority" in rules_of(m):
        fail("pfc-storm at the default 400G: findings %s" % rules_of(m))
    m, _ = report("pfc-storm", tmp, "--link-speed", "25G", "--storm-ms", "300")
    if "pause-storm" in rules_of(m):
        fail("--storm-ms 300: still a pause-storm over a 251.3 ms interval")
    m, _ = report("pfc-storm", tmp, "--link-speed", "25G", "--storm-ms", "250")
    if "pause-storm" not in rules_of(m):
        fail("--storm-ms 250: no pause-storm over a 251.3 ms interval")
    m, _ = report("pfc-storm", tmp, "--lossless", "1")
    if "pfc-on-lossy-priority" not in rules_of(m):
        fail("--lossless 1: PFC on prio 3 not found on a lossy priority: %s" % rules_of(m))
    print("pfc-storm: --link-speed, --storm-ms and --lossless change the pauses and findings")
    # roce-gap-retx.pcap has four QPs: with a table of one, three go untracked
    m, _ = report("roce-gap-retx", tmp)
    if "capture-qp-table-full" in rules_of(m) or "roce-rnr-nak" not in rules_of(m):
        fail("roce-gap-retx: findings %s" % rules_of(m))
    m, _ = report("roce-gap-retx", tmp, "--max-qps", "1")
    if "capture-qp-table-full" not in rules_of(m):
        fail("--max-qps 1: four QPs but no capture-qp-table-full: %s" % rules_of(m))
    print("roce-gap-retx: --max-qps 1 leaves QPs untracked, and the report says so")


tmp = tempfile.mkdtemp(prefix="dcbkit-report-pcap-")
try:
    if not os.access(DCBKIT, os.X_OK):
        fail("no dcbkit at %s" % DCBKIT)
    for name in ("pfc-storm", "pause-on-pfc"):
        pfc, pause, _ = counts(name)
        m, t = report(name, tmp)
        if t["pause_frames"] != pfc + pause:
            fail("%s: pause_frames %s in report.json, the capture holds %d PFC + %d PAUSE" %
                 (name, t["pause_frames"], pfc, pause))
        print("%s: %d pause frames (%d PFC + %d PAUSE)" % (name, t["pause_frames"], pfc, pause))
    ev = [e["value"] for f in m["findings"] if f["rule"] == "global-pause-with-pfc"
          for e in f["evidence"] if e["name"].startswith("capture.pause_frames")]
    if ev != [str(pause)]:
        fail("pause-on-pfc: global-pause-with-pfc evidence %s, the capture holds %d PAUSE" %
             (ev, pause))
    _, _, ce = counts("roce-ce-cnp")
    m, t = report("roce-ce-cnp", tmp)
    if t["marks"] != ce:
        fail("roce-ce-cnp: marks %s in report.json, the capture holds %d CE-marked RoCE packets"
             % (t["marks"], ce))
    print("roce-ce-cnp: %d CE marks" % ce)
    pcap_options(tmp)
    print("ok")
finally:
    shutil.rmtree(tmp, ignore_errors=True)
