/* The summary of a run (replay_summary), measured after the warm-up: per-flow results, Jain
 * fairness over the run and in 10 ms windows, the most paused port, totals, and each egress
 * queue's depth over the series. The state at the warm-up and at each window's end is taken
 * when the first event at or after that instant is about to run (nothing changed in between),
 * so measuring adds no event: a run's events are the same with or without a warm-up. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

int sim_measure_init(struct sim *s)
{
    struct measure *m = &s->m;
    m->warmup_ps = s->opt->warmup_ns > 0 ? s->opt->warmup_ns * REPLAY_PS_PER_NS : 0;
    m->window_ps = (int64_t)REPLAY_WINDOW_NS * REPLAY_PS_PER_NS;
    m->next_ps = m->warmup_ps;
    m->jain_min = 1;
    size_t nf = s->nflows ? s->nflows : 1, np = s->nports ? s->nports : 1;
    if (!budget_take(&s->budget,
                     nf * 2 * sizeof(uint64_t) + np * sizeof(int64_t) +
                         np * PRIOS * sizeof(uint32_t),
                     "the summary"))
        return -1;
    m->acked_at_warmup = calloc(nf, sizeof(uint64_t));
    m->acked_at_window = calloc(nf, sizeof(uint64_t));
    m->paused_at_warmup = calloc(np, sizeof(int64_t));
    m->queue_of = malloc(np * PRIOS * sizeof(uint32_t));
    if (!m->acked_at_warmup || !m->acked_at_window || !m->paused_at_warmup || !m->queue_of)
        return -1;
    for (size_t i = 0; i < np * PRIOS; i++)
        m->queue_of[i] = NO_INDEX;
    return 0;
}

void sim_measure_free(struct sim *s)
{
    struct measure *m = &s->m;
    free(m->acked_at_warmup);
    free(m->acked_at_window);
    free(m->paused_at_warmup);
    free(m->queue_of);
    for (uint32_t i = 0; i < m->nqueues; i++)
        free(m->queues[i].v);
    free(m->queues);
    memset(m, 0, sizeof(*m));
}

/* A port's time with any priority paused, up to at_ps. */
static int64_t paused_by(const struct port *pt, int64_t at_ps)
{
    return pt->paused_any_total_ps +
           (pt->paused_any_since_ps >= 0 ? at_ps - pt->paused_any_since_ps : 0);
}

/* A flow that ran through all of [from, to]. */
static bool runs_through(const struct flow *fl, int64_t from, int64_t to)
{
    return fl->started && fl->start_ps <= from && (!fl->done || fl->finish_ps >= to);
}

/* A window [at - window, at] is over: the Jain index of the flows' bytes in it, and whether
 * every flow had its fair share of them within 10 %. */
static void close_window(struct sim *s, int64_t at_ps)
{
    struct measure *m = &s->m;
    double sum = 0, sq = 0, n = 0;
    for (uint32_t f = 0; f < s->nflows; f++) {
        const struct flow *fl = &s->flows[f];
        if (runs_through(fl, at_ps - m->window_ps, at_ps)) {
            double b = (double)(fl->acked_bytes - m->acked_at_window[f]);
            sum += b;
            sq += b * b;
            n++;
        }
    }
    if (n > 0 && sq > 0) {
        double jain = sum * sum / (n * sq), mean = sum / n;
        bool fair = true;
        for (uint32_t f = 0; f < s->nflows && fair; f++) {
            const struct flow *fl = &s->flows[f];
            double b = (double)(fl->acked_bytes - m->acked_at_window[f]);
            fair = !runs_through(fl, at_ps - m->window_ps, at_ps) || fabs(b - mean) <= 0.1 * mean;
        }
        m->windows++;
        m->jain_sum += jain;
        m->jain_min = jain < m->jain_min ? jain : m->jain_min;
        m->windows_jain_099 += jain >= 0.99;
        m->windows_fair += fair;
    }
    for (uint32_t f = 0; f < s->nflows; f++)
        m->acked_at_window[f] = s->flows[f].acked_bytes;
}

void sim_measure_until(struct sim *s, int64_t at_ps)
{
    struct measure *m = &s->m;
    while (m->next_ps <= at_ps) {
        if (m->next_ps == m->warmup_ps) {
            for (uint32_t f = 0; f < s->nflows; f++)
                m->acked_at_warmup[f] = m->acked_at_window[f] = s->flows[f].acked_bytes;
            for (uint32_t i = 0; i < s->nports; i++)
                m->paused_at_warmup[i] = paused_by(&s->ports[i], m->warmup_ps);
        } else {
            close_window(s, m->next_ps);
        }
        m->next_ps += m->window_ps;
    }
}

void sim_measure_queue_depth(struct sim *s, uint32_t port, unsigned tc, double bytes)
{
    struct measure *m = &s->m;
    uint32_t *idx = &m->queue_of[port * PRIOS + tc];
    if (*idx == NO_INDEX) {
        if (m->nqueues == m->queues_cap) {
            uint32_t cap = m->queues_cap ? m->queues_cap * 2 : 16;
            if (!budget_take(&s->budget, (uint64_t)(cap - m->queues_cap) * sizeof(*m->queues),
                             "the queue depths")) {
                s->oom = true;
                return;
            }
            struct queue_depths *grown = realloc(m->queues, cap * sizeof(*grown));
            if (!grown)
                return;
            m->queues = grown;
            m->queues_cap = cap;
        }
        m->queues[m->nqueues] = (struct queue_depths){ port, (uint8_t)tc, NULL, 0, 0 };
        *idx = m->nqueues++;
    }
    struct queue_depths *q = &m->queues[*idx];
    if (q->n == q->cap) {
        size_t cap = q->cap ? q->cap * 2 : 1024;
        /* twice: the summary sorts a copy of them all */
        if (!budget_take(&s->budget, 2 * (cap - q->cap) * sizeof(*q->v), "the queue depths")) {
            s->oom = true;
            return;
        }
        double *grown = realloc(q->v, cap * sizeof(*grown));
        if (!grown)
            return;
        q->v = grown;
        q->cap = cap;
    }
    q->v[q->n++] = bytes;
}

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

