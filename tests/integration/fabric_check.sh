# dcbkit fabric: the fixtures load (healthy and three broken-by-design variants), malformed
# files are each refused with one line naming the JSON path, JSON output loads back, and diff
# finds exactly what each variant changed.
source "$(dirname "$0")/lib.bash"
FIX=$ROOT/fixtures/fabrics

# The committed fixtures are what the generator script writes.
mkdir -p "$TMP/regen"
cp "$FIX/make_fabrics.py" "$TMP/regen/"
/usr/bin/python3 "$TMP/regen/make_fabrics.py"
for f in healthy pfc-mismatch sonic-default-dscp wred-above-xoff; do
    cmp -s "$FIX/$f.json" "$TMP/regen/$f.json" || fail "fixtures/fabrics/$f.json differs from make_fabrics.py output"
    run_rc rc "$DCBKIT" fabric check "$FIX/$f.json"
    expect_eq "check $f" 0 "$rc"
    expect_contains "check $f" "8 devices (4 hosts, 4 switches), 8 links: ok" "$(head -1 "$TMP/out")"
done

# Effective config: defaults <- role defaults <- device <- interface <- link.
"$DCBKIT" fabric check "$FIX/healthy.json" -T json >"$TMP/h.json"
/usr/bin/python3 - "$TMP/h.json" "$TMP/expanded.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == 1
ifs = {(i["device"], i["ifname"]): i for i in d["interfaces"]}
assert len(ifs) == 16, len(ifs)
leaf = ifs[("leaf1", "Ethernet0")]
assert leaf["peer"] == "host1:eth0"
c = leaf["config"]
assert c["speed_bps"] == 400e9 and c["cable_m"] == 3 and c["mtu"] == 9216
assert c["pfc"]["enabled"] == 8 and c["dscp2prio"]["26"] == 3 and c["cnp"]["dscp"] == 48
assert c["switch"]["wred"]["3"]["min_bytes"] == 50000
assert c["switch"]["buffer"]["3"]["xoff"] == 180000
assert "nic" not in c, "switch got NIC knobs"
h = ifs[("host1", "eth0")]["config"]
assert h["mtu"] == 4200 and h["nic"]["dcqcn"]["rai_mbps"] == 5 and "switch" not in h
up = ifs[("spine2", "Ethernet1")]
assert up["peer"] == "leaf2:Ethernet3" and up["config"]["cable_m"] == 10
assert "ets" in c and c["ets"]["tsa"]["6"] == "strict"
json.dump(d["fabric"], open(sys.argv[2], "w"))
PY
# The expanded fabric is itself a fabric file, with the same effective config everywhere.
run_rc rc "$DCBKIT" fabric diff "$FIX/healthy.json" "$TMP/expanded.json"
expect_eq "round trip" "no differences" "$(cat "$TMP/out")"

# diff finds what each variant changed, and nothing else.
"$DCBKIT" fabric diff "$FIX/healthy.json" "$FIX/pfc-mismatch.json" -T json >"$TMP/d.json"
expect_eq "pfc diff" "1 host2 eth0 pfc.enabled 0x08 0x10" \
    "$(json_get "$TMP/d.json" '"%d %s" % (d["count"], " ".join(d["differences"][0][k] for k in ("device","ifname","path","a","b")))')"
"$DCBKIT" fabric diff "$FIX/healthy.json" "$FIX/sonic-default-dscp.json" -T json >"$TMP/d.json"
expect_eq "dscp diff has 26 -> 1 on every switch port (12)" 12 \
    "$(json_get "$TMP/d.json" 'sum(1 for x in d["differences"] if x["path"] == "dscp2prio.26" and x["b"] == "1")')"
"$DCBKIT" fabric diff "$FIX/healthy.json" "$FIX/wred-above-xoff.json" -T json >"$TMP/d.json"
expect_eq "wred diff: min and max on 12 switch ports" "24 1048576" \
    "$(json_get "$TMP/d.json" '"%d %s" % (d["count"], d["differences"][0]["b"])')"

# Ten and more malformed files: each refused with its own one-line error naming the JSON path.
/usr/bin/python3 - "$TMP" <<'PY'
import json, sys
tmp = sys.argv[1]
base = {"devices": [{"name": "sw9", "role": "switch"}, {"name": "h9", "role": "host"}],
        "links": [{"a": "sw9:Ethernet0", "b": "h9:eth0", "speed": "400G", "cable_m": 3}]}
def variant(name, change):
    d = json.loads(json.dumps(base))
    change(d)
    json.dump(d, open("%s/bad-%s.json" % (tmp, name), "w"))
variant("unknown-device", lambda d: d["links"].extend([
    {"a": "sw9:Ethernet%d" % i, "b": "h9:eth%d" % i} for i in (1, 2)] +
    [{"a": "sw9:Ethernet3", "b": "host9:eth0"}]))
