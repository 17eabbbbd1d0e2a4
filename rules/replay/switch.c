/* A switch: classification (trust, dscp2prio, prio2tc), ECMP routing, the shared buffer's
 * decisions (buffer.h) turned into drops, PAUSE frames and ECN marks, and the PFC watchdog. A
 * frame longer than the egress port's MTU is not forwarded (a routed RoCE packet cannot be
 * fragmented); one longer than the ingress port's was dropped as it arrived (port.c). */
#include <stdio.h>

#include "event_details.h"
#include "sim.h"

#define PFC_QUANTA_MAX 0xffff

static unsigned classify(const struct port *in, const struct packet *pk)
{
    int8_t by_dscp = in->dscp_prio[pk->dscp & 63]; /* trust dscp and dscp2prio, resolved */
    return by_dscp >= 0 ? (unsigned)by_dscp : pk->prio & 7u;
}

static bool lossless(const struct port *pt, unsigned prio)
{
    return (pt->lossless >> prio) & 1;
}

static bool watchdog_drops(const struct port *pt)
{
    return !pt->cfg.pfcwd_action.set || pt->cfg.pfcwd_action.v == QOS_PFCWD_DROP;
}

/* Why a switch dropped a packet: an ingress PG drop (pg.drops) or an egress queue drop
 * (queue.drops; WRED's also in queue.wred_drops). The event names it as "cause". */
enum drop_cause {
    DROP_BUFFER_FULL,
    DROP_HEADROOM,
    DROP_HEADROOM_POOL, /* ingress */
    DROP_NO_ROUTE,
    DROP_LOSSY_LIMIT,
    DROP_WRED,
    DROP_WATCHDOG, /* egress */
};

static const char *const drop_cause_names[] = {
    "buffer_full", "headroom", "headroom_pool", "no_route", "lossy_limit", "wred", "watchdog",
};

static void drop(struct sim *s, uint32_t port, uint32_t p, unsigned pg, enum drop_cause cause)
{
    struct port *pt = &s->ports[port];
    bool ingress = cause <= DROP_HEADROOM_POOL;
    if (ingress) {
        pt->by_prio[pg].pg.drops++;
    } else {
        pt->by_tc[pt->tc_of[pg]].drops++;
        if (cause == DROP_WRED)
            pt->by_tc[pt->tc_of[pg]].wred_drops++;
        else if (cause == DROP_WATCHDOG)
            pt->by_tc[pt->tc_of[pg]].wd_drops++;
    }
    s->drops++;
    if (port_drop_event_due(s, port)) {
        struct event_details details;
        event_details_init(&details);
        event_details_str(&details, "where", ingress ? "headroom" : "egress");
        event_details_u64(&details, "pg", pg);
        event_details_str(&details, "cause", drop_cause_names[cause]);
        port_drop_event(s, port, (int)pg, event_details_json(&details));
    }
    sim_pkt_free(s, p);
}

/* The pause a refreshed XOFF asks for, and when to refresh it: at half its length. */
static int64_t pause_ps(const struct port *pt)
{
    return ps_sat((double)PFC_QUANTA_MAX * 512.0 * 1e12 / pt->bps);
}

static void xoff(struct sim *s, uint32_t port, unsigned pg)
{
    struct port *pt = &s->ports[port];
    struct ingress_pg *g = &pt->by_prio[pg].pg;
    g->xoff_sent = true;
    g->xoff_since_ps = s->now_ps;
    sim_at(s, s->now_ps + s->pfc_gen_ps, EV_PFC_SEND, port, pg << 16 | PFC_QUANTA_MAX);
    sim_at(s, s->now_ps + s->pfc_gen_ps + pause_ps(pt) / 2, EV_PFC_CHECK, port, pg);
    if (port_pfc_on(pt, pg)) /* else only an 802.3x PAUSE goes (pause_global) */
        sim_event(s, EVENT_PFC_XOFF, port, (int)pg, "{\"quanta\":65535}");
}

void switch_pfc_check(struct sim *s, uint32_t port, unsigned pg)
{
    struct port *pt = &s->ports[port];
    if (!pt->by_prio[pg].pg.xoff_sent)
        return;
    sim_at(s, s->now_ps, EV_PFC_SEND, port, pg << 16 | PFC_QUANTA_MAX); /* refresh */
    sim_at(s, s->now_ps + pause_ps(pt) / 2, EV_PFC_CHECK, port, pg);
}

