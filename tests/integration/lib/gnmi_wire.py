"""gNMI messages by hand: a protobuf encoder/decoder written from the field numbers of gNMI
v0.10 (../shared/background/telemetry.md section 2.6, checked against openconfig/gnmi
proto/gnmi/gnmi.proto). The test peer uses this instead of generated stubs, so a field number
that dcbkit's gnmi.proto gets wrong cannot cancel out on both sides."""
import json

VARINT, I64, LEN, I32 = 0, 1, 2, 5

ENC_JSON, ENC_BYTES, ENC_PROTO, ENC_ASCII, ENC_JSON_IETF = 0, 1, 2, 3, 4
MODE_STREAM, MODE_ONCE, MODE_POLL = 0, 1, 2
SUB_TARGET_DEFINED, SUB_ON_CHANGE, SUB_SAMPLE = 0, 1, 2


def varint(v):
    if v < 0:
        v += 1 << 64
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field, wt):
    return varint((field << 3) | wt)


def f_varint(field, v):
    return key(field, VARINT) + varint(v) if v else b""


def f_bytes(field, b, always=False):
    if isinstance(b, str):
        b = b.encode()
    if not b and not always:
        return b""
    return key(field, LEN) + varint(len(b)) + b


def f_msg(field, b):
    return key(field, LEN) + varint(len(b)) + b


def f_double(field, v):
    import struct
    return key(field, I64) + struct.pack("<d", v)


# ---- decoding ---------------------------------------------------------------------------------

class DecodeError(Exception):
    pass


def read_varint(b, i):
    shift = 0
    v = 0
    while True:
        if i >= len(b):
            raise DecodeError("truncated varint")
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        if not c & 0x80:
            return v, i
        shift += 7
        if shift > 63:
            raise DecodeError("varint too long")


def fields(b):
    """Yields (field, wiretype, value) for each field of a message."""
    i = 0
    while i < len(b):
        k, i = read_varint(b, i)
        field, wt = k >> 3, k & 7
        if wt == VARINT:
            v, i = read_varint(b, i)
        elif wt == LEN:
            n, i = read_varint(b, i)
            if i + n > len(b):
                raise DecodeError("truncated field %d" % field)
            v = b[i:i + n]
            i += n
        elif wt == I64:
            v = b[i:i + 8]
            i += 8
        elif wt == I32:
            v = b[i:i + 4]
            i += 4
        else:
            raise DecodeError("wire type %d" % wt)
        yield field, wt, v


def decode_path(b):
    """Path -> {"origin", "target", "elem": [(name, {k: v})]}"""
    p = {"origin": "", "target": "", "elem": []}
    for f, _, v in fields(b):
        if f == 1:
            p["elem"].append((v.decode(), {}))
        elif f == 2:
            p["origin"] = v.decode()
        elif f == 3:
            name, keys = "", {}
            for ef, _, ev in fields(v):
                if ef == 1:
                    name = ev.decode()
                elif ef == 2:
                    kk = vv = ""
                    for kf, _, kv in fields(ev):
                        if kf == 1:
                            kk = kv.decode()
                        elif kf == 2:
                            vv = kv.decode()
                    keys[kk] = vv
            p["elem"].append((name, keys))
        elif f == 4:
            p["target"] = v.decode()
    return p


def decode_subscribe_request(b):
    """-> ("subscribe", {...}) or ("poll", None)"""
    for f, _, v in fields(b):
        if f == 3:
            return "poll", None
        if f == 1:
            sl = {"prefix": None, "subs": [], "mode": 0, "encoding": 0, "updates_only": False}
            for sf, _, sv in fields(v):
                if sf == 1:
                    sl["prefix"] = decode_path(sv)
                elif sf == 2:
                    sub = {"path": None, "mode": 0, "sample_interval": 0}
                    for xf, _, xv in fields(sv):
                        if xf == 1:
                            sub["path"] = decode_path(xv)
                        elif xf == 2:
                            sub["mode"] = xv
                        elif xf == 3:
                            sub["sample_interval"] = xv
                    sl["subs"].append(sub)
                elif sf == 5:
                    sl["mode"] = sv
                elif sf == 8:
                    sl["encoding"] = sv
                elif sf == 9:
                    sl["updates_only"] = bool(sv)
            return "subscribe", sl
    raise DecodeError("empty SubscribeRequest")


def decode_get_request(b):
    g = {"prefix": None, "paths": [], "type": 0, "encoding": 0}
    for f, _, v in fields(b):
        if f == 1:
            g["prefix"] = decode_path(v)
        elif f == 2:
            g["paths"].append(decode_path(v))
        elif f == 3:
            g["type"] = v
        elif f == 5:
            g["encoding"] = v
    return g


# ---- encoding ---------------------------------------------------------------------------------

def encode_path(elems, origin="", target=""):
    """elems: [(name, {k: v})]"""
    out = b""
    out += f_bytes(2, origin)
    for name, keys in elems:
        e = f_bytes(1, name)
        for k in sorted(keys):
            e += f_msg(2, f_bytes(1, k) + f_bytes(2, keys[k]))
        out += f_msg(3, e)
    out += f_bytes(4, target)
    return out


def encode_typed(value, kind=None):
    """kind: "string", "uint", "int", "bool", "double", "json", "json_ietf" (value is an object)"""
    if kind is None:
        if isinstance(value, bool):
            kind = "bool"
        elif isinstance(value, int):
            kind = "uint" if value >= 0 else "int"
        elif isinstance(value, float):
            kind = "double"
        else:
            kind = "string"
    if kind == "string":
        return f_bytes(1, value, always=True)
    if kind == "int":
        return key(2, VARINT) + varint(value)
    if kind == "uint":
        return key(3, VARINT) + varint(value)
    if kind == "bool":
        return key(4, VARINT) + varint(1 if value else 0)
    if kind == "double":
        return f_double(14, value)
    if kind == "json":
        return f_bytes(10, json.dumps(value, separators=(",", ":")), always=True)
    if kind == "json_ietf":
        return f_bytes(11, json.dumps(value, separators=(",", ":")), always=True)
    raise ValueError(kind)


def encode_update(path_bytes, typed_bytes):
    return f_msg(1, path_bytes) + f_msg(3, typed_bytes)


def encode_notification(ts_ns, prefix_bytes, updates):
    out = f_varint(1, ts_ns)
    if prefix_bytes is not None:
        out += f_msg(2, prefix_bytes)
    for u in updates:
        out += f_msg(4, u)
    return out


def subscribe_response_update(notification):
    return f_msg(1, notification)


def subscribe_response_sync():
    return key(3, VARINT) + varint(1)


def get_response(notifications):
    return b"".join(f_msg(1, n) for n in notifications)


def capability_response(models, encodings, version):
    out = b""
    for name, org, ver in models:
        out += f_msg(1, f_bytes(1, name) + f_bytes(2, org) + f_bytes(3, ver))
    # packed repeated enum
    packed = b"".join(varint(e) for e in encodings)
    out += f_msg(2, packed)
    out += f_bytes(3, version)
    return out
