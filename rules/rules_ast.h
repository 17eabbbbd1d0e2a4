/* Internal to rules/: the checked expression tree, its parser and its evaluator. */
#ifndef DCB_RULES_AST_H
#define DCB_RULES_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "evidence.h"
#include "qos_fields.h"
#include "rules.h"

enum value_type { T_NUM, T_BOOL, T_STR };

enum node_kind {
    N_NUM,
    N_STR,
    N_BOOL,
    N_PRIO,     /* $prio: the instance's priority */
    N_TC,       /* $tc: the traffic class of $prio (prio2tc.$prio) */
    N_LOSSLESS, /* lossless: the port's lossless priority mask */
    N_QP,       /* the instance's QP: the qp label of a per-QP metric in qp scope */
    N_CONFIG,   /* a config field, here or on the link partner */
    N_METRIC,   /* a metric selector; agg says how it is read */
    N_EVENT,    /* an event kind with a window, inside count() */
    N_CALL,
    N_NEG,
    N_NOT,
    N_BIN,
};

enum bin_op {
    OP_ADD,
    OP_SUB,
    OP_MUL,
    OP_DIV,
    OP_MOD,
    OP_EQ,
    OP_NE,
    OP_LT,
    OP_LE,
    OP_GT,
    OP_GE,
    OP_AND,
    OP_OR,
};

enum func_id {
    F_RATE,
    F_DELTA,
    F_AVG,
    F_MAX,
    F_MIN,
    F_LAST,
    F_COUNT,
    F_BUSY_RATE,
    F_HEADROOM,
    F_COALESCE,
    F_DEFINED,
    F_COVERS,
    F_BIT,
    F_POPCOUNT,
    F_ABS,
    F_PEER_DIFF,
    F_PEER_DIFF_FIRST,
    F_ETS_SUM,
    F_ROLE,
    F_PEER_ROLE,
    F_DEVIATES,
    F_LLDP_PEER,
    F_FABRIC_PEER,
    F_ALIAS_CONFLICTS,
    F_PAUSE_VICTIM,
    F_UPLINK,
    F_ALIAS_CONFLICT,
    F_APP_DIFF,
    F_IF,
    F_CLEAR_BIT,
    F_SET_BIT,
    F_STR,
    F_DSCP_LOST,
    F_PEER_DSCP_LOST,
    F_TC_LOSSY,
    F_LOWEST_BIT,
    F_HEADROOM_MASK,
    F_PORTS_COUNT,
    F_PORTS_SUM,
    F_PORTS_AVG,
    F_PORTS_MAX,
    F_AT_PEER,
};

/* The functions of a metric window (rate, delta, avg, max, min, last, busy_rate): their argument
 * is a metric selector, whose aggregate they set. max and min of two numbers are not. */
static inline bool rule_func_of_window(enum func_id f)
{
    return f == F_RATE || f == F_DELTA || f == F_AVG || f == F_MAX || f == F_MIN || f == F_LAST ||
           f == F_BUSY_RATE;
}

#define EXPR_ARGS_MAX 4
#define EXPR_TEXT_MAX 96

struct rule_expr {
    enum node_kind kind;
    enum value_type type;
    int line, col;
    char text[EXPR_TEXT_MAX]; /* as written (names, for evidence and -v) */
    double num;
    char *str;
    /* N_CONFIG */
    const struct qos_field *field;
    bool peer;
    struct rule_expr *index; /* NULL for a scalar, or a whole array (peer_diff) */
    /* N_METRIC, N_EVENT */
    enum metric_id metric;
    enum dcb_event_kind event;
    enum evidence_agg agg;
    int64_t window_ns;        /* 0: no window written */
    struct rule_expr *prio_e; /* NULL: none given */
    struct rule_expr *queue_e;
    /* N_CALL */
    enum func_id func;
    int nargs;
    struct rule_expr *args[EXPR_ARGS_MAX];
    /* N_NEG, N_NOT, N_BIN */
    enum bin_op op;
    struct rule_expr *a, *b;
};

/* What the parser needs to know about the rule it is in. */
struct parse_ctx {
    const char *file;
    int line, col; /* where the text starts */
    enum rule_scope scope;
    bool uses_prio; /* set when $prio, $tc or {prio=$lossless} appear */
};

/* Parses and checks text (one expression; NUL-terminated). On error: NULL with err set to
 * "file:line:col: message". */
struct rule_expr *expr_parse(const char *text, struct parse_ctx *pc, struct dcb_err *err);
void expr_free(struct rule_expr *e);

/* ---- evaluation ---------------------------------------------------------------------------- */

enum value_kind { V_UNKNOWN, V_NUM, V_BOOL, V_STR };

