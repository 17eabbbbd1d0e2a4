"""Issue 33: an LLDPDU may hold one Chassis ID, Port ID and TTL (802.1AB) and one of each DCBX
TLV (802.1Qaz; CEE one DCBX TLV). A frame that repeats one is malformed and discarded, as lldpd
does: `decode` reports it with the first values kept, and `analyze`'s DCBX neighbours never take
the spoofed trailing chassis or PFC config. Frames built here byte by byte."""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DCBKIT = os.environ.get("DCBKIT", os.path.join(ROOT, "build", "cc", "bin", "dcbkit"))


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def tlv(t, value):
    return struct.pack("!H", t << 9 | len(value)) + value


def chassis(mac):
    return tlv(1, b"\x04" + bytes.fromhex(mac.replace(":", "")))


def port(name):
    return tlv(2, b"\x05" + name.encode())


TTL = tlv(3, struct.pack("!H", 120))
END = tlv(0, b"")


def pfc(enable, willing=0):
    return tlv(127, bytes.fromhex("0080c2") + b"\x0b" + bytes([willing << 7 | 8, enable]))


def frame(*tlvs):
    eth = bytes.fromhex("0180c200000e") + bytes.fromhex("020000000001") + b"\x88\xcc"
    body = eth + b"".join(tlvs)
    return body + b"\x00" * max(0, 60 - len(body))


def pcap(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            f.write(struct.pack("<IIII", 1700000000 + i, 0, len(fr), len(fr)) + fr)


tmp = tempfile.mkdtemp(prefix="dcbkit-lldp-repeats-")
try:
    good = frame(chassis("02:00:00:00:00:10"), port("Ethernet1"), TTL, pfc(0x08), END)
    cases = {
        "Chassis ID": frame(chassis("02:00:00:00:00:10"), port("Ethernet1"), TTL,
                            chassis("02:00:00:00:00:66"), pfc(0x08), END),
        "Port ID": frame(chassis("02:00:00:00:00:10"), port("Ethernet1"), TTL,
                         port("Ethernet9"), pfc(0x08), END),
        "TTL": frame(chassis("02:00:00:00:00:10"), port("Ethernet1"), TTL,
                     tlv(3, struct.pack("!H", 0)), END),
        "IEEE PFC Configuration": frame(chassis("02:00:00:00:00:10"), port("Ethernet1"), TTL,
                                        pfc(0x08), pfc(0xff, willing=1), END),
    }
    path = os.path.join(tmp, "repeats.pcap")
    pcap(path, [good] + list(cases.values()))
    out = subprocess.run([DCBKIT, "decode", "-r", path, "-T", "json"], capture_output=True,
                         text=True)
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    if len(lines) != 1 + len(cases):
        fail("decode printed %d frames, want %d: %s" % (len(lines), 1 + len(cases), out.stderr))
    if lines[0].get("malformed"):
        fail("the good frame is malformed: %r" % lines[0])
    for (name, _), got in zip(cases.items(), lines[1:]):
        want = "LLDPDU repeats the %s TLV" % name
        if want not in (got.get("malformed") or ""):
            fail("a repeated %s: malformed %r, want %r" % (name, got.get("malformed"), want))
        lldp = got.get("lldp", {})
        if lldp.get("chassis_id") != "02:00:00:00:00:10" or lldp.get("port_id") != "Ethernet1":
            fail("a repeated %s replaced the first values: %r" % (name, lldp))
    # analyze: one neighbour, from the good frame; the spoofed chassis and PFC 0xff never land
    a = json.loads(subprocess.run([DCBKIT, "analyze", path, "-T", "json"], capture_output=True,
                                  text=True).stdout)
    neigh = a["dcbx"]["neighbours"]
    if [n["chassis"] for n in neigh] != ["02:00:00:00:00:10"] or neigh[0]["frames"] != 1:
        fail("analyze took a malformed frame: %r" % neigh)
    if neigh[0]["pfc_enable"] != 0x08 or neigh[0]["willing"]:
        fail("the repeated PFC TLV reached the neighbour: %r" % neigh[0])
    print("ok: %d repeats refused, the first values kept" % len(cases))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
