# Malformed and truncated input: each bad frame gives a "malformed" reason, and decoding goes
# on with the next frame; a capture file cut mid-frame is an error after the frames before it.
source "$(dirname "$0")/lib.bash"
F=$ROOT/fixtures/captures

"$DCBKIT" decode -r "$F/malformed.pcap" -T json >"$TMP/m.jsonl"
/usr/bin/python3 - "$TMP/m.jsonl" <<'PY'
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
# In the order make_captures.py writes them: None = must decode cleanly.
want = [None, "runs past the end", None, "chassis ID TLV length 0", "length 511 runs past",
        "Application Priority TLV length 9", "Application sub-TLV length 11",
        "PFC Configuration TLV length 7", "runs past the end", "BTH truncated",
        "no room for the ICRC", "RETH truncated", "PFC truncated", None]
assert len(frames) == len(want), (len(frames), len(want))
for n, (f, w) in enumerate(zip(frames, want), 1):
    assert f["frame"] == n, f
    got = f.get("malformed")
    if w is None:
        assert got is None, (n, got)
    else:
        assert got and w in got, (n, w, got)
# Decoding went on: the frame after each bad one is complete.
assert frames[2]["bth"]["opcode"] == 4 and frames[2]["icrc_ok"] is True
assert frames[13]["icrc_ok"] is True
# What was decoded before the fault is kept.
assert frames[1]["lldp"]["sysname"] == "leaf-1"
assert frames[9]["udp"]["dport"] == 4791 and "bth" not in frames[9]
PY

# snaplen 40: every frame whose headers do not fit says so; the short ones decode.
"$DCBKIT" decode -r "$F/truncated-snaplen40.pcap" -T json >"$TMP/t.jsonl"
/usr/bin/python3 - "$TMP/t.jsonl" <<'PY'
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
assert len(frames) == 6
assert all(f["caplen"] == 40 and f["len"] > 40 for f in frames), frames
assert "UDP header truncated" in frames[0]["malformed"]
assert "UDP header truncated" in frames[1]["malformed"] and frames[1]["vlan"][0]["vid"] == 100
assert "IPv6 header truncated" in frames[2]["malformed"]
assert frames[3]["pfc"]["quanta"][3] == 65535 and "malformed" not in frames[3]
assert frames[4]["pause"]["quanta"] == 100 and "malformed" not in frames[4]
assert "LLDP TLV type 3" in frames[5]["malformed"]
PY

# A capture file cut in the middle of a frame: the frames before it are printed, then one error
# line that counts them, exit 1.
size=$(stat -c %s "$F/pause-pfc.pcap")
head -c $((size - 30)) "$F/pause-pfc.pcap" >"$TMP/cut.pcap"
run_rc rc "$DCBKIT" decode -r "$TMP/cut.pcap" -T json
expect_eq "cut file exit" 1 "$rc"
expect_eq "frames before the cut" 11 "$(wc -l <"$TMP/out")"
expect_eq "one error line" 1 "$(wc -l <"$TMP/err")"
expect_contains "error counts frames" "after 11 frames decoded" "$(cat "$TMP/err")"
expect_contains "libpcap's reason" "truncated dump file" "$(cat "$TMP/err")"
expect_contains "error names the file" "dcbkit: $TMP/cut.pcap: " "$(cat "$TMP/err")"

# Missing file and not a capture: one line, exit 1.
run_rc rc "$DCBKIT" decode -r "$TMP/nope.pcap"
expect_eq "missing exit" 1 "$rc"
expect_eq "missing: one line" 1 "$(wc -l <"$TMP/err")"
expect_contains "missing" "No such file" "$(cat "$TMP/err")"
echo "not a capture" >"$TMP/text.pcap"
run_rc rc "$DCBKIT" decode -r "$TMP/text.pcap"
expect_eq "not a capture exit" 1 "$rc"

# Random bytes after a valid pcap header: frames decode or are malformed, never a crash.
/usr/bin/python3 - "$TMP/noise.pcap" <<'PY'
import random, struct, sys
random.seed(4791)
with open(sys.argv[1], "wb") as out:
    out.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    for i in range(2000):
        n = random.randrange(0, 200)
        frame = bytes(random.randrange(256) for _ in range(n))
        # Steer some frames into the interesting decoders.
        kind = i % 4
        if kind and n >= 14:
            et = {1: b"\x88\x08", 2: b"\x88\xcc", 3: b"\x08\x00"}[kind]
            frame = frame[:12] + et + frame[14:]
        out.write(struct.pack("<IIII", i, 0, len(frame), len(frame)) + frame)
PY
run_rc rc "$DCBKIT" decode -r "$TMP/noise.pcap" -T json
expect_eq "noise exit" 0 "$rc"
expect_eq "noise frames" 2000 "$(wc -l <"$TMP/out")"
/usr/bin/python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$TMP/out"
