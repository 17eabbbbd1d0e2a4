# dcbkit diagnose, the configuration checks: the healthy fixture fabric yields nothing above
# info; each broken variant (fixtures/fabrics/make_fabrics.py) yields its own check first, with
# the exit status of its severity; cfg-ets-sum, which a fabric file cannot carry, is checked on
# config snapshots in a store, as are a PFC mismatch against the partner's advertised config and
# a capture's DCBX. --profile pfc-only silences the DCQCN check.
source "$(dirname "$0")/lib.bash"
F=$ROOT/fixtures/fabrics

run_rc rc "$DCBKIT" diagnose --fabric "$F/healthy.json" -T json
expect_eq "healthy: exit status ($(cat "$TMP/err"))" 0 "$rc"
expect_eq "healthy: findings above info" 0 \
    "$(json_get "$TMP/out" 'len([f for f in d["findings"] if f["severity"] != "info"])')"
expect_eq "healthy: verdict" ok "$(json_get "$TMP/out" 'd["verdict"]["level"]')"
run_rc rc "$DCBKIT" diagnose --fabric "$F/healthy.json"
head -1 "$TMP/out" | grep -q '^DIAGNOSIS ok: ' || fail "text starts with the verdict: $(head -1 "$TMP/out")"

check_first() {  # FIXTURE RULE STATUS [ARGS...]: RULE ranks first, exit STATUS
    local fixture=$1 rule=$2 want=$3
    shift 3
    run_rc rc "$DCBKIT" diagnose --fabric "$F/$fixture" -T json "$@"
    expect_eq "$fixture: exit status ($(cat "$TMP/err"))" "$want" "$rc"
    expect_eq "$fixture: first finding" "$rule" "$(json_get "$TMP/out" 'd["findings"][0]["rule"]')"
    /usr/bin/python3 - "$TMP/out" <<'PY' || fail "$fixture: a finding lacks evidence, knob or summary"
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    assert f["summary"] and f["evidence"] and f["knob"] and f["reference"], f
    assert f["severity"] in ("crit", "warn", "info") and 0 <= f["confidence"] <= 1, f
PY
}
check_first pfc-mismatch.json cfg-pfc-mask-mismatch 2
check_first sonic-default-dscp.json cfg-dscp-map-mismatch 2
check_first wred-above-xoff.json cfg-threshold-order 2
check_first headroom-short.json cfg-headroom 2
check_first trust-pcp.json cfg-trust 1
check_first cnp-not-strict.json cfg-cnp-class 1
check_first dcqcn-off.json cfg-dcqcn-disabled 1
check_first pfcwd-slow.json cfg-pfcwd 1
check_first mtu-small.json cfg-mtu 1
check_first global-pause.json cfg-global-pause 1
check_first switch-willing.json cfg-dcbx-roles 1
check_first lossless-3.json cfg-lossless-budget 1
check_first ecn-off.json cfg-ecn-off 2
check_first wred-not-scaled.json cfg-wred-scale 1
check_first ets-share-small.json cfg-ets-share 1
check_first pfcwd-forward.json cfg-pfcwd-action 1
check_first dcqcn-timers-slow.json cfg-dcqcn-range 1
check_first cnp-on-data-prio.json cfg-cnp-class 1
check_first pfc-on-cnp.json cfg-cnp-class 1
check_first cnp-dscp-unmapped.json cfg-dscp-map-mismatch 2
check_first prio2tc-lossy.json cfg-prio2tc 2

