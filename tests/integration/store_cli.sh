# dcbkit store from the command line: import, info, query, delta (with a reset), events,
# export in CSV and JSON Lines (round trip), prune, and usage errors.
source "$(dirname "$0")/lib.bash"

DB=$TMP/s.db
now=$(date +%s)
/usr/bin/python3 - "$now" >"$TMP/in.jsonl" <<'PY'
import json, sys
now = int(sys.argv[1])
vals = [100, 110, 130, 5, 25]                     # a reset between 130 and 5
for i, v in enumerate(vals):
    t = (now - 50 + i * 10) * 10**9
    print(json.dumps({"ts": t, "device": "h1", "ifname": "eth2", "metric": "pfc.rx_pause",
                      "prio": 3, "queue": -1, "value": v}))
    print(json.dumps({"ts": t, "device": "leaf1", "ifname": "Ethernet0,1", "metric": "queue.depth_bytes",
                      "queue": 3, "value": 1000.5 * i}))
PY
run_rc rc "$DCBKIT" store import --store "$DB" "$TMP/in.jsonl"
expect_eq "import exit" 0 "$rc"
expect_contains "import summary" "imported 10 samples" "$(cat "$TMP/err")"

"$DCBKIT" store info --store "$DB" -T json >"$TMP/info.json"
expect_eq "series" 2 "$(json_get "$TMP/info.json" 'd["series"]')"
expect_eq "samples" 10 "$(json_get "$TMP/info.json" 'd["samples"]')"
expect_eq "last" $(( (now - 10) * 1000000000 )) "$(json_get "$TMP/info.json" 'd["last_ns"]')"

"$DCBKIT" store query --store "$DB" --metric pfc.rx_pause -T json >"$TMP/q.json"
expect_eq "latest value" 25 "$(json_get "$TMP/q.json" 'd["samples"][0]["value"]')"
expect_eq "latest count" 1 "$(json_get "$TMP/q.json" 'len(d["samples"])')"
"$DCBKIT" store query --store "$DB" --ifname eth2 --since 25s -T json >"$TMP/r.json"
expect_eq "window" "[5, 25]" "$(json_get "$TMP/r.json" '[s["value"] for s in d["samples"]]')"

# 110-100 + 130-110 + 25-5 = 50 over the 30 s without the reset (130 -> 5: the counter may have
# restarted from any value, so that interval counts for nothing), one reset.
"$DCBKIT" store delta --store "$DB" --metric pfc.rx_pause --since 1h -T json >"$TMP/d.json"
expect_eq "delta" 50 "$(json_get "$TMP/d.json" 'd["series"][0]["delta"]')"
expect_eq "rate" 1.6667 "$(json_get "$TMP/d.json" 'round(d["series"][0]["rate_per_sec"], 4)')"
expect_eq "resets" 1 "$(json_get "$TMP/d.json" 'd["series"][0]["resets"]')"

