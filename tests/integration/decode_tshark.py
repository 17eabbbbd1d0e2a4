"""dcbkit decode -T json against tshark -T fields, field by field, for every frame of every capture
in ../shared/captures/ and fixtures/captures/.

Each difference fails unless it is one of the tshark 4.0 quirks listed in
../shared/captures/README.md; every quirk is handled at the one place it matters, with a comment
naming it. For each field family the test also asserts a minimum number of values actually
compared, so an empty tshark column (a renamed field, a wrong filter) cannot pass."""
import glob
import json
import re
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DCBKIT = os.environ.get("DCBKIT", os.path.join(ROOT, "build", "cc", "bin", "dcbkit"))
SHARED = os.environ.get("SHARED", os.path.join(ROOT, "..", "shared"))

# At least this many values compared per family over all files (the real figures are higher).
MIN_COMPARED = {"pfc_pause": 80, "bth": 2000, "ext": 250, "qos": 300, "lldp": 150, "ieee": 700,
                "cee": 120, "malformed": 8}

# A frame tshark calls malformed in a protocol dcbkit decodes ("[Malformed Packet: PROTO]", or
# an expert "malformed" item when that protocol is the frame's last) must be malformed for
# dcbkit too. dcbkit may be stricter: it also checks TLV lengths tshark lets pass.
DECODED_PROTOCOLS = re.compile(r"Malformed Packet: (LLDP|MACC|IB|ETH|VLAN|IP|IPv6|UDP)\b")
DECODED_LAST_LAYERS = {"lldp", "macc", "infiniband", "eth", "vlan", "ip", "ipv6", "udp"}


def tshark_finds_malformed(t):
    flags = t.all("_ws.malformed")
    if any(DECODED_PROTOCOLS.search(v) for v in flags):
        return True
    named = any(v.startswith("[Malformed Packet") for v in flags)
    last_layer = (t.first("frame.protocols") or "").split(":")[-1]
    return bool(flags) and not named and last_layer in DECODED_LAST_LAYERS

# Quirk "tshark decodes a UDP packet by its lower port first": the rxe capture uses source
# port 69, so TFTP has to be switched off for its frames to reach the InfiniBand dissector.
# RPC-over-RDMA's heuristic also claims SEND payloads and calls short ones malformed; it adds
# nothing compared here, so it is off too.
TSHARK = ["tshark", "-n", "--disable-protocol", "tftp", "--disable-protocol", "rpcordma",
          "-T", "fields", "-E", "occurrence=a",
          "-E", "aggregator=,", "-E", "separator=/t", "-E", "quote=n"]

