"""The PromQL of a Grafana dashboard: every panel target (rows' nested panels too) and every
query variable, with Grafana's variables replaced so Prometheus can run them."""
import re

# Grafana's own interval variables, as the test's 1 s scrape needs them: a rate window holds a
# few samples, a range the whole short run.
BUILTINS = {"__rate_interval": "5s", "__interval": "2s", "__range": "1m"}
VAR = re.compile(r"\$\{?(\w+)\}?")
REGEX_MATCHER = re.compile(r'=~"([^"]*)"')
LABEL_VALUES = re.compile(r"^label_values\((.+),\s*(\w+)\)$", re.S)


def panels(dash):
    """Every panel, depth first, rows and the panels folded into collapsed rows included."""
    def walk(ps):
        for p in ps:
            yield p
            yield from walk(p.get("panels", []))
    return list(walk(dash.get("panels", [])))


def targets(dash):
    """(panel, target) for every target that carries an expression."""
    return [(p, t) for p in panels(dash) for t in p.get("targets", []) if "expr" in t]


def user_variables(dash):
    return {v["name"]: v for v in dash.get("templating", {}).get("list", [])}


def substitute(expr, names):
    """expr with its variables replaced: a dashboard variable by the match-all regex .*, which
    is only right inside a =~ matcher, so a variable anywhere else is an error; Grafana's
    interval variables by BUILTINS. Returns (promql, problems)."""
    problems = []

    def in_matcher(m):
        def one(v):
            name = v.group(1)
            if name not in names:
                problems.append("unknown variable $%s" % name)
            return ".*"
        return '=~"%s"' % VAR.sub(one, m.group(1))

    out = REGEX_MATCHER.sub(in_matcher, expr)

    def outside(v):
        name = v.group(1)
        if name in BUILTINS:
            return BUILTINS[name]
        problems.append("$%s outside a =~ matcher" % name)
        return v.group(0)

    return VAR.sub(outside, out), problems


def variable_query(v):
    """A query variable's label_values(METRIC, LABEL) as the instant query
    count by (LABEL) (METRIC), which returns a series per value the variable would offer."""
    q = v.get("query")
    q = q.get("query", "") if isinstance(q, dict) else (q or "")
    m = LABEL_VALUES.match(q.strip())
    if not m:
        return None, q
    return "count by (%s) (%s)" % (m.group(2), m.group(1)), q


def metric_names(promql):
    """The dcbkit metric names an expression reads."""
    return set(re.findall(r"\bdcbkit_\w+", promql))
