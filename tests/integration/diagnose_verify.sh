# dcbkit diagnose --verify: the proposed change of each finding replayed with and without it.
# On the fabric whose WRED minimum sits above XOFF, lowering it cuts the simulated pause time by
# at least half and the finding shows both figures; a change that does nothing in the replay (the
# watchdog's detection time, with no storm) is demoted and says so; the second run reads every
# replay from the cache, and --cache-dir keeps another; bad arguments are usage errors.
source "$(dirname "$0")/lib.bash"
F=$ROOT/fixtures/fabrics
export DCBKIT_CACHE_DIR=$TMP/cache

run_rc rc "$DCBKIT" diagnose --fabric "$F/wred-above-xoff.json" --verify -v -T json
expect_eq "wred-above-xoff: exit ($(cat "$TMP/err"))" 2 "$rc"
expect_contains "first run replays" "verify: 2 replays run, 0 from the cache" "$(cat "$TMP/err")"
/usr/bin/python3 - "$TMP/out" <<'PY' || fail "wred-above-xoff: verification"
import json, sys
d = json.load(open(sys.argv[1]))
f = d["findings"][0]
assert f["rule"] == "cfg-threshold-order", f["rule"]
v = f["verified"]
assert v["done"] and v["improved"], v
# XOFF / 4 (45 KB) is under 1 us of 400G: WRED min stops at that floor, WRED max halfway to XOFF
assert v["change"] == "switch.wred.3.min_bytes=50000 switch.wred.3.max_bytes=115000", v["change"]
b, a = v["before"], v["after"]
assert b["pause_us"] > 0 and a["pause_us"] <= b["pause_us"] / 2, (b, a)
assert a["marks"] > b["marks"], (b, a)
for k in ("pause_us", "marks", "drops", "throughput_bps", "fct_p99_ns", "iter_p99_ns"):
    assert k in b and k in a, k
print("pause %.0f -> %.0f us" % (b["pause_us"], a["pause_us"]), file=sys.stderr)
PY
run_rc rc "$DCBKIT" diagnose --fabric "$F/wred-above-xoff.json" --verify
grep -Eq "verified: replay: the change helps.*: pause time [0-9]+ -> [0-9]+ us \(-([5-9][0-9]|100)%" "$TMP/out" ||
    fail "text: the verdict with both pause times: $(grep verified "$TMP/out" | head -1)"
grep -q "^        before  pause [0-9]* us, marks" "$TMP/out" || fail "text: the before figures"
grep -q "^        after   pause [0-9]* us, marks" "$TMP/out" || fail "text: the after figures"

# the cache: the same scenario, seed and change are not simulated again
run_rc rc "$DCBKIT" diagnose --fabric "$F/wred-above-xoff.json" --verify -v -T json
expect_contains "second run: all from the cache" "verify: 0 replays run, 2 from the cache" \
    "$(cat "$TMP/err")"
expect_eq "second run: cached" True "$(json_get "$TMP/out" 'd["findings"][0]["verified"]["cached"]')"
[ "$(ls "$TMP/cache"/*.json | wc -l)" -eq 2 ] || fail "two cache files: $(ls "$TMP/cache")"
# --cache-dir DIR: that folder instead of $DCBKIT_CACHE_DIR (which holds both replays by now)
run_rc rc "$DCBKIT" diagnose --fabric "$F/wred-above-xoff.json" --verify -v --cache-dir "$TMP/own"
expect_contains "--cache-dir: an empty folder, replays run" "verify: 2 replays run, 0 from the cache" \
    "$(cat "$TMP/err")"
[ "$(ls "$TMP/own"/*.json | wc -l)" -eq 2 ] || fail "--cache-dir: two cache files: $(ls "$TMP/own")"
run_rc rc "$DCBKIT" diagnose --fabric "$F/wred-above-xoff.json" --verify -v --cache-dir "$TMP/own"
expect_contains "--cache-dir: again, from it" "verify: 0 replays run, 2 from the cache ($TMP/own)" \
    "$(cat "$TMP/err")"
run_rc rc "$DCBKIT" diagnose --fabric "$F/wred-above-xoff.json" --verify -v --no-cache
expect_contains "--no-cache replays" "verify: 2 replays run, 0 from the cache (no cache)" \
    "$(cat "$TMP/err")"

