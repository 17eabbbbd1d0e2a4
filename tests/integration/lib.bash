# Sourced by the shell integration tests. Each test runs alone too:
#   bash tests/integration/cli.sh
# It finds the binary from $DCBKIT (set by `make check`) or the default build tree.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DCBKIT=${DCBKIT:-$ROOT/build/cc/bin/dcbkit}
SHARED=${SHARED:-$ROOT/../shared}
if [ ! -x "$DCBKIT" ]; then
    echo "no dcbkit binary at $DCBKIT: run 'make' first (or set DCBKIT)" >&2
    exit 1
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/dcbkit-test.XXXXXX")
cleanup_hooks=()
cleanup() {
    local h
    for h in "${cleanup_hooks[@]+"${cleanup_hooks[@]}"}"; do eval "$h" || true; done
    rm -rf "$TMP"
}
trap cleanup EXIT

# skip REASON: exit 77, which tests/run reports as a skip (a failure under CI=true).
skip() { echo "skip: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
need_tool() { command -v "$1" >/dev/null 2>&1 || skip "$1 not installed (scripts/bootstrap installs it)"; }
need_shared() { [ -d "$SHARED/$1" ] || skip "shared data $SHARED/$1 not found (expected ../shared beside the checkout)"; }

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
    [ "$2" == "$3" ] || fail "$1: expected [$2], got [$3]"
}

# expect_contains WHAT NEEDLE HAYSTACK
expect_contains() {
    case "$3" in
        *"$2"*) ;;
        *) fail "$1: expected to contain [$2], got [$3]" ;;
    esac
}

# run_rc VAR CMD...: runs CMD with stdout in $TMP/out, stderr in $TMP/err, exit status in VAR.
run_rc() {
    local __var=$1
    shift
    set +e
    "$@" >"$TMP/out" 2>"$TMP/err"
    printf -v "$__var" '%d' $?
    set -e
}

# json_get FILE PYTHON-EXPR: evaluates EXPR with the parsed document bound to d.
json_get() {
    /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# netns_pair TAG: two network namespaces made for this test, named in $A and $B, deleted on
# exit. Skips (exit 77) when not root or namespaces cannot be made here.
netns_pair() {
    need_tool ip
    [ "$(id -u)" -eq 0 ] || skip "needs root to create network namespaces (CI runs as root)"
    A=dcbk-$1a-$$ B=dcbk-$1b-$$
    ip netns add "$A" || skip "cannot create network namespaces here"
    cleanup_hooks+=("ip netns del $A 2>/dev/null; ip netns del $B 2>/dev/null")
    ip netns add "$B"
}
