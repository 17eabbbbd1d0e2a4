"""docs/grafana/dcbkit.json against the real Prometheus tools (issue 31).

Every PromQL expression of the dashboard (panel targets, the panels of collapsed rows, and the
query variables' label_values) is taken with its variables replaced: a dashboard variable by
the match-all regex .* (allowed only inside a =~ matcher), $__rate_interval by 5s, $__range by
1m. Then
  (a) written as recording rules, `promtool check rules` must accept them all;
  (b) a real Prometheus on 127.0.0.1 scrapes, every second, `dcbkit serve --demo` (the
      simulated leaf-spine whose host8 drains slowly) and `dcbkit serve --store` on a store
      made from the mlx5 `ethtool -S` fixtures (a NIC with the counters the simulator does not
      have: sent pause time, per-priority marks and discards). After GRAFANA_PROM_SECONDS of
      samples (default 4) each expression must return at least one series, and every dcbkit_
      metric it names must be one Prometheus ingested, so a misspelt or retired name fails.
Values are checked where the panel promises them: pause shares within 0..1 and some port
paused, CNPs flowing, the demo's slow receiver among the active findings, no collection
errors, the last collection recent. The checks themselves must reject a misspelt metric and a
syntax error."""
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from dashboard_exprs import (metric_names, panels, substitute, targets,  # noqa: E402
                             user_variables, variable_query)
from serve_helpers import DCBKIT, ROOT, Prometheus, Serve, fail, skip, tmpdir  # noqa: E402

DASHBOARD = os.environ.get("GRAFANA_DASHBOARD",
                           os.path.join(ROOT, "docs", "grafana", "dcbkit.json"))
SECONDS = float(os.environ.get("GRAFANA_PROM_SECONDS", "4"))
DUMPS = os.path.join(ROOT, "fixtures", "ethtool")
SLOW_RECEIVER = "host8"         # the fault of serve --demo (rules/replay/scenario_demo.c)

if not shutil.which("promtool"):
    skip("promtool not installed (Debian package prometheus; scripts/bootstrap)")
with open(DASHBOARD) as f:
    dash = json.load(f)


def structure():
    """What Grafana needs to import the file and point it at any Prometheus."""
    problems = []
    ids = [p["id"] for p in panels(dash)]
    if len(ids) != len(set(ids)):
        problems.append("panel ids repeat: %s" % ids)
    if not 36 <= dash.get("schemaVersion", 0) <= 41:
        problems.append("schemaVersion %s" % dash.get("schemaVersion"))
    ds = user_variables(dash).get("datasource", {})
    if ds.get("type") != "datasource" or ds.get("query") != "prometheus":
        problems.append("no datasource variable of type prometheus: %s" % ds)
    for p in panels(dash):
        if p["type"] != "row" and p.get("datasource", {}).get("uid") != "${datasource}":
            problems.append("panel %r does not use ${datasource}" % p["title"])
        for t in p.get("targets", []):
            if t.get("datasource", {}).get("uid") != "${datasource}" or not t.get("refId"):
                problems.append("target of %r: datasource or refId" % p["title"])
    return problems


def expressions():
    """[(label, promql, panel or None)] for every expression, variables replaced."""
    names = set(user_variables(dash))
    out, problems = [], []
    for p, t in targets(dash):
        label = "%s/%s" % (p["title"], t["refId"])
        q, bad = substitute(t["expr"], names)
        problems += ["%s: %s" % (label, b) for b in bad]
        out.append((label, q, p))
    for v in user_variables(dash).values():
        if v.get("type") != "query":
            continue
        q, raw = variable_query(v)
        if q is None:
            problems.append("variable $%s: not label_values(METRIC, LABEL): %r" % (v["name"], raw))
            continue
        q, bad = substitute(q, names)
        problems += ["variable $%s: %s" % (v["name"], b) for b in bad]
        out.append(("variable $" + v["name"], q, None))
    return out, problems


