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


def report(name, tmp):
    out = os.path.join(tmp, name)
    p = run(["report", "--pcap", os.path.join(CAPTURES, name + ".pcap"), "--out", out])
    if p.returncode not in (0, 1, 2):
        fail("report --pcap %s: exit %d\n%s" % (name, p.returncode, p.stderr[-2000:]))
    with open(os.path.join(out, "report.json")) as f:
        m = json.load(f)
    dev = [d for d in m["devices"] if d["name"] == name + ".pcap"]
    if len(dev) != 1 or dev[0]["status"] != "ok":
        fail("%s: devices %s" % (name, [(d["name"], d["status"]) for d in m["devices"]]))
    return m, dev[0]["totals"]


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
    print("ok")
finally:
    shutil.rmtree(tmp, ignore_errors=True)