PRIO8 = range(8)
FIELDS = (["frame.number", "frame.protocols", "_ws.malformed", "macc.opcode", "macc.pause_time", "macc.cbfc.enbv"] +
          ["macc.cbfc.pause_time.c%d" % i for i in PRIO8] +
          ["infiniband.bth.opcode", "infiniband.bth.se", "infiniband.bth.m",
           "infiniband.bth.padcnt", "infiniband.bth.tver", "infiniband.bth.p_key",
           "infiniband.reserved", "infiniband.bth.destqp", "infiniband.bth.a",
           "infiniband.bth.psn", "infiniband.reth.va", "infiniband.reth.r_key",
           "infiniband.reth.dmalen", "infiniband.deth.q_key", "infiniband.deth.srcqp",
           "infiniband.immdt", "infiniband.ieth", "infiniband.aeth.syndrome", "infiniband.aeth.msn",
           "infiniband.atomiceth.swapdt", "infiniband.atomiceth.cmpdt",
           "infiniband.atomicacketh.origremdt",
           "ip.dsfield.dscp", "ip.dsfield.ecn", "ipv6.tclass.dscp", "ipv6.tclass.ecn",
           "vlan.priority", "vlan.id", "ieee8021ad.priority", "ieee8021ad.id",
           "lldp.chassis.subtype", "lldp.chassis.id", "lldp.chassis.id.mac",
           "lldp.chassis.id.ip4", "lldp.port.subtype", "lldp.port.id", "lldp.port.id.mac",
           "lldp.time_to_live", "lldp.tlv.system.name",
           "lldp.orgtlv.oui", "lldp.ieee.802_1.subtype", "lldp.dcbx.type",
           "lldp.dcbx.ieee.willing", "lldp.dcbx.ieee.ets.cbs", "lldp.dcbx.ieee.ets.maxtcs",
           "lldp.dcbx.ieee.pfc.mbc", "lldp.dcbx.ieee.pfc.numtcs",
           "lldp.dcbx.ieee.app.prio", "lldp.dcbx.iee.app.sf", "lldp.dcbx.feature.app.proto",
           "lldp.dcbx.feature.app.sf", "lldp.dcbx.feature.app.prio",
           "lldp.dcbx.version", "lldp.dcbx.max_version", "lldp.dcbx.control.seq",
           "lldp.dcbx.control.ack", "lldp.dcbx.feature.enabled", "lldp.dcbx.feature.willing",
           "lldp.dcbx.feature.error", "lldp.dcbx.feature.pg.numtcs",
           "lldp.dcbx.feature.pfc.numtcs"] +
          ["lldp.dcbx.feature.pg.pgid_prio%d" % i for i in PRIO8] +
          ["lldp.dcbx.feature.pg.per%d" % i for i in PRIO8] +
          ["lldp.dcbx.ieee.ets.tsa%d" % i for i in PRIO8] +
          ["lldp.dcbx.feature.pfc.prio%d" % i for i in PRIO8] +
          ["lldp.ieee.802_1qau.cnpv.prio%d" % i for i in PRIO8] +
          ["lldp.ieee.802_1qau.ready.prio%d" % i for i in PRIO8])

OUI_IEEE, OUI_CEE = 0x0080c2, 0x001b21
compared = {family: 0 for family in MIN_COMPARED}
failures = []


def num(text):
    """tshark prints hex fields with 0x and booleans as 1/0 (4.0); both parse with int(x, 0)."""
    return int(text, 0)


class Frame:
    """One tshark row: each field as the list of its occurrences, consumed in wire order."""

    def __init__(self, path, number, row):
        self.path, self.number = os.path.basename(path), number
        self.cols = {f: (v.split(",") if v else []) for f, v in zip(FIELDS, row)}
        self.pos = {f: 0 for f in FIELDS}

    def all(self, field):
        return self.cols[field]

    def first(self, field):
        return self.cols[field][0] if self.cols[field] else None

    def next(self, field):
        """The next unread occurrence, or None when tshark has no more."""
        i = self.pos[field]
        self.pos[field] = i + 1
        return self.cols[field][i] if i < len(self.cols[field]) else None

    def left_over(self, prefix):
        return [f for f in FIELDS if f.startswith(prefix) and self.pos[f] < len(self.cols[f])
                and self.pos[f] > 0]


def check(family, frame, what, ours, theirs):
    compared[family] += 1
    if ours != theirs:
        failures.append("%s frame %d %s: dcbkit %r, tshark %r" %
                        (frame.path, frame.number, what, ours, theirs))


# True while a frame dcbkit reports malformed is compared: dcbkit stops at the fault and tshark
# goes on, so only the values both decoded are compared, and a layer only one side has is no
# difference.
lenient = False


def check_presence(frame, what, ours, theirs):
    if not lenient and bool(ours) != bool(theirs):
        failures.append("%s frame %d %s: dcbkit %s it, tshark %s" %
                        (frame.path, frame.number, what, "has" if ours else "lacks",
                         "has" if theirs else "lacks"))


def next_num(frame, field):
    v = frame.next(field)
    return None if v is None else num(v)


