# dcbkit replay: bad scenarios are refused with one line that names the bad path (unknown keys,
# negative speeds, a --set path that does not exist, a workload naming a missing host,
# duration_ms <= 0, broken JSON, a missing file) and exit 1; usage errors exit 64.
source "$(dirname "$0")/lib.bash"
SCEN=$ROOT/fixtures/scenarios
GOOD=$SCEN/healthy-incast.json
cp -r "$SCEN/fabrics" "$TMP/"

# variant NAME PYTHON: a copy of healthy-incast.json changed by PYTHON (the document is d)
variant() {
    /usr/bin/python3 - "$GOOD" "$TMP/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}

# refused WHAT EXPECTED-MESSAGE CMD...: exit 1, one stderr line, the message, nothing on stdout
refused() {
    local what=$1 msg=$2
    shift 2
    run_rc rc "$@"
    expect_eq "$what: exit" 1 "$rc"
    expect_eq "$what: one line" 1 "$(wc -l <"$TMP/err")"
    expect_eq "$what: message" "$msg" "$(cat "$TMP/err")"
    expect_eq "$what: stdout" "" "$(cat "$TMP/out")"
}

variant unknown-top 'd["duraton_ms"] = 5'
refused "unknown top-level key" "dcbkit: replay: $TMP/unknown-top.json: duraton_ms: unknown key" \
    "$DCBKIT" replay "$TMP/unknown-top.json"
variant unknown-workload 'd["workload"]["bytse"] = 5'
refused "unknown workload key" "dcbkit: replay: $TMP/unknown-workload.json: workload.bytse: unknown key" \
    "$DCBKIT" replay "$TMP/unknown-workload.json"
variant unknown-fault 'd["faults"] = [{"type": "pause-storm", "host": "host9", "prio": 3, "after_ms": 1}]'
refused "unknown fault key" "dcbkit: replay: $TMP/unknown-fault.json: faults[0].after_ms: unknown key" \
    "$DCBKIT" replay "$TMP/unknown-fault.json"
variant unknown-fabric 'd["fabric"] = {"generate": {"type": "star", "hosts": 2}, "devcies": []}'
refused "unknown fabric key" "dcbkit: replay: $TMP/unknown-fabric.json: fabric.devcies: unknown key" \
    "$DCBKIT" replay "$TMP/unknown-fabric.json"

variant neg-speed 'd["fabric"] = {"generate": {"type": "star", "hosts": 9, "speed": -40e9}}'
refused "negative link speed" "dcbkit: replay: $TMP/neg-speed.json: fabric.generate.speed: -40000000000 is negative" \
    "$DCBKIT" replay "$TMP/neg-speed.json"
variant neg-drain 'd["faults"] = [{"type": "slow-receiver", "host": "host9", "drain": "-5G"}]'
refused "negative drain speed" "dcbkit: replay: $TMP/neg-drain.json: faults[0].drain: \"-5G\" is negative" \
    "$DCBKIT" replay "$TMP/neg-drain.json"
refused "negative speed by --set" "dcbkit: replay: $GOOD: --set speed_bps: '-40G': link speed must be a non-negative number" \
    "$DCBKIT" replay "$GOOD" --set speed_bps=-40G

refused "--set: missing parent" "dcbkit: replay: $GOOD: --set workload.nosuch.x: workload.nosuch does not exist" \
    "$DCBKIT" replay "$GOOD" --set workload.nosuch.x=1
refused "--set: unknown leaf" "dcbkit: replay: $GOOD: workload.bytse: unknown key" \
    "$DCBKIT" replay "$GOOD" --set workload.bytse=1MB
refused "--set: no such path" "dcbkit: replay: $GOOD: --set nosuch.path: no such scenario key or config path (see docs/scenario.md, 'dcbkit fabric paths')" \
    "$DCBKIT" replay "$GOOD" --set nosuch.path=1
refused "--set: index out of range" "dcbkit: replay: $GOOD: --set switch.wred.9.min_bytes: no such scenario key or config path (see docs/scenario.md, 'dcbkit fabric paths')" \
    "$DCBKIT" replay "$GOOD" --set switch.wred.9.min_bytes=5KB
refused "--set: no such device" "dcbkit: replay: $GOOD: --set leaf7/pfc.enabled: no device \"leaf7\" in the fabric" \
    "$DCBKIT" replay "$GOOD" --set leaf7/pfc.enabled=8
refused "--compare: no such path" "dcbkit: replay: $GOOD: --set nosuch: no such scenario key or config path (see docs/scenario.md, 'dcbkit fabric paths')" \
    "$DCBKIT" replay "$GOOD" --compare nosuch=1

variant missing-receiver 'd["workload"]["receiver"] = "host99"'
refused "missing receiver" "dcbkit: replay: $TMP/missing-receiver.json: workload.receiver: no host \"host99\" in the fabric" \
    "$DCBKIT" replay "$TMP/missing-receiver.json"
variant missing-sender 'd["workload"]["senders"] = ["host1", "hostX"]; del d["workload"]["count"]'
refused "missing sender" "dcbkit: replay: $TMP/missing-sender.json: workload.senders[1]: no host \"hostX\" in the fabric" \
    "$DCBKIT" replay "$TMP/missing-sender.json"
variant switch-as-host 'd["workload"] = {"type": "flows", "flows": [{"src": "host1", "dst": "switch1"}]}'
refused "a switch as a host" "dcbkit: replay: $TMP/switch-as-host.json: workload.flows[0].dst: \"switch1\" is a switch, not a host" \
    "$DCBKIT" replay "$TMP/switch-as-host.json"
variant storm-missing-host 'd["faults"] = [{"type": "pause-storm", "host": "host42"}]'
refused "fault on a missing host" "dcbkit: replay: $TMP/storm-missing-host.json: faults[0].host: no host \"host42\" in the fabric" \
    "$DCBKIT" replay "$TMP/storm-missing-host.json"

for v in 0 -3; do
    variant "dur$v" "d[\"duration_ms\"] = $v"
    refused "duration_ms $v" "dcbkit: replay: $TMP/dur$v.json: duration_ms: $v is out of range (0.001 to 1000000000)" \
        "$DCBKIT" replay "$TMP/dur$v.json"
done
refused "duration_ms 0 by --set" "dcbkit: replay: $GOOD: duration_ms: 0 is out of range (0.001 to 1000000000)" \
    "$DCBKIT" replay "$GOOD" --set duration_ms=0
variant no-duration 'del d["duration_ms"]'
refused "no duration_ms" "dcbkit: replay: $TMP/no-duration.json: duration_ms: missing" \
    "$DCBKIT" replay "$TMP/no-duration.json"

printf '{"name": "x",\n  "fabric": ' >"$TMP/broken.json"
refused "broken JSON" "dcbkit: replay: $TMP/broken.json:2:12: not valid JSON" "$DCBKIT" replay "$TMP/broken.json"
refused "missing file" "dcbkit: replay: $TMP/nope.json: No such file or directory" "$DCBKIT" replay "$TMP/nope.json"
variant missing-fabric 'd["fabric"] = "fabrics/nope.json"'
refused "missing fabric file" "dcbkit: replay: $TMP/missing-fabric.json: fabric: $TMP/fabrics/nope.json: No such file or directory" \
    "$DCBKIT" replay "$TMP/missing-fabric.json"

# usage errors: 64
for args in "" "--demo $GOOD" "$GOOD --replay-speed 2" "$GOOD --realtime --replay-speed -1" \
            "$GOOD --duration soon" "$GOOD --set noequals" "$GOOD --compare x=1 --realtime" \
            "$GOOD --host-map 1.2.3.4=host1" "$GOOD --seed x" "$GOOD --device-prefix p-" \
            "$GOOD --store $TMP/p.db --device-prefix $(printf "%040d" 0)"; do
    # shellcheck disable=SC2086
    run_rc rc "$DCBKIT" replay $args
    expect_eq "usage: replay $args" 64 "$rc"
    expect_eq "usage: replay $args: one line" 1 "$(wc -l <"$TMP/err")"
done
echo "ok: every bad scenario refused with its path"
