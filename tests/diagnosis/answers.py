"""The answers (answers/KIND.toml) resolved for one case, and the test of a finding against them.

An answer lists what counts as right: [[accept]] entries of rules, a knob (a config path with
{p}, {c}, {d} for the RoCE priority, the CNP priority and the RoCE DSCP) and what the proposed
value must be, as one of
    range = ["LO", "HI"]   inclusive bounds, expressions over the case's variables
    eq = "EXPR"            exactly this number (masks: "1 << p")
    value = LITERAL        exactly this string or boolean
    has_bit = "EXPR"       a priority mask with this bit set
`if = "EXPR"` keeps an entry only where it holds (a knob that is already right is no fix), and
`needs = [PATH]` asks for changes that must come with the knob's (the finding's `also`).
An entry with knob = "" is scored on the rule alone (a fault no config knob fixes). When the
fault sits on some devices (the stage's `at`), the finding must name one of them, or the switch
port facing a faulty host. `consequences` are rules that may fire beside the answer without
being wrong (never a false critical); they are not the answer.

Variables: p, c, d, gbps, cnp_dscp, the reference values of the speed (kmin, kmax, max_p, xoff,
xon, headroom, headroom_req), the bands (kmin_lo, kmin_hi, kmax_lo, kmax_hi, rai_lo, rai_hi,
wd_lo, wd_hi) and the staged faulty values (cur_*); see README.md.
"""
import math
import os
import re
import tomllib

import physics

ANSWERS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "answers")
_cache = {}


def load(kind):
    if kind not in _cache:
        with open(os.path.join(ANSWERS_DIR, kind + ".toml"), "rb") as f:
            _cache[kind] = tomllib.load(f)
    return _cache[kind]


def stratum(kind):
    return load(kind)["stratum"]


def variables(setting, vars_):
    v = dict(vars_)
    v.update(p=setting.p, c=setting.c, d=setting.d, gbps=setting.gbps,
             cnp_dscp=physics.CNP_DSCP, wd_lo=physics.PFCWD_BAND_MS[0],
             wd_hi=physics.PFCWD_BAND_MS[1])
    return v


def _eval(expr, v):
    if isinstance(expr, (int, float)):
        return expr
    return eval(expr, {"__builtins__": {}, "max": max, "min": min, "math": math}, v)


def resolve(kind, setting, vars_, at):
    """The answer of one fault of one case: every accept entry with its knob path and bounds
    made concrete; an entry whose range is empty here is left out."""
    a = load(kind)
    v = variables(setting, vars_)
    accept = []
    for e in a["accept"]:
        if "if" in e and not _eval(e["if"], v):
            continue
        r = {"rules": e["rules"], "knob": e.get("knob", "").format(**v),
             "needs": [n.format(**v) for n in e.get("needs", [])]}
        if "range" in e:
            lo, hi = (_eval(x, v) for x in e["range"])
            if lo > hi:
                continue
            r["range"] = [lo, hi]
        if "eq" in e:
            r["eq"] = _eval(e["eq"], v)
        if "value" in e:
            r["value"] = e["value"]
        if "has_bit" in e:
            r["has_bit"] = _eval(e["has_bit"], v)
        accept.append(r)
    return {"kind": kind, "accept": accept, "at": at,
            "consequences": a.get("consequences", [])}


def describe(expect):
    parts = []
    for i, e in enumerate(expect):
        alts = []
        for a in e["accept"]:
            what = "/".join(a["rules"])
            if a["knob"]:
                what += " -> " + a["knob"]
                if "range" in a:
                    what += " in [%s, %s]" % tuple(_fmt(x) for x in a["range"])
                if "eq" in a:
                    what += " = %s" % _fmt(a["eq"])
                if "value" in a:
                    what += " = %s" % str(a["value"]).lower()
                if "has_bit" in a:
                    what += " with bit %d" % a["has_bit"]
                if a["needs"]:
                    what += " (with %s)" % ", ".join(a["needs"])
            alts.append(what)
        where = " at %s" % "/".join(e["at"]) if e["at"] else ""
        parts.append(("root: " if len(expect) > 1 and i == 0 else
                      "latent: " if i else "") + " or ".join(alts) + where)
    return "; ".join(parts)


def _fmt(x):
    if isinstance(x, int) and x >= 10000:
        return "%gKB" % (x / 1000)
    return str(x)


_UNITS = {"": 1, "k": 1e3, "kb": 1e3, "kib": 1024, "m": 1e6, "mb": 1e6, "mib": 1024 ** 2,
          "g": 1e9, "gb": 1e9, "b": 1}


def value_of(x):
    """A proposed value as a number, a boolean or a lower-case string."""
    if isinstance(x, bool) or x is None:
        return x
    if isinstance(x, (int, float)):
        return x
    s = str(x).strip().lower()
    if s in ("true", "false"):
        return s == "true"
    try:
        return int(s, 0)
    except ValueError:
        pass
    m = re.fullmatch(r"([0-9.]+)\s*([a-z]*)", s)
    if m and m.group(2) in _UNITS:
        return float(m.group(1)) * _UNITS[m.group(2)]
    return s


def value_ok(entry, proposed):
    checks = [k for k in ("range", "eq", "value", "has_bit") if k in entry]
    if not checks:
        return True
    v = value_of(proposed)
    if v is None:
        return False
    if "value" in entry:
        want = entry["value"]
        return v == (want.lower() if isinstance(want, str) else want)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    if "range" in entry and not entry["range"][0] <= v <= entry["range"][1]:
        return False
    if "eq" in entry and v != entry["eq"]:
        return False
    if "has_bit" in entry and not (int(v) >> entry["has_bit"]) & 1:
        return False
    return True


def place_ok(expect, finding):
    if not expect["at"]:
        return True
    here = [finding.get("device") or "", "%s:%s" % (finding.get("device"), finding.get("ifname"))]
    return any(h in expect["at"] for h in here)


def _also(finding):
    for item in finding.get("also") or []:
        if "=" in item:
            path, val = item.split("=", 1)
            yield path, val


def matches(expect, finding, rule_only=False):
    """Does this finding give this answer: one of its rules, at its place, with its knob and a
    value in range (and every accompanying change of an accepted knob in range too)?"""
    if not place_ok(expect, finding):
        return False
    for a in expect["accept"]:
        if finding["rule"] not in a["rules"]:
            continue
        if rule_only or not a["knob"]:
            return True
        if finding.get("knob") != a["knob"] or not value_ok(a, finding.get("proposed")):
            continue
        side = dict(_also(finding))
        if any(n not in side for n in a["needs"]):
            continue
        if all(_side_ok(expect, path, val) for path, val in side.items()):
            return True
    return False


def _side_ok(expect, path, val):
    """A change that goes with the knob's: right when an answer accepts it, or when no answer
    names that path (the answers do not judge it)."""
    entries = [b for b in expect["accept"] if b["knob"] == path]
    return not entries or any(value_ok(b, val) for b in entries)


def rules_of(expect):
    return {r for a in expect["accept"] for r in a["rules"]}
