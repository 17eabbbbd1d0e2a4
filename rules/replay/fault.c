/* Injected faults: a host whose receive side drains slowly (it pauses its switch when it falls
 * behind), a host that sends XOFF without a break (a stuck receive path: the pause storm), and a
 * link that goes down (ECMP routes around it, what was queued for it is dropped). The faults a
 * port's config stages: frames lost to a bad FCS, a switch that rewrites DSCP or clears CE, a NIC
 * that sends Not-ECT. Also the dependencies between flows: a flow that waits for others starts
 * when the last one finishes. */
#include <stdio.h>

#include "rng.h"
#include "sim.h"

#define STORM_QUANTA 0xffff
#define DEFAULT_RX_XOFF (64u * 1024)

/* The faults a port's config stages (switch.* on switches, nic.* on hosts). */
static void port_faults(struct port *pt)
{
    const struct qos_config *c = &pt->cfg;
    pt->port_faults = 0;
    pt->fcs_error_p = c->fcs_error_ppm.set ? (double)c->fcs_error_ppm.v / 1e6 : 0;
    if (pt->fcs_error_p > 0)
        pt->port_faults |= PORT_FAULT_FCS;
    if (pt->is_switch && c->dscp_rewrite.set) {
        pt->port_faults |= PORT_FAULT_DSCP;
        pt->dscp_rewrite = (uint8_t)(c->dscp_rewrite.v & 63);
    }
    if (pt->is_switch && c->ecn_clear_ce.set && c->ecn_clear_ce.v)
        pt->port_faults |= PORT_FAULT_CLEAR_CE;
    if (!pt->is_switch && c->ecn_capable.set && !c->ecn_capable.v)
        pt->port_faults |= PORT_FAULT_NOT_ECT;
}

/* Every host drains at the options' rate unless a slow-receiver fault says otherwise. */
void fault_setup(struct sim *s)
{
    dcbx_negotiate(s);
    for (uint32_t i = 0; i < s->nports; i++) {
        struct port *pt = &s->ports[i];
        pt->drain_bps = s->opt->host_drain_bps;
        pt->rx_xoff_bytes = s->opt->host_rx_xoff_bytes;
        port_faults(pt);
    }
    for (size_t i = 0; i < s->opt->nfaults; i++) {
        const struct replay_fault *ft = &s->opt->faults[i];
        sim_at(s, ft->at_ns * REPLAY_PS_PER_NS, EV_FAULT, (uint32_t)i, FAULT_BEGIN);
        if (ft->until_ns > ft->at_ns)
            sim_at(s, ft->until_ns * REPLAY_PS_PER_NS, EV_FAULT, (uint32_t)i, FAULT_END);
    }
}

static int64_t storm_refresh_ps(const struct port *pt)
{
    return ps_sat((double)STORM_QUANTA * 512.0 * 1e12 / pt->bps / 2);
}

/* What was queued for a port whose link went down is lost. */
static void flush_port(struct sim *s, uint32_t port)
{
    struct port *pt = &s->ports[port];
    for (unsigned tc = 0; tc < PRIOS; tc++) {
        while (pt->by_tc[tc].q.count) {
            uint32_t p = sim_egress_pop(s, pt, tc);
            switch_release(s, p);
            pt->by_tc[tc].drops++;
            s->drops++;
            sim_pkt_free(s, p);
        }
    }
}

static void link_state(struct sim *s, uint32_t port, bool down)
{
    uint32_t ends[2] = { port, s->ports[port].peer };
    for (int k = 0; k < 2; k++) {
        struct port *pt = &s->ports[ends[k]];
        if (pt->down == down)
            continue;
        pt->down = down;
        if (down) {
            pt->down_events++;
            if (s->nodes[pt->node].is_switch)
                flush_port(s, ends[k]);
        } else {
            port_kick(s, ends[k]);
        }
    }
}

