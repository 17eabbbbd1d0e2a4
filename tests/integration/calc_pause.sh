# dcbkit calc pause: quanta <-> time at a link speed, in text and JSON.
source "$(dirname "$0")/lib.bash"

# 65535 quanta x 512 bit times / 400e9 b/s = 83.8848 us, printed to three decimals.
out=$("$DCBKIT" calc pause 65535 --link-speed 400G)
expect_eq "text" "65535 quanta = 33553920 bit times = 83.885 µs at 400G" "$out"

"$DCBKIT" calc pause 0xffff --link-speed 400Gbps -T json >"$TMP/p.json"
expect_eq "schema" 1 "$(json_get "$TMP/p.json" 'd["schema"]')"
expect_eq "quanta" 65535 "$(json_get "$TMP/p.json" 'd["quanta"]')"
expect_eq "bit_times" 33553920 "$(json_get "$TMP/p.json" 'd["bit_times"]')"
expect_eq "ps" 83884800 "$(json_get "$TMP/p.json" 'd["pauses"][0]["ps"]')"
expect_eq "ns" 83884.8 "$(json_get "$TMP/p.json" 'd["pauses"][0]["ns"]')"
expect_eq "speed" 400G "$(json_get "$TMP/p.json" 'd["pauses"][0]["link_speed"]')"

# Without a speed: one row per common speed, each q*512/speed.
"$DCBKIT" calc pause 1000 -T json >"$TMP/t.json"
/usr/bin/python3 - "$TMP/t.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["pauses"]
assert len(rows) == 8, rows
for r in rows:
    want = 1000 * 512 * 1e9 / r["link_speed_bps"]
    assert abs(r["ns"] - want) < 1e-6, (r, want)
assert [r["link_speed"] for r in rows] == ["10G", "25G", "40G", "50G", "100G", "200G", "400G", "800G"]
PY
text=$("$DCBKIT" calc pause 1000)
expect_contains "table" "  100G   5.12 µs" "$text"

# Time to quanta: rounded up, and capped at 65535 with a warning.
out=$("$DCBKIT" calc pause --time 50us --link-speed 400G)
expect_eq "time text" "39063 quanta cover 50 µs at 400G (39063 quanta = 50.001 µs)" "$out"
"$DCBKIT" calc pause --time 1ms --link-speed 400G -T json >"$TMP/c.json"
expect_eq "capped" True "$(json_get "$TMP/c.json" 'd["capped"]')"
expect_eq "capped quanta" 65535 "$(json_get "$TMP/c.json" 'd["quanta"]')"
expect_contains "capped text" "more than one PAUSE" "$("$DCBKIT" calc pause --time 1ms --link-speed 400G)"

# Bad values are usage errors.
for args in "pause 65536" "pause -1" "pause 12abc" "pause" "pause 1 2" "pause --time 5 --link-speed 100G" \
            "pause --time 5us" "pause 1 --time 5us --link-speed 1G" "pause 1 --link-speed 0"; do
    # shellcheck disable=SC2086
    run_rc rc "$DCBKIT" calc $args
    expect_eq "calc $args" 64 "$rc"
    expect_eq "calc $args: one line" 1 "$(wc -l <"$TMP/err")"
done

# A full disk while writing output is an error, not silent loss.
if [ -w /dev/full ]; then
    run_rc rc sh -c "'$DCBKIT' calc pause 1 --link-speed 100G > /dev/full"
    expect_eq "/dev/full exit" 1 "$rc"
    expect_contains "/dev/full message" "dcbkit: writing output: No space left on device" "$(cat "$TMP/err")"
fi
echo ok
