# dcbkit calc headroom and calc thresholds: the seed's worked example, terms that add up, the
# XON < Kmin < Kmax < XOFF order, and one-line usage errors.
source "$(dirname "$0")/lib.bash"

# Background seed 004: 100G, 300 m, 9000 B MTU -> (3 + 3 + 0.72) us x 12.5 GB/s = 84 KB.
out=$("$DCBKIT" calc headroom --link-speed 100G --cable 300m --mtu 9000 --formula simple)
expect_contains "seed total" "total             84000 B  = 84 KB = 82.031 KiB" "$out"
expect_contains "seed cable" "cable_rtt         37500 B  2 x 300m x 5 ns/m (fiber) = 3 µs" "$out"
"$DCBKIT" -T json calc headroom --link-speed 100G --cable 300m --mtu 9000 --formula simple \
    >"$TMP/seed.json"
expect_eq "seed json total" 84000 "$(json_get "$TMP/seed.json" 'd["total_bytes"]')"
expect_eq "seed json KB" 84 "$(json_get "$TMP/seed.json" 'd["total_kb"]')"
expect_eq "seed json terms" "cable_rtt local_response mtu" \
    "$(json_get "$TMP/seed.json" '" ".join(t["name"] for t in d["terms"])')"

# The default (full) formula: the terms add up to the total, and it is the simple one plus the
# PFC frame, the peer's 802.3 response time and a second MTU.
"$DCBKIT" calc headroom --link-speed 400G --cable 100m --mtu 9216 -T json >"$TMP/full.json"
"$DCBKIT" calc headroom --link-speed 400G --cable 100m --mtu 9216 --formula simple -T json \
    >"$TMP/simple.json"
/usr/bin/python3 - "$TMP/full.json" "$TMP/simple.json" <<'PY'
import json, sys
full, simple = (json.load(open(p)) for p in sys.argv[1:3])
assert full["formula"] == "full" and full["medium"] == "fiber", full
assert full["response_time_ns"] == 3000 and full["mtu"] == 9216, full
for d in (full, simple):
    assert sum(t["bytes"] for t in d["terms"]) == d["total_bytes"], d
    assert all(t["how"] for t in d["terms"]), d
terms = {t["name"]: t["bytes"] for t in full["terms"]}
assert list(terms) == ["cable_rtt", "local_response", "mtu", "pfc_frame", "peer_response",
                       "mtu_peer"], terms
assert terms["cable_rtt"] == 50000 and terms["peer_response"] == 905 * 64, terms
assert full["total_bytes"] == simple["total_bytes"] + 84 + 905 * 64 + 9216, (full, simple)
assert full["total_bytes"] == 276436, full
PY
text=$("$DCBKIT" calc headroom --link-speed 400G --cable 100m --mtu 9216)
expect_contains "full text" "peer_response     57920 B  905 quanta x 512 bit times" "$text"
expect_contains "full total" "total            276436 B  = 276.436 KB = 269.957 KiB" "$text"

# Options: response time with or without a unit, DAC, a longer cable needs more.
a=$("$DCBKIT" -T json calc headroom --link-speed 100G --cable 5m --mtu 9216 --response-time 5000)
b=$("$DCBKIT" -T json calc headroom --link-speed 100G --cable 5m --mtu 9216 --response-time 5us)
expect_eq "response ns = us" "$a" "$b"
"$DCBKIT" -T json calc headroom --link-speed 400G --cable 3m --mtu 9216 --medium dac >"$TMP/dac.json"
expect_eq "dac medium" dac "$(json_get "$TMP/dac.json" 'd["medium"]')"
expect_eq "dac cable" 1500 "$(json_get "$TMP/dac.json" 'd["terms"][0]["bytes"]')"
expect_eq "longer cable, more headroom" True \
    "$(json_get "$TMP/full.json" 'd["total_bytes"] > '"$(json_get "$TMP/dac.json" 'd["total_bytes"]')")"

# Thresholds: four values in order, each with its reason.
"$DCBKIT" calc thresholds --link-speed 400G --buffer 64MB --ports 64 -T json >"$TMP/th.json"
for speed in 25G 100G 800G; do
    "$DCBKIT" calc thresholds --link-speed $speed --buffer 64MB --ports 64 --lossless-prios 2 \
        -T json >"$TMP/th-$speed.json"
