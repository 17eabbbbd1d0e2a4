"""A real Prometheus (started here on 127.0.0.1, temporary data dir, 1 s scrape interval)
scrapes three exporters for SERVE_PROM_SECONDS (default 30, as issue 15 says):
  - `dcbkit serve --replay fixtures/scenarios/pause-storm.json --set workload.repeat=true
    --store DB`: a fault scenario (a NIC that pauses its switch port without a break, the
    watchdog firing) simulated in real time, pass after pass, recorded into a store;
  - the same for np-disabled.json (the receivers' notification point off: CE marks, no CNP,
    the hosts' NP config off), a second fault for the rule id comparison;
  - `dcbkit serve --local` on a fixture sysfs tree whose counters this test advances.
Then the test asks Prometheus' API for the series: canonical names in base units, the device,
ifname, prio and queue labels, values that increase, the findings, the exporter's own series,
and `promtool check metrics` on every page. On each fault scenario, `dcbkit diagnose` and
`dcbkit report` must give the same full set of rule ids (config and symptom rules alike)
through Prometheus as from the store the run recorded, and that set must hold the fault's own
symptom rules."""
import os
import shutil
import json
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from serve_helpers import (DCBKIT, FixtureTree, Prometheus, Serve, fail,  # noqa: E402
                           skip, tmpdir)

SECONDS = float(os.environ.get("SERVE_PROM_SECONDS", "30"))
RULES = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "docs",
                                     "prometheus", "dcbkit.rules.yml"))
SCENARIOS = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "scenarios")
SCENARIO = os.path.join(SCENARIOS, "pause-storm.json")      # host9's NIC pauses without a break
STEP_BYTES = 125000000          # 1 Gb/s worth per second
# (scenario, its fabric, symptom rules its fault must fire on both sides)
FAULTS = [("pause-storm.json", "star-40g.json", {"pause-storm", "pfcwd-firing"}),
          # (pfc-everywhere no longer: since replay series start at zero, as a collector's do,
          # its 8 PFC frames touch 8 of the 18 ports, not most of them)
          ("np-disabled.json", "star-40g.json", {"cnp-missing", "cfg-dcqcn-disabled"})]

if not shutil.which("promtool"):
    skip("promtool not installed (Debian package prometheus; scripts/bootstrap)")
tmp = tmpdir("serve-prom")
tree = FixtureTree(tmp)
db = os.path.join(tmp, "storm.db")
serve = Serve(["--local", "--sysfs-root", tree.root, "--device", "fixture", "--interval",
               "250ms"], tmp)
replay = Serve(["--replay", SCENARIO, "--set", "workload.repeat=true", "--store", db,
                "--interval", "1s"], tmp, tag="replay")
db2 = os.path.join(tmp, "np.db")
replay2 = Serve(["--replay", os.path.join(SCENARIOS, FAULTS[1][0]), "--set",
                 "workload.repeat=true", "--store", db2, "--interval", "1s"], tmp,
                tag="replay2")
replays = [(replay, db) + FAULTS[0], (replay2, db2) + FAULTS[1]]
STORM = 'instance="127.0.0.1:%d",' % replay.port    # the pause-storm exporter's series
prom = None


def increasing(sel, start, end):
    series = prom.query_range(sel, start, end, "1")
    if len(series) != 1:
        fail("expected one series for %s, got %s" % (sel, series))
    vals = [float(v) for _, v in series[0]["values"]]
    if len(vals) < max(3, int(SECONDS) - 3):
        fail("too few points for %s: %s" % (sel, vals))
    if any(b < a for a, b in zip(vals, vals[1:])) or vals[-1] <= vals[0]:
        fail("%s does not increase: %s" % (sel, vals))
    print("%s: %d points, %.6g -> %.6g" % (sel, len(vals), vals[0], vals[-1]))
    return series[0]["metric"]