def promtool_rules(exprs, path):
    """promtool check rules on the expressions as recording rules (JSON is YAML)."""
    rules = [{"record": "dashboard:expr_%d" % i, "expr": q} for i, (_, q, _) in enumerate(exprs)]
    with open(path, "w") as f:
        json.dump({"groups": [{"name": "grafana-dashboard", "rules": rules}]}, f, indent=1)
    r = subprocess.run(["promtool", "check", "rules", path], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def check_series(label, q, ingested):
    """(problems, result) of one expression against the running Prometheus."""
    problems = ["%s: %s is not a metric Prometheus ingested" % (label, n)
                for n in sorted(metric_names(q) - ingested)]
    result = prom.api("query", query=q)["result"]
    if not result:
        problems.append("%s: no series for %s" % (label, q))
    return problems, result


def values(result):
    return [float(s["value"][1]) for s in result]


def check_values(p, result):
    """What a panel promises of its numbers."""
    title, unit = p["title"], p.get("fieldConfig", {}).get("defaults", {}).get("unit")
    v = values(result)
    if unit == "percentunit" and not all(0 <= x <= 1.05 for x in v):
        return ["%s: a share outside 0..1: %s" % (title, v)]
    if title.startswith("Pause share received") and max(v) <= 0:
        return ["%s: no port paused in the demo" % title]
    if title == "CNPs per second" and max(v) <= 0:
        return ["%s: no CNPs in the demo" % title]
    if title == "Collection errors" and any(x != 0 for x in v):
        return ["%s: %s" % (title, v)]
    if title == "Age of the last good collection" and not all(0 <= x < 5 for x in v):
        return ["%s: %s s, serve collects every 1 s" % (title, v)]
    if title == "Active findings":
        slow = [s["metric"] for s in result if s["metric"].get("device") == SLOW_RECEIVER]
        if not any(m.get("severity") in ("warn", "crit") for m in slow):
            return ["%s: the demo's slow receiver %s is not among %s" %
                    (title, SLOW_RECEIVER, [s["metric"] for s in result])]
        print("active findings: %d, at %s: %s" % (len(result), SLOW_RECEIVER,
                                                  sorted(m["rule"] for m in slow)))
    return []


tmp = tmpdir("grafana")
prom = demo = nic = None
try:
    problems = structure()
    exprs, bad = expressions()
    problems += bad
    if problems:
        fail("the dashboard:\n  " + "\n  ".join(problems))
    print("%d expressions (%d panels)" % (len(exprs), len(panels(dash))))

    rc, out = promtool_rules(exprs, os.path.join(tmp, "dashboard.rules.json"))
    if rc != 0 or "SUCCESS: %d rules found" % len(exprs) not in out:
        fail("promtool check rules on the dashboard's expressions: " + out)
    rc, out = promtool_rules([("broken", "rate(dcbkit_pg_drops_total[5s]", None)],
                             os.path.join(tmp, "broken.rules.json"))
    if rc == 0:
        fail("promtool accepted an unclosed parenthesis: the check cannot fail: " + out)
    print("promtool check rules: %d expressions accepted (and a syntax error refused)"
          % len(exprs))

    store = os.path.join(tmp, "nic.db")
    r = subprocess.run([DCBKIT, "collect", "-q", "--device", "gpu17", "--ifname", "ens1f0",
                        "--driver", "mlx5_core", "--interval", "1s", "--store", store,
                        "--from-ethtool-dump", os.path.join(DUMPS, "mlx5-pfc3-t0.txt"),
                        "--from-ethtool-dump", os.path.join(DUMPS, "mlx5-pfc3-t1.txt")],
                       capture_output=True, text=True)
    if r.returncode != 0:
        fail("collect --from-ethtool-dump: " + r.stderr)
    demo = Serve(["--demo", "--interval", "1s"], tmp, tag="demo")
    nic = Serve(["--store", store, "--interval", "1s"], tmp, tag="nic")
    prom = Prometheus(tmp, [demo.port, nic.port], scrape_s=1)
    prom.wait_up()
    time.sleep(SECONDS)
    print("demo on port %d, NIC store on port %d" % (demo.port, nic.port))

    ingested = set(prom.api("label/__name__/values"))
    problems = []
    for label, q, p in exprs:
        bad, result = check_series(label, q, ingested)
        if not bad and p is not None:
            bad = check_values(p, result)
        problems += bad
        ports = sorted({s["metric"]["instance"].rsplit(":", 1)[-1] for s in result
                        if "instance" in s["metric"]})
        print("%-58s %3d series, max %-10.4g from %s" % (
            label[:58], len(result), max(values(result) or [0]),
            "ports " + ", ".join(ports) if ports else "(aggregated)"))
    if problems:
        fail("against Prometheus scraping serve --demo and a NIC store:\n  " +
             "\n  ".join(problems))

    bogus, _ = check_series("misspelt", 'rate(dcbkit_pfc_rx_pause_secs_total{prio=~".*"}[5s])',
                            ingested)
    if len(bogus) != 2:
        fail("a misspelt metric was not caught twice (name, no series): %s" % bogus)
    print("every expression returns series; a misspelt metric is refused")
finally:
    if prom:
        prom.stop()
    for s in (demo, nic):
        if s:
            s.stop()
    shutil.rmtree(tmp, ignore_errors=True)
print("ok")
