# The replay engine at the sizes docs/fabric.md and docs/scenario.md allow, each for a
# microsecond of simulated time (setup is what is tested): a 16,384-host leaf-spine (256 leaves
# x 64 hosts, 32 spines) builds and runs in 1.5 GB of address space (routes per pair of nodes
# took 3.3 GB alone); a 1,024-host all-to-all (1,047,552 flows) runs; an all-to-all past the
# flow limit is refused before any flow is built, and max_memory_bytes bounds the flows with a
# clear error.
source "$(dirname "$0")/lib.bash"
need_tool prlimit
AS=$((1536 * 1024 * 1024))
# A sanitizer build reserves terabytes of shadow address space and cannot start under an
# address-space limit: there the engine's own max_memory_bytes bounds the run instead.
LIMIT=(prlimit --as=$AS)
BUDGET=
if ! { prlimit --as=$AS "$DCBKIT" --version >/dev/null 2>&1; } 2>/dev/null; then
    LIMIT=()
    BUDGET=', "max_memory_bytes": "1536MB"'
fi

scenario() {   # NAME LEAVES SPINES HOSTS_PER_LEAF WORKLOAD [EXTRA]
    cat >"$TMP/$1.json" <<EOF
{"name": "$1",
 "fabric": {"generate": {"type": "leaf-spine", "leaves": $2, "spines": $3, "hosts_per_leaf": $4,
                         "speed": "100G", "cable_m": 3, "uplink_cable_m": 20},
            "defaults": {"trust": "dscp", "dscp2prio": {"26": 3}, "pfc": {"enabled": 8}}},
 "workload": $5,
 "duration_ms": 0.001, "seed": 1, "sample_interval_us": 0${6:-}}
EOF
}

scenario fabric16k 256 32 64 '{"type": "permutation", "bytes": 0}' "$BUDGET"
run_rc rc "${LIMIT[@]}" "$DCBKIT" replay "$TMP/fabric16k.json" -T json
expect_eq "16k hosts in 1.5 GB: exit ($(cat "$TMP/err"))" 0 "$rc"
expect_eq "16k hosts: flows" 16384 "$(json_get "$TMP/out" 'd["nflows"]')"
expect_eq "16k hosts: every flow sent" 16384 \
    "$(json_get "$TMP/out" 'sum(f["packets_sent"] > 0 for f in d["flows"])')"
expect_eq "16k hosts: nothing lost" 0 "$(json_get "$TMP/out" 'd["figures"]["drops_queue"]')"

scenario a2a1k 16 8 64 '{"type": "all-to-all", "bytes": 0}' "$BUDGET"
run_rc rc "${LIMIT[@]}" "$DCBKIT" replay "$TMP/a2a1k.json"
expect_eq "1,024-host all-to-all: exit ($(cat "$TMP/err"))" 0 "$rc"
expect_contains "1,024-host all-to-all" "workload all-to-all, 1047552 flows" "$(head -1 "$TMP/out")"

scenario a2a1536 24 8 64 '{"type": "all-to-all", "bytes": 0}'
run_rc rc "$DCBKIT" replay "$TMP/a2a1536.json"
expect_eq "1,536-host all-to-all: exit" 1 "$rc"
expect_eq "1,536-host all-to-all: the limit" \
    "dcbkit: replay: $TMP/a2a1536.json: workload: 1536 hosts are 2357760 flows, more than 2097152" \
    "$(cat "$TMP/err")"

scenario small 16 8 64 '{"type": "all-to-all", "bytes": 0}' ', "max_memory_bytes": "256MB"'
run_rc rc "$DCBKIT" replay "$TMP/small.json"
expect_eq "1,024-host all-to-all in 256 MB: exit" 1 "$rc"
expect_contains "1,024-host all-to-all in 256 MB" \
    "the flows would take the run past max_memory_bytes (256MB)" "$(cat "$TMP/err")"
echo "ok"
