# dcbkit diagnose over every file-like and local source, checking the figures each must give:
#   --pcap     pfc-storm.pcap (fixtures/captures/analyze/make_analyze_captures.py): 1254 PFC
#              frames on prio 3 forming one 250.3 ms storm, one PFC frame on prio 1. At 100G:
#              pause-storm on prio 3 with one storm event; with --lossless 3 also PFC on the lossy
#              prio 1 (1 frame, the fix pfc.enabled 0x08); with --storm-ms 300 the 250 ms pause is
#              no storm. pause-on-pfc.pcap: 5 802.3x PAUSE frames and 2 PFC frames on prio 3: a
#              global pause on a PFC link. A truncated capture: one line, exit 3.
#   --replay   pause-storm.json (host9, on switch1 Ethernet8, pauses without a break): pause-storm
#              at switch1:Ethernet8 prio 3 first, and the same findings, place for place, as
#   --store    the store `dcbkit replay pause-storm.json --store` writes.
#   --demo     the built-in demo's watchdog detects in 50 ms (< 100 ms): cfg-pfcwd-short (info)
#              on each of its 16 switch ports (2 leaves x 6, 2 spines x 2), nothing else, exit 0.
#   --local    a copy of the mlx5 sysfs fixture whose np_ecn_marked_roce_packets the test moves
#              by 500 between the two readings while np_cnp_sent stays: cnp-missing with 500
#              CE-marked packets and 0 CNPs; without the move, no cnp-missing.
source "$(dirname "$0")/lib.bash"
A=$ROOT/fixtures/captures/analyze
S=$ROOT/fixtures/scenarios

places() {  # FILE: the findings as "rule device:ifname/prio", one per line, in output order
    json_get "$1" '"\n".join("%s %s:%s/%d" % (f["rule"], f["device"], f["ifname"], f["prio"])
                             for f in d["findings"])'
}
evidence() {  # N: the evidence of the Nth finding of $TMP/out, "name=value;..."
    json_get "$TMP/out" "';'.join(e['name'] + '=' + e['value']
                                  for e in d['findings'][$1]['evidence'])"
}
source_of() {  # the source of $TMP/out, "kind name"
    json_get "$TMP/out" 'd["source"]["kind"] + " " + d["source"]["name"]'
}

# ---- --pcap ------------------------------------------------------------------------------------
run_rc rc "$DCBKIT" diagnose --pcap "$A/pfc-storm.pcap" --link-speed 100G -T json
expect_eq "pfc-storm: exit (crit)" 2 "$rc"
expect_eq "pfc-storm: source" "pcap $A/pfc-storm.pcap" \
    "$(source_of)"
expect_eq "pfc-storm: findings" "pause-storm pfc-storm.pcap:/3" "$(places "$TMP/out")"
expect_eq "pfc-storm: one storm event" "pause_storm[5m]=1" \
    "$(evidence 0)"

run_rc rc "$DCBKIT" diagnose --pcap "$A/pfc-storm.pcap" --link-speed 100G --lossless 3 -T json
expect_eq "pfc-storm --lossless 3: findings" "pause-storm pfc-storm.pcap:/3
pfc-on-lossy-priority pfc-storm.pcap:/1" "$(places "$TMP/out")"
expect_eq "pfc-storm --lossless 3: the lossy prio's frames" "capture.pfc_frames[5m]=1" \
    "$(evidence 1)"
# prio 3 alone is already lossless here: the frames for prio 1 come from the partner, so this
# end gets no proposal, and the finding says the cause lies elsewhere
expect_eq "pfc-storm --lossless 3: no proposal of the mask it has" "None" \
    "$(json_get "$TMP/out" 'd["findings"][1]["proposed"]')"
expect_contains "pfc-storm --lossless 3: says why" "pfc.enabled is already 0x08" \
    "$(json_get "$TMP/out" 'd["findings"][1]["summary"]')"

run_rc rc "$DCBKIT" diagnose --pcap "$A/pfc-storm.pcap" --link-speed 100G --lossless 3 \
    --storm-ms 300 -T json
expect_eq "pfc-storm --storm-ms 300: no storm" "pfc-on-lossy-priority pfc-storm.pcap:/1" \
    "$(places "$TMP/out")"

# the capture counters as the rules read them: 1254 frames on prio 3, 1 on prio 1, no PAUSE
mkdir "$TMP/probe"
cat >"$TMP/probe/capture.rules" <<'R'
[probe-capture]
severity = info
scope    = port
when     = delta(capture.pfc_frames{prio=3}[5m]) >= 0
message  = p3={delta(capture.pfc_frames{prio=3}[5m])} p1={delta(capture.pfc_frames{prio=1}[5m])}
           pause={delta(capture.pause_frames[5m])}
R
run_rc rc "$DCBKIT" diagnose --pcap "$A/pfc-storm.pcap" --link-speed 100G --rules "$TMP/probe" \
    -T json
expect_eq "pfc-storm: capture counters" "p3=1254 p1=1 pause=0" \
    "$(json_get "$TMP/out" '[f["summary"] for f in d["findings"]
                             if f["rule"] == "probe-capture"][0]')"

run_rc rc "$DCBKIT" diagnose --pcap "$A/pause-on-pfc.pcap" --link-speed 100G -T json
expect_eq "pause-on-pfc: exit (warn)" 1 "$rc"
expect_eq "pause-on-pfc: findings" "global-pause-with-pfc pause-on-pfc.pcap:/-1" \
    "$(places "$TMP/out")"
