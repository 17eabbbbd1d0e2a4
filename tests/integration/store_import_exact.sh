# store import keeps what it reads exactly (issue 32, item 6): nanosecond timestamps (doubles
# snap to 256 ns near 2023: three samples 1 ns apart became one) and 64-bit counters above 2^53,
# through query -T json, export --jsonl and export --csv; an event's time too. A value written with
# an exponent still reads (as a double).
source "$(dirname "$0")/lib.bash"

DB=$TMP/s.db
base=$(( $(date +%s) - 30 ))123456789            # nanoseconds, not a multiple of 256
counters=(18446744073709551000 18446744073709551001 9007199254740993)
{
    for i in 0 1 2; do
        printf '{"ts": %s, "device": "h1", "ifname": "eth0", "metric": "port.rx_bytes", "value": %s}\n' \
               "$((base + i))" "${counters[$i]}"
    done
    printf '{"ts": %s, "kind": "pfc_xoff", "device": "h1", "ifname": "eth0", "prio": 3, "details": {"ts": 1.5}}\n' "$((base + 7))"
    printf '{"ts": %s, "device": "h1", "ifname": "eth1", "metric": "port.rx_bytes", "value": 1e3}\n' "$base"
} >"$TMP/in.jsonl"
run_rc rc "$DCBKIT" store import --store "$DB" "$TMP/in.jsonl"
expect_eq "import exit" 0 "$rc"
expect_contains "import summary" "imported 5 samples" "$(cat "$TMP/err")"

"$DCBKIT" store query --store "$DB" --ifname eth0 --since 1h -T json >"$TMP/q.json"
want="[($((base)), ${counters[0]}), ($((base + 1)), ${counters[1]}), ($((base + 2)), ${counters[2]})]"
expect_eq "query -T json" "$want" "$(json_get "$TMP/q.json" '[(s["ts"], s["value"]) for s in d["samples"]]')"

"$DCBKIT" store export --store "$DB" --ifname eth0 --jsonl >"$TMP/e.jsonl"
expect_eq "export --jsonl" "$want" "$(/usr/bin/python3 -c 'import json,sys; print([(d["ts"], d["value"]) for d in map(json.loads, open(sys.argv[1]))])' "$TMP/e.jsonl")"
"$DCBKIT" store export --store "$DB" --ifname eth0 --csv >"$TMP/e.csv"
expect_eq "export --csv" "$base,${counters[0]} $((base + 1)),${counters[1]} $((base + 2)),${counters[2]}" \
    "$(tail -n +2 "$TMP/e.csv" | cut -d, -f1,7 | tr '\n' ' ' | sed 's/ $//')"

"$DCBKIT" store events --store "$DB" --since 1h -T json >"$TMP/ev.json"
expect_eq "event ts" "$((base + 7))" "$(json_get "$TMP/ev.json" 'd["events"][0]["ts"]')"

"$DCBKIT" store query --store "$DB" --ifname eth1 --since 1h -T json >"$TMP/q1.json"
expect_eq "fraction and exponent" "[($base, 1000)]" "$(json_get "$TMP/q1.json" '[(s["ts"], s["value"]) for s in d["samples"]]')"
echo ok