variant("duplicate", lambda d: d["devices"].append({"name": "sw9", "role": "switch"}))
variant("negative-speed", lambda d: d["links"][0].update(speed=-400))
variant("self-link", lambda d: d["links"][0].update(b="sw9:Ethernet0"))
variant("pfc-mask", lambda d: d.update(defaults={"pfc": {"enabled": 511}}))
variant("unknown-key", lambda d: d.update(devcies=[]))
variant("no-colon", lambda d: d["links"][0].update(a="sw9"))
variant("port-twice", lambda d: d["links"].append({"a": "sw9:Ethernet0", "b": "h9:eth1"}))
variant("generate", lambda d: d.update(generate={"type": "leaf-spine", "leaves": 0, "spines": 2,
                                                 "hosts_per_leaf": 2}))
variant("no-role", lambda d: d["devices"][0].pop("role"))
variant("gnmi-target", lambda d: d["devices"][0].update(reach={"gnmi": {"target": "sw9"}}))
variant("wred", lambda d: d["devices"][0].update(config={"switch": {"wred": {"3": {
    "min_bytes": "2MB", "max_bytes": "1MB"}}}}))
variant("typo-path", lambda d: d["devices"][1].update(interfaces={"eth0": {"pfc": {"enable": 8}}}))
variant("cable", lambda d: d["links"][0].update(cable_m="-3m"))
open(tmp + "/bad-json.json", "w").write('{\n  "devices": [\n    {"name": "sw9",, }\n')
PY
check_bad() {
    run_rc rc "$DCBKIT" fabric check "$TMP/bad-$1.json"
    expect_eq "bad-$1 exit" 1 "$rc"
    expect_eq "bad-$1 one line" 1 "$(wc -l <"$TMP/err")"
    expect_contains "bad-$1" "dcbkit: fabric check: $TMP/bad-$1.json: $2" "$(cat "$TMP/err")"
    expect_eq "bad-$1 stdout" "" "$(cat "$TMP/out")"
}
check_bad unknown-device 'links[3].b: no device "host9"'
check_bad duplicate 'devices[2].name: duplicate device "sw9"'
check_bad negative-speed 'links[0].speed: -400 is negative'
check_bad self-link 'links[0]: sw9:Ethernet0 is linked to itself'
check_bad pfc-mask 'defaults.pfc.enabled: 0x1ff has bits above priority 7'
check_bad unknown-key 'devcies: unknown key'
check_bad no-colon 'links[0].a: "sw9" is not "device:interface"'
check_bad port-twice 'links[1].a: sw9:Ethernet0 is already in links[0]'
check_bad generate 'generate.leaves: must be a whole number from 1 to 1024'
check_bad no-role 'devices[0].role: missing ("host" or "switch")'
check_bad gnmi-target 'devices[0].reach.gnmi.target: needs "host:port"'
check_bad wred 'devices[0].config.switch.wred.3.min_bytes: 2000000 is above max_bytes 1000000'
check_bad typo-path "devices[1].interfaces.eth0.pfc.enable: no such setting (see 'dcbkit fabric paths')"
check_bad cable "links[0].cable_m: '-3m': length must be a non-negative number"
run_rc rc "$DCBKIT" fabric check "$TMP/bad-json.json"
expect_eq "bad json exit" 1 "$rc"
[[ "$(cat "$TMP/err")" =~ ^"dcbkit: fabric check: $TMP/bad-json.json:3:2"[01]": not valid JSON"$ ]] ||
    fail "bad json: $(cat "$TMP/err")"
run_rc rc "$DCBKIT" fabric check "$TMP/missing.json"
expect_contains "missing file" "missing.json: No such file or directory" "$(cat "$TMP/err")"

# -c prints each interface's effective config: healthy.json's 8 links have 16 ends, each with
# the defaults' trust dscp and its dscp2prio (DSCP 8 -> prio 1, DSCP 48 -> prio 6); without -c
# no config lines.
H=$ROOT/fixtures/fabrics/healthy.json
"$DCBKIT" fabric check "$H" >"$TMP/plain.txt"
"$DCBKIT" fabric check "$H" -c >"$TMP/cfg.txt"
expect_eq "check without -c" 0 "$(grep -cE '^ +(trust|dscp2prio)' "$TMP/plain.txt" || true)"
expect_eq "-c trust" 16 "$(grep -cE '^ +trust +dscp$' "$TMP/cfg.txt")"
expect_eq "-c dscp2prio.8" 16 "$(grep -cE '^ +dscp2prio\.8 +1$' "$TMP/cfg.txt")"
expect_eq "-c dscp2prio.48" 16 "$(grep -cE '^ +dscp2prio\.48 +6$' "$TMP/cfg.txt")"

# paths lists every config path once; --set style names resolve.
"$DCBKIT" fabric paths -T json >"$TMP/p.json"
expect_eq "paths" "True True True" \
    "$(json_get "$TMP/p.json" '" ".join(str(p in [x["path"] for x in d["paths"]]) for p in ("switch.wred.3.min_bytes", "nic.dcqcn.rai_mbps", "dscp2prio.26"))')"
echo ok
