# pcapng timestamp scaling (issue 32, item 9): an if_tsresol of one tick a second with a 64-bit
# tick count is more nanoseconds than an int64_t holds. Such a file is refused with an error that
# names the packet and if_tsresol (it wrapped to negative times, and aborted the sanitizer
# build); a fine resolution (10^19 or 2^63 ticks a second) still reads exactly.
source "$(dirname "$0")/lib.bash"
F=$ROOT/fixtures/captures

# crafted.py SRC OUT TSRESOL TICKS IFACE: an SHB, an Ethernet IDB and an SLL IDB, both with
# if_tsresol TSRESOL, and two PAUSE frames on interface IFACE at TICKS and TICKS + 1.
cat >"$TMP/crafted.py" <<'PY'
import struct, sys
src, out, tsresol, ticks, iface = sys.argv[1], sys.argv[2], *(int(a, 0) for a in sys.argv[3:])
data = open(src, "rb").read()
frame = data[24 + 16:24 + 16 + 60]                  # the first PAUSE frame

def block(kind, body):
    body += b"\0" * (-len(body) % 4)
    n = 12 + len(body)
    return struct.pack("<II", kind, n) + body + struct.pack("<I", n)

def idb(linktype):
    opts = struct.pack("<HHB3x", 9, 1, tsresol) + struct.pack("<HH", 0, 0)   # if_tsresol, end
    return block(1, struct.pack("<HHI", linktype, 0, 65535) + opts)

def epb(t):
    return block(6, struct.pack("<IIIII", iface, t >> 32, t & 0xffffffff, len(frame),
                                len(frame)) + frame)

shb = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
open(out, "wb").write(shb + idb(1) + idb(113) + epb(ticks) + epb(ticks + 1))
PY
craft() { /usr/bin/python3 "$TMP/crafted.py" "$F/pause-pfc.pcap" "$TMP/$1.pcapng" "$2" "$3" "$4"; }

craft ns 9 1700000000000000000 0                   # nanoseconds: the usual case
craft tick-libpcap 0 0xffffffffffff0000 0          # one tick a second, read by libpcap
craft tick-rest 0 0xffffffffffff0000 1             # the SLL interface: collectors/pcapng reads it
craft pow2-tick 0x80 0x7fffffffffff0000 0          # 2^0 ticks a second
craft fine-dec 19 0xffffffffffff0000 0             # 10^19 ticks a second
craft fine-bin 0xbf 0x8000000000000000 1           # 2^63 ticks a second, collectors/pcapng

first_ns() {
    "$DCBKIT" analyze "$TMP/$1.pcapng" -T json >"$TMP/$1.json" || fail "$1: analyze failed: $(cat "$TMP/$1.json")"
    json_get "$TMP/$1.json" 'd["capture"]["first_ns"], d["capture"]["last_ns"]'
}
expect_eq "nanosecond resolution" "(1700000000000000000, 1700000000000000001)" "$(first_ns ns)"
# 18446744073709486080 / 10^19 s and 2^63 / 2^63 s, to the nanosecond (truncated)
expect_eq "10^19 ticks a second" "(1844674407, 1844674407)" "$(first_ns fine-dec)"
expect_eq "2^63 ticks a second" "(1000000000, 1000000000)" "$(first_ns fine-bin)"

for f in tick-libpcap tick-rest pow2-tick; do
    run_rc rc "$DCBKIT" analyze "$TMP/$f.pcapng" -T json
    expect_eq "$f: refused" 1 "$rc"
    expect_eq "$f: one line" 1 "$(wc -l <"$TMP/err")"
    expect_contains "$f: names the packet" "packet 1: timestamp" "$(cat "$TMP/err")"
    expect_contains "$f: says why" "out of range (1970 to 2262); is the interface's if_tsresol right?" "$(cat "$TMP/err")"
done

# The same refusal through the --pcap source.
run_rc rc "$DCBKIT" diagnose --pcap "$TMP/tick-rest.pcapng"
expect_eq "diagnose --pcap: could not decide" 3 "$rc"
expect_contains "diagnose --pcap: says why" "if_tsresol" "$(cat "$TMP/err")"
# decode prints times and does not scale them: it reads the file, saturated rather than wrapped.
"$DCBKIT" decode -r "$TMP/tick-rest.pcapng" -T json >"$TMP/decode.jsonl"
expect_eq "decode: frames" 2 "$(wc -l <"$TMP/decode.jsonl")"
echo "ok"
