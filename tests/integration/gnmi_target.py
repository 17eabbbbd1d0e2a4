#!/usr/bin/python3
"""A real gNMI target on python3-grpcio for dcbkit's tests (not a test itself).

Serves Capabilities, Get and Subscribe (STREAM sample/on_change, ONCE, POLL) over one of two
trees whose counters move every sample (pauses, ECN marks, watermarks):

  --tree sonic       SONiC's virtual paths: target COUNTERS_DB (COUNTERS/EthernetN,
                     COUNTERS/EthernetN/Queues, .../Pfcwd, PERIODIC_WATERMARKS/EthernetN/...)
                     as JSON_IETF objects whose numbers are strings, and CONFIG_DB tables
  --tree openconfig  openconfig-interfaces / -qos leaves as scalar uint_val updates, or one
                     JSON_IETF object per container when asked for JSON_IETF in Get

Both serve the switch's LLDP neighbours (--lldp): APPL_DB LLDP_ENTRY_TABLE/EthernetN with
lldp_rem_sys_name, lldp_rem_port_id and lldp_rem_chassis_id (SONiC), or openconfig-lldp
/lldp/interfaces/interface[name]/neighbors/neighbor[id=1]/state/{system-name,port-id,chassis-id}.

Messages are encoded by hand (lib/gnmi_wire.py), never with dcbkit's proto.

Missing tables (--missing Pfcwd,PORT_QOS_MAP): the tree lacks every table or key with such an
element, and a Subscribe or Get naming one is rejected whole, NOT_FOUND "no such path: 'Pfcwd'",
as a SONiC without the PFC watchdog answers; --missing-for S serves them again after S seconds.

Get types and updates_only are honoured, simply: a leaf is config data when its path has a
"config" element (OpenConfig) or lives in CONFIG_DB (SONiC), state data when it has a "state"
element or lives in COUNTERS_DB, and operational data when it is state data under a "counters"
container (OpenConfig) or in COUNTERS_DB; Get CONFIG, STATE or OPERATIONAL answers only those
leaves (ALL: every one). A subscription with updates_only gets no initial dump: the
sync_response comes first, then only what is sampled after it (ONCE: the sync alone).

Mutual TLS: --client-ca FILE requires a client certificate that CA signed.

--stats FILE writes on exit what was asked for: call counts (also by kind and prefix target), and
per kind the encodings, subscription modes, Get types and updates_only flags seen, the missing
elements rejected.

Faults (--fault): unauthenticated, unimplemented (Subscribe only; Get still works),
resource-exhausted, huge (a 64 MiB message), hang (accepts the call, never answers),
close-mid-stream / malformed-prefix (raw HTTP/2 via python3-h2, see --raw). Two faults answer
every call with one well-framed message that arrives whole but cannot be used, then hold the
stream open until the client leaves: bad-json (it decodes; its one update is a JSON_IETF value
that does not parse, at /COUNTERS/Ethernet0), undecodable (its protobuf does not decode:
field 1, the notification, says 200 bytes and 30 follow) and deep (its value nests 20,000
leaf-lists, 40,000 messages deep in 150 kB: a decoder that recurses per level overflows its stack).

The chosen port is printed on stdout as "PORT <n>" once the server listens.
Values: tree_value() below; value(epoch) = base + epoch * step, epoch = samples sent so far
on that call (0 for Get and the first sample).
"""
import argparse
import fnmatch
import json
import os
import signal
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import gnmi_wire as W  # noqa: E402

# ---- trees ------------------------------------------------------------------------------------


