/* A port: its fields resolved from its config once (port_setup), and its transmit side, the same
 * for switches and hosts: control frames first (PFC, and on hosts the ACKs, NAKs and CNPs the NIC
 * makes), then data; a switch picks its egress queue by strict priority and then DWRR over the
 * ETS weights, skipping traffic classes its peer paused; a host picks among its paced flows.
 * PFC: a received PAUSE is obeyed after the response time for quanta x 512 bit times at the
 * port's speed; quanta 0 resumes at once. Each end follows its own config: a port sends PFC on
 * and obeys PFC for the priorities of its pfc.enabled only, sends 802.3x PAUSE (every priority)
 * with pause.global_tx and obeys it with pause.global_rx. A global pause and PFC are separate
 * states (a priority is held while either holds it) with separate counters.
 * MTU: a port takes and sends no frame longer than its MTU (a switch's counts the frame, a
 * host's the IP packet, 18 bytes less); one that is longer is dropped where it arrives (a giant,
 * drop.rx_oversize) or, from a NIC, never sent (drop.tx_oversize). */
#include <math.h>
#include <stdio.h>

#include "event_details.h"
#include "sim.h"

#define DEFAULT_LOSSY_LIMIT (512u * 1024) /* a lossy priority group's size when not set */

/* Per port: traffic classes, strict or DWRR weight, classification and DCQCN priorities from the
 * port's config, and whether it and its peer are switches. */
void port_setup(struct sim *s, uint32_t port)
{
    struct port *pt = &s->ports[port];
    const struct qos_config *c = &pt->cfg;
    pt->is_switch = s->nodes[pt->node].is_switch;
    for (unsigned prio = 0; prio < PRIOS; prio++)
        pt->tc_of[prio] = c->prio2tc[prio].set ? (uint8_t)(c->prio2tc[prio].v & 7) : (uint8_t)prio;
    for (unsigned tc = 0; tc < PRIOS; tc++) {
        if (c->ets_tsa[tc].set && c->ets_tsa[tc].v == QOS_TSA_STRICT)
            pt->strict_tcs |= (uint8_t)(1u << tc);
        else
            pt->strict_tcs &= (uint8_t) ~(1u << tc);
        uint32_t bw = c->ets_bw[tc].set ? (uint32_t)c->ets_bw[tc].v : 0;
        pt->by_tc[tc].weight = (bw ? bw : 1) * 1600; /* a 1% share is one full frame a round */
    }
    bool by_dscp = !c->trust.set || c->trust.v == QOS_TRUST_DSCP;
    for (unsigned d = 0; d < 64; d++)
        pt->dscp_prio[d] = by_dscp && c->dscp2prio[d].set ? (int8_t)(c->dscp2prio[d].v & 7) : -1;
    pt->pfc_prios = c->pfc_enabled.set ? (uint8_t)c->pfc_enabled.v : 0;
    pt->pause_global_rx = c->pause_global_rx.set && c->pause_global_rx.v;
    pt->pause_global_tx = c->pause_global_tx.set && c->pause_global_tx.v;
    pt->lossless = pt->pause_global_tx ? 0xff : pt->pfc_prios; /* 802.3x holds the whole port */
    pt->max_frame = c->mtu.set ? (uint32_t)c->mtu.v + (pt->is_switch ? 0 : ETH_HEADER_FCS)
                               : UINT32_MAX;
    pt->wred_enq_tcs = pt->wred_deq_tcs = 0;
    for (unsigned prio = 0; prio < PRIOS; prio++) {
        const struct qos_buffer *b = &c->buffer[prio];
        struct ingress_pg *g = &pt->by_prio[prio].pg;
        g->xoff = b->xoff.set ? (uint64_t)b->xoff.v : UINT64_MAX;
        g->xon = b->xon.set ? (uint64_t)b->xon.v : UINT64_MAX;
        g->headroom = b->headroom.set ? (uint64_t)b->headroom.v : 0;
        g->limit = b->size.set ? (uint64_t)b->size.v : DEFAULT_LOSSY_LIMIT;
        g->dynamic = b->dynamic_th.set;
        g->alpha = b->dynamic_th.set ? ldexp(1.0, (int)b->dynamic_th.v) : 0;
        const struct qos_wred *w = &c->wred[prio]; /* by TC */
        pt->by_tc[prio].wred.on = w->min_bytes.set && w->max_bytes.set;
        pt->by_tc[prio].wred.ecn = !w->ecn.set || w->ecn.v;
        pt->by_tc[prio].wred.lo = (double)w->min_bytes.v;
        pt->by_tc[prio].wred.hi = (double)w->max_bytes.v;
        pt->by_tc[prio].wred.max_p = w->max_p.set ? (double)w->max_p.v / 100.0 : 0.01;
        if (pt->by_tc[prio].wred.on && (!pt->by_tc[prio].wred.ecn || s->opt->mark_on_enqueue))
            pt->wred_enq_tcs |= (uint8_t)(1u << prio);
        else if (pt->by_tc[prio].wred.on)
            pt->wred_deq_tcs |= (uint8_t)(1u << prio);
    }
    struct shared_buffer *b = &s->nodes[pt->node].buffer;
    if (pt->is_switch && c->headroom_pool.set && (uint64_t)c->headroom_pool.v > b->headroom_pool)
        b->headroom_pool = (uint64_t)c->headroom_pool.v; /* the switch's, on every port */
    pt->rp_prios = c->dcqcn.rp_enabled.set ? (uint8_t)c->dcqcn.rp_enabled.v : 0xff;
    pt->np_prios = c->dcqcn.np_enabled.set ? (uint8_t)c->dcqcn.np_enabled.v : 0xff;
    pt->peer_is_switch = pt->peer != NO_INDEX && s->nodes[s->ports[pt->peer].node].is_switch;
}