# Each names the knob that fixes its cause, with the value (and the changes that go with it):
# the config that shows the cause is the knob (issue 30 item 2).
first_fix() {  # FIXTURE WANT: the first finding's "device knob=proposed [also...]"
    "$DCBKIT" diagnose --fabric "$F/$1" -T json >"$TMP/fix.json" || true
    expect_eq "$1: the fix" "$2" "$(json_get "$TMP/fix.json" '" ".join([d["findings"][0]["device"],
        "%s=%s" % (d["findings"][0]["knob"], d["findings"][0]["proposed"])] + d["findings"][0]["also"])')"
}
first_fix ecn-off.json "leaf1 switch.wred.3.ecn=true"
first_fix wred-not-scaled.json "leaf1 switch.wred.3.min_bytes=90000 switch.wred.3.max_bytes=135000"
first_fix ets-share-small.json "host1 ets.bw.3=50 ets.bw.0=50"
# priorities 4 and 5 lossless with no headroom on the switches (only 3 has a buffer profile):
# the mask back to the provisioned priority, at the hosts too (their switch's headroom)
first_fix lossless-3.json "host1 pfc.enabled=8"
# the switches willing, the hosts too: the switch end is the one to change (non-willing), and
# no host under a switch is advised
/usr/bin/python3 - "$F/switch-willing.json" "$TMP/both-willing.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d.setdefault("host_defaults", {}).setdefault("pfc", {})["willing"] = True
json.dump(d, open(sys.argv[2], "w"))
PY
"$DCBKIT" diagnose --fabric "$TMP/both-willing.json" -T json >"$TMP/willing.json" || true
expect_eq "both willing: the ends advised" \
    "leaf1 pfc.willing=false leaf2 pfc.willing=false spine1 pfc.willing=false spine2 pfc.willing=false" \
    "$(json_get "$TMP/willing.json" '" ".join(sorted({"%s %s=%s" % (f["device"], f["knob"],
        f["proposed"]) for f in d["findings"] if f["rule"] == "cfg-dcbx-roles"}))')"
first_fix pfcwd-forward.json "leaf1 switch.pfcwd.action=drop"
first_fix dcqcn-timers-slow.json "host1 nic.dcqcn.time_reset_us=55"
first_fix cnp-on-data-prio.json "host1 cnp.dscp=48"
first_fix pfc-on-cnp.json "leaf1 pfc.enabled=8"
first_fix cnp-dscp-unmapped.json "leaf1 dscp2prio.48=6"
first_fix prio2tc-lossy.json "leaf1 prio2tc.3=3"
for fixture in ecn-off wred-not-scaled ets-share-small pfcwd-forward dcqcn-timers-slow \
        cnp-on-data-prio pfc-on-cnp cnp-dscp-unmapped prio2tc-lossy; do
    "$DCBKIT" diagnose --fabric "$F/$fixture.json" -T json >"$TMP/fix.json" || true
    expect_eq "$fixture: no end is told to take the wrong class" "" \
        "$(json_get "$TMP/fix.json" '" ".join(sorted({"%s:%s=%s" % (f["rule"], f["knob"], f["proposed"])
            for f in d["findings"] if f["knob"].startswith("ets.tsa.") or f["device"].startswith("host")
            and f["knob"].startswith("dscp2prio.")}))')"
done

# The proposals are the fix: the headroom the formula asks for, the partner's PFC mask.
"$DCBKIT" diagnose --fabric "$F/headroom-short.json" -T json >"$TMP/h.json" || true
expect_eq "headroom proposal at 400G/10m/9216" 231436 \
    "$(json_get "$TMP/h.json" 'max(int(f["proposed"]) for f in d["findings"])')"
expect_eq "headroom knob" switch.buffer.3.headroom "$(json_get "$TMP/h.json" 'd["findings"][0]["knob"]')"
# leaf1's host ports (3 m) are given what its 10 m uplinks need: one profile serves them all
expect_eq "headroom proposal on a 3 m host port: the leaf's longest cable" 231436 \
    "$(json_get "$TMP/h.json" '[f["proposed"] for f in d["findings"]
        if (f["device"], f["ifname"]) == ("leaf1", "Ethernet0")][0]')"
"$DCBKIT" diagnose --fabric "$F/pfc-mismatch.json" -T json >"$TMP/p.json" || true
expect_eq "pfc proposal on host2" "0x08" \
    "$(json_get "$TMP/p.json" '[f["proposed"] for f in d["findings"] if f["device"] == "host2" and f["rule"] == "cfg-pfc-mask-mismatch"][0]')"

# --profile pfc-only: DCQCN off is expected there.
run_rc rc "$DCBKIT" diagnose --fabric "$F/dcqcn-off.json" --profile pfc-only -T json
expect_eq "dcqcn-off under pfc-only: exit" 0 "$rc"
expect_eq "dcqcn-off under pfc-only: findings" 0 "$(json_get "$TMP/out" 'len(d["findings"])')"

# Config snapshots in a store: the ETS shares add up to 90% on one port, and another port's
# link partner advertises a different PFC mask (a peer:lldp snapshot, as collect writes it).
"$DCBKIT" store import --store "$TMP/s.db" </dev/null >/dev/null
/usr/bin/python3 - "$TMP/s.db" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
def put(device, ifname, source, cfg):
    db.execute("INSERT INTO config_snapshots (ts, device, ifname, source, config) VALUES (?,?,?,?,?)",
               (1700000000 * 10**9, device, ifname, source, json.dumps(cfg)))
