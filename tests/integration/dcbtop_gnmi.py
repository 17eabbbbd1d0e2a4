"""dcbtop --gnmi against a real gRPC gNMI server (python3-grpcio, gnmi_target.py, a SONiC tree
of 4 ports whose counters grow with time): batch JSON frames carry the switch's ports with
rates once two samples came; in tmux, the QoS view shows the config read with Get. Bad targets are one-line errors."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from dcbtop_helpers import DCBTOP, Tmux, fail, need_binaries, table_rows  # noqa: E402
from gnmi_helpers import Peer, need_peer  # noqa: E402

need_binaries()
need_peer()

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
        if i["device"] != "sw1" or i["pfc_rx_per_s"] is None or i["rx_bps"] is None:
            fail("%s: rates unknown after 4 frames: %s" % (name, i))
    if not any(i["rx_bps"] > 0 for i in last.values()):
        fail("no traffic seen: %s" % last)
    print("gnmi: %s" % {n: (i["rx_bps"], i["pfc_rx_per_s"]) for n, i in sorted(last.items())})

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
