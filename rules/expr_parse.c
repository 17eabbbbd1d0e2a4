/* The rule expression parser: tokens, precedence climbing, then name resolution and type checks,
 * so that a rule file with an unknown metric, function or config path, or a type error, is
 * refused at load with file:line:col. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_ast.h"
#include "units.h"

enum tok_kind {
    TK_END,
    TK_NUM,
    TK_STR,
    TK_IDENT,
    TK_VAR,
    TK_LPAREN,
    TK_RPAREN,
    TK_LBRACK,
    TK_RBRACK,
    TK_LBRACE,
    TK_RBRACE,
    TK_COMMA,
    TK_DOT,
    TK_ASSIGN,
    TK_EQ,
    TK_NE,
    TK_LT,
    TK_LE,
    TK_GT,
    TK_GE,
    TK_PLUS,
    TK_MINUS,
    TK_STAR,
    TK_SLASH,
    TK_PERCENT,
};

struct token {
    enum tok_kind kind;
    const char *start;
    size_t len;
    int line, col;
};

struct parser {
    const char *src, *p;
    int line, col;
    struct token tok;
    struct parse_ctx *pc;
    struct dcb_err *err;
    bool failed;
    int depth;
};

#define MAX_DEPTH 64

static bool fail_at(struct parser *ps, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool fail_at(struct parser *ps, int line, int col, const char *fmt, ...)
{
    if (ps->failed)
        return false;
    ps->failed = true;
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    dcb_err_set(ps->err, DCB_E_INVAL, "%s:%d:%d: %s", ps->pc->file, line, col, msg);
    return false;
}

#define FAIL(ps, ...) fail_at((ps), (ps)->tok.line, (ps)->tok.col, __VA_ARGS__)

/* ---- tokens ---------------------------------------------------------------------------------- */

static void advance_char(struct parser *ps)
{
    if (*ps->p == '\n') {
        ps->line++;
        ps->col = 1;
    } else {
        ps->col++;
    }
    ps->p++;
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '-';
}

static void next_token(struct parser *ps)
{
    while (*ps->p && isspace((unsigned char)*ps->p))
        advance_char(ps);
    struct token *t = &ps->tok;
    t->start = ps->p;
    t->line = ps->line;
    t->col = ps->col;
    char c = *ps->p;
    if (!c) {
        t->kind = TK_END;
        t->len = 0;
        return;
    }
    if (isdigit((unsigned char)c)) {
        while (isdigit((unsigned char)*ps->p))
            advance_char(ps);
        if (*ps->p == '.' && isdigit((unsigned char)ps->p[1])) {
            advance_char(ps);
            while (isdigit((unsigned char)*ps->p))
                advance_char(ps);
        }
        if (*ps->p == 'x' && ps->p - t->start == 1 && c == '0')
            for (advance_char(ps); isxdigit((unsigned char)*ps->p);)
                advance_char(ps);
        while (isalpha((unsigned char)*ps->p) || (unsigned char)*ps->p >= 0x80)
            advance_char(ps); /* a unit: KB, G, ms, µs */
        t->kind = TK_NUM;
    } else if (isalpha((unsigned char)c) || c == '_') {
        while (ident_char(*ps->p))
            advance_char(ps);
        t->kind = TK_IDENT;
    } else if (c == '$') {
        advance_char(ps);
        while (ident_char(*ps->p))
            advance_char(ps);
        t->kind = TK_VAR;
    } else if (c == '"') {
        advance_char(ps);
        while (*ps->p && *ps->p != '"' && *ps->p != '\n')
            advance_char(ps);
        if (*ps->p != '"') {
            t->len = (size_t)(ps->p - t->start);
            fail_at(ps, t->line, t->col, "unterminated string");
            t->kind = TK_END;
            return;
        }
        advance_char(ps);
        t->kind = TK_STR;
    } else {
        static const struct {
            const char *text;
            enum tok_kind kind;
        } ops[] = {
            { "==", TK_EQ },    { "!=", TK_NE },    { "<=", TK_LE },    { ">=", TK_GE },
            { "<", TK_LT },     { ">", TK_GT },     { "=", TK_ASSIGN }, { "(", TK_LPAREN },
            { ")", TK_RPAREN }, { "[", TK_LBRACK }, { "]", TK_RBRACK }, { "{", TK_LBRACE },
            { "}", TK_RBRACE }, { ",", TK_COMMA },  { ".", TK_DOT },    { "+", TK_PLUS },
            { "-", TK_MINUS },  { "*", TK_STAR },   { "/", TK_SLASH },  { "%", TK_PERCENT },
        };
        for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
            size_t n = strlen(ops[i].text);
            if (!strncmp(ps->p, ops[i].text, n)) {
                for (size_t k = 0; k < n; k++)
                    advance_char(ps);
                t->kind = ops[i].kind;
                t->len = n;
                return;
            }
        }
        t->len = 1;
        fail_at(ps, t->line, t->col, "unexpected character '%c'", c);
        t->kind = TK_END;
        return;
    }
    t->len = (size_t)(ps->p - t->start);
}

