# dcbkit report --collect: the fabric's local device is sampled into the store first (through
# dcbkit collect) and reported with data; a gNMI device nobody answers on (127.0.0.1:9) is a
# device-unreachable finding that says why, never silently missing. The store is a new file.
source "$(dirname "$0")/lib.bash"

cat >"$TMP/fabric.json" <<'JSON'
{"name": "lab", "defaults": {"trust": "dscp", "pfc": {"enabled": 8}},
 "devices": [{"name": "thishost", "role": "host", "reach": "local"},
             {"name": "leafg", "role": "switch",
              "reach": {"gnmi": {"target": "127.0.0.1:9", "insecure": true}}}],
 "links": []}
JSON
run_rc rc "$DCBKIT" report --fabric "$TMP/fabric.json" --store "$TMP/c.db" --collect 2s \
    --interval 1s --since 1m --out "$TMP/report"
expect_eq "exit (one warning: the gNMI device)" 1 "$rc"
expect_contains "verdict line" "REPORT warn:" "$(cat "$TMP/out")"
json="$TMP/report/report.json"
expect_eq "this host has data" ok "$(json_get "$json" '[x["status"] for x in d["devices"] if x["name"] == "thishost"][0]')"
n=$(json_get "$json" '[x["series"] for x in d["devices"] if x["name"] == "thishost"][0]')
[ "$n" -gt 0 ] || fail "no series collected from this host"
why=$(json_get "$json" '[f["summary"] for f in d["findings"] if f["device"] == "leafg"][0]')
expect_contains "gNMI device reason" "leafg could not be reached: gNMI 127.0.0.1:9: " "$why"
expect_eq "finding source" collect "$(json_get "$json" '[f["source"] for f in d["findings"] if f["device"] == "leafg"][0]')"

# a store nobody may create: collect fails, and report says so in one line, exit 3
need_tool setpriv
[ "$(id -u)" -eq 0 ] || skip "needs root to drop privileges with setpriv"
chmod 755 "$TMP"
mkdir -m 555 "$TMP/ro"
mkdir -m 777 "$TMP/w"
run_rc rc setpriv --reuid=65534 --regid=65534 --clear-groups "$DCBKIT" report \
    --fabric "$TMP/fabric.json" --store "$TMP/ro/c.db" --collect 1s --out "$TMP/w/report"
expect_eq "unwritable store: exit" 3 "$rc"
expect_contains "unwritable store: message" "dcbkit: report --collect: $TMP/ro/c.db: " "$(cat "$TMP/err")"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "more than one line on stderr: $(cat "$TMP/err")"
echo ok
