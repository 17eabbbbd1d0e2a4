/* A host's NIC: per-QP senders paced at their DCQCN rate (the reaction point), go-back-N
 * receivers that ACK, NAK and, as notification point, answer CE marks with at most one CNP per
 * QP per interval, and a receive side that drains at a set rate and pauses its switch when it
 * falls behind (the slow receiver). The NIC classifies by its own config (trust, dscp2prio),
 * runs PFC only on its pfc.enabled, counts RoCE's go-back-N losses (roce.*), and paces
 * TCP-like flows (the lossy class) by a Reno window. */
#include <stdio.h>
#include <stdlib.h>

#include "event_details.h"
#include "sim.h"

/* TCP-like traffic (replay_transport: by default a flow on a priority its NIC runs neither PFC
 * nor DCQCN's reaction point on, the lossy class beside RoCE) keeps a congestion window, in
 * packets, as TCP Reno does: none until its first loss (it starts at the line rate, as every
 * flow does), then at a loss (a NAK for a PSN sent after the last cut, or a retransmit timeout)
 * half the packets in flight, never under LOSSY_MIN_CWND, and one packet more for each window's
 * worth of packets ACKed (one a round trip). At most cwnd packets are in flight: the ACKs clock
 * it. Its losses are not RoCE's: they stay out of the roce.* counters and the loss events. */
#define LOSSY_MIN_CWND 2.0
#define LOSS_EVENT_PS 10000000000LL /* one psn_gap, nak, retransmit event per host per 10 ms */

uint8_t nic_flow_prio(const struct qos_config *c, uint8_t dscp)
{
    if (c->trust.set && c->trust.v == QOS_TRUST_PCP)
        return 0; /* routed RoCE is untagged: no PCP to send */
    return c->dscp2prio[dscp & 63].set ? (uint8_t)(c->dscp2prio[dscp & 63].v & 7) : 0;
}

/* The priority the NIC gives a packet it receives: by DSCP under trust dscp when its map has
 * the DSCP, else the PCP it came with (the switch's rewrite). */
static unsigned nic_classify(const struct port *pt, const struct packet *pk)
{
    int8_t by_dscp = pt->dscp_prio[pk->dscp & 63];
    return by_dscp >= 0 ? (unsigned)by_dscp : pk->prio & 7u;
}

const struct dcqcn_params *sim_flow_dcqcn(struct sim *s, const struct flow *fl)
{
    (void)s;
    return fl->dp;
}

static bool rp_enabled(const struct sim *s, const struct flow *fl)
{
    return !s->opt->dcqcn_off && ((s->ports[fl->src_port].rp_prios >> fl->prio) & 1);
}

static bool np_enabled(const struct sim *s, uint32_t port, unsigned prio)
{
    return !s->opt->dcqcn_off && ((s->ports[port].np_prios >> prio) & 1);
}

/* The lossy class's window: shut while cwnd packets are in flight. */
static bool window_open(const struct flow *fl)
{
    return fl->cwnd <= 0 || fl->next_psn <= fl->snd_una ||
           (double)(fl->next_psn - fl->snd_una) < fl->cwnd;
}

static bool has_more(const struct flow *fl)
{
    return !fl->done && (fl->npackets == 0 || fl->next_psn < fl->npackets) &&
           (!fl->lossy || window_open(fl));
}

/* A loss the sender learnt of: the window halves to half the packets in flight, once for the
 * packets in flight at a cut (a NAK for a PSN sent before it does not cut again); a timeout
 * always cuts. */
static void lossy_cut(struct flow *fl, uint32_t psn, bool timeout)
{
    if (!fl->lossy || (!timeout && fl->cwnd > 0 && psn < fl->lossy_recover))
        return;
    double half = fl->next_psn > fl->snd_una ? (double)(fl->next_psn - fl->snd_una) / 2 : 0;
    fl->cwnd = half > LOSSY_MIN_CWND ? half : LOSSY_MIN_CWND;
    fl->lossy_recover = fl->psn_high;
}

/* What a loss event says beyond its flow: up to two named PSNs (key NULL: none) and why. */
struct loss_what {
    const char *key[2];
    uint32_t psn[2];
    const char *reason; /* or NULL */
};