static bool tok_is(const struct parser *ps, const char *word)
{
    return ps->tok.kind == TK_IDENT && ps->tok.len == strlen(word) &&
           !strncmp(ps->tok.start, word, ps->tok.len);
}

static void tok_text(const struct token *t, char *buf, size_t len)
{
    size_t n = t->len < len - 1 ? t->len : len - 1;
    memcpy(buf, t->start, n);
    buf[n] = '\0';
}

static bool expect(struct parser *ps, enum tok_kind kind, const char *what)
{
    if (ps->tok.kind != kind) {
        char got[32];
        tok_text(&ps->tok, got, sizeof(got));
        return FAIL(ps, "expected %s, found '%s'", what, ps->tok.kind == TK_END ? "end" : got);
    }
    next_token(ps);
    return true;
}

/* ---- nodes ----------------------------------------------------------------------------------- */

static struct rule_expr *node(struct parser *ps, enum node_kind kind, enum value_type type,
                              const struct token *at)
{
    struct rule_expr *e = calloc(1, sizeof(*e));
    if (!e) {
        fail_at(ps, at->line, at->col, "out of memory");
        return NULL;
    }
    e->kind = kind;
    e->type = type;
    e->line = at->line;
    e->col = at->col;
    e->event = EVENT_KIND_NONE;
    e->metric = METRIC_NONE;
    return e;
}

void expr_free(struct rule_expr *e)
{
    if (!e)
        return;
    free(e->str);
    expr_free(e->index);
    expr_free(e->prio_e);
    expr_free(e->queue_e);
    for (int i = 0; i < e->nargs; i++)
        expr_free(e->args[i]);
    expr_free(e->a);
    expr_free(e->b);
    free(e);
}

static const char *type_name(enum value_type t)
{
    return t == T_NUM ? "number" : t == T_BOOL ? "bool" : "string";
}

static bool need_type(struct parser *ps, const struct rule_expr *e, enum value_type t,
                      const char *where)
{
    if (e->type == t)
        return true;
    return fail_at(ps, e->line, e->col, "type error: %s needs a %s, '%s' is a %s", where,
                   type_name(t), e->text, type_name(e->type));
}

/* A number with an optional unit: bytes (KB, KiB), speeds (G), durations (ms -> ns). */
static bool number_value(struct parser *ps, const struct token *t, double *out)
{
    char text[64];
    tok_text(t, text, sizeof(text));
    size_t digits = strspn(text, "0123456789.x");
    if (!strncmp(text, "0x", 2)) {
        *out = (double)strtoull(text, NULL, 16);
        return true;
    }
    const char *unit = text + digits;
    struct dcb_err e;
    uint64_t u;
    int64_t ns;
    if (!*unit) {
        *out = strtod(text, NULL);
        return true;
    }
    size_t ul = strlen(unit);
    if (unit[ul - 1] == 'B' && dcb_parse_bytes(text, &u, &e) == 0) {
        *out = (double)u;
        return true;
    }
    if (dcb_parse_duration(text, &ns, &e) == 0) {
        *out = (double)ns;
        return true;
    }
    if (dcb_parse_speed(text, &u, &e) == 0) {
        *out = (double)u;
        return true;
    }
    return fail_at(ps, t->line, t->col,
                   "'%s': unknown unit '%s' (bytes KB/KiB/MB, speeds "
                   "G/M, durations ns/us/ms/s)",
                   text, unit);
}

static struct rule_expr *parse_expr(struct parser *ps);

static bool metric_lookup_ok(const char *name)
{
    return metric_lookup(name) != METRIC_NONE;
}

/* ---- names: metrics, events, config paths ------------------------------------------------- */

struct path {
    char text[EXPR_TEXT_MAX];    /* as written, for messages */
    char pattern[EXPR_TEXT_MAX]; /* '#' where an index is */
    struct rule_expr *index;
    bool dynamic; /* an index segment is there */
};