void port_update_paused(struct port *pt)
{
    uint8_t mask = 0;
    for (unsigned prio = 0; prio < PRIOS; prio++) {
        pt->paused[prio] = pt->pfc_paused[prio] || pt->global_paused;
        if ((pt->pfc_paused[prio] && !pt->wd_storm[pt->tc_of[prio]]) || pt->global_paused)
            mask |= (uint8_t)(1u << pt->tc_of[prio]); /* a stormed queue ignores PFC only */
    }
    pt->paused_tc = mask;
}

bool port_drop_event_due(const struct sim *s, uint32_t port)
{
    const struct port *pt = &s->ports[port];
    return pt->last_drop_event_ps == 0 || s->now_ps - pt->last_drop_event_ps > 1000000000LL;
}

void port_drop_event(struct sim *s, uint32_t port, int prio, const char *details_json)
{
    sim_event(s, EVENT_DROP, port, prio, details_json);
    s->ports[port].last_drop_event_ps = s->now_ps;
}

void port_drop_oversize(struct sim *s, uint32_t port, uint32_t p, bool rx)
{
    struct port *pt = &s->ports[port];
    if (rx)
        pt->rx_oversize++;
    else
        pt->tx_oversize++;
    s->drops++;
    if (port_drop_event_due(s, port)) {
        struct event_details details;
        event_details_init(&details);
        event_details_str(&details, "where", rx ? "rx" : "tx");
        event_details_str(&details, "cause", "mtu");
        event_details_u64(&details, "bytes", s->pkts[p].bytes);
        event_details_u64(&details, "max_frame", pt->max_frame);
        port_drop_event(s, port, s->pkts[p].prio & 7, event_details_json(&details));
    }
    sim_pkt_free(s, p);
}

bool sim_egress_push(struct sim *s, struct port *pt, unsigned tc, uint32_t p)
{
    if (!sim_pq_push(s, &pt->by_tc[tc].q, p))
        return false;
    pt->q_nonempty |= (uint8_t)(1u << tc);
    return true;
}

uint32_t sim_egress_pop(struct sim *s, struct port *pt, unsigned tc)
{
    uint32_t p = sim_pq_pop(s, &pt->by_tc[tc].q);
    if (!pt->by_tc[tc].q.count)
        pt->q_nonempty &= (uint8_t) ~(1u << tc);
    return p;
}