def compare_pause_pfc(d, t):
    op = t.first("macc.opcode")
    check_presence(t, "PAUSE", "pause" in d, op is not None and num(op) == 0x0001)
    check_presence(t, "PFC", "pfc" in d, op is not None and num(op) == 0x0101)
    if "pause" in d and op is not None:
        check("pfc_pause", t, "pause quanta", d["pause"]["quanta"], num(t.first("macc.pause_time")))
    if "pfc" in d and op is not None:
        check("pfc_pause", t, "pfc enable", d["pfc"]["enable"], num(t.first("macc.cbfc.enbv")))
        # Quirk "PFC quanta of classes whose enable bit is clear are still printed by tshark":
        # dcbkit reports all eight too, so every class is compared.
        for i in PRIO8:
            check("pfc_pause", t, "pfc quanta[%d]" % i, d["pfc"]["quanta"][i],
                  num(t.first("macc.cbfc.pause_time.c%d" % i)))


def compare_bth(d, t):
    opcode = t.first("infiniband.bth.opcode")
    check_presence(t, "BTH", "bth" in d, opcode is not None)
    if "bth" not in d or opcode is None:
        return
    b = d["bth"]
    # Quirk "tshark 4.0 names opcode 0x80 CNP": only numbers are compared, never names.
    check("bth", t, "opcode", b["opcode"], num(opcode))
    for key, field in (("se", "se"), ("m", "m"), ("pad", "padcnt"), ("tver", "tver"),
                       ("pkey", "p_key"), ("dqpn", "destqp"), ("ackreq", "a"), ("psn", "psn")):
        check("bth", t, key, b[key], num(t.first("infiniband.bth." + field)))
    # Quirk "tshark 4.0 has no FECN/BECN fields": they are bits 0x80/0x40 of BTH byte 4, the
    # first infiniband.reserved (FT_BYTES, printed as hex).
    byte4 = int(t.first("infiniband.reserved"), 16)
    check("bth", t, "fecn", b["fecn"], byte4 >> 7 & 1)
    check("bth", t, "becn", b["becn"], byte4 >> 6 & 1)


def compare_ext_headers(d, t):
    if "bth" not in d:
        return
    # tshark 4.0 shows the AtomicETH VA and R_Key under the RETH field names.
    va_rkey = d.get("reth") or d.get("atomic")
    check_presence(t, "RETH/AtomicETH VA", va_rkey, t.first("infiniband.reth.va"))
    if va_rkey and t.first("infiniband.reth.va"):
        check("ext", t, "va", va_rkey["va"], num(t.first("infiniband.reth.va")))
        check("ext", t, "rkey", va_rkey["rkey"], num(t.first("infiniband.reth.r_key")))
    if "reth" in d and t.first("infiniband.reth.dmalen"):
        check("ext", t, "reth dmalen", d["reth"]["dmalen"], num(t.first("infiniband.reth.dmalen")))
    if "atomic" in d and (t.first("infiniband.atomiceth.swapdt") or not lenient):
        check("ext", t, "atomic swap", d["atomic"]["swap_add"],
              num(t.first("infiniband.atomiceth.swapdt") or "-1"))
        check("ext", t, "atomic compare", d["atomic"]["compare"],
              num(t.first("infiniband.atomiceth.cmpdt") or "-1"))
    check_presence(t, "DETH", "deth" in d, t.first("infiniband.deth.q_key"))
    if "deth" in d and t.first("infiniband.deth.q_key"):
        # DETH Q_Key is a UINT64 and SrcQP a UINT32 in tshark: normalise both to integers.
        check("ext", t, "deth qkey", d["deth"]["qkey"], num(t.first("infiniband.deth.q_key")))
        check("ext", t, "deth srcqp", d["deth"]["srcqp"], num(t.first("infiniband.deth.srcqp")))
    check_presence(t, "ImmDt", "immdt" in d, t.first("infiniband.immdt"))
    if "immdt" in d:
        # tshark 4.0 adds the ImmDt item twice for UD SEND Only with Immediate; every
        # occurrence must hold the same value.
        for imm in t.all("infiniband.immdt"):
            check("ext", t, "immdt", d["immdt"], int(imm, 16))
    check_presence(t, "IETH", "ieth" in d, t.first("infiniband.ieth"))
    if "ieth" in d and t.first("infiniband.ieth"):
        check("ext", t, "ieth", d["ieth"], int(t.first("infiniband.ieth"), 16))
    check_presence(t, "AETH", "aeth" in d, t.first("infiniband.aeth.syndrome"))
    if "aeth" in d and t.first("infiniband.aeth.syndrome"):
        check("ext", t, "aeth syndrome", d["aeth"]["syndrome"],
              num(t.first("infiniband.aeth.syndrome")))
        check("ext", t, "aeth msn", d["aeth"]["msn"], num(t.first("infiniband.aeth.msn")))
        kind = ["ack", "rnr_nak", "reserved", "nak"][num(t.first("infiniband.aeth.syndrome")) >> 5 & 3]
        check("ext", t, "aeth kind", d["aeth"]["kind"], kind)
    if "atomic_ack" in d and (t.first("infiniband.atomicacketh.origremdt") or not lenient):
        check("ext", t, "atomic ack", d["atomic_ack"],
              num(t.first("infiniband.atomicacketh.origremdt") or "-1"))


