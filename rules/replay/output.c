/* What a run emits as it goes: canonical samples and events in the collectors' form (the hooks of
 * replay.h), the queue-depth and rate series, and the queue depths the summary's percentiles are
 * taken over. */
#include <stdbool.h>
#include <stdlib.h>

#include "sim.h"

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

/* go-back-N at a host, from the run's start (zeros included: the first rise counts): the
 * receiver's out-of-sequence and duplicate packets, the sender's NAKs received (mlx5's
 * packet_seq_err), retransmit timeouts (local_ack_timeout_err) and packets sent again. */
static void host_loss_samples(struct sim *s, const struct port *pt)
{
    const struct nic_loss *l = &pt->loss;
    sample(s, pt, METRIC_ROCE_OUT_OF_SEQUENCE, -1, -1, l->out_of_sequence, 0);
    sample(s, pt, METRIC_ROCE_DUPLICATE_REQUEST, -1, -1, l->duplicates, 0);
    sample(s, pt, METRIC_ROCE_PACKET_SEQ_ERR, -1, -1, l->naks_received, 0);
    sample(s, pt, METRIC_ROCE_LOCAL_ACK_TIMEOUT_ERR, -1, -1, l->ack_timeouts, 0);
    sample(s, pt, METRIC_ROCE_RETRANSMITS, -1, -1, l->retransmits, 0);
}

/* Every counter series is sampled from the run's first sample (before anything happens at t = 0,
 * so all zeros) to its last, zeros included: a reader's delta over any window that starts at or
 * after the run's start then counts every rise, the first included (a collector's first reading
 * of a counter that has run for days is no such baseline, and stays a first reading). Gauges
 * (watermarks, queue depths) only where the priority or queue was used. */
static void prio_samples(struct sim *s, const struct port *pt, bool is_switch)
{
    for (int prio = 0; prio < PRIOS; prio++) {
        sample(s, pt, METRIC_PRIO_TX_BYTES, prio, -1, pt->by_prio[prio].tx_bytes, 0);
        sample(s, pt, METRIC_PRIO_RX_BYTES, prio, -1, pt->by_prio[prio].rx_bytes, 0);
        sample(s, pt, METRIC_PFC_TX_PAUSE, prio, -1, pt->pfc_tx[prio], 0);
        sample(s, pt, METRIC_PFC_RX_PAUSE, prio, -1, pt->pfc_rx[prio], 0);
        int64_t paused = pt->paused_total_ps[prio] +
                         (pt->pfc_paused[prio] ? s->now_ps - pt->pause_start_ps[prio] : 0);
        sample(s, pt, METRIC_PFC_RX_PAUSE_US, prio, -1, (uint64_t)(paused / 1000000), 0);
        if (!is_switch)
            continue;
        sample(s, pt, METRIC_PG_DROPS, prio, -1, pt->by_prio[prio].pg.drops, 0);
        if (!pt->by_prio[prio].tx_bytes && !pt->by_prio[prio].rx_bytes && !pt->pfc_tx[prio] &&
            !pt->pfc_rx[prio])
            continue;
        sample(s, pt, METRIC_PG_WATERMARK_BYTES, prio, -1, 0,
               (double)pt->by_prio[prio].pg.watermark);
        sample(s, pt, METRIC_PG_HEADROOM_WATERMARK_BYTES, prio, -1, 0,
               (double)pt->by_prio[prio].pg.headroom_watermark);
    }
}

/* The traffic classes the PFC watchdog guards (those of the lossless priorities), which SONiC
 * keeps its pfcwd counters for. */
static unsigned watchdog_tcs(const struct sim *s, const struct port *pt)
{
    if (!s->nodes[pt->node].is_switch || !pt->cfg.pfcwd_detect_ms.set)
        return 0;
    unsigned tcs = 0;
    for (int prio = 0; prio < PRIOS; prio++)
        if (pt->lossless >> prio & 1)
            tcs |= 1u << pt->tc_of[prio];
    return tcs;
}