/* The TCs of mask in DWRR visiting order from `from`: bit k of the result is TC (from + k) % 8. */
static inline unsigned rotate_tcs(unsigned mask, unsigned from)
{
    return ((mask >> from) | (mask << (PRIOS - from))) & 0xffu;
}

static uint32_t pick_switch_queue(struct sim *s, struct port *pt)
{
    unsigned avail = pt->q_nonempty & (uint8_t)~pt->paused_tc;
    unsigned strict = avail & pt->strict_tcs;
    if (strict) /* the highest strict TC first */
        return sim_egress_pop(s, pt, 31u - (unsigned)__builtin_clz(strict));
    unsigned shared = avail & (uint8_t)~pt->strict_tcs;
    if (!shared)
        return NO_INDEX;
    /* DWRR: each visit adds the TC's quantum; a TC sends while its deficit covers the head */
    for (unsigned round = 0; round < 2 * PRIOS + 2; round++) {
        for (unsigned order = rotate_tcs(shared, pt->dwrr_next); order; order &= order - 1) {
            unsigned tc = (pt->dwrr_next + (unsigned)__builtin_ctz(order)) % PRIOS;
            const struct pkt_queue *q = &pt->by_tc[tc].q;
            uint32_t head_bytes = s->pkts[q->v[q->head]].bytes;
            if (pt->by_tc[tc].deficit >= (int64_t)head_bytes) {
                pt->by_tc[tc].deficit -= head_bytes;
                pt->dwrr_next = (uint8_t)tc;
                return sim_egress_pop(s, pt, tc);
            }
        }
        for (unsigned left = shared; left; left &= left - 1)
            pt->by_tc[__builtin_ctz(left)].deficit += pt->by_tc[__builtin_ctz(left)].weight;
        pt->dwrr_next = (uint8_t)((pt->dwrr_next + 1) % PRIOS);
    }
    return NO_INDEX;
}

/* A NIC's frame longer than its MTU is not sent: the next one that is not, or NO_INDEX. Out of
 * line: the rare path. */
static __attribute__((noinline)) uint32_t host_refuse_oversize(struct sim *s, uint32_t port,
                                                               uint32_t p)
{
    do {
        port_drop_oversize(s, port, p, false);
        p = nic_next_packet(s, port);
    } while (p != NO_INDEX && s->pkts[p].bytes > s->ports[port].max_frame);
    return p;
}

static inline uint32_t host_next_frame(struct sim *s, const struct port *pt, uint32_t port)
{
    uint32_t p = nic_next_packet(s, port);
    return p != NO_INDEX && s->pkts[p].bytes > pt->max_frame ? host_refuse_oversize(s, port, p) : p;
}

void port_kick(struct sim *s, uint32_t port)
{
    struct port *pt = &s->ports[port];
    if (pt->busy || pt->peer == NO_INDEX || pt->down)
        return;
    uint32_t p = pt->ctrl.count ? sim_pq_pop(s, &pt->ctrl) : NO_INDEX;
    bool is_switch = pt->is_switch;
    if (p == NO_INDEX)
        p = is_switch ? pick_switch_queue(s, pt) : host_next_frame(s, pt, port);
    if (p == NO_INDEX)
        return;
    struct packet *pk = &s->pkts[p];
    if (is_switch && pk->kind != PKT_PFC) {
        switch_release(s, p); /* dequeued: its buffer is free again */
        if (pk->kind == PKT_CNP && s->now_ps - pk->enq_ps > s->cnp_max_wait_ps)
            s->cnp_max_wait_ps = s->now_ps - pk->enq_ps;
        unsigned tc = pt->tc_of[pk->prio & 7];
        if (pk->kind == PKT_DATA && pk->ect && ((pt->wred_deq_tcs >> tc) & 1))
            switch_wred(s, pt, tc, pk); /* marks; drops were decided at enqueue */
        if (pt->port_faults & PORT_FAULT_CLEAR_CE)
            pk->ce = false; /* a switch that clears CE (fault.c) */
    }
    if (!pt->peer_is_switch && pk->kind != PKT_PFC) {
        const struct flow *fl = &s->flows[pk->flow]; /* the receiving NIC will want it */
        __builtin_prefetch(fl);
        __builtin_prefetch(&fl->expected);
        __builtin_prefetch(&fl->timer_gen); /* nak_pending, acked_bytes, CNP state */
    }
    pt->busy = true;
    pt->tx_pkt = p;
    pt->tx_bytes_now = pk->bytes;
    pt->tx_prio_now = pk->kind == PKT_PFC ? 0 : (uint8_t)((pk->prio & 7) + 1);
    sim_at(s, s->now_ps + serialize_ps(pt, pk->bytes), EV_TX_DONE, port, p);
}