static bool path_append(struct parser *ps, struct path *p, const char *seg, bool is_index_text)
{
    size_t tl = strlen(p->text), pl = strlen(p->pattern);
    const char *sep = tl ? "." : "";
    if (tl + strlen(seg) + 2 >= sizeof(p->text) || pl + strlen(seg) + 2 >= sizeof(p->pattern))
        return FAIL(ps, "name too long");
    snprintf(p->text + tl, sizeof(p->text) - tl, "%s%s", sep, seg);
    snprintf(p->pattern + pl, sizeof(p->pattern) - pl, "%s%s", sep, is_index_text ? "#" : seg);
    return true;
}

static bool set_index(struct parser *ps, struct path *p, struct rule_expr *index)
{
    if (p->index) {
        expr_free(index);
        return FAIL(ps, "'%s': only one index per config path", p->text);
    }
    p->index = index;
    p->dynamic = true;
    return true;
}

/* The segments after the first name: .name, .N, .$prio, .$tc, [expr]. */
static bool parse_path_rest(struct parser *ps, struct path *p)
{
    for (;;) {
        if (ps->tok.kind == TK_DOT) {
            next_token(ps);
            char seg[64];
            tok_text(&ps->tok, seg, sizeof(seg));
            struct token at = ps->tok;
            if (ps->tok.kind == TK_IDENT) {
                next_token(ps);
                if (!path_append(ps, p, seg, false))
                    return false;
            } else if (ps->tok.kind == TK_NUM || ps->tok.kind == TK_VAR) {
                next_token(ps);
                struct rule_expr *ix;
                if (at.kind == TK_NUM) {
                    ix = node(ps, N_NUM, T_NUM, &at);
                    if (ix)
                        ix->num = strtod(seg, NULL);
                } else if (!strcmp(seg, "$prio") || !strcmp(seg, "$tc")) {
                    ix = node(ps, seg[1] == 'p' ? N_PRIO : N_TC, T_NUM, &at);
                    ps->pc->uses_prio = true;
                } else {
                    return fail_at(ps, at.line, at.col, "unknown variable '%s' ($prio, $tc)", seg);
                }
                if (!ix)
                    return false;
                if (!path_append(ps, p, seg, true))
                    return expr_free(ix), false;
                if (!set_index(ps, p, ix))
                    return false;
                snprintf(ix->text, sizeof(ix->text), "%s", seg);
            } else {
                return FAIL(ps, "expected a name after '.'");
            }
        } else if (ps->tok.kind == TK_LBRACK && !metric_lookup_ok(p->text) &&
                   dcb_event_kind_lookup(p->text) == EVENT_KIND_NONE) {
            next_token(ps);
            struct rule_expr *ix = parse_expr(ps);
            if (!ix || !need_type(ps, ix, T_NUM, "an index"))
                return expr_free(ix), false;
            if (!expect(ps, TK_RBRACK, "']'") || !path_append(ps, p, "[]", true))
                return expr_free(ix), false;
            if (!set_index(ps, p, ix)) /* it frees ix when it refuses it */
                return false;
            /* the text shows the index as [..]: keep it readable in evidence */
            size_t tl = strlen(p->text);
            if (tl >= 3)
                snprintf(p->text + tl - 3, sizeof(p->text) - tl + 3, "[%s]", ix->text);
        } else {
            return true;
        }
    }
}

/* {prio=N|$prio|$lossless, queue=N|$tc} after a metric or event name. */
static bool parse_labels(struct parser *ps, struct rule_expr *e)
{
    if (ps->tok.kind != TK_LBRACE)
        return true;
    next_token(ps);
    while (ps->tok.kind != TK_RBRACE) {
        bool is_prio = tok_is(ps, "prio");
        if (!is_prio && !tok_is(ps, "queue"))
            return FAIL(ps, "labels are prio and queue");
        next_token(ps);
        if (!expect(ps, TK_ASSIGN, "'='"))
            return false;
        struct rule_expr *v;
        char val[32];
        tok_text(&ps->tok, val, sizeof(val));
        if (ps->tok.kind == TK_VAR && !strcmp(val, "$lossless")) {
            /* one instance per lossless priority, as $prio */
            v = node(ps, N_PRIO, T_NUM, &ps->tok);
            ps->pc->uses_prio = true;
            next_token(ps);
        } else {
            v = parse_expr(ps);
        }
        if (!v || !need_type(ps, v, T_NUM, "a label"))
            return expr_free(v), false;
        snprintf(v->text, sizeof(v->text), "%s", val);
        struct rule_expr **slot = is_prio ? &e->prio_e : &e->queue_e;
        if (*slot) {
            expr_free(v);
            return FAIL(ps, "label given twice");
        }
        *slot = v;
        if (ps->tok.kind == TK_COMMA)
            next_token(ps);
        else if (ps->tok.kind != TK_RBRACE)
            return FAIL(ps, "expected ',' or '}' in labels");
    }
    next_token(ps);
    return true;
}

