/* The replay engine's run: the event loop, packets and queues, canonical samples and events, the
 * series and the summary; see replay.h. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headroom.h"
#include "large_alloc.h"
#include "sim.h"

#define SWITCH_BUFFER_DEFAULT (32u << 20)
#define WATCHDOG_PERIOD_PS 10000000000LL   /* 10 ms */
#define DEFAULT_LOSSY_LIMIT (512u * 1024) /* a lossy priority group's size when not set */

void replay_options_init(struct replay_options *o)
{
    memset(o, 0, sizeof(*o));
    o->seed = 1;
    o->duration_ns = 10000000;
    o->sample_interval_ns = 1000000;
    o->pfc_response_ns = -1;
    o->retransmit_timeout_ns = 1000000;
    o->ack_every = 16;
}

/* ---- packets, queues, events, randomness ------------------------------------------------------ */

_Static_assert(sizeof(struct packet) == 64, "a packet is one cache line (the pool is aligned)");
_Static_assert(offsetof(struct flow, dp) == 64 && offsetof(struct flow, rp) +
               offsetof(struct dcqcn_rp, bytes) + 8 <= 128 &&
               offsetof(struct flow, expected) >= 128 &&
               offsetof(struct flow, rto_deadline_ps) + 8 <= 192,
               "a packet sent reads flow lines 0 and 1, one received lines 0 and 2");

uint32_t pkt_alloc(struct sim *s)
{
    if (s->free_pkt != NO_INDEX) {
        uint32_t p = s->free_pkt;
        s->free_pkt = s->pkts[p].next_free;
        memset(&s->pkts[p], 0, sizeof(s->pkts[p]));
        s->pkts[p].ingress = NO_INDEX;
        return p;
    }
    if (s->npkts == s->pkts_cap) {
        uint32_t cap = s->pkts_cap ? s->pkts_cap * 2 : 4096;
        struct packet *grown = large_alloc((size_t)cap * sizeof(*grown));
        if (!grown) {
            s->oom = true;
            return NO_INDEX;
        }
        if (s->npkts)
            memcpy(grown, s->pkts, (size_t)s->npkts * sizeof(*grown));
        free(s->pkts);
        s->pkts = grown;
        s->pkts_cap = cap;
    }
    uint32_t p = s->npkts++;
    memset(&s->pkts[p], 0, sizeof(s->pkts[p]));
    s->pkts[p].ingress = NO_INDEX;
    return p;
}

void pkt_free(struct sim *s, uint32_t p)
{
    s->pkts[p].next_free = s->free_pkt;
    s->free_pkt = p;
}

/* A ring whose size is a power of two (64, doubled when full): its index wraps with a mask,
 * not a division on every packet. */
bool pq_push(struct sim *s, struct pkt_queue *q, uint32_t p)
{
    if (q->count == q->cap) {
        uint32_t cap = q->cap ? q->cap * 2 : 64;
        uint32_t *grown = malloc((size_t)cap * sizeof(*grown));
        if (!grown) {
            s->oom = true;
            return false;
        }
        for (uint32_t i = 0; i < q->count; i++)
            grown[i] = q->v[(q->head + i) & (q->cap - 1)];
        free(q->v);
        q->v = grown;
        q->head = 0;
        q->cap = cap;
    }
    q->v[(q->head + q->count++) & (q->cap - 1)] = p;
    q->bytes += s->pkts[p].bytes;
    return true;
}

uint32_t pq_pop(struct sim *s, struct pkt_queue *q)
{
    if (!q->count)
        return NO_INDEX;
    uint32_t p = q->v[q->head];
    q->head = (q->head + 1) & (q->cap - 1);
    q->count--;
    q->bytes -= s->pkts[p].bytes;
    if (q->count)                       /* the next head waited long: fetch it before its turn */
        __builtin_prefetch(&s->pkts[q->v[q->head]]);
    return p;
}

