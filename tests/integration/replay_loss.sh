# What the replay's NICs count reaches the rules: a link that goes down under an incast loses
# what was queued for it and what came meanwhile; replayed into a store, diagnose --store finds
# roce-loss-go-back-n at the receiver (packets out of sequence) and at the senders (NAKs), with
# the replay's own counts. With the reaction point off the CNPs sent are ignored, not handled:
# cnp-not-handled fires (it did not while a CNP counted as handled whatever the RP did).
source "$(dirname "$0")/lib.bash"
SCEN=$ROOT/fixtures/scenarios
cp -r "$SCEN/fabrics" "$TMP/"
cat >"$TMP/flap.json" <<'EOF'
{"name": "receiver-link-down",
 "fabric": "fabrics/star-40g.json",
 "workload": {"type": "incast", "receiver": "host9", "count": 2, "bytes": 0, "dscp": 26},
 "faults": [{"type": "link-down", "link": "switch1:Ethernet8", "at_ms": 0.5, "until_ms": 0.6}],
 "duration_ms": 2, "seed": 1, "sample_interval_us": 20}
EOF

run_rc rc "$DCBKIT" replay "$TMP/flap.json" --store "$TMP/flap.db" -T json
expect_eq "replay --store: exit ($(cat "$TMP/err"))" 0 "$rc"
cp "$TMP/out" "$TMP/replay.json"
run_rc rc "$DCBKIT" diagnose --store "$TMP/flap.db" -T json
expect_eq "diagnose: exit ($(cat "$TMP/err"))" 2 "$rc"
/usr/bin/python3 - "$TMP/replay.json" "$TMP/out" <<'PY' || fail "link down: the loss rule"
import json, sys
r = json.load(open(sys.argv[1]))
d = json.load(open(sys.argv[2]))
fig = r["figures"]
assert fig["out_of_sequence"] > 0 and fig["naks_received"] > 0 and fig["retransmitted"] > 0, fig
loss = {f["device"]: f for f in d["findings"] if f["rule"] == "roce-loss-go-back-n"}
assert set(loss) == {"host1", "host2", "host9"}, sorted(loss)
assert all(f["severity"] == "crit" for f in loss.values())
# the evidence is the replay's counts: out of sequence at the receiver, NAKs at the senders
text = json.dumps(loss["host9"])
assert "out of sequence %d" % fig["out_of_sequence"] in loss["host9"]["summary"], text
naks = sum(int(f["summary"].split("NAK sequence errors ")[1].split(",")[0])
           for h, f in loss.items() if h != "host9")
assert naks == fig["naks_received"], (naks, fig["naks_received"])
PY

run_rc rc "$DCBKIT" replay "$SCEN/healthy-incast.json" --set nic.dcqcn.rp_enabled=0 \
    --store "$TMP/rp.db" -T json
expect_eq "replay RP off: exit ($(cat "$TMP/err"))" 0 "$rc"
expect_eq "RP off: CNPs handled" "0 65 65" \
    "$(json_get "$TMP/out" '"%d %d %d" % (d["figures"]["cnp_handled"], d["figures"]["cnp_ignored"], d["figures"]["cnp_sent"])')"
run_rc rc "$DCBKIT" diagnose --store "$TMP/rp.db" -T json
expect_eq "diagnose RP off: exit ($(cat "$TMP/err"))" 2 "$rc"
expect_eq "RP off: the first finding" "cnp-not-handled" \
    "$(json_get "$TMP/out" 'd["findings"][0]["rule"]')"
