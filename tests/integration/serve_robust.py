"""dcbkit serve under hostile and heavy clients: 200 concurrent connections (idle, and all
scraping at once), slowloris partial headers, a 1 MiB header, malformed request lines and
methods other than GET/HEAD. After each, /metrics must still answer within 1 s (the acceptance
line), and the slow connections must be closed by the server's timeout. Then memory: RSS may
grow by less than 1 MiB between scrape 1,000 and scrape 10,000 (SERVE_SCRAPES to change).
Then 600 connections at once, each dripping a header byte every second and never finishing
(more than the default cap of 512): /metrics must answer within a generous 10 s (the latency is
printed, a figure, not a limit): a newcomer closes the oldest unanswered connection, and no
request may take longer than --timeout to arrive, however steadily it drips.
Last --max-connections 4: four open keep-alive connections are answered; a fifth is answered
at once too, and the oldest of the four is closed to make room."""
import http.client
import os
import shutil
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from serve_helpers import FixtureTree, Serve, fail, tmpdir  # noqa: E402

LIMIT_S = 1.0
TIMEOUT_S = 2                   # the server's --timeout for this test
SCRAPES = int(os.environ.get("SERVE_SCRAPES", "10000"))
SANITIZED = os.environ.get("BUILD", "").endswith("-san")
if SANITIZED:
    LIMIT_S *= 3

tmp = tmpdir("serve-robust")
tree = FixtureTree(tmp)
serve = Serve(["--local", "--sysfs-root", tree.root, "--device", "fixture", "--interval", "1s",
               "--timeout", "%ds" % TIMEOUT_S, "--no-rules"], tmp)
worst = {}


def metrics_within(what):
    status, body, sec = serve.get("/metrics", timeout=5)
    if status != 200 or "dcbkit_port_rx_bytes_total" not in body:
        fail("%s: /metrics answered %d: %.200s" % (what, status, body))
    if sec > LIMIT_S:
        fail("%s: /metrics took %.3f s (limit %.1f s)" % (what, sec, LIMIT_S))
    worst[what] = sec
    return sec


def connect():
    s = socket.create_connection(("127.0.0.1", serve.port), timeout=5)
    return s


def read_status(s, timeout=5.0):
    """The status code of the first response on s, or None when the server closed it."""
    s.settimeout(timeout)
    data = b""
    try:
        while b"\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    except (ConnectionResetError, socket.timeout):
        pass
    if not data.startswith(b"HTTP/1."):
        return None
    return int(data.split(b" ", 2)[1])


def closed_by_server(s, within):
    s.settimeout(within)
    try:
        while True:
            if not s.recv(4096):
                return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


