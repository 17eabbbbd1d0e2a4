# Two ends of a link, each known only by what the other heard over LLDP: two namespaces joined
# by a veth, each sending IEEE DCBX (PFC enable 0x08 from nsA:va, 0x10 from nsB:vb, neither
# willing) while `dcbkit collect` listens in each, into one store. Each collect records the
# partner's advertisement under its own port and a topology:lldp row naming the partner (its LLDP
# system name and port ID). diagnose --store joins the two: each port's own PFC mask is what
# its partner heard it advertise, the partner's is its own, and the masks disagree.
#
# The answer, written first: cfg-pfc-mask-mismatch at both ends (two ports, a tie: neither
# mask is the usual one), nsA:va proposing 0x10 and nsB:vb proposing 0x08; and with the same
# mask on both ends (0x08), no mismatch and nothing undecided for want of the partner's mask.
source "$(dirname "$0")/lib.bash"
netns_pair m
ip link add va netns "$A" type veth peer name vb netns "$B"
ip -n "$A" link set va up
ip -n "$B" link set vb up

advertise() {  # advertise NETNS IFNAME SYSNAME PFC_MASK: one LLDPDU with an IEEE PFC TLV
    ip netns exec "$1" /usr/bin/python3 - "$2" "$3" "$4" <<'PY'
import socket, struct, sys
ifname, sysname, mask = sys.argv[1], sys.argv[2].encode(), int(sys.argv[3], 0)
def tlv(t, body):
    return struct.pack("!H", t << 9 | len(body)) + body
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((ifname, 0))
mac = s.getsockname()[4]
pdu = (tlv(1, b"\x04" + mac) + tlv(2, b"\x05" + ifname.encode()) + tlv(3, b"\x00\x78") +
       tlv(5, sysname) + tlv(127, b"\x00\x80\xc2\x0b" + bytes([0x08, mask])) + tlv(0, b""))
s.send(b"\x01\x80\xc2\x00\x00\x0e" + mac + b"\x88\xcc" + pdu)
PY
}

run_case() {  # run_case TAG MASK_A MASK_B: both collects into $TMP/TAG.db, then diagnose
    local db="$TMP/$1.db"
    ip netns exec "$A" "$DCBKIT" collect --ifname va --device nsA --interval 200ms --count 8 \
        --store "$db" >/dev/null 2>"$TMP/$1.a.err" &
    local ca=$!
    ip netns exec "$B" "$DCBKIT" collect --ifname vb --device nsB --interval 200ms --count 8 \
        --store "$db" >/dev/null 2>"$TMP/$1.b.err" &
    local cb=$!
    sleep 0.5
    advertise "$A" va nsA "$2"
    advertise "$B" vb nsB "$3"
    wait $ca || fail "collect in $A: $(cat "$TMP/$1.a.err")"
    wait $cb || fail "collect in $B: $(cat "$TMP/$1.b.err")"
    run_rc rc "$DCBKIT" diagnose --store "$db" -v -T json
    [ "$rc" -le 2 ] || fail "diagnose $1: exit $rc: $(cat "$TMP/err")"
    cp "$TMP/out" "$TMP/$1.json"
}

run_case differ 0x08 0x10
/usr/bin/python3 - "$TMP/differ.json" "$TMP/differ.db" <<'PY'
import json, sqlite3, sys
# each port's partner as LLDP named it: the other end, never the port's own frame going out
rows = sqlite3.connect(sys.argv[2]).execute(
    "SELECT device, ifname, config FROM config_snapshots WHERE source = 'topology:lldp'").fetchall()
partners = {(d, i): (json.loads(c)["peer"]["device"], json.loads(c)["peer"]["ifname"])
            for d, i, c in rows}
assert partners == {("nsA", "va"): ("nsB", "vb"), ("nsB", "vb"): ("nsA", "va")}, rows
d = json.load(open(sys.argv[1]))
got = {(f["device"], f["ifname"]): f["proposed"] for f in d["findings"]
       if f["rule"] == "cfg-pfc-mask-mismatch"}
want = {("nsA", "va"): "0x10", ("nsB", "vb"): "0x08"}
assert got == want, (got, want)
print("mismatch named at both ends:", sorted(got))
PY

run_case same 0x08 0x08
/usr/bin/python3 - "$TMP/same.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
fired = [(f["device"], f["ifname"]) for f in d["findings"] if f["rule"] == "cfg-pfc-mask-mismatch"]
assert not fired, fired
lacking = [u for u in d["undecided"] if u["rule"] == "cfg-pfc-mask-mismatch"
           and u["device"] in ("nsA", "nsB")]
assert not lacking, lacking
print("same masks: no mismatch, nothing undecided")
PY
echo ok
