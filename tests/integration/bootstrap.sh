# scripts/bootstrap: one dpkg-query, nothing installed when nothing is missing, one apt-get call
# for what is, and the exact apt-get line (exit 1) when not root; two sets, run (make run) and
# check (make check), and --list shows both.
source "$(dirname "$0")/lib.bash"
need_tool dpkg-query

BOOT=$ROOT/scripts/bootstrap
mkdir -p "$TMP/bin"

# Shims on PATH record every apt-get/debconf call. FAKE_MISSING lists packages to report missing.
cat >"$TMP/bin/dpkg-query" <<SH
#!/bin/sh
shift 2  # -W -f=...
for p in "\$@"; do
  case " \${FAKE_MISSING:-} " in *" \$p "*) ;; *) echo "\$p installed" ;; esac
done
SH
cat >"$TMP/bin/apt-get" <<SH
#!/bin/sh
echo "apt-get \$*" >>"$TMP/calls"
case "\$1" in install) : >"$TMP/installed" ;; esac
SH
cat >"$TMP/bin/debconf-set-selections" <<SH
#!/bin/sh
cat >>"$TMP/debconf"
SH
chmod +x "$TMP/bin/"*

# 1. Everything present (the real dpkg database, as after a first run): no apt-get, fast.
if missing=$("$BOOT" --missing); then
    start=$(date +%s%N)
    PATH="$TMP/bin-real-only:$PATH" "$BOOT"
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    echo "bootstrap with nothing missing: ${ms} ms"
    [ "$ms" -lt 2000 ] || fail "bootstrap took ${ms} ms with nothing to install (limit 2000)"
else
    echo "note: this machine lacks $(echo $missing); checking the no-op path with shims only"
fi
: >"$TMP/calls"
PATH="$TMP/bin:$PATH" "$BOOT"
[ ! -s "$TMP/calls" ] || fail "bootstrap called apt-get with nothing missing: $(cat "$TMP/calls")"

# 2. As root with two packages missing: one update, one install of exactly those two.
if [ "$(id -u)" -eq 0 ]; then
    : >"$TMP/calls"
    FAKE_MISSING="tshark libcmocka-dev" PATH="$TMP/bin:$PATH" "$BOOT" 2>"$TMP/err" || true
    expect_eq "apt-get calls" "apt-get update -qq
apt-get install -y -qq --no-install-recommends libcmocka-dev tshark" "$(cat "$TMP/calls")"
    grep -q "wireshark-common/install-setuid boolean false" "$TMP/debconf" ||
        fail "tshark's debconf question was not answered"
    # the run set: what building and running need, not the test peers
    : >"$TMP/calls"
    FAKE_MISSING="tshark libcmocka-dev" PATH="$TMP/bin:$PATH" "$BOOT" run 2>"$TMP/err" || true
    [ ! -s "$TMP/calls" ] || fail "bootstrap run installs test packages: $(cat "$TMP/calls")"
    FAKE_MISSING="tshark libpcap-dev" PATH="$TMP/bin:$PATH" "$BOOT" run 2>"$TMP/err" || true
    expect_eq "apt-get calls for run" "apt-get update -qq
apt-get install -y -qq --no-install-recommends libpcap-dev" "$(cat "$TMP/calls")"
fi

# 3. Not root with something missing: the exact line, exit 1, nothing run.
need_tool setpriv
chmod 755 "$TMP" "$TMP/bin"
: >"$TMP/calls"
chmod 666 "$TMP/calls"
set +e
FAKE_MISSING="tshark" PATH="$TMP/bin:$PATH" setpriv --reuid=65534 --regid=65534 --clear-groups \
    "$BOOT" >"$TMP/out" 2>"$TMP/err"
rc=$?
set -e
expect_eq "non-root exit" 1 "$rc"
expect_contains "non-root line" "DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends tshark" "$(cat "$TMP/err")"
[ ! -s "$TMP/calls" ] || fail "non-root bootstrap ran apt-get: $(cat "$TMP/calls")"

# 4. --list names the packages the README promises, in two sets: running needs no test peer,
# and the check set holds the run set.
for p in tshark libcmocka-dev clang libclang-rt-14-dev libpcap-dev protobuf-c-compiler chromium \
         prometheus curl; do
    "$BOOT" --list check | grep -qx "$p" || fail "bootstrap check does not install $p"
done
for p in make gcc libpcap-dev libsqlite3-dev libmicrohttpd-dev protobuf-c-compiler zlib1g-dev; do
    "$BOOT" --list run | grep -qx "$p" || fail "bootstrap run does not install $p"
done
for p in tshark chromium prometheus libcmocka-dev clang curl python3-scapy; do
    ! "$BOOT" --list run | grep -qx "$p" || fail "bootstrap run installs $p, which only tests need"
done
extra=$(comm -23 <("$BOOT" --list run | sort) <("$BOOT" --list check | sort))
expect_eq "run packages outside the check set" "" "$extra"
"$BOOT" --list >"$TMP/list"
grep -qx "run:" "$TMP/list" && grep -q "^check" "$TMP/list" || fail "--list lacks a set: $(cat "$TMP/list")"
expect_eq "--list counts" "$("$BOOT" --list check | wc -l)" "$(grep -c '^  ' "$TMP/list")"
# make run bootstraps the run set, make check the check set
for t in run check; do
    make -n -C "$ROOT" "$t" BUILD="$TMP/nobuild" >"$TMP/make-$t" 2>&1 || true
    grep -q "^scripts/bootstrap $t\$" "$TMP/make-$t" ||
        fail "make $t does not bootstrap the $t set: $(head -3 "$TMP/make-$t")"
done
echo ok
