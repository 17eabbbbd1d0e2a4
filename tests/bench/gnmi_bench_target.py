#!/usr/bin/python3
"""The benchmark's gNMI targets: N targets in one process (one grpcio server, one port each),
each streaming a SONiC COUNTERS_DB notification of P ports x 30 counters every interval. Every
round is encoded before the port list is printed, so serving costs a lookup and a send and the
peer does not starve the client on a small machine.

Prints "PORTS p1 p2 ..." once listening; on SIGTERM writes {"updates": counters sent} to
--stats."""
import argparse
import json
import os
import signal
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration", "lib"))
import gnmi_wire as W  # noqa: E402

COUNTERS = 30


def port_fields(i, r):
    f = {}
    for n in range(8):
        f["SAI_PORT_STAT_PFC_%d_RX_PKTS" % n] = str(1000 * i + n + 50 * r)
        f["SAI_PORT_STAT_PFC_%d_TX_PKTS" % n] = str(2000 * i + n + 20 * r)
        f["SAI_PORT_STAT_PFC_%d_RX_PAUSE_DURATION_US" % n] = str(500 * i + 1000 * r)
    f["SAI_PORT_STAT_IF_IN_OCTETS"] = str(10 ** 9 * i + 12500000 * r)
    f["SAI_PORT_STAT_IF_OUT_OCTETS"] = str(10 ** 9 * i + 12500000 * r)
    f["SAI_PORT_STAT_IF_IN_UCAST_PKTS"] = str(10 ** 6 * i + 3000 * r)
    f["SAI_PORT_STAT_IF_OUT_UCAST_PKTS"] = str(10 ** 6 * i + 3000 * r)
    f["SAI_PORT_STAT_IF_IN_DISCARDS"] = str(i + r)
    f["SAI_PORT_STAT_IF_IN_ERRORS"] = str(r)
    assert len(f) == COUNTERS
    return f


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--targets", type=int, default=50)
    ap.add_argument("--ports", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=31)
    ap.add_argument("--interval", type=float, default=1.0)
    ap.add_argument("--stats")
    args = ap.parse_args()
    import grpc
    from concurrent import futures

    t0 = time.time_ns()
    prefix = W.encode_path([("COUNTERS", {})], target="COUNTERS_DB")
    rounds = []
    for r in range(args.rounds):
        ups = [W.encode_update(W.encode_path([("Ethernet%d" % (i * 4), {})]),
                               W.encode_typed(port_fields(i, r), "json_ietf")) for i in range(args.ports)]
        rounds.append(W.subscribe_response_update(
            W.encode_notification(t0 + r * int(args.interval * 1e9), prefix, ups)))
    sync = W.subscribe_response_sync()
    sent = {"updates": 0, "streams": 0}
    lock = threading.Lock()

    def subscribe(req_iter, context):
        next(req_iter, None)
        with lock:
            sent["streams"] += 1
        start = time.monotonic()
        for r, msg in enumerate(rounds):
            if r:
                delay = start + r * args.interval - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                if not context.is_active():
                    return
            with lock:
                sent["updates"] += args.ports * COUNTERS
            yield msg
            if r == 0:
                yield sync
        while context.is_active():
            time.sleep(0.2)

    ident = lambda b: b  # noqa: E731
    handler = grpc.method_handlers_generic_handler("gnmi.gNMI", {
        "Subscribe": grpc.stream_stream_rpc_method_handler(subscribe, request_deserializer=ident,
                                                           response_serializer=ident)})
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=args.targets + 8),
                         options=[("grpc.so_reuseport", 0)])
    server.add_generic_rpc_handlers((handler,))
    ports = [server.add_insecure_port("127.0.0.1:0") for _ in range(args.targets)]
    server.start()
    print("PORTS " + " ".join(str(p) for p in ports), flush=True)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: done.set())
    signal.signal(signal.SIGINT, lambda *a: done.set())
    while not done.wait(0.2):
        pass
    with lock:
        stats = dict(sent)
    if args.stats:
        with open(args.stats, "w") as f:
            json.dump(stats, f)
    server.stop(0)


if __name__ == "__main__":
    main()
