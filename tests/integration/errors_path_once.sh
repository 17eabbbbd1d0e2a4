# A file that is not there: every command says so in one line on stderr, naming the path once
# ("dcbkit: /x.pcap: /x.pcap: No such file" was the bug), with a non-zero status that is not
# the usage error's 64.
source "$(dirname "$0")/lib.bash"

DCBTOP=${DCBTOP:-$ROOT/build/cc/bin/dcbtop}
M=$TMP/missing                   # a folder that does not exist: nothing under it can be made
F=$ROOT/fixtures/fabrics/healthy.json

# check_once PATH WHY CMD...: CMD fails on PATH with one stderr line naming PATH once and WHY.
check_once() {
    local path=$1 why=$2
    shift 2
    run_rc rc "$@"
    [ "$rc" -ne 0 ] && [ "$rc" -ne 64 ] || fail "'$*': exit $rc: $(cat "$TMP/err")"
    expect_eq "'$*' stderr lines" 1 "$(wc -l <"$TMP/err")"
    expect_eq "'$*' names $path" 1 "$(grep -o -F "$path" "$TMP/err" | wc -l)"
    expect_contains "'$*' says why" "$why" "$(cat "$TMP/err")"
    case "$(cat "$TMP/err")" in
        dcbkit:*|dcbtop:*) ;;
        *) fail "'$*': not the one error form: $(cat "$TMP/err")" ;;
    esac
}

NOFILE="No such file or directory"
NOSTORE="no store there"
check_once "$M/a.pcap" "$NOFILE" "$DCBKIT" analyze "$M/a.pcap"
check_once "$M/a.pcap" "$NOFILE" "$DCBKIT" decode -r "$M/a.pcap"
check_once "$M/a.pcap" "$NOFILE" "$DCBKIT" diagnose --pcap "$M/a.pcap"
check_once "$M/f.json" "$NOFILE" "$DCBKIT" diagnose --fabric "$M/f.json"
check_once "$M/s.db" "$NOSTORE" "$DCBKIT" diagnose --store "$M/s.db"
check_once "$M/rules" "$NOFILE" "$DCBKIT" diagnose --fabric "$F" --rules "$M/rules"
check_once "$M/r.json" "$NOFILE" "$DCBKIT" report --from-json "$M/r.json"
check_once "$M/s.db" "$NOSTORE" "$DCBKIT" report --fabric "$F" --store "$M/s.db"
check_once "$M/sc.json" "$NOFILE" "$DCBKIT" report --replay "$M/sc.json"
check_once "$M/f.json" "$NOFILE" "$DCBKIT" fabric check "$M/f.json"
check_once "$M/f.json" "$NOFILE" "$DCBKIT" fabric diff "$F" "$M/f.json"
check_once "$M/s.db" "$NOSTORE" "$DCBKIT" store info --store "$M/s.db"
check_once "$M/i.jsonl" "$NOFILE" "$DCBKIT" store import --store "$TMP/i.db" "$M/i.jsonl"
check_once "$M/sc.json" "$NOFILE" "$DCBKIT" replay "$M/sc.json"
# the store cannot be created there: the replay's words ("store PATH") and SQLite's
check_once "$M/s.db" "unable to open database file" "$DCBKIT" replay --demo --store "$M/s.db"
check_once "$M/f.json" "$NOFILE" "$DCBKIT" serve --fabric "$M/f.json" --once
check_once "$M/s.db" "$NOSTORE" "$DCBKIT" serve --store "$M/s.db" --once
check_once "$M/a.pcap" "$NOFILE" "$DCBKIT" collect --pcap "$M/a.pcap"
check_once "$M/f.json" "$NOFILE" "$DCBKIT" collect --fabric "$M/f.json"
if [ -x "$DCBTOP" ]; then
    check_once "$M/a.pcap" "$NOFILE" "$DCBTOP" -b -n 1 --pcap "$M/a.pcap"
    check_once "$M/s.db" "$NOSTORE" "$DCBTOP" -b -n 1 --store "$M/s.db"
fi
echo "ok"
