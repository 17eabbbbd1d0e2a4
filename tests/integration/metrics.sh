# dcbkit metrics: the canonical registry, and Prometheus names that promtool accepts.
source "$(dirname "$0")/lib.bash"

"$DCBKIT" metrics -T json >"$TMP/m.json"
/usr/bin/python3 - "$TMP/m.json" "$TMP/expo.txt" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == 1
ms = d["metrics"]
names = [m["name"] for m in ms]
assert len(names) == len(set(names)), "duplicate names"
for need in ["pfc.rx_pause", "pfc.rx_pause_us", "queue.ecn_marked", "pg.drops", "cnp.handled"]:
    assert need in names, need
by = {m["name"]: m for m in ms}
assert by["pfc.rx_pause"]["prometheus"] == "dcbkit_pfc_rx_pause_total"
assert by["pfc.rx_pause_us"]["prometheus"] == "dcbkit_pfc_rx_pause_seconds_total"
assert by["queue.depth_bytes"]["kind"] == "gauge"
assert by["pfc.rx_pause"]["labels"] == ["prio"]
assert by["port.rx_bytes"]["labels"] == []
assert by["link.speed_bps"]["kind"] == "gauge" and by["link.speed_bps"]["unit"] == "bits/s"
assert by["link.speed_bps"]["prometheus"] == "dcbkit_link_speed_bytes_per_second"
ok = re.compile(r"^[a-zA-Z_:][a-zA-Z0-9_:]*$")
with open(sys.argv[2], "w") as f:
    for m in ms:
        p = m["prometheus"]
        assert ok.match(p), p
        typ = "counter" if m["kind"] == "counter" else "gauge"
        label = '{device="h1",ifname="eth0"%s}' % "".join(',%s="3"' % l for l in m["labels"])
        f.write("# HELP %s %s\n# TYPE %s %s\n%s%s 1\n" % (p, m["help"], p, typ, p, label))
PY

# promtool (from the prometheus package) lints names, units and suffixes.
if command -v promtool >/dev/null 2>&1; then
    promtool check metrics <"$TMP/expo.txt" >"$TMP/lint" 2>&1 || fail "promtool: $(head -5 "$TMP/lint")"
    [ ! -s "$TMP/lint" ] || fail "promtool complains: $(head -5 "$TMP/lint")"
else
    skip "promtool not installed (scripts/bootstrap installs prometheus)"
fi

text=$("$DCBKIT" metrics)
expect_contains "text table" "pfc.rx_pause_us              counter microseconds prio   dcbkit_pfc_rx_pause_seconds_total" "$text"
echo ok