void port_tx_done(struct sim *s, uint32_t port)
{
    struct port *pt = &s->ports[port];
    uint32_t p = pt->tx_pkt, bytes = pt->tx_bytes_now;
    pt->busy = false;
    pt->tx_bytes += bytes;
    pt->tx_packets++;
    if (pt->tx_prio_now) {
        unsigned prio = pt->tx_prio_now - 1u;
        pt->by_prio[prio].tx_bytes += bytes;
        pt->by_tc[pt->tc_of[prio]].tx_bytes += bytes;
    }
    s->hops++;
    sim_at(s, s->now_ps + pt->prop_ps, EV_ARRIVE, pt->peer, p);
    port_kick(s, port);
}

/* A PAUSE frame queued ahead of the data: PFC for prio, or 802.3x for PAUSE_GLOBAL. */
static __attribute__((noinline)) void queue_pause_frame(struct sim *s, uint32_t port, unsigned prio,
                                                        uint16_t quanta)
{
    struct port *pt = &s->ports[port];
    uint32_t p = sim_pkt_alloc(s);
    if (p == NO_INDEX)
        return;
    struct packet *pk = &s->pkts[p];
    pk->kind = PKT_PFC;
    pk->bytes = CTRL_BYTES;
    pk->pfc_prio = (uint8_t)prio;
    pk->quanta = quanta;
    pk->prio = 7;
    if (prio == PAUSE_GLOBAL) {
        pt->pause_tx_global++;
    } else {
        pt->pfc_tx[prio]++;
        s->pfc_frames++;
    }
    if (!sim_pq_push(s, &pt->ctrl, p)) {
        sim_pkt_free(s, p);
        return;
    }
    port_kick(s, port);
}

bool port_pfc_on(const struct port *pt, unsigned prio)
{
    return (pt->pfc_prios >> prio) & 1;
}

bool port_pauses(const struct port *pt, unsigned prio)
{
    return port_pfc_on(pt, prio) || pt->pause_global_tx;
}

void port_send_pfc(struct sim *s, uint32_t port, unsigned prio, uint16_t quanta)
{
    struct port *pt = &s->ports[port];
    if (port_pfc_on(pt, prio))
        queue_pause_frame(s, port, prio, quanta);
    if (!pt->pause_global_tx)
        return;
    uint8_t before = pt->global_xoff_prios;
    if (quanta)
        pt->global_xoff_prios |= (uint8_t)(1u << prio);
    else
        pt->global_xoff_prios &= (uint8_t) ~(1u << prio);
    if (!quanta && pt->global_xoff_prios)
        return; /* another priority still needs the peer held */
    queue_pause_frame(s, port, PAUSE_GLOBAL, quanta);
    struct event_details details;
    event_details_init(&details);
    if (quanta && !before) {
        pt->global_xoff_since_ps = s->now_ps;
        event_details_u64(&details, "quanta", quanta);
        sim_event(s, EVENT_PAUSE_GLOBAL, port, -1, event_details_json(&details));
    } else if (!quanta && before) {
        event_details_i64(&details, "paused_ns",
                          (s->now_ps - pt->global_xoff_since_ps) / REPLAY_PS_PER_NS);
        sim_event(s, EVENT_PAUSE_GLOBAL, port, -1, event_details_json(&details));
    }
}

