"""dcbkit serve over gNMI, against the real gRPC test target (gnmi_target.py, a SONiC tree of 4
ports whose counters move by a fixed step at every sample it streams) and a real Prometheus
scraping two exporters every second:
  A  `serve --gnmi HOST:PORT --map sonic --device sw1`
  B  `serve --fabric F --gnmi all`: the fabric's one switch is that target, reached over gNMI,
     next to its intent (host1's port asks for other PFC priorities and a larger MTU).
What the target serves, from its tree (tree_value(epoch) = base + epoch * step):
  rx_bytes of EthernetN (N = 4i) = 10^9 (i+1) + 12.5e6 k, PFC rx frames on prio 3 =
  1000 (i+1) + 300 + 50 k with the same k (one notification), on prio p != 3 = 1000 (i+1) +
  100 p; pause time on prio 3 = 500 (i+1) + 1000 k us; config pfc_enable "3,4" (mask 24), WRED
  153600 / 1536000 bytes / 5 %, lossless buffer 19456 / 19456 / 116736 bytes, watchdog 200 ms.
Checks: /metrics carries exactly those values; the intent as the fabric file says; the
findings the intent and the switch imply (cfg-mtu on sw1 Ethernet0, below its partner's MTU;
cfg-pfc-mask-mismatch on host1 eth0 alone: its mask 0x08 departs from the 0x18 every other port
holds, so host1 is the end to change and sw1 is not named);
and the rate: the target steps every --interval (0.5 s) plus its own overhead, measured here
from /metrics; Prometheus' rate() over 20 s must give 12.5e6 B per measured period, within
the quantisation of a step counter (below)."""
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from gnmi_helpers import Peer, need_peer  # noqa: E402
from serve_helpers import Prometheus, Serve, fail, tmpdir  # noqa: E402
from serve_helpers import page_series as series, page_value as get  # noqa: E402

SECONDS = float(os.environ.get("SERVE_GNMI_SECONDS", "26"))
STEP = 12500000                 # rx_bytes per sample
INTERVAL = 0.5                  # serve's --interval: the target's sample interval too
WINDOW = 20                     # rate()'s window, s
SCRAPE = 1                      # Prometheus' scrape interval, s

need_peer()


def epoch_of(value, base, step, what):
    k = (value - base) / step
    if k < 0 or k != int(k):
        fail("%s = %.0f is not %d + %d k" % (what, value, base, step))
    return int(k)


def check_switch(s, device):
    """The target's counters and config, port by port; returns Ethernet0's epoch."""
    k0 = None
    for i in range(4):
        port = "Ethernet%d" % (4 * i)
        rx = get(s, "dcbkit_port_rx_bytes_total", device=device, ifname=port)
        k = epoch_of(rx, 10 ** 9 * (i + 1), STEP, port + " rx_bytes")
        pfc3 = get(s, "dcbkit_pfc_rx_pause_total", device=device, ifname=port, prio="3")
        if pfc3 != 1000 * (i + 1) + 300 + 50 * k:
            fail("%s prio 3 rx pauses %.0f, rx_bytes says epoch %d" % (port, pfc3, k))
        for p in (0, 1, 2, 4, 5, 6, 7):
            v = get(s, "dcbkit_pfc_rx_pause_total", device=device, ifname=port, prio=str(p))
            if v != 1000 * (i + 1) + 100 * p:
                fail("%s prio %d rx pauses %.0f" % (port, p, v))
        us = get(s, "dcbkit_pfc_rx_pause_seconds_total", device=device, ifname=port, prio="3")
        if abs(us - (500 * (i + 1) + 1000 * k) / 1e6) > 1e-9:
            fail("%s prio 3 paused %.6f s at epoch %d" % (port, us, k))
        k0 = k if i == 0 else k0
    cfg = {"pfc.enabled": 24, "switch.wred.3.min_bytes": 153600,
           "switch.wred.3.max_bytes": 1536000, "switch.wred.3.max_p": 5,
           "switch.wred.3.ecn": 1, "switch.buffer.3.size": 19456, "switch.buffer.3.xon": 19456,
           "switch.buffer.3.xoff": 116736, "switch.pfcwd.detect_ms": 200,
           "switch.pfcwd.restore_ms": 200}
    for field, want in cfg.items():
        got = get(s, "dcbkit_qos_config", device=device, ifname="Ethernet0", source="gnmi",
                  field=field)
        if got != want:
            fail("%s Ethernet0 gnmi %s = %s, the target's CONFIG_DB says %s" %
                 (device, field, got, want))
    return k0


tmp = tmpdir("serve-gnmi")
peer = Peer("--tree", "sonic", "--ports", "4")
fabric = os.path.join(tmp, "lab.json")
with open(fabric, "w") as f:
    json.dump({"name": "gnmi-lab",
               "defaults": {"trust": "dscp", "pfc": {"enabled": 24}},
               "switch_defaults": {"mtu": 9216, "switch": {"wred": {"3": {
                   "min_bytes": 153600, "max_bytes": 1536000, "max_p": 5, "ecn": True}}}},
               "devices": [{"name": "sw1", "role": "switch", "reach": {"gnmi": {
                   "target": peer.address, "insecure": True, "map": "sonic"}}},
                   {"name": "host1", "role": "host",
                    "interfaces": {"eth0": {"pfc": {"enabled": 8}, "mtu": 9300}}}],
               "links": [{"a": "sw1:Ethernet0", "b": "host1:eth0", "speed": "400G",
                          "cable_m": 3}]}, f)