static bool parse_window(struct parser *ps, struct rule_expr *e)
{
    if (ps->tok.kind != TK_LBRACK)
        return true;
    next_token(ps);
    char text[32];
    tok_text(&ps->tok, text, sizeof(text));
    struct dcb_err derr;
    if (ps->tok.kind != TK_NUM || dcb_parse_duration(text, &e->window_ns, &derr) < 0 ||
        e->window_ns <= 0)
        return FAIL(ps, "a window is a duration such as [60s] or [5m], not '%s'", text);
    next_token(ps);
    size_t tl = strlen(e->text);
    snprintf(e->text + tl, sizeof(e->text) - tl, "[%s]", text);
    return expect(ps, TK_RBRACK, "']'");
}

/* A name: peer.<config>, a metric selector, an event kind (inside count), or a config path. */
static struct rule_expr *parse_name(struct parser *ps, bool in_count)
{
    struct token at = ps->tok;
    struct path p = { 0 };
    char first[64];
    tok_text(&ps->tok, first, sizeof(first));
    next_token(ps);
    bool peer = !strcmp(first, "peer") && ps->tok.kind == TK_DOT;
    if (peer) {
        next_token(ps);
        if (ps->tok.kind != TK_IDENT) {
            FAIL(ps, "expected a config path after 'peer.'");
            return NULL;
        }
        tok_text(&ps->tok, first, sizeof(first));
        next_token(ps);
    }
    if (!path_append(ps, &p, first, false) || !parse_path_rest(ps, &p)) {
        expr_free(p.index);
        return NULL;
    }
    enum metric_id m = peer || p.dynamic ? METRIC_NONE : metric_lookup(p.text);
    enum dcb_event_kind ek = peer || p.dynamic ? EVENT_KIND_NONE : dcb_event_kind_lookup(p.text);
    struct rule_expr *e = NULL;
    if (m != METRIC_NONE) {
        e = node(ps, N_METRIC, T_NUM, &at);
        if (!e)
            return NULL;
        e->metric = m;
        e->agg = AGG_LAST;
        snprintf(e->text, sizeof(e->text), "%s", p.text);
        if (!parse_labels(ps, e) || !parse_window(ps, e))
            return expr_free(e), NULL;
        const struct metric_info *mi = metric_info(m);
        bool wants_prio = mi->labels == LABELS_PRIO;
        bool wants_queue = mi->labels == LABELS_QUEUE;
        if (mi->labels == LABELS_QP) { /* the instance's QP, never written */
            if (ps->pc->scope != SCOPE_QP || e->prio_e || e->queue_e) {
                fail_at(ps, at.line, at.col,
                        "'%s' is per QP: read it in scope qp, without "
                        "labels",
                        p.text);
                return expr_free(e), NULL;
            }
            e->queue_e = node(ps, N_QP, T_NUM, &at);
            if (!e->queue_e)
                return expr_free(e), NULL;
            return e;
        }
        if (!e->prio_e && wants_prio && ps->pc->scope == SCOPE_PRIORITY) {
            e->prio_e = node(ps, N_PRIO, T_NUM, &at);
            ps->pc->uses_prio = true;
        }
        if (!e->queue_e && wants_queue && ps->pc->scope == SCOPE_PRIORITY) {
            e->queue_e = node(ps, N_TC, T_NUM, &at);
            ps->pc->uses_prio = true;
        }
        if ((wants_prio && !e->prio_e) || (wants_queue && !e->queue_e)) {
            fail_at(ps, at.line, at.col, "'%s' is per %s: give {%s=...} or use scope priority",
                    p.text, wants_prio ? "priority" : "queue", wants_prio ? "prio" : "queue");
            return expr_free(e), NULL;
        }
        if ((e->prio_e && !wants_prio) || (e->queue_e && !wants_queue)) {
            fail_at(ps, at.line, at.col, "'%s' has no %s label", p.text,
                    e->prio_e && !wants_prio ? "prio" : "queue");
            return expr_free(e), NULL;
        }
        return e;
    }
    if (ek != EVENT_KIND_NONE) {
        if (!in_count) {
            fail_at(ps, at.line, at.col, "'%s' is an event kind: use count(%s[window])", p.text,
                    p.text);
            return NULL;
        }
        e = node(ps, N_EVENT, T_NUM, &at);
        if (!e)
            return NULL;
        e->event = ek;
        snprintf(e->text, sizeof(e->text), "%s", p.text);
        if (!parse_labels(ps, e) || !parse_window(ps, e))
            return expr_free(e), NULL;
        if (!e->window_ns) {
            fail_at(ps, at.line, at.col, "count(%s) needs a window: count(%s[5m])", p.text, p.text);
            return expr_free(e), NULL;
        }
        return e;
    }
    /* a config path: the exact field, or a whole array (only as peer_diff's argument) */
    const struct qos_field *f = qos_find_pattern(p.pattern);
    bool whole_array = false;
    if (!f && !p.dynamic) {
        int index = -1;
        f = qos_find_field(p.text, &index);
        if (f && index >= 0) {
            p.index = node(ps, N_NUM, T_NUM, &at);
            if (!p.index)
                return NULL;
            p.index->num = index;
        }
        if (!f) {
            char arr[EXPR_TEXT_MAX + 2];
            snprintf(arr, sizeof(arr), "%s.#", p.pattern);
            f = qos_find_pattern(arr);
            whole_array = f != NULL;
        }
    }
    if (!f || f->type == QF_APP) {
        expr_free(p.index);
        fail_at(ps, at.line, at.col,
                "unknown name '%s%s': not a metric (dcbkit metrics), an "
                "event kind or a config path (dcbkit fabric paths)",
                peer ? "peer." : "", p.text);
        return NULL;
    }
    e = node(ps, N_CONFIG, f->type == QF_ENUM ? T_STR : f->type == QF_BOOL ? T_BOOL : T_NUM, &at);
    if (!e) {
        expr_free(p.index);
        return NULL;
    }
    e->field = f;
    e->peer = peer;
    e->index = p.index;
    e->str = whole_array ? strdup("array") : NULL; /* marks a whole array */
    snprintf(e->text, sizeof(e->text), "%s%s", peer ? "peer." : "", p.text);
    if (f->count && !e->index && !whole_array) {
        fail_at(ps, at.line, at.col, "'%s' needs an index", e->text);
        return expr_free(e), NULL;
    }
    return e;
}

