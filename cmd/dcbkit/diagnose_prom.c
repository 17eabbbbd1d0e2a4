/* What dcbkit report still calls to read a window from Prometheus, until report reads through
 * the source layer: the window comes from the Prometheus source (collectors/source_prometheus.c)
 * into a ring, event increases included, so the evidence needs no wrapping any more. Remove
 * this file and diagnose.h once report opens its sources with source_opts_open. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose.h"
#include "sink_store.h"
#include "source.h"

struct diagnose_prom_events {
    int unused;
};

int diagnose_gather_prometheus(const struct diagnose_prometheus *p, struct dcb_store **st,
                               struct diagnose_prom_events **events, int64_t *now_ns,
                               struct dcb_err *err)
{
    *events = NULL;
    if (sink_store_open_ring(st, 0, 0, err) < 0)
        return -1;
    struct sink_store keep = { .st = *st };
    struct source_prometheus_options o = { p->url, p->match, p->end_ns, p->window_ns,
                                           p->step_ns, p->timeout_ms };
    struct dcb_source src = { .sink = sink_store_sink(&keep) };
    struct dcb_source_run run = { 0 };
    int rc = dcb_source_prometheus_open(&src, &o, err);
    if (rc == 0)
        rc = dcb_source_run(&src, &run, now_ns, err);
    if (rc == 0)
        rc = sink_store_take_error(&keep, err);
    dcb_source_close(&src);
    size_t n = strlen(p->url);
    if (rc < 0 && !strncmp(err->msg, p->url, n) && !strncmp(err->msg + n, ": ", 2))
        memmove(err->msg, err->msg + n + 2, strlen(err->msg + n + 2) + 1);
    if (rc < 0) {
        store_close(*st, NULL);
        *st = NULL;
    }
    return rc;
}

void diagnose_prom_evidence(struct evidence *ev, struct diagnose_prom_events *pe)
{
    (void)ev;
    (void)pe;
}

void diagnose_prom_unwrap(struct evidence *ev, struct diagnose_prom_events *pe)
{
    (void)ev;
    (void)pe;
}

void diagnose_prom_events_free(struct diagnose_prom_events *pe)
{
    free(pe);
}