/* A loss event (psn_gap, nak, retransmit) at a host, at most one of a kind per LOSS_EVENT_PS:
 * "episodes" counts those since the last one emitted, this one included. */
static void loss_event(struct sim *s, uint32_t port, enum nic_loss_event kind, uint32_t f,
                       const struct loss_what *what)
{
    static const enum dcb_event_kind kinds[LOSS_EVENT_KINDS] = { EVENT_PSN_GAP, EVENT_NAK,
                                                                 EVENT_RETRANSMIT };
    struct nic_loss *l = &s->ports[port].loss;
    if (s->flows[f].lossy)
        return; /* TCP's losses are no RDMA transport event */
    l->held[kind]++;
    if (l->event_ps[kind] && s->now_ps - l->event_ps[kind] < LOSS_EVENT_PS)
        return;
    const struct flow *fl = &s->flows[f];
    struct event_details details;
    event_details_init(&details);
    event_details_u64(&details, "flow", f);
    event_details_str(&details, "src", s->nodes[fl->src].name);
    event_details_str(&details, "dst", s->nodes[fl->dst].name);
    for (size_t i = 0; i < 2 && what->key[i]; i++)
        event_details_u64(&details, what->key[i], what->psn[i]);
    if (what->reason)
        event_details_str(&details, "reason", what->reason);
    event_details_u64(&details, "episodes", l->held[kind]);
    sim_event(s, kinds[kind], port, fl->prio, event_details_json(&details));
    l->event_ps[kind] = s->now_ps ? s->now_ps : 1;
    l->held[kind] = 0;
}

static void make_ready(struct sim *s, uint32_t f)
{
    struct flow *fl = &s->flows[f];
    if (fl->ready || !has_more(fl))
        return;
    struct port *pt = &s->ports[fl->src_port];
    if (pt->nready == pt->ready_cap) {
        uint32_t cap = pt->ready_cap ? pt->ready_cap * 2 : 16;
        if (!budget_take(&s->budget,
                         (uint64_t)(cap - pt->ready_cap) *
                             (sizeof(*pt->ready) + sizeof(*pt->ready_at) + sizeof(*pt->ready_prio)),
                         "the NICs' ready lists")) {
            s->oom = true;
            return;
        }
        uint32_t *grown = realloc(pt->ready, cap * sizeof(*grown));
        if (!grown) {
            s->oom = true;
            return;
        }
        pt->ready = grown;
        int64_t *grown_at = realloc(pt->ready_at, cap * sizeof(*grown_at));
        if (!grown_at) {
            s->oom = true;
            return;
        }
        pt->ready_at = grown_at;
        uint8_t *grown_prio = realloc(pt->ready_prio, cap * sizeof(*grown_prio));
        if (!grown_prio) {
            s->oom = true;
            return;
        }
        pt->ready_prio = grown_prio;
        pt->ready_cap = cap;
    }
    pt->ready_prio[pt->nready] = fl->prio;
    pt->ready_by_prio[fl->prio & 7]++;
    pt->ready_at[pt->nready] = fl->next_send_ps;
    pt->ready[pt->nready++] = f;
    fl->ready = true;
    port_kick(s, fl->src_port);
}

/* A ready flow that finished (acked while going back): the scan drops its slot when it passes. */
static void ready_gone(struct sim *s, uint32_t f)
{
    struct port *pt = &s->ports[s->flows[f].src_port];
    for (uint32_t i = 0; i < pt->nready; i++)
        if (pt->ready[i] == f && pt->ready_at[i] != READY_GONE) {
            pt->ready_at[i] = READY_GONE;
            pt->ready_gone++;
        }
}

void nic_flow_send(struct sim *s, uint32_t f)
{
    struct flow *fl = &s->flows[f];
    if (!fl->started) {
        fl->started = true;
        fl->next_send_ps = s->now_ps;
        fl->rp.alpha_at_ns = s->now_ps / REPLAY_PS_PER_NS; /* the paper's alpha timer */
        fl->lossy = fl->transport == REPLAY_TRANSPORT_TCP ||
                    (fl->transport == REPLAY_TRANSPORT_AUTO &&
                     !((s->ports[fl->src_port].pfc_prios >> fl->prio) & 1) && !rp_enabled(s, fl));
    }
    make_ready(s, f);
}