static bool is_whole_array(const struct rule_expr *e)
{
    return e->kind == N_CONFIG && e->str && !e->index;
}

static bool check_window_call(struct parser *ps, struct rule_expr *e)
{
    struct rule_expr **a = e->args;
    if (e->nargs == 2 && (e->func == F_MAX || e->func == F_MIN)) {
        /* max(a, b) and min(a, b) of two numbers */
        return need_type(ps, a[0], T_NUM, e->text) && need_type(ps, a[1], T_NUM, e->text);
    }
    if (e->nargs != 1 || a[0]->kind != N_METRIC)
        return fail_at(ps, e->line, e->col,
                       "%s() takes a metric selector such as "
                       "%s(pfc.rx_pause{prio=3}[60s])",
                       e->text, e->text);
    if (e->func != F_LAST && !a[0]->window_ns)
        return fail_at(ps, e->line, e->col, "%s(%s) needs a window, such as [60s]", e->text,
                       a[0]->text);
    if ((e->func == F_RATE || e->func == F_DELTA || e->func == F_BUSY_RATE) &&
        metric_info(a[0]->metric)->kind != METRIC_COUNTER)
        return fail_at(ps, e->line, e->col,
                       "type error: %s() needs a counter; %s is a "
                       "gauge (use avg, max, min or last)",
                       e->text, a[0]->text);
    a[0]->agg = e->func == F_RATE        ? AGG_RATE
                : e->func == F_BUSY_RATE ? AGG_BUSY_RATE
                : e->func == F_DELTA     ? AGG_DELTA
                : e->func == F_AVG       ? AGG_AVG
                : e->func == F_MAX       ? AGG_MAX
                : e->func == F_MIN       ? AGG_MIN
                                         : AGG_LAST;
    return true;
}