static void summarise_flows(const struct sim *s, struct replay_summary *sum)
{
    int64_t warmup = s->m.warmup_ps;
    for (uint32_t f = 0; f < s->nflows; f++) {
        const struct flow *fl = &s->flows[f];
        struct replay_flow_result *r = &sum->flows[f];
        r->bytes_acked = fl->acked_bytes;
        r->packets_sent = fl->packets_sent;
        r->retransmitted = fl->packets_sent - fl->psn_high;
        r->start_ns = fl->start_ps / REPLAY_PS_PER_NS;
        r->finish_ns = fl->done ? fl->finish_ps / REPLAY_PS_PER_NS : 0;
        int64_t from = fl->start_ps > warmup ? fl->start_ps : warmup;
        int64_t end = fl->done ? fl->finish_ps : s->end_ps;
        r->bytes_measured = end > from ? fl->acked_bytes - s->m.acked_at_warmup[f] : 0;
        r->throughput_bps = end > from ? (double)r->bytes_measured * 8e12 / (double)(end - from)
                                       : 0;
        r->cnps = fl->cnps_received;
        r->cnps_handled = fl->rp.cnps;
        r->naks = fl->naks_sent;
        r->out_of_sequence = fl->out_of_sequence;
        r->timeouts = fl->timeouts;
        r->ce_marked = fl->ce_marked;
        r->final_rc_bps = fl->rp.rc;
    }
    sum->jain = jain(sum);
    const struct measure *m = &s->m;
    sum->windows = m->windows;
    sum->jain_window_min = m->windows ? m->jain_min : 0;
    sum->jain_window_mean = m->windows ? m->jain_sum / m->windows : 0;
    sum->windows_jain_099 = m->windows ? (double)m->windows_jain_099 / m->windows : 0;
    sum->windows_fair = m->windows ? (double)m->windows_fair / m->windows : 0;
}

/* Each queue's mean and percentiles, and those of all queues together. */
static int summarise_queues(const struct sim *s, struct replay_summary *sum)
{
    const struct measure *m = &s->m;
    size_t total = 0;
    for (uint32_t i = 0; i < m->nqueues; i++)
        total += m->queues[i].n;
    sum->queues = calloc(m->nqueues ? m->nqueues : 1, sizeof(*sum->queues));
    double *all = malloc((total ? total : 1) * sizeof(double));
    if (!sum->queues || !all) {
        free(all);
        return -1;
    }
    size_t at = 0;
    double all_sum = 0;
    for (uint32_t i = 0; i < m->nqueues; i++) {
        const struct queue_depths *q = &m->queues[i];
        if (!q->n)
            continue;
        const struct port *pt = &s->ports[q->port];
        struct replay_queue_result *r = &sum->queues[sum->nqueues++];
        snprintf(r->device, sizeof(r->device), "%s", s->nodes[pt->node].name);
        snprintf(r->ifname, sizeof(r->ifname), "%s", pt->name);
        r->tc = q->tc;
        r->samples = q->n;
        double qs = 0;
        for (size_t k = 0; k < q->n; k++)
            qs += q->v[k];
        r->mean_bytes = qs / (double)q->n;
        all_sum += qs;
        memcpy(all + at, q->v, q->n * sizeof(double));
        qsort(all + at, q->n, sizeof(double), cmp_double);
        r->p50_bytes = all[at + q->n / 2];
        r->p99_bytes = all[at + q->n * 99 / 100];
        r->max_bytes = all[at + q->n - 1];
        at += q->n;
    }
    if (total) {
        qsort(all, total, sizeof(double), cmp_double);
        sum->queue_mean_bytes = all_sum / (double)total;
        sum->queue_p50_bytes = all[total / 2];
        sum->queue_p99_bytes = all[total * 99 / 100];
        sum->queue_max_bytes = all[total - 1];
    }
    free(all);
    return 0;
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
    sum->warmup_ns = s->m.warmup_ps / REPLAY_PS_PER_NS;
    sum->cnp_max_wait_ns = (double)s->cnp_max_wait_ps / REPLAY_PS_PER_NS;
    sum->nflows = s->nflows;
    sum->flows = calloc(s->nflows ? s->nflows : 1, sizeof(*sum->flows));
    if (!sum->flows)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    summarise_flows(s, sum);
    int64_t measured = s->end_ps - s->m.warmup_ps;
    for (uint32_t i = 0; i < s->nports && measured > 0; i++) {
        int64_t paused = paused_by(&s->ports[i], s->end_ps) - s->m.paused_at_warmup[i];
        double frac = (double)paused / (double)measured;
        if (frac > sum->pause_fraction_max)
            sum->pause_fraction_max = frac;
    }
    if (summarise_queues(s, sum) < 0)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    return 0;
}

void replay_summary_free(struct replay_summary *s)
{
    free(s->flows);
    free(s->queues);
    memset(s, 0, sizeof(*s));
}
