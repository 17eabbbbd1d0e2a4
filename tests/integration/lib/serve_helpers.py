"""Shared by the dcbkit serve tests: start the exporter on a free loopback port, fetch pages,
copy and advance a fixture sysfs tree, and run a real Prometheus against it."""
import os
import re
import shutil
import signal
import socket

from free_port import free_port  # noqa: F401,E402
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import json

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
DCBKIT = os.environ.get("DCBKIT", os.path.join(ROOT, "build", "cc", "bin", "dcbkit"))
FIXTURE_SYSFS = os.path.join(ROOT, "fixtures", "sysfs", "mlx5", "t0")


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def skip(msg):
    print("skip: " + msg)
    sys.exit(77)




class Serve:
    """dcbkit serve on 127.0.0.1:0; .port is what it bound."""

    def __init__(self, args, tmp, ready_timeout=10.0, tag="serve", healthy=True):
        self.errpath = os.path.join(tmp, tag + ".err")
        self.err = open(self.errpath, "w")
        self.p = subprocess.Popen([DCBKIT, "serve", "--listen", "127.0.0.1:0"] + args,
                                  stdout=subprocess.DEVNULL, stderr=self.err)
        deadline = time.monotonic() + ready_timeout
        self.port = None
        while time.monotonic() < deadline and self.port is None:
            if self.p.poll() is not None:
                fail("serve exited with %d: %s" % (self.p.returncode, self.stderr()))
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/metrics", self.stderr())
            if m:
                self.port = int(m.group(1))
            else:
                time.sleep(0.05)
        if self.port is None:
            self.stop()
            fail("serve did not say where it listens: " + self.stderr())
        # the first page is published after the first round
        while healthy and time.monotonic() < deadline:
            status, _, _ = self.get("/healthz")
            if status == 200:
                return
            time.sleep(0.05)
        if healthy:
            fail("serve never became healthy: " + self.stderr())

    def stderr(self):
        with open(self.errpath) as f:
            return f.read()

    def get(self, path, timeout=5.0):
        """(status, body, seconds)"""
        t0 = time.monotonic()
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d%s" % (self.port, path),
                                        timeout=timeout) as r:
                body = r.read().decode()
                return r.status, body, time.monotonic() - t0
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode(errors="replace"), time.monotonic() - t0

    def rss_kib(self):
        with open("/proc/%d/status" % self.p.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return -1

    def stop(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try:
                self.p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        self.err.close()
        return self.p.returncode


class FixtureTree:
    """A copy of a fixture sysfs tree whose counters the test advances, written in place (the
    reader keeps counter files open)."""

    def __init__(self, tmp, src=FIXTURE_SYSFS):
        self.root = os.path.join(tmp, "sysfs")
        shutil.copytree(src, self.root, symlinks=True)
        self.stats = os.path.join(self.root, "class", "net", "ens1f0", "statistics")

    def read(self, name):
        with open(os.path.join(self.stats, name)) as f:
            return int(f.read().strip())

    def advance(self, name, by):
        v = self.read(name) + by
        with open(os.path.join(self.stats, name), "w") as f:
            f.write("%d\n" % v)
        return v


class Prometheus:
    """A real Prometheus on 127.0.0.1 with a temporary data dir, scraping targets every
    scrape_s seconds."""

    def __init__(self, tmp, targets, scrape_s=1, rule_files=()):
        if not shutil.which("prometheus"):
            skip("prometheus not installed (Debian package prometheus; scripts/bootstrap)")
        self.port = free_port()
        self.dir = os.path.join(tmp, "prom")
        os.makedirs(self.dir)
        cfg = os.path.join(self.dir, "prometheus.yml")
        with open(cfg, "w") as f:
            f.write("global:\n  scrape_interval: %ds\n  scrape_timeout: %ds\n"
                    "  evaluation_interval: %ds\n" % (scrape_s, scrape_s, scrape_s))
            if rule_files:
                f.write("rule_files:\n" + "".join("  - %s\n" % r for r in rule_files))
            f.write("scrape_configs:\n  - job_name: dcbkit\n    static_configs:\n"
                    "      - targets: [%s]\n" % ", ".join("'127.0.0.1:%d'" % t for t in targets))
        self.log = open(os.path.join(self.dir, "prometheus.log"), "w")
        self.p = subprocess.Popen(
            ["prometheus", "--config.file=" + cfg, "--storage.tsdb.path=" + self.dir + "/data",
             "--web.listen-address=127.0.0.1:%d" % self.port, "--log.level=warn"],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.p.poll() is not None:
                fail("prometheus exited: " + self.logtext())
            try:
                with urllib.request.urlopen(self.url("/-/ready"), timeout=1) as r:
                    if r.status == 200:
                        return
            except (OSError, urllib.error.URLError):
                pass
            time.sleep(0.2)
        self.stop()
        fail("prometheus did not become ready: " + self.logtext())

    def wait_up(self, timeout=20.0):
        """Until every target has been scraped once (the scrape manager starts its targets
        about 5 s after Prometheus is ready)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            up = self.query("up")
            if up and all(u["value"][1] == "1" for u in up):
                return
            time.sleep(0.25)
        fail("Prometheus never scraped its targets: %s\n%s" % (self.query("up"), self.logtext()))

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def logtext(self):
        with open(os.path.join(self.dir, "prometheus.log")) as f:
            return f.read()[-2000:]

    def api(self, path, **params):
        q = urllib.parse.urlencode(params)
        with urllib.request.urlopen(self.url("/api/v1/%s?%s" % (path, q)), timeout=10) as r:
            d = json.load(r)
        if d.get("status") != "success":
            fail("prometheus %s %s: %s" % (path, params, d))
        return d["data"]

    def query(self, expr):
        return self.api("query", query=expr)["result"]

    def query_range(self, expr, start, end, step):
        return self.api("query_range", query=expr, start=start, end=end, step=step)["result"]

    def stop(self):
        if self.p.poll() is None:
            self.p.terminate()
            try:
                self.p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        self.log.close()


def page_series(page):
    """A /metrics page as {(name, frozenset of (label, value)): value}."""
    out = {}
    for line in page.splitlines():
        m = re.match(r'^(\w+)\{(.*)\} (\S+)$', line)
        if m:
            labels = frozenset(re.findall(r'(\w+)="([^"]*)"', m.group(2)))
            out[(m.group(1), labels)] = float(m.group(3))
    return out


def page_value(s, name, **labels):
    """The one series of name carrying labels (others may be there too)."""
    want = set(labels.items())
    hits = [v for (n, ls), v in s.items() if n == name and want <= set(ls)]
    if len(hits) != 1:
        fail("%s%s: %d series" % (name, labels, len(hits)))
    return hits[0]


def tmpdir(tag):
    return tempfile.mkdtemp(prefix="dcbkit-%s-" % tag)
