# pcapng through libpcap: several interfaces of the same link type decode frame by frame; a file
# whose interfaces mix link types (which libpcap 1.10 cannot read) ends with one clear error
# line after the frames before it; a link type dcbkit does not decode is said per frame.
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
with open(tmp + "/mixed.pcapng", "wb") as out:
    out.write(shb + idb(1) + epb(0, ts, frame) + idb(113) + epb(1, ts + 1, bytes(16) + frame[12:]))
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

run_rc rc "$DCBKIT" decode -r "$TMP/mixed.pcapng" -T json
expect_eq "mixed link types: exit" 1 "$rc"
expect_eq "mixed link types: the frame before" 1 "$(wc -l <"$TMP/out")"
expect_eq "mixed link types: one error line" 1 "$(wc -l <"$TMP/err")"
expect_contains "mixed link types: counted" "after 1 frames decoded" "$(cat "$TMP/err")"

out=$("$DCBKIT" decode -r "$TMP/raw-ip.pcap")
expect_contains "other link type" "link type 12 not decoded" "$out"     # DLT_RAW, as libpcap numbers it
"$DCBKIT" decode -r "$TMP/raw-ip.pcap" -T json >"$TMP/raw.json"
expect_eq "other link type: json" 12 "$(json_get "$TMP/raw.json" 'd["linktype"]')"