a = b = prom = None
try:
    a = Serve(["--gnmi", peer.address, "--plaintext", "--map", "sonic", "--device", "sw1",
               "--interval", "%gs" % INTERVAL], tmp, tag="a")
    b = Serve(["--fabric", fabric, "--gnmi", "all", "--interval", "%gs" % INTERVAL], tmp,
              tag="b")
    time.sleep(2 * INTERVAL + 0.5)      # the config Get and a few samples
    _, page, _ = a.get("/metrics")
    check_switch(series(page), "sw1")
    _, page, _ = b.get("/metrics")
    sb = series(page)
    check_switch(sb, "sw1")
    intent = {"pfc.enabled": 24, "mtu": 9216, "switch.wred.3.min_bytes": 153600,
              "switch.wred.3.max_bytes": 1536000, "switch.wred.3.max_p": 5,
              "speed_bps": 400e9, "cable_m": 3000}          # cable_m is kept in mm
    for field, want in intent.items():
        got = get(sb, "dcbkit_qos_config", device="sw1", ifname="Ethernet0", source="fabric",
                  field=field)
        if got != want:
            fail("intent sw1 Ethernet0 %s = %s, the fabric file says %s" % (field, got, want))
    for field, want in (("pfc.enabled", 8), ("mtu", 9300)):
        got = get(sb, "dcbkit_qos_config", device="sw1", ifname="Ethernet0",
                  source="peer:fabric", field=field)
        if got != want:
            fail("sw1 Ethernet0's partner %s = %s, the fabric file says %s" % (field, got, want))
    topo = get(sb, "dcbkit_topology_info", device="sw1", ifname="Ethernet0", role="switch",
               peer_device="host1", peer_ifname="eth0", peer_role="host")
    found = {(dict(ls)["rule"], dict(ls)["device"], dict(ls)["ifname"])
             for (n, ls), v in sb.items() if n == "dcbkit_finding" and v == 1}
    for want in (("cfg-pfc-mask-mismatch", "host1", "eth0"), ("cfg-mtu", "sw1", "Ethernet0")):
        if want not in found:
            fail("finding %s missing: %s" % (want, sorted(found)))
    if ("cfg-pfc-mask-mismatch", "sw1", "Ethernet0") in found:
        fail("the PFC mismatch is named at sw1, whose mask is the usual one: %s" % sorted(found))
    if ("cfg-mtu", "host1", "eth0") in found:
        fail("cfg-mtu on the host, whose MTU is the larger: %s" % sorted(found))
    print("B: the switch's counters and config, the intent, topology and findings %s" %
          sorted(found))

    prom = Prometheus(tmp, [a.port, b.port], scrape_s=SCRAPE)
    prom.wait_up()
    # the target's own pace, from A's /metrics: when each epoch first shows
    first_seen = {}
    start = time.time()
    while time.time() - start < SECONDS:
        _, page, _ = a.get("/metrics")
        k = check_switch(series(page), "sw1")
        first_seen.setdefault(k, time.time())
        time.sleep(0.05)
    end = time.time()
    ks = sorted(first_seen)
    period = (first_seen[ks[-1]] - first_seen[ks[1]]) / (ks[-1] - ks[1])
    # each epoch is seen up to a poll (0.05 s) plus a serve round (INTERVAL) late, at both
    # ends: over about SECONDS / INTERVAL epochs the measured period may be a few % short
    slack = 2 * (0.05 + INTERVAL) / max(1, ks[-1] - ks[1])
    if not INTERVAL * (1 - slack) <= period < INTERVAL * 1.2:
        fail("the target stepped every %.3f s, not about %.1f s" % (period, INTERVAL))
    rate = STEP / period
    print("target: %d epochs seen, one every %.4f s: %.4g B/s" % (len(ks), period, rate))

    sel = 'dcbkit_port_rx_bytes_total{instance="127.0.0.1:%d",ifname="Ethernet0"}' % a.port
    raw = prom.query_range(sel, end - WINDOW, end, "1")
    for _, v in raw[0]["values"]:
        epoch_of(float(v), 10 ** 9, STEP, "Prometheus' " + sel)
    # rate() over the window: its samples span WINDOW - SCRAPE at least and hold a whole number
    # of steps, give or take one at each end, and each end's page may be up to one round old:
    # |error| <= 2 steps / (WINDOW - SCRAPE) of time, relative 2 period / (WINDOW - SCRAPE)
    tol = 2 * period / (WINDOW - SCRAPE)
    got = prom.api("query", query="rate(%s[%ds])" % (sel, WINDOW), time=end)["result"]
    r = float(got[0]["value"][1]) if got else 0.0
    if abs(r - rate) > tol * rate:
        fail("rate() = %.4g B/s, the target gives %.4g (tolerance %.1f %%)" %
             (r, rate, 100 * tol))
    print("Prometheus rate(%ds) = %.4g B/s, the target %.4g B/s: off by %.2f %% (tolerance "
          "%.1f %%)" % (WINDOW, r, rate, 100 * abs(r - rate) / rate, 100 * tol))
    fnd = prom.query('dcbkit_finding{instance="127.0.0.1:%d",rule="cfg-mtu"}' % b.port)
    if len(fnd) != 1 or fnd[0]["metric"]["device"] != "sw1":
        fail("Prometheus' cfg-mtu finding from B: %s" % fnd)
    errs = prom.query('dcbkit_scrape_errors_total{source="gnmi"}')
    if len(errs) != 2 or any(e["value"][1] != "0" for e in errs):
        fail("scrape errors: %s" % errs)
finally:
    if prom:
        prom.stop()
    rcs = [x.stop() for x in (a, b) if x]
    peer.stop()
if any(rcs):
    fail("serve exited %s on SIGTERM" % rcs)
print("ok")
