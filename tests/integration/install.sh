# make install PREFIX=...: the binary and its man page land under PREFIX and work from there.
source "$(dirname "$0")/lib.bash"
need_tool make

build=${BUILD:-$ROOT/build/cc}
make -s -C "$ROOT" install PREFIX="$TMP/prefix" BUILD="$build" >"$TMP/log" 2>&1 ||
    fail "make install: $(tail -5 "$TMP/log")"
[ -x "$TMP/prefix/bin/dcbkit" ] || fail "no bin/dcbkit under PREFIX"
[ -s "$TMP/prefix/share/man/man1/dcbkit.1" ] || fail "no man page under PREFIX"
"$TMP/prefix/bin/dcbkit" --version | grep -q '^dcbkit ' || fail "installed dcbkit does not run"
head -1 "$TMP/prefix/share/man/man1/dcbkit.1" | grep -q '^\.TH DCBKIT' || fail "man page is not roff"
echo ok
