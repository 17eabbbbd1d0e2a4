"""dcbkit serve over each source it takes, checking the values it exports against what the
source holds (the gNMI source has its own test, serve_gnmi.py):
  --local    a copy of the mlx5 fixture sysfs tree: each exported counter is the file's number,
             the link speed is speed (Mb/s) / 8 * 10^6 bytes/s, the CNP DSCP the ecn file's;
             a counter this test moves by a known amount moves by exactly that on /metrics;
             with a port dcbt0 added that has no sysfs statistics, --proc-root exports its
             /proc/net/dev counters (none without it) and --ifname dcbt0 only that port
  --store    a store dcbkit collect writes from the same tree: serve --store exports the
             values collect read, and follows the writer when the tree moves
  --replay   pause-storm.json (host9's NIC sends XOFF on priority 3 without a break from 1 ms of
             each 150 ms pass): at --replay-speed 0.5 the switch port toward it gathers pause
             time at 0.5 * 149/150 s per wall second
  --fabric   a fabric file alone: dcbkit_qos_config{source="fabric"|"peer:fabric"} carries
             the file's values, dcbkit_topology_info where each port sits, and no counters."""
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from serve_helpers import DCBKIT, ROOT, FixtureTree, Serve, fail, tmpdir  # noqa: E402
from serve_helpers import page_series as series, page_value as get  # noqa: E402
from proc_port import PORT, RX_BYTES, add_proc_port  # noqa: E402

SCENARIO = os.path.join(ROOT, "fixtures", "scenarios", "pause-storm.json")


def once(args):
    r = subprocess.run([DCBKIT, "serve", "--once"] + args, capture_output=True, text=True,
                       timeout=60)
    if r.returncode != 0:
        fail("serve %s: exit %d: %s" % (args, r.returncode, r.stderr))
    return series(r.stdout)


def read(path):
    with open(path) as f:
        return int(f.read().split()[0])


def tree_values(tree):
    """What the fixture tree says, in the exported names and base units."""
    net = os.path.join(tree.root, "class", "net", "ens1f0")
    hw = os.path.join(tree.root, "class", "infiniband", "mlx5_0", "ports", "1", "hw_counters")
    return {"dcbkit_port_rx_bytes_total": tree.read("rx_bytes"),
            "dcbkit_port_tx_bytes_total": tree.read("tx_bytes"),
            "dcbkit_port_rx_packets_total": tree.read("rx_packets"),
            "dcbkit_cnp_sent_total": read(os.path.join(hw, "np_cnp_sent")),
            "dcbkit_roce_out_of_sequence_total": read(os.path.join(hw, "out_of_sequence")),
            "dcbkit_link_speed_bytes_per_second": read(os.path.join(net, "speed")) * 10 ** 6 / 8}


def check_tree(s, tree, what):
    for name, want in tree_values(tree).items():
        got = get(s, name, device="fx", ifname="ens1f0")
        if got != want:
            fail("%s: %s = %.0f, the tree says %.0f" % (what, name, got, want))


def wait_value(srv, name, want, timeout=10.0, **labels):
    """Until the page has the series at want (a store's first samples may come a round late:
    until then the series is missing, which is not yet a failure)."""
    deadline = time.monotonic() + timeout
    got = None
    while time.monotonic() < deadline:
        _, page, _ = srv.get("/metrics")
        hits = [v for (n, ls), v in series(page).items()
                if n == name and set(labels.items()) <= set(ls)]
        got = hits[0] if len(hits) == 1 else got
        if got == want:
            return
        time.sleep(0.1)
    fail("%s%s stayed %s, not %s" % (name, labels, got, want))


