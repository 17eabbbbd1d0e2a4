# The Prometheus files docs/guide.md documents: promtool accepts the scrape job and the rules,
# the rules compute what docs/prometheus/dcbkit.rules.test.yml says, and the guide shows the
# files as they are.
source "$(dirname "$0")/lib.bash"
need_tool promtool
DOCS=$ROOT/docs/prometheus

run_rc rc promtool check config "$DOCS/prometheus.yml"
expect_eq "promtool check config: $(cat "$TMP/out" "$TMP/err")" 0 "$rc"
run_rc rc promtool check rules "$DOCS/dcbkit.rules.yml"
expect_eq "promtool check rules: $(cat "$TMP/out" "$TMP/err")" 0 "$rc"
expect_contains "rules found" "SUCCESS: 9 rules found" "$(cat "$TMP/out")"
run_rc rc promtool test rules "$DOCS/dcbkit.rules.test.yml"
expect_eq "promtool test rules: $(cat "$TMP/out" "$TMP/err")" 0 "$rc"

for f in prometheus.yml dcbkit.rules.yml; do
    python3 - "$ROOT/docs/guide.md" "$DOCS/$f" <<'PY' || fail "docs/guide.md does not show docs/prometheus/$f as it is"
import sys
readme, want = open(sys.argv[1]).read(), open(sys.argv[2]).read()
sys.exit(0 if "```yaml\n" + want + "```" in readme else 1)
PY
done
echo ok
