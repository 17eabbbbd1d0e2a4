# dcbkit replay --workload-from: the analyze fixture with two data QPs (roce-non-ect.pcap:
# A->B QP 0x11, 10 x 64 bytes from T0; QP 0x13, 5 x 64 bytes from T0 + 200 us) becomes exactly
# those two flows, with their sizes and start offsets, between the hosts the addresses map to;
# what analyze reports for the same capture agrees. Captures without RoCE, bad maps: one line.
source "$(dirname "$0")/lib.bash"
SCEN=$ROOT/fixtures/scenarios/healthy-incast.json
PCAP=$ROOT/fixtures/captures/analyze/roce-non-ect.pcap

"$DCBKIT" analyze "$PCAP" --link-speed 100G -T json >"$TMP/analyze.json"
expect_eq "analyze: data QPs (goodput, first_ns - T0)" "[(640, 0), (320, 200000)]" \
    "$(json_get "$TMP/analyze.json" 'sorted([(f["goodput_bytes"], f["first_ns"] - 1700000000000000000) for f in d["flows"]["list"] if f["data_packets"]], key=lambda x: x[1])')"

"$DCBKIT" replay "$SCEN" --workload-from "$PCAP" -T json >"$TMP/r.json"
expect_eq "two flows, sizes and start offsets" \
    "[('host1', 'host2', 640, 0), ('host1', 'host2', 320, 200000)]" \
    "$(json_get "$TMP/r.json" '[(f["src"], f["dst"], f["bytes"], f["start_ns"]) for f in d["flows"]]')"
expect_eq "both delivered in full" "[640, 320]" \
    "$(json_get "$TMP/r.json" '[f["bytes_acked"] for f in d["flows"]]')"
expect_eq "both finished" "True" "$(json_get "$TMP/r.json" 'all(f["fct_ns"] for f in d["flows"])')"
expect_eq "the workload is the capture's" "flows 2" "$(json_get "$TMP/r.json" 'd["workload"] + " " + str(d["nflows"])')"

"$DCBKIT" replay "$SCEN" --workload-from "$PCAP" --host-map 192.168.10.2=host7 \
    --host-map 192.168.10.1=host3 -T json >"$TMP/m.json"
expect_eq "--host-map" "[('host3', 'host7', 640, 0), ('host3', 'host7', 320, 200000)]" \
    "$(json_get "$TMP/m.json" '[(f["src"], f["dst"], f["bytes"], f["start_ns"]) for f in d["flows"]]')"

run_rc rc "$DCBKIT" replay "$SCEN" --workload-from "$ROOT/fixtures/captures/pause-pfc.pcap"
expect_eq "no RoCE: exit" 1 "$rc"
expect_eq "no RoCE: message" "dcbkit: replay: --workload-from $ROOT/fixtures/captures/pause-pfc.pcap: no RoCEv2 data flows in the capture" "$(cat "$TMP/err")"
run_rc rc "$DCBKIT" replay "$SCEN" --workload-from "$PCAP" --host-map 192.168.10.1=host99
expect_eq "map to a missing host" "dcbkit: replay: --host-map 192.168.10.1=host99: no host \"host99\" in the fabric" "$(cat "$TMP/err")"
run_rc rc "$DCBKIT" replay "$SCEN" --workload-from "$PCAP" --host-map 300.1.1.1=host1
expect_eq "map a bad address" "dcbkit: replay: --host-map 300.1.1.1=host1: '300.1.1.1' is not an IP address" "$(cat "$TMP/err")"
run_rc rc "$DCBKIT" replay "$SCEN" --workload-from "$TMP/nope.pcap"
expect_eq "missing capture: exit" 1 "$rc"
expect_eq "missing capture: one line" 1 "$(wc -l <"$TMP/err")"
echo "ok: the capture's two QPs replayed with their sizes and start offsets"
