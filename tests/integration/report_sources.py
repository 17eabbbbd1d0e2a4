"""dcbkit report over the sources that need no peer, checking figures, not shapes:
  --demo      the built-in replay (20 ms, a 5->1 incast and a slow receiver, sampled every 50 us
              with --set sample_interval_us=50 so the first sample comes before the first
              pause): the top pause offender's paused time is pause_fraction_max x
              simulated_ns of `dcbkit replay --demo -T json` (to the microsecond the counters
              keep), every PFC frame sent is counted once sent and once received (2 x
              (pfc_tx_switch + pfc_tx_host)), and the hosts' ECN marks add up to its
              ecn_marked;
  --store     the same run recorded into --store DB, then that store alone read in place: the
              same top offenders and device totals;
  --local     a copy of the mlx5 sysfs fixture advanced from t0 to t1 while the report collects
              (--collect 3s --interval 1s): the marks on ens1f0 are t1 - t0 of
              np_ecn_marked_roce_packets (9000 -> 10800), the NAK sequence errors in the
              finding t1 - t0 of packet_seq_err (100 -> 130), and the fabric's local device
              carries the data;
  --local's options, over the mlx5 fixture plus a port "dcbt0" with no sysfs statistics:
              --proc-root gives dcbt0's netdev series (without it they are missing), --ifname
              dcbt0 keeps only those (no ens1f0 config, no marks), and --maps with ens1f0's ECN
              mark counter renamed leaves its marks unknown (null) where they are 0 otherwise."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from proc_port import add_proc_port  # noqa: E402
from report_store import DCBKIT, fail, run  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SYSFS = os.path.join(ROOT, "fixtures", "sysfs", "mlx5")
MAPS = os.path.join(ROOT, "collectors", "maps")
DEMO_SETS = ["--set", "sample_interval_us=50"]


def report(args, out, expect=None):
    p = run(["report"] + args + ["--out", out])
    if p.returncode not in (0, 1, 2) or (expect is not None and p.returncode != expect):
        fail("report %s: exit %d\n%s" % (" ".join(args), p.returncode, p.stderr[-2000:]))
    with open(os.path.join(out, "report.json")) as f:
        return json.load(f)


def totals(m):
    return {d["name"]: d["totals"] for d in m["devices"]}


def check_demo(m, replay):
    fig = replay["figures"]
    top = m["top"]["pause"][0]
    want = fig["pause_fraction_max"] * replay["simulated_ns"]
    if abs(top["paused_ns"] - want) >= 1000:
        fail("top pause offender %s:%s paused %d ns, the replay's longest paused port %.0f ns"
             % (top["device"], top["ifname"], top["paused_ns"], want))
    frames = sum(t["pause_frames"] or 0 for t in totals(m).values())
    sent = sum(replay["pfc_tx_switch"]) + sum(replay["pfc_tx_host"])
    if frames != 2 * sent:
        fail("PFC frames in the report %d, the replay sent %d (each counted sent and received)"
             % (frames, sent))
    marks = sum(t["marks"] or 0 for n, t in totals(m).items() if n.startswith("host"))
    if marks != fig["ecn_marked"]:
        fail("hosts' ECN marks %d, the replay marked %d" % (marks, fig["ecn_marked"]))
    silent = [d["name"] for d in m["devices"] if d["status"] != "ok"]
    if silent or len(m["devices"]) != len(replay["hosts"]) + 4:
        fail("devices: %s without data, %d listed" % (silent, len(m["devices"])))
    return "top %s:%s paused %d ns (replay %.0f), %d PFC frames (2 x %d), %d marks" % (
        top["device"], top["ifname"], top["paused_ns"], want, frames, sent, marks)


def demo_and_store(tmp):
    p = run(["replay", "--demo", "--duration", "20ms", "-T", "json"] + DEMO_SETS, expect=0)
    replay = json.loads(p.stdout)
    ring = report(["--demo"] + DEMO_SETS, os.path.join(tmp, "demo"))
    print("--demo: " + check_demo(ring, replay))
    db = os.path.join(tmp, "demo.db")
    rec = report(["--demo", "--store", db] + DEMO_SETS, os.path.join(tmp, "rec"))
    check_demo(rec, replay)
    again = report(["--store", db, "--fabric", write_demo_fabric(tmp, ring)],
                   os.path.join(tmp, "again"))
    if again["top"] != ring["top"] or totals(again) != totals(ring):
        fail("--store read in place differs from the run it recorded:\n%s\n%s" %
             (again["top"], ring["top"]))
    print("--store: the recorded run read in place gives the same top offenders and totals")


def write_demo_fabric(tmp, m):
    """A fabric file naming the demo's devices, for --store (which needs the device list)."""
    path = os.path.join(tmp, "demo-fabric.json")
    with open(path, "w") as f:
        json.dump({"name": "demo", "devices": [{"name": d["name"], "role": "host"
                                                if d["name"].startswith("host") else "switch"}
                                               for d in m["devices"]], "links": []}, f)
    return path


