# dcbkit collect listens for LLDP neighbours: a link partner in another namespace sends IEEE and
# CEE DCBX frames (from fixtures/captures/lldp-dcbx.pcap) over a veth; collect records a
# dcbx_seen event and the peer's advertised config once per change. Without CAP_NET_RAW it says
# so once and still collects counters. serve exports the partner's advertised config as
# dcbkit_qos_config{source="peer:lldp"}, and with --no-lldp does not listen: no such series.
source "$(dirname "$0")/lib.bash"
need_tool setpriv
netns_pair l
ip link add va netns "$A" type veth peer name vb netns "$B"
ip -n "$A" link set va up
ip -n "$B" link set vb up

send_frames() {  # send_frames FRAME... : frames of the fixture, by number, out of vb
    ip netns exec "$B" /usr/bin/python3 - "$ROOT/fixtures/captures/lldp-dcbx.pcap" "$@" <<'PY'
import socket, struct, sys
data = open(sys.argv[1], "rb").read()
frames, off = [], 24
while off + 16 <= len(data):
    incl = struct.unpack("<IIII", data[off:off + 16])[2]
    frames.append(data[off + 16:off + 16 + incl])
    off += 16 + incl
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("vb", 0))
for n in sys.argv[2:]:
    s.send(frames[int(n) - 1])
PY
}

ip netns exec "$A" "$DCBKIT" collect --ifname va --interval 200ms --count 12 -T json \
    >"$TMP/out.jsonl" 2>"$TMP/err" &
collector=$!
sleep 0.6
send_frames 1 1          # the same advertisement twice: one record
sleep 0.6
send_frames 3            # the partner switches to CEE
wait $collector || fail "collect failed: $(cat "$TMP/err")"
/usr/bin/python3 - "$TMP/out.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
seen = [r for r in rows if r.get("event") == "dcbx_seen"]
peers = [r for r in rows if r.get("config_source") == "lldp"]
assert [s["details"]["dcbx"] for s in seen] == ["ieee", "cee"], seen
assert seen[0]["ifname"] == "va" and seen[0]["details"] == {"peer": "leaf-1", "port": "Ethernet1/1", "dcbx": "ieee"}
assert len(peers) == 2, peers
ieee = peers[0]
assert ieee["device"] == "leaf-1" and ieee["ifname"] == "Ethernet1/1" and ieee["seen_on"].endswith(":va")
c = ieee["config"]
assert c["pfc"] == {"enabled": 8, "willing": True}, c["pfc"]
assert c["dcbx"]["mode"] == "ieee"
assert c["prio2tc"]["3"] == 3 and c["ets"]["bw"]["3"] == 40 and c["ets"]["tsa"]["7"] == "strict"
cee = peers[1]["config"]
assert peers[1]["device"] == "nexus" and cee["dcbx"]["mode"] == "cee" and cee["pfc"]["enabled"] == 8
print("neighbour recorded: %s, then %s" % (ieee["device"], peers[1]["device"]))
PY

# Without CAP_NET_RAW: said once, counters still collected.
chmod 755 "$TMP"
run_rc rc ip netns exec "$A" setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
    "$DCBKIT" collect --ifname va --interval 100ms --count 3 -T json
expect_eq "unprivileged exit" 0 "$rc"
expect_eq "said once" 1 "$(grep -c 'needs CAP_NET_RAW' "$TMP/err")"
grep -q '"metric":"port.rx_bytes"' "$TMP/out" || fail "no counters without CAP_NET_RAW"

# serve, with and without --no-lldp, both reading va in A while the partner advertises
ip -n "$A" link set lo up
: >"$TMP/listens.err"
: >"$TMP/deaf.err"
ip netns exec "$A" "$DCBKIT" serve --local --ifname va --listen 127.0.0.1:0 --interval 200ms \
    --no-rules 2>"$TMP/listens.err" &
cleanup_hooks+=("kill $! 2>/dev/null")
ip netns exec "$A" "$DCBKIT" serve --local --ifname va --listen 127.0.0.1:0 --interval 200ms \
    --no-rules --no-lldp 2>"$TMP/deaf.err" &
cleanup_hooks+=("kill $! 2>/dev/null")
for tag in listens deaf; do      # each serve's port in $TMP/TAG.port
    for _ in $(seq 50); do grep -q "listening on" "$TMP/$tag.err" && break; sleep 0.1; done
    sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$TMP/$tag.err" | head -1 \
        >"$TMP/$tag.port"
    [ -s "$TMP/$tag.port" ] || fail "serve ($tag): no port: $(cat "$TMP/$tag.err")"
done
page_in_a() { ip netns exec "$A" curl -s "http://127.0.0.1:$(cat "$TMP/$1.port")/metrics"; }
sleep 0.6                # a round or two: each has opened what it listens with
send_frames 1
for _ in $(seq 50); do page_in_a listens | grep -q 'source="peer:lldp"' && break; sleep 0.1; done
page_in_a listens >"$TMP/listens.page"
page_in_a deaf >"$TMP/deaf.page"
grep -q 'source="peer:lldp"' "$TMP/listens.page" ||
    fail "serve did not export the partner's config: $(grep qos_config "$TMP/listens.page")"
grep -q 'dcbkit_port_rx_bytes_total{[^}]*ifname="va"' "$TMP/deaf.page" ||
    fail "serve --no-lldp exported no counters of va"
if grep -q 'source="peer:lldp"' "$TMP/deaf.page"; then
    fail "serve --no-lldp exported the partner's config: $(grep peer:lldp "$TMP/deaf.page")"
fi
echo "serve: $(grep -c 'source="peer:lldp"' "$TMP/listens.page") peer:lldp config series; none with --no-lldp"
echo ok