bool port_obeys_pause(const struct port *pt, unsigned prio)
{
    return prio == PAUSE_GLOBAL ? pt->pause_global_rx : port_pfc_on(pt, prio);
}

void port_receive_pause(struct sim *s, uint32_t port, uint32_t p)
{
    struct port *pt = &s->ports[port];
    const struct packet *pk = &s->pkts[p];
    unsigned prio = pk->pfc_prio;
    if (prio == PAUSE_GLOBAL)
        pt->pause_rx_global++;
    else
        pt->pfc_rx[prio]++; /* counted whether obeyed or not, as a MAC does */
    if (port_obeys_pause(pt, prio))
        sim_at(s, s->now_ps + s->pfc_response_ps, EV_PAUSE_APPLY, port,
               (uint32_t)prio << 16 | pk->quanta);
    sim_pkt_free(s, p);
}

static void pause_accounting(struct port *pt, int64_t now)
{
    port_update_paused(pt);
    bool any = false;
    for (unsigned i = 0; i < PRIOS; i++)
        any = any || pt->paused[i];
    if (any && pt->paused_any_since_ps < 0)
        pt->paused_any_since_ps = now;
    else if (!any && pt->paused_any_since_ps >= 0) {
        pt->paused_any_total_ps += now - pt->paused_any_since_ps;
        pt->paused_any_since_ps = -1;
    }
}

static int64_t pause_end_ps(const struct sim *s, const struct port *pt, uint16_t quanta)
{
    return s->now_ps + ps_sat((double)quanta * 512.0 * 1e12 / pt->bps + 0.5);
}

/* An 802.3x PAUSE: every priority held for quanta, or released at once by quanta 0. */
static void global_pause_apply(struct sim *s, uint32_t port, uint16_t quanta)
{
    struct port *pt = &s->ports[port];
    pt->global_paused = quanta != 0;
    if (quanta) {
        pt->global_paused_until_ps = pause_end_ps(s, pt, quanta);
        sim_at(s, pt->global_paused_until_ps, EV_PAUSE_END, port, PAUSE_GLOBAL);
    }
    pause_accounting(pt, s->now_ps);
    if (!quanta)
        port_kick(s, port);
}

void port_pause_apply(struct sim *s, uint32_t port, unsigned prio, uint16_t quanta)
{
    if (prio == PAUSE_GLOBAL) {
        global_pause_apply(s, port, quanta);
        return;
    }
    struct port *pt = &s->ports[port];
    pt->wd_last_pause_ps[pt->tc_of[prio]] = s->now_ps;
    if (quanta == 0) {
        if (pt->pfc_paused[prio]) {
            pt->pfc_paused[prio] = false;
            pt->paused_total_ps[prio] += s->now_ps - pt->pause_start_ps[prio];
        }
        pause_accounting(pt, s->now_ps);
        port_kick(s, port);
        return;
    }
    int64_t until = pause_end_ps(s, pt, quanta);
    if (!pt->pfc_paused[prio]) {
        pt->pfc_paused[prio] = true;
        pt->pause_start_ps[prio] = s->now_ps;
    }
    pt->paused_until_ps[prio] = until;
    pause_accounting(pt, s->now_ps);
    sim_at(s, until, EV_PAUSE_END, port, prio);
}

void port_pause_end(struct sim *s, uint32_t port, unsigned prio)
{
    struct port *pt = &s->ports[port];
    if (prio == PAUSE_GLOBAL) {
        if (!pt->global_paused || pt->global_paused_until_ps > s->now_ps)
            return; /* refreshed, or already resumed */
        pt->global_paused = false;
    } else {
        if (!pt->pfc_paused[prio] || pt->paused_until_ps[prio] > s->now_ps)
            return; /* refreshed, or already resumed by an XON */
        pt->pfc_paused[prio] = false;
        pt->paused_total_ps[prio] += s->now_ps - pt->pause_start_ps[prio];
    }
    pause_accounting(pt, s->now_ps);
    port_kick(s, port);
}