def local(tmp):
    root = os.path.join(tmp, "sysfs")
    shutil.copytree(os.path.join(SYSFS, "t0"), root, symlinks=True)
    fabric = os.path.join(tmp, "local.json")
    with open(fabric, "w") as f:
        json.dump({"name": "lab", "devices": [{"name": "thishost", "role": "host",
                                               "reach": "local"}], "links": []}, f)

    def advance():
        """t1's files written over t0's in place (the reader keeps counter files open)."""
        time.sleep(1.5)                      # after the first reading, before the third
        t1 = os.path.join(SYSFS, "t1")
        for d, _, files in os.walk(t1):
            for name in files:
                src = os.path.join(d, name)
                if os.path.islink(src):
                    continue
                with open(src) as f, open(os.path.join(root, os.path.relpath(src, t1)),
                                            "w") as g:
                    g.write(f.read())
    t = threading.Thread(target=advance)
    t.start()
    m = report(["--fabric", fabric, "--local", "--sysfs-root", root, "--no-lldp",
                "--collect", "3s", "--interval", "1s"], os.path.join(tmp, "local"))
    t.join()
    dev = {d["name"]: d for d in m["devices"]}
    if list(dev) != ["thishost"] or dev["thishost"]["status"] != "ok":
        fail("devices %s" % [(d["name"], d["status"]) for d in m["devices"]])
    marks = {(r["device"], r["ifname"]): r["marks"] for r in m["top"]["marks_drops"]}
    if marks.get(("thishost", "ens1f0")) != 10800 - 9000:
        fail("ECN marks on ens1f0: %s, the fixture's counter went 9000 -> 10800" % marks)
    ev = [e["value"] for f in m["findings"] if f["rule"] == "roce-loss-go-back-n"
          for e in f["evidence"] if e["name"].startswith("roce.packet_seq_err")]
    if ev != ["30"]:
        fail("NAK sequence errors in the finding: %s, the fixture's counter went 100 -> 130 (%s)"
             % (ev, [(f["rule"], f["evidence"]) for f in m["findings"]]))
    print("--local: thishost ens1f0 %d marks, NAK sequence errors %s" %
          (marks[("thishost", "ens1f0")], ev))


