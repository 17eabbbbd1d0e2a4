"""dcbtop --gnmi against a real gRPC gNMI server (python3-grpcio, gnmi_target.py, a SONiC tree
of 4 ports whose counters grow by a fixed step with every sample the target sends): batch JSON
frames carry the switch's ports with the rates those steps imply (per sample: 12,500,000 octets
in, 50 PFC frames received and 20 sent on priority 3, 1000 us paused; so rx_bps is 2,000,000
times pfc_rx_per_s whatever the sample interval, and near 1e8 b/s at one sample a second); in
tmux, the QoS view shows the config read with Get. --fabric F alone reads no switch (intent
only, no rates); --gnmi all --fabric F polls the fabric's gNMI devices, with the same rates.
A target without the PFC watchdog tables still gives every port's rates, and the status names
the missing paths (through a --maps directory of the test's own). Bad targets are one-line
errors."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from dcbtop_helpers import DCBTOP, Tmux, fail, need_binaries, table_rows  # noqa: E402
from gnmi_helpers import Peer, need_peer  # noqa: E402

need_binaries()
need_peer()

# the steps of gnmi_target.py's SONiC tree per sample, on priority 3
STEP = {"rx_bytes": 12500000, "pfc_rx": 50, "pfc_tx": 20, "rx_pause_us": 1000}


def check_rates(what, i):
    """Rates of one port against the steps: exact ratios, and about one sample a second."""
    rx, pfc_rx, pfc_tx, paused = (i["rx_bps"], i["pfc_rx_per_s"], i["pfc_tx_per_s"],
                                  i["paused_pct"])
    if None in (rx, pfc_rx, pfc_tx, paused):
        fail("%s: rates unknown: %s" % (what, i))
    samples_per_s = pfc_rx / STEP["pfc_rx"]
    for key, got, want in (("rx_bps", rx, 8 * STEP["rx_bytes"] * samples_per_s),
                           ("pfc_tx_per_s", pfc_tx, STEP["pfc_tx"] * samples_per_s),
                           ("paused_pct", paused,
                            100 * STEP["rx_pause_us"] * 1e-6 * samples_per_s)):
        if abs(got - want) > 1e-6 * want:
            fail("%s: %s %s, the target's steps give %s" % (what, key, got, want))
    if not 0.5 <= samples_per_s <= 2:
        fail("%s: %.3g samples a second at -d 1 (pfc_rx_per_s %s)" % (what, samples_per_s,
                                                                      pfc_rx))


with Peer("--tree", "sonic", "--ports", "4") as p:
    args = ["--gnmi", p.address, "--plaintext", "--map", "sonic", "--device", "sw1"]
    r = subprocess.run([DCBTOP, "-b", "-n", "4", "-d", "1", "-T", "json"] + args,
                       capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        fail("dcbtop --gnmi: " + r.stderr)
    frames = [json.loads(x) for x in r.stdout.splitlines()]
    last = {i["ifname"]: i for i in frames[-1]["interfaces"]}
    if sorted(last) != ["Ethernet0", "Ethernet12", "Ethernet4", "Ethernet8"]:
        fail("ports %s" % sorted(last))
    for name, i in last.items():
        if i["device"] != "sw1":
            fail("%s: device %s" % (name, i["device"]))
        check_rates("--gnmi " + name, i)
    print("gnmi: %s" % {n: (i["rx_bps"], i["pfc_rx_per_s"]) for n, i in sorted(last.items())})

    # the same switch named by a fabric file
    tmp = tempfile.mkdtemp(prefix="dcbtop-gnmi-")
    fab = os.path.join(tmp, "fabric.json")
    with open(fab, "w") as f:
        json.dump({"name": "one-switch", "defaults": {"pfc": {"enabled": 8}},
                   "devices": [{"name": "sw1", "role": "switch",
                                "reach": {"gnmi": {"target": p.address, "insecure": True,
                                                   "map": "sonic"}},
                                "interfaces": {"Ethernet0": {"mtu": 9100}}}],
                   "links": []}, f)
    r = subprocess.run([DCBTOP, "-b", "-n", "2", "-d", "0.5", "-T", "json", "--fabric", fab],
                       capture_output=True, text=True, timeout=30)
    frames = [json.loads(x) for x in r.stdout.splitlines()]
    if [(i["device"], i["ifname"]) for i in frames[-1]["interfaces"]] != [("sw1", "Ethernet0")]:
        fail("--fabric alone: %s" % frames[-1]["interfaces"])
    if r.returncode != 0 or any(i["rx_bps"] is not None or i["pfc_rx_per_s"] is not None
                                for f in frames for i in f["interfaces"]):
        fail("--fabric alone read counters: exit %d %s %s" % (r.returncode, r.stdout, r.stderr))
    r = subprocess.run([DCBTOP, "-b", "-n", "4", "-d", "1", "-T", "json", "--gnmi", "all",
                        "--fabric", fab], capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        fail("--gnmi all --fabric: " + r.stderr)
    last = {i["ifname"]: i for i in json.loads(r.stdout.splitlines()[-1])["interfaces"]
            if i["device"] == "sw1"}
    if sorted(last) != ["Ethernet0", "Ethernet12", "Ethernet4", "Ethernet8"]:
        fail("--gnmi all --fabric: ports %s" % sorted(last))
    for name, i in last.items():
        check_rates("--gnmi all --fabric " + name, i)
    shutil.rmtree(tmp, ignore_errors=True)
    print("gnmi all --fabric: %s" % {n: i["pfc_rx_per_s"] for n, i in sorted(last.items())})

    t = Tmux("gnmi", "%s -d 0.5 %s" % (DCBTOP, " ".join(args)), 120, 40)
    try:
        t.wait_for("switch ports", lambda s: len(table_rows(s)) == 4)
        t.keys("Tab", "Tab")
        s = t.wait_text("QoS view", "QoS config of sw1/")
        if "(gnmi)" not in s:
            fail("the config read over gNMI is not shown:\n" + s)
        t.keys("q")
        t.wait_text("quit", "DCBTOP-EXIT=0")
    finally:
        t.close()

# A SONiC without the PFC watchdog (no Pfcwd, no PORT_QOS_MAP; a request naming them is
# NOT_FOUND), read through a map directory of the test's own (the sonic map named 'lab', with
# DCBKIT_MAPS pointing nowhere): every port has its rates, and the status names what is missing.
with Peer("--tree", "sonic", "--ports", "4", "--missing", "Pfcwd,PORT_QOS_MAP") as p:
    maps = tempfile.mkdtemp(prefix="dcbtop-gnmi-maps-")
    shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "collectors",
                             "maps", "sonic_gnmi.json"), os.path.join(maps, "lab_gnmi.json"))
    env = dict(os.environ, DCBKIT_MAPS=os.path.join(maps, "nowhere"))
    r = subprocess.run([DCBTOP, "-b", "-n", "4", "-d", "1", "-T", "json", "--gnmi", p.address,
                        "--plaintext", "--map", "lab", "--maps", maps, "--device", "sw1"],
                       capture_output=True, text=True, timeout=60, env=env)
    shutil.rmtree(maps)
    if r.returncode != 0:
        fail("dcbtop --gnmi, paths missing: " + r.stderr)
    frames = [json.loads(x) for x in r.stdout.splitlines()]
    last = {i["ifname"]: i for i in frames[-1]["interfaces"]}
    if sorted(last) != ["Ethernet0", "Ethernet12", "Ethernet4", "Ethernet8"]:
        fail("paths missing: ports %s" % sorted(last))
    for name, i in last.items():
        check_rates("paths missing: " + name, i)
    status = frames[-1].get("status", "")
    want = "sw1 lacks "
    if not status.startswith("gnmi: " + want) or "COUNTERS_DB:COUNTERS/Ethernet*/Pfcwd" not in \
            status or "CONFIG_DB:PORT_QOS_MAP" not in status:
        fail("paths missing: status %r, want both paths named" % status)
    print("paths missing: status %r, rates on %d ports" % (status, len(last)))

for bad, code, text in ((["--gnmi", "nohost"], 64, "--gnmi takes HOST:PORT"),
                        (["--gnmi", "127.0.0.1:1", "--plaintext", "--map", "nosuchmap"], 1,
                         "nosuchmap"),
                        (["--gnmi", "127.0.0.1:1", "--plaintext", "--insecure"], 64,
                         "--plaintext turns TLS off")):
    r = subprocess.run([DCBTOP, "-b", "-n", "1"] + bad, capture_output=True, text=True,
                       timeout=30)
    if r.returncode != code or text not in r.stderr or r.stderr.count("\n") != 1:
        fail("%s: exit %d, %r" % (bad, r.returncode, r.stderr))
print("ok")
