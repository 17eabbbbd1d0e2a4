/* dcbkit diagnose, in named steps: parse the options (diagnose_opts.c), gather the evidence
 * from the one source named into a ring, or read a store in place (diagnose_evidence.c), run
 * the rules, verify the advice when asked (rules/verify.c), print (diagnose_print.c). */
#ifndef DCB_DIAGNOSE_CMD_H
#define DCB_DIAGNOSE_CMD_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "evidence.h"
#include "findings.h"
#include "out.h"
#include "path_gaps.h"
#include "rules.h"
#include "sink_store.h"
#include "source_opts.h"

#define DIAGNOSE_UNDECIDED 3 /* exit status: could not decide */
#define DIAGNOSE_HELP_SHOWN (-1)

struct diagnose_opts {
    struct source_opts src;
    struct cli_rules rules;
    int64_t since_ns;    /* store: no evidence older; prometheus: the window */
    int64_t interval_ns; /* a live source: time between the two readings */
    bool verify, verbose;
    const char *scenario, *cache_dir;
    /* for analyze, which judges a capture the same way: a store that records the evidence too,
     * and a finite source that breaks part-way still giving what came before */
    struct dcb_store *record;
    bool keep_partial;
};

/* 0, DIAGNOSE_HELP_SHOWN, or an exit status (usage errors: 64). */
int diagnose_parse(struct cli_ctx *ctx, int argc, char **argv, struct diagnose_opts *o);

/* The evidence the rules read: a ring the source filled, or the store read in place. */
struct diagnose_evidence {
    struct dcb_source src;
    struct sink_store keep;
    struct dcb_store *ring; /* owned; NULL when the store is read in place */
    struct evidence ev;
    struct path_gaps gaps;   /* the paths the devices do not serve (gNMI) */
    int64_t now_ns;          /* the evaluation time: where the evidence ends */
    const char *kind, *name; /* as the output names the source */
    bool broke;              /* keep_partial: the source broke part-way (why) */
    struct dcb_err broke_err;
};

/* Opens the source, runs it to its end (or for two readings, for a live source) and opens the
 * evidence over what it gave. 0, or -1 with err set (a one-line reason). */
int diagnose_evidence_open(const struct diagnose_opts *o, struct diagnose_evidence *d,
                           struct dcb_err *err);
void diagnose_evidence_close(struct diagnose_evidence *d);

/* What a rules run left: the findings (in the one order once ranked) and, with -v, the rule
 * instances that could not decide. */
struct diagnose_result {
    struct finding_list found;
    struct rule_undecided *undecided;
    size_t nundecided, undecided_cap;
    bool undecided_nomem;
    struct rule_run_stats stats;
    const struct path_gaps *gaps; /* says which undecided lack a path not served */
    size_t nrules;
    bool verify, verbose;
    const char *profile;
};

/* Runs the rule set over the evidence into r (findings unranked); 0 or a negative error. */
int diagnose_run_rules(const struct diagnose_opts *o, const struct rule_set *rs,
                       const struct diagnose_evidence *d, struct diagnose_result *r,
                       struct dcb_err *err);
/* A rule_undecided_fn: arg is the result. */
void diagnose_undecided_add(void *arg, const struct rule_undecided *u);
void diagnose_result_free(struct diagnose_result *r);
/* 0 nothing above info, 1 warnings, 2 critical. */
int diagnose_status(const struct diagnose_result *r);
void diagnose_print(struct dcb_out *o, const struct diagnose_result *r,
                    const struct diagnose_evidence *d);
/* One finding's keys and text lines (the caller opens and closes its object): analyze lists
 * the findings as diagnose does. */
void diagnose_print_finding_body(struct dcb_out *o, const struct finding *f, bool verify);

#endif
