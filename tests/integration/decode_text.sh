# dcbkit decode text output: one tcpdump-style line per frame; -v adds the decoded layers.
# The expected lines are written from the frames make_captures.py builds.
source "$(dirname "$0")/lib.bash"
F=$ROOT/fixtures/captures

out=$("$DCBKIT" decode -r "$F/pause-pfc.pcap" -c 1)
expect_eq "PAUSE line" "1700000000.000000 02:00:00:00:00:01 > 01:80:c2:00:00:01, PAUSE quanta 65535 (83884.8 ns), length 60" "$out"

out=$("$DCBKIT" decode -r "$F/pause-pfc.pcap" --link-speed 100G 'ether[17] = 0x18')
expect_eq "PFC line, filter, 100G" "1700000004.004000 02:00:00:00:00:01 > 01:80:c2:00:00:01, PFC enable 0x18 p3=4660 p4=65535, length 60" "$out"

lines=$("$DCBKIT" decode -r "$F/roce-ipv4.pcap" | wc -l)
expect_eq "one line per frame" "$(tshark -r "$F/roce-ipv4.pcap" 2>/dev/null | wc -l)" "$lines"

out=$("$DCBKIT" decode -r "$F/roce-ipv4.pcap" -c 1 'udp[8] = 0x81')
expect_contains "CNP" "RoCEv2 op 129" "$out"
expect_contains "CNP BECN" " BECN " "$out"
expect_contains "CNP qp" "qp 0x0000d2 psn 0" "$out"

out=$("$DCBKIT" decode -r "$F/roce-ipv4.pcap" -c 1 'udp[8] = 0x11 and udp[20] = 0x60')
expect_contains "NAK" "nak 0 (PSN sequence error) msn 1096" "$out"

# -v adds layers the plain line leaves out.
plain=$("$DCBKIT" decode -r "$F/roce-ipv4.pcap" -c 1)
verbose=$("$DCBKIT" decode -r "$F/roce-ipv4.pcap" -c 1 -v)
case "$plain" in *pkey*) fail "plain line has the P_Key: $plain" ;; esac
expect_contains "-v P_Key" "pkey 0xffff" "$verbose"
expect_contains "-v UDP" "udp len" "$verbose"
expect_contains "-v ethertype" "ethertype 0x0800" "$verbose"

out=$("$DCBKIT" decode -r "$F/lldp-dcbx.pcap" -c 1 -v)
expect_contains "LLDP" "LLDP chassis 02:00:00:00:00:10 port Ethernet1/1 ttl 120" "$out"
expect_contains "-v ETS" "ETS-cfg willing 1 tcs 8 bw 10/10/10/40/10/10/5/5" "$out"
expect_contains "-v mgmt" "mgmt 10.0.0.1" "$out"

# Hostile strings cannot drive the terminal: control bytes print as \xNN.
/usr/bin/python3 - "$TMP/esc.pcap" <<'PY'
import struct, sys
tlvs = (struct.pack("!H", 1 << 9 | 7) + b"\x04" + bytes(6) + struct.pack("!H", 2 << 9 | 3) + b"\x05p1" +
        struct.pack("!H", 3 << 9 | 2) + b"\x00\x78" + struct.pack("!H", 5 << 9 | 8) + b"\x1b[2Jevil")
frame = bytes.fromhex("0180c200000e020000000001") + b"\x88\xcc" + tlvs
with open(sys.argv[1], "wb") as out:
    out.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    out.write(struct.pack("<IIII", 0, 0, len(frame), len(frame)) + frame)
PY
out=$("$DCBKIT" decode -r "$TMP/esc.pcap")
expect_contains "escaped" 'sysname "\x1b[2Jevil"' "$out"
"$DCBKIT" decode -r "$TMP/esc.pcap" -T json >"$TMP/esc.json"
expect_eq "json sysname" $'\x1b[2Jevil' "$(json_get "$TMP/esc.json" 'd["lldp"]["sysname"]')"

# JSON: one object per frame with the contract keys, only for the layers present.
"$DCBKIT" decode -r "$F/roce-vlan.pcap" -T json -c 1 >"$TMP/v.json"
expect_eq "frame keys" "['frame', 'ts', 'caplen', 'len', 'eth', 'vlan', 'ip', 'udp', 'bth', 'payload_len', 'icrc', 'icrc_ok']" \
    "$(json_get "$TMP/v.json" 'list(d)')"
expect_eq "ts" "1700000000.0" "$(json_get "$TMP/v.json" 'd["ts"]')"
expect_eq "vlan" "[{'tpid': 33024, 'vid': 100, 'pcp': 3, 'dei': 0}]" "$(json_get "$TMP/v.json" 'd["vlan"]')"
expect_eq "bth keys" "['opcode', 'transport', 'name', 'se', 'm', 'pad', 'tver', 'pkey', 'fecn', 'becn', 'dqpn', 'ackreq', 'psn']" \
    "$(json_get "$TMP/v.json" 'list(d["bth"])')"
"$DCBKIT" decode -r "$F/pause-pfc.pcap" -T json -c 4 --link-speed 400G | tail -1 >"$TMP/pfc.json"
expect_eq "pfc" "{'enable': 8, 'quanta': [0, 0, 0, 65535, 0, 0, 0, 0], 'ns': [0, 0, 0, 83884.8, 0, 0, 0, 0], 'dst_ok': True, 'enable_reserved': False}" \
    "$(json_get "$TMP/pfc.json" 'd["pfc"]')"

# Usage errors: exit 64, one line.
for args in "" "-r a -i b" "-r x -c 0" "-r x -c abc" "-r x --link-speed fast" "-r $F/pause-pfc.pcap not-a-filter((" "--bogus"; do
    # shellcheck disable=SC2086
    run_rc rc "$DCBKIT" decode $args
    expect_eq "decode $args" 64 "$rc"
    expect_eq "decode $args: one line" 1 "$(wc -l <"$TMP/err")"
done
