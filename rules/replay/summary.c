/* The summary of a run (replay_summary): per-flow results, Jain fairness, the most paused port,
 * totals, and the queue-depth percentiles over the series. */
#include <stdlib.h>
#include <string.h>

#include "sim.h"

static double jain(const struct replay_summary *sum)
{
    double a = 0, b = 0;
    for (size_t i = 0; i < sum->nflows; i++) {
        a += sum->flows[i].throughput_bps;
        b += sum->flows[i].throughput_bps * sum->flows[i].throughput_bps;
    }
    return b > 0 ? a * a / ((double)sum->nflows * b) : 1.0;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int sim_summarise(struct sim *s, struct replay_summary *sum, struct dcb_err *err)
{
    memset(sum, 0, sizeof(*sum));
    sum->events = s->events;
    sum->packet_hops = s->hops;
    sum->packets = s->npkts;
    sum->drops = s->drops;
    sum->pfc_frames = s->pfc_frames;
    sum->ecn_marks = s->marks;
    sum->cnps = s->cnps;
    sum->cnp_max_wait_ns = (double)s->cnp_max_wait_ps / REPLAY_PS_PER_NS;
    sum->nflows = s->nflows;
    sum->flows = calloc(s->nflows ? s->nflows : 1, sizeof(*sum->flows));
    if (!sum->flows)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    for (uint32_t f = 0; f < s->nflows; f++) {
        const struct flow *fl = &s->flows[f];
        struct replay_flow_result *r = &sum->flows[f];
        r->bytes_acked = fl->acked_bytes;
        r->packets_sent = fl->packets_sent;
        r->retransmitted = fl->packets_sent - fl->psn_high;
        r->start_ns = fl->start_ps / REPLAY_PS_PER_NS;
        r->finish_ns = fl->done ? fl->finish_ps / REPLAY_PS_PER_NS : 0;
        int64_t end = fl->done ? fl->finish_ps : s->end_ps;
        r->throughput_bps = end > fl->start_ps ?
                            (double)fl->acked_bytes * 8e12 / (double)(end - fl->start_ps) : 0;
        r->cnps = fl->rp.cnps;
        r->ce_marked = fl->ce_marked;
        r->final_rc_bps = fl->rp.rc;
    }
    sum->jain = jain(sum);
    for (uint32_t i = 0; i < s->nports; i++) {
        const struct port *pt = &s->ports[i];
        int64_t paused = pt->paused_any_total_ps +
                         (pt->paused_any_since_ps >= 0 ? s->end_ps - pt->paused_any_since_ps : 0);
        double frac = s->end_ps ? (double)paused / (double)s->end_ps : 0;
        if (frac > sum->pause_fraction_max)
            sum->pause_fraction_max = frac;
    }
    if (s->nqueue_samples) {
        qsort(s->queue_samples, s->nqueue_samples, sizeof(double), cmp_double);
        sum->queue_p50_bytes = s->queue_samples[s->nqueue_samples / 2];
        sum->queue_p99_bytes = s->queue_samples[s->nqueue_samples * 99 / 100];
        sum->queue_max_bytes = s->queue_samples[s->nqueue_samples - 1];
    }
    return 0;
}

void replay_summary_free(struct replay_summary *s)
{
    free(s->flows);
    memset(s, 0, sizeof(*s));
}
