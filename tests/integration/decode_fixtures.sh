# fixtures/captures/make_captures.py writes exactly the committed .pcap files, byte for byte.
source "$(dirname "$0")/lib.bash"
need_tool tshark
/usr/bin/python3 -c 'import scapy' 2>/dev/null || skip "python3-scapy not installed (scripts/bootstrap installs it)"

mkdir "$TMP/gen"
/usr/bin/python3 "$ROOT/fixtures/captures/make_captures.py" "$TMP/gen"
committed=$(cd "$ROOT/fixtures/captures" && ls *.pcap *.pcapng)
generated=$(cd "$TMP/gen" && ls *.pcap *.pcapng)
expect_eq "the script makes the committed set of files" "$committed" "$generated"
for f in $committed; do
    cmp "$ROOT/fixtures/captures/$f" "$TMP/gen/$f" || fail "$f differs from what make_captures.py writes"
done

# What the fixtures must cover between them (issue 5): counted from tshark, not from dcbkit.
count() { tshark -r "$1" --disable-protocol tftp -Y "$2" 2>/dev/null | wc -l; }
F=$ROOT/fixtures/captures
for op in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 22 23 32 36 37 38 42 43 100 101 129; do
    [ "$(count "$F/roce-ipv4.pcap" "infiniband.bth.opcode == $op")" -ge 1 ] || fail "roce-ipv4 lacks opcode $op"
    [ "$(count "$F/roce-ipv6.pcap" "infiniband.bth.opcode == $op && ipv6")" -ge 1 ] || fail "roce-ipv6 lacks opcode $op"
done
for syn in 0 31 32 46 96 97 98 99; do
    [ "$(count "$F/roce-ipv4.pcap" "infiniband.aeth.syndrome == $syn")" -ge 1 ] || fail "no AETH syndrome $syn"
done
[ "$(count "$F/roce-vlan.pcap" "vlan && infiniband")" -ge 3 ] || fail "too few VLAN-tagged RoCE frames"
[ "$(count "$F/roce-vlan.pcap" "ieee8021ad && vlan")" -ge 1 ] || fail "no QinQ RoCE frame"
[ "$(count "$F/pause-pfc.pcap" "macc.opcode == 0x0001")" -ge 3 ] || fail "too few PAUSE frames"
[ "$(count "$F/pause-pfc.pcap" "macc.opcode == 0x0101")" -ge 8 ] || fail "too few PFC frames"
[ "$(count "$F/pause-pfc.pcap" "macc.dst_address_invalid")" -ge 2 ] || fail "no PAUSE/PFC with a wrong DA"
[ "$(count "$F/pause-pfc.pcap" "macc.cbfc.enbv.not_zero")" -ge 1 ] || fail "no PFC with enable bits above 7"
[ "$(count "$F/lldp-dcbx.pcap" "lldp.dcbx.iee.app.sf == 5")" -ge 2 ] || fail "no DSCP-selector App entries"
[ "$(count "$F/lldp-dcbx.pcap" "lldp.dcbx.proto == 2")" -ge 2 ] || fail "too few CEE frames"
[ "$(count "$F/lldp-dcbx.pcap" "lldp.ieee.802_1.subtype == 0x0a")" -ge 1 ] || fail "no ETS Recommendation"
[ "$(count "$F/lldp-dcbx.pcap" "lldp.ieee.802_1.subtype == 0x08")" -ge 1 ] || fail "no CN TLV"
trunc=$(tshark -r "$F/truncated-snaplen40.pcap" -T fields -e frame.cap_len 2>/dev/null | sort -u)
expect_eq "truncated frames are cut at 40 bytes" "40" "$trunc"