def sonic_port_fields(i, e):
    f = {}
    for n in range(8):
        hot = n == 3
        f["SAI_PORT_STAT_PFC_%d_RX_PKTS" % n] = 1000 * (i + 1) + 100 * n + (50 * e if hot else 0)
        f["SAI_PORT_STAT_PFC_%d_TX_PKTS" % n] = 2000 * (i + 1) + 100 * n + (20 * e if hot else 0)
        f["SAI_PORT_STAT_PFC_%d_RX_PAUSE_DURATION_US" % n] = (500 * (i + 1) + 1000 * e) if hot else 0
        f["SAI_PORT_STAT_PFC_%d_TX_PAUSE_DURATION_US" % n] = (200 * (i + 1) + 400 * e) if hot else 0
        f["SAI_PORT_STAT_PFC_%d_ON2OFF_RX_PKTS" % n] = (10 * (i + 1) + 5 * e) if hot else 0
    f["SAI_PORT_STAT_IF_IN_OCTETS"] = 10 ** 9 * (i + 1) + 12500000 * e
    f["SAI_PORT_STAT_IF_OUT_OCTETS"] = 2 * 10 ** 9 * (i + 1) + 12500000 * e
    f["SAI_PORT_STAT_IF_IN_UCAST_PKTS"] = 10 ** 6 * (i + 1) + 3000 * e
    f["SAI_PORT_STAT_IF_OUT_UCAST_PKTS"] = 2 * 10 ** 6 * (i + 1) + 3000 * e
    f["SAI_PORT_STAT_IF_IN_DISCARDS"] = 7 * (i + 1)
    f["SAI_PORT_STAT_PAUSE_RX_PKTS"] = 0
    f["SAI_PORT_STAT_PAUSE_TX_PKTS"] = 0
    f["SAI_PORT_STAT_ECN_MARKED_PACKETS"] = 300 * (i + 1) + 40 * e
    f["SAI_PORT_STAT_IF_IN_ERRORS"] = i
    return f


def sonic_queue_fields(port, i, e):
    out = {}
    for q in range(8):
        hot = q == 3
        out["%s:%d" % (port, q)] = {
            "SAI_QUEUE_STAT_PACKETS": 10000 * (i + 1) + 1000 * q + 700 * e,
            "SAI_QUEUE_STAT_BYTES": 10000000 * (i + 1) + 1000000 * q + 700000 * e,
            "SAI_QUEUE_STAT_DROPPED_PACKETS": 3 * q,
            "SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS": (60 * (i + 1) + 30 * e) if hot else 0,
            "SAI_QUEUE_STAT_WRED_DROPPED_PACKETS": 0,
            "SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES": (40960 + 1024 * (e % 8)) if hot else 0,
            "SAI_QUEUE_STAT_CURR_OCCUPANCY_BYTES": 2048 if hot else 0,
        }
    return out


def sonic_pfcwd_fields(port, i, e):
    return {"%s:%d" % (port, q): {
        "PFC_WD_STATUS": "operational",
        "PFC_WD_QUEUE_STATS_DEADLOCK_DETECTED": i + e // 4 if q == 3 else 0,
        "PFC_WD_QUEUE_STATS_DEADLOCK_RESTORED": i + e // 4 if q == 3 else 0,
        "PFC_WD_QUEUE_STATS_TX_DROPPED_PACKETS": 11 * i if q == 3 else 0,
        "PFC_WD_QUEUE_STATS_RX_DROPPED_PACKETS": 0,
    } for q in (3, 4)}


def sonic_pg_watermarks(port, i, e):
    return {"%s:%d" % (port, pg): {
        "SAI_INGRESS_PRIORITY_GROUP_STAT_XOFF_ROOM_WATERMARK_BYTES": (8192 * (i + 1) + 512 * e) if pg == 3 else 0,
        "SAI_INGRESS_PRIORITY_GROUP_STAT_SHARED_WATERMARK_BYTES": (65536 + 1024 * e) if pg == 3 else 0,
    } for pg in range(8)}


def sonic_pg_counters(port, i, e):
    return {"%s:%d" % (port, pg): {
        "SAI_INGRESS_PRIORITY_GROUP_STAT_DROPPED_PACKETS": (i * 2) if pg == 3 else 0,
    } for pg in range(8)}