try:
    metrics_within("baseline")

    # 200 idle connections held open
    idle = [connect() for _ in range(200)]
    metrics_within("200 idle connections")
    # 200 clients scraping at once
    results = []

    def scrape():
        results.append(serve.get("/metrics", timeout=10))
    threads = [threading.Thread(target=scrape) for _ in range(200)]
    for t in threads:
        t.start()
    metrics_within("200 concurrent scrapes")
    for t in threads:
        t.join()
    bad = [r for r in results if r[0] != 200]
    if len(results) != 200 or bad:
        fail("concurrent scrapes: %d answers, %d not 200" % (len(results), len(bad)))
    print("200 concurrent scrapes: all 200 OK, slowest %.3f s" % max(r[2] for r in results))
    for s in idle:
        s.close()

    # slowloris: 50 connections trickle a header byte every 0.2 s
    slow = [connect() for _ in range(50)]
    for s in slow:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
    t_end = time.monotonic() + 1.2
    while time.monotonic() < t_end:
        for s in slow:
            try:
                s.sendall(b"X")
            except OSError:
                pass
        time.sleep(0.2)
    metrics_within("50 slowloris connections")
    # the server's idle timeout closes connections that stop sending
    gone = sum(closed_by_server(s, TIMEOUT_S + 2) for s in slow)
    if gone != len(slow):
        fail("slowloris: the server closed only %d of %d stalled connections within --timeout"
             % (gone, len(slow)))
    for s in slow:
        s.close()
    print("slowloris: 50 stalled connections closed by the %d s timeout" % TIMEOUT_S)

    # a 1 MiB header
    s = connect()
    try:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (1 << 20) +
                  b"\r\n\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass
    st = read_status(s)
    s.close()
    if st not in (None, 413, 414, 431, 400):
        fail("1 MiB header answered %s" % st)
    metrics_within("1 MiB header")
    print("1 MiB header: answered %s" % st)

    # malformed request lines, unknown methods, bodies
    cases = [
        b"GARBAGE\r\n\r\n",
        b"GET\r\n\r\n",
        b"GET /metrics\r\n\r\n",
        b"GET /metrics HTTP/9.9\r\nHost: x\r\n\r\n",
        b"GET  /metrics  HTTP/1.1\r\nHost: x\r\n\r\n",
        b"\x00\x01\x02\x03\xff\xfe\r\n\r\n",
        b"GET /metrics HTTP/1.1\r\nno colon here\r\n\r\n",
        b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
        b"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n",
        b"GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
        b"DELETE /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /metrics?x=%zz&&==&y HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /metrics/../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET http://evil/metrics HTTP/1.1\r\nHost: x\r\n\r\n",
        b"\r\n\r\n\r\n",
    ]
    answers = []
    for req in cases:
        s = connect()
        try:
            s.sendall(req)
        except (BrokenPipeError, ConnectionResetError):
            pass
        st = read_status(s, timeout=TIMEOUT_S + 2)
        s.close()
        answers.append(st)
        if st == 200 and not req.startswith(b"GET /metrics?") and not \
                req.startswith(b"GET  /metrics"):
            fail("malformed request %r answered 200" % req[:60])
        metrics_within("after %r" % req[:30])
    print("malformed requests answered: %s" % answers)
    st = read_status_post = None
    s = connect()
    s.sendall(b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
    st = read_status(s)
    s.close()
    if st != 405:
        fail("POST answered %s, not 405" % st)

    # memory over many scrapes on one keep-alive connection
    conn = http.client.HTTPConnection("127.0.0.1", serve.port, timeout=5)
    rss = {}
    t0 = time.monotonic()
    for i in range(1, SCRAPES + 1):
        conn.request("GET", "/metrics")
        r = conn.getresponse()
        body = r.read()
        if r.status != 200 or not body:
            fail("scrape %d answered %d" % (i, r.status))
        if i in (1000, SCRAPES):
            rss[i] = serve.rss_kib()
    conn.close()
    dt = time.monotonic() - t0
    growth = rss[SCRAPES] - rss[1000]
    print("RSS at scrape 1000: %d KiB, at scrape %d: %d KiB, growth %d KiB (%.0f scrapes/s)"
          % (rss[1000], SCRAPES, rss[SCRAPES], growth, SCRAPES / dt))
    if SANITIZED:
        print("(ASan keeps freed memory in quarantine: RSS is not judged in this build)")
    elif growth >= 1024:
        fail("RSS grew by %d KiB between scrape 1000 and %d" % (growth, SCRAPES))
    print("worst /metrics latency under attack: %.3f s (%s)" %
          max((v, k) for k, v in worst.items()))

    # 600 dripping connections, more than the cap: a scraper still gets in
    drip = []
    for _ in range(600):
        try:
            d = socket.create_connection(("127.0.0.1", serve.port), timeout=5)
            d.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
            drip.append(d)
        except OSError:
            pass
    stop_drip = threading.Event()

    def dripping():
        while not stop_drip.wait(1.0):
            for d in drip:
                try:
                    d.sendall(b"X")
                except OSError:
                    pass
    dripper = threading.Thread(target=dripping, daemon=True)
    dripper.start()
    time.sleep(TIMEOUT_S + 1)            # past the deadline: steady dripping is no excuse
    t0 = time.monotonic()
    status = None
    while status != 200 and time.monotonic() - t0 < 10:
        try:
            c = http.client.HTTPConnection("127.0.0.1", serve.port, timeout=5)
            c.request("GET", "/metrics")
            status = c.getresponse().status
            c.close()
        except OSError:
            time.sleep(0.1)
    latency = time.monotonic() - t0
    alive = sum(not closed_by_server(d, 0.01) for d in drip)
    stop_drip.set()
    dripper.join()
    for d in drip:
        d.close()
    if status != 200:
        fail("600 dripping connections: /metrics did not answer within 10 s (%s)" % status)
    if alive > 0:
        fail("600 dripping connections: %d still open after the %d s deadline" %
             (alive, TIMEOUT_S))
    print("600 dripping connections (%d opened): /metrics answered in %.3f s; all closed by the "
          "%d s request deadline" % (len(drip), latency, TIMEOUT_S))

    # --max-connections: four keep-alive connections answered and held, then a fifth
    def healthz(s, timeout):
        try:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        except OSError:
            return None
        return read_status(s, timeout)

    def fifth_in(srv_port, limit):
        """(the fifth's answer, whether the server closed the oldest of the held ones)"""
        held = [socket.create_connection(("127.0.0.1", srv_port), timeout=5)
                for _ in range(limit)]
        got = [healthz(s, 5) for s in held]
        if got != [200] * limit:
            fail("the first %d connections answered %s" % (limit, got))
        fifth = socket.create_connection(("127.0.0.1", srv_port), timeout=5)
        first = healthz(fifth, 3)
        oldest_closed = closed_by_server(held[0], 1)
        for s in held + [fifth]:
            s.close()
        return first, oldest_closed
    limited = Serve(["--local", "--sysfs-root", tree.root, "--interval", "1s", "--no-rules",
                     "--max-connections", "4"], tmp, tag="limited")
    try:
        # Serve's own readiness probes have closed: none of the four is taken
        time.sleep(0.2)
        capped = fifth_in(limited.port, 4)
    finally:
        rc_limited = limited.stop()
    default = fifth_in(serve.port, 4)
    if capped != (200, True) or default != (200, False) or rc_limited != 0:
        fail("a fifth connection: with --max-connections 4 %s (want 200, the oldest closed); "
             "at the default 512 %s (want 200, none closed); exit %s"
             % (capped, default, rc_limited))
    print("--max-connections 4: a fifth connection answered at once, the oldest idle one "
          "closed; at the default, none closed")
finally:
    rc = serve.stop()
    shutil.rmtree(tmp, ignore_errors=True)
if rc != 0:
    fail("serve exited %d on SIGTERM" % rc)
print("ok")