static bool check_call(struct parser *ps, struct rule_expr *e)
{
    struct rule_expr **a = e->args;
    if (rule_func_of_window(e->func))
        return check_window_call(ps, e);
    switch (e->func) {
    case F_COUNT:
        if (a[0]->kind != N_EVENT)
            return fail_at(ps, e->line, e->col,
                           "count() takes an event kind with a window, "
                           "such as count(pause_storm[5m])");
        return true;
    case F_DEFINED: return true;
    case F_COALESCE:
        for (int i = 1; i < e->nargs; i++)
            if (a[i]->type != a[0]->type)
                return fail_at(ps, a[i]->line, a[i]->col,
                               "type error: coalesce() arguments "
                               "must have one type");
        e->type = a[0]->type;
        return true;
    case F_IF:
        if (!need_type(ps, a[0], T_BOOL, e->text))
            return false;
        if (a[2]->type != a[1]->type)
            return fail_at(ps, a[2]->line, a[2]->col,
                           "type error: if() branches must have "
                           "one type");
        e->type = a[1]->type;
        return true;
    case F_PEER_DIFF:
    case F_PEER_DIFF_FIRST:
        if (!is_whole_array(a[0]) || a[0]->peer)
            return fail_at(ps, e->line, e->col, "%s() takes a config array such as dscp2prio",
                           e->text);
        return true;
    case F_STR:
        if (!need_type(ps, a[0], T_NUM, e->text))
            return false;
        e->type = T_STR;
        return true;
    case F_ROLE:
    case F_PEER_ROLE:
    case F_LLDP_PEER:
    case F_FABRIC_PEER:
    case F_ALIAS_CONFLICT: e->type = T_STR; return true;
    case F_PAUSE_VICTIM:
    case F_UPLINK: e->type = T_BOOL; return true;
    case F_DEVIATES:
        if (a[0]->kind != N_CONFIG || a[0]->peer || a[0]->index)
            return fail_at(ps, e->line, e->col,
                           "deviates() takes this port's config field or "
                           "array, such as deviates(pfc.enabled) or deviates(dscp2prio)");
        e->type = T_BOOL;
        return true;
    case F_PORTS_COUNT:
    case F_PORTS_SUM:
    case F_PORTS_AVG:
    case F_PORTS_MAX:
        if (!need_type(ps, a[0], e->func == F_PORTS_COUNT ? T_BOOL : T_NUM, e->text) ||
            (e->nargs == 2 && !need_type(ps, a[1], T_BOOL, e->text)))
            return false;
        return true;
    case F_AT_PEER: /* any type: the partner's value of it */ e->type = a[0]->type; return true;
    default:
        for (int i = 0; i < e->nargs; i++)
            if (!need_type(ps, a[i], T_NUM, e->text))
                return false;
        return true;
    }
}

static void call_text(struct rule_expr *e, const char *name, const char *from, const char *to)
{
    const size_t room = sizeof(e->text) - 5; /* a space, a character, "...", ")", NUL */
    size_t o = (size_t)snprintf(e->text, sizeof(e->text), "%s(", name);
    bool space = false, cut = false;
    for (const char *p = from; p < to; p++) {
        if (*p == ' ' || *p == '\t' || *p == '\n') {
            space = true;
            continue;
        }
        if (o + 2 > room) {
            cut = true;
            break;
        }
        if (space && o > strlen(name) + 1)
            e->text[o++] = ' ';
        space = false;
        e->text[o++] = *p;
    }
    if (cut)
        memcpy(e->text + o, "...", 3), o += 3;
    e->text[o++] = ')';
    e->text[o] = '\0';
}