def compare_qos(d, t):
    ip = d.get("ip")
    v4, v6 = t.first("ip.dsfield.dscp"), t.first("ipv6.tclass.dscp")
    check_presence(t, "IP", ip, v4 or v6)
    if ip and (v4 or v6):
        # The first occurrence is the outer header (PIM Register frames carry an inner one).
        pre = "ip.dsfield." if ip["version"] == 4 else "ipv6.tclass."
        check("qos", t, "dscp", ip["dscp"], num(t.first(pre + "dscp") or "-1"))
        check("qos", t, "ecn", ip["ecn"], num(t.first(pre + "ecn") or "-1"))
    tags = d.get("vlan", [])
    for tpid, prio_field, id_field in ((0x8100, "vlan.priority", "vlan.id"),
                                       (0x88a8, "ieee8021ad.priority", "ieee8021ad.id")):
        ours = [(tag["pcp"], tag["vid"]) for tag in tags if tag["tpid"] == tpid]
        theirs = list(zip(map(num, t.all(prio_field)), map(num, t.all(id_field))))
        check_presence(t, "VLAN 0x%04x" % tpid, ours, theirs)
        if len(ours) != len(theirs):
            check("qos", t, "VLAN 0x%04x tag count" % tpid, len(ours), len(theirs))
            continue
        for (pcp, vid), (tpcp, tvid) in zip(ours, theirs):
            check("qos", t, "vlan pcp", pcp, tpcp)
            check("qos", t, "vlan vid", vid, tvid)


def id_as_tshark(subtype, value, mac_subtype, addr_subtype, frame, prefix):
    """What tshark prints for a chassis or port ID, and in which field."""
    if subtype == mac_subtype:
        return value, frame.first(prefix + ".mac")
    if subtype == addr_subtype:
        return value, frame.first(prefix + ".ip4")
    if prefix == "lldp.chassis.id":
        return value.encode().hex(), frame.first(prefix)     # FT_BYTES: hex
    return value, frame.first(prefix)


def compare_lldp(d, t):
    lldp = d.get("lldp")
    check_presence(t, "LLDP TTL", lldp and "ttl" in lldp, t.first("lldp.time_to_live"))
    if not lldp or not t.first("lldp.time_to_live"):
        return
    ours, theirs = id_as_tshark(lldp["chassis_subtype"], lldp["chassis_id"], 4, 5, t,
                                "lldp.chassis.id")
    check("lldp", t, "chassis id", ours, theirs)
    ours, theirs = id_as_tshark(lldp["port_subtype"], lldp["port_id"], 3, 4, t, "lldp.port.id")
    check("lldp", t, "port id", ours, theirs)
    check("lldp", t, "ttl", lldp["ttl"], num(t.first("lldp.time_to_live")))
    check("lldp", t, "sysname", lldp.get("sysname"), t.first("lldp.tlv.system.name"))