done
/usr/bin/python3 - "$TMP/th.json" "$TMP"/th-*.json <<'PY'
import json, sys
for path in sys.argv[1:]:
    d = json.load(open(path))
    th = d["thresholds"]
    assert [t["name"] for t in th] == ["xon", "kmin", "kmax", "xoff"], (path, th)
    values = [t["bytes"] for t in th]
    assert all(a < b for a, b in zip(values, values[1:])), (path, values)
    assert all(t["why"] for t in th), (path, th)
d = json.load(open(sys.argv[1]))
# Kmin one BDP at 2 us whatever the cap: the published 100 KB at 400G (200 KB at 800G)
assert [t["bytes"] for t in d["thresholds"]] == [50000, 100000, 750000, 1000000], d
assert d["clamped"] is True and d["lossless_prios"] == 1, d
assert d["bdp_bytes"] == 100000 and d["base_rtt_ns"] == 2000 and not d["kmin_below_bdp"], d
kmin = {p.rsplit("-", 1)[1][:-5]: json.load(open(p))["thresholds"][1]["bytes"]
        for p in sys.argv[2:]}
assert kmin == {"25G": 6250, "100G": 25000, "800G": 200000}, kmin
PY
text=$("$DCBKIT" calc thresholds --link-speed 400G --buffer 64MB --ports 64)
expect_contains "thresholds text" "(XON < Kmin < Kmax < XOFF)" "$text"
expect_contains "thresholds xoff" "xoff    1000000 B  1MB" "$text"
expect_contains "thresholds kmin" "kmin     100000 B  100KB" "$text"
small=$("$DCBKIT" calc thresholds --link-speed 800G --buffer 16MB --ports 128 --lossless-prios 8)
expect_contains "no room for one BDP" "warning: XOFF 15.625KB per PG is under 4/3 of one BDP" "$small"
expect_contains "a longer RTT" '"bdp_bytes":50000' \
    "$("$DCBKIT" calc thresholds --link-speed 100G --rtt 4us --buffer 64MB --ports 64 -T json | tr -d ' ')"

# Bad input: one line, exit 64.
bad=(
    "headroom --link-speed 400G --cable -5m --mtu 9216"
    "headroom --link-speed x --cable 100m --mtu 9216"
    "headroom --link-speed 0 --cable 100m --mtu 9216"
    "headroom --cable 100m --mtu 9216"
    "headroom --link-speed 400G --mtu 9216"
    "headroom --link-speed 400G --cable 100m"
    "headroom --link-speed 400G --cable 100m --mtu 0"
    "headroom --link-speed 400G --cable 100m --mtu 9216 --medium copperish"
    "headroom --link-speed 400G --cable 100m --mtu 9216 --formula exact"
    "headroom --link-speed 400G --cable 100m --mtu 9216 --response-time soon"
    "headroom --link-speed 400G --cable 100m --mtu 9216 extra"
    "headroom --link-speed 400G --cable 100m --mtu 9216 --bogus"
    "thresholds --link-speed 400G --buffer 64MB"
    "thresholds --link-speed 400G --ports 64"
    "thresholds --buffer 64MB --ports 64"
    "thresholds --link-speed 400G --buffer 64MB --ports 0"
    "thresholds --link-speed 400G --buffer 64MB --ports 64 --lossless-prios 9"
    "thresholds --link-speed 400G --buffer 100B --ports 64"
    "thresholds --link-speed 400G --buffer 64MB --ports 64 --rtt 5s"
    "thresholds --link-speed 400G --buffer 64MB --ports 64 --rtt soon"
    "nosuchformula"
)
for args in "${bad[@]}"; do
    # shellcheck disable=SC2086
    run_rc rc "$DCBKIT" calc $args
    expect_eq "calc $args" 64 "$rc"
    expect_eq "calc $args: one line" 1 "$(wc -l <"$TMP/err")"
    expect_eq "calc $args: no output" 0 "$(wc -c <"$TMP/out")"
done
run_rc rc "$DCBKIT" calc headroom --link-speed 400G --cable -5m --mtu 9216
expect_contains "negative cable" "--cable: '-5m': length must be a non-negative number" "$(cat "$TMP/err")"
run_rc rc "$DCBKIT" calc headroom --cable 100m --mtu 9216
expect_contains "missing speed" "--link-speed is missing" "$(cat "$TMP/err")"

# The help documents both.
help=$("$DCBKIT" help calc)
expect_contains "help headroom" "dcbkit calc headroom --link-speed SPEED --cable LENGTH" "$help"
expect_contains "help thresholds" "dcbkit calc thresholds --link-speed SPEED --buffer BYTES" "$help"
echo ok
