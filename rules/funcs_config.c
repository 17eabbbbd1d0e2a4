/* Functions over a whole config table: defined(array), app_diff(), tc_lossy(tc), dscp_lost()
 * and headroom_mask(). */
#include <stdio.h>

#include "rules_ast.h"

/* defined(dscp2prio): whether the config (here, or the partner's for peer.) holds any entry of
 * the array; never unknown. */
struct value rule_func_config_array_defined(const struct rule_expr *arr, struct eval_ctx *c)
{
    const struct qos_config *cfg = arr->peer ? c->peer : c->cfg;
    for (int i = 0; cfg && i < arr->field->count; i++) {
        const struct qos_val *v = qos_field_value(cfg, arr->field, i);
        if (v && v->set)
            return value_bool(true);
    }
    return value_bool(false);
}

static bool has_app(const struct qos_config *c, const struct qos_app *a)
{
    for (size_t i = 0; i < c->napp; i++)
        if (c->app[i].selector == a->selector && c->app[i].protocol == a->protocol &&
            c->app[i].prio == a->prio)
            return true;
    return false;
}

/* The App entries other than DSCP ones (dscp2prio compares those) that one end has and the
 * other has not; unknown unless both ends' App tables are known. */
static int one_sided(const struct qos_config *x, const struct qos_config *y,
                     const struct qos_app **first)
{
    int n = 0;
    for (size_t i = 0; i < x->napp; i++)
        if (x->app[i].selector != 5 && !has_app(y, &x->app[i])) {
            if (!*first)
                *first = &x->app[i];
            n++;
        }
    return n;
}

struct value rule_func_app_diff(struct eval_ctx *c)
{
    if (!c->cfg || !c->cfg->app_set || !c->peer || !c->peer->app_set) {
        eval_note_missing(c, c->cfg && c->cfg->app_set ? "peer.app" : "app");
        return value_unknown();
    }
    const struct qos_app *first = NULL;
    int n = one_sided(c->cfg, c->peer, &first);
    bool here = first != NULL;
    n += one_sided(c->peer, c->cfg, &first);
    if (first) {
        char value[48];
        snprintf(value, sizeof(value), "%u:%u:%u %s", first->selector, first->protocol, first->prio,
                 here ? "here only" : "on the partner only");
        eval_note_text(c, "app entry", value);
    }
    return value_number(n);
}

static int lossless_of(const struct qos_config *x, const struct qos_config *other)
{
    if (x->pfc_enabled.set)
        return (int)x->pfc_enabled.v;
    return other->pfc_enabled.set ? (int)other->pfc_enabled.v : -1;
}

/* dscp_lost() (peer_side: peer_dscp_lost()): the lowest DSCP that one end of the link maps to
 * a priority lossless there while this end (the partner) maps it to one that is not lossless
 * here: lossless traffic that turns lossy at this end. -1 when there is none; unknown unless
 * both maps and a lossless mask are known. */
struct value rule_func_dscp_lost(struct eval_ctx *c, bool peer_side)
{
    const struct qos_config *x = peer_side ? c->peer : c->cfg, *y = peer_side ? c->cfg : c->peer;
    if (!x || !y) {
        eval_note_missing(c, c->cfg ? "the link partner's config" : "this port's config");
        return value_unknown();
    }
    int mx = lossless_of(x, y), my = lossless_of(y, x), compared = 0;
    if (mx < 0 || my < 0) {
        eval_note_missing(c, "pfc.enabled");
        return value_unknown();
    }
    for (int i = 0; i < 64; i++) {
        const struct qos_val *a = &x->dscp2prio[i], *b = &y->dscp2prio[i];
        if (!a->set || !b->set)
            continue;
        compared++;
        bool lossless_there = b->v >= 0 && b->v < 8 && ((my >> b->v) & 1);
        bool lossless_here = a->v >= 0 && a->v < 8 && ((mx >> a->v) & 1);
        if (a->v != b->v && lossless_there && !lossless_here) {
            char name[32], value[48];
            snprintf(name, sizeof(name), "%sdscp2prio.%d", peer_side ? "peer." : "", i);
            snprintf(value, sizeof(value), "%lld (lossless: %lld on the other end)",
                     (long long)a->v, (long long)b->v);
            eval_note_text(c, name, value);
            return value_number(i);
        }
    }
    if (!compared) {
        eval_note_missing(c, "dscp2prio");
        return value_unknown();
    }
    return value_number(-1);
}

/* tc_lossy(tc): the lowest priority that is not lossless on this port and that prio2tc puts in
 * traffic class tc, other than the instance's own; -1 for none. A lossless priority that shares
 * its queue with such a one shares that class's scheduling and WRED profile. Unknown unless the
 * lossless mask is known and prio2tc is known for every priority. */
struct value rule_func_tc_lossy(struct eval_ctx *c, double tc)
{
    int mask = eval_lossless_mask(c);
    if (mask < 0 || !c->cfg) {
        eval_note_missing(c, mask < 0 ? "pfc.enabled" : "prio2tc");
        return value_unknown();
    }
    for (int p = 0; p < 8; p++)
        if (!c->cfg->prio2tc[p].set) {
            eval_note_missing(c, "prio2tc");
            return value_unknown();
        }
    for (int p = 0; p < 8; p++) {
        if (p == c->prio || ((mask >> p) & 1) || (double)c->cfg->prio2tc[p].v != tc)
            continue;
        char name[32], value[48];
        snprintf(name, sizeof(name), "prio2tc.%d", p);
        snprintf(value, sizeof(value), "%lld (not lossless)", (long long)c->cfg->prio2tc[p].v);
        eval_note_text(c, name, value);
        return value_number(p);
    }
    return value_number(-1);
}

/* The priorities whose ingress PG holds headroom (more than 0) in this config; -1 for none. */
static int headroom_mask_of(const struct qos_config *x)
{
    int mask = 0;
    bool any = false;
    for (int i = 0; i < 8; i++) {
        const struct qos_val *h = &x->buffer[i].headroom;
        any |= h->set;
        if (h->set && h->v > 0)
            mask |= 1 << i;
    }
    return any ? mask : -1;
}

/* headroom_mask(): the priorities a switch provisioned headroom for, the only ones that can be
 * lossless there; a host, which holds no buffer config, reads its link partner's. Unknown where
 * neither end has headroom configured. */
struct value rule_func_headroom_mask(struct eval_ctx *c)
{
    int mask = c->cfg ? headroom_mask_of(c->cfg) : -1;
    bool peer = mask < 0 && c->peer;
    if (peer)
        mask = headroom_mask_of(c->peer);
    if (mask < 0) {
        eval_note_missing(c, "switch.buffer.headroom");
        return value_unknown();
    }
    char value[16];
    snprintf(value, sizeof(value), "0x%02x", mask);
    eval_note_text(c, peer ? "peer headroom_mask()" : "headroom_mask()", value);
    return value_number(mask);
}
