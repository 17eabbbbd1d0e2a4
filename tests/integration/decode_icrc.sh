# ICRC: tshark never checks it, so the fixtures carry deliberately corrupted ones. Good frames
# (IPv4 and IPv6, scapy's ICRC and the script's own) give icrc_ok true, corrupted ones false.
source "$(dirname "$0")/lib.bash"
F=$ROOT/fixtures/captures

icrc_column() { "$DCBKIT" decode -r "$1" -T json | /usr/bin/python3 -c '
import json, sys
print(" ".join(str(json.loads(l).get("icrc_ok")) for l in sys.stdin))'; }

# roce-icrc.pcap: good v4, bad v4, good v6, bad v6, bad ACK v4, bad CNP v6 (make_captures.py).
expect_eq "roce-icrc" "True False True False False False" "$(icrc_column "$F/roce-icrc.pcap")"

for f in roce-ipv4 roce-ipv6 roce-vlan; do
    col=$(icrc_column "$F/$f.pcap")
    n=$(wc -w <<<"$col")
    [ "$n" -ge 4 ] || fail "$f: only $n frames"
    expect_eq "$f: every ICRC good" "" "$(tr ' ' '\n' <<<"$col" | grep -v '^True$' || true)"
done

# The real Soft-RoCE capture: all 105 RoCE frames carry a good ICRC.
if [ -d "$SHARED/captures" ]; then
    col=$(icrc_column "$SHARED/captures/softroce-rxe-roce.pcap")
    expect_eq "rxe good ICRCs" 105 "$(tr ' ' '\n' <<<"$col" | grep -c '^True$')"
    expect_eq "rxe bad ICRCs" 0 "$(tr ' ' '\n' <<<"$col" | grep -c '^False$' || true)"
else
    skip "shared data $SHARED/captures not found"
fi

# Flipping one payload byte of a good frame makes it bad (the check covers the payload).
/usr/bin/python3 - "$F/roce-icrc.pcap" "$TMP/flip.pcap" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
data[24 + 16 + 14 + 20 + 8 + 12] ^= 1        # pcap header, record header, Eth, IPv4, UDP, BTH
open(sys.argv[2], "wb").write(data)
PY
expect_eq "flipped payload" "False" "$(icrc_column "$TMP/flip.pcap" | cut -d' ' -f1)"
