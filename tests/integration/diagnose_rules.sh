# User rule folders (--rules DIR): a good rule adds its findings; each kind of bad rule file is
# refused at load with file:line:col and exit 3 (could not decide); division by zero does not
# fire and -v says why.
source "$(dirname "$0")/lib.bash"
HEALTHY=$ROOT/fixtures/fabrics/healthy.json

mkdir "$TMP/good"
cat >"$TMP/good/site.rules" <<'R'
# this site wants jumbo frames on every switch port
[site-jumbo]
severity = warn
scope    = port
when     = role() == "switch" and mtu < 9216 + 1
message  = switch port MTU {mtu} is not above 9216
knob     = mtu
propose  = 9600

[site-ratio]
severity = info
scope    = port
when     = mtu / (mtu - mtu) > 1
message  = never: divides by zero
R
run_rc rc "$DCBKIT" diagnose --fabric "$HEALTHY" --rules "$TMP/good" -v -T json
expect_eq "user rule: exit (warn)" 1 "$rc"
/usr/bin/python3 - "$TMP/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rules = {f["rule"] for f in d["findings"]}
assert rules == {"site-jumbo"}, rules
f = d["findings"][0]
assert f["proposed"] == "9600" and f["knob"] == "mtu" and "9216" in f["summary"], f
zero = [u for u in d["undecided"] if u["rule"] == "site-ratio"]
assert zero and all("division by zero" in u["missing"] for u in zero), zero[:2]
PY

bad() {  # NAME EXPECTED-LOCATION EXPECTED-TEXT < rule file
    mkdir -p "$TMP/$1"
    cat >"$TMP/$1/bad.rules"
    run_rc rc "$DCBKIT" diagnose --fabric "$HEALTHY" --rules "$TMP/$1"
    expect_eq "$1: exit status" 3 "$rc"
    [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "$1: not one line: $(cat "$TMP/err")"
    expect_contains "$1: location" "$TMP/$1/bad.rules:$2: " "$(cat "$TMP/err")"
    expect_contains "$1: message" "$3" "$(cat "$TMP/err")"
}
printf '[r]\nseverity = warn\nscope = port\nwhen = pfc.enabled !=\nmessage = m\n' |
    bad syntax 4:22 "expected a value"
printf '[r]\nseverity = warn\nscope = priority\nwhen = rate(pfc.rx_paws[60s]) > 1\nmessage = m\n' |
    bad unknown-metric 4:13 "unknown name 'pfc.rx_paws"
printf '[r]\nseverity = warn\nscope = port\nwhen = ratee(mtu) > 1\nmessage = m\n' |
    bad unknown-function 4:8 "unknown function 'ratee'"
printf '[r]\nseverity = warn\nscope = port\nwhen = trust + 1 > 2\nmessage = m\n' |
    bad type-error 4:8 "type error"
printf '[r]\nseverity = warn\nscope = port\nwhen = rate(queue.depth_bytes{queue=3}[1m]) > 0\nmessage = m\n' |
    bad gauge-rate 4:8 "needs a counter"
printf '[r]\nseverity = warn\nscope = port\nwhen = mtu > 1\nmessage = MTU {mtu +}\n' |
    bad message 5:21 "expected a value"
printf '[r]\nseverity = loud\nscope = port\nwhen = mtu > 1\nmessage = m\n' |
    bad severity 2:12 "severity is crit, warn or info"
printf '[r]\nseverity = warn\nscope = port\nwhen = mtu > 1\n' |
    bad missing-message 1:1 "has no message"
printf '[cfg-trust]\nseverity = warn\nscope = port\nwhen = mtu > 1\nmessage = m\n' |
    bad duplicate 1:2 "already defined"
printf '[r]\nseverity = warn\nscope = port\nwhen = mtu >\n   and trust == "dscp"\nmessage = m\n' |
    bad continuation 5:4 "expected a value"

# --since: evidence older than the cut does not count. Two pause storms, 30 and 1 minutes before
# the store's newest sample; a rule that wants two within the hour fires without --since and not
# with --since 10m.
mkdir "$TMP/since"
cat >"$TMP/since/storms.rules" <<'R'
[two-storms]
severity = warn
scope    = port
when     = count(pause_storm[1h]) >= 2
message  = {count(pause_storm[1h])} storms in the hour
R
now=1700003600000000000
echo "{\"ts\":$now,\"device\":\"leaf1\",\"ifname\":\"Ethernet0\",\"metric\":\"port.rx_bytes\",\"prio\":-1,\"queue\":-1,\"value\":1}" |
    "$DCBKIT" store import --store "$TMP/since.db" >/dev/null 2>&1
/usr/bin/python3 - "$TMP/since.db" "$now" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1]); now = int(sys.argv[2])
for ago in (30, 1):
    db.execute("INSERT INTO events (ts, kind, device, ifname, prio, details) VALUES (?,?,?,?,?,?)",
               (now - ago * 60 * 10**9, "pause_storm", "leaf1", "Ethernet0", 3, "{}"))
db.commit()
PY
run_rc rc "$DCBKIT" diagnose --store "$TMP/since.db" --rules "$TMP/since" -T json
expect_eq "--since: without it the rule fires" two-storms \
    "$(json_get "$TMP/out" '",".join(f["rule"] for f in d["findings"] if f["rule"] == "two-storms")')"
run_rc rc "$DCBKIT" diagnose --store "$TMP/since.db" --rules "$TMP/since" --since 10m -T json
expect_eq "--since 10m: one storm left" "" \
    "$(json_get "$TMP/out" '",".join(f["rule"] for f in d["findings"] if f["rule"] == "two-storms")')"
run_rc rc "$DCBKIT" diagnose --store "$TMP/since.db" --since 0s
expect_eq "--since 0s" 64 "$rc"
