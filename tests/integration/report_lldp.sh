# An LLDP system name from the wire reaches the report as text. A link partner in another
# namespace sends LLDP with the system name <script>alert(1)</script> over a veth; dcbkit collect
# records it in the store (dcbx_seen and the peer's config); dcbkit report shows the neighbour in
# the device section: escaped in report.html, escaped in report.md, verbatim in report.json.
source "$(dirname "$0")/lib.bash"
netns_pair r
ip link add va netns "$A" type veth peer name vb netns "$B"
ip -n "$A" link set va up
ip -n "$B" link set vb up

send_lldp() {
    ip netns exec "$B" /usr/bin/python3 - <<'PY'
import socket, struct
def tlv(t, body):
    return struct.pack("!H", t << 9 | len(body)) + body
name = b"<script>alert(1)</script>"
frame = (b"\x01\x80\xc2\x00\x00\x0e" + b"\x02\x00\x00\x00\x00\x09" + b"\x88\xcc" +
         tlv(1, b"\x04" + b"\x02\x00\x00\x00\x00\x09") + tlv(2, b"\x05" + b"<img src=x>") +
         tlv(3, struct.pack("!H", 120)) + tlv(5, name) + tlv(0, b""))
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("vb", 0))
s.send(frame)
PY
}

cat >"$TMP/fabric.json" <<'JSON'
{"name": "lldp-lab", "defaults": {"trust": "dscp", "pfc": {"enabled": 8}},
 "devices": [{"name": "hostA", "role": "host", "reach": "local", "interfaces": {"va": {}}}],
 "links": []}
JSON
ip netns exec "$A" "$DCBKIT" collect --ifname va --device hostA --interval 200ms --count 8 \
    --store "$TMP/s.db" >/dev/null 2>"$TMP/collect.err" &
collector=$!
sleep 0.6
send_lldp
wait $collector || fail "collect failed: $(cat "$TMP/collect.err")"

run_rc rc "$DCBKIT" report --fabric "$TMP/fabric.json" --store "$TMP/s.db" --since 10m \
    --out "$TMP/report"
[ "$rc" -le 2 ] || fail "report exit $rc: $(cat "$TMP/err")"
html=$(cat "$TMP/report/report.html")
md=$(cat "$TMP/report/report.md")
case "$html" in *"<script"*|*"<img"*) fail "the LLDP strings reached report.html unescaped" ;; esac
expect_contains "html neighbour" "<td>&lt;script&gt;alert(1)&lt;/script&gt;</td><td>&lt;img src=x&gt;</td>" "$html"
case "$md" in *"<script"*|*"<img"*) fail "the LLDP strings reached report.md unescaped" ;; esac
expect_contains "md neighbour" "&lt;script&gt;alert(1)&lt;/script&gt;" "$md"
expect_eq "json keeps the name" "<script>alert(1)</script>" \
    "$(json_get "$TMP/report/report.json" '[n["peer"] for x in d["devices"] for n in x["neighbours"]][0]')"
echo ok
