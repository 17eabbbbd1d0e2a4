# dcbkit diagnose --prometheus against a stand-in Prometheus that answers query_range with a
# window written here (points 20 s, 10 s and 0 s before the whole second of the end asked for),
# so every figure is known: pfc.rx_pause 100 -> 160 -> 400 (a delta of 300 frames); its pause
# time in seconds 0.001 -> 0.002 -> 0.005 (4000 us once back in the canonical unit); dcbkit_events_total of pause_storm
# 0 -> 2 -> 5 (5 storm events; the first point says nothing of the window) and of watchdog
# 10 -> 12 -> 3 (a restart: 2 + 3 = 5); the port's config PFC mask 8 against its partner's 16
# (cfg-pfc-mask-mismatch, proposing 0x10); its topology: a switch whose partner is a host.
# Then a flood: 250000 storm events in one step are cut at 100000, and one source_gap event
# says so. --match: the stand-in keeps only the series whose labels equal the query's label="value"
# matchers (as Prometheus would); of two ports that storm, leaf1 on priority 3 and leaf2 on 4,
# --match 'device="leaf2"' keeps leaf2's storm alone, and a device nobody has is an error that
# names the matcher. (serve_prometheus.py runs the same path against a real Prometheus.)
source "$(dirname "$0")/lib.bash"

cat >"$TMP/prom.py" <<'PY'
import http.server, json, re, sys, urllib.parse
mode = sys.argv[1]
def series(labels, values, end):
    return {"metric": labels,
            "values": [[int(end) - 20 + 10 * i, str(v)] for i, v in enumerate(values)]}
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        q = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        end = float(q["end"][0])
        port = {"device": "leaf1", "ifname": "Ethernet0"}
        def s(name, values, **labels):
            return series(dict(port, __name__=name, **labels), values, end)
        if mode == "flood":
            result = [s("dcbkit_pfc_rx_pause_total", [1, 2, 3], prio="3"),
                      s("dcbkit_events_total", [0, 0, 250000], prio="3", kind="pause_storm")]
        elif mode == "two":
            leaf2 = {"device": "leaf2", "ifname": "Ethernet0"}
            result = [s("dcbkit_pfc_rx_pause_total", [100, 160, 400], prio="3"),
                      s("dcbkit_events_total", [0, 2, 5], prio="3", kind="pause_storm"),
                      series(dict(leaf2, __name__="dcbkit_pfc_rx_pause_total", prio="4"),
                             [10, 20, 30], end),
                      series(dict(leaf2, __name__="dcbkit_events_total", prio="4",
                                  kind="pause_storm"), [0, 1, 3], end)]
        else:
            result = [s("dcbkit_pfc_rx_pause_total", [100, 160, 400], prio="3"),
                      s("dcbkit_pfc_rx_pause_seconds_total", [0.001, 0.002, 0.005], prio="3"),
                      s("dcbkit_events_total", [0, 2, 5], prio="3", kind="pause_storm"),
                      s("dcbkit_events_total", [10, 12, 3], prio="3", kind="watchdog"),
                      s("dcbkit_qos_config", [8, 8, 8], source="gnmi", field="pfc.enabled"),
                      s("dcbkit_qos_config", [16, 16, 16], source="peer:lldp", field="pfc.enabled"),
                      s("dcbkit_topology_info", [1, 1, 1], role="switch", peer_device="host1",
                        peer_ifname="eth0", peer_role="host"),
                      s("dcbkit_something_else", [1, 2, 3])]
        # the label="value" matchers of the selector ({__name__=~"dcbkit_.+",...})
        want = dict(re.findall(r'(\w+)="([^"]*)"', q["query"][0]))
        result = [r for r in result if all(r["metric"].get(k) == v for k, v in want.items())]
        body = json.dumps({"status": "success",
                           "data": {"resultType": "matrix", "result": result}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
s = http.server.HTTPServer(("127.0.0.1", 0), H)
print(s.server_port, flush=True)
s.serve_forever()
PY
mkdir "$TMP/probe"
cat >"$TMP/probe/p.rules" <<'R'
[probe-prom]
severity   = info
scope      = port
when       = delta(pfc.rx_pause{prio=3}[1h]) >= 0
message    = frames={delta(pfc.rx_pause{prio=3}[1h])} us={delta(pfc.rx_pause_us{prio=3}[1h])}
             storms={count(pause_storm{prio=3}[1h])} watchdog={count(watchdog{prio=3}[1h])}
             role={role()} peer={peer_role()}

[probe-gap]
severity   = info
scope      = fabric
when       = count(source_gap[1h]) >= 0
message    = gaps={count(source_gap[1h])}
R

serve_fake() {  # MODE: starts the stand-in, sets url
    python3 "$TMP/prom.py" "$1" >"$TMP/port.$1" & local pid=$!
    cleanup_hooks+=("kill $pid 2>/dev/null")
    for _ in $(seq 50); do [ -s "$TMP/port.$1" ] && break; sleep 0.1; done
    url=http://127.0.0.1:$(cat "$TMP/port.$1")
}
summary_of() {  # RULE
    json_get "$TMP/out" "[f['summary'] for f in d['findings'] if f['rule'] == '$1'][0]"
}

serve_fake window
run_rc rc "$DCBKIT" diagnose --prometheus "$url" --since 1m --step 10s --rules "$TMP/probe" -T json
expect_eq "window: exit (crit) ($(cat "$TMP/err"))" 2 "$rc"
expect_eq "window: source" "prometheus $url" \
    "$(json_get "$TMP/out" 'd["source"]["kind"] + " " + d["source"]["name"]')"
expect_eq "window: the figures back in canonical units, events from the increases" \
    "frames=300 us=4000 storms=5 watchdog=5 role=switch peer=host" "$(summary_of probe-prom)"
expect_eq "window: no gap" "gaps=0" "$(summary_of probe-gap)"
expect_eq "window: the PFC masks disagree, the fix is the partner's" "leaf1:Ethernet0 0x10" \
    "$(json_get "$TMP/out" '[f["device"] + ":" + f["ifname"] + " " + f["proposed"]
                             for f in d["findings"] if f["rule"] == "cfg-pfc-mask-mismatch"][0]')"
expect_eq "window: the storm events fire pause-storm at prio 3" "pause-storm leaf1:Ethernet0/3" \
    "$(json_get "$TMP/out" '["%s %s:%s/%d" % (f["rule"], f["device"], f["ifname"], f["prio"])
                             for f in d["findings"] if f["rule"] == "pause-storm"][0]')"

