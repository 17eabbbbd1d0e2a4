# dcbkit analyze in bounded memory: 5 million RoCE frames over 100,000 distinct QPs, streamed
# through standard input (no file on disk). Peak RSS is printed and must stay far below what
# keeping the frames would take; with --max-qps below the QP count, the overflow is counted.
source "$(dirname "$0")/lib.bash"
FRAMES=${ANALYZE_MEMORY_FRAMES:-5000000}
QPS=100000

# A nanosecond pcap, written round by round: each round is one packet for every QP (PSN = round,
# so every QP's stream is in order), patched in place with strided slice assignment. Each frame
# carries its true ICRC (a wrong one would make it corrupt): round 0's are computed, and since a
# CRC is affine, round r's are round 0's XOR one constant (the CRC of the PSN bytes' change).
cat >"$TMP/gen.py" <<'PY'
import struct, sys, zlib
frames, qps = int(sys.argv[1]), int(sys.argv[2])
out = sys.stdout.buffer
out.write(struct.pack("<IHHiIII", 0xa1b23c4d, 2, 4, 0, 0, 65535, 1))
eth = bytes.fromhex("020000000002020000000001") + b"\x08\x00"
def masked(ip):  # the ICRC's input: the IP packet up to the ICRC, variant fields set to ones
    b = bytearray(ip[:-4])
    b[1] = b[8] = 0xff
    b[10:12] = b[26:28] = b"\xff\xff"
    b[32] = 0xff
    return b"\xff" * 8 + bytes(b)
def frame(qp):
    bth = struct.pack("!BBHII", 4, 0, 0xffff, qp, 0)            # SEND Only, dqpn, PSN 0
    udp_len = 8 + len(bth) + 16 + 4
    udp = struct.pack("!HHHH", 49152 + qp % 1000, 4791, udp_len, 0)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 26 << 2 | 2, 20 + udp_len, 0, 0x4000, 64, 17, 0,
                     bytes([10, 0, qp >> 16 & 255, 1]), bytes([10, 1, qp >> 8 & 255, qp & 255]))
    ip += udp + bth + b"\0" * 16 + b"\0" * 4
    return eth + ip[:-4] + struct.pack("<I", zlib.crc32(masked(ip)))
rec = [struct.pack("<IIII", 0, 0, 0, 0) + frame(q) for q in range(qps)]
size = len(rec[0])
assert all(len(r) == size for r in rec)
block = bytearray(b"".join(rec))
psn_off = 16 + 14 + 20 + 8 + 9           # the PSN's three bytes in each record
icrc_off = size - 4
icrc0 = [bytes(block[icrc_off + i::size]) for i in range(4)]
mlen = len(masked(bytes(size - 16 - 14)))
zero_crc = zlib.crc32(bytes(mlen))
written = 0
rnd = 0
while written < frames:
    n = min(qps, frames - written)
    ts = 1700000000 * 10**9 + rnd * 1000000
    sec, nsec = divmod(ts, 10**9)
    hdr = struct.pack("<IIII", sec, nsec, size - 16, size - 16)
    for i in range(16):
        block[i::size] = bytes([hdr[i]]) * qps
    psn = bytes(((rnd >> 16) & 255, (rnd >> 8) & 255, rnd & 255))
    for i, b in enumerate(psn):
        block[psn_off + i::size] = bytes([b]) * qps
    change = bytearray(mlen)
    change[8 + 20 + 8 + 9:8 + 20 + 8 + 12] = psn
    k = struct.pack("<I", zlib.crc32(bytes(change)) ^ zero_crc)
    for i in range(4):
        block[icrc_off + i::size] = icrc0[i].translate(bytes(x ^ k[i] for x in range(256)))
    out.write(block[:n * size])
    written += n
    rnd += 1
PY

/usr/bin/python3 "$TMP/gen.py" "$FRAMES" "$QPS" | "$DCBKIT" analyze - -v --top 3 >"$TMP/out" 2>"$TMP/err" \
    || fail "analyze of the stream failed: $(cat "$TMP/err")"
cat "$TMP/err"
stats=$(grep '^analyze: ' "$TMP/err") || fail "no statistics line on stderr with -v"
expect_contains "all frames read" "analyze: $FRAMES frames" "$stats"
expect_contains "every QP tracked" "$QPS QPs tracked" "$stats"
rss_kb=$(sed -n 's/.*peak RSS \([0-9]*\) KB.*/\1/p' <<<"$stats")
echo "peak RSS with $QPS QPs: $((rss_kb / 1024)) MB"
# The frames alone are ~380 MB; per-QP state must stay well below that.
[ "$rss_kb" -lt $((160 * 1024)) ] || fail "peak RSS $rss_kb KB is not bounded (limit 160 MB)"
grep -q "  $QPS QPs, $FRAMES RoCE packets" "$TMP/out" || fail "flow summary: $(grep QPs "$TMP/out")"
head -1 "$TMP/out" | grep -q "^VERDICT ok" || fail "verdict: $(head -1 "$TMP/out")"

# Capped below the QP count: exactly the cap is tracked, the rest is counted, and said.
/usr/bin/python3 "$TMP/gen.py" 1000000 "$QPS" | "$DCBKIT" analyze - --max-qps 40000 -T json >"$TMP/cap.json" \
    || fail "analyze --max-qps failed"
/usr/bin/python3 - "$TMP/cap.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
fl = d["flows"]
assert fl["count"] == 40000 and len(fl["list"]) == 40000, fl["count"]
tracked = sum(f["packets"] for f in fl["list"])
assert tracked + fl["untracked_packets"] == 1000000 == fl["roce_packets"], (tracked, fl["untracked_packets"])
assert fl["untracked_packets"] == 600000, fl["untracked_packets"]
rules = [f["rule"] for f in d["findings"]]
assert "capture-qp-table-full" in rules, rules
PY
