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
# The rule catalog and counter maps come from PREFIX/share/dcbkit, not from the source tree.
[ -s "$TMP/prefix/share/dcbkit/rules/config.rules" ] || fail "no rule catalog under PREFIX"
[ -n "$(ls "$TMP/prefix/share/dcbkit/maps/"*.json 2>/dev/null)" ] || fail "no counter maps under PREFIX"
# the list of documents the catalog's references cite ships beside it
refs="$TMP/prefix/share/dcbkit/docs/rules-references.md"
cmp -s "$refs" "$ROOT/docs/rules-references.md" || fail "no docs/rules-references.md under PREFIX"
cp "$ROOT/fixtures/fabrics/headroom-short.json" "$TMP/f.json"
sed -i 's/^\[cfg-headroom\]/[cfg-headroom-installed]/' "$TMP/prefix/share/dcbkit/rules/config.rules"
set +e
"$TMP/prefix/bin/dcbkit" diagnose --fabric "$TMP/f.json" -T json >"$TMP/d.json" 2>"$TMP/d.err"
set -e
expect_eq "installed catalog is the one used" cfg-headroom-installed \
    "$(json_get "$TMP/d.json" 'd["findings"][0]["rule"]')"
expect_eq "installed diagnose links the installed list" "file://$(realpath "$refs")#sonic-buffers" \
    "$(json_get "$TMP/d.json" 'd["findings"][0]["reference_links"][0]')"
# dcbtop: the second binary and its page, running from PREFIX with PREFIX's maps and catalog
[ -x "$TMP/prefix/bin/dcbtop" ] || fail "no bin/dcbtop under PREFIX"
head -1 "$TMP/prefix/share/man/man1/dcbtop.1" | grep -q '^\.TH DCBTOP' || fail "no dcbtop(1)"
"$TMP/prefix/bin/dcbtop" --version | grep -q '^dcbtop ' || fail "installed dcbtop does not run"
"$TMP/prefix/bin/dcbtop" -b -n 1 -T json --sysfs-root "$ROOT/fixtures/sysfs/mlx5/t0" \
    --proc-root "$TMP/noproc" >"$TMP/top.json" 2>"$TMP/top.err" || fail "dcbtop: $(cat "$TMP/top.err")"
expect_eq "installed dcbtop reads with the installed maps" ens1f0 \
    "$(json_get "$TMP/top.json" 'd["interfaces"][0]["ifname"]')"
# shell completion where bash-completion and zsh look for it, and a bash that sources it
# completes dcbkit
comp="$TMP/prefix/share/bash-completion/completions/dcbkit"
[ -s "$comp" ] || fail "no bash completion under PREFIX"
[ -s "$TMP/prefix/share/zsh/site-functions/_dcbkit" ] || fail "no zsh completion under PREFIX"
expect_eq "installed bash completion" "complete -o filenames -F _dcbkit dcbkit" \
    "$(bash -c "source '$comp'; complete -p dcbkit")"
# the same script completes dcbtop, under dcbtop's own name for bash-completion's loader
expect_eq "installed dcbtop completion" "complete -o filenames -F _dcbtop dcbtop" \
    "$(bash -c "source '$TMP/prefix/share/bash-completion/completions/dcbtop'; complete -p dcbtop")"
# the documents, the Grafana dashboard and the Prometheus rules ship
for f in README.md guide.md scenario.md grafana/dcbkit.json prometheus/dcbkit.rules.yml; do
    [ -s "$TMP/prefix/share/dcbkit/docs/$f" ] || fail "no share/dcbkit/docs/$f under PREFIX"
done
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' \
    "$TMP/prefix/share/dcbkit/docs/grafana/dcbkit.json" || fail "installed dashboard is not JSON"
# DESTDIR stages the same tree under another root
make -s -C "$ROOT" install PREFIX=/usr DESTDIR="$TMP/stage" BUILD="$build" >"$TMP/log" 2>&1 ||
    fail "make install DESTDIR: $(tail -5 "$TMP/log")"
[ -s "$TMP/stage/usr/share/bash-completion/completions/dcbkit" ] ||
    fail "no bash completion under DESTDIR/PREFIX"
echo ok
