# Every path that opens a raw socket as root drops what it does not need once its sockets, store
# and files are open (lib/privs.h), read from /proc/PID/status while each runs in a namespace
# this test makes:
#   collect --ifname va (this host, LLDP on)    nobody, CapEff CAP_NET_RAW + CAP_DAC_READ_SEARCH
#   collect --ifname va --no-lldp               nobody, CAP_DAC_READ_SEARCH only
#   collect --capture va --store DB             nobody, no capability (the store still written)
#   serve --local --ifname va                   nobody, CAP_NET_RAW + CAP_DAC_READ_SEARCH
#   dcbtop -b --local --ifname va               nobody, CAP_NET_RAW + CAP_DAC_READ_SEARCH
# CapEff bits: CAP_DAC_READ_SEARCH is 2 (0x4), CAP_NET_RAW 13 (0x2000).
source "$(dirname "$0")/lib.bash"
netns_pair p
ip link add va netns "$A" type veth peer name vb netns "$B"
ip -n "$A" link set va up
ip -n "$B" link set vb up
getent passwd nobody >/dev/null || skip "no user nobody on this host"
chmod 755 "$TMP"

# check_status TAG WANT_CAPEFF COMMAND...: start it in $A, read its status after 1 s
check_status() {
    local tag=$1 want=$2
    shift 2
    ip netns exec "$A" "$@" >"$TMP/$tag.out" 2>"$TMP/$tag.err" &
    local pid=$!
    sleep 1.2
    [ -r "/proc/$pid/status" ] || fail "$tag: exited early: $(cat "$TMP/$tag.err")"
    local uid cap
    uid=$(awk '/^Uid:/ {print $2 " " $3 " " $4}' "/proc/$pid/status")
    cap=$(awk '/^CapEff:/ {print $2}' "/proc/$pid/status")
    kill -TERM "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null || true
    expect_eq "$tag: uid (real, effective, saved)" "65534 65534 65534" "$uid"
    expect_eq "$tag: effective capabilities" "$want" "$cap"
    echo "$tag: nobody, CapEff $cap"
}

check_status collect-lldp 0000000000002004 \
    "$DCBKIT" collect --ifname va --interval 200ms --count 50
check_status collect-nolldp 0000000000000004 \
    "$DCBKIT" collect --ifname va --no-lldp --interval 200ms --count 50
check_status capture 0000000000000000 \
    "$DCBKIT" collect --capture va --interval 200ms --count 50 --store "$TMP/cap.db"
check_status serve 0000000000002004 \
    "$DCBKIT" serve --local --ifname va --listen 127.0.0.1:0 --interval 200ms
check_status dcbtop 0000000000002004 \
    "$DCBTOP" -b -n 50 -d 0.2 --local --ifname va

# what ran as nobody still wrote its store (opened before the drop)
"$DCBKIT" store info --store "$TMP/cap.db" -T json >"$TMP/info.json" || fail "cap.db unreadable"
grep -q '"samples"' "$TMP/info.json" || fail "no store written: $(cat "$TMP/info.json")"
echo ok
