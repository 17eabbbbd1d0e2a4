# pcapng: several interfaces of one link type (libpcap); interfaces of different link types,
# which libpcap 1.10 refuses, go on through collectors/pcapng; Linux cooked (SLL, SLL2) frames
# decode; a link type dcbkit does not decode is said per frame.
source "$(dirname "$0")/lib.bash"
F=$ROOT/fixtures/captures

/usr/bin/python3 - "$F/pause-pfc.pcap" "$TMP" <<'PY'
import struct, sys
src, tmp = sys.argv[1], sys.argv[2]
data = open(src, "rb").read()
frame = data[24 + 16:24 + 16 + 60]                  # the first PAUSE frame

def block(kind, body):
    body += b"\0" * (-len(body) % 4)
    n = 12 + len(body)
    return struct.pack("<II", kind, n) + body + struct.pack("<I", n)

def idb(linktype):
    return block(1, struct.pack("<HHI", linktype, 0, 65535))

def epb(iface, ts_usec, pkt):
    return block(6, struct.pack("<IIIII", iface, ts_usec >> 32, ts_usec & 0xffffffff,
                                len(pkt), len(pkt)) + pkt)

shb = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
ts = 1700000000 * 1000000
with open(tmp + "/two-ifaces.pcapng", "wb") as out:
    out.write(shb + idb(1) + idb(1) + epb(0, ts, frame) + epb(1, ts + 1, frame) +
              epb(0, ts + 2, frame))
with open(tmp + "/raw-ip.pcap", "wb") as out:              # LINKTYPE_RAW (101)
    ip = bytes.fromhex("4500001c000100004011000001020304050607080001000200080000")
    out.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 101))
    out.write(struct.pack("<IIII", 1700000000, 0, len(ip), len(ip)) + ip)
PY

"$DCBKIT" decode -r "$TMP/two-ifaces.pcapng" -T json >"$TMP/two.jsonl"
expect_eq "two interfaces: frames" 3 "$(wc -l <"$TMP/two.jsonl")"
/usr/bin/python3 - "$TMP/two.jsonl" <<'PY'
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
assert [f["frame"] for f in frames] == [1, 2, 3], frames
assert [f["ts"] for f in frames] == [1700000000.0, 1700000000.000001, 1700000000.000002], frames
assert all(f["pause"]["quanta"] == 65535 for f in frames), frames
PY

# The BPF filter applies to pcapng as to pcap.
expect_eq "filter on pcapng" 0 "$("$DCBKIT" decode -r "$TMP/two-ifaces.pcapng" 'ether proto 0x0800' | wc -l)"

# Mixed link types: libpcap 1.10 stops at the SLL interface, collectors/pcapng goes on from
# there; every frame comes out once, in file order, and the SLL ones decode.
"$DCBKIT" decode -r "$F/mixed-linktypes.pcapng" -T json >"$TMP/mixed.jsonl"
/usr/bin/python3 - "$TMP/mixed.jsonl" <<'PY'
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
# make_captures.py: Ethernet PFC, Ethernet RoCE, SLL PAUSE, Ethernet ACK, SLL LLDP, SLL2 CNP.
assert [f["frame"] for f in frames] == [1, 2, 3, 4, 5, 6], frames
assert ["eth" in f for f in frames] == [True, True, False, True, False, False], frames
assert frames[0]["pfc"]["quanta"][3] == 65535
assert frames[1]["bth"]["opcode"] == 4 and frames[1]["icrc_ok"] is True
assert frames[2]["sll"]["src"] == "02:00:00:00:00:01" and frames[2]["pause"]["quanta"] == 100
assert "dst_ok" not in frames[2]["pause"]          # no destination address in SLL: unknown
assert frames[3]["aeth"]["kind"] == "nak" and frames[3]["ip"]["version"] == 6
assert frames[4]["lldp"]["sysname"] == "cooked"
assert frames[5]["cnp"] is True and frames[5]["vlan"][0]["pcp"] == 6 and frames[5]["icrc_ok"]
ts = [f["ts"] for f in frames]
assert ts == sorted(ts), ts
PY
# Frames 2 and 4 (Ethernet, either side of the switch); frame 6 is VLAN-tagged, which a BPF
# filter without "vlan" does not look into.
expect_eq "mixed: the filter applies past the switch" 2 \
    "$("$DCBKIT" decode -r "$F/mixed-linktypes.pcapng" 'udp dst port 4791' | wc -l)"
expect_contains "mixed: a filter compiled for SLL" 'sysname "cooked"' \
    "$("$DCBKIT" decode -r "$F/mixed-linktypes.pcapng" 'ether proto 0x88cc')"
expect_eq "mixed: -c counts across the switch" 4 \
    "$("$DCBKIT" decode -r "$F/mixed-linktypes.pcapng" -c 4 | wc -l)"

# A pcapng file cut inside a block after the switch: the frames before it, then one error line.
size=$(stat -c %s "$F/mixed-linktypes.pcapng")
head -c $((size - 20)) "$F/mixed-linktypes.pcapng" >"$TMP/cut.pcapng"
run_rc rc "$DCBKIT" decode -r "$TMP/cut.pcapng"
expect_eq "cut pcapng: exit" 1 "$rc"
expect_eq "cut pcapng: frames before" 5 "$(wc -l <"$TMP/out")"
expect_eq "cut pcapng: one error line" 1 "$(wc -l <"$TMP/err")"
expect_contains "cut pcapng: why" "ends inside a block" "$(cat "$TMP/err")"

out=$("$DCBKIT" decode -r "$TMP/raw-ip.pcap")
expect_contains "other link type" "link type 12 not decoded" "$out"     # DLT_RAW, as libpcap numbers it
"$DCBKIT" decode -r "$TMP/raw-ip.pcap" -T json >"$TMP/raw.json"
expect_eq "other link type: json" 12 "$(json_get "$TMP/raw.json" 'd["linktype"]')"
