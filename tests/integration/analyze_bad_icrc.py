"""dcbkit analyze and diagnose --pcap on a capture with bad-ICRC frames, written here with scapy.

One RC data flow 10.0.0.1 -> 10.0.0.2 QP 0x22 (SEND ONLY, PSN 0..29, every third packet CE) and
its ACK flow back 10.0.0.2 -> 10.0.0.1 QP 0x11 (ACKs, PSN sequence NAKs, RNR NAKs). A link
corrupts some frames: a CE-marked copy of three data packets (each followed by the good one, as
the sender's retransmission would be), two NAKs and one RNR NAK arrive with a wrong ICRC.

The expected figures are worked out from the frames as tshark dissects them (ECN, opcode, AETH
syndrome, PSN) and from the ICRC this script computes itself (CRC-32 of the masked IP packet,
fixtures/captures/make_captures.py); tshark 4.0 does not verify the ICRC, but shows the field,
which must be the four bytes the script checked, on every frame. dcbkit decode must agree on every
frame's ICRC status. Then analyze must count the bad frames per flow and in the flows summary
and keep them out of CE, NAK, RNR and the PSN stream (a bad copy followed by its good packet
would otherwise be a duplicate), and analyze and diagnose --pcap must both name roce-corrupt-link
with the number of corrupt packets."""
import json
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from store_helpers import DCBKIT, ROOT, fail, skip  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "fixtures", "captures"))
try:
    from make_captures import aeth, ether, icrc  # noqa: E402
    from scapy.all import IP, UDP, Raw, raw  # noqa: E402
    from scapy.contrib.roce import BTH  # noqa: E402
except ImportError as e:
    skip("scapy: %s" % e)

TSHARK = "/usr/bin/tshark"
A, B = "10.0.0.1", "10.0.0.2"
T0_NS = 1700000000 * 10**9


def roce(src, dst, opcode, dqpn, psn, ecn=2, ext=b"", payload=b"", bad=False):
    pad = (4 - len(payload) % 4) % 4
    bth = raw(BTH(opcode=opcode, padcount=pad, dqpn=dqpn, psn=psn, ackreq=0, icrc=0))[:-4]
    body = bth + ext + payload + b"\0" * pad + b"\0\0\0\0"
    packet = bytearray(raw(IP(src=src, dst=dst, tos=26 << 2 | ecn, ttl=64, id=1, flags="DF") /
                           UDP(sport=49152, dport=4791, chksum=0) / Raw(body)))
    crc = bytearray(icrc(bytes(packet)))
    if bad:
        crc[1] ^= 0x81
    packet[-4:] = crc
    return ether("02:00:00:00:00:02", 0x0800, bytes(packet))


def frames():
    out = []
    for psn in range(30):
        ce = 3 if psn % 3 == 0 else 2
        if psn in (3, 12, 21):       # the link corrupts a CE-marked copy; the good one follows
            out.append(roce(A, B, 0x04, 0x22, psn, ecn=3, payload=b"x" * 64, bad=True))
        out.append(roce(A, B, 0x04, 0x22, psn, ecn=ce, payload=b"x" * 64))
        if psn % 3 == 2:
            out.append(roce(B, A, 0x11, 0x11, psn, ext=aeth(0x1f, psn)))          # ACK
    for i, (syndrome, bad) in enumerate([(0x60, False), (0x60, True), (0x60, False),
                                         (0x60, True), (0x60, False), (0x21, False),
                                         (0x21, True), (0x22, False)]):
        out.append(roce(B, A, 0x11, 0x11, 29, ext=aeth(syndrome, 100 + i), bad=bad))
    return out