# Events written by another writer come back filtered by kind, with details as an object.
/usr/bin/python3 -c "
import sqlite3; c = sqlite3.connect('$DB')
c.execute(\"insert into events (ts, kind, device, ifname, prio, details) values ($(( now * 1000000000 )), 'counter_reset', 'h1', 'eth2', -1, '{\\\"old\\\": 130}')\")
c.execute(\"insert into events (ts, kind, device, ifname, prio, details) values ($(( now * 1000000000 )), 'pfc_xoff', 'h1', 'eth2', 3, '{}')\")
c.commit()"
"$DCBKIT" store events --store "$DB" --kind counter_reset -T json >"$TMP/e.json"
expect_eq "events" "1 130" "$(json_get "$TMP/e.json" '"%d %d" % (len(d["events"]), d["events"][0]["details"]["old"])')"

# Export CSV (a comma inside a name stays in its column) and JSON Lines; JSON Lines imports back.
"$DCBKIT" store export --store "$DB" >"$TMP/x.csv"
/usr/bin/python3 - "$TMP/x.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 10, len(rows)
assert {r["ifname"] for r in rows} == {"eth2", "Ethernet0,1"}, rows[0]
assert rows[0].keys() == {"ts", "device", "ifname", "metric", "prio", "queue", "value"}
PY
"$DCBKIT" store export --store "$DB" --jsonl | "$DCBKIT" store import --store "$TMP/copy.db" -q -
"$DCBKIT" store export --store "$TMP/copy.db" --jsonl >"$TMP/copy.jsonl"
"$DCBKIT" store export --store "$DB" --jsonl | cmp - "$TMP/copy.jsonl" || fail "JSON Lines round trip differs"
"$DCBKIT" store export --store "$DB" --csv | cmp - "$TMP/x.csv" || fail "--csv is not the CSV export"

# --queue selects by queue: only leaf1's queue 3 series, latest 1000.5 * 4; no series has queue 7.
"$DCBKIT" store query --store "$DB" --queue 3 -T json >"$TMP/qq.json"
expect_eq "--queue 3" "queue.depth_bytes 4002" \
    "$(json_get "$TMP/qq.json" '" ".join(str(s[k]) for s in d["samples"] for k in ("metric", "value"))')"
"$DCBKIT" store query --store "$DB" --queue 7 -T json >"$TMP/qq.json"
expect_eq "--queue 7" 0 "$(json_get "$TMP/qq.json" 'len(d["samples"])')"
# --until closes the window: 35 s to 15 s ago holds the samples made 30 and 20 s before `now`.
"$DCBKIT" store query --store "$DB" --ifname eth2 --since 35s --until 15s -T json >"$TMP/u.json"
expect_eq "--until" "[130, 5]" "$(json_get "$TMP/u.json" '[s["value"] for s in d["samples"]]')"

# --durable: synchronous=FULL syncs the log at each commit; --batch 1 makes one commit per sample,
# so 10 samples bring at least 10 more fsync/fdatasync calls than the default. Needs strace.
syncs() { awk '$NF ~ /^f(data)?sync$/ { n += $4 } END { print n + 0 }' "$1"; }
trace=(strace -f -qq -c -e trace=fsync,fdatasync -o)
if "${trace[@]}" "$TMP/st.plain" "$DCBKIT" store import --store "$TMP/plain.db" --batch 1 -q \
        "$TMP/in.jsonl" 2>/dev/null &&
   "${trace[@]}" "$TMP/st.durable" "$DCBKIT" store import --store "$TMP/durable.db" --batch 1 -q \
        --durable "$TMP/in.jsonl" 2>/dev/null; then
    plain=$(syncs "$TMP/st.plain") durable=$(syncs "$TMP/st.durable")
    [ "$durable" -ge $(( plain + 10 )) ] ||
        fail "store import --durable: $durable syncs, without it $plain: want at least 10 more"
else
    echo "note: strace cannot trace here; store import --durable not checked"
fi

# Prune: samples older than 25 s before the data was made go; the rest stay. The age is counted
# from the import, however long the steps above took on a loaded machine.
"$DCBKIT" store prune --store "$DB" --older-than "$(( $(date +%s) - now + 25 ))s" -T json >"$TMP/p.json"
expect_eq "pruned" 6 "$(json_get "$TMP/p.json" 'd["deleted"]')"
expect_eq "left" 4 "$("$DCBKIT" store info --store "$DB" -T json | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["samples"])')"

# Usage errors and a missing store.
for args in "frob" "prune" "delta --metric pfc.rx_pause" "query --metric pfc.nope" "events --kind nope" \
            "query --prio 9999" "import --batch 0 -"; do
    # shellcheck disable=SC2086
    run_rc rc "$DCBKIT" store $args --store "$DB"
    expect_eq "store $args" 64 "$rc"
    expect_eq "store $args: one line" 1 "$(wc -l <"$TMP/err")"
done
run_rc rc "$DCBKIT" store info --store "$TMP/nowhere/x.db"
expect_eq "missing store exit" 1 "$rc"
expect_contains "missing store" "no store there" "$(cat "$TMP/err")"
echo ok