# no improvement: demoted one level, and the finding says so
run_rc rc "$DCBKIT" diagnose --fabric "$F/pfcwd-slow.json" --verify -T json
/usr/bin/python3 - "$TMP/out" <<'PY' || fail "pfcwd-slow: demotion"
import json, sys
d = json.load(open(sys.argv[1]))
f = [f for f in d["findings"] if f["rule"] == "cfg-pfcwd"][0]
v = f["verified"]
assert v["done"] and not v["improved"] and f["severity"] == "info", f
assert "no improvement" in v["note"] and "demoted from warn" in v["note"], v["note"]
# advice that does not help is withdrawn; the change that was tried stays on record
assert f["proposed"] in (None, ""), f["proposed"]
assert "withdrawn" in v["note"] and v["change"].startswith("switch.pfcwd."), v
PY
expect_eq "pfcwd-slow: exit after demotion" 0 "$rc"
run_rc rc "$DCBKIT" diagnose --fabric "$F/pfcwd-slow.json" -T json
expect_eq "without --verify: verified is null" None "$(json_get "$TMP/out" 'd["findings"][0]["verified"]')"

# A longer watchdog detection time in a pause storm: the watchdog's drops fall (it acts later or
# never) while the pause goes on longer. Those drops are the watchdog doing its job, so that is
# no fix: the objective as a whole (other drops, pause time, throughput, FCT) did not get better.
S=$ROOT/fixtures/scenarios
/usr/bin/python3 - "$S" "$TMP" <<'PY'
import json, sys
src, tmp = sys.argv[1:]
fab = json.load(open(src + "/fabrics/star-40g.json"))
fab["switch_defaults"]["pfcwd"] = {"detect_ms": 5, "restore_ms": 5, "action": "drop"}
json.dump(fab, open(tmp + "/wd-short.json", "w"))
sc = json.load(open(src + "/pause-storm.json"))
sc.update(fabric=tmp + "/wd-short.json", duration_ms=40)
json.dump(sc, open(tmp + "/wd-storm.json", "w"))
PY
run_rc rc "$DCBKIT" diagnose --fabric "$TMP/wd-short.json" --verify --scenario "$TMP/wd-storm.json" \
    --no-cache -T json
/usr/bin/python3 - "$TMP/out" <<'PY' || fail "a longer watchdog detection in a storm is no fix"
import json, sys
d = json.load(open(sys.argv[1]))
f = [f for f in d["findings"] if f["rule"] == "cfg-pfcwd-short"][0]
v = f["verified"]
b, a = v["before"], v["after"]
assert b["watchdog_drops"] > 0 and a["watchdog_drops"] < b["watchdog_drops"], (b, a)
assert a["drops"] < b["drops"], (b, a)  # what the old judgment took for a fix
assert v["done"] and not v["improved"], v
assert "withdrawn" in v["note"] and "the watchdog's" in v["note"], v["note"]
print("drops %.0f -> %.0f (watchdog %.0f -> %.0f), pause %.0f -> %.0f us" % (
    b["drops"], a["drops"], b["watchdog_drops"], a["watchdog_drops"], b["pause_us"],
    a["pause_us"]), file=sys.stderr)
PY

# errors
run_rc rc "$DCBKIT" diagnose --fabric "$F/healthy.json" --scenario x.json
expect_eq "--scenario without --verify" 64 "$rc"
echo '{"ts":1,"device":"d","ifname":"i","metric":"port.rx_bytes","value":1}' |
    "$DCBKIT" store import --store "$TMP/s.db" -q
run_rc rc "$DCBKIT" diagnose --store "$TMP/s.db" --verify
expect_eq "--verify on a store without a scenario" 64 "$rc"
run_rc rc "$DCBKIT" diagnose --fabric "$F/wred-above-xoff.json" --verify --scenario "$TMP/none.json"
expect_eq "a missing scenario: exit" 3 "$rc"
expect_contains "a missing scenario: one line" "dcbkit: diagnose --verify: $TMP/none.json: No such file" \
    "$(cat "$TMP/err")"
echo '{"name": "x", "bogus": 1}' >"$TMP/bad.json"
run_rc rc "$DCBKIT" diagnose --fabric "$F/wred-above-xoff.json" --verify --scenario "$TMP/bad.json"
expect_eq "a bad scenario: exit" 3 "$rc"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "a bad scenario: one line: $(cat "$TMP/err")"
