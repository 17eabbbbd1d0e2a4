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

check_pair() {  # RULE NAME: NAME.fires.jsonl must fire RULE, NAME.quiet.jsonl must not
    local rule=$1 name=$2 kind f db
    for kind in fires quiet; do
        f=$S/$name.$kind.jsonl
        [ -f "$f" ] || fail "$name has no $kind fixture ($f)"
        db=$TMP/$name.$kind.db
        "$DCBKIT" store import --store "$db" "$f" -q 2>"$TMP/err" ||
            fail "$name.$kind: import: $(cat "$TMP/err")"
        rules_in --store "$db"
        case "$kind:$got" in
            fires:*" $rule "*|quiet:*) ;;
            fires:*) fail "$name.fires: the rule did not fire (fired:$got)" ;;
        esac
        [ "$kind" = quiet ] && case "$got" in *" $rule "*) fail "$name.quiet: the rule fired" ;; esac
    done
}

catalog_ids=$(sed -n 's/^\[\([a-z0-9-]*\)\]$/\1/p' "$ROOT/rules/catalog/symptoms.rules" | sort)
pairs=0
for rule in $catalog_ids; do
    check_pair "$rule" "$rule"
    pairs=$((pairs + 1))
done
# RULE@VARIANT pairs: another way the rule must fire
for f in "$S"/*@*.fires.jsonl; do
    name=$(basename "$f" .fires.jsonl)
    check_pair "${name%%@*}" "$name"
done
[ "$pairs" -ge 24 ] || fail "only $pairs symptom rules have fixture pairs"
# cnp-not-handled names the host and proposes its RP mask (0x40) with RoCE priority 3 set
rules_in --store "$TMP/cnp-not-handled.fires.db"
expect_eq "cnp-not-handled: where" "host1:eth0" \
    "$(json_get "$TMP/out" '[f["device"] + ":" + f["ifname"] for f in d["findings"] if f["rule"] == "cnp-not-handled"][0]')"
expect_eq "cnp-not-handled: proposal" "72" \
    "$(json_get "$TMP/out" '[f["proposed"] for f in d["findings"] if f["rule"] == "cnp-not-handled"][0]')"

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
