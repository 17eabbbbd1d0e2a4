/* Evaluating a checked expression for one instance (port, priority) over an evidence source,
 * with unknown propagating; see rules.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rules_ast.h"
#include "units.h"


void eval_note_missing(struct eval_ctx *c, const char *what)
{
    if (!c->want_missing)
        return;
    size_t used = strlen(c->missing);
    if (strstr(c->missing, what))
        return;
    if (used + strlen(what) + 3 < sizeof(c->missing))
        snprintf(c->missing + used, sizeof(c->missing) - used, "%s%s", used ? ", " : "", what);
}

static void note(struct eval_ctx *c, const struct rule_expr *e, int index, struct value v)
{
    if (!c->record)
        return;
    for (size_t i = 0; i < c->npending; i++)
        if (c->pending[i].e == e && c->pending[i].index == index)
            return;
    if (c->npending == FINDING_EVIDENCE_MAX)
        return;
    c->pending[c->npending++] = (struct pending_evidence){ .e = e, .index = index, .v = v };
}

void eval_note_text(struct eval_ctx *c, const char *name, const char *value)
{
    if (!c->record || c->npending == FINDING_EVIDENCE_MAX)
        return;
    struct pending_evidence *pe = &c->pending[c->npending++];
    memset(pe, 0, sizeof(*pe));
    pe->index = -1;
    snprintf(pe->name, sizeof(pe->name), "%s", name);
    snprintf(pe->text, sizeof(pe->text), "%s", value);
}

void eval_note_evidence(struct eval_ctx *c, const struct rule_expr *e, struct value v)
{
    note(c, e, -1, v);
}

/* A config leaf's concrete path: switch.buffer.3.xoff, not switch.buffer.$prio.xoff. */
static void leaf_name(const struct rule_expr *e, int index, char *buf, size_t len)
{
    if (index >= 0 && e->index && e->index->kind != N_NUM) {
        char path[QOS_PATH_MAX];
        qos_field_path(e->field, index, path, sizeof(path));
        snprintf(buf, len, "%s%s", e->peer ? "peer." : "", path);
    } else {
        snprintf(buf, len, "%s", e->text);
    }
}

size_t evidence_format(const struct eval_ctx *c, struct finding_evidence *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < c->npending && n < max; i++, n++) {
        const struct pending_evidence *pe = &c->pending[i];
        if (!pe->e) {
            snprintf(out[n].name, sizeof(out[n].name), "%s", pe->name);
            snprintf(out[n].value, sizeof(out[n].value), "%s", pe->text);
            continue;
        }
        if (pe->e->kind == N_CONFIG)
            leaf_name(pe->e, pe->index, out[n].name, sizeof(out[n].name));
        else
            snprintf(out[n].name, sizeof(out[n].name), "%s", pe->e->text);
        eval_value_format(pe->e, pe->v, out[n].value, sizeof(out[n].value));
    }
    return n;
}

void eval_value_format(const struct rule_expr *e, struct value v, char *buf, size_t len)
{
    switch (v.kind) {
    case V_UNKNOWN: snprintf(buf, len, "unknown"); return;
    case V_BOOL: snprintf(buf, len, "%s", v.num ? "true" : "false"); return;
    case V_STR: snprintf(buf, len, "%s", v.str); return;
    case V_NUM: break;
    }
    if (e && e->kind == N_CONFIG && e->field->type == QF_MASK) {
        snprintf(buf, len, "0x%02x", (unsigned)v.num);
    } else if (e && e->kind == N_CONFIG && e->field->type == QF_BYTES && v.num >= 0 &&
               fmod(v.num, 1000) == 0 && v.num >= 1000) {
        dcb_fmt_bytes((uint64_t)v.num, buf, len); /* 180KB reads as written; 9216 stays */
    } else if (e && e->kind == N_CONFIG && e->field->type == QF_SPEED && v.num >= 0) {
        dcb_fmt_speed((uint64_t)v.num, buf, len);
    } else if (fabs(v.num) >= 1e15 || v.num != floor(v.num)) {
        snprintf(buf, len, "%.4g", v.num);
    } else {
        snprintf(buf, len, "%.0f", v.num);
    }
}

