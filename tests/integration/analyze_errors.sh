# dcbkit analyze on bad input and bad places: one-line errors, the right exit status, and what
# could be read is still reported. Also --store and standard input.
source "$(dirname "$0")/lib.bash"
F=$ROOT/fixtures/captures

one_line() {   # WHAT: stderr is exactly one line
    [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "$1: expected one line on stderr, got: $(cat "$TMP/err")"
}

run_rc rc "$DCBKIT" analyze
expect_eq "no file: usage error" 64 "$rc"; one_line "no file"
run_rc rc "$DCBKIT" analyze "$F/pause-pfc.pcap" --lossless 9
expect_eq "--lossless 9" 64 "$rc"; one_line "--lossless 9"
expect_contains "--lossless message" "priorities 0-7" "$(cat "$TMP/err")"
run_rc rc "$DCBKIT" analyze "$F/pause-pfc.pcap" --max-qps 0
expect_eq "--max-qps 0" 64 "$rc"; one_line "--max-qps 0"
run_rc rc "$DCBKIT" analyze "$F/pause-pfc.pcap" --link-speed fast
expect_eq "--link-speed fast" 64 "$rc"; one_line "--link-speed fast"
run_rc rc "$DCBKIT" analyze a.pcap b.pcap
expect_eq "two files" 64 "$rc"; one_line "two files"

run_rc rc "$DCBKIT" analyze "$TMP/missing.pcap"
expect_eq "missing file" 1 "$rc"; one_line "missing file"
expect_contains "missing file message" "missing.pcap" "$(cat "$TMP/err")"

head -c 4096 /dev/urandom >"$TMP/random.pcap"
run_rc rc "$DCBKIT" analyze "$TMP/random.pcap"
expect_eq "random bytes" 1 "$rc"; one_line "random bytes"

: >"$TMP/empty.pcap"
run_rc rc "$DCBKIT" analyze "$TMP/empty.pcap"
expect_eq "empty file" 1 "$rc"; one_line "empty file"

# Cut in the middle of the last frame: an error naming how far it got, after a full report of
# the frames before it.
size=$(stat -c %s "$F/roce-ipv4.pcap")
head -c $((size - 10)) "$F/roce-ipv4.pcap" >"$TMP/cut.pcap"
run_rc rc "$DCBKIT" analyze "$TMP/cut.pcap" -T json
expect_eq "truncated capture" 1 "$rc"; one_line "truncated capture"
expect_contains "truncated capture message" "after 50 packets" "$(cat "$TMP/err")"
expect_eq "frames before the cut are reported" 50 "$(json_get "$TMP/out" 'd["capture"]["frames"]')"

# Unreadable: as nobody, a file only root may read.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
    cp "$F/pause-pfc.pcap" "$TMP/secret.pcap"
    chmod 600 "$TMP/secret.pcap"
    chmod 755 "$TMP"
    run_rc rc setpriv --reuid=nobody --regid=nogroup --clear-groups "$DCBKIT" analyze "$TMP/secret.pcap"
    expect_eq "unreadable file" 1 "$rc"; one_line "unreadable file"
    expect_contains "unreadable message" "ermission denied" "$(cat "$TMP/err")"
fi

# Standard input gives the same document as the file, but for its name (the findings' device is
# the file's base name, "-" for standard input).
same_doc='import json,sys; d=json.load(sys.stdin); d.pop("resources"); d.pop("file"); d["capture"].pop("file"); [f.pop("device") for f in d["findings"]]; assert d["findings"]; print(json.dumps(d, sort_keys=True))'
"$DCBKIT" analyze "$F/roce-ipv4.pcap" -T json | /usr/bin/python3 -c "$same_doc" >"$TMP/file.json"
"$DCBKIT" analyze - -T json <"$F/roce-ipv4.pcap" | /usr/bin/python3 -c "$same_doc" >"$TMP/stdin.json"
cmp -s "$TMP/file.json" "$TMP/stdin.json" || fail "analyze - (stdin) differs from analyze FILE"

# --store: the pause intervals as events, the findings and a run record.
"$DCBKIT" analyze "$F/pause-pfc.pcap" --link-speed 400G --store "$TMP/a.db" >/dev/null
"$DCBKIT" store events --store "$TMP/a.db" -T json >"$TMP/ev.json"
/usr/bin/python3 - "$TMP/ev.json" "$TMP/a.db" <<'PY'
import json, sqlite3, sys
ev = json.load(open(sys.argv[1]))["events"]
kinds = {e["kind"] for e in ev}
assert {"pfc_xoff", "pfc_xon", "pause_global"} <= kinds, kinds
assert all(e["device"] == "pause-pfc.pcap" for e in ev)
db = sqlite3.connect(sys.argv[2])
runs = db.execute("select command, source from runs").fetchall()
assert len(runs) == 1 and runs[0][0] == "analyze" and runs[0][1].endswith("pause-pfc.pcap"), runs
rules = [r[0] for r in db.execute("select rule from findings")]
assert "global-pause-with-pfc" in rules, rules
PY

# A store that cannot be written: one line, exit 1, nothing half-done.
mkdir "$TMP/ro"
chmod 555 "$TMP/ro"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
    run_rc rc setpriv --reuid=nobody --regid=nogroup --clear-groups "$DCBKIT" analyze "$F/pause-pfc.pcap" --store "$TMP/ro/a.db"
else
    run_rc rc "$DCBKIT" analyze "$F/pause-pfc.pcap" --store "$TMP/ro/a.db"
fi
expect_eq "read-only store directory" 1 "$rc"; one_line "read-only store directory"

# --storm-ms: pfc-storm.pcap pauses prio 3 for 250.34 ms in one refreshed interval (its README),
# a storm at the default 200 ms and at 250 ms, none at 300 ms.
S=$F/analyze/pfc-storm.pcap
storms() {   # FILE: "storm_ms storms" of the analysis in FILE
    json_get "$1" '"%d %d" % (d["capture"]["storm_ms"], d["pauses"]["storms"])'
}
"$DCBKIT" analyze "$S" --link-speed 100G --lossless 3 -T json >"$TMP/s200.json"
"$DCBKIT" analyze "$S" --link-speed 100G --lossless 3 --storm-ms 250 -T json >"$TMP/s250.json"
"$DCBKIT" analyze "$S" --link-speed 100G --lossless 3 --storm-ms 300 -T json >"$TMP/s300.json"
expect_eq "default storm threshold" "200 1" "$(storms "$TMP/s200.json")"
expect_eq "--storm-ms 250" "250 1" "$(storms "$TMP/s250.json")"
expect_eq "--storm-ms 300" "300 0" "$(storms "$TMP/s300.json")"

# -v adds one line of figures on stderr: the capture's 1255 frames; without it stderr is empty.
run_rc rc "$DCBKIT" analyze "$S" --lossless 3
expect_eq "analyze stderr" "" "$(cat "$TMP/err")"
run_rc rc "$DCBKIT" analyze "$S" --lossless 3 -v
expect_contains "analyze -v" "analyze: 1255 frames in" "$(cat "$TMP/err")"
