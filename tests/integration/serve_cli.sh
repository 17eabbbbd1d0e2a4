# dcbkit serve's command line and failures: usage errors (64), a port in use, a missing store,
# the warning when it listens beyond loopback, SIGTERM ending it cleanly, /healthz turning 503
# when the source fails, and diagnose --prometheus against servers that refuse, lie or hang.
source "$(dirname "$0")/lib.bash"
FIX=$ROOT/fixtures/sysfs/mlx5/t0

for args in "" "--local --demo" "--local --listen nowhere" "--local --listen 127.0.0.1:70000" \
            "--local --listen [::1]" "--local --interval 1ms" "--store x.db --sysfs-root /" \
            "--local --set a=b" "--demo --speed 0" "--local -T json" "--local --max-header-size 1KB" \
            "--local extra"; do
    run_rc rc "$DCBKIT" serve $args
    expect_eq "serve $args exit" 64 "$rc"
    expect_contains "serve $args message" "dcbkit serve: " "$(cat "$TMP/err")"
    [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "serve $args: more than one line: $(cat "$TMP/err")"
done

# sources serve refuses, with the reason (in the help too), and gNMI's usage errors
for case in "--pcap x.pcap|a finished capture has no 'now'" \
            "--prometheus http://127.0.0.1:9090|use federation" \
            "--gnmi nohost|--gnmi takes HOST:PORT" "--gnmi all|give --fabric FILE" \
            "--demo --gnmi 127.0.0.1:1|give one source" "--store x.db --at -1m|--at and --window" \
            "--store x.db --window 5m|--history says how far back"; do
    run_rc rc "$DCBKIT" serve ${case%%|*}
    expect_eq "serve ${case%%|*} exit" 64 "$rc"
    expect_contains "serve ${case%%|*} message" "${case#*|}" "$(cat "$TMP/err")"
done
# --rules DIR runs DIR's rules besides the catalog; --profile pfc-only skips the ones that
# expect DCQCN. dcqcn-off.json: 8 links (16 interface ends, each under fixtures/rules' MTU
# bound), its 4 hosts without DCQCN.
fab=$ROOT/fixtures/fabrics/dcqcn-off.json
findings() { sed -n 's/^dcbkit_finding{rule="\([^"]*\)".*/\1/p' "$1" | sort | uniq -c | xargs; }
"$DCBKIT" serve --fabric "$fab" --once >"$TMP/f0"
"$DCBKIT" serve --fabric "$fab" --once --profile pfc-only >"$TMP/f1"
"$DCBKIT" serve --fabric "$fab" --once --rules "$ROOT/fixtures/rules" >"$TMP/f2"
expect_eq "serve findings" "4 cfg-dcqcn-disabled" "$(findings "$TMP/f0")"
expect_eq "serve --profile pfc-only" "" "$(findings "$TMP/f1")"
expect_eq "serve --rules" "4 cfg-dcqcn-disabled 16 test-mtu-under-100000" "$(findings "$TMP/f2")"

# -q: serve says where it listens, and nothing with -q (1.5 s of the demo, then stopped)
timeout 1.5 "$DCBKIT" serve --demo --listen 127.0.0.1:0 --interval 200ms >/dev/null 2>"$TMP/l.err" ||
    true
expect_contains "serve remark" "listening on http://127.0.0.1:" "$(cat "$TMP/l.err")"
timeout 1.5 "$DCBKIT" serve --demo --listen 127.0.0.1:0 --interval 200ms -q >/dev/null \
    2>"$TMP/l.err" || true
expect_eq "serve -q stderr" "" "$(cat "$TMP/l.err")"
run_rc rc "$DCBKIT" help serve
for flag in --pcap --prometheus; do
    grep -A1 "^  $flag " "$TMP/out" | grep -q Refused || fail "help serve: $flag not said refused"
done

run_rc rc "$DCBKIT" serve --store "$TMP/none.db" --once
expect_eq "missing store exit" 1 "$rc"
expect_contains "missing store" "dcbkit: $TMP/none.db:" "$(cat "$TMP/err")"

run_rc rc "$DCBKIT" serve --replay "$TMP/none.json" --once
expect_eq "missing scenario exit" 1 "$rc"

# --once: one page, promtool-clean when promtool is here
run_rc rc "$DCBKIT" serve --local --sysfs-root "$FIX" --device fx --once
expect_eq "--once exit" 0 "$rc"
expect_contains "--once page" 'dcbkit_port_rx_bytes_total{device="fx",ifname="ens1f0"} 1000000000000' "$(cat "$TMP/out")"
if command -v promtool >/dev/null; then
    promtool check metrics <"$TMP/out" || fail "promtool check metrics refused the --once page"
fi

# --fabric alone: the configuration checks over the intent, the same as diagnose --fabric
for f in pfc-mismatch trust-pcp healthy; do
    fab=$ROOT/fixtures/fabrics/$f.json
    "$DCBKIT" serve --fabric "$fab" --once >"$TMP/page" || fail "serve --fabric $f failed"
    got=$(sed -n 's/^dcbkit_finding{rule="\([^"]*\)".*/\1/p' "$TMP/page" | sort -u | tr '\n' ' ')
    run_rc rc "$DCBKIT" diagnose --fabric "$fab" -T json
    want=$(json_get "$TMP/out" '" ".join(sorted({f["rule"] for f in d["findings"]}))')
    expect_eq "serve --fabric $f rule ids" "$want" "${got% }"
    grep -q 'dcbkit_qos_config{device=' "$TMP/page" || fail "serve --fabric $f: no dcbkit_qos_config"
done

# a port in use
"$DCBKIT" serve --local --sysfs-root "$FIX" --listen 127.0.0.1:0 --interval 200ms \
    2>"$TMP/a.err" & pid=$!
cleanup_hooks+=("kill $pid 2>/dev/null")
for _ in $(seq 50); do grep -q listening "$TMP/a.err" && break; sleep 0.1; done
port=$(grep -o '127.0.0.1:[0-9]*' "$TMP/a.err" | head -1 | cut -d: -f2)
[ -n "$port" ] || fail "serve did not say its port: $(cat "$TMP/a.err")"
run_rc rc "$DCBKIT" serve --local --sysfs-root "$FIX" --listen "127.0.0.1:$port"
expect_eq "port in use exit" 1 "$rc"
expect_contains "port in use" "cannot listen on 127.0.0.1:$port" "$(cat "$TMP/err")"

# /healthz: 200 while collections succeed, 503 with the reason once the tree is gone
mkdir -p "$TMP/tree" && cp -a "$FIX/." "$TMP/tree/"
"$DCBKIT" serve --local --sysfs-root "$TMP/tree" --listen 127.0.0.1:0 --interval 200ms \
    --no-rules 2>"$TMP/b.err" & pid2=$!
cleanup_hooks+=("kill $pid2 2>/dev/null")
for _ in $(seq 50); do grep -q listening "$TMP/b.err" && break; sleep 0.1; done
port2=$(grep -o '127.0.0.1:[0-9]*' "$TMP/b.err" | head -1 | cut -d: -f2)
sleep 0.5
expect_eq "healthz ok" 200 "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port2/healthz")"
rm -rf "$TMP/tree/class/net/ens1f0"
sleep 2                                   # stale after 3 intervals + 5 s: here only errors count
errors=$(curl -s "http://127.0.0.1:$port2/metrics" | sed -n 's/^dcbkit_scrape_errors_total{source="local"} //p')
[ "${errors:-0}" -gt 0 ] || fail "no scrape error counted after the tree vanished"
kill -TERM $pid2; wait $pid2 || fail "serve did not exit 0 on SIGTERM"

