/* Functions over a whole config table: defined(array) and app_diff(). */
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
        snprintf(value, sizeof(value), "%u:%u:%u %s", first->selector, first->protocol,
                 first->prio, here ? "here only" : "on the partner only");
        eval_note_text(c, "app entry", value);
    }
    return value_number(n);
}