struct value {
    enum value_kind kind;
    double num;
    const char *str; /* static or owned by the tree / field table */
    /* unknown because the device said it does not serve the path that gives it: coalesce()
     * keeps it unknown instead of taking a default (a missing Pfcwd table is not "0 storms") */
    bool unserved;
};

static inline struct value value_unknown(void)
{
    return (struct value){ .kind = V_UNKNOWN };
}

static inline struct value value_number(double v)
{
    return (struct value){ .kind = V_NUM, .num = v };
}

static inline struct value value_bool(bool v)
{
    return (struct value){ .kind = V_BOOL, .num = v };
}

/* A value the rule read, kept raw: most instances do not fire, and formatting costs. */
struct pending_evidence {
    const struct rule_expr *e; /* NULL: text below, from a function */
    int index;                 /* the index an indexed config leaf had, -1 */
    struct value v;
    char name[64], text[48];
};

/* A port the evidence knows (the runner lists them once for the ports_* functions). */
struct eval_port {
    char device[64], ifname[64];
};

/* A ports_* value, kept for the next instance on the same device (it does not depend on which
 * of the device's ports asks). */
#define AGG_CACHE_SLOTS 64
struct agg_slot {
    const struct rule_expr *e;
    const char *device; /* NULL at fabric scope; points into the port list */
    int prio;
    int64_t now_ns;
    struct value v;
};

struct tier_map; /* tiers.h */

struct agg_cache {
    struct agg_slot slot[AGG_CACHE_SLOTS];
};

struct eval_ctx {
    const struct evidence *ev;
    const struct eval_port *ports; /* every port of the evidence, by device and interface */
    size_t nports;
    struct agg_cache *agg_cache; /* NULL: none */
    struct tier_map *tiers;      /* the run's device tiers (tiers.h); NULL: none */
    const char *device, *ifname; /* NULL above port scope */
    int prio;                    /* -1 outside priority scope */
    bool has_qp;                 /* qp scope, at one of the port's QPs */
    int qp;
    int64_t now_ns;
    const struct qos_config *cfg, *peer;
    int error; /* a negative code from the evidence source, 0 */
    struct dcb_err *err;
    /* what was looked at, formatted only if the rule fires (evidence_format), and what was
     * missing, for -v */
    bool record;
    size_t npending;
    struct pending_evidence *pending; /* FINDING_EVIDENCE_MAX of them, the caller's */
    char missing[256];
    bool want_missing; /* someone will read missing (-v): otherwise skip the text */
    bool div_by_zero;
};

struct value expr_eval(const struct rule_expr *e, struct eval_ctx *c);
/* A value as text, formatted by the field's unit where e is a config leaf. */
void eval_value_format(const struct rule_expr *e, struct value v, char *buf, size_t len);
/* The lossless priority mask of the context's port, or -1 when unknown. */
int eval_lossless_mask(const struct eval_ctx *c);

/* funcs.c: the function table and the calls. */
struct func_info {
    const char *name;
    enum func_id id;
    int min_args, max_args;
};
const struct func_info *rule_func_lookup(const char *name);
const char *rule_func_name(enum func_id id);
struct value rule_func_call(const struct rule_expr *e, struct eval_ctx *c);
void eval_note_missing(struct eval_ctx *c, const char *what);
/* funcs_config.c: defined(array), whether any entry is known; app_diff(); tc_lossy(tc);
 * dscp_lost(). */
struct value rule_func_config_array_defined(const struct rule_expr *arr, struct eval_ctx *c);
struct value rule_func_app_diff(struct eval_ctx *c);
struct value rule_func_tc_lossy(struct eval_ctx *c, double tc);
struct value rule_func_dscp_lost(struct eval_ctx *c, bool peer_side);
/* A context for reading at another port p: the instance's priority and time, p's config. */
struct eval_ctx eval_ctx_at(const struct eval_ctx *c, const struct eval_port *p);
/* funcs_peer.c: at_peer(x), e the call. */
struct value rule_func_at_peer(const struct rule_expr *e, struct eval_ctx *c);
struct value rule_func_headroom_mask(struct eval_ctx *c);
/* deviates.c: deviates(leaf), e the call. */
struct value deviates(const struct rule_expr *e, const struct rule_expr *leaf, struct eval_ctx *c);
void eval_note_evidence(struct eval_ctx *c, const struct rule_expr *e, struct value v);
/* Evidence that is not one leaf's value (a function's finding). */
void eval_note_text(struct eval_ctx *c, const char *name, const char *value);
/* The pending evidence as the finding shows it. */
size_t evidence_format(const struct eval_ctx *c, struct finding_evidence *out, size_t max);

#endif