/* The retransmit timer moves on every ACK; rather than one queued event per move (millions of
 * stale ones), one event waits and, when it fires early, sleeps again until the deadline. */
static void arm_rto(struct sim *s, uint32_t f)
{
    struct flow *fl = &s->flows[f];
    fl->rto_deadline_ps = s->now_ps + s->opt->retransmit_timeout_ns * REPLAY_PS_PER_NS;
    if (!fl->rto_pending) {
        fl->rto_pending = true;
        sim_at(s, fl->rto_deadline_ps, EV_RTO, f, fl->rto_gen);
    }
}

static uint32_t data_packet(struct sim *s, uint32_t f)
{
    struct flow *fl = &s->flows[f];
    uint32_t p = sim_pkt_alloc(s);
    if (p == NO_INDEX)
        return NO_INDEX;
    struct packet *pk = &s->pkts[p];
    uint32_t payload = fl->payload;
    if (fl->npackets && fl->next_psn == fl->npackets - 1 && fl->bytes % fl->payload)
        payload = (uint32_t)(fl->bytes % fl->payload);
    pk->kind = PKT_DATA;
    pk->flow = f;
    pk->psn = fl->next_psn;
    pk->payload = payload;
    pk->bytes = payload + HEADER_BYTES;
    pk->prio = fl->prio;
    pk->dscp = fl->dscp;
    pk->ect = !(s->ports[fl->src_port].port_faults & PORT_FAULT_NOT_ECT); /* nic.ecn_capable */
    pk->dst = fl->dst;
    pk->ecmp_key = fl->ecmp_key;
    if (fl->next_psn < fl->psn_high && !fl->lossy)
        s->ports[fl->src_port].loss.retransmits++;
    fl->next_psn++;
    fl->packets_sent++;
    if (fl->next_psn > fl->psn_high)
        fl->psn_high = fl->next_psn;
    return p;
}

static void deactivate(struct port *pt, struct flow *fl, uint32_t idx)
{
    pt->ready_by_prio[pt->ready_prio[idx] & 7]--;
    if (pt->ready_at[idx] == READY_GONE)
        pt->ready_gone--;
    pt->ready[idx] = pt->ready[--pt->nready];
    pt->ready_at[idx] = pt->ready_at[pt->nready];
    pt->ready_prio[idx] = pt->ready_prio[pt->nready];
    fl->ready = false;
}

/* The flows the port will most likely pick for its next two packets (the next ones in round-robin
 * order paced out by then), fetched now: a flow is far in memory, and one packet's time is not
 * always long enough to bring it. */
static void prefetch_next_senders(const struct sim *s, const struct port *pt, int64_t now,
                                  int64_t frame_ps)
{
    uint32_t n = pt->nready, found = 0;
    if (!n)
        return;
    uint32_t idx = pt->ready_rr % n;
    for (uint32_t k = 0; k < n && k < 32; k++, idx = idx + 1 == n ? 0 : idx + 1) {
        if (pt->ready_at[idx] <= now + (int64_t)(found + 1) * frame_ps) {
            const struct flow *fl = &s->flows[pt->ready[idx]];
            __builtin_prefetch(fl);
            __builtin_prefetch(&fl->rp);
            if (++found == 2)
                return;
        }
    }
}

/* From slot j on, below end: the first slot due by now (or end), the earliest time of those
 * passed going to *earliest. Most of a busy host's flows are paced out of the way, so this runs
 * over long stretches: four slots a step, without a branch a slot. */
static uint32_t skip_not_due(const int64_t *at, uint32_t j, uint32_t end, int64_t now,
                             int64_t *earliest)
{
    int64_t m = *earliest;
    for (; j + 4 <= end; j += 4) {
        int64_t a0 = at[j], a1 = at[j + 1], a2 = at[j + 2], a3 = at[j + 3];
        if ((a0 <= now) | (a1 <= now) | (a2 <= now) | (a3 <= now))
            break;
        int64_t lo = a0 < a1 ? a0 : a1, hi = a2 < a3 ? a2 : a3;
        lo = lo < hi ? lo : hi;
        m = lo < m ? lo : m;
    }
    for (; j < end && at[j] > now; j++)
        m = at[j] < m ? at[j] : m;
    *earliest = m;
    return j;
}