# beyond loopback: said on stderr
"$DCBKIT" serve --local --sysfs-root "$FIX" --listen 0.0.0.0:0 2>"$TMP/c.err" & pid3=$!
cleanup_hooks+=("kill $pid3 2>/dev/null")
for _ in $(seq 50); do grep -q "listening on http" "$TMP/c.err" && break; sleep 0.1; done
kill -TERM $pid3; wait $pid3 || true
expect_contains "non-loopback warning" "which other hosts can reach" "$(cat "$TMP/c.err")"
kill -TERM $pid; wait $pid || fail "serve did not exit 0 on SIGTERM"

# diagnose --prometheus against servers that refuse, lie or hang
run_rc rc "$DCBKIT" diagnose --prometheus "http://127.0.0.1:1"
expect_eq "refused exit" 3 "$rc"
expect_contains "refused" "dcbkit: http://127.0.0.1:1:" "$(cat "$TMP/err")"
run_rc rc "$DCBKIT" diagnose --prometheus "ftp://x"
expect_eq "bad URL exit" 64 "$rc"
cat >"$TMP/liar.py" <<'PY'
import http.server, sys, time
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        mode = sys.argv[1]
        if mode == "hang":
            time.sleep(30)
        body = {"garbage": b"<html>not json", "error": b'{"status":"error","errorType":"bad_data","error":"invalid parameter"}',
                "vector": b'{"status":"success","data":{"resultType":"vector","result":[]}}',
                "badpoint": b'{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"dcbkit_pfc_rx_pause_total"},"values":[[1,"x"]]}]}}',
                "empty": b'{"status":"success","data":{"resultType":"matrix","result":[]}}'}.get(mode, b"")
        self.send_response(500 if mode == "http500" else 200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
s = http.server.HTTPServer(("127.0.0.1", 0), H)
print(s.server_port, flush=True)
s.serve_forever()
PY
for mode in garbage error vector badpoint empty http500; do
    python3 "$TMP/liar.py" $mode >"$TMP/port" & lp=$!
    cleanup_hooks+=("kill $lp 2>/dev/null")
    for _ in $(seq 50); do [ -s "$TMP/port" ] && break; sleep 0.1; done
    run_rc rc "$DCBKIT" diagnose --prometheus "http://127.0.0.1:$(cat "$TMP/port")"
    kill $lp; wait $lp 2>/dev/null || true
    expect_eq "$mode exit" 3 "$rc"
    [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "$mode: not one line: $(cat "$TMP/err")"
    echo "$mode: $(cat "$TMP/err")"
done
echo ok
