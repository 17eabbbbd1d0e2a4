"""/metrics is gzipped when the scraper asks for it, and only then.

serve --demo with a long interval (the page stays the same between the fetches); curl fetches
/metrics plain, with Accept-Encoding: gzip (the raw body is a gzip stream whose content is the
plain page), with --compressed (what curl decodes is the plain page), and with gzip refused
(q=0): plain again. Vary: Accept-Encoding on every /metrics answer. Prints the sizes."""
import gzip
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "lib"))
from serve_helpers import Serve, fail  # noqa: E402


def curl(url, *args):
    """(headers as {lower-case name: value}, body bytes)"""
    r = subprocess.run(["curl", "-sS", "-D", "-", "-o", "-", "--max-time", "10"] + list(args) +
                       [url], capture_output=True, timeout=20)
    if r.returncode != 0:
        fail("curl %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr.decode()))
    head, _, body = r.stdout.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    if " 200" not in lines[0]:
        fail("curl %s: %s" % (" ".join(args), lines[0]))
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return headers, body


def main():
    with tempfile.TemporaryDirectory() as tmp:
        s = Serve(["--demo", "--interval", "60s"], tmp)
        try:
            url = "http://127.0.0.1:%d/metrics" % s.port
            h_plain, plain = curl(url)
            if "content-encoding" in h_plain:
                fail("no Accept-Encoding, yet Content-Encoding: %s" % h_plain["content-encoding"])
            if not plain.startswith(b"# HELP ") or b"dcbkit_port_rx_bytes_total{" not in plain:
                fail("the plain page is not the exposition text: %r" % plain[:80])
            h_gz, raw = curl(url, "-H", "Accept-Encoding: gzip")
            if h_gz.get("content-encoding") != "gzip":
                fail("Accept-Encoding: gzip gave Content-Encoding %r" % h_gz.get("content-encoding"))
            if raw[:2] != b"\x1f\x8b":
                fail("the gzip body does not start with the gzip magic: %r" % raw[:8])
            if gzip.decompress(raw) != plain:
                fail("the gzipped page is not the plain one")
            if int(h_gz.get("content-length", "-1")) != len(raw):
                fail("Content-Length %s for a %d-byte gzip body" % (h_gz.get("content-length"),
                                                                    len(raw)))
            h_c, decoded = curl(url, "--compressed")
            if h_c.get("content-encoding") != "gzip" or decoded != plain:
                fail("curl --compressed: encoding %r, %d bytes decoded against %d plain"
                     % (h_c.get("content-encoding"), len(decoded), len(plain)))
            h_no, body = curl(url, "-H", "Accept-Encoding: gzip;q=0, identity")
            if "content-encoding" in h_no or body != plain:
                fail("gzip;q=0 still gave %r" % h_no.get("content-encoding"))
            for h in (h_plain, h_gz, h_no):
                if h.get("vary", "").lower() != "accept-encoding":
                    fail("/metrics without Vary: Accept-Encoding: %s" % h)
            h_health, _ = curl("http://127.0.0.1:%d/healthz" % s.port, "-H",
                               "Accept-Encoding: gzip")
            if "content-encoding" in h_health:
                fail("/healthz was gzipped")
            if len(raw) * 4 > len(plain):
                fail("gzip saved too little: %d of %d bytes" % (len(raw), len(plain)))
            print("ok: the demo's /metrics is %d bytes, %d gzipped (%.1f%%)"
                  % (len(plain), len(raw), 100.0 * len(raw) / len(plain)))
        finally:
            s.stop()


main()