def org_tlv_order(t):
    """The DCBX TLVs in wire order: ("ieee", subtype) and ("cee", [sub-TLV types])."""
    blocks = []
    ieee_subtypes = iter(t.all("lldp.ieee.802_1.subtype"))
    cee_seen = 0
    for oui in t.all("lldp.orgtlv.oui"):
        if num(oui) == OUI_IEEE:
            blocks.append(("ieee", num(next(ieee_subtypes))))
        elif num(oui) == OUI_CEE:
            cee_seen += 1
            blocks.append(("cee", [num(x) for x in t.all("lldp.dcbx.type")]))
    if cee_seen > 1:
        failures.append("%s frame %d: more than one CEE TLV; the test cannot pair its fields" %
                        (t.path, t.number))
    return blocks


def bits(mask):
    return [mask >> i & 1 for i in PRIO8]


def compare_ets(t, ets, config):
    if config:
        check("ieee", t, "ets willing", ets["willing"], next_num(t, "lldp.dcbx.ieee.willing"))
        check("ieee", t, "ets cbs", ets["cbs"], next_num(t, "lldp.dcbx.ieee.ets.cbs"))
        # Quirk "tshark prints the IEEE ETS maxtcs raw: 0 on the wire means 8".
        raw = next_num(t, "lldp.dcbx.ieee.ets.maxtcs")
        check("ieee", t, "ets max_tcs", ets["max_tcs"], 8 if raw == 0 else raw)
    # Quirk "tshark reuses CEE field names for IEEE ETS tables": pgid_prioN / perN, in the
    # wire order of the ETS and PG TLVs, which org_tlv_order() keeps.
    for i in PRIO8:
        check("ieee", t, "prio_tc[%d]" % i, ets["prio_tc"][i],
              next_num(t, "lldp.dcbx.feature.pg.pgid_prio%d" % i))
        check("ieee", t, "tc_bw[%d]" % i, ets["tc_bw"][i],
              next_num(t, "lldp.dcbx.feature.pg.per%d" % i))
        check("ieee", t, "tsa[%d]" % i, ets["tsa"][i], next_num(t, "lldp.dcbx.ieee.ets.tsa%d" % i))


def compare_ieee_tlv(t, ieee, subtype):
    if subtype == 9:
        compare_ets(t, ieee["ets_cfg"], True)
    elif subtype == 10:
        compare_ets(t, ieee["ets_rec"], False)
    elif subtype == 11:
        pfc = ieee["pfc"]
        # Quirk: one lldp.dcbx.ieee.willing covers ETS and PFC; taken in wire order.
        check("ieee", t, "pfc willing", pfc["willing"], next_num(t, "lldp.dcbx.ieee.willing"))
        check("ieee", t, "pfc mbc", pfc["mbc"], next_num(t, "lldp.dcbx.ieee.pfc.mbc"))
        check("ieee", t, "pfc cap", pfc["cap"], next_num(t, "lldp.dcbx.ieee.pfc.numtcs"))
        # Quirk: the IEEE PFC bitmap is shown under the CEE names lldp.dcbx.feature.pfc.prioN.
        for i, bit in zip(PRIO8, bits(pfc["enable"])):
            check("ieee", t, "pfc enable prio%d" % i, bit,
                  next_num(t, "lldp.dcbx.feature.pfc.prio%d" % i))
    elif subtype == 12:
        for n, app in enumerate(ieee.get("app", [])):
            check("ieee", t, "app[%d] prio" % n, app["prio"], next_num(t, "lldp.dcbx.ieee.app.prio"))
            # Quirk: the selector is spelled lldp.dcbx.iee.app.sf; selector 5 (DSCP) is only
            # named "Reserved", its number is right.
            check("ieee", t, "app[%d] sel" % n, app["sel"], next_num(t, "lldp.dcbx.iee.app.sf"))
            check("ieee", t, "app[%d] proto" % n, app["proto"],
                  next_num(t, "lldp.dcbx.feature.app.proto"))
    elif subtype == 8:
        for i, bit in zip(PRIO8, bits(ieee["cn"]["cnpv"])):
            check("ieee", t, "cn cnpv prio%d" % i, bit,
                  next_num(t, "lldp.ieee.802_1qau.cnpv.prio%d" % i))
        for i, bit in zip(PRIO8, bits(ieee["cn"]["ready"])):
            check("ieee", t, "cn ready prio%d" % i, bit,
                  next_num(t, "lldp.ieee.802_1qau.ready.prio%d" % i))