def sonic_config(nports):
    cfg = {
        "BUFFER_PROFILE/pg_lossless_400000_5m_profile": {
            "pool": "ingress_lossless_pool", "size": "19456", "xon": "19456", "xoff": "116736",
            "dynamic_th": "0"},
        "WRED_PROFILE/AZURE_LOSSLESS": {
            "wred_green_enable": "true", "ecn": "ecn_all", "green_min_threshold": "153600",
            "green_max_threshold": "1536000", "green_drop_probability": "5"},
        "DSCP_TO_TC_MAP/AZURE": dict({str(d): "0" for d in range(64)}, **{"26": "3", "48": "6"}),
        "PFC_WD/GLOBAL": {"POLL_INTERVAL": "200"},
    }
    for i in range(nports):
        p = "Ethernet%d" % (i * 4)
        cfg["PORT_QOS_MAP/%s" % p] = {"pfc_enable": "3,4", "dscp_to_tc_map": "AZURE"}
        cfg["PFC_WD/%s" % p] = {"action": "drop", "detection_time": "200", "restoration_time": "200"}
        cfg["BUFFER_PG/%s|3-4" % p] = {"profile": "pg_lossless_400000_5m_profile"}
        cfg["QUEUE/%s|3" % p] = {"wred_profile": "AZURE_LOSSLESS"}
        cfg["QUEUE/%s|4" % p] = {"wred_profile": "AZURE_LOSSLESS"}
    return cfg


def sonic_tables(nports, e):
    """{target: {"TABLE/KEY[/SUB]": {field: string value}}}"""
    counters = {}
    for i in range(nports):
        p = "Ethernet%d" % (i * 4)
        counters["COUNTERS/" + p] = sonic_port_fields(i, e)
        counters["COUNTERS/%s/Queues" % p] = sonic_queue_fields(p, i, e)
        counters["COUNTERS/%s/Pfcwd" % p] = sonic_pfcwd_fields(p, i, e)
        counters["COUNTERS/%s/PriorityGroups" % p] = sonic_pg_counters(p, i, e)
        counters["PERIODIC_WATERMARKS/%s/PriorityGroups" % p] = sonic_pg_watermarks(p, i, e)
    return {"COUNTERS_DB": counters, "CONFIG_DB": sonic_config(nports),
            "APPL_DB": {"LLDP_ENTRY_TABLE/" + p: {"lldp_rem_sys_name": n[0],
                                                  "lldp_rem_port_id": n[1],
                                                  "lldp_rem_chassis_id": n[2]}
                        for p, n in lldp_neighbors(nports).items()}}


# --lldp PORT=SYSTEM:PORT_ID:CHASSIS,...: the switch's LLDP neighbours; by default port N's is
# hostN+1, eth0, chassis 02:00:00:00:00:0N+1 (a host per port); "-" serves no LLDP table.
LLDP = None


def lldp_neighbors(nports):
    """{local port: (system name, port id, chassis id)}"""
    if LLDP is not None:
        return LLDP
    return {"Ethernet%d" % (i * 4): ("host%d" % (i + 1), "eth0", "02:00:00:00:00:%02x" % (i + 1))
            for i in range(nports)}


def stringify(v):
    if isinstance(v, dict):
        return {k: stringify(x) for k, x in v.items()}
    return str(v)


def oc_leaves(nports, e):
    """[(elems, value)] of the OpenConfig tree."""
    out = []
    for i in range(nports):
        p = "Ethernet%d" % (i * 4)
        base = [("interfaces", {}), ("interface", {"name": p})]
        ctr = {"in-octets": 10 ** 9 * (i + 1) + 12500000 * e, "out-octets": 2 * 10 ** 9 * (i + 1) + 12500000 * e,
               "in-pkts": 10 ** 6 * (i + 1) + 3000 * e, "out-pkts": 2 * 10 ** 6 * (i + 1) + 3000 * e,
               "in-discards": 7 * (i + 1), "in-fcs-errors": i, "carrier-transitions": 1}
        for k, v in ctr.items():
            out.append((base + [("state", {}), ("counters", {}), (k, {})], v))
        eth = {"in-mac-pause-frames": 5 * i, "out-mac-pause-frames": 6 * i}
        for k, v in eth.items():
            out.append((base + [("ethernet", {}), ("state", {}), ("counters", {}), (k, {})], v))
        for q in range(8):
            qb = [("qos", {}), ("interfaces", {}), ("interface", {"interface-id": p}), ("output", {}),
                  ("queues", {}), ("queue", {"name": str(q)}), ("state", {})]
            hot = q == 3
            vals = {"transmit-pkts": 10000 * (i + 1) + 1000 * q + 700 * e,
                    "transmit-octets": 10000000 * (i + 1) + 1000000 * q + 700000 * e,
                    "dropped-pkts": 3 * q,
                    "ecn-marked-pkts": (60 * (i + 1) + 30 * e) if hot else 0,
                    "max-queue-len": (40960 + 1024 * (e % 8)) if hot else 0}
            for k, v in vals.items():
                out.append((qb + [(k, {})], v))
            if q in (3, 4):
                out.append((qb[:-1] + [("config", {}), ("queue-management-profile", {})], "LOSSLESS"))
    for p, (name, port, chassis) in lldp_neighbors(nports).items():
        nb = [("lldp", {}), ("interfaces", {}), ("interface", {"name": p}), ("neighbors", {}),
              ("neighbor", {"id": "1"}), ("state", {})]
        for k, v in (("system-name", name), ("port-id", port), ("chassis-id", chassis)):
            out.append((nb + [(k, {})], v))
    wb = [("qos", {}), ("queue-management-profiles", {}),
          ("queue-management-profile", {"name": "LOSSLESS"}), ("wred", {}), ("uniform", {}), ("config", {})]
    for k, v in {"min-threshold": 153600, "max-threshold": 1536000, "enable-ecn": True,
                 "max-drop-probability-percent": 5}.items():
        out.append((wb + [(k, {})], v))
    return out


