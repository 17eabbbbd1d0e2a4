# The dcbkit front door: version, help, usage errors (one line, exit 64), the man page.
source "$(dirname "$0")/lib.bash"

run_rc rc "$DCBKIT" --version
expect_eq "--version exit" 0 "$rc"
grep -Eq '^dcbkit [0-9a-g.]+' "$TMP/out" || fail "--version printed: $(cat "$TMP/out")"
# dcbtop -V names its build the same way (the commit it was built from; an incremental build
# can relink one binary and not the other, so the two versions are not compared).
DCBTOP=${DCBTOP:-$ROOT/build/cc/bin/dcbtop}
run_rc rc "$DCBTOP" -V
expect_eq "dcbtop -V exit" 0 "$rc"
grep -Eqx 'dcbtop [0-9a-g.]+(-dirty)?' "$TMP/out" || fail "dcbtop -V printed: $(cat "$TMP/out")"

run_rc rc "$DCBKIT" help
expect_eq "help exit" 0 "$rc"
for c in calc metrics help; do
    grep -Eq "^  $c " "$TMP/out" || fail "help does not list '$c'"
done

run_rc rc "$DCBKIT" help calc
expect_eq "help calc exit" 0 "$rc"
for section in Usage: Options: Examples: "JSON output"; do
    grep -q "$section" "$TMP/out" || fail "help calc lacks $section"
done
run_rc rc "$DCBKIT" calc --help
expect_eq "calc --help exit" 0 "$rc"
grep -q "dcbkit calc pause QUANTA" "$TMP/out" || fail "calc --help lacks the synopsis"

# Every command's --help prints its help and stops: exit 0 at once, nothing collected or run
# (collect --help once went on to collect). The commands are the ones `dcbkit help` lists.
"$DCBKIT" help > "$TMP/cmds"
for c in $(awk '/^Commands:/ { f = 1; next } /^$/ { f = 0 } f { print $1 }' "$TMP/cmds"); do
    run_rc rc timeout 5 "$DCBKIT" "$c" --help
    expect_eq "$c --help exit" 0 "$rc"
    grep -q "^Usage:" "$TMP/out" || fail "$c --help printed no usage"
    [ ! -s "$TMP/err" ] || fail "$c --help wrote to stderr: $(head -c 200 "$TMP/err")"
done

# No command: the overview on stderr, exit 64.
run_rc rc "$DCBKIT"
expect_eq "no command exit" 64 "$rc"

# Usage errors: exit 64 and exactly one line on stderr, nothing on stdout.
check_usage_error() {
    local expect=$1
    shift
    run_rc rc "$DCBKIT" "$@"
    expect_eq "'$*' exit" 64 "$rc"
    expect_eq "'$*' stderr lines" 1 "$(wc -l <"$TMP/err")"
    expect_eq "'$*' stdout" "" "$(cat "$TMP/out")"
    expect_contains "'$*' message" "$expect" "$(cat "$TMP/err")"
}
check_usage_error "dcbkit: unknown command 'frobnicate'" frobnicate
check_usage_error "dcbkit: unknown option '--frob'" --frob calc
check_usage_error "dcbkit calc: unknown option '--frob'" calc pause 1 --frob
check_usage_error "dcbkit calc: unknown option '-x'" calc pause 1 -x
check_usage_error "needs a value" calc pause 1 --link-speed
check_usage_error "unknown link speed unit 'X'" calc pause 1 --link-speed 400X
check_usage_error "-T takes 'text' or 'json'" calc pause 1 -T yaml
check_usage_error "unknown formula 'headroo'" calc headroo
check_usage_error "unknown command 'nope'" help nope
check_usage_error "unexpected argument 'extra'" metrics extra

# Global options go before the command; -T json there applies to the command.
run_rc rc "$DCBKIT" -T json calc pause 1 --link-speed 100G
expect_eq "global -T exit" 0 "$rc"
expect_eq "global -T json" "5.12" "$(json_get "$TMP/out" 'd["pauses"][0]["ns"]')"

# -q before the command means what it means after it: a command's own remarks go too. store
# import says "imported N samples" on stderr unless quiet.
printf '%s\n' '{"ts": 1700000000000000000, "device": "h", "ifname": "e0",'\
' "metric": "port.rx_bytes", "prio": -1, "queue": -1, "value": 5}' >"$TMP/one.jsonl"
run_rc rc "$DCBKIT" store import --store "$TMP/loud.db" "$TMP/one.jsonl"
expect_eq "store import exit" 0 "$rc"
expect_contains "store import remark" "imported 1 samples" "$(cat "$TMP/err")"
for args in "-q store import --store $TMP/q1.db" "store import -q --store $TMP/q2.db" \
            "--quiet store import --store $TMP/q3.db"; do
    # shellcheck disable=SC2086
    run_rc rc "$DCBKIT" $args "$TMP/one.jsonl"
    expect_eq "'$args' exit" 0 "$rc"
    expect_eq "'$args' stderr" "" "$(cat "$TMP/err")"
done

# The man page is roff with every command in it.
run_rc rc "$DCBKIT" help --man
expect_eq "help --man exit" 0 "$rc"
head -1 "$TMP/out" | grep -q '^\.TH DCBKIT 1' || fail "man page lacks .TH"
for c in calc metrics help; do
    grep -q "^\.SS $c " "$TMP/out" || fail "man page lacks a section for $c"
done
if command -v groff >/dev/null 2>&1; then
    groff -man -Tutf8 -ww -z "$TMP/out" 2>"$TMP/groff.err" || fail "groff rejects the man page"
    [ ! -s "$TMP/groff.err" ] || fail "groff warns: $(head -3 "$TMP/groff.err")"
fi
# dcbtop's help and man page come from the same renderer: its own options, the source options
# from the one list every command shares (source_option_docs), its keys; usage errors in the
# same one-line form.
if [ -x "${DCBTOP:-}" ]; then
    run_rc rc "$DCBTOP" --help
    expect_eq "dcbtop --help exit" 0 "$rc"
    for section in Usage: Options: "Source options:" Keys: "JSON output" Examples:; do
        grep -q "^$section" "$TMP/out" || fail "dcbtop --help lacks $section"
    done
    for flag in "--pcap-speed X" "--prometheus URL" "--tls-server-name NAME" \
                "--view interfaces|qos"; do
        grep -qF -- "  $flag" "$TMP/out" || fail "dcbtop --help lacks $flag"
    done
    run_rc rc "$DCBTOP" --man
    expect_eq "dcbtop --man exit" 0 "$rc"
    head -1 "$TMP/out" | grep -q '^\.TH DCBTOP 1' || fail "dcbtop(1) lacks .TH"
    for section in OPTIONS "SOURCE OPTIONS" KEYS "JSON OUTPUT" EXAMPLES "EXIT STATUS"; do
        grep -q "^\.SH $section" "$TMP/out" || fail "dcbtop(1) lacks $section"
    done
    if command -v groff >/dev/null 2>&1; then
        groff -man -Tutf8 -ww -z "$TMP/out" 2>"$TMP/groff.err" || fail "groff rejects dcbtop(1)"
        [ ! -s "$TMP/groff.err" ] || fail "groff warns on dcbtop(1): $(head -3 "$TMP/groff.err")"
    fi
    run_rc rc "$DCBTOP" -b --frob
    expect_eq "dcbtop --frob exit" 64 "$rc"
    expect_eq "dcbtop --frob" "dcbtop: unknown option '--frob' (see 'dcbtop --help')" \
        "$(cat "$TMP/err")"
fi
echo "ok"