def compare_cee_flags(t, feature, what):
    for flag in ("enabled", "willing", "error"):
        check("cee", t, "%s %s" % (what, flag), feature[flag],
              next_num(t, "lldp.dcbx.feature." + flag))


def compare_cee_subtlv(t, cee, subtype):
    if subtype == 1:
        check("cee", t, "oper_ver", cee["oper_ver"], next_num(t, "lldp.dcbx.version"))
        check("cee", t, "max_ver", cee["max_ver"], next_num(t, "lldp.dcbx.max_version"))
        check("cee", t, "seq", cee["seq"], next_num(t, "lldp.dcbx.control.seq"))
        check("cee", t, "ack", cee["ack"], next_num(t, "lldp.dcbx.control.ack"))
        return
    if subtype not in (2, 3, 4):
        return
    # Each feature sub-TLV repeats Oper/Max version (real switches send 0); dcbkit keeps only
    # the Control ones, so these occurrences are read past.
    t.next("lldp.dcbx.version")
    t.next("lldp.dcbx.max_version")
    if subtype == 2:
        pg = cee["pg"]
        compare_cee_flags(t, pg, "pg")
        for i in PRIO8:
            check("cee", t, "pgid[%d]" % i, pg["pgid"][i],
                  next_num(t, "lldp.dcbx.feature.pg.pgid_prio%d" % i))
            check("cee", t, "pg_bw[%d]" % i, pg["pg_bw"][i],
                  next_num(t, "lldp.dcbx.feature.pg.per%d" % i))
        check("cee", t, "pg num_tcs", pg["num_tcs"], next_num(t, "lldp.dcbx.feature.pg.numtcs"))
    elif subtype == 3:
        pfc = cee["pfc"]
        compare_cee_flags(t, pfc, "pfc")
        for i, bit in zip(PRIO8, bits(pfc["enable"])):
            check("cee", t, "pfc prio%d" % i, bit, next_num(t, "lldp.dcbx.feature.pfc.prio%d" % i))
        check("cee", t, "pfc num_tcs", pfc["num_tcs"], next_num(t, "lldp.dcbx.feature.pfc.numtcs"))
    else:
        compare_cee_flags(t, cee["app_hdr"], "app")
        for n, app in enumerate(cee.get("app", [])):
            check("cee", t, "app[%d] proto" % n, app["proto"],
                  next_num(t, "lldp.dcbx.feature.app.proto"))
            check("cee", t, "app[%d] sel" % n, app["sel"], next_num(t, "lldp.dcbx.feature.app.sf"))
            # Quirk "for CEE App entries tshark reports the lowest set bit of the priority map;
            # a map of 0x00 yields no priority field": compare the map's lowest bit, and skip
            # the entries with an empty map so the columns stay in step.
            if app["prio_map"]:
                lowest = (app["prio_map"] & -app["prio_map"]).bit_length() - 1
                check("cee", t, "app[%d] prio" % n, lowest,
                      next_num(t, "lldp.dcbx.feature.app.prio"))