tmp = tmpdir("serve-sources")
tree = FixtureTree(tmp)
servers = []
try:
    # --local
    s = once(["--local", "--sysfs-root", tree.root, "--device", "fx"])
    check_tree(s, tree, "--local")
    dscp = read(os.path.join(tree.root, "class", "net", "ens1f0", "ecn", "roce_np", "cnp_dscp"))
    got = [v for (n, ls), v in s.items() if n == "dcbkit_qos_config" and
           ("field", "cnp.dscp") in ls]
    if got != [dscp]:
        fail("--local: cnp.dscp %s, the tree says %d" % (got, dscp))
    local = Serve(["--local", "--sysfs-root", tree.root, "--device", "fx", "--interval",
                   "200ms", "--no-rules"], tmp, tag="local")
    servers.append(local)
    moved = tree.advance("rx_bytes", 123456789)
    wait_value(local, "dcbkit_port_rx_bytes_total", moved, device="fx", ifname="ens1f0")
    print("--local: the tree's counters, speed and CNP DSCP; rx_bytes moved by 123456789 "
          "exactly")

    # --proc-root: dcbt0's counters from its net/dev table; --ifname: that port alone
    root, proc = os.path.join(tmp, "sysfs-dcbt0"), os.path.join(tmp, "proc")
    shutil.copytree(tree.root, root, symlinks=True)
    add_proc_port(root, proc)
    pages = [once(["--local", "--sysfs-root", root, "--device", "fx", "--proc-root", proc]),
             once(["--local", "--sysfs-root", root, "--device", "fx"]),
             once(["--local", "--sysfs-root", root, "--device", "fx", "--proc-root", proc,
                   "--ifname", PORT])]
    ports = [{dict(ls)["ifname"] for (n, ls), _ in p.items()
              if n == "dcbkit_port_rx_bytes_total"} for p in pages]
    if ports != [{"ens1f0", PORT}, {"ens1f0"}, {PORT}]:
        fail("ports with rx_bytes: %s with --proc-root, %s without, %s with --ifname %s"
             % (ports[0], ports[1], ports[2], PORT))
    for p in (pages[0], pages[2]):
        got = get(p, "dcbkit_port_rx_bytes_total", device="fx", ifname=PORT)
        if got != RX_BYTES:
            fail("--proc-root: %s rx_bytes %.0f, its net/dev line says %d" % (PORT, got, RX_BYTES))
    print("--proc-root: %s's rx_bytes from net/dev, missing without; --ifname %s: that port "
          "alone" % (PORT, PORT))

    # --store: a store collect has created but not written yet, then what collect wrote, and
    # following the writer
    db = os.path.join(tmp, "fx.db")
    empty = os.path.join(tmp, "empty")
    os.makedirs(empty)

    def collect(root):
        subprocess.run([DCBKIT, "collect", "--local", "--sysfs-root", root, "--device",
                        "fx", "--no-lldp", "--store", db, "--count", "2", "--interval",
                        "100ms"], capture_output=True, timeout=60)
    collect(empty)
    early = Serve(["--store", db, "--interval", "200ms", "--no-rules"], tmp, tag="early",
                  healthy=False)
    servers.append(early)
    time.sleep(0.5)
    status, body, _ = early.get("/healthz")
    if status != 503 or "holds no samples yet" not in body:
        fail("--store on a store with no samples: /healthz %d %s" % (status, body))
    collect(tree.root)
    wait_value(early, "dcbkit_port_rx_bytes_total", tree.read("rx_bytes"), device="fx",
               ifname="ens1f0")
    print("--store: before the writer's first samples /healthz said: %s" % body.strip())
    s = once(["--store", db])
    check_tree(s, tree, "--store")
    if get(s, "dcbkit_scrape_errors_total", source="store") != 0:
        fail("--store: scrape errors")
    store = Serve(["--store", db, "--interval", "200ms", "--no-rules"], tmp, tag="store")
    servers.append(store)
    moved = tree.advance("tx_bytes", 987654321)
    collect(tree.root)
    wait_value(store, "dcbkit_port_tx_bytes_total", moved, device="fx", ifname="ens1f0")
    print("--store: the values collect stored; tx_bytes followed the writer to %d" % moved)

    # --replay: a known figure
    speed, wall = 0.5, 10.0
    rep = Serve(["--replay", SCENARIO, "--set", "workload.repeat=true", "--replay-speed",
                 str(speed), "--interval", "250ms"], tmp, tag="replay")
    servers.append(rep)
    time.sleep(1.0)
    sel = dict(device="switch1", ifname="Ethernet8", prio="3")
    t0 = time.monotonic()
    v0 = get(series(rep.get("/metrics")[1]), "dcbkit_pfc_rx_pause_seconds_total", **sel)
    time.sleep(wall)
    t1 = time.monotonic()
    v1 = get(series(rep.get("/metrics")[1]), "dcbkit_pfc_rx_pause_seconds_total", **sel)
    rate, want = (v1 - v0) / (t1 - t0), speed * 149 / 150
    # each page stands up to one round (0.25 s) plus the replay's forwarding period (half a
    # round) behind its wall time: 2 * 0.375 s of error over the window
    tol = 2 * 0.375 / (t1 - t0)
    if abs(rate - want) > tol * want:
        fail("--replay: pause time at %.3f s/s, the scenario gives %.3f (tolerance %.0f %%)" %
             (rate, want, 100 * tol))
    topo = get(series(rep.get("/metrics")[1]), "dcbkit_topology_info", device="switch1",
               ifname="Ethernet8")
    print("--replay: switch1 Ethernet8 prio 3 paused %.3f s per wall second, the scenario "
          "%.3f (off by %.1f %%, tolerance %.0f %%); topology %s" %
          (rate, want, 100 * abs(rate - want) / want, 100 * tol, topo))

    # --fabric alone: the intent
    fab = os.path.join(tmp, "two.json")
    with open(fab, "w") as f:
        json.dump({"name": "two", "defaults": {"trust": "dscp", "pfc": {"enabled": 8}},
                   "switch_defaults": {"mtu": 9216},
                   "host_defaults": {"mtu": 4200, "cnp": {"dscp": 48, "prio": 6}},
                   "devices": [{"name": "sw", "role": "switch"},
                               {"name": "h1", "role": "host",
                                "interfaces": {"eth0": {"pfc": {"enabled": 24}}}}],
                   "links": [{"a": "sw:Ethernet0", "b": "h1:eth0", "speed": "100G",
                              "cable_m": 5}]}, f)
    s = once(["--fabric", fab])
    want = {("sw", "Ethernet0", "fabric"): {"pfc.enabled": 8, "mtu": 9216, "speed_bps": 100e9,
                                            "cable_m": 5000},
            ("sw", "Ethernet0", "peer:fabric"): {"pfc.enabled": 24, "mtu": 4200,
                                                 "cnp.dscp": 48, "cnp.prio": 6},
            ("h1", "eth0", "fabric"): {"pfc.enabled": 24, "mtu": 4200, "cnp.dscp": 48,
                                       "speed_bps": 100e9},
            ("h1", "eth0", "peer:fabric"): {"pfc.enabled": 8, "mtu": 9216}}
    for (dev, ifn, src), fields in want.items():
        for field, v in fields.items():
            got = get(s, "dcbkit_qos_config", device=dev, ifname=ifn, source=src, field=field)
            if got != v:
                fail("--fabric: %s %s %s %s = %s, the file says %s" %
                     (dev, ifn, src, field, got, v))
    get(s, "dcbkit_topology_info", device="sw", ifname="Ethernet0", role="switch",
        peer_device="h1", peer_role="host")
    if any(n.endswith("_total") and n.startswith(("dcbkit_port", "dcbkit_pfc"))
           for n, _ in s):
        fail("--fabric alone exported counters")
    rules = {dict(ls)["rule"] for (n, ls), v in s.items() if n == "dcbkit_finding"}
    if "cfg-pfc-mask-mismatch" not in rules:
        fail("--fabric: the PFC masks 8 and 24 across the link gave %s" % sorted(rules))
    print("--fabric: the file's intent on both ends, the topology, %s" % sorted(rules))
finally:
    rcs = [x.stop() for x in servers]
if any(rcs):
    fail("serve exited %s on SIGTERM" % rcs)
print("ok")