static struct rule_expr *parse_call(struct parser *ps, const struct token *at, const char *name)
{
    const struct func_info *fi = rule_func_lookup(name);
    if (!fi) {
        fail_at(ps, at->line, at->col, "unknown function '%s'", name);
        return NULL;
    }
    struct rule_expr *e = node(ps, N_CALL, T_NUM, at);
    if (!e)
        return NULL;
    e->func = fi->id;
    snprintf(e->text, sizeof(e->text), "%s", name);
    if (fi->id == F_DEFINED || fi->id == F_COVERS || fi->id == F_BIT || fi->id == F_DEVIATES)
        e->type = T_BOOL;
    next_token(ps); /* '(' */
    const char *args_start = ps->tok.start;
    while (ps->tok.kind != TK_RPAREN) {
        if (e->nargs == EXPR_ARGS_MAX) {
            FAIL(ps, "too many arguments to %s()", name);
            return expr_free(e), NULL;
        }
        struct rule_expr *arg = ps->tok.kind == TK_IDENT && fi->id == F_COUNT ? parse_name(ps, true)
                                                                              : parse_expr(ps);
        if (!arg)
            return expr_free(e), NULL;
        e->args[e->nargs++] = arg;
        if (ps->tok.kind == TK_COMMA)
            next_token(ps);
        else if (ps->tok.kind != TK_RPAREN) {
            FAIL(ps, "expected ',' or ')'");
            return expr_free(e), NULL;
        }
    }
    if (fi->id >= F_PORTS_COUNT) /* the evidence names the whole call, spaces folded */
        call_text(e, name, args_start, ps->tok.start);
    next_token(ps);
    if (e->nargs < fi->min_args || e->nargs > fi->max_args) {
        fail_at(ps, at->line, at->col, "%s() takes %d%s%d arguments, not %d", name, fi->min_args,
                fi->min_args == fi->max_args ? "" : " to ",
                fi->min_args == fi->max_args ? -1 : fi->max_args, e->nargs);
        return expr_free(e), NULL;
    }
    if (!check_call(ps, e))
        return expr_free(e), NULL;
    return e;
}

static struct rule_expr *parse_primary(struct parser *ps)
{
    struct token at = ps->tok;
    char text[EXPR_TEXT_MAX];
    tok_text(&at, text, sizeof(text));
    struct rule_expr *e = NULL;
    switch (at.kind) {
    case TK_NUM:
        e = node(ps, N_NUM, T_NUM, &at);
        if (e && !number_value(ps, &at, &e->num))
            return expr_free(e), NULL;
        next_token(ps);
        break;
    case TK_STR:
        e = node(ps, N_STR, T_STR, &at);
        if (e && !(e->str = strndup(at.start + 1, at.len - 2)))
            return expr_free(e), NULL;
        next_token(ps);
        break;
    case TK_VAR:
        if (strcmp(text, "$prio") && strcmp(text, "$tc")) {
            FAIL(ps, "unknown variable '%s' ($prio, $tc)", text);
            return NULL;
        }
        e = node(ps, text[1] == 'p' ? N_PRIO : N_TC, T_NUM, &at);
        ps->pc->uses_prio = true;
        next_token(ps);
        break;
    case TK_LPAREN:
        next_token(ps);
        e = parse_expr(ps);
        if (e && !expect(ps, TK_RPAREN, "')'"))
            return expr_free(e), NULL;
        return e;
    case TK_IDENT:
        if (!strcmp(text, "and") || !strcmp(text, "or")) {
            FAIL(ps, "expected a value, found '%s'", text);
            return NULL;
        }
        if (!strcmp(text, "true") || !strcmp(text, "false")) {
            e = node(ps, N_BOOL, T_BOOL, &at);
            if (e)
                e->num = text[0] == 't';
            next_token(ps);
        } else if (!strcmp(text, "lossless")) {
            e = node(ps, N_LOSSLESS, T_NUM, &at);
            next_token(ps);
        } else {
            const char *after = ps->p;
            while (*after == ' ' || *after == '\t')
                after++;
            if (*after == '(') {
                next_token(ps);
                return parse_call(ps, &at, text);
            }
            return parse_name(ps, false);
        }
        break;
    default:
        FAIL(ps, "expected a value, found '%s'", at.kind == TK_END ? "end" : text);
        return NULL;
    }
    if (e)
        snprintf(e->text, sizeof(e->text), "%s", text);
    return e;
}

static struct rule_expr *parse_unary(struct parser *ps)
{
    struct token at = ps->tok;
    bool neg = at.kind == TK_MINUS, inv = tok_is(ps, "not");
    if (!neg && !inv)
        return parse_primary(ps);
    if (++ps->depth > MAX_DEPTH) {
        FAIL(ps, "expression nested too deeply");
        return NULL;
    }
    next_token(ps);
    struct rule_expr *a = parse_unary(ps);
    ps->depth--;
    if (!a || !need_type(ps, a, neg ? T_NUM : T_BOOL, neg ? "'-'" : "'not'"))
        return expr_free(a), NULL;
    struct rule_expr *e = node(ps, neg ? N_NEG : N_NOT, a->type, &at);
    if (!e)
        return expr_free(a), NULL;
    e->a = a;
    snprintf(e->text, sizeof(e->text), "%s%.88s", neg ? "-" : "not ", a->text);
    return e;
}

struct op_info {
    int prec;
    enum bin_op op;
};