def compare_dcbx(d, t):
    lldp = d.get("lldp")
    if not lldp:
        return
    for kind, detail in org_tlv_order(t):
        if kind == "ieee" and detail in (8, 9, 10, 11, 12):
            key = {8: "cn", 9: "ets_cfg", 10: "ets_rec", 11: "pfc", 12: "app"}[detail]
            if key not in lldp.get("ieee", {}):
                failures.append("%s frame %d: tshark has IEEE subtype %d, dcbkit no %s" %
                                (t.path, t.number, detail, key))
                continue
            compare_ieee_tlv(t, lldp["ieee"], detail)
        elif kind == "cee":
            if "cee" not in lldp:
                failures.append("%s frame %d: tshark has a CEE TLV, dcbkit not" %
                                (t.path, t.number))
                continue
            for subtype in detail:
                compare_cee_subtlv(t, lldp["cee"], subtype)
    left = t.left_over("lldp.dcbx") + t.left_over("lldp.ieee")
    if left:
        failures.append("%s frame %d: tshark values left unpaired in %s" %
                        (t.path, t.number, ", ".join(left)))


def dcbkit_frames(path):
    out = subprocess.run([DCBKIT, "decode", "-r", path, "-T", "json"], capture_output=True,
                         text=True)
    if out.returncode != 0:
        failures.append("%s: dcbkit decode exit %d: %s" % (path, out.returncode, out.stderr.strip()))
    return [json.loads(line) for line in out.stdout.splitlines()]


def tshark_rows(path):
    cmd = TSHARK + ["-r", path] + [a for f in FIELDS for a in ("-e", f)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return [line.split("\t") for line in out.stdout.splitlines()]


def compare_file(path, shared):
    ours = dcbkit_frames(path)
    rows = tshark_rows(path)
    if len(ours) != len(rows):
        failures.append("%s: dcbkit printed %d frames, tshark %d" % (path, len(ours), len(rows)))
        return 0
    global lenient
    malformed = 0
    for d, row in zip(ours, rows):
        t = Frame(path, num(row[0]), row)
        if d["frame"] != t.number:
            failures.append("%s: dcbkit frame %d against tshark frame %d" %
                            (path, d["frame"], t.number))
        # Deliberately broken fixtures (decode_malformed.sh checks their reasons); a real
        # capture must have none.
        lenient = "malformed" in d
        if tshark_finds_malformed(t):
            check("malformed", t, "malformed", True, lenient)
        if lenient:
            malformed += 1
            if shared and not t.all("_ws.malformed"):
                failures.append("%s frame %d: malformed in a real capture that tshark reads "
                                "cleanly: %s" % (path, t.number, d["malformed"]))
        compare_pause_pfc(d, t)
        compare_bth(d, t)
        compare_ext_headers(d, t)
        compare_qos(d, t)
        compare_lldp(d, t)
        if not lenient:
            compare_dcbx(d, t)          # TLVs after the fault are tshark's alone
    lenient = False
    return malformed


def main():
    if not os.path.isdir(os.path.join(SHARED, "captures")):
        print("skip: shared captures not found at %s/captures (expected ../shared beside the "
              "checkout)" % SHARED)
        sys.exit(77)
    shared = sorted(glob.glob(os.path.join(SHARED, "captures", "*.pcap*")))
    fixtures = sorted(glob.glob(os.path.join(ROOT, "fixtures", "captures", "*.pcap*")))
    if not shared or not fixtures:
        print("FAIL: no captures found (%d shared, %d fixtures)" % (len(shared), len(fixtures)))
        sys.exit(1)
    malformed = 0
    for path in shared:
        malformed += compare_file(path, True)
    for path in fixtures:
        malformed += compare_file(path, False)
    for family, n in sorted(compared.items()):
        print("%-10s %6d values compared (minimum %d)" % (family, n, MIN_COMPARED[family]))
        if n < MIN_COMPARED[family]:
            failures.append("%s: only %d values compared, expected at least %d" %
                            (family, n, MIN_COMPARED[family]))
    print("%d files; %d malformed fixture frames compared up to their fault" %
          (len(shared) + len(fixtures), malformed))
    if failures:
        for f in failures[:int(os.environ.get("SHOW_FAILURES", "60"))]:
            print("FAIL:", f)
        print("%d differences" % len(failures))
        sys.exit(1)


main()