def local_options(tmp):
    """ens1f0 from the mlx5 fixture, and dcbt0 (lib/proc_port.py) with no sysfs statistics."""
    root, proc = os.path.join(tmp, "sysfs-opts"), os.path.join(tmp, "proc-opts")
    shutil.copytree(os.path.join(SYSFS, "t0"), root, symlinks=True)
    add_proc_port(root, proc)
    maps = os.path.join(tmp, "maps")
    shutil.copytree(MAPS, maps)
    rdma = os.path.join(maps, "mlx5_rdma.json")
    with open(rdma) as f:
        text = f.read()
    renamed = text.replace('"np_ecn_marked_roce_packets"', '"np_ecn_marked_renamed"')
    if renamed == text:
        fail("mlx5_rdma.json no longer maps np_ecn_marked_roce_packets")
    with open(rdma, "w") as f:
        f.write(renamed)
    base = ["--local", "--sysfs-root", root, "--no-lldp", "--collect", "2s", "--interval", "1s"]
    out = os.path.join(tmp, "opts-")
    with ThreadPoolExecutor(4) as pool:
        runs = [pool.submit(report, base + ["--proc-root", proc], out + "all"),
                pool.submit(report, base, out + "sysfs-only"),
                pool.submit(report, base + ["--proc-root", proc, "--ifname", "dcbt0"],
                            out + "ifname"),
                pool.submit(report, base + ["--proc-root", proc, "--maps", maps], out + "maps")]
        every, no_proc, one, mapped = [r.result()["devices"] for r in runs]

    def seen(devices):
        if len(devices) != 1 or devices[0]["status"] != "ok":
            fail("devices: %s" % [(d["name"], d["status"]) for d in devices])
        d = devices[0]
        return d["series"], d["totals"]["marks"], [c["ifname"] for c in d["config"]]
    (n_all, marks, cfg), (n_sysfs, _, _), (n_one, marks_one, cfg_one), (_, marks_mapped, _) = (
        seen(every), seen(no_proc), seen(one), seen(mapped))
    if not 0 < n_one == n_all - n_sysfs:
        fail("series: %d with --proc-root, %d without, %d of dcbt0 alone (--ifname): dcbt0's "
             "netdev counters come from --proc-root's net/dev" % (n_all, n_sysfs, n_one))
    if (marks, cfg) != (0, ["ens1f0"]) or (marks_one, cfg_one) != (None, []):
        fail("--ifname dcbt0: marks %r, config of %r; every port: marks %r, config of %r"
             % (marks_one, cfg_one, marks, cfg))
    if marks_mapped is not None:
        fail("--maps with np_ecn_marked_roce_packets renamed: marks %r, want null (unknown)"
             % marks_mapped)
    print("--local options: %d series with --proc-root, %d without, %d of --ifname dcbt0; "
          "marks 0, unknown with the counter renamed in --maps" % (n_all, n_sysfs, n_one))


def replay(tmp):
    """--replay pause-storm.json: host9's NIC sends XOFF without a break from 1 ms and the
    watchdog fires (the scenario's description): the report finds the storm and the watchdog.
    --set faults=[] is the same fabric and workload without the stuck host: nothing pauses."""
    sc = os.path.join(ROOT, "fixtures", "scenarios", "pause-storm.json")
    m = report(["--replay", sc], os.path.join(tmp, "storm"))
    rules = {f["rule"] for f in m["findings"]}
    paused = {n for n, t in totals(m).items() if t["pause_frames"]}
    if not {"pause-storm", "pfcwd-firing"} <= rules or "host9" not in paused:
        fail("--replay pause-storm: findings %s, paused devices %s" % (rules, paused))
    m = report(["--replay", sc, "--set", "faults=[]"], os.path.join(tmp, "calm"), expect=0)
    paused = {n for n, t in totals(m).items() if t["pause_frames"]}
    if m["findings"] or paused:
        fail("--replay --set faults=[]: findings %s, paused %s"
             % ([f["rule"] for f in m["findings"]], paused))
    print("ok: --replay finds the storm; --set faults=[] none")


tmp = tempfile.mkdtemp(prefix="dcbkit-report-sources-")
try:
    if not os.access(DCBKIT, os.X_OK):
        fail("no dcbkit at %s" % DCBKIT)
    demo_and_store(tmp)
    local(tmp)
    local_options(tmp)
    replay(tmp)
    print("ok")
finally:
    shutil.rmtree(tmp, ignore_errors=True)
