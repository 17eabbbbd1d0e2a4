"""dcbkit collect records each source into a store, read back with `dcbkit store`:

  --local    a fixture sysfs tree (fixtures/sysfs/mlx5/t0): the stored port.rx_bytes,
             port.tx_bytes and cnp.sent of ens1f0 are the numbers in its files, and
             link.speed_bps its speed file (Mb/s) in bits per second;
  --replay   fixtures/scenarios/pause-storm.json: the stored counters at the end, summed,
             equal the totals `dcbkit replay -T json` prints for the same scenario and seed
             (PFC frames sent by switches and by hosts per priority, queue drops per queue,
             ECN marks, CNPs sent, each host's PFC frames);
  --demo     the same rows as `dcbkit replay --demo --duration 20ms --store` writes (one pass
             of the demo): samples, events and config ("replay", "topology"), time shifted by
             the difference of the two runs' starts; a second recording into the same store
             starts after the first, as replay --store does;
and the combinations collect refuses, with their exit status."""
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from store_helpers import DCBKIT, ROOT, fail  # noqa: E402
import store_sql  # noqa: E402


def run(*args, check=True):
    r = subprocess.run([DCBKIT, *args], capture_output=True, text=True, timeout=120)
    if check and r.returncode != 0:
        fail("dcbkit %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr.strip()))
    return r


def latest(db):
    r = run("store", "query", "--store", db, "--latest", "-T", "json")
    return json.loads(r.stdout)["samples"]


def every(db, kind):
    """Every sample, event or config row of the store, as dcbkit store export/events give them."""
    if kind == "events":
        return json.loads(run("store", "events", "--store", db, "-T", "json").stdout)["events"]
    lines = run("store", "export", "--store", db, "--jsonl", "--since", "3650d").stdout.splitlines()
    return [json.loads(line) for line in lines]


def read_file(*parts):
    with open(os.path.join(*parts)) as f:
        return int(f.read().strip())


def check_local(tmp):
    tree = os.path.join(ROOT, "fixtures", "sysfs", "mlx5", "t0")
    db = os.path.join(tmp, "local.db")
    run("collect", "--sysfs-root", tree, "--device", "gpu1", "--once", "--store", db, "-q")
    stats = os.path.join(tree, "class", "net", "ens1f0", "statistics")
    hw = os.path.join(tree, "class", "infiniband", "mlx5_0", "ports", "1", "hw_counters")
    want = {
        "port.rx_bytes": read_file(stats, "rx_bytes"),
        "port.tx_bytes": read_file(stats, "tx_bytes"),
        "cnp.sent": read_file(hw, "np_cnp_sent"),
        "link.speed_bps": read_file(tree, "class", "net", "ens1f0", "speed") * 10 ** 6,
    }
    got = {r["metric"]: r["value"] for r in latest(db)
           if r["device"] == "gpu1" and r["ifname"] == "ens1f0" and r["metric"] in want}
    if got != want:
        fail("--local: stored %s, the tree has %s" % (got, want))
    print("ok: --local stored %s" % got)


def check_replay(tmp):
    sc = os.path.join(ROOT, "fixtures", "scenarios", "pause-storm.json")
    totals = json.loads(run("replay", sc, "-T", "json").stdout)
    db = os.path.join(tmp, "replay.db")
    run("collect", "--replay", sc, "--store", db, "-q")
    switch, host, drops = defaultdict(int), defaultdict(int), defaultdict(int)
    per_host, ecn, cnp = defaultdict(int), 0, 0
    for r in latest(db):
        m, v = r["metric"], r["value"]
        if m == "pfc.tx_pause":
            (host if r["device"].startswith("host") else switch)[r["prio"]] += v
            if r["device"].startswith("host"):
                per_host[r["device"]] += v
        elif m == "queue.drops":
            drops[r["queue"]] += v
        elif m == "queue.ecn_marked":
            ecn += v
        elif m == "cnp.sent":
            cnp += v
    for name, stored in (("pfc_tx_switch", switch), ("pfc_tx_host", host), ("queue_drops", drops)):
        want = {p: n for p, n in enumerate(totals[name]) if n}
        if {p: n for p, n in stored.items() if n} != want:
            fail("--replay: %s stored %s, replay says %s" % (name, dict(stored), want))
    fig = totals["figures"]
    if (ecn, cnp) != (fig["ecn_marked"], fig["cnp_sent"]):
        fail("--replay: ECN marks %d and CNPs %d stored, replay says %d and %d" %
             (ecn, cnp, fig["ecn_marked"], fig["cnp_sent"]))
    want_hosts = {h["device"]: h["pfc_tx"] for h in totals["hosts"] if h["pfc_tx"]}
    if {h: n for h, n in per_host.items() if n} != want_hosts:
        fail("--replay: per-host PFC %s, replay says %s" % (dict(per_host), want_hosts))
    if not fig["pfc_tx_switch"] or not fig["drops_queue"]:
        fail("--replay: the scenario was meant to pause and drop: %s" % fig)
    print("ok: --replay pfc_tx_switch %s, pfc_tx_host %s, queue_drops %s, ecn %d, cnp %d" %
          (dict(switch), dict(host), dict(drops), ecn, cnp))
    # --set faults=[]: the same scenario without its stuck host: nothing pauses or drops
    calm = os.path.join(tmp, "calm.db")
    run("collect", "--replay", sc, "--set", "faults=[]", "--store", calm, "-q")
    kinds = {e["kind"] for e in every(calm, "events")}
    paused = sum(r["value"] for r in latest(calm) if r["metric"] in ("pfc.tx_pause", "queue.drops"))
    if kinds or paused:
        fail("--replay --set faults=[]: events %s, %d pauses and drops" % (kinds, paused))
    print("ok: --set faults=[] records no pause, drop or event")


def rows_of(db):
    """Samples, events and configs with times relative to the first sample."""
    samples = every(db, "samples")
    events = every(db, "events")
    con = store_sql.connect(db)       # no store subcommand lists config snapshots
    configs = sorted(con.execute("SELECT device, ifname, source, config FROM config_snapshots"))
    con.close()
    t0 = min(s["ts"] for s in samples)
    rel = lambda rows: sorted(json.dumps(dict(r, ts=r["ts"] - t0), sort_keys=True) for r in rows)
    return rel(samples), rel(events), configs, t0


def check_demo(tmp):
    a, b = os.path.join(tmp, "collect-demo.db"), os.path.join(tmp, "replay-demo.db")
    run("collect", "--demo", "--store", a, "-q")
    run("replay", "--demo", "--duration", "20ms", "--store", b)
    sa, ea, ca, ta = rows_of(a)
    sb, eb, cb, _ = rows_of(b)
    if not sa or sa != sb:
        fail("--demo: %d samples recorded, replay --store wrote %d, or they differ" %
             (len(sa), len(sb)))
    if not ea or ea != eb:
        fail("--demo: %d events recorded, replay --store wrote %d, or they differ" %
             (len(ea), len(eb)))
    sources = {c[2] for c in ca}
    if not ca or ca != cb or sources != {"replay", "topology"}:
        fail("--demo: %d config snapshots (%s), replay --store wrote %d, or they differ" %
             (len(ca), sources, len(cb)))
    # a second recording into the same store starts after the first one's newest sample
    last = max(json.loads(s)["ts"] for s in sa) + ta
    run("collect", "--demo", "--store", a, "-q")
    again = [s["ts"] for s in every(a, "samples")]
    if len(again) != 2 * len(sa) or sorted(again)[len(sa)] <= last:
        fail("--demo twice: %d samples, the second run starts at %d, the first ended at %d" %
             (len(again), sorted(again)[len(sa)], last))
    print("ok: --demo = replay --demo --store: %d samples, %d events, %d configs" %
          (len(sa), len(ea), len(ca)))


def check_refusals(tmp):
    db = os.path.join(tmp, "x.db")
    for args in (["--demo", "--local"], ["--demo", "--once"],
                 ["--pcap", "x.pcap", "--duration", "1s"],
                 ["--fabric", "f.json", "--demo"], ["--demo", "--capture", "eth0"],
                 ["--gnmi", "all"], ["--demo", "extra"], ["--demo", "--replay-speed", "2"]):
        r = run("collect", *args, "--store", db, check=False)
        if r.returncode != 64 or len(r.stderr.strip().splitlines()) != 1:
            fail("collect %s: exit %d, %r (want a one-line usage error)" %
                 (args, r.returncode, r.stderr))
    print("ok: refused combinations are one-line usage errors")


def raw_per_sample(*args):
    """Collect 4 samples of the mlx5 t0 tree: how many unmapped (raw) counters each holds."""
    r = run("collect", "--sysfs-root", os.path.join(ROOT, "fixtures", "sysfs", "mlx5", "t0"),
            "--count", "4", "--interval", "100ms", "-T", "json", *args)
    raw = defaultdict(int)
    for line in r.stdout.splitlines():
        x = json.loads(line)
        if "counter" in x:
            raw[x["ts"]] += x["metric"] is None
    return [raw[ts] for ts in sorted(raw)]


def check_raw_every(tmp):
    """Counters no map names are read on the first sample and every Nth after it (default 10):
    over 4 samples, on the first only; --raw-every 2 on the 1st and 3rd; 1 on every one."""
    first = raw_per_sample()[0]
    got = [raw_per_sample(), raw_per_sample("--raw-every", "2"),
           raw_per_sample("--raw-every", "1")]
    want = [[first, 0, 0, 0], [first, 0, first, 0], [first] * 4]
    if not first or got != want:
        fail("raw counters per sample at the default, --raw-every 2 and 1: %s, want %s"
             % (got, want))
    print("ok: --raw-every N reads the %d unmapped counters every Nth sample" % first)


def check_pcap_options(tmp):
    """pfc-storm.pcap at 25G pauses prio 3 for one interval of 251.34 ms (65535 quanta of
    20.48 ns, refreshed every 200 us for 250 ms): one pause_storm over the default 200 ms
    threshold, none over --storm-ms 300. --pcap-speed paces a view; collect refuses it."""
    pcap = os.path.join(ROOT, "fixtures", "captures", "analyze", "pfc-storm.pcap")
    storms = []
    for extra in ([], ["--storm-ms", "300"]):
        db = os.path.join(tmp, "storm%d.db" % len(storms))
        run("collect", "--pcap", pcap, "--link-speed", "25G", "--store", db, "-q", *extra)
        storms.append(sum(e["kind"] == "pause_storm" for e in every(db, "events")))
    if storms != [1, 0]:
        fail("collect --pcap: pause_storm events %s at 200 and 300 ms, want [1, 0]" % storms)
    r = run("collect", "--pcap", pcap, "--pcap-speed", "10", "--store", db, check=False)
    if r.returncode != 64 or "pace a view" not in r.stderr:
        fail("collect --pcap-speed: exit %d, %r (want refused: it paces a view)"
             % (r.returncode, r.stderr))
    print("ok: --storm-ms moves the storm threshold; --pcap-speed refused")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        check_local(tmp)
        check_replay(tmp)
        check_demo(tmp)
        check_refusals(tmp)
        check_pcap_options(tmp)
        check_raw_every(tmp)
    print("ok")


if __name__ == "__main__":
    main()
