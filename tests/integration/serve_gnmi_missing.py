"""dcbkit serve --gnmi against a SONiC without the PFC watchdog (gnmi_target.py --missing
Pfcwd,PORT_QOS_MAP, one port: a Subscribe or Get naming them is NOT_FOUND), through a map
directory of the test's own (--maps DIR --map lab, the sonic map under another name, with
DCBKIT_MAPS pointing nowhere). /metrics must carry what the target serves, from its tree
(value(epoch) = base + epoch * step, one epoch for one notification):

  dcbkit_port_rx_bytes_total Ethernet0        10^9 + 12500000 k
  dcbkit_pfc_rx_pause_total Ethernet0 prio 3  1300 + 50 k          (the same k)
  dcbkit_qos_config switch.pfcwd.detect_ms    200 (CONFIG_DB PFC_WD, which exists)

and, once the round's last table (PG watermarks) is there, no dcbkit_pfcwd_* series and no gnmi
pfc.enabled (PORT_QOS_MAP is missing); serve stays
healthy while two of the map's paths are missing, and says which they are:
dcbkit_source_missing_path{device="sw1",path=P} 1 for exactly the two paths the target rejects,
COUNTERS_DB:COUNTERS/Ethernet*/Pfcwd and CONFIG_DB:PORT_QOS_MAP."""
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from gnmi_helpers import ROOT, Peer, need_peer  # noqa: E402
from serve_helpers import Serve, fail, tmpdir  # noqa: E402
from serve_helpers import page_series as series, page_value as get  # noqa: E402

need_peer()
tmp = tmpdir("serve-gnmi-missing")
maps = os.path.join(tmp, "maps")
os.mkdir(maps)
shutil.copy(os.path.join(ROOT, "collectors", "maps", "sonic_gnmi.json"),
            os.path.join(maps, "lab_gnmi.json"))
os.environ["DCBKIT_MAPS"] = os.path.join(tmp, "nowhere")

with Peer("--tree", "sonic", "--ports", "1", "--missing", "Pfcwd,PORT_QOS_MAP") as p:
    srv = Serve(["--gnmi", p.address, "--plaintext", "--map", "lab", "--maps", maps, "--device",
                 "sw1", "--interval", "500ms"], tmp, ready_timeout=20)
    try:
        deadline = time.monotonic() + 15
        s = {}
        while time.monotonic() < deadline:
            status, body, _ = srv.get("/metrics")
            s = series(body) if status == 200 else {}
            # the first page may hold part of the first round: wait for what is checked, and
            # for the PG watermarks, the round's last table (the target sends them sorted, after
            # where Pfcwd would be)
            names = {(n, dict(ls).get("prio"), dict(ls).get("field")) for n, ls in s}
            if {("dcbkit_port_rx_bytes_total", None, None),
                    ("dcbkit_pfc_rx_pause_total", "3", None),
                    ("dcbkit_pg_headroom_watermark_bytes", "3", None),
                    ("dcbkit_qos_config", None, "switch.pfcwd.detect_ms"),
                    ("dcbkit_source_missing_path", None, None)} <= names:
                break
            time.sleep(0.5)
        rx = get(s, "dcbkit_port_rx_bytes_total", device="sw1", ifname="Ethernet0")
        k = (rx - 10 ** 9) / 12500000
        if k < 0 or k != int(k):
            fail("rx_bytes %.0f is not 10^9 + 12500000 k" % rx)
        pfc3 = get(s, "dcbkit_pfc_rx_pause_total", device="sw1", ifname="Ethernet0", prio="3")
        if pfc3 != 1300 + 50 * k:
            fail("prio 3 rx pauses %.0f, rx_bytes says epoch %d" % (pfc3, k))
        wd = get(s, "dcbkit_qos_config", device="sw1", ifname="Ethernet0", source="gnmi",
                 field="switch.pfcwd.detect_ms")
        if wd != 200:
            fail("switch.pfcwd.detect_ms %s, CONFIG_DB PFC_WD says 200" % wd)
        pfcwd = [n for n, _ in s if n.startswith("dcbkit_pfcwd_")]
        mask = [v for (n, ls), v in s.items() if n == "dcbkit_qos_config" and
                ("field", "pfc.enabled") in ls and ("source", "gnmi") in ls]
        if pfcwd or mask:
            fail("the target has no Pfcwd and no PORT_QOS_MAP, yet %s %s" % (pfcwd, mask))
        said = {(dict(ls).get("device"), dict(ls).get("path")): v for (n, ls), v in s.items()
                if n == "dcbkit_source_missing_path"}
        want = {("sw1", "COUNTERS_DB:COUNTERS/Ethernet*/Pfcwd"): 1,
                ("sw1", "CONFIG_DB:PORT_QOS_MAP"): 1}
        if said != want:
            fail("dcbkit_source_missing_path says %s, the target lacks %s" % (said, want))
        status, _, _ = srv.get("/healthz")
        if status != 200:
            fail("serve unhealthy with two paths missing: %d, %s" % (status, srv.stderr()))
        print("ok: epoch %d, rx_bytes %.0f, prio 3 pauses %.0f, watchdog 200 ms; no pfcwd, no "
              "PFC mask; 2 missing paths exported; healthy" % (k, rx, pfc3))
    finally:
        srv.stop()
shutil.rmtree(tmp)
print("ok")
