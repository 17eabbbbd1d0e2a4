/* dcbkit diagnose internals: the findings report (diagnose_report.c) and the evidence gathered
 * into an in-memory store from a capture or this host (diagnose_gather.c). */
#ifndef DCB_DIAGNOSE_H
#define DCB_DIAGNOSE_H

#include <stdbool.h>
#include <stdint.h>

#include "evidence.h"
#include "out.h"
#include "rules.h"
#include "store.h"

struct diagnose_report {
    struct finding *findings;
    size_t n, cap;
    struct rule_undecided *undecided;
    size_t nundecided, undecided_cap;
    bool verbose;
    bool verify;                  /* findings carry "verified" */
    bool nomem;
};

void diagnose_report_init(struct diagnose_report *r, bool verbose);
void diagnose_report_free(struct diagnose_report *r);
/* rule_set_run callbacks; arg is the report. */
void diagnose_report_add(void *arg, const struct finding *f);
void diagnose_report_undecided(void *arg, const struct rule_undecided *u);
/* Ranks (severity, confidence, rule, place) and prints. */
void diagnose_report_print(struct dcb_out *o, struct diagnose_report *r, const char *source_kind,
                           const char *source_name, const char *profile, size_t nrules,
                           const struct rule_run_stats *stats);
/* 0 nothing above info, 1 warnings, 2 critical. */
int diagnose_report_status(const struct diagnose_report *r);

struct diagnose_gather {
    const char *pcap;             /* a capture, or NULL for this host */
    int64_t interval_ns;          /* this host: time between the two readings */
    uint64_t link_bps;            /* a capture: pause quanta */
    bool verbose;
};

/* Fills a new ring store with the evidence; *now_ns is the end of the evidence. */
int diagnose_gather_ring(const struct diagnose_gather *g, struct dcb_store **st, int64_t *now_ns,
                         struct dcb_err *err);

/* diagnose --verify (diagnose_verify.c): replays each finding's proposed change. */
struct diagnose_verify {
    const char *scenario;         /* the scenario to replay, or NULL */
    const char *fabric;           /* without one: a built-in incast over this fabric file */
    const char *cache_dir;        /* NULL: $DCBKIT_CACHE_DIR, $XDG_CACHE_HOME/dcbkit/replay,
                                   * ~/.cache/dcbkit/replay; "": no cache */
    bool verbose;
};

/* Fills each finding's verified and demotes advice that shows no improvement. A scenario that
 * cannot be loaded or run is an error; a change the scenario refuses is noted on its finding. */
int diagnose_verify(const struct diagnose_verify *v, struct diagnose_report *rep,
                    struct dcb_err *err);
struct diagnose_prometheus {
    const char *url;              /* http://prometheus:9090 */
    const char *match;            /* extra label matchers, e.g. job="dcbkit"; NULL for none */
    int64_t end_ns, window_ns, step_ns;
    long timeout_ms;
};

struct diagnose_prom_events;

/* Fills a new ring store with the window from Prometheus' query_range: the canonical metrics
 * dcbkit serve exports, and the dcbkit_qos_config series as config snapshots; *events keeps
 * the dcbkit_events_total counters, which answer the rules' event counts. */
int diagnose_gather_prometheus(const struct diagnose_prometheus *p, struct dcb_store **st,
                               struct diagnose_prom_events **events, int64_t *now_ns,
                               struct dcb_err *err);
/* Puts pe in front of ev: event counts from the counters, everything else from ev. */
void diagnose_prom_evidence(struct evidence *ev, struct diagnose_prom_events *pe);
/* ev back as it was (before closing it). */
void diagnose_prom_unwrap(struct evidence *ev, struct diagnose_prom_events *pe);
void diagnose_prom_events_free(struct diagnose_prom_events *pe);

#endif