GET_ALL, GET_CONFIG, GET_STATE, GET_OPERATIONAL = 0, 1, 2, 3
GET_TYPES = {GET_ALL: "ALL", GET_CONFIG: "CONFIG", GET_STATE: "STATE",
             GET_OPERATIONAL: "OPERATIONAL"}


def oc_is_type(elems, data_type):
    names = [n for n, _ in elems]
    if data_type == GET_CONFIG:
        return "config" in names
    if data_type == GET_STATE:
        return "state" in names
    if data_type == GET_OPERATIONAL:
        return "state" in names and "counters" in names
    return True


def elem_match(pattern, elem):
    pname, pkeys = pattern
    name, keys = elem
    if not fnmatch.fnmatchcase(name, pname):
        return False
    for k, v in pkeys.items():
        if k not in keys or not fnmatch.fnmatchcase(keys[k], v):
            return False
    return True


class Tree:
    def __init__(self, kind, nports, version="0.10.0", missing=(), missing_for=0.0):
        self.kind = kind
        self.nports = nports
        self.version = version
        self.missing = set(missing)
        self.missing_until = time.monotonic() + missing_for if missing_for else None

    def lacks(self):
        """The element names the tree lacks now."""
        if self.missing_until is not None and time.monotonic() >= self.missing_until:
            return set()
        return self.missing

    def rejected(self, prefix, paths):
        """The first missing element a request names, or None."""
        lacks = self.lacks()
        pre = (prefix or {}).get("elem", [])
        for p in paths:
            for name, _ in pre + p["elem"]:
                if name in lacks:
                    return name
        return None

    def capabilities(self):
        if self.kind == "sonic":
            models = [("sonic-db", "SONiC", "0.1.0")]
        else:
            models = [("openconfig-interfaces", "OpenConfig working group", "3.8.1"),
                      ("openconfig-qos", "OpenConfig working group", "2.2.0")]
        return W.capability_response(models, [W.ENC_JSON, W.ENC_JSON_IETF, W.ENC_PROTO], self.version)

    def notifications(self, prefix, paths, encoding, epoch, data_type=GET_ALL):
        """The notifications answering paths (each a decoded Path) under prefix; data_type: the
        Get DataType whose leaves are given (see the docstring)."""
        ts = time.time_ns()
        target = (prefix or {}).get("target", "")
        pre = (prefix or {}).get("elem", [])
        out = []
        for p in paths:
            full = pre + p["elem"]
            if self.kind == "sonic":
                db = target or p.get("target", "")
                if data_type == GET_ALL or (data_type == GET_CONFIG) == (db == "CONFIG_DB"):
                    out.extend(self._sonic(db, full, ts, epoch))
            else:
                out.extend(self._oc(full, ts, epoch, encoding, data_type))
        return out

    def _sonic(self, target, full, ts, epoch):
        tables = sonic_tables(self.nports, epoch).get(target, {})
        lacks = self.lacks()
        tables = {k: v for k, v in tables.items() if not lacks & set(k.split("/"))}
        notes = []
        pat = [(n, k) for n, k in full]
        for key in sorted(tables):
            elems = [(x, {}) for x in key.split("/")]
            obj = tables[key]
            if len(pat) <= len(elems) and all(elem_match(a, b) for a, b in zip(pat, elems)):
                # the entry, or a table (CONFIG_DB:PORT_QOS_MAP) holding it
                val = W.encode_typed(stringify(obj), "json_ietf")
                path = W.encode_path(elems[1:])
            elif len(pat) == len(elems) + 1 and all(elem_match(a, b) for a, b in zip(pat, elems)) \
                    and not pat[-1][0].startswith("*") and pat[-1][0] in obj:
                # one field: COUNTERS/Ethernet0/SAI_PORT_STAT_... -> string_val
                val = W.encode_typed(str(obj[pat[-1][0]]), "string")
                path = W.encode_path(elems[1:] + [(pat[-1][0], {})])
            else:
                continue
            prefix = W.encode_path([elems[0]], target=target)
            notes.append(W.encode_notification(ts, prefix, [W.encode_update(path, val)]))
        return notes

    def _oc(self, full, ts, epoch, encoding, data_type):
        leaves = [(el, v) for el, v in oc_leaves(self.nports, epoch)
                  if len(el) >= len(full) and all(elem_match(a, b) for a, b in zip(full, el))
                  and oc_is_type(el, data_type)]
        if not leaves:
            return []
        if encoding == W.ENC_JSON_IETF and full and not any(
                "*" in n or any("*" in v for v in k.values()) for n, k in full):
            # one JSON_IETF object for the container asked for (RFC 7951: uint64 as strings)
            obj = {}
            for el, v in leaves:
                node = obj
                rest = el[len(full):]
                if not rest:
                    return [W.encode_notification(ts, None, [W.encode_update(
                        W.encode_path(el), W.encode_typed(v))])]
                for n, keys in rest[:-1]:
                    if keys:  # a list: RFC 7951 array of entries that carry their keys
                        entries = node.setdefault(n, [])
                        entry = next((x for x in entries
                                      if all(x.get(k) == v for k, v in keys.items())), None)
                        if entry is None:
                            entry = dict(keys)
                            entries.append(entry)
                        node = entry
                    else:
                        node = node.setdefault(n, {})
                node[rest[-1][0]] = str(v) if isinstance(v, int) and not isinstance(v, bool) else v
            return [W.encode_notification(ts, None, [W.encode_update(
                W.encode_path(full), W.encode_typed(obj, "json_ietf"))])]
        ups = [W.encode_update(W.encode_path(el), W.encode_typed(v)) for el, v in leaves]
        return [W.encode_notification(ts, None, ups)]