void fault_fire(struct sim *s, uint32_t fault, enum fault_phase phase)
{
    const struct replay_fault *ft = &s->opt->faults[fault];
    uint32_t port = s->fault_port[fault];
    struct port *pt = &s->ports[port];
    int64_t until_ps = ft->until_ns > ft->at_ns ? ft->until_ns * REPLAY_PS_PER_NS : INT64_MAX;
    switch (ft->kind) {
    case REPLAY_FAULT_SLOW_RECEIVER:
        if (phase == FAULT_BEGIN) {
            pt->drain_bps = ft->drain_bps > 0 ? ft->drain_bps : 1.0;
            pt->rx_xoff_bytes = ft->rx_xoff_bytes ? ft->rx_xoff_bytes : DEFAULT_RX_XOFF;
            pt->rx_backlog_at_ps = s->now_ps;
        } else if (phase == FAULT_END) {
            pt->drain_bps = pt->bps; /* drains at line rate again; an XOFF in force ends */
        }
        break;
    case REPLAY_FAULT_PAUSE_STORM:
        /* a host whose config has no pause on the priority sends nothing, as nic.c's slow
         * receiver: no frame, no event */
        if (!port_pauses(pt, (unsigned)ft->prio))
            break;
        if (phase == FAULT_END) {
            port_send_pfc(s, port, (unsigned)ft->prio, 0);
            if (port_pfc_on(pt, (unsigned)ft->prio))
                sim_event(s, EVENT_PFC_XON, port, ft->prio, "{\"reason\":\"pause storm ended\"}");
            break;
        }
        if (s->now_ps >= until_ps)
            break;
        if (phase == FAULT_BEGIN && port_pfc_on(pt, (unsigned)ft->prio))
            sim_event(s, EVENT_PFC_XOFF, port, ft->prio, "{\"reason\":\"pause storm\"}");
        port_send_pfc(s, port, (unsigned)ft->prio, STORM_QUANTA);
        if (s->now_ps + storm_refresh_ps(pt) < until_ps)
            sim_at(s, s->now_ps + storm_refresh_ps(pt), EV_FAULT, fault, FAULT_REFRESH);
        break;
    case REPLAY_FAULT_LINK_DOWN:
        link_state(s, port, phase == FAULT_BEGIN);
        sim_reroute(s);
        break;
    }
}

/* One draw per frame, only on a port that corrupts: a run without the fault draws the same
 * numbers as before. The frame is lost before anything counts it (a MAC drops it and counts
 * only the FCS error), PAUSE frames included. */
bool fault_arrive(struct sim *s, uint32_t port, uint32_t p)
{
    struct port *pt = &s->ports[port];
    struct packet *pk = &s->pkts[p];
    if ((pt->port_faults & PORT_FAULT_FCS) && rng_uniform(&s->rng) < pt->fcs_error_p) {
        pt->fcs_errors++;
        s->drops++;
        port_drop_event(s, port, pk->kind == PKT_PFC ? -1 : (int)(pk->prio & 7),
                        "{\"where\":\"rx\",\"cause\":\"fcs\"}");
        sim_pkt_free(s, p);
        return true;
    }
    if ((pt->port_faults & PORT_FAULT_DSCP) && pk->kind != PKT_PFC)
        pk->dscp = pt->dscp_rewrite;
    return false;
}

/* Flows that waited for this one and now have nothing left to wait for start, in their order
 * (a flow that names it twice waits for it twice). */
void sim_flow_finished(struct sim *s, uint32_t f)
{
    for (uint32_t k = s->dependents_at ? s->dependents_at[f] : 0;
         s->dependents_at && k < s->dependents_at[f + 1]; k++) {
        uint32_t g = s->dependents[k];
        struct flow *fg = &s->flows[g];
        if (fg->waiting && --fg->waiting == 0) {
            fg->start_ps += s->now_ps; /* it was the delay after the dependencies */
            sim_at(s, fg->start_ps, EV_FLOW_SEND, g, 0);
        }
    }
}
