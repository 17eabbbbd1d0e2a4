"""dcbkit diagnose -v and dcbkit report over a SONiC without the PFC watchdog: the gNMI test
target (gnmi_target.py --missing Pfcwd,PORT_QOS_MAP, one port) rejects COUNTERS/Ethernet*/Pfcwd
and CONFIG_DB PORT_QOS_MAP, NOT_FOUND "no such path: '...'". The sonic map (unedited) says what
each path gives: PORT_QOS_MAP/EthernetN/pfc_enable is pfc.enabled, and the Pfcwd table the four
pfcwd.* counters (storm_detected, storm_restored, tx_drop, rx_drop, in the map's order).

diagnose -v -T json: the PFC watchdog config rule (cfg-pfcwd) needs pfc.enabled, which only
PORT_QOS_MAP gives, so it is undecided with not_served "path CONFIG_DB:PORT_QOS_MAP not served by
sw1"; every undecided entry that names a path lacks something that path gives, and every entry
that lacks pfc.enabled (not the partner's peer.pfc.enabled) names it. The watchdog-firing rule
(pfcwd-firing) takes a missing pfcwd.storm_detected series as 0 (a series starts when it first
moves), but not where the device refused the Pfcwd path: on every port of sw1 it is undecided,
naming that path, never decided as "did not fire".

report --gnmi --collect: report.json's missing_paths lists exactly the two paths for sw1 with
the target's words and what each gives, the device sw1 lists both, and report.md says each as
"- path P not served by sw1 (the target's words): no what-it-gives"."""
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from gnmi_helpers import Peer, dcbkit, fail, need_peer  # noqa: E402

QOS = "CONFIG_DB:PORT_QOS_MAP"
WD = "COUNTERS_DB:COUNTERS/Ethernet*/Pfcwd"
GIVES = {QOS: "pfc.enabled",
         WD: "pfcwd.storm_detected,pfcwd.storm_restored,pfcwd.tx_drop,pfcwd.rx_drop"}
WORDS = {QOS: "NOT_FOUND: no such path: 'PORT_QOS_MAP'", WD: "NOT_FOUND: no such path: 'Pfcwd'"}


def md(text):
    """as report.md escapes text (report/report_md.c md_escape)"""
    return "".join("\\" + c if c in "\\`*_{}[]|~" else c for c in text)


def lacks(missing, name):
    return re.search(r"(^|[^\w.])" + re.escape(name) + r"($|[^\w.])", missing) is not None


def check_diagnose(address):
    r = dcbkit("diagnose", "-v", "-T", "json", "--gnmi", address, "--plaintext", "--map",
               "sonic", "--device", "sw1", check=False)
    if r.returncode not in (0, 1, 2, 3):
        fail("diagnose exit %d: %s" % (r.returncode, r.stderr))
    undecided = json.loads(r.stdout)["undecided"]
    wd = [u for u in undecided if u["rule"] == "cfg-pfcwd" and u["device"] == "sw1"]
    if not wd or wd[0]["not_served"] != "path %s not served by sw1" % QOS:
        fail("cfg-pfcwd on sw1: want undecided, path %s not served by sw1; got %s" % (QOS, wd))
    ports = {u["ifname"] for u in undecided if u["rule"] == "pfcwd-firing" and u["device"] == "sw1"
             and u["not_served"] == "path %s not served by sw1" % WD}
    if not {"Ethernet0"} <= ports:
        fail("pfcwd-firing on sw1 Ethernet0: want undecided, path %s not served by sw1; got %s"
             % (WD, [u for u in undecided if u["rule"] == "pfcwd-firing"]))
    for u in undecided:
        named = [p for p in GIVES if ("path %s not served by sw1" % p) in u["not_served"]]
        if u["not_served"] and not named:
            fail("%s says %r, not one of the missing paths" % (u["rule"], u["not_served"]))
        for p in named:
            if not any(lacks(u["missing"], g) for g in GIVES[p].split(",")):
                fail("%s blames %s but lacks %r" % (u["rule"], p, u["missing"]))
        if lacks(u["missing"], "pfc.enabled") and QOS not in u["not_served"]:
            fail("%s lacks pfc.enabled but does not name %s: %s" % (u["rule"], QOS, u))
    print("ok: diagnose: %d undecided, %d name a path not served; cfg-pfcwd: %s" %
          (len(undecided), sum(1 for u in undecided if u["not_served"]), wd[0]["not_served"]))


def check_report(address, out):
    dcbkit("report", "--gnmi", address, "--plaintext", "--map", "sonic", "--device", "sw1",
           "--collect", "3s", "--out", out, timeout=60, check=False)
    with open(os.path.join(out, "report.json")) as f:
        model = json.load(f)
    got = {(m["device"], m["path"]): (m["reason"], m["gives"]) for m in model["missing_paths"]}
    want = {("sw1", p): (WORDS[p], GIVES[p]) for p in GIVES}
    if got != want:
        fail("report missing_paths %s, the target lacks %s" % (got, want))
    dev = [d for d in model["devices"] if d.get("name") == "sw1"]
    if not dev or sorted(dev[0].get("missing_paths", [])) != sorted(GIVES):
        fail("report device sw1: missing_paths %s, want %s" % (dev, sorted(GIVES)))
    with open(os.path.join(out, "report.md")) as f:
        page = f.read()
    for p in GIVES:
        line = "- path %s not served by sw1 (%s): no %s" % (md(p), md(WORDS[p]), md(GIVES[p]))
        if line not in page:
            fail("report.md lacks %r:\n%s" % (line, page))
    with open(os.path.join(out, "report.html")) as f:
        html = f.read()
    section = html[html.find('<section id="missing-paths">'):]
    section = section[:section.find("</section>")]
    for p in GIVES:
        row = "<tr><td>sw1</td><td>%s</td><td>%s</td><td>%s</td></tr>" % (
            htmlesc(p), htmlesc(WORDS[p]), htmlesc(GIVES[p]))
        if row not in section:
            fail("report.html's paths not served lack %r:\n%s" % (row, section))
    print("ok: report lists %s for sw1 (JSON, Markdown, HTML)" % sorted(GIVES))


def htmlesc(text):
    """As report.html escapes text (lib/xml_escape.c: & < > " ')."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


need_peer()
tmp = tempfile.mkdtemp(prefix="dcbkit-diagnose-gnmi-missing-")
with Peer("--tree", "sonic", "--ports", "1", "--missing", "Pfcwd,PORT_QOS_MAP") as p:
    check_diagnose(p.address)
    check_report(p.address, tmp)
shutil.rmtree(tmp)
print("ok")