# ---- the gRPC service -------------------------------------------------------------------------

def build_server(args, tree):
    import grpc
    from concurrent import futures

    ident = lambda b: b  # noqa: E731
    password = None
    if args.password_file:
        with open(args.password_file) as f:
            password = f.read().strip()

    huge_get = huge_sub = None
    if args.fault == "huge":   # built before the port is announced: answering must be quick
        note = W.encode_notification(1, None, [W.encode_update(
            W.encode_path([("x", {})]), W.encode_typed("a" * (64 << 20)))])
        huge_get = W.get_response([note])
        huge_sub = W.subscribe_response_update(note)
    unusable = None
    if args.fault == "bad-json":
        note = W.encode_notification(1, None, [W.encode_update(
            W.encode_path([("COUNTERS", {}), ("Ethernet0", {})]),
            W.f_bytes(11, '{"SAI_PORT_STAT_PFC_3_RX_PKTS": "13', always=True))])
        unusable = (W.subscribe_response_update(note), W.get_response([note]))
    elif args.fault == "undecodable":
        cut = W.key(1, W.LEN) + W.varint(200) + b"\x08" * 30
        unusable = (cut, cut)
    elif args.fault == "deep":
        # TypedValue.leaflist_val: ScalarArray.element: TypedValue...; the keys and lengths are
        # built from the inside out and joined once (a copy per level would take minutes)
        core = W.encode_typed(1, "uint")
        heads, size = [], len(core)
        for _ in range(20000):
            for field in (1, 8):
                head = W.key(field, W.LEN) + W.varint(size)
                heads.append(head)
                size += len(head)
        val = b"".join(reversed(heads)) + core
        note = W.encode_notification(1, None, [W.encode_update(
            W.encode_path([("COUNTERS", {}), ("Ethernet0", {})]), val)])
        unusable = (W.subscribe_response_update(note), W.get_response([note]))

    def check_auth(context):
        if args.fault == "unauthenticated":
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "bad username or password")
        if password is None:
            return
        md = dict(context.invocation_metadata())
        if md.get("username") != args.username or md.get("password") != password:
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "bad username or password")

    def common_faults(context):
        if args.fault == "resource-exhausted":
            context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, "too many subscriptions")
        if args.fault == "hang":
            stopping.wait(3600)
            context.abort(grpc.StatusCode.UNAVAILABLE, "shutting down")

    def capabilities(req, context):
        check_auth(context)
        common_faults(context)
        return tree.capabilities()

    def get(req, context):
        check_auth(context)
        common_faults(context)
        if args.fault == "huge":
            return huge_get
        g = W.decode_get_request(req)
        count("calls", "get " + ((g["prefix"] or {}).get("target") or "-"))
        if unusable:
            stats["get"] += 1
            return unusable[1]
        count("encodings", "get:" + ENCODINGS.get(g["encoding"], str(g["encoding"])))
        count("get_types", GET_TYPES.get(g["type"], str(g["type"])))
        gone = tree.rejected(g["prefix"], g["paths"])
        if gone:
            stats["rejected"] += 1
            count("rejected_elems", gone)
            context.abort(grpc.StatusCode.NOT_FOUND, "no such path: '%s'" % gone)
        notes = tree.notifications(g["prefix"], g["paths"], g["encoding"], 0, g["type"])
        if not notes:
            context.abort(grpc.StatusCode.NOT_FOUND, "no data at the requested paths")
        stats["get"] += 1
        return W.get_response(notes)

    def subscribe(req_iter, context):
        # the request is read before any refusal: a stream the server ends while the client is
        # still sending it (RST_STREAM) is, now and then under load, a "Stream error in the
        # HTTP/2 framing layer" to libcurl 7.88 over h2c, without the status it was sent
        first = next(req_iter, None)
        check_auth(context)
        if args.fault == "unimplemented":
            context.abort(grpc.StatusCode.UNIMPLEMENTED, "Subscribe is not supported")
        common_faults(context)
        if first is None:
            return
        kind, sl = W.decode_subscribe_request(first)
        if kind != "subscribe":
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "the first request must subscribe")
        stats["subscribe"] += 1
        count("calls", "subscribe " + ((sl["prefix"] or {}).get("target") or "-"))
        count("encodings", "subscribe:" + ENCODINGS.get(sl["encoding"], str(sl["encoding"])))
        count("modes", MODES.get(sl["mode"], str(sl["mode"])))
        count("updates_only", str(sl["updates_only"]).lower())
        paths = [s["path"] for s in sl["subs"]]
        gone = tree.rejected(sl["prefix"], paths)
        if gone:
            stats["rejected"] += 1
            count("rejected_elems", gone)
            context.abort(grpc.StatusCode.NOT_FOUND, "no such path: '%s'" % gone)
        epoch = 0

        def sample():
            nonlocal epoch
            notes = tree.notifications(sl["prefix"], paths, sl["encoding"], epoch)
            epoch += 1
            stats["notifications"] += len(notes)
            return notes

        if args.fault == "huge":
            yield huge_sub
            return
        if unusable:
            yield unusable[0]
            while context.is_active() and not stopping.wait(0.05):
                pass
            return
        on_change = all(s["mode"] == W.SUB_ON_CHANGE for s in sl["subs"])
        last = {}
        for idx, n in enumerate(sample()):
            if not sl["updates_only"]:
                yield W.subscribe_response_update(n)
            elif on_change:     # what the client did not get is still what a change is from
                last[idx] = n[W.read_varint(n, 1)[1]:]
        yield W.subscribe_response_sync()
        if sl["mode"] == W.MODE_ONCE:
            return
        if sl["mode"] == W.MODE_POLL:
            for r in req_iter:
                k, _ = W.decode_subscribe_request(r)
                if k != "poll":
                    context.abort(grpc.StatusCode.INVALID_ARGUMENT, "expected a poll")
                stats["polls"] += 1
                for n in sample():
                    yield W.subscribe_response_update(n)
                yield W.subscribe_response_sync()
            return
        intervals = [s["sample_interval"] for s in sl["subs"] if s["sample_interval"]]
        interval = (min(intervals) / 1e9) if intervals else args.default_interval
        while context.is_active():
            time.sleep(interval)
            for idx, n in enumerate(sample()):
                if on_change:
                    # the same tree gives the same notifications in the same order; one whose
                    # bytes after the timestamp (field 1, a varint) did not change is not sent
                    _, body_at = W.read_varint(n, 1)
                    if last.get(idx) == n[body_at:]:
                        continue
                    last[idx] = n[body_at:]
                yield W.subscribe_response_update(n)

    handler = grpc.method_handlers_generic_handler("gnmi.gNMI", {
        "Capabilities": grpc.unary_unary_rpc_method_handler(
            capabilities, request_deserializer=ident, response_serializer=ident),
        "Get": grpc.unary_unary_rpc_method_handler(
            get, request_deserializer=ident, response_serializer=ident),
        "Subscribe": grpc.stream_stream_rpc_method_handler(
            subscribe, request_deserializer=ident, response_serializer=ident),
    })
    opts = [("grpc.max_send_message_length", 128 << 20), ("grpc.max_receive_message_length", 4 << 20),
            ("grpc.so_reuseport", 0)]
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=args.workers), options=opts)
    server.add_generic_rpc_handlers((handler,))
    addr = "127.0.0.1:%d" % args.port
    if args.tls_cert:
        with open(args.tls_key, "rb") as f:
            key = f.read()
        with open(args.tls_cert, "rb") as f:
            cert = f.read()
        if args.client_ca:
            with open(args.client_ca, "rb") as f:
                creds = grpc.ssl_server_credentials([(key, cert)], root_certificates=f.read(),
                                                    require_client_auth=True)
        else:
            creds = grpc.ssl_server_credentials([(key, cert)])
        port = server.add_secure_port(addr, creds)
    else:
        port = server.add_insecure_port(addr)
    return server, port


