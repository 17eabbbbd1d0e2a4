# The buffer config that shows the cause is the knob (issue 30 item 2), on replays of the 40G star
# (WRED 5 KB / 200 KB, XOFF 400 KB on priority 3, headroom for priority 3 only):
# - dynamic_th -8 pauses the group at alpha x the free buffer, under WRED max: cfg-buffer-alpha
#   comes first and raises alpha to 1 (dynamic_th 0); at dynamic_th -1 the static XOFF still
#   binds and it stays quiet;
# - PFC on priorities 0 and 3 with TCP on 0: priority 0 has no headroom, so its drops are the PFC
#   mask's (cfg-lossless-budget, back to 0x08), not a headroom to raise.
source "$(dirname "$0")/lib.bash"

scenario() {  # NAME FAULT-SET-JSON [tcp]: $TMP/NAME.db, the replay of the healthy incast with it
    /usr/bin/python3 - "$ROOT/fixtures/scenarios" "$TMP/$1.json" "$2" "${3:-}" <<'PY'
import json, os, sys
src, out, fault, tcp = sys.argv[1:]
s = json.load(open(os.path.join(src, "healthy-incast.json")))
s["fabric"] = os.path.join(src, "fabrics", "star-40g.json")
s["faults"] = [{"type": "config", "set": json.loads(fault)}]
if tcp:
    flows = [{"src": "host%d" % i, "dst": "host9", "dscp": 26} for i in range(1, 9)]
    flows += [{"src": "host%d" % i, "dst": "host9", "dscp": 0, "transport": "tcp"} for i in (1, 2, 3)]
    s["workload"] = {"type": "flows", "bytes": 0, "payload": 1024, "dscp": 26, "flows": flows}
json.dump(s, open(out, "w"))
PY
    "$DCBKIT" replay "$TMP/$1.json" --store "$TMP/$1.db" >/dev/null 2>"$TMP/err" ||
        fail "$1: replay: $(cat "$TMP/err")"
    "$DCBKIT" diagnose --store "$TMP/$1.db" -T json >"$TMP/$1.out" 2>"$TMP/err" || true
}
first() {  # NAME: the first finding as "rule device knob=proposed"
    json_get "$TMP/$1.out" '" ".join([d["findings"][0]["rule"], d["findings"][0]["device"],
        "%s=%s" % (d["findings"][0]["knob"], d["findings"][0]["proposed"])])'
}
rules_of() {  # NAME: the rules that fired, with their priority
    json_get "$TMP/$1.out" '" ".join(sorted({"%s/%d" % (f["rule"], f["prio"]) for f in d["findings"]}))'
}

scenario alpha '{"switch.buffer.3.dynamic_th": -8}'
expect_eq "alpha 1/256: the fix" "cfg-buffer-alpha switch1 switch.buffer.3.dynamic_th=0" "$(first alpha)"
scenario alpha-half '{"switch.buffer.3.dynamic_th": -1}'
expect_eq "alpha 1/2: the static XOFF binds" "" "$(rules_of alpha-half)"

scenario budget '{"pfc.enabled": 9}' tcp
expect_eq "PFC on 0 and 3: the fix" "cfg-lossless-budget host1 pfc.enabled=8" "$(first budget)"
case " $(rules_of budget) " in
*" headroom-underprovisioned/0 "*) fail "priority 0 has no headroom: not headroom-underprovisioned" ;;
esac
