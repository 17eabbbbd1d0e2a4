/* What dcbkit report still calls of diagnose's old Prometheus gatherer (diagnose_prom.c), until
 * report reads through the source layer; then both files go. diagnose itself lives in
 * cmd/dcbkit/diagnose/. */
#ifndef DCB_DIAGNOSE_H
#define DCB_DIAGNOSE_H

#include <stdint.h>

#include "evidence.h"
#include "store.h"

struct diagnose_prometheus {
    const char *url;              /* http://prometheus:9090 */
    const char *match;            /* extra label matchers, e.g. job="dcbkit"; NULL for none */
    int64_t end_ns, window_ns, step_ns;
    long timeout_ms;
};

struct diagnose_prom_events;

/* Fills a new ring store with the window (the Prometheus source, run to its end). */
int diagnose_gather_prometheus(const struct diagnose_prometheus *p, struct dcb_store **st,
                               struct diagnose_prom_events **events, int64_t *now_ns,
                               struct dcb_err *err);
/* No-ops now: the events are in the ring. */
void diagnose_prom_evidence(struct evidence *ev, struct diagnose_prom_events *pe);
void diagnose_prom_unwrap(struct evidence *ev, struct diagnose_prom_events *pe);
void diagnose_prom_events_free(struct diagnose_prom_events *pe);

#endif
