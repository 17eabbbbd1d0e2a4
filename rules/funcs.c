/* The rule language's functions. Window functions (rate, delta, avg, max, min, last) and count
 * read through the evidence source; the rest work on values. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "headroom.h"
#include "pause_tree.h"
#include "rules_ast.h"
#include "tiers.h"

static const struct func_info funcs[] = {
    { "rate", F_RATE, 1, 1 },
    { "busy_rate", F_BUSY_RATE, 1, 1 },
    { "delta", F_DELTA, 1, 1 },
    { "avg", F_AVG, 1, 1 },
    { "max", F_MAX, 1, 2 },
    { "min", F_MIN, 1, 2 },
    { "last", F_LAST, 1, 1 },
    { "count", F_COUNT, 1, 1 },
    { "headroom_required", F_HEADROOM, 3, 3 },
    { "coalesce", F_COALESCE, 2, 4 },
    { "defined", F_DEFINED, 1, 1 },
    { "covers", F_COVERS, 2, 2 },
    { "bit", F_BIT, 2, 2 },
    { "popcount", F_POPCOUNT, 1, 1 },
    { "clear_bit", F_CLEAR_BIT, 2, 2 },
    { "set_bit", F_SET_BIT, 2, 2 },
    { "if", F_IF, 3, 3 },
    { "str", F_STR, 1, 1 },
    { "abs", F_ABS, 1, 1 },
    { "peer_diff", F_PEER_DIFF, 1, 1 },
    { "peer_diff_first", F_PEER_DIFF_FIRST, 1, 1 },
    { "ets_sum", F_ETS_SUM, 0, 0 },
    { "role", F_ROLE, 0, 0 },
    { "peer_role", F_PEER_ROLE, 0, 0 },
    { "deviates", F_DEVIATES, 1, 1 },
    { "app_diff", F_APP_DIFF, 0, 0 },
    { "dscp_lost", F_DSCP_LOST, 0, 0 },
    { "peer_dscp_lost", F_PEER_DSCP_LOST, 0, 0 },
    { "tc_lossy", F_TC_LOSSY, 1, 1 },
    { "lowest_bit", F_LOWEST_BIT, 1, 1 },
    { "headroom_mask", F_HEADROOM_MASK, 0, 0 },
    { "lldp_peer", F_LLDP_PEER, 0, 0 },
    { "fabric_peer", F_FABRIC_PEER, 0, 0 },
    { "alias_conflicts", F_ALIAS_CONFLICTS, 0, 0 },
    { "pause_victim", F_PAUSE_VICTIM, 0, 0 },
    { "uplink", F_UPLINK, 0, 0 },
    { "alias_conflict", F_ALIAS_CONFLICT, 0, 0 },
    { "ports_count", F_PORTS_COUNT, 1, 2 },
    { "ports_sum", F_PORTS_SUM, 1, 2 },
    { "ports_avg", F_PORTS_AVG, 1, 2 },
    { "ports_max", F_PORTS_MAX, 1, 2 },
    { "at_peer", F_AT_PEER, 1, 1 },
};

const char *rule_func_name(enum func_id id)
{
    for (size_t i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++)
        if (funcs[i].id == id)
            return funcs[i].name;
    return "?";
}

const struct func_info *rule_func_lookup(const char *name)
{
    for (size_t i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++)
        if (!strcmp(funcs[i].name, name))
            return &funcs[i];
    return NULL;
}


/* pause_victim(): whether the instance's device only relays the pause of $prio (pause_tree.h);
 * unknown where the evidence keeps no PFC events for it. */
static struct value pause_victim(struct eval_ctx *c)
{
    bool victim;
    char by[132];
    int rc = pause_tree_cause(c->ev, c->ports, c->nports, c->device, c->prio,
                              c->now_ns - PAUSE_TREE_WINDOW_NS, c->now_ns, &victim, by, sizeof(by),
                              c->err);
    if (rc < 0) {
        c->error = rc;
        return value_unknown();
    }
    if (rc == 0) {
        eval_note_missing(c, "pause_victim() (no PFC events)");
        return value_unknown();
    }
    if (victim)
        eval_note_text(c, "paused first by", by);
    return value_bool(victim);
}

