/* deviates(field): whether this port is the end to change when its value of a config field (a
 * scalar, or every index of an array) disagrees with its link partner's. Two ends that disagree
 * are one fault, and the end that departs from the value most ports of the evidence hold needs
 * the change: the other is right. So: true where this port's value is not the usual one; false
 * where it is and the partner is a port of the evidence too (the check names the partner's
 * end); true where it is but the partner is known only by what it advertised (this end is the
 * only place to say it); unknown where no value is usual. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules_ast.h"

#define FINGERPRINT_MASK ((UINT64_C(1) << 52) - 1) /* exact as a double */

/* The port's value of the field as one number; false when no index of it is known. */
static bool fingerprint(const struct qos_config *cfg, const struct qos_field *f, uint64_t *out)
{
    if (!cfg)
        return false;
    uint64_t h = UINT64_C(1469598103934665603);
    bool any = false;
    int n = f->count ? f->count : 1;
    for (int i = 0; i < n; i++) {
        const struct qos_val *v = qos_field_value(cfg, f, f->count ? i : -1);
        uint64_t word = v && v->set ? (uint64_t)v->v * 2 + 1 : 0;
        any |= word != 0;
        for (int b = 0; b < 8; b++)
            h = (h ^ ((word >> (8 * b)) & 0xff)) * UINT64_C(1099511628211);
    }
    *out = h & FINGERPRINT_MASK;
    return any;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The fingerprint most ports hold, when one value is held by more ports than any other and by
 * at least two; unknown otherwise (a tie has no "usual" side). */
static struct value usual_value(const struct qos_field *f, const struct eval_ctx *c)
{
    uint64_t *v = malloc((c->nports ? c->nports : 1) * sizeof(*v));
    if (!v)
        return value_unknown();
    size_t n = 0;
    for (size_t i = 0; i < c->nports; i++) {
        const struct eval_port *p = &c->ports[i];
        const struct qos_config *cfg = c->ev->ops->config
                                           ? c->ev->ops->config(c->ev->ctx, p->device, p->ifname)
                                           : NULL;
        if (fingerprint(cfg, f, &v[n]))
            n++;
    }
    qsort(v, n, sizeof(*v), cmp_u64);
    size_t best_run = 0, second_run = 0;
    uint64_t best = 0;
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i; j < n && v[j] == v[i]; j++)
            ;
        if (j - i > best_run) {
            second_run = best_run;
            best_run = j - i;
            best = v[i];
        } else if (j - i > second_run) {
            second_run = j - i;
        }
    }
    struct value r = best_run >= 2 && best_run > second_run ? value_number((double)best)
                                                            : value_unknown();
    free(v);
    return r;
}

struct value deviates(const struct rule_expr *e, const struct rule_expr *leaf, struct eval_ctx *c)
{
    uint64_t here;
    if (!fingerprint(c->cfg, leaf->field, &here)) {
        eval_note_missing(c, leaf->text);
        return value_unknown();
    }
    size_t k = (((uintptr_t)e >> 4) * 7) % AGG_CACHE_SLOTS;
    struct agg_slot *slot = c->agg_cache ? &c->agg_cache->slot[k] : NULL;
    struct value usual;
    if (slot && slot->e == e && !slot->device && slot->now_ns == c->now_ns) {
        usual = slot->v;
    } else {
        usual = usual_value(leaf->field, c);
        if (slot)
            *slot = (struct agg_slot){ e, NULL, -1, c->now_ns, usual };
    }
    if (usual.kind != V_NUM) {
        eval_note_missing(c, "a value most ports hold");
        return value_unknown();
    }
    if ((double)here != usual.num)
        return value_bool(true);
    const struct evidence_ops *ops = c->ev->ops;
    return value_bool(
        !(c->ifname && ops->peer_judged && ops->peer_judged(c->ev->ctx, c->device, c->ifname)));
}