def write_pcap(path, data):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i, frame in enumerate(data):
            ns = T0_NS + i * 10000
            f.write(struct.pack("<IIII", ns // 10**9, ns % 10**9 // 1000, len(frame), len(frame)))
            f.write(frame)


def run(*args):
    r = subprocess.run(args, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


if not os.access(TSHARK, os.X_OK):
    skip("tshark not installed")
tmp = tempfile.mkdtemp(prefix="dcbkit-icrc-")
cap = os.path.join(tmp, "bad-icrc.pcap")
data = frames()
write_pcap(cap, data)

# the ICRC status of every frame, worked out here; tshark's dissection of the rest
status = []
for frame in data:
    packet = frame[14:]
    status.append(packet[-4:] == icrc(packet))
rc, out, err = run(TSHARK, "-r", cap, "-T", "fields", "-E", "separator=,", "-e", "ip.src",
                   "-e", "ip.dsfield.ecn", "-e", "infiniband.bth.opcode", "-e",
                   "infiniband.bth.psn", "-e", "infiniband.aeth.syndrome", "-e",
                   "infiniband.invariant.crc")
if rc != 0:
    fail("tshark: %s" % err)
rows = [line.split(",") for line in out.splitlines()]
if len(rows) != len(data):
    fail("tshark saw %d frames, the script wrote %d" % (len(rows), len(data)))
shown = 0
for i, (src, ecn, opcode, psn, syndrome, crc) in enumerate(rows):
    if crc:
        shown += 1
        if int(crc, 16) != int.from_bytes(data[i][-4:], "big"):
            fail("frame %d: tshark's ICRC %s is not the one on the wire" % (i + 1, crc))
if shown != len(data):
    fail("tshark showed the ICRC of %d frames of %d" % (shown, len(data)))

rc, out, err = run(DCBKIT, "decode", "-r", cap, "-T", "json")
decoded = [json.loads(line).get("icrc_ok") for line in out.splitlines()]
if decoded != status:
    fail("decode icrc_ok %s, expected %s" % (decoded, status))


def count(pred):
    return sum(1 for r, ok in zip(rows, status) if pred(r, ok))


data_flow = lambda r: r[0] == A  # noqa: E731
want_data = {
    "bad_icrc": count(lambda r, ok: data_flow(r) and not ok),
    "ce_packets": count(lambda r, ok: data_flow(r) and ok and r[1] == "3"),
    "data_packets": count(lambda r, ok: data_flow(r) and ok),
    "duplicates": 0, "psn_gaps": 0, "naks": 0, "rnr_naks": 0,
}
syn = lambda r: int(r[4], 0) if r[4] else None  # noqa: E731
want_acks = {
    "bad_icrc": count(lambda r, ok: not data_flow(r) and not ok),
    "acks": count(lambda r, ok: ok and syn(r) is not None and syn(r) >> 5 == 0),
    "naks": count(lambda r, ok: ok and syn(r) is not None and syn(r) >> 5 == 3),
    "rnr_naks": count(lambda r, ok: ok and syn(r) is not None and syn(r) >> 5 == 1),
    "ce_packets": 0,
}
total_bad = status.count(False)
print("capture: %d frames, %d bad ICRC; data flow %s; ACK flow %s" %
      (len(data), total_bad, want_data, want_acks))
if (want_data["bad_icrc"], want_acks["bad_icrc"], want_acks["naks"], want_acks["rnr_naks"]) != \
        (3, 3, 3, 2):
    fail("the capture is not what this test means to write")

rc, out, err = run(DCBKIT, "analyze", cap, "-T", "json")
if rc not in (0, 1, 2):
    fail("analyze: exit %d: %s" % (rc, err))
doc = json.loads(out)
flows = doc["flows"]
if flows["bad_icrc"] != total_bad or flows["roce_packets"] != len(data):
    fail("flows summary: bad_icrc %s roce_packets %s, expected %d and %d" %
         (flows["bad_icrc"], flows["roce_packets"], total_bad, len(data)))
by_src = {f["src_ip"]: f for f in flows["list"]}
for src, want in ((A, want_data), (B, want_acks)):
    got = {k: by_src[src][k] for k in want}
    if got != want:
        fail("flow from %s: %s, expected %s" % (src, got, want))
finding = [f for f in doc["findings"] if f["rule"] == "roce-corrupt-link"]
if len(finding) != 1 or finding[0]["severity"] != "crit" or \
        not finding[0]["summary"].startswith("%d RoCE packets in the capture carry a bad ICRC" %
                                             total_bad):
    fail("analyze findings: %s" % [(f["rule"], f["severity"], f["summary"])
                                   for f in doc["findings"]])
rc, text, err = run(DCBKIT, "analyze", cap)
if "%d with a bad ICRC (corrupt)" % total_bad not in text or "bad ICRC 3" not in text:
    fail("analyze text: %s" % text)

rc, out, err = run(DCBKIT, "diagnose", "--pcap", cap, "-T", "json")
if rc != 2:
    fail("diagnose --pcap: exit %d (expected 2, critical): %s" % (rc, err))
doc = json.loads(out)
hits = [f for f in doc["findings"] if f["rule"] == "roce-corrupt-link"]
if len(hits) != 1 or not hits[0]["summary"].startswith("%d RoCE packets in the capture carry a "
                                                       "bad ICRC" % total_bad):
    fail("diagnose findings: %s" % [(f["rule"], f["summary"]) for f in doc["findings"]])
print("analyze: %d bad ICRC frames; diagnose: %s on %s" %
      (total_bad, hits[0]["rule"], hits[0].get("device")))
os.unlink(cap)
os.rmdir(tmp)
print("ok")