static bool binary_op(const struct parser *ps, struct op_info *oi)
{
    switch (ps->tok.kind) {
    case TK_STAR: *oi = (struct op_info){ 6, OP_MUL }; return true;
    case TK_SLASH: *oi = (struct op_info){ 6, OP_DIV }; return true;
    case TK_PERCENT: *oi = (struct op_info){ 6, OP_MOD }; return true;
    case TK_PLUS: *oi = (struct op_info){ 5, OP_ADD }; return true;
    case TK_MINUS: *oi = (struct op_info){ 5, OP_SUB }; return true;
    case TK_LT: *oi = (struct op_info){ 4, OP_LT }; return true;
    case TK_LE: *oi = (struct op_info){ 4, OP_LE }; return true;
    case TK_GT: *oi = (struct op_info){ 4, OP_GT }; return true;
    case TK_GE: *oi = (struct op_info){ 4, OP_GE }; return true;
    case TK_EQ: *oi = (struct op_info){ 3, OP_EQ }; return true;
    case TK_NE: *oi = (struct op_info){ 3, OP_NE }; return true;
    default:
        if (tok_is(ps, "and")) {
            *oi = (struct op_info){ 2, OP_AND };
            return true;
        }
        if (tok_is(ps, "or")) {
            *oi = (struct op_info){ 1, OP_OR };
            return true;
        }
        return false;
    }
}

static const char *op_text(enum bin_op op)
{
    static const char *const names[] = { "+", "-",  "*", "/",  "%",   "==", "!=",
                                         "<", "<=", ">", ">=", "and", "or" };
    return names[op];
}

static bool check_binary(struct parser *ps, struct rule_expr *e)
{
    struct rule_expr *a = e->a, *b = e->b;
    const char *op = op_text(e->op);
    if (e->op <= OP_MOD) {
        e->type = T_NUM;
        return need_type(ps, a, T_NUM, op) && need_type(ps, b, T_NUM, op);
    }
    if (e->op == OP_AND || e->op == OP_OR) {
        e->type = T_BOOL;
        return need_type(ps, a, T_BOOL, op) && need_type(ps, b, T_BOOL, op);
    }
    e->type = T_BOOL;
    if (a->type != b->type)
        return fail_at(ps, e->line, e->col, "type error: '%s' compares a %s with a %s", op,
                       type_name(a->type), type_name(b->type));
    if (a->type != T_NUM && e->op != OP_EQ && e->op != OP_NE)
        return fail_at(ps, e->line, e->col, "type error: '%s' orders numbers only", op);
    return true;
}

static struct rule_expr *parse_binary(struct parser *ps, int min_prec)
{
    if (++ps->depth > MAX_DEPTH) {
        FAIL(ps, "expression nested too deeply");
        return NULL;
    }
    struct rule_expr *lhs = parse_unary(ps);
    struct op_info oi;
    while (lhs && binary_op(ps, &oi) && oi.prec >= min_prec) {
        struct token at = ps->tok;
        next_token(ps);
        struct rule_expr *rhs = parse_binary(ps, oi.prec + 1);
        if (!rhs)
            return expr_free(lhs), NULL;
        struct rule_expr *e = node(ps, N_BIN, T_NUM, &at);
        if (!e) {
            expr_free(rhs);
            return expr_free(lhs), NULL;
        }
        e->op = oi.op;
        e->a = lhs;
        e->b = rhs;
        snprintf(e->text, sizeof(e->text), "%.40s %s %.40s", lhs->text, op_text(oi.op), rhs->text);
        lhs = e;
        if (!check_binary(ps, e))
            return expr_free(lhs), NULL;
    }
    ps->depth--;
    return lhs;
}

static struct rule_expr *parse_expr(struct parser *ps)
{
    return parse_binary(ps, 1);
}

struct rule_expr *expr_parse(const char *text, struct parse_ctx *pc, struct dcb_err *err)
{
    struct parser ps = { .src = text,
                         .p = text,
                         .line = pc->line,
                         .col = pc->col,
                         .pc = pc,
                         .err = err };
    next_token(&ps);
    struct rule_expr *e = ps.failed ? NULL : parse_expr(&ps);
    if (e && ps.tok.kind != TK_END) {
        char got[32];
        tok_text(&ps.tok, got, sizeof(got));
        FAIL(&ps, "unexpected '%s' after the expression", got);
    }
    if (ps.failed) {
        expr_free(e);
        return NULL;
    }
    return e;
}
