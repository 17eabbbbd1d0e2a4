# dcbkit collect on a real veth pair between two network namespaces made here: the SIOCETHTOOL
# ioctl runs (veth's raw peer_ifindex counter is there, and its 10 Gb/s link speed), traffic shows in the netdev counters
# with rates that add up to the bytes sent (within 5%), and deleting and re-creating the veth
# mid-run gives a source_gap event while the run goes on and picks the interface up again.
source "$(dirname "$0")/lib.bash"
netns_pair v
make_veth() {
    ip link add va netns "$A" type veth peer name vb netns "$B"
    ip -n "$A" addr add 169.254.77.1/30 dev va
    ip -n "$B" addr add 169.254.77.2/30 dev vb
    ip -n "$A" link set va up
    ip -n "$B" link set vb up
    ip -n "$A" link set lo up
    # one datagram resolves ARP before anything is measured
    ip netns exec "$A" /usr/bin/python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("169.254.77.2", 9))' ||
        fail "veth does not pass traffic"
}
make_veth

# 1. Counters and rates while 1.5 MB of UDP crosses the link.
ip netns exec "$A" "$DCBKIT" collect --ifname va --interval 200ms --count 16 -T json \
    --store "$TMP/veth.db" >"$TMP/run1.jsonl" 2>"$TMP/run1.err" &
collector=$!
sleep 0.5
ip netns exec "$A" /usr/bin/python3 - >"$TMP/sent" <<'PY'
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
payload = b"x" * 1000
n = 1500
for i in range(n):
    s.sendto(payload, ("169.254.77.2", 9))
    if i % 100 == 99:
        time.sleep(0.05)
print(n * (1000 + 8 + 20 + 14))   # UDP + IPv4 + Ethernet headers: what tx_bytes counts
PY
wait $collector || fail "collect failed: $(cat "$TMP/run1.err")"
/usr/bin/python3 - "$TMP/run1.jsonl" "$(cat "$TMP/sent")" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
sent = int(sys.argv[2])
raw = {r["counter"] for r in rows if r.get("source") == "ethtool"}
assert "peer_ifindex" in raw, "no raw ioctl counter: %s" % sorted(raw)[:10]
tx = [r for r in rows if r.get("metric") == "port.tx_bytes"]
assert len(tx) == 16, len(tx)
assert tx[0]["rate"] is None and all(r["rate"] is not None for r in tx[1:])
# bytes implied by the reported rates, over each interval
by_rates = sum(r["rate"] * (r["ts"] - p["ts"]) / 1e9 for p, r in zip(tx, tx[1:]))
delta = tx[-1]["value"] - tx[0]["value"]
for what, got in (("rates", by_rates), ("delta", delta)):
    err = abs(got - sent) / sent
    print("%s: %.0f bytes vs %d sent (%.2f%%)" % (what, got, sent, 100 * err))
    assert err < 0.05, what
# veth reports 10000 Mb/s through ETHTOOL_GLINKSETTINGS: one link.speed_bps gauge per sample
speed = [r for r in rows if r.get("metric") == "link.speed_bps"]
assert len(speed) == 16, len(speed)
assert all(r["value"] == 10 * 10**9 and r["source"] == "ethtool" and r["rate"] is None
           for r in speed), speed[:2]
rx_metrics = {r["metric"] for r in rows if r.get("metric")}
assert {"port.rx_bytes", "port.tx_packets", "port.rx_packets"} <= rx_metrics, rx_metrics
PY
# veth has no DCB: said once over 16 samples, not an error storm
expect_eq "DCB not supported, once" 1 "$(grep -c 'va: DCB config not available: not supported by the driver' "$TMP/run1.err")"
# the store has the canonical series
"$DCBKIT" store delta --store "$TMP/veth.db" --metric port.tx_bytes --since 1h -T json >"$TMP/d.json"
expect_eq "stored delta > sent*0.95" True "$(json_get "$TMP/d.json" "d['series'][0]['delta'] >= 0.95 * $(cat "$TMP/sent")")"

# 2. The veth vanishes mid-run and comes back.
ip netns exec "$A" "$DCBKIT" collect --ifname 'v*' --interval 200ms --count 20 -T json \
    >"$TMP/run2.jsonl" 2>"$TMP/run2.err" &
collector=$!
sleep 1
ip -n "$A" link del va
sleep 1
make_veth
wait $collector || fail "collect stopped when the interface vanished: $(cat "$TMP/run2.err")"
/usr/bin/python3 - "$TMP/run2.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
gaps = [r for r in rows if r.get("event") == "source_gap" and r["ifname"] == "va"]
assert len(gaps) == 1, gaps
gap = gaps[0]["ts"]
before = [r for r in rows if r.get("metric") == "port.tx_bytes" and r["ts"] < gap]
after = [r for r in rows if r.get("metric") == "port.tx_bytes" and r["ts"] > gap]
assert before and after, (len(before), len(after))
print("gap at sample %d; %d samples before, %d after" % (len(before), len(before), len(after)))
PY
echo ok