static struct value index_value(const struct rule_expr *ix, struct eval_ctx *c, int count, int *out)
{
    struct value v = expr_eval(ix, c);
    if (v.kind != V_NUM)
        return v;
    if (v.num < 0 || v.num >= count || v.num != floor(v.num)) {
        eval_note_missing(c, "an index out of range");
        return value_unknown();
    }
    *out = (int)v.num;
    return v;
}

static struct value unserved_or_unknown(const struct eval_ctx *c, const char *name)
{
    struct value v = value_unknown();
    v.unserved = c->device && c->ev->ops->unserved &&
                 c->ev->ops->unserved(c->ev->ctx, c->device, name);
    return v;
}

static struct value config_leaf(const struct rule_expr *e, struct eval_ctx *c)
{
    const struct qos_config *cfg = e->peer ? c->peer : c->cfg;
    int index = -1;
    if (e->index && index_value(e->index, c, e->field->count, &index).kind != V_NUM)
        return value_unknown();
    const struct qos_val *qv = cfg ? qos_field_value(cfg, e->field, index) : NULL;
    if (!qv || !qv->set) {
        if (c->want_missing) {
            char name[EXPR_TEXT_MAX + 16];
            leaf_name(e, index, name, sizeof(name));
            eval_note_missing(c, name);
        }
        return e->peer ? value_unknown() : unserved_or_unknown(c, e->field->pattern);
    }
    struct value v;
    switch (e->field->type) {
    case QF_ENUM: {
        const char *label = qos_enum_name(e->field, qv->v);
        v = label ? (struct value){ .kind = V_STR, .str = label } : value_unknown();
        break;
    }
    case QF_BOOL: v = value_bool(qv->v != 0); break;
    case QF_LENGTH:
        v = value_number((double)qv->v / 1000.0); /* stored in mm; rules speak metres */
        break;
    default: v = value_number((double)qv->v);
    }
    note(c, e, index, v);
    return v;
}

static bool label_value(const struct rule_expr *l, struct eval_ctx *c, int *out)
{
    if (!l) {
        *out = -1;
        return true;
    }
    struct value v = expr_eval(l, c);
    if (v.kind != V_NUM)
        return false;
    *out = (int)v.num;
    return true;
}

static struct value metric_leaf(const struct rule_expr *e, struct eval_ctx *c)
{
    int prio, queue;
    if (!label_value(e->prio_e, c, &prio) || !label_value(e->queue_e, c, &queue))
        return value_unknown();
    if (!c->ev->ops->metric || !c->device) {
        eval_note_missing(c, e->text);
        return value_unknown();
    }
    int64_t t0 = e->window_ns ? c->now_ns - e->window_ns : 0;
    double out;
    int rc = c->ev->ops->metric(c->ev->ctx, c->device, c->ifname, e->metric, prio, queue, e->agg,
                                t0, c->now_ns, &out, c->err);
    if (rc < 0) {
        c->error = rc;
        return value_unknown();
    }
    if (rc == 0 || !isfinite(out)) {
        if (c->want_missing) { /* most unknown windows have nobody asking why */
            char what[EXPR_TEXT_MAX + 16];
            snprintf(what, sizeof(what), "%s(%s)", evidence_agg_name(e->agg), e->text);
            eval_note_missing(c, what);
        }
        return unserved_or_unknown(c, metric_info(e->metric)->name);
    }
    struct value v = value_number(out);
    eval_note_evidence(c, e, v);
    return v;
}

static struct value event_leaf(const struct rule_expr *e, struct eval_ctx *c)
{
    int prio;
    if (!label_value(e->prio_e, c, &prio))
        return value_unknown();
    uint64_t n = 0;
    int rc = c->ev->ops->event_count
                 ? c->ev->ops->event_count(c->ev->ctx, c->device, c->ifname, e->event, prio,
                                           c->now_ns - e->window_ns, c->now_ns, &n, c->err)
                 : 0;
    if (rc < 0) {
        c->error = rc;
        return value_unknown();
    }
    if (rc == 0) {
        eval_note_missing(c, e->text);
        return value_unknown();
    }
    struct value v = value_number((double)n);
    eval_note_evidence(c, e, v);
    return v;
}

