/* The rules engine: rule files (rules/README.md documents the language), loaded once and checked
 * (names, functions, types) at load, then evaluated over an evidence source: the store's samples,
 * events and config snapshots (SQLite or the live ring), or a fabric file's intended config.
 *
 * Values are three-valued: a number, a bool, a string, or unknown. Unknown propagates through
 * arithmetic and comparisons; `false and unknown` is false, `true or unknown` is true. A rule
 * fires only when its expression is true, never on unknown; what it lacked is kept for -v. */
#ifndef DCB_RULES_H
#define DCB_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "evidence.h"

enum rule_severity { RULE_INFO, RULE_WARN, RULE_CRIT };
enum rule_scope { SCOPE_FABRIC, SCOPE_DEVICE, SCOPE_PORT, SCOPE_PRIORITY, SCOPE_QP };
/* Where a finding sits in a pause tree: the root, whose own congestion (or config) is the cause,
 * or a victim, paused only because something downstream is congested. */
enum finding_cause { CAUSE_ROOT, CAUSE_VICTIM };

struct rule_expr; /* the checked expression tree (rules_ast.h) */

#define RULE_ID_MAX 64
#define RULE_PROFILES_MAX 4
#define RULE_ALSO_MAX 2 /* changes that go with the knob's (`also`) */

/* Text with {expr} placeholders, each parsed at load. */
struct rule_template {
    char *text;
    struct rule_expr **exprs;
    size_t n;
};

struct rule {
    char id[RULE_ID_MAX];
    enum rule_severity severity;
    double confidence; /* 0..1 */
    enum rule_scope scope;
    bool all_prios;        /* priority scope: every priority, not just the lossless ones */
    bool fabric_prios;     /* fabric scope using $prio: one instance per priority that
                            * is lossless on some port (every one with all_prios) */
    bool cause_pause_tree; /* `cause = pause-tree`: root or victim by the pause tree of the
                            * instance's priority; otherwise every finding is a root */
    struct rule_expr *when;
    int64_t for_ns;
    struct rule_template message;
    struct rule_template knob; /* a dotted config path; may hold $prio, $tc and {expr} */
    char direction[160];
    struct rule_expr *propose; /* NULL when the rule proposes nothing */
    struct {                   /* also = PATH = EXPR: set together with the knob */
        struct rule_template knob;
        struct rule_expr *propose;
    } also[RULE_ALSO_MAX];
    int nalso;
    char *reference;
    char *unless_profile[RULE_PROFILES_MAX]; /* --profile names that switch it off */
    char file[256];
    int line;
};

struct rule_set {
    struct rule *rules;
    size_t n, cap;
};

void rule_set_init(struct rule_set *rs);
void rule_set_free(struct rule_set *rs);
/* Parses and checks rules; errors are "file:line:col: message" (DCB_E_INVAL). A rule id that is
 * already loaded is an error too. */
int rule_set_load_text(struct rule_set *rs, const char *text, size_t len, const char *name,
                       struct dcb_err *err);
int rule_set_load_file(struct rule_set *rs, const char *path, struct dcb_err *err);
/* Every *.rules file of dir, in name order. */
int rule_set_load_dir(struct rule_set *rs, const char *dir, struct dcb_err *err);
/* The catalog: $DCBKIT_RULES, <bin>/../share/dcbkit/rules, or the source tree's rules/catalog.
 * -1 when none is found. */
int rules_default_dir(char *buf, size_t len);
/* The catalog, then the *.rules files of each extra folder. */
int rule_set_load_catalog(struct rule_set *rs, const char *const *extra_dirs, int nextra,
                          struct dcb_err *err);

/* ---- evaluation ---------------------------------------------------------------------------- */

#define FINDING_TEXT_MAX 512
#define FINDING_EVIDENCE_MAX 12

struct finding_evidence {
    char name[96];
    char value[64];
};

/* What the replay engine measured with and without a finding's proposed change. */
struct finding_figures {
    double pause_us;       /* PFC pause time, every port and priority */
    double marks, drops;   /* ECN marks; packets dropped (headroom, queues, WRED, watchdog) */
    double watchdog_drops; /* of drops, the PFC watchdog's: it drops on purpose, to end a storm */
    double throughput_bps; /* the flows' goodput, summed */
    double fct_p99_ns;     /* -1: no flow finished */
    double iter_p99_ns;    /* ring all-reduce iterations; -1: none */
};

struct finding_verified {
    bool done;        /* replayed with and without the change */
    bool improved;    /* false: the advice was demoted */
    bool tradeoff;    /* improved, but it costs drops, throughput or FCT */
    bool cached;      /* both runs came from the replay cache */
    char change[320]; /* knob=value [path=value...], as the replay applied them */
    char note[448];   /* the verdict, or why the finding could not be verified */
    struct finding_figures before, after;
};

struct finding {
    const struct rule *rule;
    enum rule_severity severity; /* the rule's, one lower when replay shows no improvement */
    enum finding_cause cause;
    char paused_by[132]; /* a victim's: the "device:ifname" whose XOFF paused it first; "" */
    char device[64], ifname[64];
    int prio; /* -1 when not per priority */
    int qp;   /* the QP (its number on the port), -1 when not per QP */
    char summary[FINDING_TEXT_MAX];
    char knob[64];
    char proposed[64];             /* "" when the rule proposes nothing or it is unknown */
    char also[RULE_ALSO_MAX][128]; /* "path=value" changes that go with it; "" when unknown */
    size_t nevidence;
    struct finding_evidence evidence[FINDING_EVIDENCE_MAX];
    struct finding_verified verified; /* diagnose --verify; done false otherwise */
};

/* What a rule could not decide on, for -v: the instance and the data it lacked. */
struct rule_undecided {
    const struct rule *rule;
    char device[64], ifname[64];
    int prio;
    int qp; /* -1 when not per QP */
    char missing[256];
    /* "path P not served by D" when what it lacks comes from a path the device does not
     * serve (rules/path_gaps.h); "" otherwise */
    char not_served[320];
};

typedef void (*finding_fn)(void *arg, const struct finding *f);
typedef void (*undecided_fn)(void *arg, const struct rule_undecided *u);

struct rule_run_options {
    const char *profile; /* NULL or e.g. "pfc-only" */
    int64_t now_ns;      /* evaluation time: the end of every window */
    finding_fn on_finding;
    undecided_fn on_undecided; /* NULL: not reported */
    void *arg;
};

struct rule_run_stats {
    uint64_t instances, fired, undecided;
};

/* Evaluates every rule of rs over ev; findings and undecided instances go to the callbacks in
 * rule, then device/port/priority order. 0, or a negative error from the evidence source.
 *
 * Threads: rule_set_run keeps no state between calls and none outside its arguments, so runs
 * may go on in parallel threads. A rule set is only read by it: threads may share one, as long
 * as nobody loads into it or frees it meanwhile. An evidence source is not safe to share: each
 * thread runs over its own (evidence_store_open on the same store, or one each). The callbacks
 * run on the calling thread, and the finding they get is valid only during the call. */
int rule_set_run(const struct rule_set *rs, const struct evidence *ev,
                 const struct rule_run_options *opt, struct rule_run_stats *stats,
                 struct dcb_err *err);

const char *rule_severity_name(enum rule_severity s);
const char *rule_scope_name(enum rule_scope s);
const char *finding_cause_name(enum finding_cause c);

#endif