static void queue_samples(struct sim *s, const struct port *pt)
{
    unsigned guarded = watchdog_tcs(s, pt);
    for (int tc = 0; tc < PRIOS; tc++) {
        const struct port_tc *q = &pt->by_tc[tc];
        if (guarded >> tc & 1)
            sample(s, pt, METRIC_PFCWD_TX_DROP, -1, tc, q->wd_drops, 0);
        sample(s, pt, METRIC_QUEUE_TX_BYTES, -1, tc, q->tx_bytes, 0);
        sample(s, pt, METRIC_QUEUE_DROPS, -1, tc, q->drops, 0);
        sample(s, pt, METRIC_QUEUE_WRED_DROPS, -1, tc, q->wred_drops, 0);
        sample(s, pt, METRIC_QUEUE_ECN_MARKED, -1, tc, q->marked, 0);
        if (!q->tx_bytes && !q->q.count && !q->drops)
            continue;
        sample(s, pt, METRIC_QUEUE_DEPTH_BYTES, -1, tc, 0, (double)q->q.bytes);
        sample(s, pt, METRIC_QUEUE_WATERMARK_BYTES, -1, tc, 0, (double)q->watermark);
    }
}

void output_samples(struct sim *s)
{
    if (!s->hooks || !s->hooks->sample)
        return;
    for (uint32_t i = 0; i < s->nports; i++) {
        const struct port *pt = &s->ports[i];
        if (pt->peer == NO_INDEX)
            continue;
        bool is_switch = s->nodes[pt->node].is_switch;
        sample(s, pt, METRIC_PORT_TX_BYTES, -1, -1, pt->tx_bytes, 0);
        sample(s, pt, METRIC_PORT_RX_BYTES, -1, -1, pt->rx_bytes, 0);
        sample(s, pt, METRIC_PORT_TX_PACKETS, -1, -1, pt->tx_packets, 0);
        sample(s, pt, METRIC_PORT_RX_PACKETS, -1, -1, pt->rx_packets, 0);
        sample(s, pt, METRIC_LINK_DOWN_EVENTS, -1, -1, pt->down_events, 0);
        sample(s, pt, METRIC_LINK_FCS_ERRORS, -1, -1, pt->fcs_errors, 0);
        sample(s, pt, METRIC_PAUSE_TX_GLOBAL, -1, -1, pt->pause_tx_global, 0);
        sample(s, pt, METRIC_PAUSE_RX_GLOBAL, -1, -1, pt->pause_rx_global, 0);
        sample(s, pt, METRIC_DROP_RX_OVERSIZE, -1, -1, pt->rx_oversize, 0);
        sample(s, pt, METRIC_DROP_TX_OVERSIZE, -1, -1, pt->tx_oversize, 0);
        prio_samples(s, pt, is_switch);
        if (is_switch) {
            queue_samples(s, pt);
        } else {
            sample(s, pt, METRIC_CNP_SENT, -1, -1, pt->cnp_sent, 0);
            sample(s, pt, METRIC_CNP_HANDLED, -1, -1, pt->cnp_handled, 0);
            sample(s, pt, METRIC_ROCE_ECN_MARKED_RX, -1, -1, pt->ce_received, 0);
            sample(s, pt, METRIC_CNP_IGNORED, -1, -1, pt->cnp_ignored, 0);
            host_loss_samples(s, pt);
        }
    }
}

void output_series(struct sim *s)
{
    const struct replay_hooks *h = s->hooks;
    for (uint32_t i = 0; i < s->nports; i++) {
        const struct port *pt = &s->ports[i];
        if (!s->nodes[pt->node].is_switch)
            continue;
        for (int tc = 0; tc < PRIOS; tc++) {
            if (!pt->by_tc[tc].tx_bytes && !pt->by_tc[tc].q.count)
                continue;
            if (s->now_ps >= s->m.warmup_ps)
                sim_measure_queue_depth(s, i, (unsigned)tc, (double)pt->by_tc[tc].q.bytes);
            if (h && h->series) {
                struct replay_series_point sp = { SERIES_QUEUE_BYTES,
                                                  s->now_ps / REPLAY_PS_PER_NS,
                                                  s->nodes[pt->node].name,
                                                  pt->name,
                                                  tc,
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
        struct replay_series_point rc = {
            SERIES_FLOW_RC, s->now_ps / REPLAY_PS_PER_NS, s->nodes[fl->src].name, pt->name, (int)f,
            fl->rp.rc
        };
        h->series(h->arg, &rc);
        rc.kind = SERIES_FLOW_RT;
        rc.value = fl->rp.rt;
        h->series(h->arg, &rc);
    }
}
