# dcbkit decode -i: live capture on the loopback interface. As root it opens the interface,
# then runs as nobody; SIGINT stops it with a summary line on stderr. Not root: one clear error.
source "$(dirname "$0")/lib.bash"

if [ "$(id -u)" -ne 0 ]; then
    run_rc rc "$DCBKIT" decode -i lo -c 1
    expect_eq "not root: exit" 1 "$rc"
    expect_eq "not root: one line" 1 "$(wc -l <"$TMP/err")"
    expect_contains "not root: names the interface" "dcbkit: lo: " "$(cat "$TMP/err")"
    exit 0
fi

# A RoCEv2-looking datagram to port 4791: BTH (RC SEND Only, QP 0x4d2, PSN 7) and an ICRC.
send_roce() {
    /usr/bin/python3 - <<'PY'
import socket, struct
bth = struct.pack("!BBHBBHBBH", 0x04, 0, 0xffff, 0, 0, 0x04d2, 0x80, 0, 7)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.sendto(bth + b"payload!" + b"\0\0\0\0", ("127.0.0.1", 4791))
PY
}

"$DCBKIT" decode -i lo -T json 'udp dst port 4791' >"$TMP/live.jsonl" 2>"$TMP/live.err" &
pid=$!
cleanup_hooks+=("kill $pid 2>/dev/null")
# Wait until it runs as nobody: the capture is open by then.
for _ in $(seq 50); do
    [ "$(ps -o user= -p $pid 2>/dev/null | tr -d ' ')" = nobody ] && break
    sleep 0.1
done
expect_eq "runs as nobody" nobody "$(ps -o user= -p $pid | tr -d ' ')"
expect_eq "no supplementary groups" "" "$(awk '/^Groups:/ { $1 = ""; print }' /proc/$pid/status | tr -d ' ')"
send_roce
send_roce
for _ in $(seq 50); do
    [ "$(wc -l <"$TMP/live.jsonl")" -ge 2 ] && break
    sleep 0.1
done
kill -INT $pid
set +e
wait $pid
rc=$?
set -e
expect_eq "SIGINT exit" 0 "$rc"
expect_eq "frames" 2 "$(wc -l <"$TMP/live.jsonl")"
/usr/bin/python3 - "$TMP/live.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    assert d["ip"]["src"] == "127.0.0.1" and d["udp"]["dport"] == 4791, d
    assert d["bth"]["opcode"] == 4 and d["bth"]["dqpn"] == 0x4d2 and d["bth"]["psn"] == 7, d
    assert d["icrc_ok"] is False, d          # the datagram carries a zero ICRC
PY
expect_contains "summary" "2 frames decoded, 0 malformed" "$(cat "$TMP/live.err")"

# -c stops by itself.
"$DCBKIT" decode -i lo -c 1 'udp dst port 4791' >"$TMP/one.txt" 2>"$TMP/one.err" &
pid=$!
for _ in $(seq 50); do
    [ "$(ps -o user= -p $pid 2>/dev/null | tr -d ' ')" = nobody ] && break
    sleep 0.1
done
send_roce
wait $pid
expect_contains "text line" "RoCEv2 op 4 RC SEND Only qp 0x0004d2" "$(cat "$TMP/one.txt")"

run_rc rc "$DCBKIT" decode -i no-such-iface0
expect_eq "bad interface" 1 "$rc"
expect_eq "bad interface: one line" 1 "$(wc -l <"$TMP/err")"
