/* The DCBX exchange (IEEE 802.1Qaz) on each link at the start of a run: what a willing end takes
 * from its peer, and the dcbx_seen event that says so.
 *
 * An end runs DCBX when its dcbx.mode is ieee or cee; two ends negotiate only in the same mode.
 * PFC is symmetric (as lldpad's pfc_sm): a willing end takes a non-willing peer's pfc.enabled;
 * when both are willing the end with the lower MAC takes its peer's. The engine has no MACs: it
 * numbers them in the fabric's order (devices as listed, then their interfaces), so of two
 * willing ends the one on the device listed first takes the other's. ETS is asymmetric (ets_sm):
 * a willing end takes the peer's recommendation, which here is the peer's own prio2tc, ets.tsa
 * and ets.bw, whatever the peer's willing bit. The APP table goes with PFC: the end that takes
 * its peer's PFC takes its APP table too, and its DSCP entries (selector 5) set its dscp2prio
 * for the DSCPs they name, as mlx5 programs its DSCP map from them. An end reports the exchange
 * (dcbx_seen) when it changed its config or the ends still differ. */
#include <stdio.h>
#include <string.h>

#include "sim.h"

static bool runs_dcbx(const struct qos_config *c)
{
    return c->dcbx_mode.set && c->dcbx_mode.v != QOS_DCBX_OFF;
}

static bool is_true(const struct qos_val *v)
{
    return v->set && v->v;
}

unsigned dcbx_takes(const struct qos_config *local, const struct qos_config *peer,
                    bool local_mac_lower)
{
    if (!runs_dcbx(local) || !runs_dcbx(peer) || local->dcbx_mode.v != peer->dcbx_mode.v)
        return 0;
    unsigned took = 0;
    if (is_true(&local->pfc_willing) && (!is_true(&peer->pfc_willing) || local_mac_lower))
        took |= DCBX_TOOK_PFC | DCBX_TOOK_APP;
    if (is_true(&local->ets_willing))
        took |= DCBX_TOOK_ETS;
    return took;
}

void dcbx_take(struct qos_config *local, const struct qos_config *peer, unsigned took)
{
    if (took & DCBX_TOOK_PFC)
        local->pfc_enabled = peer->pfc_enabled;
    if (took & DCBX_TOOK_ETS) {
        memcpy(local->prio2tc, peer->prio2tc, sizeof(local->prio2tc));
        memcpy(local->ets_tsa, peer->ets_tsa, sizeof(local->ets_tsa));
        memcpy(local->ets_bw, peer->ets_bw, sizeof(local->ets_bw));
    }
    if (took & DCBX_TOOK_APP) {
        local->app_set = peer->app_set;
        local->napp = peer->napp;
        memcpy(local->app, peer->app, sizeof(local->app));
        for (size_t i = 0; i < peer->napp; i++)
            if (peer->app[i].selector == 5)
                local->dscp2prio[peer->app[i].protocol & 63] =
                    (struct qos_val){ peer->app[i].prio & 7, true };
    }
}

static const char *mode_name(const struct qos_config *c)
{
    return c->dcbx_mode.v == QOS_DCBX_CEE ? "cee" : "ieee";
}

/* What an end saw and took, in the form a host's LLDP collector reports a peer (peer, port,
 * dcbx), with what the peer advertised, what it took, the PFC it runs after the exchange, and
 * what the two ends still run differently (the DCBX version, PFC, ETS, APP). */
static void report(struct sim *s, uint32_t port, const struct qos_config *advertised, unsigned took,
                   const char *mismatch)
{
    const struct port *pt = &s->ports[port];
    const struct port *peer = &s->ports[pt->peer];
    char details[DCB_DETAILS_MAX], taken[32] = "";
    static const char *const names[] = { "pfc", "ets", "app" };
    for (unsigned k = 0; k < 3; k++)
        if (took & (1u << k)) {
            size_t n = strlen(taken);
            snprintf(taken + n, sizeof(taken) - n, "%s\"%s\"", n ? "," : "", names[k]);
        }
    snprintf(details, sizeof(details),
             "{\"peer\":\"%s\",\"port\":\"%s\",\"dcbx\":\"%s\",\"pfc_enable\":%u,"
             "\"willing\":%s,\"taken\":[%s],\"pfc_enable_oper\":%u,\"mismatch\":[%s]}",
             s->nodes[peer->node].name, peer->name, mode_name(advertised),
             advertised->pfc_enabled.set ? (unsigned)advertised->pfc_enabled.v : 0,
             is_true(&advertised->pfc_willing) ? "true" : "false", taken,
             pt->cfg.pfc_enabled.set ? (unsigned)pt->cfg.pfc_enabled.v : 0, mismatch);
    sim_event(s, EVENT_DCBX_SEEN, port, -1, details);
}