void switch_release(struct sim *s, uint32_t p)
{
    struct packet *pk = &s->pkts[p];
    if (pk->ingress == NO_INDEX)
        return;
    uint32_t port = pk->ingress;
    struct port *in = &s->ports[port];
    struct ingress_pg *g = &in->by_prio[pk->pg].pg;
    struct shared_buffer *b = &s->nodes[in->node].buffer;
    buffer_ingress_release(b, g, pk->bytes);
    pk->ingress = NO_INDEX;
    if (buffer_pg_should_xon(b, g)) {
        g->xoff_sent = false;
        sim_at(s, s->now_ps + s->pfc_gen_ps, EV_PFC_SEND, port, (uint32_t)pk->pg << 16);
        if (port_pfc_on(in, pk->pg)) {
            struct event_details details;
            event_details_init(&details);
            event_details_i64(&details, "paused_ns",
                              (s->now_ps - g->xoff_since_ps) / REPLAY_PS_PER_NS);
            sim_event(s, EVENT_PFC_XON, port, pk->pg, event_details_json(&details));
        }
    }
}

/* WRED/ECN on the egress queue: the verdict, with the mark made and counted. */
enum wred_verdict switch_wred(struct sim *s, struct port *out, unsigned tc, struct packet *pk)
{
    struct port_tc *q = &out->by_tc[tc];
    enum wred_verdict v = buffer_should_mark(&q->wred, q->q.bytes, pk->ect, &s->rng);
    if (v == WRED_MARK && !pk->ce) {
        pk->ce = true;
        q->marked++;
        s->marks++;
    }
    return v;
}

/* A packet the ingress buffer does not admit: dropped, and a lossless group past its headroom
 * pauses its sender if it has not yet. Out of line: the rare path. */
static __attribute__((noinline)) void refuse(struct sim *s, uint32_t port, uint32_t p, unsigned pg,
                                             enum ingress_verdict verdict)
{
    struct port *in = &s->ports[port];
    struct ingress_pg *g = &in->by_prio[pg].pg;
    struct shared_buffer *b = &s->nodes[in->node].buffer;
    uint32_t bytes = s->pkts[p].bytes;
    switch (verdict) {
    case INGRESS_ADMIT: return;
    case INGRESS_FULL: drop(s, port, p, pg, DROP_BUFFER_FULL); return;
    case INGRESS_HEADROOM:
    case INGRESS_HEADROOM_POOL:
        drop(s, port, p, pg, verdict == INGRESS_HEADROOM ? DROP_HEADROOM : DROP_HEADROOM_POOL);
        if (buffer_pg_should_xoff(b, g, bytes))
            xoff(s, port, pg);
        return;
    case INGRESS_LIMIT: drop(s, port, p, pg, DROP_LOSSY_LIMIT); return;
    }
}

static uint32_t packet_destination(const struct sim *s, const struct packet *pk)
{
    return pk->dst < s->nnodes ? pk->dst : NO_INDEX;
}

