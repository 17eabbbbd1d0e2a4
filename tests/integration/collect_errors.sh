# dcbkit collect on bad ground: an interface that does not exist, a sysfs tree it may not read
# (as an unprivileged user), and one bad interface among good ones (reported, the rest collected).
source "$(dirname "$0")/lib.bash"
need_tool setpriv

run_rc rc "$DCBKIT" collect --ifname dcbk-nope0 --once
expect_eq "missing iface exit" 1 "$rc"
expect_contains "missing iface" "dcbkit: collect: dcbk-nope0: no such interface" "$(head -1 "$TMP/err")"

# A small sysfs tree: eth0 and eth1 with netdev statistics.
root=$TMP/sys
for i in 0 1; do
    mkdir -p "$root/class/net/eth$i/statistics"
    for c in rx_bytes tx_bytes rx_packets tx_packets; do echo $((i * 1000 + 7)) >"$root/class/net/eth$i/statistics/$c"; done
done
"$DCBKIT" collect --sysfs-root "$root" --once -T json >"$TMP/ok.jsonl" 2>/dev/null
expect_eq "both read" "eth0 eth1" "$(/usr/bin/python3 -c '
import json,sys; print(" ".join(sorted({json.loads(l)["ifname"] for l in open(sys.argv[1])})))' "$TMP/ok.jsonl")"

# eth1 unreadable for an unprivileged user: reported once, eth0 still collected, exit 0.
chmod -R a+rX "$TMP"
chmod 000 "$root/class/net/eth1/statistics"
run_rc rc setpriv --reuid=65534 --regid=65534 --clear-groups \
    "$DCBKIT" collect --sysfs-root "$root" --once -T json
expect_eq "partial failure exit" 0 "$rc"
expect_contains "partial failure reported" "eth1" "$(grep -v '^dcbkit: collected' "$TMP/err")"
expect_eq "eth0 still there" 4 "$(grep -c '"ifname":"eth0"' "$TMP/out")"

# The whole tree unreadable: one line, non-zero.
chmod 000 "$root/class/net"
run_rc rc setpriv --reuid=65534 --regid=65534 --clear-groups "$DCBKIT" collect --sysfs-root "$root" --once
expect_eq "no permission exit" 1 "$rc"
expect_contains "no permission" "Permission denied" "$(head -1 "$TMP/err")"
chmod -R u+rwX "$root"
echo ok
