"""dcbkit report as cron runs it: exit codes 0/1/2/3 and 64; reproducible report.json (same
store and window, byte-identical apart from "generated", in a new folder or the same one);
comparison with the previous report, from --baseline, the store (each report records itself
there) or the folder (a fault fixed in between is listed as resolved, one that stays is
still-open); a read-only store still gives a report; --from-json re-renders the stored report byte for byte; bad input gives
one clear line."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from report_store import DCBKIT, FABRICS, build, fail, run  # noqa: E402

HEALTHY = os.path.join(FABRICS, "healthy.json")
MISMATCH = os.path.join(FABRICS, "pfc-mismatch.json")
PFC_STORM = os.path.join(os.path.dirname(FABRICS), "captures", "analyze", "pfc-storm.pcap")


def model(out):
    with open(os.path.join(out, "report.json"), "rb") as f:
        return f.read()


def without_generated(raw):
    d = json.loads(raw)
    d.pop("generated")
    return d


def statuses(out):
    d = json.loads(model(out))
    return ({f["key"]: f["status"] for f in d["findings"]},
            {f["key"] for f in d["comparison"]["resolved_findings"]}, d)


tmp = tempfile.mkdtemp(prefix="dcbkit-report-cli-")
try:
    # a day of every device: healthy -> 0
    full = os.path.join(tmp, "full.db")
    build(full, minutes=120, storm=False, drops=False, qp=False)
    o = os.path.join(tmp, "healthy")
    p = run(["report", "--fabric", HEALTHY, "--store", full, "--out", o, "--since", "2h"], expect=0)
    if not p.stdout.startswith("REPORT ok: healthy"):
        fail("healthy verdict line: %r" % p.stdout)
    p = run(["report", "--fabric", HEALTHY, "--store", full, "--out", o, "--since", "2h",
             "-T", "json"], expect=0)
    summary = json.loads(p.stdout)
    if (summary["schema"] != 1 or summary["verdict"]["level"] != "ok" or
            summary["files"]["json"] != os.path.join(o, "report.json") or
            set(summary["comparison"]) != {"new", "still_open", "resolved"}):
        fail("-T json summary: %r" % summary)

    # one device silent -> a warning of its own; the PFC mismatch -> critical
    part = os.path.join(tmp, "part.db")
    build(part, devices=["leaf1", "leaf2", "spine1", "spine2", "host1", "host2", "host3"],
          minutes=120, storm=False, drops=False, qp=False)
    run(["report", "--fabric", HEALTHY, "--store", part, "--out", os.path.join(tmp, "w")],
        expect=1)
    run(["report", "--fabric", MISMATCH, "--store", full, "--out", os.path.join(tmp, "c")],
        expect=2)
    # no data at all -> could not decide
    empty = os.path.join(tmp, "empty.db")
    run(["store", "info", "--store", empty], expect=None)
    build(empty, devices=[], minutes=1, lldp=False, qp=False)
    p = run(["report", "--fabric", HEALTHY, "--store", empty, "--out", os.path.join(tmp, "e")],
            expect=3)
    if "could not decide" not in p.stdout:
        fail("empty store verdict: %r" % p.stdout)
    # errors: one line each, exit 3; usage 64
    p = run(["report", "--fabric", HEALTHY, "--store", os.path.join(tmp, "nope.db"),
             "--out", os.path.join(tmp, "x")], expect=3)
    if not p.stderr.startswith("dcbkit: report: ") or p.stderr.count("\n") != 1:
        fail("missing store: %r" % p.stderr)
    run(["report", "--store", full], expect=64)
    run(["report", "--fabric", HEALTHY, "--since", "soon"], expect=64)
    run(["report", "--from-json", "x.json", "--fabric", HEALTHY], expect=64)
    run(["report", "--from-json", "x.json", "--verify", "s.json", "--format", "md"], expect=64)
    # report runs a replay or a capture as fast as it goes: the pacing of a view is refused
    paced = (run(["report", "--demo", "--replay-speed", "2", "--out", os.path.join(tmp, "p")],
                 expect=64),
             run(["report", "--pcap", PFC_STORM, "--pcap-speed", "2", "--out",
                  os.path.join(tmp, "p")], expect=64))
    for p in paced:
        if "pace a view" not in p.stderr:
            fail("report with a view's pacing: %r" % p.stderr)

    # --rules DIR runs DIR's rules besides the catalog; --profile pfc-only skips those that
    # expect DCQCN. dcqcn-off.json over a store where no device answers: its 8 devices are
    # unreachable, its 4 hosts run without DCQCN, and fixtures/rules' one rule holds on each of
    # its 16 interface ends (8 links).
    def rules_found(*args):
        out = os.path.join(tmp, "rules" + "-".join(args).replace("/", "_"))
        run(["report", "--fabric", os.path.join(FABRICS, "dcqcn-off.json"), "--store", empty,
             "--out", out] + list(args))
        return dict(Counter(f["rule"] for f in json.loads(model(out))["findings"]))
    base = {"device-unreachable": 8}
    got = [rules_found(), rules_found("--profile", "pfc-only"),
           rules_found("--rules", os.path.join(os.path.dirname(FABRICS), "rules"))]
    want = [dict(base, **{"cfg-dcqcn-disabled": 4}), base,
            dict(base, **{"cfg-dcqcn-disabled": 4, "test-mtu-under-100000": 16})]
    if got != want:
        fail("findings as catalog, --profile pfc-only, --rules: %s, want %s" % (got, want))
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w") as f:
        f.write('{"schema": 1, "findings": [')
    p = run(["report", "--from-json", bad], expect=3)
    if "not JSON" not in p.stderr:
        fail("broken report.json: %r" % p.stderr)
    with open(bad, "w") as f:
        f.write('{"schema": 2, "findings": [], "verdict": {}}')
    p = run(["report", "--from-json", bad], expect=3)
    if "schema 2" not in p.stderr:
        fail("schema 2: %r" % p.stderr)

    # reproducible: the same store and window, twice in new folders and once more in the same
    a, b = os.path.join(tmp, "ra"), os.path.join(tmp, "rb")
    run(["report", "--fabric", MISMATCH, "--store", full, "--out", a], expect=2)
    run(["report", "--fabric", MISMATCH, "--store", full, "--out", b], expect=2)
    ra, rb = model(a), model(b)
    if without_generated(ra) != without_generated(rb):
        fail("two reports of the same store and window differ")
    strip = [l for l in ra.splitlines() if b'"generated"' not in l]
    if strip != [l for l in rb.splitlines() if b'"generated"' not in l]:
        fail("two reports differ in bytes apart from the generated line")
    run(["report", "--fabric", MISMATCH, "--store", full, "--out", a], expect=2)
    if [l for l in model(a).splitlines() if b'"generated"' not in l] != strip:
        fail("a report written over the same window's report differs")

    # the window: --window is its length (as --since), --at its end (-DURATION before the
    # store's newest data, or Unix seconds); leaf1 Ethernet0 is paused from minute 31 on
    stormy = os.path.join(tmp, "stormy.db")
    end = build(stormy, devices=["leaf1"], minutes=60, storm=True, drops=False, lldp=False,
                qp=False)

    def windowed(*args):
        out = os.path.join(tmp, "win" + "-".join(args))
        p = run(["report", "--fabric", HEALTHY, "--store", stormy, "--out", out] + list(args))
        if p.returncode not in (0, 1, 2):
            fail("report %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr))
        d = json.loads(model(out))
        pause = {(t["device"], t["ifname"]): t["pause_ns"] for t in d["top"]["pause"]}
        return d["window"], d["traffic"]["samples"], pause.get(("leaf1", "Ethernet0"), 0)
    (w_day, n_day, _), (w_win, n_win, _) = windowed(), windowed("--window", "10m")
    if (w_day["seconds"], w_day["end_ns"]) != (86400, end) or w_win != dict(
            w_day, start_ns=end - 600 * 10**9, seconds=600, start=w_win["start"]) or \
            not n_win < n_day:
        fail("--window 10m: window %r (%d samples), without it %r (%d)"
             % (w_win, n_win, w_day, n_day))
    (w_now, _, p_now), (w_at, _, p_at), (w_abs, _, _) = (
        windowed("--since", "10m"), windowed("--since", "10m", "--at", "-40m"),
        windowed("--since", "10m", "--at", str(end // 10**9 - 2400)))
    if w_now["end_ns"] != end or w_at["end_ns"] != end - 2400 * 10**9 or w_abs != w_at or \
            w_at["seconds"] != 600:
        fail("--at -40m and --at UNIX: windows %r and %r, without --at %r"
             % (w_at, w_abs, w_now))
    if not p_now > 100 * p_at > 0:
        fail("leaf1 Ethernet0's pause time: %d ns in the last 10 minutes (the storm), %d ns "
             "40 minutes earlier (before it)" % (p_now, p_at))
    p = run(["report", "--fabric", HEALTHY, "--store", stormy, "--since", "1h", "--window", "1h"],
            expect=64)
    if "--since and --window" not in p.stderr:
        fail("--since with --window: %r" % p.stderr)

    # --from-json re-renders the same bytes
    for fmt, name in (("html", "report.html"), ("md", "report.md"), ("json", "report.json")):
        p = run(["report", "--from-json", os.path.join(a, "report.json"), "--format", fmt],
                expect=2)
        with open(os.path.join(a, name), encoding="utf-8") as f:
            if p.stdout != f.read():
                fail("--from-json --format %s differs from %s" % (fmt, name))

    # comparison: night 1 has the PFC mismatch and host4 silent; the mismatch is fixed and
    # host4 answers by night 2, a day later; host3 stays silent throughout
    night = os.path.join(tmp, "nights.db")
    devs = ["leaf1", "leaf2", "spine1", "spine2", "host1", "host2"]
    build(night, devices=devs + ["host3"], minutes=60, storm=False, drops=False, qp=False)
    n1 = os.path.join(tmp, "night1")
    run(["report", "--fabric", MISMATCH, "--store", night, "--out", n1, "--since", "1h"],
        expect=2)
    s1, r1, d1 = statuses(n1)
    build(night, devices=devs + ["host4"], minutes=60, storm=False, drops=False, qp=False,
          lldp=False, offset=24 * 3600 * 10**9)
    n2 = os.path.join(tmp, "night2")
    run(["report", "--fabric", HEALTHY, "--store", night, "--out", n2, "--since", "1h",
         "--baseline", os.path.join(n1, "report.json")], expect=1)
    s2, r2, d2 = statuses(n2)
    mism = [k for k in s1 if k.startswith("cfg-pfc-mask-mismatch|")]
    if not mism or any(k not in r2 for k in mism):
        fail("the fixed PFC mismatch is not resolved: night1 %r, resolved %r" % (mism, r2))
    if "device-unreachable|host4||-1" not in r2:
        fail("host4 answered but its finding is not resolved: %r" % r2)
    if s2.get("device-unreachable|host3||-1") != "new":
        fail("host3 went silent on night 2: expected a new finding, got %r" % s2)
    cmp2 = d2["comparison"]
    if cmp2["resolved"] != len(r2) or cmp2["new"] + cmp2["still_open"] != len(s2):
        fail("comparison counts: %r" % cmp2)
    # the previous report in --out is the default baseline when its window is earlier
    run(["report", "--fabric", HEALTHY, "--store", night, "--out", n1, "--since", "1h"],
        expect=1)
    s3, r3, _ = statuses(n1)
    if not all(k in r3 for k in mism):
        fail("the report in --out was not used as the baseline: resolved %r" % r3)
    # without --baseline the store has the previous report: every report records its findings
    # there as a run of its fabric; night 2 in a new folder still sees night 1 resolved
    st = os.path.join(tmp, "st.db")
    build(st, devices=devs + ["host3"], minutes=60, storm=False, drops=False, qp=False)
    run(["report", "--fabric", HEALTHY, "--store", st, "--out", os.path.join(tmp, "s1"),
         "--since", "1h"], expect=1)
    build(st, devices=devs + ["host3", "host4"], minutes=60, storm=False, drops=False, qp=False,
          lldp=False, offset=24 * 3600 * 10**9)
    s2dir = os.path.join(tmp, "s2")
    run(["report", "--fabric", HEALTHY, "--store", st, "--out", s2dir, "--since", "1h"],
        expect=0)
    _, rs, ds = statuses(s2dir)
    if rs != {"device-unreachable|host4||-1"} or "store" not in ds["comparison"]["baseline"]:
        fail("the store's previous report was not the baseline: %r, %r" %
             (rs, ds["comparison"]["baseline"]))
    # and a store file that cannot be written still gives the report (with a warning); its
    # folder stays writable, as SQLite's WAL readers need for their shared-memory file
    if os.geteuid() == 0:
        os.chmod(tmp, 0o755)
        shared = os.path.join(tmp, "shared")
        os.mkdir(shared)
        os.chmod(shared, 0o777)
        ro = os.path.join(shared, "st.db")
        shutil.copy(st, ro)
        os.chmod(ro, 0o444)
        p = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", DCBKIT,
                            "report", "--fabric", HEALTHY, "--store", ro, "--out",
                            os.path.join(shared, "out"), "--since", "1h"],
                           capture_output=True, text=True)
        if p.returncode != 0 or "not recorded" not in p.stderr:
            fail("read-only store: exit %d, %r" % (p.returncode, p.stderr))

    md = open(os.path.join(n2, "report.md"), encoding="utf-8").read()
    if "- resolved: cfg-pfc-mask-mismatch at " not in md:
        fail("report.md does not list the resolved finding")
    print("ok: exits 0/1/2/3/64, reproducible JSON, --from-json identical, %d resolved on night 2 "
          "(%s)" % (len(r2), ", ".join(sorted(r2))))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
