"""dcbkit report --prometheus against a real Prometheus (started here, 1 s scrapes) scraping
`dcbkit serve --local` on a copy of the mlx5 sysfs fixture whose CE-mark counter this test
advances: np_ecn_marked_roce_packets (roce.ecn_marked_rx) starts at 9000 and goes up by 100 five
times. Once Prometheus holds 9500, the report over the window (--step 1s) gives the fabric's
local device its data and exactly the 500 marks on ens1f0, from what Prometheus kept."""
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from serve_helpers import DCBKIT, FixtureTree, Prometheus, Serve, fail, tmpdir  # noqa: E402

SERIES = 'dcbkit_roce_ecn_marked_rx_total{instance="127.0.0.1:%d",ifname="ens1f0"}'
STEPS, BY = 5, 100

tmp = tmpdir("report-prom")
serve = prom = None
try:
    tree = FixtureTree(tmp)
    counter = os.path.join(tree.root, "class", "infiniband", "mlx5_0", "ports", "1",
                           "hw_counters", "np_ecn_marked_roce_packets")
    with open(counter) as f:
        start = int(f.read())
    serve = Serve(["--local", "--sysfs-root", tree.root, "--device", "thishost", "--interval",
                   "250ms"], tmp)
    prom = Prometheus(tmp, [serve.port])
    prom.wait_up()
    series = SERIES % serve.port

    def held():
        r = prom.query(series)
        return int(float(r[0]["value"][1])) if r else None
    deadline = time.monotonic() + 20
    while held() != start and time.monotonic() < deadline:
        time.sleep(0.25)
    if held() != start:
        fail("Prometheus never held the counter's first value %d: %s" % (start, held()))
    for i in range(STEPS):
        with open(counter, "w") as f:         # in place: the reader keeps the file open
            f.write("%d\n" % (start + BY * (i + 1)))
        time.sleep(1.5)
    deadline = time.monotonic() + 20
    while held() != start + STEPS * BY and time.monotonic() < deadline:
        time.sleep(0.25)
    if held() != start + STEPS * BY:
        fail("Prometheus never held the counter's last value: %s" % held())

    fabric = os.path.join(tmp, "fabric.json")
    with open(fabric, "w") as f:
        json.dump({"name": "lab", "devices": [{"name": "thishost", "role": "host",
                                               "reach": "local"}], "links": []}, f)
    out = os.path.join(tmp, "out")
    r = subprocess.run([DCBKIT, "report", "--fabric", fabric, "--prometheus", prom.url(""),
                        "--match", 'instance="127.0.0.1:%d"' % serve.port, "--since", "2m",
                        "--step", "1s", "--out", out], capture_output=True, text=True,
                       timeout=60)
    if r.returncode not in (0, 1, 2):
        fail("report --prometheus: exit %d: %s" % (r.returncode, r.stderr))
    with open(os.path.join(out, "report.json")) as f:
        m = json.load(f)
    dev = {d["name"]: d for d in m["devices"]}
    if list(dev) != ["thishost"] or dev["thishost"]["status"] != "ok":
        fail("devices %s" % [(d["name"], d["status"]) for d in m["devices"]])
    marks = {(x["device"], x["ifname"]): x["marks"] for x in m["top"]["marks_drops"]}
    if marks.get(("thishost", "ens1f0")) != STEPS * BY:
        fail("marks %s, the counter went %d -> %d" % (marks, start, start + STEPS * BY))
    print("report --prometheus: thishost ens1f0 %d marks (the counter went %d -> %d)" %
          (marks[("thishost", "ens1f0")], start, start + STEPS * BY))
    print("ok")
finally:
    if serve:
        serve.stop()
    if prom:
        prom.stop()
    shutil.rmtree(tmp, ignore_errors=True)