serve_fake two
storms() { json_get "$TMP/out" '" ".join(sorted("%s/%d" % (f["device"], f["prio"])
                                                 for f in d["findings"] if f["rule"] == "pause-storm"))'; }
run_rc rc "$DCBKIT" diagnose --prometheus "$url" --since 1m --step 10s -T json
expect_eq "two ports: both storms ($(cat "$TMP/err"))" "leaf1/3 leaf2/4" "$(storms)"
run_rc rc "$DCBKIT" diagnose --prometheus "$url" --since 1m --step 10s --match 'device="leaf2"' -T json
expect_eq "--match device=leaf2: its storm alone ($(cat "$TMP/err"))" "leaf2/4" "$(storms)"
run_rc rc "$DCBKIT" diagnose --prometheus "$url" --since 1m --step 10s --match 'device="leaf3"'
expect_eq "--match device=leaf3: exit" 3 "$rc"
expect_contains "--match device=leaf3: said" 'no dcbkit series matching device="leaf3"' \
    "$(cat "$TMP/err")"

serve_fake flood
run_rc rc "$DCBKIT" diagnose --prometheus "$url" --since 1m --step 10s --rules "$TMP/probe" -T json
expect_eq "flood: exit ($(cat "$TMP/err") $(head -c 300 "$TMP/out"))" 2 "$rc"
expect_contains "flood: cut at 100000 events" "storms=100000 " "$(summary_of probe-prom)"
expect_eq "flood: one source_gap event" "gaps=1" "$(summary_of probe-gap)"
echo ok
