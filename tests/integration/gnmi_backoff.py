#!/usr/bin/python3
"""dcbkit collect against a gNMI target whose messages arrive whole but cannot be used, on
every call: the retries back off exponentially, no outage is closed (no data ever flowed), and
each error line names what failed and when the next try is.

  bad-json      a SubscribeResponse (and a GetResponse) that decodes, but whose update is a
                JSON value that does not parse: it used to reset the backoff as it arrived,
                a retry every ~0.4 s and a source_gap event per retry, the error "stopped"
  undecodable   a well-framed message whose protobuf does not decode (field 1 cut short)
  deep          a value nested 40,000 messages deep: protobuf-c recursed into it until the stack
                overflowed (collect died of SIGSEGV)

The backoff starts at 0.5 s (docs/gnmi.md) with jitter over the upper half of each step, so the
k-th retry of a target comes no sooner than 0.25 s * (2^k - 1) after its first call: in RUN_S
seconds a target makes at most floor(log2(RUN_S / 0.25 + 1)) + 1 calls.
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from gnmi_helpers import DCBKIT, Peer, fail, need_peer  # noqa: E402
import store_sql  # noqa: E402

RUN_S = 6.0
BACKOFF_MIN_S = 0.5
# one more than the doubling allows: the client retries once at once when libcurl loses a status
MAX_CALLS = math.floor(math.log2(RUN_S / (BACKOFF_MIN_S / 2) + 1)) + 2
CPU_MAX_S = 0.5          # the collector's user + system time over the run (a storm: a retry per 0.4 s)

FAULTS = {
    "bad-json": ["/COUNTERS/Ethernet0: the JSON value does not parse"],
    "undecodable": ["does not decode", "(field 1) at byte 0: 200 bytes announced, 30 left"],
    "deep": ["does not decode", "messages nested deeper than 32"],
}


def check(cond, msg):
    if not cond:
        fail(msg)


def start(fault, tmp):
    peer = Peer("--fault", fault, "--ports", "1", "--stats", os.path.join(tmp, fault + ".json"))
    err = open(os.path.join(tmp, fault + ".err"), "w+")
    col = subprocess.Popen([DCBKIT, "collect", "--gnmi", peer.address, "--plaintext", "--map", "sonic",
                            "--timeout", "2s", "--duration", "%gs" % RUN_S,
                            "--store", os.path.join(tmp, fault + ".db")],
                           stdout=subprocess.DEVNULL, stderr=err)
    return peer, col, err


def finish(fault, tmp, peer, col, err):
    _, status, usage = os.wait4(col.pid, 0)
    col.returncode = os.waitstatus_to_exitcode(status)
    peer.stop()
    err.seek(0)
    text = err.read()
    err.close()
    with open(os.path.join(tmp, fault + ".json")) as f:
        calls = json.load(f)["calls"]
    con = store_sql.connect(os.path.join(tmp, fault + ".db"))
    gaps = con.execute("SELECT COUNT(*) FROM events WHERE kind='source_gap'").fetchone()[0]
    con.close()
    return text, calls, gaps, usage.ru_utime + usage.ru_stime, col.returncode


def verify(fault, text, calls, gaps, cpu, rc):
    label = "%s: " % fault
    check("AddressSanitizer" not in text and "runtime error" not in text, label + "crash: " + text)
    check(rc == 1, label + "exit %d, want 1 (nothing collected): %s" % (rc, text))
    check(calls and sum(calls.values()) >= len(calls), label + "no calls: %s" % calls)
    worst = max(calls.values())
    check(worst <= MAX_CALLS, label + "%d calls to one target in %.0f s (at most %d with the backoff "
          "doubling from %.1f s): %s" % (worst, RUN_S, MAX_CALLS, BACKOFF_MIN_S, calls))
    check(gaps == 0, label + "%d source_gap events, but no data ever flowed" % gaps)
    check(cpu < CPU_MAX_S, label + "the collector used %.2f s of CPU in %.0f s" % (cpu, RUN_S))
    lines = [ln for ln in text.splitlines() if "retrying" in ln]
    check(len(lines) >= len(calls), label + "no retries said: %s" % text)
    for ln in lines:
        for w in FAULTS[fault]:
            check(w in ln, label + "%r does not say %r" % (ln, w))
        check("SubscribeResponse" in ln or "GetResponse" in ln, label + "%r names no message" % ln)
        check("stopped" not in ln, label + "%r says only 'stopped'" % ln)
    delays = [float(d) for d in re.findall(r"; retrying in ([0-9.]+) s", text)]
    check(len(delays) == len(lines), label + "a retry without its delay: %s" % lines)
    check(max(delays) >= 2 * BACKOFF_MIN_S and min(delays) >= BACKOFF_MIN_S / 2 - 0.05,
          label + "the delays %s did not grow from %.1f s" % (delays, BACKOFF_MIN_S))
    print("ok: %s: at most %d calls per target (%s), %d source_gap events, %.2f s CPU, delays %s, "
          "said: %s" % (fault, worst, calls, gaps, cpu, delays, lines[0]))


def main():
    need_peer()
    with tempfile.TemporaryDirectory() as tmp:
        runs = {}
        try:
            for fault in FAULTS:
                runs[fault] = start(fault, tmp)
            results = {fault: finish(fault, tmp, *run) for fault, run in runs.items()}
        finally:
            for peer, col, _ in runs.values():
                if col.returncode is None:
                    col.kill()
                    col.wait()
                peer.stop()
    for fault, (text, calls, gaps, cpu, rc) in results.items():
        print("%s: calls %s, %d source_gap events, %.2f s CPU, exit %d, %d retry lines" %
              (fault, calls, gaps, cpu, rc, text.count("retrying")))
    for fault, res in results.items():
        verify(fault, *res)
    print("ok")


if __name__ == "__main__":
    main()