void switch_receive(struct sim *s, uint32_t port, uint32_t p)
{
    struct port *in = &s->ports[port];
    struct packet *pk = &s->pkts[p];
    unsigned prio = classify(in, pk);
    unsigned pg = prio;
    pk->prio = (uint8_t)prio; /* the switch rewrites the PCP it forwards with */
    uint32_t dst = packet_destination(s, pk);
    uint32_t out_port =
        dst == NO_INDEX
            ? NO_INDEX
            : sim_next_hop_key(s, in->node,
                               pk->ecmp_key ? pk->ecmp_key : sim_flow_ecmp_key(&s->flows[pk->flow]),
                               dst);
    if (out_port == NO_INDEX) {
        drop(s, port, p, pg, DROP_NO_ROUTE);
        return;
    }
    struct ingress_pg *g = &in->by_prio[pg].pg;
    struct shared_buffer *b = &s->nodes[in->node].buffer;
    bool lossless_pg = lossless(in, prio);
    uint32_t bytes = pk->bytes;
    enum ingress_verdict verdict = buffer_ingress_admit(b, g, lossless_pg, bytes);
    if (verdict != INGRESS_ADMIT) {
        refuse(s, port, p, pg, verdict);
        return;
    }
    if (lossless_pg && buffer_pg_should_xoff(b, g, bytes))
        xoff(s, port, pg);
    struct port *out = &s->ports[out_port];
    if (pk->bytes > out->max_frame) { /* as WRED's drops: after the XOFF decision */
        port_drop_oversize(s, out_port, p, false);
        return;
    }
    unsigned tc = out->tc_of[prio];
    enum wred_verdict wred = WRED_PASS;
    /* WRED drops are decided here; marks here too with mark_on_enqueue, else as it leaves */
    unsigned at_enqueue = pk->ect ? out->wred_enq_tcs : out->wred_enq_tcs | out->wred_deq_tcs;
    if (pk->kind == PKT_DATA && ((at_enqueue >> tc) & 1))
        wred = switch_wred(s, out, tc, pk);
    bool storm_drops = out->wd_storm[tc] && lossless_pg && watchdog_drops(out);
    if (!buffer_egress_admit(wred, storm_drops)) {
        drop(s, out_port, p, prio, wred == WRED_DROP ? DROP_WRED : DROP_WATCHDOG);
        return;
    }
    if (!sim_egress_push(s, out, tc, p)) {
        sim_pkt_free(s, p);
        return;
    }
    pk->ingress = port;
    pk->pg = (uint8_t)pg;
    pk->enq_ps = s->now_ps;
    buffer_ingress_account(b, g, bytes);
    if (out->by_tc[tc].q.bytes > out->by_tc[tc].watermark)
        out->by_tc[tc].watermark = out->by_tc[tc].q.bytes;
    port_kick(s, out_port);
}

/* The PFC watchdog (SONiC's pfcwd): a lossless queue that stays paused with packets waiting for
 * detect_ms is in a storm; with the drop action it ignores pauses and drops, with forward it
 * ignores pauses and sends on, until no PAUSE came for restore_ms; alert only reports. */
void switch_watchdog_tick(struct sim *s)
{
    for (uint32_t i = 0; i < s->nports; i++) {
        struct port *pt = &s->ports[i];
        if (!s->nodes[pt->node].is_switch || !pt->cfg.pfcwd_detect_ms.set)
            continue;
        int64_t detect = pt->cfg.pfcwd_detect_ms.v * 1000000000LL;
        int64_t restore = (pt->cfg.pfcwd_restore_ms.set ? pt->cfg.pfcwd_restore_ms.v
                                                        : pt->cfg.pfcwd_detect_ms.v) *
                          1000000000LL;
        bool drop_action = watchdog_drops(pt);
        bool acts = drop_action || pt->cfg.pfcwd_action.v == QOS_PFCWD_FORWARD;
        for (unsigned prio = 0; prio < PRIOS; prio++) {
            unsigned tc = pt->tc_of[prio];
            if (!pt->wd_storm[tc] && pt->pfc_paused[prio] && pt->by_tc[tc].q.count &&
                s->now_ps - pt->pause_start_ps[prio] >= detect) {
                pt->wd_storm[tc] = acts;
                port_update_paused(pt);
                struct event_details details;
                event_details_init(&details);
                event_details_str(&details, "state", "storm");
                event_details_str(&details, "action",
                                  drop_action ? "drop"
                                  : acts      ? "forward"
                                              : "alert");
                sim_event(s, EVENT_WATCHDOG, i, (int)prio, event_details_json(&details));
                if (drop_action) {
                    while (pt->by_tc[tc].q.count) {
                        uint32_t p = sim_egress_pop(s, pt, tc);
                        switch_release(s, p);
                        drop(s, i, p, prio, DROP_WATCHDOG);
                    }
                    port_kick(s, i);
                }
            } else if (pt->wd_storm[tc] && s->now_ps - pt->wd_last_pause_ps[tc] >= restore) {
                pt->wd_storm[tc] = false;
                port_update_paused(pt);
                sim_event(s, EVENT_WATCHDOG, i, (int)prio, "{\"state\":\"restored\"}");
            }
        }
    }
}