ets = {"tsa": ["ets", "ets", "ets", "ets", "ets", "ets", "strict", "ets"],
       "bw": [40, 0, 0, 50, 0, 0, 0, 0]}
put("host1", "eth0", "dcbnl", {"ets": ets, "pfc": {"enabled": 8}})
put("host2", "eth0", "dcbnl", {"pfc": {"enabled": 8}})
put("host2", "eth0", "peer:lldp", {"pfc": {"enabled": 16}})
db.commit()
PY
run_rc rc "$DCBKIT" diagnose --store "$TMP/s.db" -T json
expect_eq "snapshots: exit status ($(cat "$TMP/err"))" 2 "$rc"
/usr/bin/python3 - "$TMP/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
by = {(f["rule"], f["device"]) for f in d["findings"]}
assert ("cfg-ets-sum", "host1") in by, by
assert ("cfg-pfc-mask-mismatch", "host2") in by, by
assert d["findings"][0]["rule"] == "cfg-pfc-mask-mismatch", d["findings"][0]
ets = [f for f in d["findings"] if f["rule"] == "cfg-ets-sum"][0]
assert "90%" in ets["summary"], ets
# TC 0 takes what RoCE's 50% leaves; the RoCE class keeps its share
assert (ets["knob"], ets["proposed"]) == ("ets.bw.0", "50"), ets
assert len(d["findings"]) == 2, [f["rule"] for f in d["findings"]]
PY

# The same over `store import`: three switch ports with their own config, two of them linked by
# topology rows (as collect, replay or another tool writes them). The link's ends disagree on
# PFC and on the MTU; sw2:e1 holds a mask no other port does, so the mismatch is its finding
# alone, and the MTU check fires at the switch end below its partner (sw1:e1).
cat >"$TMP/topo.jsonl" <<'JSONL'
{"ts": 1700000000000000000, "device": "sw1", "ifname": "e1", "source": "gnmi", "config": {"pfc": {"enabled": 8}, "mtu": 1500}}
{"ts": 1700000000000000000, "device": "sw1", "ifname": "e2", "source": "gnmi", "config": {"pfc": {"enabled": 8}, "mtu": 9216}}
{"ts": 1700000000000000000, "device": "sw2", "ifname": "e1", "source": "gnmi", "config": {"pfc": {"enabled": 24}, "mtu": 9216}}
{"ts": 1700000000000000000, "device": "sw1", "ifname": "e1", "source": "topology", "config": {"role": "switch", "peer": {"device": "sw2", "ifname": "e1", "role": "switch"}}}
{"ts": 1700000000000000000, "device": "sw2", "ifname": "e1", "source": "topology", "config": {"role": "switch", "peer": {"device": "sw1", "ifname": "e1", "role": "switch"}}}
JSONL
"$DCBKIT" store import --store "$TMP/topo.db" "$TMP/topo.jsonl" 2>"$TMP/err" || fail "import: $(cat "$TMP/err")"
run_rc rc "$DCBKIT" diagnose --store "$TMP/topo.db" -T json
expect_eq "imported topology: exit status ($(cat "$TMP/err"))" 2 "$rc"
expect_eq "imported topology: findings" \
    "cfg-mtu sw1:e1 9216; cfg-pfc-mask-mismatch sw2:e1 0x08" \
    "$(json_get "$TMP/out" '"; ".join(sorted("%s %s:%s %s" % (f["rule"], f["device"], f["ifname"], f["proposed"]) for f in d["findings"]))')"

# A cable not where the fabric file says: sw1:e2 is meant for sw3:e1, and LLDP on it hears
# sw3:e9. sw1:e1's LLDP agrees with its intent; sw2:e1 has intent only (nothing to compare).
cat >>"$TMP/topo.jsonl" <<'JSONL'
{"ts": 1700000000000000000, "device": "sw1", "ifname": "e2", "source": "topology", "config": {"role": "switch", "peer": {"device": "sw3", "ifname": "e1", "role": "switch"}}}
{"ts": 1700000000000000000, "device": "sw1", "ifname": "e2", "source": "topology:lldp", "config": {"peer": {"device": "sw3", "ifname": "e9"}, "via": "lldp"}}
{"ts": 1700000000000000000, "device": "sw1", "ifname": "e1", "source": "topology:lldp", "config": {"peer": {"device": "sw2", "ifname": "e1"}, "via": "lldp"}}
JSONL
"$DCBKIT" store import --store "$TMP/cable.db" "$TMP/topo.jsonl" 2>"$TMP/err" || fail "import: $(cat "$TMP/err")"
run_rc rc "$DCBKIT" diagnose --store "$TMP/cable.db" -T json
expect_eq "cabling: where" "sw1:e2 LLDP on this port hears sw3:e9, but the fabric file cables it to sw3:e1" \
    "$(json_get "$TMP/out" '"; ".join("%s:%s %s" % (f["device"], f["ifname"], f["summary"].split(": the")[0]) for f in d["findings"] if f["rule"] == "cabling-mismatch")')"