/* The same while the switch pauses some priorities: a paused flow's slot is passed whether it is
 * due or not, and its time does not count (a ready slot, READY_GONE aside, always has more to
 * send: a flow leaves the ready list when it has not, or is marked gone when it finishes). */
static uint32_t skip_not_due_paused(const int64_t *at, const uint8_t *prio, const bool *paused,
                                    uint32_t j, uint32_t end, int64_t now, int64_t *earliest)
{
    int64_t m = *earliest;
    for (; j < end; j++) {
        int64_t a = at[j];
        if (paused[prio[j]]) {
            if (a == READY_GONE)
                break;
            continue;
        }
        if (a <= now)
            break;
        m = a < m ? a : m;
    }
    *earliest = m;
    return j;
}

/* Whether a ready flow's priority is not paused. */
static bool unpaused_ready(const struct port *pt)
{
    for (unsigned prio = 0; prio < PRIOS; prio++)
        if (pt->ready_by_prio[prio] && !pt->paused[prio])
            return true;
    return false;
}

/* The next packet of the host's active flows, round robin, skipping priorities its switch
 * paused and flows whose pacing gap is not over. Pacing needs no event per packet: when nothing
 * may go now, one wake-up is set for the earliest flow (the event queue stays small). */
uint32_t nic_next_packet(struct sim *s, uint32_t port)
{
    struct port *pt = &s->ports[port];
    int64_t earliest = INT64_MAX, now = s->now_ps;
    bool any_paused = pt->paused_any_since_ps >= 0;
    if (any_paused && !pt->ready_gone && !unpaused_ready(pt))
        return NO_INDEX; /* what the scan would find: nothing, and no wake-up */
    uint32_t n = pt->nready, cur_n = n, idx = n ? pt->ready_rr % n : 0;
    for (uint32_t k = 0; k < n && pt->nready; k++, idx = idx + 1 == cur_n ? 0 : idx + 1) {
        if (pt->nready != cur_n) { /* a slot went: where (ready_rr + k) % nready is now */
            cur_n = pt->nready;
            idx = (pt->ready_rr + k) % cur_n;
        }
        { /* the slots not due, up to the wrap or the k-th */
            uint32_t end = idx + (n - k) < cur_n ? idx + (n - k) : cur_n;
            uint32_t j = any_paused ? skip_not_due_paused(pt->ready_at, pt->ready_prio, pt->paused,
                                                          idx, end, now, &earliest)
                                    : skip_not_due(pt->ready_at, idx, end, now, &earliest);
            k += j - idx;
            idx = j;
            if (k >= n)
                break;
            if (idx == cur_n) { /* at the wrap: the loop's step takes idx to 0 */
                idx = cur_n - 1;
                k--;
                continue;
            }
        }
        int64_t at = pt->ready_at[idx];
        if (at > now) { /* not paced out yet (READY_GONE and paused: below) */
            if (at < earliest && !(any_paused && pt->paused[s->flows[pt->ready[idx]].prio]))
                earliest = at;
            continue;
        }
        uint32_t f = pt->ready[idx];
        struct flow *fl = &s->flows[f];
        if (at == READY_GONE || !has_more(fl)) {
            deactivate(pt, fl, idx);
            continue;
        }
        if (any_paused && pt->paused[fl->prio])
            continue;
        uint32_t p = data_packet(s, f);
        if (p == NO_INDEX)
            return NO_INDEX;
        pt->ready_rr = idx + 1;
        const struct dcqcn_params *dp = sim_flow_dcqcn(s, fl);
        double rate = rp_enabled(s, fl) ? fl->rp.rc : pt->bps;
        if (rate > pt->bps)
            rate = pt->bps;
        int64_t gap = rate == pt->bps
                          ? serialize_ps(pt, s->pkts[p].bytes)
                          : ps_sat((double)(s->pkts[p].bytes + WIRE_OVERHEAD) * 8e12 / rate + 0.5);
        fl->next_send_ps = s->now_ps + gap;
        pt->ready_at[idx] = fl->next_send_ps;
        if (rp_enabled(s, fl))
            dcqcn_rp_on_sent(&fl->rp, dp, s->pkts[p].bytes);
        if (!has_more(fl)) {
            deactivate(pt, fl, idx);
            arm_rto(s, f);
        }
        prefetch_next_senders(s, pt, s->now_ps, serialize_ps(pt, s->pkts[p].bytes));
        return p;
    }
    if (earliest != INT64_MAX && (!pt->wake_ps || earliest < pt->wake_ps)) {
        pt->wake_ps = earliest;
        sim_at(s, earliest, EV_PORT_WAKE, port, 0);
    }
    return NO_INDEX;
}