stopping = threading.Event()     # set on SIGTERM: calls held by --fault hang end
stats = {"get": 0, "subscribe": 0, "polls": 0, "notifications": 0, "rejected": 0,
         # what was asked for, counted by name: {"subscribe:json_ietf": 3, ...}
         "encodings": {}, "modes": {}, "get_types": {}, "updates_only": {}, "rejected_elems": {},
         "calls": {}}   # Subscribe and Get calls by prefix target: {"subscribe COUNTERS_DB": 2}
ENCODINGS = {W.ENC_JSON: "json", W.ENC_BYTES: "bytes", W.ENC_PROTO: "proto", W.ENC_ASCII: "ascii",
             W.ENC_JSON_IETF: "json_ietf"}
MODES = {W.MODE_STREAM: "STREAM", W.MODE_ONCE: "ONCE", W.MODE_POLL: "POLL"}
stats_lock = threading.Lock()


def count(kind, name):
    with stats_lock:
        stats[kind][name] = stats[kind].get(name, 0) + 1


# ---- raw HTTP/2 faults ------------------------------------------------------------------------

def raw_server(args):
    """h2c server for the faults grpcio cannot produce: a prefix whose flag byte is invalid and a
    length it never sends, or a stream cut off half-way through a message."""
    import h2.config
    import h2.connection
    import h2.events

    lsock = socket.socket()
    lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsock.bind(("127.0.0.1", args.port))
    lsock.listen(16)
    print("PORT %d" % lsock.getsockname()[1], flush=True)

    def serve(conn):
        h2c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False))
        h2c.initiate_connection()
        conn.sendall(h2c.data_to_send())
        try:
            while True:
                data = conn.recv(65536)
                if not data:
                    return
                for ev in h2c.receive_data(data):
                    if isinstance(ev, h2.events.RequestReceived):
                        sid = ev.stream_id
                        h2c.send_headers(sid, [(":status", "200"), ("content-type", "application/grpc")])
                        if args.fault == "malformed-prefix":
                            # flag byte 7 and a length of 2^32-1: no valid gRPC message
                            h2c.send_data(sid, b"\x07\xff\xff\xff\xff" + b"garbage")
                        else:  # close-mid-stream: half of a 100-byte message, then the socket closes
                            h2c.send_data(sid, b"\x00\x00\x00\x00\x64" + b"\x0a" * 40)
                        conn.sendall(h2c.data_to_send())
                        if args.fault == "close-mid-stream":
                            time.sleep(0.1)
                            conn.close()
                            return
                    elif isinstance(ev, h2.events.DataReceived):
                        h2c.acknowledge_received_data(ev.flow_controlled_length, ev.stream_id)
                conn.sendall(h2c.data_to_send())
        except OSError:
            return
        finally:
            conn.close()

    while True:
        c, _ = lsock.accept()
        threading.Thread(target=serve, args=(c,), daemon=True).start()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", choices=["sonic", "openconfig"], default="sonic")
    ap.add_argument("--ports", type=int, default=4, help="switch ports in the tree")
    ap.add_argument("--port", type=int, default=0, help="TCP port (0: any free one)")
    ap.add_argument("--tls-cert")
    ap.add_argument("--tls-key")
    ap.add_argument("--client-ca", help="require a client certificate this CA signed (mutual TLS)")
    ap.add_argument("--username", default="admin")
    ap.add_argument("--password-file", help="require username/password metadata")
    ap.add_argument("--fault", choices=["unauthenticated", "unimplemented", "resource-exhausted",
                                        "huge", "hang", "close-mid-stream", "malformed-prefix",
                                        "bad-json", "undecodable", "deep"])
    ap.add_argument("--missing", default="", help="comma-separated element names the tree lacks "
                    "(Pfcwd,PORT_QOS_MAP): a request naming one is NOT_FOUND")
    ap.add_argument("--missing-for", type=float, default=0.0,
                    help="serve the missing tables again after this many seconds (0: never)")
    ap.add_argument("--lldp", help="the LLDP neighbours: PORT=SYSTEM:PORT_ID:CHASSIS,... "
                    "(default: hostN on eth0 at every port; '-' none)")
    ap.add_argument("--default-interval", type=float, default=1.0)
    ap.add_argument("--workers", type=int, default=16)
    ap.add_argument("--stats", help="write call counts (JSON) here on exit")
    ap.add_argument("--dump", action="store_true", help="print the tree at epoch 0 and exit")
    args = ap.parse_args()
    global LLDP
    if args.lldp is not None:
        LLDP = {}
        for item in filter(None, args.lldp.split(",")) if args.lldp != "-" else []:
            port, rest = item.split("=", 1)
            name, port_id, chassis = rest.split(":", 2)
            LLDP[port] = (name, port_id, chassis)
    if args.dump:
        if args.tree == "sonic":
            lacks = set(m for m in args.missing.split(",") if m)
            print(json.dumps(stringify({t: {k: v for k, v in tab.items()
                                            if not lacks & set(k.split("/"))}
                                        for t, tab in sonic_tables(args.ports, 0).items()}),
                             indent=1))
        else:
            for el, v in oc_leaves(args.ports, 0):
                print("/" + "/".join(n + "".join("[%s=%s]" % kv for kv in k.items()) for n, k in el), v)
        return
    if args.fault in ("close-mid-stream", "malformed-prefix"):
        raw_server(args)
        return
    missing = [m for m in args.missing.split(",") if m]
    server, port = build_server(args, Tree(args.tree, args.ports, missing=missing,
                                           missing_for=args.missing_for))
    server.start()
    print("PORT %d" % port, flush=True)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: done.set())
    signal.signal(signal.SIGINT, lambda *a: done.set())
    while not done.wait(0.2):
        pass
    stopping.set()
    server.stop(0)
    if args.stats:
        with open(args.stats, "w") as f:
            json.dump(stats, f)


if __name__ == "__main__":
    main()