try:
    for who in (serve, replay, replay2):
        status, page, _ = who.get("/metrics")
        if status != 200:
            fail("/metrics answered %d" % status)
        chk = subprocess.run(["promtool", "check", "metrics"], input=page, text=True,
                             capture_output=True)
        if chk.returncode != 0:
            fail("promtool check metrics: " + chk.stdout + chk.stderr)
        print("promtool check metrics: ok (%d lines)" % page.count("\n"))

    prom = Prometheus(tmp, [serve.port, replay.port, replay2.port], scrape_s=1,
                      rule_files=[RULES])
    prom.wait_up()
    start = time.time()
    while time.time() - start < SECONDS:
        tree.advance("rx_bytes", STEP_BYTES // 4)
        tree.advance("tx_bytes", STEP_BYTES // 8)
        time.sleep(0.25)
    time.sleep(1.5)                 # one more scrape after the last step
    end = time.time()

    up = prom.query('up{job="dcbkit"}')
    if len(up) != 3 or any(u["value"][1] != "1" for u in up):
        fail("Prometheus does not see every target up: %s\n%s" % (up, prom.logtext()))

    # the fault scenario: the faulty NIC's switch port receives pauses on priority 3
    labels = increasing('dcbkit_pfc_rx_pause_total{' + STORM +
                        'device="switch1",ifname="Ethernet8",prio="3"}', start, end)
    if "queue" in labels or labels.get("job") != "dcbkit":
        fail("labels of a per-priority counter: %s" % labels)
    increasing('dcbkit_pfc_rx_pause_seconds_total{' + STORM +
               'device="switch1",ifname="Ethernet8",prio="3"}', start, end)
    q = prom.query('dcbkit_queue_tx_bytes_total{' + STORM + 'device="switch1",queue="3"}')
    if not q or any("prio" in s["metric"] for s in q):
        fail("queue counters: %s" % q)
    findings = prom.query('dcbkit_finding == 1')
    rules = sorted({f["metric"]["rule"] for f in findings})
    if not findings or any(k not in findings[0]["metric"] for k in
                           ("rule", "severity", "device", "ifname")):
        fail("dcbkit_finding series: %s" % findings[:3])
    print("dcbkit_finding: %d series, rules %s" % (len(findings), rules))
    topo = prom.query('dcbkit_topology_info{instance="127.0.0.1:%d",device="switch1",'
                      'ifname="Ethernet8"}' % replay.port)
    if len(topo) != 1 or topo[0]["metric"].get("role") != "switch" or \
            topo[0]["metric"].get("peer_role") != "host" or \
            topo[0]["metric"].get("peer_device") != "host9":
        fail("dcbkit_topology_info of the stormed port: %s" % topo)

    # the README's recording rules over the real series (evaluated every 15 s)
    if SECONDS >= 20:
        frac = prom.query('port_prio:dcbkit_pfc_rx_paused:ratio_rate1m{' + STORM +
                          'device="switch1",ifname="Ethernet8",prio="3"}')
        f = float(frac[0]["value"][1]) if frac else -1
        if not 0 < f <= 1:
            fail("pause-time fraction of the stormed port: %s" % frac)
        marks = prom.query('port:dcbkit_queue_ecn_marked:rate1m')
        if not marks:
            fail("no marks/s per port recorded")
        print("recording rules: pause-time fraction switch1 Ethernet8 prio 3 = %.3f, marks/s "
              "recorded for %d ports" % (f, len(marks)))

    # the same rule ids through Prometheus as from the store each replay recorded, by
    # diagnose and by report over the same window
    def rule_ids(args):
        r = subprocess.run([DCBKIT, "diagnose", "-T", "json"] + args, capture_output=True,
                           text=True)
        if r.returncode not in (0, 1, 2):
            fail("diagnose %s exited %d: %s" % (args, r.returncode, r.stderr))
        doc = json.loads(r.stdout)
        return sorted({f["rule"] for f in doc["findings"]}), doc

    def report_rules(fabric, args, out):
        r = subprocess.run([DCBKIT, "report", "--fabric", fabric, "--since",
                            "%ds" % int(SECONDS), "--out", out, "-T", "json"] + args,
                           capture_output=True, text=True)
        if r.returncode not in (0, 1, 2):
            fail("report %s exited %d: %s" % (args, r.returncode, r.stderr))
        with open(os.path.join(out, "report.json")) as f:
            doc = json.load(f)
        return sorted({x["rule"] for x in doc["findings"]}), doc

    for who, store, scen, fab, must in replays:
        name = scen[:-5]
        fabric = os.path.join(SCENARIOS, "fabrics", fab)
        match = ["--match", 'instance="127.0.0.1:%d"' % who.port]
        via_store, _ = rule_ids(["--store", store, "--since", "%ds" % int(SECONDS)])
        via_prom, doc = rule_ids(["--prometheus", prom.url("")] + match +
                                 ["--since", "%ds" % int(SECONDS), "--step", "1s"])
        if doc["source"]["kind"] != "prometheus" or via_prom != via_store:
            fail("%s: diagnose rule ids: --store %s, --prometheus %s" %
                 (name, via_store, via_prom))
        if not must <= set(via_store):
            fail("%s: diagnose found %s, not the fault's %s" % (name, via_store, sorted(must)))
        print("%s: diagnose: the same rule ids from --store and --prometheus: %s (%d findings)"
              % (name, via_prom, len(doc["findings"])))
        # the fault's own findings at the same places both ways (host9 sits on Ethernet8)
        def places(d):
            return sorted({(f["rule"], f["device"], f["ifname"], f["prio"])
                           for f in d["findings"] if f["rule"] in must})
        _, store_doc = rule_ids(["--store", store, "--since", "%ds" % int(SECONDS)])
        if places(doc) != places(store_doc):
            fail("%s: the fault's places: --store %s, --prometheus %s" %
                 (name, places(store_doc), places(doc)))
        if name == "pause-storm" and ("pause-storm", "switch1", "Ethernet8", 3) not in places(doc):
            fail("pause-storm: not at switch1:Ethernet8 prio 3 through Prometheus: %s"
                 % places(doc))
        print("%s: the fault's places through Prometheus: %s" % (name, places(doc)))

        rep_store, _ = report_rules(fabric, ["--store", store],
                                    os.path.join(tmp, name + "-report-store"))
        rep_prom, doc = report_rules(fabric, ["--prometheus", prom.url("")] + match +
                                     ["--step", "1s"], os.path.join(tmp, name + "-report-prom"))
        if rep_prom != rep_store:
            fail("%s: report rule ids: --store %s, --prometheus %s" %
                 (name, rep_store, rep_prom))
        if not must <= set(rep_store):
            fail("%s: report found %s, not the fault's %s" % (name, rep_store, sorted(must)))
        if not doc.get("traffic", {}).get("samples"):
            fail("%s: report --prometheus read no samples: %s" % (name, doc.get("traffic")))
        print("%s: report: the same rule ids from --store and --prometheus: %s; %s samples "
              "read from Prometheus" % (name, rep_prom, doc["traffic"]["samples"]))

    # the fixture tree: a port counter without prio/queue, moving as the test moved it
    labels = increasing('dcbkit_port_rx_bytes_total{job="dcbkit",device="fixture",'
                        'ifname="ens1f0"}', start, end)
    for k in ("device", "ifname", "instance", "job"):
        if k not in labels:
            fail("label %s missing: %s" % (k, labels))
    if "prio" in labels or "queue" in labels:
        fail("a port counter carries prio/queue: %s" % labels)

    rate = prom.api("query", query='rate(dcbkit_port_rx_bytes_total{device="fixture"}[4s])',
                    time=end - 1.5)["result"]
    r = float(rate[0]["value"][1]) if rate else 0.0
    if not (0.3 * STEP_BYTES < r < 3 * STEP_BYTES):
        fail("rate(rx_bytes) = %.0f B/s, the tree moved %d B/s" % (r, STEP_BYTES))
    print("rate(dcbkit_port_rx_bytes_total[4s]) = %.3g B/s (tree: %.3g)" % (r, STEP_BYTES))

    names = {m["__name__"] for m in prom.api("series", **{"match[]": '{job="dcbkit"}'})}
    for want in ("dcbkit_port_tx_bytes_total", "dcbkit_scrape_errors_total",
                 "dcbkit_last_collect_timestamp_seconds", "dcbkit_build_info",
                 "dcbkit_link_fcs_errors_total"):
        if want not in names:
            fail("series %s missing; Prometheus has %s" % (want, sorted(names)))
    errs = prom.query('dcbkit_scrape_errors_total{source=~"local|replay"}')
    if len(errs) != 3 or any(e["value"][1] != "0" for e in errs):
        fail("scrape errors on a healthy tree: %s" % errs)
    print("series names: %d, scrape errors 0" % len(names))
finally:
    if prom:
        prom.stop()
    rc = serve.stop()
    rc2 = replay.stop()
    rc3 = replay2.stop()
    shutil.rmtree(tmp, ignore_errors=True)
if rc != 0 or rc2 != 0 or rc3 != 0:
    fail("serve exited %d, %d and %d on SIGTERM" % (rc, rc2, rc3))
print("ok")