void nic_wake(struct sim *s, uint32_t port)
{
    struct port *pt = &s->ports[port];
    if (pt->wake_ps && pt->wake_ps <= s->now_ps)
        pt->wake_ps = 0;
    port_kick(s, port);
}

static void send_ctrl(struct sim *s, uint32_t port, enum pkt_kind kind, uint32_t f, uint32_t psn)
{
    uint32_t p = sim_pkt_alloc(s);
    if (p == NO_INDEX)
        return;
    struct flow *fl = &s->flows[f];
    struct packet *pk = &s->pkts[p];
    const struct qos_config *c = &s->ports[port].cfg;
    pk->kind = (uint8_t)kind;
    pk->flow = f;
    pk->psn = psn;
    pk->bytes = CTRL_BYTES;
    pk->dst = fl->src;
    pk->ecmp_key = fl->ecmp_key;
    pk->ect = false;
    if (kind == PKT_CNP) {
        pk->prio = c->cnp_prio.set ? (uint8_t)c->cnp_prio.v : 6;
        pk->dscp = c->cnp_dscp.set ? (uint8_t)c->cnp_dscp.v : 48;
    } else {
        pk->prio = fl->prio;
        pk->dscp = fl->dscp;
    }
    if (!sim_pq_push(s, &s->ports[port].ctrl, p)) {
        sim_pkt_free(s, p);
        return;
    }
    port_kick(s, port);
}

static double backlog_now(const struct sim *s, const struct port *pt)
{
    double drain = pt->drain_bps > 0 ? pt->drain_bps : pt->bps;
    double gone = drain / 8.0 * (double)(s->now_ps - pt->rx_backlog_at_ps) / 1e12;
    return pt->rx_backlog > gone ? pt->rx_backlog - gone : 0;
}

/* The slow receiver: the backlog grows when data arrives faster than the host drains it; above
 * host_rx_xoff_bytes the NIC pauses its switch until it is down to half. */
static void receive_backlog(struct sim *s, uint32_t port, unsigned prio, uint32_t bytes)
{
    struct port *pt = &s->ports[port];
    if (pt->drain_bps <= 0 || !pt->rx_xoff_bytes)
        return;
    pt->rx_backlog = backlog_now(s, pt) + bytes;
    pt->rx_backlog_at_ps = s->now_ps;
    if (pt->rx_backlog > (double)pt->rx_xoff_bytes && !pt->rx_xoff[prio] && port_pauses(pt, prio)) {
        pt->rx_xoff[prio] = true;
        pt->rx_xoff_sent_ps = s->now_ps;
        port_send_pfc(s, port, prio, 0xffff);
        if (port_pfc_on(pt, prio))
            sim_event(s, EVENT_PFC_XOFF, port, (int)prio, "{\"reason\":\"slow receiver\"}");
        sim_at(s, s->now_ps + 1000000, EV_HOST_DRAIN, port, 0);
    }
}

/* While the host holds its switch off: XON once the backlog is down to half the threshold,
 * the XOFF refreshed at half its length (as a NIC does), and the next look when either is due
 * (at least 1 us apart) rather than every microsecond. */