/* uplink(): whether the port's link partner sits farther from the hosts than its device (an
 * ECMP member toward the core); unknown where the cabling does not say. */
static struct value uplink(struct eval_ctx *c)
{
    const struct evidence_ops *ops = c->ev->ops;
    const char *peer = c->tiers && c->device && c->ifname && ops->peer_port
                           ? ops->peer_port(c->ev->ctx, c->device, c->ifname, false)
                           : NULL;
    const char *colon = peer ? strchr(peer, ':') : NULL;
    char pdev[64];
    int mine = -1, theirs = -1;
    if (colon && (size_t)(colon - peer) < sizeof(pdev)) {
        memcpy(pdev, peer, (size_t)(colon - peer));
        pdev[colon - peer] = '\0';
        mine = tier_of(c->tiers, c->ev, c->ports, c->nports, c->device);
        theirs = tier_of(c->tiers, c->ev, c->ports, c->nports, pdev);
    }
    /* a leaf's port to a switch the evidence does not hold leads up (to a spine) */
    const char *role = mine == 1 && theirs < 0 && ops->peer_role
                           ? ops->peer_role(c->ev->ctx, c->device, c->ifname)
                           : NULL;
    if (role && !strcmp(role, "switch"))
        return value_bool(true);
    if (mine < 0 || theirs < 0) {
        eval_note_missing(c, "uplink() (the cabling to the hosts)");
        return value_unknown();
    }
    return value_bool(theirs > mine);
}

/* headroom_required(speed_bps, cable_m, mtu): the full formula of lib/headroom.c, fiber, with
 * its default response time, in bytes. */
static struct value headroom(double speed_bps, double cable_m, double mtu)
{
    if (speed_bps <= 0 || cable_m < 0 || mtu <= 0 || speed_bps > 1e13 || cable_m > 1e6 || mtu > 1e6)
        return value_unknown();
    struct headroom_input in = {
        .link_bps = (uint64_t)speed_bps,
        .cable_mm = (uint64_t)(cable_m * 1000.0 + 0.5),
        .medium = CABLE_FIBER,
        .mtu = (uint64_t)mtu,
        .response_ns = HEADROOM_DEFAULT_RESPONSE_NS,
        .formula = HEADROOM_FORMULA_FULL,
    };
    struct headroom h;
    if (headroom_required(&in, &h, NULL) < 0)
        return value_unknown();
    return value_number((double)h.total);
}

/* str(n): a whole number 0-255 as text, for a knob path or a proposal built from parts
 * ({"ets.tsa."}{str(tc)}). From a static table, so that evaluation keeps no shared buffer. */
#define TEN(p) p "0", p "1", p "2", p "3", p "4", p "5", p "6", p "7", p "8", p "9"
static struct value small_int_text(double n)
{
    static const char *const text[] = {
        TEN(""),   TEN("1"),  TEN("2"),  TEN("3"),  TEN("4"),  TEN("5"),  TEN("6"),  TEN("7"),
        TEN("8"),  TEN("9"),  TEN("10"), TEN("11"), TEN("12"), TEN("13"), TEN("14"), TEN("15"),
        TEN("16"), TEN("17"), TEN("18"), TEN("19"), TEN("20"), TEN("21"), TEN("22"), TEN("23"),
        TEN("24"), "250",     "251",     "252",     "253",     "254",     "255",
    };
    if (n < 0 || n > 255 || n != floor(n))
        return value_unknown();
    return (struct value){ .kind = V_STR, .str = text[(int)n] };
}
#undef TEN

