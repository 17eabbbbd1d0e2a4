# dcbkit analyze on the captures nobody on this project wrote (../shared/captures): every file is
# analysed without error, and the numbers the README gives hold.
source "$(dirname "$0")/lib.bash"
need_shared captures
C=$SHARED/captures

n=0
for f in "$C"/*.pcap "$C"/*.pcapng; do
    [ -e "$f" ] || continue
    run_rc rc "$DCBKIT" analyze "$f" -T json
    expect_eq "analyze $(basename "$f") exit status ($(cat "$TMP/err"))" 0 "$rc"
    /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["schema"]==2 and d["capture"]["frames"]>0' "$TMP/out" \
        || fail "$(basename "$f"): not one JSON document with frames"
    run_rc rc "$DCBKIT" analyze "$f"
    expect_eq "analyze $(basename "$f") text exit status" 0 "$rc"
    head -1 "$TMP/out" | grep -q '^VERDICT \(ok\|warn\|crit\): ' || fail "$(basename "$f"): text does not start with the verdict"
    n=$((n + 1))
done
[ "$n" -ge 14 ] || fail "only $n shared captures found"

# softroce-rxe-roce.pcap (README): QPs 0x45 and 0x48; SEND First x33, SEND Last with Immediate
# x33, SEND Only with Immediate x2, ACKNOWLEDGE x37; 105 RoCE packets; ECT(0), DSCP 0.
"$DCBKIT" analyze "$C/softroce-rxe-roce.pcap" -T json >"$TMP/rxe.json"
/usr/bin/python3 - "$TMP/rxe.json" <<'PY'
import json, sys, collections
d = json.load(open(sys.argv[1]))
flows = d["flows"]["list"]
assert d["flows"]["roce_packets"] == 105, d["flows"]["roce_packets"]
assert sorted(f["dqpn"] for f in flows) == [0x45, 0x48], [f["dqpn"] for f in flows]
ops = collections.Counter()
for f in flows:
    for o in f["opcodes"]:
        ops[o["opcode"]] += o["packets"]
assert ops == {0: 33, 3: 33, 5: 2, 17: 37}, ops
assert sum(f["acks"] for f in flows) == 37
assert sum(f["naks"] + f["rnr_naks"] for f in flows) == 0
for f in flows:
    assert f["dscp"] == [0] and f["ecn"]["ect0"] == f["packets"], f
    assert f["psn_gaps"] == 0 and f["retransmit_episodes"] == 0, f
# The two flows are the two directions of one QP pair, paired by ACK PSNs.
by_qp = {f["dqpn"]: f for f in flows}
assert by_qp[0x45]["peer"]["dqpn"] == 0x48 and by_qp[0x48]["peer"]["dqpn"] == 0x45
# RoCE on DSCP 0 rides the default class, with no PFC and no marking queue: each QP says so.
got = sorted((f["rule"], f["severity"]) for f in d["findings"] if f["severity"] != "info")
assert got == [("roce-default-class", "warn")] * 2, got
assert d["verdict"]["level"] == "warn", d["verdict"]
PY

# tcpdump-dcb_pfc.pcap (README): IEEE PFC willing 0, MBC 0, cap 4, enable 0x34 = prio 2,4,5.
"$DCBKIT" analyze "$C/tcpdump-dcb_pfc.pcap" -T json >"$TMP/pfc.json"
/usr/bin/python3 - "$TMP/pfc.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
nb = d["dcbx"]["neighbours"]
assert nb, "no DCBX neighbour"
for n in nb:
    assert n["protocol"] == "ieee" and n["pfc_enable"] == 0x34 and n["pfc_cap"] == 4, n
    assert n["willing"] is False, n
assert d["capture"]["lossless"] == [2, 4, 5] and d["capture"]["lossless_source"] == "dcbx"
for l in d["dcbx"]["links"]:
    assert "pfc_enable" not in l["mismatches"], l
PY

# tcpdump-dcb_ets.pcap (README): ETS prio->TC 15,4,1,1,15,4,1,4; bandwidth 0,50,0,0,50,0,0,0.
"$DCBKIT" analyze "$C/tcpdump-dcb_ets.pcap" -T json >"$TMP/ets.json"
/usr/bin/python3 - "$TMP/ets.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ets = [n for n in d["dcbx"]["neighbours"] if n["has_ets"]]
assert ets, "no ETS neighbour"
assert any(n["prio_tc"] == [15, 4, 1, 1, 15, 4, 1, 4] and n["tc_bw"] == [0, 50, 0, 0, 50, 0, 0, 0]
           for n in ets), ets
# TC 15 is reserved in an IEEE ETS table: printed as heard, and commented by a finding.
got = [(f["rule"], f["severity"]) for f in d["findings"] if f["severity"] != "info"]
assert got == [("ets-reserved-tc", "warn")], got
assert d["findings"][0]["summary"].startswith("2 DCBX neighbours"), d["findings"][0]
PY
# A CEE table's PGID 15 is the strict group, not reserved: no finding on the CEE captures.
for f in "$C"/cee-dcbx*.pcap; do
    expect_eq "$(basename "$f"): reserved TC" "[]" "$("$DCBKIT" analyze "$f" -T json |
        /usr/bin/python3 -c 'import json,sys; print([x["rule"] for x in json.load(sys.stdin)["findings"] if x["rule"] == "ets-reserved-tc"])')"
done

# The CEE capture with willing set (README: cee-dcbx_sample_capture_2) is a CEE neighbour.
"$DCBKIT" analyze "$C/cee-dcbx_sample_capture_2.pcap" -T json >"$TMP/cee.json"
expect_eq "CEE neighbour protocol" cee "$(json_get "$TMP/cee.json" 'd["dcbx"]["neighbours"][0]["protocol"]')"