void nic_drain(struct sim *s, uint32_t port)
{
    struct port *pt = &s->ports[port];
    double backlog = backlog_now(s, pt), xon = (double)pt->rx_xoff_bytes / 2;
    int64_t refresh_ps = ps_sat(0xffff * 512.0 * 1e12 / pt->bps / 2);
    bool any = false, refresh = s->now_ps - pt->rx_xoff_sent_ps >= refresh_ps;
    for (unsigned prio = 0; prio < PRIOS; prio++) {
        if (!pt->rx_xoff[prio])
            continue;
        if (backlog <= xon) {
            pt->rx_xoff[prio] = false;
            port_send_pfc(s, port, prio, 0);
            if (port_pfc_on(pt, prio))
                sim_event(s, EVENT_PFC_XON, port, (int)prio, "{\"reason\":\"drained\"}");
        } else {
            if (refresh)
                port_send_pfc(s, port, prio, 0xffff);
            any = true;
        }
    }
    if (!any)
        return;
    if (refresh)
        pt->rx_xoff_sent_ps = s->now_ps;
    double drain = pt->drain_bps > 0 ? pt->drain_bps : pt->bps;
    double to_xon = (backlog - xon) * 8e12 / drain + 1;
    int64_t next = pt->rx_xoff_sent_ps + refresh_ps - s->now_ps;
    if (to_xon < (double)next)
        next = (int64_t)to_xon;
    if (next < 1000000)
        next = 1000000;
    sim_at(s, s->now_ps + next, EV_HOST_DRAIN, port, 0);
}

/* The notification point, at a marked packet: whether it sends a CNP, at most one per interval.
 * The paper's NP answers the first mark in each window of the interval, the windows following
 * each other from its first CNP: a CNP for each window that saw a mark, as the fluid model has
 * it. mlx5's answers none of the marks that come within an interval after a CNP. */
static bool np_answers(struct flow *fl, const struct dcqcn_params *dp, int64_t now)
{
    if (now < fl->cnp_next_ps)
        return false;
    int64_t interval = dp->cnp_interval_ns * REPLAY_PS_PER_NS;
    if (interval <= 0)
        fl->cnp_next_ps = now;
    else if (dp->cnp_per_window && fl->cnp_next_ps != INT64_MIN)
        fl->cnp_next_ps += ((now - fl->cnp_next_ps) / interval + 1) * interval;
    else
        fl->cnp_next_ps = now + interval;
    return true;
}

static void receive_data(struct sim *s, uint32_t port, uint32_t p)
{
    struct packet *pk = &s->pkts[p];
    uint32_t f = pk->flow;
    struct flow *fl = &s->flows[f];
    struct port *pt = &s->ports[port];
    if (pk->ce) {
        fl->ce_marked++;
        pt->ce_received++;
        if (np_enabled(s, port, nic_classify(pt, pk)) &&
            np_answers(fl, sim_flow_dcqcn(s, fl), s->now_ps)) {
            pt->cnp_sent++;
            s->cnps++;
            send_ctrl(s, port, PKT_CNP, f, 0);
        }
    }
    if (pk->psn == fl->expected) {
        fl->expected++;
        fl->nak_pending = false;
        receive_backlog(s, port, pk->prio, pk->payload);
        bool last = fl->npackets && fl->expected == fl->npackets;
        if (++fl->since_ack >= s->opt->ack_every || last) {
            fl->since_ack = 0;
            send_ctrl(s, port, PKT_ACK, f, fl->expected - 1);
        }
    } else if (pk->psn > fl->expected) {
        fl->out_of_sequence++;
        if (!fl->lossy)
            pt->loss.out_of_sequence++;
        if (!fl->nak_pending) {
            fl->nak_pending = true;
            fl->naks_sent++;
            send_ctrl(s, port, PKT_NAK, f, fl->expected);
            const struct loss_what what = { { "expected_psn", "psn" },
                                            { fl->expected, pk->psn },
                                            NULL };
            loss_event(s, port, LOSS_PSN_GAP, f, &what);
        }
    } else if (!fl->lossy) {
        pt->loss.duplicates++;
    }
    sim_pkt_free(s, p);
}

static void acked(struct sim *s, uint32_t f, uint32_t through_psn)
{
    struct flow *fl = &s->flows[f];
    if (through_psn + 1 <= fl->snd_una)
        return;
    if (fl->cwnd > 0) /* the lossy class: one packet a window ACKed */
        fl->cwnd += (double)(through_psn + 1 - fl->snd_una) / fl->cwnd;
    fl->snd_una = through_psn + 1;
    uint64_t bytes = (uint64_t)fl->snd_una * fl->payload;
    fl->acked_bytes = fl->bytes && bytes > fl->bytes ? fl->bytes : bytes;
    if (fl->npackets && fl->snd_una >= fl->npackets && !fl->done) {
        fl->done = true;
        fl->finish_ps = s->now_ps;
        if (fl->ready)
            ready_gone(s, f);
        fl->rto_gen++;
        sim_flow_finished(s, f);
    } else {
        arm_rto(s, f);
        if (fl->cwnd > 0)
            make_ready(s, f); /* the window opened */
    }
}