# Names joined: host1's LLDP hears its partner by chassis ID; that chassis is "leaf1.lab" (an
# alias:lldp row), which the fabric lists as leaf1's LLDP name (alias:fabric). The partner is
# leaf1:Ethernet0, whose PFC mask differs (host1 holds the odd one out). Then leaf2 claims
# leaf1.lab too: an identity conflict on both, and the chassis no longer leads anywhere.
cat >"$TMP/names.jsonl" <<'JSONL'
{"ts": 1700000000000000000, "device": "host1", "ifname": "eth0", "source": "dcbnl", "config": {"pfc": {"enabled": 16}}}
{"ts": 1700000000000000000, "device": "host1", "ifname": "eth0", "source": "topology:lldp", "config": {"peer": {"device": "aa:bb:cc:00:00:01", "ifname": "Ethernet0"}, "via": "lldp"}}
{"ts": 1700000000000000000, "device": "leaf1", "ifname": "Ethernet0", "source": "gnmi", "config": {"pfc": {"enabled": 8}}}
{"ts": 1700000000000000000, "device": "leaf1", "ifname": "Ethernet1", "source": "gnmi", "config": {"pfc": {"enabled": 8}}}
{"ts": 1700000000000000000, "device": "leaf1.lab", "ifname": "", "source": "alias:lldp", "config": {"names": ["aa:bb:cc:00:00:01"]}}
{"ts": 1700000000000000000, "device": "leaf1", "ifname": "", "source": "alias:fabric", "config": {"names": ["leaf1.lab", "10.0.0.1:8080"]}}
{"ts": 1700000000000000000, "device": "leaf2", "ifname": "Ethernet0", "source": "gnmi", "config": {"pfc": {"enabled": 8}}}
JSONL
"$DCBKIT" store import --store "$TMP/names.db" "$TMP/names.jsonl" 2>"$TMP/err" || fail "import: $(cat "$TMP/err")"
run_rc rc "$DCBKIT" diagnose --store "$TMP/names.db" -T json
expect_eq "aliases: the partner found by its chassis ID" "cfg-pfc-mask-mismatch host1:eth0 0x08" \
    "$(json_get "$TMP/out" '"; ".join(sorted("%s %s:%s %s" % (f["rule"], f["device"], f["ifname"], f["proposed"]) for f in d["findings"]))')"
echo '{"ts": 1700000000000000000, "device": "leaf2", "ifname": "", "source": "alias:fabric", "config": {"names": ["leaf1.lab"]}}' |
    "$DCBKIT" store import --store "$TMP/names.db" 2>"$TMP/err" || fail "import: $(cat "$TMP/err")"
run_rc rc "$DCBKIT" diagnose --store "$TMP/names.db" -v -T json
expect_eq "aliases: one name, two devices" \
    "identity-conflict leaf1: leaf1.lab (also leaf2); identity-conflict leaf2: leaf1.lab (also leaf1)" \
    "$(json_get "$TMP/out" '"; ".join(sorted("%s %s: %s" % (f["rule"], f["device"], f["summary"].split("among them ")[1].split(":")[0]) for f in d["findings"]))')"
expect_eq "aliases: an ambiguous partner is unknown" "peer.pfc.enabled" \
    "$(json_get "$TMP/out" '[u["missing"] for u in d["undecided"] if u["rule"] == "cfg-pfc-mask-mismatch" and u["device"] == "host1"][0]')"