double sim_random(struct sim *s)
{
    /* splitmix64: one stream from the seed, the same draws in the same order every run */
    uint64_t z = (s->rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

void sim_event(struct sim *s, enum dcb_event_kind kind, uint32_t port, int prio,
               const char *details)
{
    if (!s->hooks || !s->hooks->event)
        return;
    const struct port *pt = &s->ports[port];
    struct dcb_event e;
    dcb_event_set(&e, s->now_ps / REPLAY_PS_PER_NS, kind, s->nodes[pt->node].name, pt->name, prio,
                  details);
    s->hooks->event(s->hooks->arg, &e);
}

/* ---- samples, series ------------------------------------------------------------------------ */

static void sample(struct sim *s, const struct port *pt, enum metric_id m, int prio, int queue,
                   uint64_t counter, double gauge)
{
    struct dcb_sample smp;
    dcb_sample_set(&smp, s->now_ps / REPLAY_PS_PER_NS, s->nodes[pt->node].name, pt->name, m, prio,
                   queue);
    if (metric_info(m)->kind == METRIC_COUNTER)
        smp.value.counter = counter;
    else
        smp.value.gauge = gauge;
    s->hooks->sample(s->hooks->arg, &smp);
}

static void take_samples(struct sim *s)
{
    if (!s->hooks || !s->hooks->sample)
        return;
    for (uint32_t i = 0; i < s->nports; i++) {
        const struct port *pt = &s->ports[i];
        if (pt->peer == NO_INDEX)
            continue;
        sample(s, pt, METRIC_PORT_TX_BYTES, -1, -1, pt->tx_bytes, 0);
        sample(s, pt, METRIC_PORT_RX_BYTES, -1, -1, pt->rx_bytes, 0);
        sample(s, pt, METRIC_PORT_TX_PACKETS, -1, -1, pt->tx_packets, 0);
        sample(s, pt, METRIC_PORT_RX_PACKETS, -1, -1, pt->rx_packets, 0);
        if (pt->down_events)
            sample(s, pt, METRIC_LINK_DOWN_EVENTS, -1, -1, pt->down_events, 0);
        for (int prio = 0; prio < PRIOS; prio++) {
            if (!pt->by_prio[prio].tx_bytes && !pt->by_prio[prio].rx_bytes && !pt->pfc_tx[prio] &&
                !pt->pfc_rx[prio])
                continue;
            sample(s, pt, METRIC_PRIO_TX_BYTES, prio, -1, pt->by_prio[prio].tx_bytes, 0);
            sample(s, pt, METRIC_PRIO_RX_BYTES, prio, -1, pt->by_prio[prio].rx_bytes, 0);
            sample(s, pt, METRIC_PFC_TX_PAUSE, prio, -1, pt->pfc_tx[prio], 0);
            sample(s, pt, METRIC_PFC_RX_PAUSE, prio, -1, pt->pfc_rx[prio], 0);
            int64_t paused = pt->paused_total_ps[prio] +
                             (pt->paused[prio] ? s->now_ps - pt->pause_start_ps[prio] : 0);
            sample(s, pt, METRIC_PFC_RX_PAUSE_US, prio, -1, (uint64_t)(paused / 1000000), 0);
            if (s->nodes[pt->node].is_switch) {
                sample(s, pt, METRIC_PG_DROPS, prio, -1, pt->by_prio[prio].pg.drops, 0);
                sample(s, pt, METRIC_PG_WATERMARK_BYTES, prio, -1, 0,
                       (double)pt->by_prio[prio].pg.watermark);
                sample(s, pt, METRIC_PG_HEADROOM_WATERMARK_BYTES, prio, -1, 0,
                       (double)pt->by_prio[prio].pg.headroom_watermark);
            }
        }
        if (s->nodes[pt->node].is_switch) {
            for (int tc = 0; tc < PRIOS; tc++) {
                if (!pt->by_tc[tc].tx_bytes && !pt->by_tc[tc].q.count && !pt->by_tc[tc].drops)
                    continue;
                sample(s, pt, METRIC_QUEUE_TX_BYTES, -1, tc, pt->by_tc[tc].tx_bytes, 0);
                sample(s, pt, METRIC_QUEUE_DROPS, -1, tc, pt->by_tc[tc].drops, 0);
                sample(s, pt, METRIC_QUEUE_ECN_MARKED, -1, tc, pt->by_tc[tc].marked, 0);
                sample(s, pt, METRIC_QUEUE_DEPTH_BYTES, -1, tc, 0, (double)pt->by_tc[tc].q.bytes);
                sample(s, pt, METRIC_QUEUE_WATERMARK_BYTES, -1, tc, 0,
                       (double)pt->by_tc[tc].watermark);
            }
        } else {
            sample(s, pt, METRIC_CNP_SENT, -1, -1, pt->cnp_sent, 0);
            sample(s, pt, METRIC_CNP_HANDLED, -1, -1, pt->cnp_handled, 0);
            sample(s, pt, METRIC_ROCE_ECN_MARKED_RX, -1, -1, pt->ce_received, 0);
        }
    }
}

static void keep_queue_sample(struct sim *s, double bytes)
{
    if (s->nqueue_samples == s->queue_samples_cap) {
        size_t cap = s->queue_samples_cap ? s->queue_samples_cap * 2 : 4096;
        double *grown = realloc(s->queue_samples, cap * sizeof(*grown));
        if (!grown)
            return;
        s->queue_samples = grown;
        s->queue_samples_cap = cap;
    }
    s->queue_samples[s->nqueue_samples++] = bytes;
}

static void take_series(struct sim *s)
{
    const struct replay_hooks *h = s->hooks;
    for (uint32_t i = 0; i < s->nports; i++) {
        const struct port *pt = &s->ports[i];
        if (!s->nodes[pt->node].is_switch)
            continue;
        for (int tc = 0; tc < PRIOS; tc++) {
            if (!pt->by_tc[tc].tx_bytes && !pt->by_tc[tc].q.count)
                continue;
            keep_queue_sample(s, (double)pt->by_tc[tc].q.bytes);
            if (h && h->series) {
                struct replay_series_point sp = { SERIES_QUEUE_BYTES, s->now_ps / REPLAY_PS_PER_NS,
                                                  s->nodes[pt->node].name, pt->name, tc,
                                                  (double)pt->by_tc[tc].q.bytes };
                h->series(h->arg, &sp);
            }
        }
    }
    for (uint32_t f = 0; h && h->series && f < s->nflows; f++) {
        const struct flow *fl = &s->flows[f];
        if (!fl->started || fl->done)
            continue;
        const struct port *pt = &s->ports[fl->src_port];
        struct replay_series_point rc = { SERIES_FLOW_RC, s->now_ps / REPLAY_PS_PER_NS,
                                          s->nodes[fl->src].name, pt->name, (int)f, fl->rp.rc };
        h->series(h->arg, &rc);
        rc.kind = SERIES_FLOW_RT;
        rc.value = fl->rp.rt;
        h->series(h->arg, &rc);
    }
}

/* ---- the run -------------------------------------------------------------------------------- */

static void arrive(struct sim *s, uint32_t port, uint32_t p)
{
    struct packet *pk = &s->pkts[p];
    struct port *pt = &s->ports[port];
    if (pk->kind == PKT_PFC) {
        pt->pfc_rx[pk->pfc_prio]++;
        sim_at(s, s->now_ps + s->pfc_response_ps, EV_PAUSE_APPLY, port,
               (uint32_t)pk->pfc_prio << 16 | pk->quanta);
        pkt_free(s, p);
        return;
    }
    if (pt->is_switch) {
        pt->rx_bytes += pk->bytes;
        pt->rx_packets++;
        pt->by_prio[pk->prio & 7].rx_bytes += pk->bytes;
        switch_receive(s, port, p);
    } else {
        nic_receive(s, port, p);
    }
}

static void dispatch(struct sim *s, const struct heap_event *e)
{
    switch ((enum ev_kind)heap_kind(e)) {
    case EV_TX_DONE: port_tx_done(s, e->a); break;
    case EV_ARRIVE: arrive(s, e->a, e->b); break;
    case EV_FLOW_SEND: nic_flow_send(s, e->a); break;
    case EV_PAUSE_APPLY: port_pause_apply(s, e->a, e->b >> 16, (uint16_t)(e->b & 0xffff)); break;
    case EV_PAUSE_END: port_pause_end(s, e->a, e->b); break;
    case EV_PFC_CHECK: pfc_check(s, e->a, e->b); break;
    case EV_PFC_SEND: port_send_pfc(s, e->a, e->b >> 16, (uint16_t)(e->b & 0xffff)); break;
    case EV_PORT_WAKE: nic_wake(s, e->a); break;
    case EV_RP_TIMER: nic_rp_timer(s, e->a, e->b); break;
    case EV_RTO: nic_rto(s, e->a, e->b); break;
    case EV_HOST_DRAIN: nic_drain(s, e->a); break;
    case EV_FAULT: fault_fire(s, e->a, (enum fault_phase)e->b); break;
    case EV_SAMPLE:
        take_samples(s);
        if (s->opt->stop && *s->opt->stop)
            s->end_ps = s->now_ps;      /* nothing after this runs */
        sim_at(s, s->now_ps + s->opt->sample_interval_ns * REPLAY_PS_PER_NS, EV_SAMPLE, 0, 0);
        break;
    case EV_SERIES:
        take_series(s);
        sim_at(s, s->now_ps + s->opt->series_interval_ns * REPLAY_PS_PER_NS, EV_SERIES, 0, 0);
        break;
    case EV_WATCHDOG:
        watchdog_tick(s);
        sim_at(s, s->now_ps + WATCHDOG_PERIOD_PS, EV_WATCHDOG, 0, 0);
        break;
    }
}

/* Most of an event's time goes in waiting for memory: its packet, port or flow was last touched
 * long ago. While one event runs, the lines of the next one are fetched. (Fetching for the
 * heap's top four children too costs more than it saves.) */
static void prefetch_event(const struct sim *s, const struct heap_event *ev)
{
    switch ((enum ev_kind)heap_kind(ev)) {
    case EV_ARRIVE:
    case EV_TX_DONE:
        __builtin_prefetch(&s->pkts[ev->b]);
        /* fall through */
    case EV_PORT_WAKE: {
        const char *pt = (const char *)&s->ports[ev->a];
        __builtin_prefetch(pt);
        __builtin_prefetch(pt + 64);
        break;
    }
    case EV_RP_TIMER:
    case EV_RTO: {
        const char *fl = (const char *)&s->flows[ev->a];
        __builtin_prefetch(fl);
        __builtin_prefetch(fl + offsetof(struct flow, rp));
        __builtin_prefetch(fl + offsetof(struct flow, expected));
        __builtin_prefetch(fl + offsetof(struct flow, timer_gen));
        break;
    }
    default:
        break;
    }
}

static void prefetch_next(struct sim *s)
{
    const struct heap_event *next = evq_peek(&s->queue);
    if (next)
        prefetch_event(s, next);
}

/* Per port: traffic classes, strict or DWRR weight, classification and DCQCN priorities from the
 * port's config, and whether it and its peer are switches. */
void port_setup(struct sim *s, uint32_t port)
{
    struct port *pt = &s->ports[port];
    const struct qos_config *c = &pt->cfg;
    for (unsigned prio = 0; prio < PRIOS; prio++)
        pt->tc_of[prio] = c->prio2tc[prio].set ? (uint8_t)(c->prio2tc[prio].v & 7) : (uint8_t)prio;
    for (unsigned tc = 0; tc < PRIOS; tc++) {
        if (c->ets_tsa[tc].set && c->ets_tsa[tc].v == QOS_TSA_STRICT)
            pt->strict_tcs |= (uint8_t)(1u << tc);
        else
            pt->strict_tcs &= (uint8_t)~(1u << tc);
        uint32_t bw = c->ets_bw[tc].set ? (uint32_t)c->ets_bw[tc].v : 0;
        pt->by_tc[tc].weight = (bw ? bw : 1) * 1600;   /* a 1% share is one full frame a round */
    }
    bool by_dscp = !c->trust.set || c->trust.v == QOS_TRUST_DSCP;
    for (unsigned d = 0; d < 64; d++)
        pt->dscp_prio[d] = by_dscp && c->dscp2prio[d].set ? (int8_t)(c->dscp2prio[d].v & 7) : -1;
    pt->lossless = 0;
    for (unsigned prio = 0; prio < PRIOS; prio++) {
        if (c->pfc_enabled.set && ((c->pfc_enabled.v >> prio) & 1))
            pt->lossless |= (uint8_t)(1u << prio);
        const struct qos_buffer *b = &c->buffer[prio];
        struct ingress_pg *g = &pt->by_prio[prio].pg;
        g->xoff = b->xoff.set ? (uint64_t)b->xoff.v : UINT64_MAX;
        g->xon = b->xon.set ? (uint64_t)b->xon.v : UINT64_MAX;
        g->headroom = b->headroom.set ? (uint64_t)b->headroom.v : 0;
        g->limit = b->size.set ? (uint64_t)b->size.v : DEFAULT_LOSSY_LIMIT;
        g->dynamic = b->dynamic_th.set;
        g->alpha = b->dynamic_th.set ? ldexp(1.0, (int)b->dynamic_th.v) : 0;
        const struct qos_wred *w = &c->wred[prio];     /* by TC */
        pt->by_tc[prio].wred.on = w->min_bytes.set && w->max_bytes.set;
        pt->by_tc[prio].wred.ecn = !w->ecn.set || w->ecn.v;
        pt->by_tc[prio].wred.lo = (double)w->min_bytes.v;
        pt->by_tc[prio].wred.hi = (double)w->max_bytes.v;
        pt->by_tc[prio].wred.max_p = w->max_p.set ? (double)w->max_p.v / 100.0 : 0.01;
    }
    pt->rp_prios = c->dcqcn.rp_enabled.set ? (uint8_t)c->dcqcn.rp_enabled.v : 0xff;
    pt->np_prios = c->dcqcn.np_enabled.set ? (uint8_t)c->dcqcn.np_enabled.v : 0xff;
    pt->is_switch = s->nodes[pt->node].is_switch;
    pt->peer_is_switch = pt->peer != NO_INDEX && s->nodes[s->ports[pt->peer].node].is_switch;
}

static int64_t default_response_ps(const struct sim *s)
{
    /* the peer's PFC response of IEEE 802.3 Annex 31B (lib/headroom.c), at the hosts' speed */
    double bps = s->nports ? s->ports[0].bps : 100e9;
    uint32_t quanta = pfc_peer_response_quanta((uint64_t)bps);
    return (int64_t)((double)quanta * 512.0 * 1e12 / bps + 0.5);
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

static int summarise(struct sim *s, struct replay_summary *sum, struct dcb_err *err)
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

int replay_run(const struct fabric *f, const struct replay_flow *flows, size_t nflows,
               const struct replay_options *opt, const struct replay_hooks *hooks,
               struct replay_summary *summary, struct dcb_err *err)
{
    struct sim *s = calloc(1, sizeof(*s));
    if (!s)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    s->opt = opt;
    s->hooks = hooks;
    s->free_pkt = NO_INDEX;
    s->rng = opt->seed;
    s->end_ps = opt->duration_ns * REPLAY_PS_PER_NS;
    s->switch_buffer = SWITCH_BUFFER_DEFAULT;
    evq_init(&s->queue);
    int rc = sim_build(s, f, flows, nflows, err);
    if (rc == 0)
        rc = fault_resolve(s, err);
    if (rc == 0) {
        for (uint32_t i = 0; i < s->nports; i++)
            port_setup(s, i);
        fault_setup(s);
        s->pfc_gen_ps = (int64_t)HEADROOM_DEFAULT_RESPONSE_NS * REPLAY_PS_PER_NS;
        s->pfc_response_ps = opt->pfc_response_ns >= 0 ? opt->pfc_response_ns * REPLAY_PS_PER_NS
                                                       : default_response_ps(s);
        for (uint32_t i = 0; i < s->nflows; i++)
            if (!s->flows[i].waiting)
                sim_at(s, s->flows[i].start_ps, EV_FLOW_SEND, i, 0);
        if (opt->sample_interval_ns > 0)
            sim_at(s, 0, EV_SAMPLE, 0, 0);
        if (opt->series_interval_ns > 0)
            sim_at(s, 0, EV_SERIES, 0, 0);
        sim_at(s, WATCHDOG_PERIOD_PS, EV_WATCHDOG, 0, 0);
        struct heap_event e;
        while (!s->oom && evq_pop(&s->queue, &e)) {
            if (e.at > s->end_ps)
                break;                  /* stopped early */
            s->now_ps = e.at;
            s->events++;
            prefetch_next(s);
            dispatch(s, &e);
        }
        s->now_ps = s->end_ps;
        s->oom = s->oom || s->queue.oom;
        if (s->oom)
            rc = dcb_err_set(err, DCB_E_NOMEM, "out of memory after %llu events",
                             (unsigned long long)s->events);
    }
    if (rc == 0 && summary)
        rc = summarise(s, summary, err);
    sim_free(s);
    free(s);
    return rc;
}
