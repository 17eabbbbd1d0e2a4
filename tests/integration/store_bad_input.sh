# The store refuses what it cannot use with one line and a non-zero exit, and loses nothing:
# a read-only file (as an unprivileged user, since CI runs as root), a corrupt file, a full disk
# (a small tmpfs made here), and a database from a newer schema version.
source "$(dirname "$0")/lib.bash"
need_tool setpriv

gen() {  # gen SECONDS SERIES: time-major JSON Lines samples
    /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
for t in range(int(sys.argv[1])):
    for s in range(int(sys.argv[2])):
        print(json.dumps({"ts": t * 10**9, "device": "h1", "ifname": "eth%d" % s,
                          "metric": "pfc.rx_pause", "prio": 3, "queue": -1, "value": t}))
PY
}
one_line_error() {  # one_line_error WHAT NEEDLE
    [ "$rc" -ne 0 ] || fail "$1: exit 0"
    expect_eq "$1: stderr lines" 1 "$(wc -l <"$TMP/err")"
    expect_contains "$1" "$2" "$(cat "$TMP/err")"
}

gen 3 10 >"$TMP/in.jsonl"
"$DCBKIT" store import --store "$TMP/good.db" -q "$TMP/in.jsonl"

# 1. Read-only: an unprivileged user cannot write a root-owned store; reading still works.
chmod 755 "$TMP"
chmod 644 "$TMP/good.db"
run_rc rc setpriv --reuid=65534 --regid=65534 --clear-groups \
    "$DCBKIT" store import --store "$TMP/good.db" "$TMP/in.jsonl"
one_line_error "read-only import" "dcbkit: store"
expect_contains "read-only reason" "readonly" "$(tr 'A-Z' 'a-z' <"$TMP/err" | tr -d ' -')"
run_rc rc "$DCBKIT" store info --store "$TMP/good.db" -T json
expect_eq "store intact after refused write" 0 "$rc"
expect_eq "samples kept" 30 "$(json_get "$TMP/out" 'd["samples"]')"

# 2. Corrupt file: not SQLite at all, and an SQLite file with its pages scribbled over.
head -c 65536 /dev/urandom >"$TMP/noise.db"
run_rc rc "$DCBKIT" store info --store "$TMP/noise.db"
one_line_error "random bytes" "not a readable dcbkit store"
cp "$TMP/good.db" "$TMP/scribbled.db"
size=$(stat -c %s "$TMP/scribbled.db")
dd if=/dev/urandom of="$TMP/scribbled.db" bs=1 seek=100 count=$((size - 100)) conv=notrunc 2>/dev/null
run_rc rc "$DCBKIT" store query --store "$TMP/scribbled.db" --since 10000d
one_line_error "scribbled pages" "dcbkit: store"

# 3. A database that is SQLite but not ours, and one from a newer dcbkit.
/usr/bin/python3 -c "import sqlite3; c=sqlite3.connect('$TMP/other.db'); c.execute('create table t(x)'); c.commit()"
run_rc rc "$DCBKIT" store info --store "$TMP/other.db"
one_line_error "foreign database" "not a dcbkit store"
cp "$TMP/good.db" "$TMP/newer.db"
/usr/bin/python3 -c "import sqlite3; c=sqlite3.connect('$TMP/newer.db'); c.execute('pragma user_version=99'); c.commit()"
run_rc rc "$DCBKIT" store import --store "$TMP/newer.db" "$TMP/in.jsonl"
one_line_error "newer schema" "schema version 99 is newer than this dcbkit"

# 4. Broken input lines: the valid lines before it are committed, then one error.
printf '%s\n{"ts": oops\n' "$(head -1 "$TMP/in.jsonl")" >"$TMP/broken.jsonl"
run_rc rc "$DCBKIT" store import --store "$TMP/broken.db" "$TMP/broken.jsonl"
one_line_error "broken JSON" "line 2: not JSON"
expect_eq "valid line kept" 1 "$("$DCBKIT" store info --store "$TMP/broken.db" -T json | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["samples"])')"

# 5. Full disk: a 1 MiB tmpfs. The import fails with one line; what was committed stays.
if [ "$(id -u)" -ne 0 ]; then
    skip "the full-disk case mounts a tmpfs and needs root (CI runs as root)"
fi
mkdir -p "$TMP/small"
mount -t tmpfs -o size=1m tmpfs "$TMP/small" || skip "cannot mount a tmpfs here"
cleanup_hooks+=("umount '$TMP/small'")
gen 4000 100 >"$TMP/big.jsonl"          # 400,000 samples: well past 1 MiB even packed
run_rc rc "$DCBKIT" store import --store "$TMP/small/full.db" --batch 1000 "$TMP/big.jsonl"
one_line_error "full disk" "full"
run_rc rc "$DCBKIT" store info --store "$TMP/small/full.db" -T json
expect_eq "full store still opens" 0 "$rc"
kept=$(json_get "$TMP/out" 'd["samples"]')
[ "$kept" -gt 0 ] || fail "nothing committed before the disk filled"
[ $((kept % 1000)) -eq 0 ] || fail "$kept samples kept: not whole batches"
ok=$(/usr/bin/python3 -c "import sqlite3; print(sqlite3.connect('file:$TMP/small/full.db?mode=ro', uri=True).execute('pragma integrity_check').fetchone()[0])")
expect_eq "integrity after full disk" ok "$ok"
echo "ok: full disk kept $kept committed samples"