expect_eq "pause-on-pfc: 5 PAUSE frames, 2 PFC frames on prio 3" \
    "capture.pause_frames[5m]=5;capture.pfc_frames_any[5m]=2" \
    "$(evidence 0)"

head -c 20000 "$A/pfc-storm.pcap" >"$TMP/cut.pcap"
run_rc rc "$DCBKIT" diagnose --pcap "$TMP/cut.pcap"
expect_eq "truncated capture: exit" 3 "$rc"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "truncated capture: not one line: $(cat "$TMP/err")"
expect_contains "truncated capture: names the file" "dcbkit: $TMP/cut.pcap: truncated" \
    "$(cat "$TMP/err")"
# 20000 bytes: a 24-byte header, then 76 bytes a frame (16 of record header, 60 of frame)
expect_contains "truncated capture: where" "after $(((20000 - 24) / 76)) packets" \
    "$(cat "$TMP/err")"
run_rc rc "$DCBKIT" diagnose --pcap "$TMP/none.pcap"
expect_eq "missing capture: exit" 3 "$rc"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "missing capture: not one line: $(cat "$TMP/err")"

# ---- --replay and --store ----------------------------------------------------------------------
run_rc rc "$DCBKIT" diagnose --replay "$S/pause-storm.json" -T json
expect_eq "replay pause-storm: exit (crit)" 2 "$rc"
expect_eq "replay pause-storm: first finding" "pause-storm switch1:Ethernet8/3" \
    "$(places "$TMP/out" | head -1)"
expect_eq "replay pause-storm: source" "replay $S/pause-storm.json" \
    "$(source_of)"
places "$TMP/out" >"$TMP/via-replay"

"$DCBKIT" replay "$S/pause-storm.json" --store "$TMP/storm.db" >/dev/null 2>"$TMP/err" ||
    fail "replay --store: $(cat "$TMP/err")"
run_rc rc "$DCBKIT" diagnose --store "$TMP/storm.db" -T json
expect_eq "store pause-storm: exit (crit)" 2 "$rc"
expect_eq "store pause-storm: first finding" "pause-storm switch1:Ethernet8/3" \
    "$(places "$TMP/out" | head -1)"
expect_eq "store and replay: the same findings at the same places" "$(cat "$TMP/via-replay")" \
    "$(places "$TMP/out")"

# --at is dcbtop's: diagnose reads a store as of its newest data
run_rc rc "$DCBKIT" diagnose --store "$TMP/storm.db" --at -10m
expect_eq "store --at: usage" 64 "$rc"

# ---- --demo ------------------------------------------------------------------------------------
# the demo's fault is a slow receiver (host8 drains at 2G): warn, and it comes first; since
# replay series start at zero its first pauses count, which they did not before
run_rc rc "$DCBKIT" diagnose --demo -T json
expect_eq "demo: exit ($(cat "$TMP/err"))" 1 "$rc"
expect_eq "demo: source" "replay demo" "$(source_of)"
expect_eq "demo: the slow receiver first" "slow-receiver host8:eth0/3" \
    "$(places "$TMP/out" | head -1)"
want=""
for sw in leaf1:6 leaf2:6 spine1:2 spine2:2; do
    for i in $(seq 0 $((${sw#*:} - 1))); do
        want+="cfg-pfcwd-short ${sw%:*}:Ethernet$i/-1"$'\n'
    done
done
expect_eq "demo: the short watchdog on the 16 switch ports" "${want%$'\n'}" \
    "$(places "$TMP/out" | grep '^cfg-pfcwd-short ')"
expect_eq "demo: detection 50 ms" "50" \
    "$(json_get "$TMP/out" '{e["value"] for f in d["findings"] for e in f["evidence"]
                             if "detect" in e["name"]}.pop()')"

# ---- --local -----------------------------------------------------------------------------------
cp -a "$ROOT/fixtures/sysfs/mlx5/t0" "$TMP/sysfs"
ce=$TMP/sysfs/class/infiniband/mlx5_0/ports/1/hw_counters/np_ecn_marked_roce_packets
local_run() {  # MOVE: diagnose --local over 2 s, moving the CE counter by MOVE after 1 s
    "$DCBKIT" diagnose --local --sysfs-root "$TMP/sysfs" --no-lldp --device fixture \
        --interval 2s -T json >"$TMP/out" 2>"$TMP/err" & local pid=$!
    sleep 1
    [ "$1" -gt 0 ] && echo $(($(cat "$ce") + $1)) >"$ce"
    rc=0
    wait $pid || rc=$?
}
local_run 500
expect_eq "local: exit (crit) ($(cat "$TMP/err"))" 2 "$rc"
expect_eq "local: source" "local" "$(json_get "$TMP/out" 'd["source"]["kind"]')"
expect_eq "local: cnp-missing" "cnp-missing fixture:ens1f0/-1" "$(places "$TMP/out")"
expect_eq "local: 500 CE-marked, 0 CNPs" "roce.ecn_marked_rx[5m]=500;cnp.sent[5m]=0" \
    "$(evidence 0)"
local_run 0
expect_eq "local, nothing moved: exit" 0 "$rc"
expect_eq "local, nothing moved: no finding" "" "$(places "$TMP/out")"
echo ok
