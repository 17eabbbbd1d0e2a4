#!/usr/bin/python3
"""Writes the seed corpora of the decoder fuzz targets (corpus/fuzz_<decoder>/) from the frames in
fixtures/captures/, each cut to the bytes its decoder starts at, with the selector bytes the
target reads first. Run it again after changing the fixtures:
    /usr/bin/python3 tests/fuzz/make_decoder_seeds.py"""
import glob
import hashlib
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "..", "fixtures", "captures")
PER_TARGET = 24


def frames(path):
    data = open(path, "rb").read()
    if data[:4] == b"\x0a\x0d\x0d\x0a":
        return                                  # pcapng: seeds fuzz_pcapng whole
    off = 24
    while off + 16 <= len(data):
        caplen = struct.unpack_from("<I", data, off + 8)[0]
        yield data[off + 16:off + 16 + caplen]
        off += 16 + caplen


def l2_payload(frame):
    off, ethertype = 12, None
    while off + 2 <= len(frame):
        ethertype = struct.unpack_from("!H", frame, off)[0]
        off += 2
        if ethertype not in (0x8100, 0x88a8):
            break
        off += 2
    return ethertype, frame[off:]


def tlvs(data):
    off = 0
    while off + 2 <= len(data):
        hdr = struct.unpack_from("!H", data, off)[0]
        yield hdr >> 9, data[off + 2:off + 2 + (hdr & 0x1ff)]
        off += 2 + (hdr & 0x1ff)


def seeds():
    out = {name: [] for name in ("fuzz_frame", "fuzz_eth", "fuzz_pause_pfc", "fuzz_lldp",
                                 "fuzz_dcbx_ieee", "fuzz_dcbx_cee", "fuzz_ip", "fuzz_udp_roce",
                                 "fuzz_sll", "fuzz_pcapng")}
    for path in sorted(glob.glob(os.path.join(FIXTURES, "*.pcapng"))):
        out["fuzz_pcapng"].append(open(path, "rb").read())
    for path in sorted(glob.glob(os.path.join(FIXTURES, "*.pcap"))):
        linktype = struct.unpack_from("<I", open(path, "rb").read(), 20)[0]
        if linktype in (113, 276):
            out["fuzz_sll"].extend(bytes([linktype == 276]) + f for f in frames(path))
            continue
        for frame in frames(path):
            out["fuzz_frame"].append(frame)
            out["fuzz_eth"].append(frame[:22])
            ethertype, payload = l2_payload(frame)
            if ethertype == 0x8808:
                out["fuzz_pause_pfc"].append(frame[:6] + payload)
            elif ethertype == 0x88cc:
                out["fuzz_lldp"].append(payload)
                for tlv_type, body in tlvs(payload):
                    if tlv_type == 127 and body[:3] == b"\x00\x80\xc2" and len(body) >= 4:
                        out["fuzz_dcbx_ieee"].append(bytes([(body[3] - 8) % 6]) + body[4:])
                    elif tlv_type == 127 and body[:3] == b"\x00\x1b\x21" and len(body) >= 4:
                        out["fuzz_dcbx_cee"].append(bytes([body[3] - 1]) + body[4:])
            elif ethertype in (0x0800, 0x86dd):
                out["fuzz_ip"].append(bytes([ethertype == 0x86dd]) + payload)
                hl = 40 if ethertype == 0x86dd else (payload[0] & 15) * 4 if payload else 0
                if len(payload) > hl + 8:
                    udp = payload[hl:]
                    out["fuzz_udp_roce"].append(struct.pack("!H", len(udp)) + udp)
    return out


def main():
    for name, items in seeds().items():
        folder = os.path.join(HERE, "corpus", name)
        os.makedirs(folder, exist_ok=True)
        for old in os.listdir(folder):          # the set is exactly what this run picks
            os.unlink(os.path.join(folder, old))
        unique = {hashlib.sha1(x).hexdigest()[:16]: x for x in items}
        # A spread of the distinct inputs, the same every run.
        keys = sorted(unique)
        step = max(1, len(keys) // PER_TARGET)
        for key in keys[::step][:PER_TARGET]:
            with open(os.path.join(folder, key), "wb") as f:
                f.write(unique[key])


main()