# A capture: the two DCBX ends of dcbx-ieee-cee disagree on PFC, on the DCBX version, on the
# ETS tables (priority to traffic class and bandwidths) and on their App entries (UDP 4791 at
# one end, TCP/UDP 4791 at the other).
run_rc rc "$DCBKIT" diagnose --pcap "$ROOT/fixtures/captures/analyze/dcbx-ieee-cee.pcap" -T json
expect_eq "pcap: exit status" 2 "$rc"
expect_eq "pcap: rules fired" \
    "['cfg-app-mismatch', 'cfg-dcbx-roles', 'cfg-ets-mismatch', 'cfg-pfc-mask-mismatch']" \
    "$(json_get "$TMP/out" 'sorted({f["rule"] for f in d["findings"]})')"

# -v lists what could not be decided, and why.
run_rc rc "$DCBKIT" diagnose --pcap "$ROOT/fixtures/captures/analyze/dcbx-willing.pcap" -v -T json
expect_contains "undecided listed" "lacks" "$(json_get "$TMP/out" 'd["undecided"][0]["missing"]' | sed 's/^/lacks /')"

# Usage: exactly one evidence source; a bad profile.
run_rc rc "$DCBKIT" diagnose
expect_eq "no source" 64 "$rc"
run_rc rc "$DCBKIT" diagnose --fabric "$F/healthy.json" --store x.db
expect_eq "two sources" 64 "$rc"
run_rc rc "$DCBKIT" diagnose --fabric "$F/healthy.json" --profile nope
expect_eq "bad profile" 64 "$rc"
run_rc rc "$DCBKIT" diagnose --fabric "$TMP/missing.json"
expect_eq "missing fabric: could not decide" 3 "$rc"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "missing fabric: one line, got $(cat "$TMP/err")"

# the informational check: a watchdog that detects in 20 ms fires as info only; the healthy
# fabric does not
/usr/bin/python3 - "$F/healthy.json" "$TMP/info.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["switch_defaults"]["switch"]["pfcwd"].update(detect_ms=20, restore_ms=20)
json.dump(d, open(sys.argv[2], "w"))
PY
run_rc rc "$DCBKIT" diagnose --fabric "$TMP/info.json" -T json
expect_eq "info fabric: exit ($(cat "$TMP/err"))" 0 "$rc"
expect_eq "info fabric: the info check" "cfg-pfcwd-short" \
    "$(json_get "$TMP/out" '" ".join(sorted({f["rule"] for f in d["findings"]}))')"

# XON < WRED min < WRED max < XOFF broken (healthy: 400G, 20 KB < 50 KB < 150 KB < 180 KB): the
# value out of place is the knob, read from the config (issue 30 item 2). XON above WRED min:
# XON to half of WRED min. XOFF under WRED max, where no WRED max of its band (1 KB per Gb/s,
# 400 KB here) fits below it: XOFF to 4/3 of WRED max. XOFF under 1 us of the port (50 KB), so
# under any sane WRED min: XOFF again. WRED max above an XOFF that leaves room for one in the
# band: WRED max to 3/4 of XOFF.
order_fix() {  # NAME SETTINGS(python dict of buffer.3 / wred.3) WANT
    /usr/bin/python3 - "$F/healthy.json" "$TMP/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
sw = d["switch_defaults"]["switch"]
for k, v in json.loads(sys.argv[3]).items():
    sw[k]["3"].update(v)
json.dump(d, open(sys.argv[2], "w"))
PY
    "$DCBKIT" diagnose --fabric "$TMP/$1.json" -T json >"$TMP/fix.json" || true
    expect_eq "$1: the fix" "$3" "$(json_get "$TMP/fix.json" '" ".join(["%s %s=%s" % (
        d["findings"][0]["rule"], d["findings"][0]["knob"], d["findings"][0]["proposed"])]
        + d["findings"][0]["also"])')"
}
order_fix xon-high '{"buffer": {"xon": "100KB"}}' "cfg-threshold-xon switch.buffer.3.xon=25000"
order_fix xoff-mild '{"buffer": {"xoff": "120KB"}}' "cfg-threshold-order switch.buffer.3.xoff=200000"
order_fix xoff-gross '{"buffer": {"xoff": "40KB"}}' "cfg-threshold-order switch.buffer.3.xoff=200000"
order_fix kmax-high '{"buffer": {"xoff": "600KB"}, "wred": {"max_bytes": "1MB"}}' \
    "cfg-threshold-order switch.wred.3.max_bytes=450000"
run_rc rc "$DCBKIT" diagnose --fabric "$F/healthy.json" -T json
expect_eq "healthy: no info checks" "" \
    "$(json_get "$TMP/out" '" ".join(sorted({f["rule"] for f in d["findings"]}))')"
