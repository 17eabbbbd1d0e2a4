# tests/run itself: durations, the closing line, failures shown, and CI=true turning skips into
# failures.
source "$(dirname "$0")/lib.bash"

mkdir -p "$TMP/t"
printf 'echo fine\n' >"$TMP/t/a_pass.sh"
printf 'echo "boom detail"; exit 3\n' >"$TMP/t/b_fail.sh"
printf 'echo "skip: no widget here"; exit 77\n' >"$TMP/t/c_skip.sh"
printf 'import sys; sys.exit(0)\n' >"$TMP/t/d_pass.py"

set +e
CI= "$ROOT/tests/run" "$TMP/t/a_pass.sh" "$TMP/t/b_fail.sh" "$TMP/t/c_skip.sh" "$TMP/t/d_pass.py" >"$TMP/out" 2>&1
rc=$?
set -e
expect_eq "exit with a failure" 1 "$rc"
expect_eq "closing line" "2 passed, 1 failed, 1 skipped" "$(tail -1 "$TMP/out")"
grep -Eq '^PASS .*a_pass.sh +[0-9]+\.[0-9]{2}s$' "$TMP/out" || fail "no duration: $(cat "$TMP/out")"
grep -q 'boom detail' "$TMP/out" || fail "a failure's output is not shown"
grep -q 'SKIP .*skip: no widget here' "$TMP/out" || fail "a skip's reason is not shown"

set +e
CI= "$ROOT/tests/run" "$TMP/t/a_pass.sh" "$TMP/t/c_skip.sh" >"$TMP/out" 2>&1
rc=$?
set -e
expect_eq "skip alone passes outside CI" 0 "$rc"
expect_eq "closing line" "1 passed, 0 failed, 1 skipped" "$(tail -1 "$TMP/out")"

set +e
CI=true "$ROOT/tests/run" "$TMP/t/a_pass.sh" "$TMP/t/c_skip.sh" >"$TMP/out" 2>&1
rc=$?
set -e
expect_eq "skip under CI fails" 1 "$rc"
expect_eq "closing line under CI" "1 passed, 1 failed, 0 skipped" "$(tail -1 "$TMP/out")"
grep -q 'skipped under CI=true: skip: no widget here' "$TMP/out" || fail "CI skip not explained"

printf 'sleep 5\n' >"$TMP/t/e_slow.sh"
set +e
TEST_TIMEOUT=1 "$ROOT/tests/run" "$TMP/t/e_slow.sh" >"$TMP/out" 2>&1
rc=$?
set -e
expect_eq "timeout fails" 1 "$rc"
grep -q 'timed out after 1s' "$TMP/out" || fail "timeout not reported: $(cat "$TMP/out")"
echo ok
