# dcbkit diagnose, the symptom rules (rules/catalog/symptoms.rules): every rule has a counter
# series that makes it fire and one that must not (fixtures/series/make_series.py, regenerated
# byte for byte here), each imported into a store with `dcbkit store import` and diagnosed with
# --store. Then the captures: on the analyze fixtures with a PFC storm, a PFC mask mismatch
# between IEEE and CEE neighbours and CE without CNP, diagnose --pcap names pause-storm,
# cfg-pfc-mask-mismatch and cnp-missing; the capture with CNPs does not name cnp-missing.
source "$(dirname "$0")/lib.bash"
S=$ROOT/fixtures/series
A=$ROOT/fixtures/captures/analyze

mkdir "$TMP/regen"
/usr/bin/python3 "$S/make_series.py" "$TMP/regen" || fail "make_series.py failed"
diff -r -x '*.py' -x '*.md' -x __pycache__ "$S" "$TMP/regen" >/dev/null ||
    fail "fixtures/series differ from what make_series.py writes: regenerate and commit"

rules_in() {  # DIAGNOSE-ARGS...: sets got to the rules that fired, " a b c "
    local rc=0
    "$DCBKIT" diagnose "$@" -T json >"$TMP/out" 2>"$TMP/err" || rc=$?
    [ "$rc" -le 2 ] || fail "diagnose $*: exit $rc: $(cat "$TMP/err")"
    got=" $(json_get "$TMP/out" '" ".join(sorted({f["rule"] for f in d["findings"]}))') "
}

catalog_ids=$(sed -n 's/^\[\([a-z0-9-]*\)\]$/\1/p' "$ROOT/rules/catalog/symptoms.rules" | sort)
pairs=0
for rule in $catalog_ids; do
    for kind in fires quiet; do
        f=$S/$rule.$kind.jsonl
        [ -f "$f" ] || fail "$rule has no $kind fixture ($f)"
        db=$TMP/$rule.$kind.db
        "$DCBKIT" store import --store "$db" "$f" -q 2>"$TMP/err" ||
            fail "$rule.$kind: import: $(cat "$TMP/err")"
        rules_in --store "$db"
        case "$kind:$got" in
            fires:*" $rule "*|quiet:*) ;;
            fires:*) fail "$rule.fires: the rule did not fire (fired:$got)" ;;
        esac
        [ "$kind" = quiet ] && case "$got" in *" $rule "*) fail "$rule.quiet: the rule fired" ;; esac
    done
    pairs=$((pairs + 1))
done
[ "$pairs" -ge 24 ] || fail "only $pairs symptom rules have fixture pairs"

# the captures (all runs at 100G, as the analyze fixtures are written)
rules_in --pcap "$A/pfc-storm.pcap" --link-speed 100G
expect_contains "pfc-storm.pcap names pause-storm" " pause-storm " "$got"
expect_eq "pfc-storm.pcap: first finding" pause-storm "$(json_get "$TMP/out" 'd["findings"][0]["rule"]')"
rules_in --pcap "$A/dcbx-ieee-cee.pcap" --link-speed 100G
expect_contains "dcbx-ieee-cee.pcap names cfg-pfc-mask-mismatch" " cfg-pfc-mask-mismatch " "$got"
rules_in --pcap "$A/roce-ce-no-cnp.pcap" --link-speed 100G
expect_contains "roce-ce-no-cnp.pcap names cnp-missing" " cnp-missing " "$got"
rules_in --pcap "$A/roce-ce-cnp.pcap" --link-speed 100G
case "$got" in *" cnp-missing "*) fail "roce-ce-cnp.pcap (CNPs answer the CE marks) names cnp-missing" ;; esac
rules_in --pcap "$A/pfc-classes.pcap" --link-speed 100G
case "$got" in *" pause-storm "*) fail "pfc-classes.pcap (short pauses) names pause-storm" ;; esac
rules_in --pcap "$A/roce-gap-retx.pcap" --link-speed 100G
expect_contains "roce-gap-retx.pcap names roce-loss-go-back-n" " roce-loss-go-back-n " "$got"
rules_in --pcap "$A/pause-on-pfc.pcap" --link-speed 100G
expect_contains "pause-on-pfc.pcap names global-pause-with-pfc" " global-pause-with-pfc " "$got"
rules_in --pcap "$A/dcbx-willing.pcap" --link-speed 100G
expect_contains "dcbx-willing.pcap names dcbx-willing-conflict" " dcbx-willing-conflict " "$got"
