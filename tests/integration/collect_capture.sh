# dcbkit collect --capture: the decoders and trackers on live traffic. A partner namespace sends
# the frames of two analyze fixtures (a PSN gap with a NAK and go-back-N retransmission, an RNR
# NAK; PFC on several classes with XOFF, refresh and XON) over a veth; collect, capturing on the
# other end, writes the events as they happen and capture.* counters every interval into the
# store, and they match what was sent. A bad filter and a missing interface are one-line errors.
source "$(dirname "$0")/lib.bash"
netns_pair c
ip link add ca netns "$A" type veth peer name cb netns "$B"
ip -n "$A" link set ca up
ip -n "$B" link set cb up
AF=$ROOT/fixtures/captures/analyze

run_rc rc ip netns exec "$A" "$DCBKIT" collect --capture ca --count 1 'not a filter ((('
expect_eq "bad filter" 64 "$rc"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "bad filter: not one line: $(cat "$TMP/err")"
run_rc rc ip netns exec "$A" "$DCBKIT" collect --capture nosuch0 --count 1
expect_eq "missing interface" 1 "$rc"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "missing interface: not one line: $(cat "$TMP/err")"

send_pcap() {  # send_pcap FILE: every frame of a nanosecond pcap out of cb, in order
    ip netns exec "$B" /usr/bin/python3 - "$1" <<'PY'
import socket, struct, sys
data = open(sys.argv[1], "rb").read()
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("cb", 0))
off = 24
while off + 16 <= len(data):
    incl = struct.unpack("<IIII", data[off:off + 16])[2]
    s.send(data[off + 16:off + 16 + incl])
    off += 16 + incl
PY
}

ip netns exec "$A" "$DCBKIT" collect --capture ca --link-speed 100G --interval 100ms --count 14 \
    --store "$TMP/c.db" -T json >"$TMP/out.jsonl" 2>"$TMP/err" &
collector=$!
sleep 0.4
send_pcap "$AF/roce-gap-retx.pcap"
send_pcap "$AF/pfc-classes.pcap"
wait $collector || fail "collect --capture failed: $(cat "$TMP/err")"
grep -q "frames captured" "$TMP/err" || fail "no summary line: $(cat "$TMP/err")"

# What was sent, counted from the fixtures' expected files (written by the capture script).
/usr/bin/python3 - "$TMP/out.jsonl" "$AF" "$TMP/c.db" "$(dirname "$0")/lib" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
gap = json.load(open(sys.argv[2] + "/roce-gap-retx.expected.json"))["expect"]
pfc = json.load(open(sys.argv[2] + "/pfc-classes.expected.json"))["expect"]

def last(metric, prio=-1):
    vals = [r["value"] for r in rows if r.get("metric") == metric and r["prio"] == prio]
    assert vals, (metric, prio)
    return vals[-1]

assert all(r["source"] == "capture" and r["ifname"] == "ca" for r in rows if "metric" in r)
roce = gap["capture"]["frames"]
assert last("capture.roce_packets") == roce, (last("capture.roce_packets"), roce)
flows = gap["flows"]["list"]
assert last("capture.psn_gaps") == sum(f.get("psn_gaps", 0) for f in flows)
assert last("capture.naks") == sum(f.get("naks", 0) + f.get("rnr_naks", 0) for f in flows)
assert last("capture.retransmits") == sum(f.get("retransmit_episodes", 0) for f in flows)
for prio in (3, 4):
    want = sum(c["frames"] for c in pfc["pauses"]["classes"] if c["prio"] == prio)
    assert last("capture.pfc_frames", prio) == want, (prio, last("capture.pfc_frames", prio), want)
# paused time of finished intervals (its length depends on when the frames arrived, not on the
# fixture's timestamps): some, and no more than the quanta sent could ask for
got_us = last("capture.pfc_paused_us", 3)
assert 0 < got_us <= 6 * 671, got_us
assert last("capture.dropped") == 0

events = [r for r in rows if "event" in r]
kinds = {e["event"] for e in events}
assert {"psn_gap", "nak", "rnr_nak", "retransmit", "pfc_xoff", "pfc_xon"} <= kinds, kinds
assert all(e["ifname"] == "ca" for e in events)

sys.path.insert(0, sys.argv[4])
import store_sql
db = store_sql.connect(sys.argv[3])
stored = {k for (k,) in db.execute("select distinct kind from events")}
assert kinds <= stored, (kinds, stored)
n = db.execute("select count(*) from samples_all s join series m on s.series = m.id "
               "where m.metric = 'capture.roce_packets'").fetchone()[0]
assert n >= 10, n
PY