static unsigned popcount8(unsigned v)
{
    unsigned n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

/* peer_diff(array): how many indexes both ends know and disagree on; _first: the lowest one. */
static struct value peer_diff(const struct rule_expr *arr, struct eval_ctx *c, bool first)
{
    if (!c->cfg || !c->peer) {
        eval_note_missing(c, c->cfg ? "the link partner's config" : "this port's config");
        return value_unknown();
    }
    /* for a map to priorities (dscp2prio), the first entry that is lossless here matters most:
     * that is the RoCE traffic changing class */
    bool to_prio = !strcmp(arr->field->pattern, "dscp2prio.#");
    int lossless = to_prio ? eval_lossless_mask(c) : -1;
    int differ = 0, lowest = -1, compared = 0;
    bool lowest_lossless = false;
    for (int i = 0; i < arr->field->count; i++) {
        const struct qos_val *a = qos_field_value(c->cfg, arr->field, i);
        const struct qos_val *b = qos_field_value(c->peer, arr->field, i);
        if (!a || !b || !a->set || !b->set)
            continue;
        compared++;
        if (a->v == b->v)
            continue;
        differ++;
        bool is_lossless = lossless > 0 && a->v >= 0 && a->v < 8 && ((lossless >> a->v) & 1);
        if (lowest < 0 || (is_lossless && !lowest_lossless)) {
            lowest = i;
            lowest_lossless = is_lossless;
        }
    }
    if (!compared) {
        eval_note_missing(c, arr->text);
        return value_unknown();
    }
    if (lowest >= 0 && !first) {
        char name[QOS_PATH_MAX + 8], value[48];
        qos_field_path(arr->field, lowest, name, sizeof(name));
        snprintf(value, sizeof(value), "%lld here, %lld on the partner",
                 (long long)qos_field_value(c->cfg, arr->field, lowest)->v,
                 (long long)qos_field_value(c->peer, arr->field, lowest)->v);
        eval_note_text(c, name, value);
        snprintf(value, sizeof(value), "%d of %d", differ, compared);
        snprintf(name, sizeof(name), "%.50s differing", arr->text);
        eval_note_text(c, name, value);
    }
    if (first)
        return lowest >= 0 ? value_number(lowest) : value_unknown();
    return value_number(differ);
}

/* The ETS bandwidth of the traffic classes whose TSA is ets, summed. */
static struct value ets_sum(struct eval_ctx *c)
{
    if (!c->cfg) {
        eval_note_missing(c, "ets.bw");
        return value_unknown();
    }
    double sum = 0;
    bool any = false;
    for (int tc = 0; tc < 8; tc++) {
        const struct qos_val *tsa = &c->cfg->ets_tsa[tc], *bw = &c->cfg->ets_bw[tc];
        if (!tsa->set) {
            eval_note_missing(c, "ets.tsa");
            return value_unknown();
        }
        if (tsa->v != QOS_TSA_ETS)
            continue;
        if (!bw->set) {
            eval_note_missing(c, "ets.bw");
            return value_unknown();
        }
        sum += (double)bw->v;
        any = true;
    }
    return any ? value_number(sum) : value_unknown();
}

struct eval_ctx eval_ctx_at(const struct eval_ctx *c, const struct eval_port *p)
{
    const struct evidence *ev = c->ev;
    return (struct eval_ctx){
        .ev = ev,
        .ports = c->ports,
        .nports = c->nports,
        .tiers = c->tiers,
        .device = p->device,
        .ifname = p->ifname,
        .prio = c->prio,
        .now_ns = c->now_ns,
        .err = c->err,
        .cfg = ev->ops->config ? ev->ops->config(ev->ctx, p->device, p->ifname) : NULL,
        .peer = ev->ops->peer_config ? ev->ops->peer_config(ev->ctx, p->device, p->ifname) : NULL,
    };
}

/* ports_count(cond[, filter]), ports_sum / ports_avg / ports_max(x[, filter]): the expression
 * evaluated on every port of this instance's device (every port of the evidence at fabric
 * scope), at the instance's priority and time. Ports where it is unknown, or where the filter is
 * not true, are left out; no port left is unknown. The ports' own values are not evidence: the
 * aggregate is. */
static struct value ports_agg_compute(const struct rule_expr *e, struct eval_ctx *c)
{
    double acc = 0;
    size_t used = 0, i = 0;
    if (c->device) { /* ports are sorted by device: find its first one */
        size_t lo = 0, hi = c->nports;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (strcmp(c->ports[mid].device, c->device) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        i = lo;
    }
    for (; i < c->nports && !c->error; i++) {
        const struct eval_port *p = &c->ports[i];
        if (c->device && strcmp(p->device, c->device))
            break;
        struct eval_ctx sub = eval_ctx_at(c, p);
        if (e->nargs == 2) {
            struct value f = expr_eval(e->args[1], &sub);
            if (f.kind != V_BOOL || !f.num)
                continue;
        }
        struct value v = expr_eval(e->args[0], &sub);
        c->error = sub.error;
        if (v.kind == V_UNKNOWN)
            continue;
        if (e->func == F_PORTS_COUNT)
            acc += v.num != 0;
        else if (e->func == F_PORTS_MAX)
            acc = used ? fmax(acc, v.num) : v.num;
        else
            acc += v.num;
        used++;
    }
    if (!used)
        return value_unknown();
    return value_number(e->func == F_PORTS_AVG ? acc / (double)used : acc);
}

/* ports_count(cond[, filter]), ports_sum / ports_avg / ports_max(x[, filter]): the expression
 * evaluated on every port of this instance's device (every port of the evidence at fabric
 * scope), at the instance's priority and time. Ports where it is unknown, or where the filter is
 * not true, are left out; no port left is unknown. The ports' own values are not evidence: the
 * aggregate is. The value does not depend on which of the device's ports asks, so it is kept
 * for the next one. */
static struct value ports_agg(const struct rule_expr *e, struct eval_ctx *c)
{
    struct value r;
    size_t k = (((uintptr_t)e >> 4) * 9 + (size_t)(c->prio + 1)) % AGG_CACHE_SLOTS;
    struct agg_slot *slot = c->agg_cache ? &c->agg_cache->slot[k] : NULL;
    if (slot && slot->e == e && slot->prio == c->prio && slot->now_ns == c->now_ns &&
        (slot->device == c->device ||
         (slot->device && c->device && !strcmp(slot->device, c->device)))) {
        r = slot->v;
    } else {
        r = ports_agg_compute(e, c);
        if (slot && !c->error)
            *slot = (struct agg_slot){ e, c->device, c->prio, c->now_ns, r };
    }
    if (r.kind == V_UNKNOWN)
        eval_note_missing(c, e->text);
    else
        eval_note_evidence(c, e, r);
    return r;
}

static struct value window_func(const struct rule_expr *e, struct eval_ctx *c)
{
    if (e->nargs == 2) { /* max(a, b), min(a, b) */
        struct value a = expr_eval(e->args[0], c), b = expr_eval(e->args[1], c);
        if (a.kind != V_NUM || b.kind != V_NUM)
            return value_unknown();
        return value_number(e->func == F_MAX ? fmax(a.num, b.num) : fmin(a.num, b.num));
    }
    return expr_eval(e->args[0], c); /* the selector carries its aggregate */
}

struct value rule_func_call(const struct rule_expr *e, struct eval_ctx *c)
{
    struct rule_expr *const *a = e->args;
    if (rule_func_of_window(e->func))
        return window_func(e, c);
    switch (e->func) {
    case F_COUNT: return expr_eval(a[0], c);
    case F_DEFINED: {
        if (a[0]->kind == N_CONFIG && a[0]->str && !a[0]->index)
            return rule_func_config_array_defined(a[0], c);
        char saved[sizeof(c->missing)];
        memcpy(saved, c->missing, sizeof(saved));
        struct value v = expr_eval(a[0], c);
        memcpy(c->missing, saved, sizeof(saved)); /* asking is not lacking */
        return value_bool(v.kind != V_UNKNOWN);
    }
    case F_COALESCE: {
        char saved[sizeof(c->missing)];
        memcpy(saved, c->missing, sizeof(saved));
        for (int i = 0; i < e->nargs; i++) {
            struct value v = expr_eval(a[i], c);
            if (v.kind != V_UNKNOWN || v.unserved) {
                if (v.kind != V_UNKNOWN) /* a known value lacks nothing */
                    memcpy(c->missing, saved, sizeof(saved));
                return v;
            }
        }
        return value_unknown();
    }
    case F_IF: { /* only the branch taken is read, so only it is evidence */
        struct value cond = expr_eval(a[0], c);
        if (cond.kind != V_BOOL)
            return value_unknown();
        return expr_eval(a[cond.num ? 1 : 2], c);
    }
    case F_PEER_DIFF:
    case F_PEER_DIFF_FIRST: return peer_diff(a[0], c, e->func == F_PEER_DIFF_FIRST);
    case F_ETS_SUM: return ets_sum(c);
    case F_DEVIATES: return deviates(e, a[0], c);
    case F_APP_DIFF: return rule_func_app_diff(c);
    case F_DSCP_LOST:
    case F_PEER_DSCP_LOST: return rule_func_dscp_lost(c, e->func == F_PEER_DSCP_LOST);
    case F_HEADROOM_MASK: return rule_func_headroom_mask(c);
    case F_ROLE:
    case F_PEER_ROLE: {
        const struct evidence_ops *ops = c->ev->ops;
        const char *role = !c->device ? NULL
                           : e->func == F_ROLE
                               ? (ops->role ? ops->role(c->ev->ctx, c->device) : NULL)
                           : c->ifname && ops->peer_role
                               ? ops->peer_role(c->ev->ctx, c->device, c->ifname)
                               : NULL;
        if (!role) {
            eval_note_missing(c, e->func == F_ROLE ? "role()" : "peer_role()");
            return value_unknown();
        }
        return (struct value){ .kind = V_STR, .str = role };
    }
    case F_PORTS_COUNT:
    case F_PORTS_SUM:
    case F_PORTS_AVG:
    case F_PORTS_MAX: return ports_agg(e, c);
    case F_AT_PEER: return rule_func_at_peer(e, c);
    case F_PAUSE_VICTIM: return pause_victim(c);
    case F_UPLINK: return uplink(c);
    case F_ALIAS_CONFLICTS:
    case F_ALIAS_CONFLICT: {
        const struct evidence_ops *ops = c->ev->ops;
        const char *first = NULL;
        if (!c->device || !ops->alias_conflicts) {
            eval_note_missing(c, "the names devices go by");
            return value_unknown();
        }
        size_t n = ops->alias_conflicts(c->ev->ctx, c->device, &first);
        if (e->func == F_ALIAS_CONFLICTS)
            return value_number((double)n);
        if (!first)
            return value_unknown();
        struct value v = { .kind = V_STR, .str = first };
        eval_note_evidence(c, e, v);
        return v;
    }
    case F_LLDP_PEER:
    case F_FABRIC_PEER: {
        const struct evidence_ops *ops = c->ev->ops;
        const char *name = c->device && c->ifname && ops->peer_port
                               ? ops->peer_port(c->ev->ctx, c->device, c->ifname,
                                                e->func == F_LLDP_PEER)
                               : NULL;
        if (!name) {
            eval_note_missing(c, e->func == F_LLDP_PEER ? "lldp_peer()" : "fabric_peer()");
            return value_unknown();
        }
        struct value v = { .kind = V_STR, .str = name };
        eval_note_evidence(c, e, v);
        return v;
    }
    default: break;
    }
    struct value v[EXPR_ARGS_MAX];
    for (int i = 0; i < e->nargs; i++) {
        v[i] = expr_eval(a[i], c);
        if (v[i].kind != V_NUM)
            return value_unknown();
    }
    switch (e->func) {
    case F_COVERS: {
        unsigned mask = (unsigned)v[0].num, sub = (unsigned)v[1].num;
        return value_bool((mask & sub) == sub);
    }
    case F_BIT:
        if (v[1].num < 0 || v[1].num > 31)
            return value_unknown();
        return value_bool(((unsigned)v[0].num >> (unsigned)v[1].num) & 1u);
    case F_STR: return small_int_text(v[0].num);
    case F_CLEAR_BIT:
        if (v[1].num < 0 || v[1].num > 31)
            return value_unknown();
        return value_number((double)((unsigned)v[0].num & ~(1u << (unsigned)v[1].num)));
    case F_SET_BIT:
        if (v[1].num < 0 || v[1].num > 31)
            return value_unknown();
        return value_number((double)((unsigned)v[0].num | (1u << (unsigned)v[1].num)));
    case F_POPCOUNT: return value_number(popcount8((unsigned)v[0].num));
    case F_LOWEST_BIT: { /* the lowest priority of a mask, -1 for none */
        unsigned mask = (unsigned)v[0].num & 0xffu;
        return value_number(mask ? __builtin_ctz(mask) : -1);
    }
    case F_ABS: return value_number(fabs(v[0].num));
    case F_HEADROOM: return headroom(v[0].num, v[1].num, v[2].num);
    case F_TC_LOSSY: return rule_func_tc_lossy(c, v[0].num);
    default: return value_unknown();
    }
}