static bool same_vals(const struct qos_val *a, const struct qos_val *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i].set != b[i].set || (a[i].set && a[i].v != b[i].v))
            return false;
    return true;
}

/* What the two ends still run differently after the exchange, as the DCBX tracker names it:
 * "version" (another mode: nothing was exchanged), else "pfc", "ets", "app". */
static void differences(const struct qos_config *a, const struct qos_config *b, char *buf,
                        size_t len)
{
    buf[0] = '\0';
    if (a->dcbx_mode.v != b->dcbx_mode.v) {
        snprintf(buf, len, "\"version\"");
        return;
    }
    bool pfc = (a->pfc_enabled.set ? a->pfc_enabled.v : 0) !=
               (b->pfc_enabled.set ? b->pfc_enabled.v : 0);
    bool ets = !same_vals(a->prio2tc, b->prio2tc, 8) || !same_vals(a->ets_tsa, b->ets_tsa, 8) ||
               !same_vals(a->ets_bw, b->ets_bw, 8);
    bool app = a->napp != b->napp;
    for (size_t i = 0; !app && i < a->napp; i++)
        app = a->app[i].selector != b->app[i].selector ||
              a->app[i].protocol != b->app[i].protocol || a->app[i].prio != b->app[i].prio;
    snprintf(buf, len, "%s%s%s%s%s", pfc ? "\"pfc\"" : "", pfc && (ets || app) ? "," : "",
             ets ? "\"ets\"" : "", ets && app ? "," : "", app ? "\"app\"" : "");
}

/* A NIC that took an APP table may send its flows' DSCPs on other priorities now. */
static void reclassify_flows(struct sim *s, uint32_t port)
{
    for (uint32_t f = 0; f < s->nflows; f++)
        if (s->flows[f].src_port == port)
            s->flows[f].prio = nic_flow_prio(&s->ports[port].cfg, s->flows[f].dscp);
}

static void take(struct sim *s, uint32_t port, const struct qos_config *advertised, unsigned took)
{
    if (!took)
        return;
    dcbx_take(&s->ports[port].cfg, advertised, took);
    port_setup(s, port);
    if ((took & DCBX_TOOK_APP) && !s->ports[port].is_switch)
        reclassify_flows(s, port);
}

/* An end reports the exchange when it changed its config or left the ends apart: a healthy
 * fabric, whose willing NICs take what they already have, runs without a word. */
void dcbx_negotiate(struct sim *s)
{
    for (uint32_t i = 0; i < s->nports; i++) {
        struct port *pt = &s->ports[i];
        if (pt->peer == NO_INDEX || pt->peer < i || !runs_dcbx(&pt->cfg) ||
            !runs_dcbx(&s->ports[pt->peer].cfg))
            continue;
        uint32_t j = pt->peer;
        /* each takes from what the other advertised, before either took anything; port i is
         * the one with the lower MAC */
        struct qos_config mine = pt->cfg, theirs = s->ports[j].cfg;
        unsigned took_i = dcbx_takes(&mine, &theirs, true);
        unsigned took_j = dcbx_takes(&theirs, &mine, false);
        take(s, i, &theirs, took_i);
        take(s, j, &mine, took_j);
        char mismatch[48];
        differences(&pt->cfg, &s->ports[j].cfg, mismatch, sizeof(mismatch));
        if (*mismatch || (took_i && qos_diff(&mine, &pt->cfg, NULL, NULL)))
            report(s, i, &theirs, took_i, mismatch);
        if (*mismatch || (took_j && qos_diff(&theirs, &s->ports[j].cfg, NULL, NULL)))
            report(s, j, &mine, took_j, mismatch);
    }
}