static void go_back(struct sim *s, uint32_t f, uint32_t psn, const char *why)
{
    struct flow *fl = &s->flows[f];
    if (fl->done || psn >= fl->next_psn)
        return;
    const struct loss_what what = { { "from_psn", "high_psn" }, { psn, fl->psn_high }, why };
    loss_event(s, fl->src_port, LOSS_RETRANSMIT, f, &what);
    fl->next_psn = psn;
    make_ready(s, f);
}

static void nak_received(struct sim *s, uint32_t port, uint32_t f, uint32_t psn)
{
    struct flow *fl = &s->flows[f];
    if (!fl->lossy)
        s->ports[port].loss.naks_received++;
    const struct loss_what what = { { "psn" }, { psn }, NULL };
    loss_event(s, port, LOSS_NAK, f, &what);
    if (psn > 0)
        acked(s, f, psn - 1);
    if (!fl->done)
        lossy_cut(fl, psn, false);
    go_back(s, f, psn, "nak");
}

static void handle_cnp(struct sim *s, uint32_t port, uint32_t f)
{
    struct flow *fl = &s->flows[f];
    fl->cnps_received++;
    if (!rp_enabled(s, fl)) {
        s->ports[port].cnp_ignored++;
        return;
    }
    s->ports[port].cnp_handled++;
    const struct dcqcn_params *dp = sim_flow_dcqcn(s, fl);
    if (dcqcn_rp_on_cnp(&fl->rp, dp, s->now_ps / REPLAY_PS_PER_NS)) {
        fl->timer_gen++;
        sim_at(s, s->now_ps + dp->timer_ns * REPLAY_PS_PER_NS, EV_RP_TIMER, f, fl->timer_gen);
    }
}

void nic_rp_timer(struct sim *s, uint32_t f, uint32_t gen)
{
    struct flow *fl = &s->flows[f];
    if (gen != fl->timer_gen || fl->done)
        return;
    const struct dcqcn_params *dp = sim_flow_dcqcn(s, fl);
    dcqcn_rp_on_timer(&fl->rp, dp);
    if (fl->rp.rc < dp->line_bps)
        sim_at(s, s->now_ps + dp->timer_ns * REPLAY_PS_PER_NS, EV_RP_TIMER, f, gen);
}

void nic_rto(struct sim *s, uint32_t f, uint32_t gen)
{
    struct flow *fl = &s->flows[f];
    fl->rto_pending = false;
    if (gen != fl->rto_gen || fl->done)
        return;
    if (s->now_ps < fl->rto_deadline_ps) {
        fl->rto_pending = true; /* moved on since: wait for the deadline */
        sim_at(s, fl->rto_deadline_ps, EV_RTO, f, gen);
        return;
    }
    if (fl->snd_una >= fl->next_psn)
        return;
    fl->timeouts++;
    if (!fl->lossy)
        s->ports[fl->src_port].loss.ack_timeouts++;
    lossy_cut(fl, fl->snd_una, true);
    go_back(s, f, fl->snd_una, "timeout");
    arm_rto(s, f);
}

void nic_receive(struct sim *s, uint32_t port, uint32_t p)
{
    struct packet *pk = &s->pkts[p];
    struct port *pt = &s->ports[port];
    pt->rx_bytes += pk->bytes;
    pt->rx_packets++;
    pt->by_prio[pk->prio & 7].rx_bytes += pk->bytes;
    switch (pk->kind) {
    case PKT_DATA: receive_data(s, port, p); return;
    case PKT_ACK: acked(s, pk->flow, pk->psn); break;
    case PKT_NAK: nak_received(s, port, pk->flow, pk->psn); break;
    case PKT_CNP: handle_cnp(s, port, pk->flow); break;
    default: break;
    }
    sim_pkt_free(s, p);
}
