"""Debian's headless Chromium, driven over the DevTools protocol (python3-websocket), for the
tests that render what dcbkit writes (SVG charts, report.html).

    from chromium import Chromium
    with Chromium(width=1280, height=2000) as b:      # skips (exit 77) if anything is missing
        b.load("/tmp/x/report.html")
        n = b.evaluate("document.querySelectorAll('svg').length")
        png = b.screenshot("/tmp/x/report.png")
        assert not b.errors, b.errors                   # console errors, exceptions, failed loads
        w, h, colours, top_share = b.image_stats(png)   # a blank page has one colour

Every browser gets a fresh --user-data-dir, binds its DevTools port on 127.0.0.1 only, and is
killed and its directory removed on exit. Waits are parameters (timeout=)."""
import base64
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


def skip(msg):
    print("skip: " + msg)
    sys.exit(77)


class ChromiumError(Exception):
    pass


class Chromium:
    def __init__(self, width=1280, height=2000, timeout=20.0):
        self.width, self.height, self.timeout = width, height, timeout
        self.errors = []          # "kind: text" for every console error / exception / failure
        self.console = []         # every console message, (level, text)
        self.proc = None
        self.ws = None
        self.profile = None
        self._id = 0
        self._events = []

    # ---- lifecycle --------------------------------------------------------------------------
    def __enter__(self):
        try:
            import websocket  # noqa: F401  (python3-websocket)
        except ImportError:
            skip("python3-websocket not installed (scripts/bootstrap installs it)")
        if not os.access(CHROMIUM, os.X_OK):
            skip("%s not installed (scripts/bootstrap installs chromium)" % CHROMIUM)
        self.profile = tempfile.mkdtemp(prefix="dcbkit-chromium-")
        cmd = [CHROMIUM] + FLAGS + ["--user-data-dir=" + self.profile,
                                    "--remote-debugging-address=127.0.0.1",
                                    "--remote-debugging-port=0",
                                    "--window-size=%d,%d" % (self.width, self.height),
                                    "--hide-scrollbars", "about:blank"]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     start_new_session=True)
        try:
            port = self._devtools_port()
            self._connect(port)
        except Exception:
            self.close()
            raise
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def _devtools_port(self):
        marker = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace")[-2000:]
                raise ChromiumError("chromium exited with %d: %s" % (self.proc.returncode, err))
            try:
                with open(marker) as f:
                    line = f.readline().strip()
                if line:
                    return int(line)
            except (FileNotFoundError, ValueError):
                pass
            time.sleep(0.05)
        raise ChromiumError("chromium did not open its DevTools port in %.0fs" % self.timeout)

    def _connect(self, port):
        import websocket
        base = "http://127.0.0.1:%d" % port
        req = urllib.request.Request(base + "/json/new?about:blank", method="PUT")
        with urllib.request.urlopen(req, timeout=self.timeout) as r:
            target = json.load(r)
        self.ws = websocket.create_connection(target["webSocketDebuggerUrl"],
                                              timeout=self.timeout, suppress_origin=True)
        for method in ("Runtime.enable", "Log.enable", "Page.enable", "Network.enable"):
            self.call(method)
        self.call("Emulation.setDeviceMetricsOverride", width=self.width, height=self.height,
                  deviceScaleFactor=1, mobile=False)

    def close(self):
        if self.ws is not None:
            try:
                self.ws.close()
            except Exception:
                pass
            self.ws = None
        if self.proc is not None:
            if self.proc.poll() is None:
                try:
                    os.killpg(self.proc.pid, signal.SIGTERM)
                    self.proc.wait(timeout=5)
                except (subprocess.TimeoutExpired, ProcessLookupError):
                    try:
                        os.killpg(self.proc.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                    self.proc.wait()
            self.proc.stderr.close()
            self.proc = None
        if self.profile:
            shutil.rmtree(self.profile, ignore_errors=True)
            self.profile = None

    # ---- protocol ---------------------------------------------------------------------------
    def _note(self, ev):
        method, p = ev.get("method"), ev.get("params", {})
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
            self.console.append((p.get("type"), text))
            if p.get("type") in ("error", "assert"):
                self.errors.append("console: " + text)
        elif method == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            self.errors.append("exception: " + d.get("text", "") + " " +
                               str(d.get("exception", {}).get("description", "")))
        elif method == "Log.entryAdded":
            e = p.get("entry", {})
            self.console.append((e.get("level"), e.get("text")))
            if e.get("level") == "error":
                self.errors.append("log: %s %s" % (e.get("text"), e.get("url", "")))
        elif method == "Network.loadingFailed":
            self.errors.append("load failed: %s" % p.get("errorText"))
        self._events.append(ev)

    def _recv(self, deadline):
        import websocket
        self.ws.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            msg = json.loads(self.ws.recv())
        except websocket.WebSocketTimeoutException:
            raise ChromiumError("no answer from chromium within %.0fs" % self.timeout)
        if "method" in msg:
            self._note(msg)
        return msg

    def call(self, method, **params):
        self._id += 1
        my_id = self._id
        self.ws.send(json.dumps({"id": my_id, "method": method, "params": params}))
        deadline = time.monotonic() + self.timeout
        while True:
            msg = self._recv(deadline)
            if msg.get("id") == my_id:
                if "error" in msg:
                    raise ChromiumError("%s: %s" % (method, msg["error"].get("message")))
                return msg.get("result", {})

    def wait_event(self, method):
        for i, ev in enumerate(self._events):
            if ev.get("method") == method:
                return self._events.pop(i)
        deadline = time.monotonic() + self.timeout
        while True:
            msg = self._recv(deadline)
            if msg.get("method") == method:
                self._events.remove(msg)
                return msg

    # ---- what tests use -----------------------------------------------------------------------
    def load(self, path):
        """Opens a local file and waits for its load event."""
        self._events.clear()
        url = "file://" + os.path.abspath(path)
        r = self.call("Page.navigate", url=url)
        if r.get("errorText"):
            raise ChromiumError("navigate %s: %s" % (url, r["errorText"]))
        self.wait_event("Page.loadEventFired")

    def evaluate(self, expression):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in r:
            raise ChromiumError("evaluate %r: %s" % (expression, r["exceptionDetails"].get("text")))
        return r.get("result", {}).get("value")

    def screenshot(self, path, full_page=False):
        params = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
        r = self.call("Page.captureScreenshot", **params)
        data = base64.b64decode(r["data"])
        with open(path, "wb") as f:
            f.write(data)
        return data

    def image_stats(self, png):
        """(width, height, distinct colours, share of the most common colour) of a PNG, decoded
        by the browser on a blank page (this leaves the current page): a blank render is one
        colour. Every 4th pixel of every 4th row is counted."""
        self.call("Page.navigate", url="about:blank")
        self.wait_event("Page.loadEventFired")
        js = """(async () => {
            const img = new Image();
            img.src = 'data:image/png;base64,%s';
            await img.decode();
            const c = document.createElement('canvas');
            c.width = img.width; c.height = img.height;
            const g = c.getContext('2d');
            g.drawImage(img, 0, 0);
            const d = g.getImageData(0, 0, c.width, c.height).data;
            const counts = new Map();
            let total = 0;
            for (let y = 0; y < c.height; y += 4)
                for (let x = 0; x < c.width; x += 4) {
                    const i = (y * c.width + x) * 4;
                    const k = (d[i] << 16) | (d[i + 1] << 8) | d[i + 2];
                    counts.set(k, (counts.get(k) || 0) + 1);
                    total++;
                }
            return [c.width, c.height, counts.size, Math.max(...counts.values()) / total];
        })()""" % base64.b64encode(png).decode()
        r = self.call("Runtime.evaluate", expression=js, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in r:
            raise ChromiumError("decoding the screenshot: %s" % r["exceptionDetails"].get("text"))
        return tuple(r["result"]["value"])

