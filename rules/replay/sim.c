/* The replay engine's run: the options' defaults, the event loop and what each event does; see
 * replay.h. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headroom.h"
#include "sim.h"
#include "units.h"

#define WATCHDOG_PERIOD_PS 10000000000LL /* 10 ms */

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

_Static_assert(offsetof(struct flow, dp) == 64 &&
                   offsetof(struct flow, rp) + offsetof(struct dcqcn_rp, bytes) + 8 <= 128 &&
                   offsetof(struct flow, expected) >= 128 &&
                   offsetof(struct flow, rto_deadline_ps) + 8 <= 192,
               "a packet sent reads flow lines 0 and 1, one received lines 0 and 2");

/* ---- the run -------------------------------------------------------------------------------- */

static void arrive(struct sim *s, uint32_t port, uint32_t p)
{
    struct packet *pk = &s->pkts[p];
    struct port *pt = &s->ports[port];
    if (pt->port_faults && fault_arrive(s, port, p))
        return;
    if (pk->kind == PKT_PFC) {
        port_receive_pause(s, port, p);
        return;
    }
    if (pk->bytes > pt->max_frame) {
        port_drop_oversize(s, port, p, true);
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
    switch ((enum ev_kind)sim_heap_kind(e)) {
    case EV_TX_DONE: port_tx_done(s, e->a); break;
    case EV_ARRIVE: arrive(s, e->a, e->b); break;
    case EV_FLOW_SEND: nic_flow_send(s, e->a); break;
    case EV_PAUSE_APPLY: port_pause_apply(s, e->a, e->b >> 16, (uint16_t)(e->b & 0xffff)); break;
    case EV_PAUSE_END: port_pause_end(s, e->a, e->b); break;
    case EV_PFC_CHECK: switch_pfc_check(s, e->a, e->b); break;
    case EV_PFC_SEND: port_send_pfc(s, e->a, e->b >> 16, (uint16_t)(e->b & 0xffff)); break;
    case EV_PORT_WAKE: nic_wake(s, e->a); break;
    case EV_RP_TIMER: nic_rp_timer(s, e->a, e->b); break;
    case EV_RTO: nic_rto(s, e->a, e->b); break;
    case EV_HOST_DRAIN: nic_drain(s, e->a); break;
    case EV_FAULT: fault_fire(s, e->a, (enum fault_phase)e->b); break;
    case EV_SAMPLE:
        output_samples(s);
        if (s->opt->round_end)
            s->opt->round_end(s->hooks ? s->hooks->arg : NULL, s->now_ps / REPLAY_PS_PER_NS);
        if (s->opt->stop && *s->opt->stop)
            s->end_ps = s->now_ps; /* nothing after this runs */
        sim_at(s, s->now_ps + s->opt->sample_interval_ns * REPLAY_PS_PER_NS, EV_SAMPLE, 0, 0);
        break;
    case EV_SERIES:
        output_series(s);
        sim_at(s, s->now_ps + s->opt->series_interval_ns * REPLAY_PS_PER_NS, EV_SERIES, 0, 0);
        break;
    case EV_WATCHDOG:
        switch_watchdog_tick(s);
        sim_at(s, s->now_ps + WATCHDOG_PERIOD_PS, EV_WATCHDOG, 0, 0);
        break;
    }
}

/* Most of an event's time goes in waiting for memory: its packet, port or flow was last touched
 * long ago. While one event runs, the lines of the next one are fetched. (Fetching for the
 * heap's top four children too costs more than it saves.) */
static void prefetch_event(const struct sim *s, const struct heap_event *ev)
{
    switch ((enum ev_kind)sim_heap_kind(ev)) {
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
    default: break;
    }
}

static void prefetch_next(struct sim *s)
{
    const struct heap_event *next = evq_peek(&s->queue);
    if (next)
        prefetch_event(s, next);
}

static int64_t default_response_ps(const struct sim *s)
{
    /* the peer's PFC response of IEEE 802.3 Annex 31B (lib/headroom.c), at the hosts' speed */
    double bps = s->nports ? s->ports[0].bps : 100e9;
    uint32_t quanta = pfc_peer_response_quanta((uint64_t)bps);
    return ps_sat((double)quanta * 512.0 * 1e12 / bps + 0.5);
}

/* The run held more than max_memory_bytes would allow: what grew, when, and how much was in
 * flight. */
static int over_budget(const struct sim *s, int64_t at_ps, struct dcb_err *err)
{
    char limit[DCB_UNIT_BUF];
    dcb_fmt_bytes(s->budget.max, limit, sizeof(limit));
    return dcb_err_set(err, DCB_E_RANGE,
                       "%s would take the run past max_memory_bytes (%s) at "
                       "%.3f ms, after %llu events (%llu queued, %u packets)",
                       s->budget.over, limit, (double)at_ps / 1e9, (unsigned long long)s->events,
                       (unsigned long long)s->queue.pending, s->npkts);
}

int replay_run(const struct fabric *f, const struct replay_flow *flows, size_t nflows,
               const struct replay_options *opt, const struct replay_hooks *hooks,
               struct replay_summary *summary, struct dcb_err *err)
{
    if (summary)
        memset(summary, 0, sizeof(*summary));
    int rc = replay_check(opt, flows, nflows, err);
    if (rc < 0)
        return rc;
    struct sim *s = calloc(1, sizeof(*s));
    if (!s)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    s->opt = opt;
    s->hooks = hooks;
    s->free_pkt = NO_INDEX;
    s->rng = opt->seed;
    s->end_ps = opt->duration_ns * REPLAY_PS_PER_NS;
    s->budget.max = opt->max_memory_bytes ? opt->max_memory_bytes : REPLAY_MEMORY_DEFAULT;
    evq_init(&s->queue);
    evq_set_budget(&s->queue, &s->budget);
    if (!budget_take(&s->budget, sizeof(*s), "the simulator"))
        rc = DCB_E_RANGE;
    if (rc == 0)
        rc = sim_build(s, f, flows, nflows, err);
    int64_t stopped_ps = 0;
    if (rc == 0)
        rc = sim_fault_resolve(s, err);
    if (rc == 0 && sim_measure_init(s) < 0)
        rc = dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    if (rc == 0) {
        for (uint32_t i = 0; i < s->nports; i++)
            port_setup(s, i);
        /* the first sample before anything else at t = 0 (a fault, a flow's first frame): every
         * counter's series starts with the run's known zero, so its first rise counts */
        if (opt->sample_interval_ns > 0)
            sim_at(s, 0, EV_SAMPLE, 0, 0);
        fault_setup(s);
        s->pfc_gen_ps = (int64_t)HEADROOM_DEFAULT_RESPONSE_NS * REPLAY_PS_PER_NS;
        s->pfc_response_ps = opt->pfc_response_ns >= 0 ? opt->pfc_response_ns * REPLAY_PS_PER_NS
                                                       : default_response_ps(s);
        for (uint32_t i = 0; i < s->nflows; i++)
            if (!s->flows[i].waiting)
                sim_at(s, s->flows[i].start_ps, EV_FLOW_SEND, i, 0);
        if (opt->series_interval_ns > 0)
            sim_at(s, 0, EV_SERIES, 0, 0);
        sim_at(s, WATCHDOG_PERIOD_PS, EV_WATCHDOG, 0, 0);
        struct heap_event e;
        while (!s->oom && evq_pop(&s->queue, &e)) {
            if (e.at > s->end_ps)
                break; /* stopped early */
            if (e.at >= s->m.next_ps)
                sim_measure_until(s, e.at);
            s->now_ps = e.at;
            s->events++;
            prefetch_next(s);
            dispatch(s, &e);
        }
        stopped_ps = s->now_ps;
        s->now_ps = s->end_ps;
        sim_measure_until(s, s->end_ps);
        s->oom = s->oom || s->queue.oom;
        if (s->oom)
            rc = dcb_err_set(err, DCB_E_NOMEM, "out of memory after %llu events",
                             (unsigned long long)s->events);
    }
    if (rc == 0 && summary)
        rc = sim_summarise(s, summary, err);
    if (s->budget.over)
        rc = over_budget(s, stopped_ps, err);
    if (rc < 0 && summary)
        replay_summary_free(summary);
    sim_free(s);
    free(s);
    return rc;
}
