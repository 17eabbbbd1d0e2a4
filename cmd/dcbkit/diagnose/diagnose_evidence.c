/* dcbkit diagnose: the evidence. The one source named is opened through the source layer (fast:
 * a capture or a scenario gives everything at once) into a ring, run to its end, or for two
 * readings --interval apart when it is live (this host, switches over gNMI); the rules then
 * read the ring. A store is read in place, as of its newest data. */
#include <stdio.h>
#include <string.h>

#include "diagnose_cmd.h"
#include "evidence_store.h"
#include "units.h"

#define PROMETHEUS_WINDOW_NS (15 * 60 * NS_PER_SEC)
#define PROMETHEUS_STEP_NS (15 * NS_PER_SEC)
#define PROMETHEUS_TIMEOUT_MS 30000

/* The source as the output names it: its kind and its file, address or URL. */
static void name_source(const struct source_opts *s, struct diagnose_evidence *d)
{
    unsigned named = s->named;
    if ((named & SOURCE_G_GNMI) && s->fabric)
        named = SOURCE_G_GNMI;
    enum dcb_source_kind k = SOURCE_LOCAL;
    while (k < SOURCE_SET && !(named & (1u << k)))
        k++;
    d->kind = dcb_source_kind_name(k);
    switch (k) {
    case SOURCE_GNMI: d->name = s->gnmi.naddresses ? s->gnmi.addresses[0] : s->fabric; break;
    case SOURCE_STORE: d->name = s->store.path; break;
    case SOURCE_REPLAY: d->name = s->demo ? "demo" : s->replay.scenario; break;
    case SOURCE_PCAP: d->name = s->pcap.path; break;
    case SOURCE_PROMETHEUS: d->name = s->prometheus.url; break;
    case SOURCE_FABRIC: d->name = s->fabric; break;
    default: d->name = ""; break;
    }
}

/* A store this small (a replay's, a short capture's) is read in one pass, not a query per rule
 * instance: about 24 bytes a sample, 48 MB at most. */
#define PRELOAD_MAX_SAMPLES 2000000

/* The evaluation time is the store's newest sample or event, so an old store reads as it was. */
static int open_store_in_place(const struct diagnose_opts *o, struct diagnose_evidence *d,
                               struct dcb_err *err)
{
    struct dcb_store *st = d->src.direct;
    if (store_snapshot_begin(st, err) < 0)
        return -1;
    struct store_info info;
    struct dcb_err info_err;
    if (store_info(st, &info, &info_err) < 0)
        memset(&info, 0, sizeof(info));
    d->now_ns = info.last_ns ? info.last_ns : dcb_realtime_ns();
    if (evidence_store_open(&d->ev, st, d->now_ns, err) < 0)
        return -1;
    int64_t t0 = o->since_ns ? d->now_ns - o->since_ns : 0;
    if (info.samples && info.samples <= PRELOAD_MAX_SAMPLES &&
        evidence_store_preload(&d->ev, t0, err) < 0)
        return -1;
    if (o->since_ns)
        evidence_store_limit(&d->ev, t0);
    return 0;
}

/* A finite source to its end; a live one for two readings, --interval apart. A source that
 * streams (gNMI) was opened at half the interval, so that a fresh sample has come by the
 * second reading whatever the phase. */
static int run_source(const struct diagnose_opts *o, struct diagnose_evidence *d,
                      struct dcb_err *err)
{
    struct dcb_source_run run = { .count = d->src.finite ? 0 : 2 };
    d->src.interval_ns = o->interval_ns;
    if (dcb_source_run(&d->src, &run, &d->now_ns, err) < 0) {
        if (!o->keep_partial || !d->src.finite || !(d->keep.samples || d->keep.events))
            return -1;
        d->broke = true; /* judge what came before the break */
        d->broke_err = *err;
    }
    if (sink_store_take_error(&d->keep, err) < 0)
        return -1;
    if (!d->keep.samples && !d->keep.events && !d->keep.configs && d->src.status[0])
        return dcb_err_set(err, DCB_E_NOTFOUND, "%s", d->src.status);
    return 0;
}

int diagnose_evidence_open(const struct diagnose_opts *o, struct diagnose_evidence *d,
                           struct dcb_err *err)
{
    memset(d, 0, sizeof(*d));
    name_source(&o->src, d);
    struct source_opts so = o->src;
    struct source_prometheus_options *p = &so.prometheus;
    p->window_ns = o->since_ns ? o->since_ns : PROMETHEUS_WINDOW_NS;
    p->step_ns = p->step_ns ? p->step_ns : PROMETHEUS_STEP_NS;
    p->timeout_ms = PROMETHEUS_TIMEOUT_MS;
    if (!(so.named & SOURCE_G_STORE) && sink_store_open_ring(&d->ring, 0, 0, err) < 0)
        return -1;
    d->keep.st = d->ring;
    d->keep.record = o->record;
    if (source_opts_open(&so, sink_store_sink(&d->keep), o->interval_ns / 2, SOURCE_OPEN_FAST,
                         &d->src, err) < 0)
        return -1;
    if (d->src.direct)
        return open_store_in_place(o, d, err) < 0
                   ? -1
                   : path_gaps_load(&d->gaps, d->src.direct, d->now_ns, err);
    if (run_source(o, d, err) < 0 || evidence_store_open(&d->ev, d->ring, d->now_ns, err) < 0 ||
        path_gaps_load(&d->gaps, d->ring, INT64_MAX, err) < 0)
        return -1;
    int64_t t0 = so.named & SOURCE_G_PROMETHEUS ? d->now_ns - p->window_ns : 0;
    if (evidence_store_preload(&d->ev, t0, err) < 0)
        return -1;
    if (o->since_ns)
        evidence_store_limit(&d->ev, d->now_ns - o->since_ns);
    return 0;
}

void diagnose_evidence_close(struct diagnose_evidence *d)
{
    if (d->ev.ctx)
        evidence_store_close(&d->ev);
    if (d->src.direct)
        store_snapshot_end(d->src.direct);
    dcb_source_close(&d->src);
    if (d->ring)
        store_close(d->ring, NULL);
    d->ring = NULL;
    path_gaps_free(&d->gaps);
}