int eval_lossless_mask(const struct eval_ctx *c)
{
    if (c->cfg && c->cfg->pfc_enabled.set)
        return (int)c->cfg->pfc_enabled.v;
    if (c->peer && c->peer->pfc_enabled.set)
        return (int)c->peer->pfc_enabled.v;
    return -1;
}

static struct value compare(enum bin_op op, struct value a, struct value b)
{
    if (a.kind == V_STR) {
        bool eq = !strcmp(a.str, b.str);
        return value_bool(op == OP_EQ ? eq : !eq);
    }
    switch (op) {
    case OP_EQ: return value_bool(a.num == b.num);
    case OP_NE: return value_bool(a.num != b.num);
    case OP_LT: return value_bool(a.num < b.num);
    case OP_LE: return value_bool(a.num <= b.num);
    case OP_GT: return value_bool(a.num > b.num);
    default: return value_bool(a.num >= b.num);
    }
}

static struct value binary(const struct rule_expr *e, struct eval_ctx *c)
{
    struct value a = expr_eval(e->a, c);
    if (e->op == OP_AND || e->op == OP_OR) {
        bool short_value = e->op == OP_OR; /* true decides an or, false an and */
        if (a.kind == V_BOOL && (a.num != 0) == short_value)
            return a;
        struct value b = expr_eval(e->b, c);
        if (b.kind == V_BOOL && (b.num != 0) == short_value)
            return b;
        if (a.kind == V_UNKNOWN || b.kind == V_UNKNOWN)
            return value_unknown();
        return value_bool(!short_value);
    }
    struct value b = expr_eval(e->b, c);
    if (a.kind == V_UNKNOWN || b.kind == V_UNKNOWN)
        return value_unknown();
    switch (e->op) {
    case OP_ADD: return value_number(a.num + b.num);
    case OP_SUB: return value_number(a.num - b.num);
    case OP_MUL: return value_number(a.num * b.num);
    case OP_DIV:
    case OP_MOD:
        if (b.num == 0) {
            c->div_by_zero = true;
            eval_note_missing(c, "division by zero");
            return value_unknown();
        }
        return value_number(e->op == OP_DIV ? a.num / b.num : fmod(a.num, b.num));
    default: return compare(e->op, a, b);
    }
}

struct value expr_eval(const struct rule_expr *e, struct eval_ctx *c)
{
    switch (e->kind) {
    case N_NUM: return value_number(e->num);
    case N_BOOL: return value_bool(e->num != 0);
    case N_STR: return (struct value){ .kind = V_STR, .str = e->str };
    case N_PRIO: return c->prio >= 0 ? value_number(c->prio) : value_unknown();
    case N_QP:
        if (c->has_qp)
            return value_number(c->qp);
        eval_note_missing(c, "a QP (this port has no per-QP series)");
        return value_unknown();
    case N_TC:
        if (c->prio >= 0 && c->cfg && c->cfg->prio2tc[c->prio].set)
            return value_number((double)c->cfg->prio2tc[c->prio].v);
        eval_note_missing(c, "prio2tc.$prio");
        return value_unknown();
    case N_LOSSLESS: {
        int mask = eval_lossless_mask(c);
        if (mask < 0) {
            eval_note_missing(c, "lossless (pfc.enabled here or on the partner)");
            return value_unknown();
        }
        return value_number(mask);
    }
    case N_CONFIG: return config_leaf(e, c);
    case N_METRIC: return metric_leaf(e, c);
    case N_EVENT: return event_leaf(e, c);
    case N_CALL: return rule_func_call(e, c);
    case N_NEG: {
        struct value v = expr_eval(e->a, c);
        return v.kind == V_NUM ? value_number(-v.num) : v;
    }
    case N_NOT: {
        struct value v = expr_eval(e->a, c);
        return v.kind == V_BOOL ? value_bool(!v.num) : v;
    }
    case N_BIN: return binary(e, c);
    }
    return value_unknown();
}
