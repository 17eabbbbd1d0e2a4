/* Building the simulated fabric from the fabric model: nodes, ports with their effective config,
 * links (speed, cable_m x 5 ns/m of propagation), the routes (routes.c) and the flows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "large_alloc.h"
#include "sim.h"

/* 5 ns/m: light in fibre and copper alike (docs/rules-references.md#sonic-buffers) */
#define PROP_PS_PER_M 5000
#define DEFAULT_BPS 100e9

struct iface_list {
    struct sim *s;
    uint32_t node;
};

static bool ports_reserve(struct sim *s, uint32_t cap)
{
    struct port *grown = budget_take(&s->budget, (uint64_t)(cap - s->ports_cap) * sizeof(*grown),
                                     "the ports")
                             ? large_alloc(cap * sizeof(*grown))
                             : NULL;
    if (!grown)
        return false;
    if (s->nports)
        memcpy(grown, s->ports, s->nports * sizeof(*grown));
    free(s->ports);
    s->ports = grown;
    s->ports_cap = cap;
    return true;
}

static void count_iface(const char *ifname, void *arg)
{
    (void)ifname;
    ++*(uint32_t *)arg;
}

static void add_port(const char *ifname, void *arg)
{
    struct iface_list *il = arg;
    struct sim *s = il->s;
    if (s->nports == s->ports_cap && !ports_reserve(s, s->ports_cap ? s->ports_cap * 2 : 64)) {
        s->oom = true;
        return;
    }
    struct port *pt = &s->ports[s->nports++];
    memset(pt, 0, sizeof(*pt));
    pt->node = il->node;
    pt->peer = NO_INDEX;
    snprintf(pt->name, sizeof(pt->name), "%s", ifname);
    pt->paused_any_since_ps = -1;
}

static uint32_t find_node(const struct sim *s, const char *name)
{
    for (uint32_t i = 0; i < s->nnodes; i++)
        if (!strcmp(s->nodes[i].name, name))
            return i;
    return NO_INDEX;
}

/* A device's node: the nodes are the fabric's devices in its order, and its index finds one
 * without a scan (a flow per pair of 1,024 hosts looks up two million names). */
static uint32_t fabric_node(const struct sim *s, const struct fabric *f, const char *name)
{
    const struct fabric_device *d = fabric_find_device(f, name);
    uint32_t i = d ? (uint32_t)(d - f->devices) : NO_INDEX;
    return i < s->nnodes && !strcmp(s->nodes[i].name, name) ? i : find_node(s, name);
}

static uint32_t find_port(const struct sim *s, uint32_t node, const char *ifname)
{
    const struct node *n = &s->nodes[node];
    for (uint32_t i = n->first_port; i < n->first_port + n->nports; i++)
        if (!strcmp(s->ports[i].name, ifname))
            return i;
    return NO_INDEX;
}

/* A port's speed and cable within what the run's arithmetic is sized for (replay.h); the
 * fabric loaders refuse the rest already, with their paths. */
static int check_port(const struct sim *s, const struct port *pt, struct dcb_err *err)
{
    const char *dev = s->nodes[pt->node].name;
    if (!(pt->bps >= (double)QOS_SPEED_MIN_BPS && pt->bps <= (double)QOS_SPEED_MAX_BPS))
        return dcb_err_set(err, DCB_E_RANGE,
                           "%s:%s: speed %.17g b/s is out of range (%lld to "
                           "%lld)",
                           dev, pt->name, pt->bps, QOS_SPEED_MIN_BPS, QOS_SPEED_MAX_BPS);
    if (pt->cfg.cable_mm.set && (pt->cfg.cable_mm.v < 0 || pt->cfg.cable_mm.v > QOS_CABLE_MAX_MM))
        return dcb_err_set(err, DCB_E_RANGE, "%s:%s: cable %lld mm is out of range (0 to %lld)",
                           dev, pt->name, (long long)pt->cfg.cable_mm.v, QOS_CABLE_MAX_MM);
    return 0;
}

static int build_nodes(struct sim *s, const struct fabric *f, struct dcb_err *err)
{
    if (!budget_take(&s->budget, (uint64_t)(f->ndevices ? f->ndevices : 1) * sizeof(*s->nodes),
                     "the nodes"))
        return DCB_E_RANGE;
    s->nodes = calloc(f->ndevices ? f->ndevices : 1, sizeof(*s->nodes));
    if (!s->nodes)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    uint32_t nifaces = 0; /* the ports at once: each is 6 KB, and a copy doubles them */
    for (size_t d = 0; d < f->ndevices; d++)
        fabric_each_iface(f, &f->devices[d], count_iface, &nifaces);
    if (nifaces && !ports_reserve(s, nifaces))
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    for (size_t d = 0; d < f->ndevices; d++) {
        struct node *n = &s->nodes[s->nnodes];
        snprintf(n->name, sizeof(n->name), "%s", f->devices[d].name);
        n->is_switch = f->devices[d].role == FABRIC_SWITCH;
        n->buffer.size = SHARED_BUFFER_DEFAULT;
        n->first_port = s->nports;
        struct iface_list il = { s, s->nnodes };
        fabric_each_iface(f, &f->devices[d], add_port, &il);
        if (s->oom)
            return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
        n->nports = s->nports - n->first_port;
        s->nnodes++;
    }
    for (uint32_t i = 0; i < s->nports; i++) {
        struct port *pt = &s->ports[i];
        int rc = fabric_effective_config(f, s->nodes[pt->node].name, pt->name, &pt->cfg, err);
        if (rc < 0)
            return rc;
        pt->bps = pt->cfg.speed_bps.set && pt->cfg.speed_bps.v > 0 ? (double)pt->cfg.speed_bps.v
                                                                   : DEFAULT_BPS;
        if ((rc = check_port(s, pt, err)) < 0)
            return rc;
        double per_byte = 8e12 / pt->bps;
        pt->ps_per_byte = per_byte == floor(per_byte) && per_byte <= 1e9 ? (int64_t)per_byte : 0;
        pt->prop_ps = pt->cfg.cable_mm.set ? pt->cfg.cable_mm.v * PROP_PS_PER_M / 1000 : 0;
        const struct fabric_end *peer = NULL;
        if (fabric_find_link(f, s->nodes[pt->node].name, pt->name, &peer) && peer) {
            uint32_t pn = fabric_node(s, f, peer->device);
            if (pn != NO_INDEX)
                pt->peer = find_port(s, pn, peer->ifname);
        }
    }
    return 0;
}

static uint32_t host_port(const struct sim *s, uint32_t node)
{
    const struct node *n = &s->nodes[node];
    for (uint32_t p = n->first_port; p < n->first_port + n->nports; p++)
        if (s->ports[p].peer != NO_INDEX)
            return p;
    return NO_INDEX;
}

/* The flow's DCQCN parameters: the caller's, or the preset at the sender's speed with the
 * sender's configured knobs (nic.dcqcn.*, mlx5 names) over it. */
static void flow_params(struct sim *s, const struct flow *fl, struct dcqcn_params *d)
{
    double bps = s->ports[fl->src_port].bps;
    if (s->opt->dcqcn) {
        *d = *s->opt->dcqcn;
        if (d->line_bps <= 0)
            d->line_bps = bps;
        return;
    }
    if (s->opt->preset == DCQCN_PRESET_MLX5)
        dcqcn_params_mlx5(d, bps);
    else
        dcqcn_params_paper(d, bps);
    const struct qos_dcqcn *k = &s->ports[fl->src_port].cfg.dcqcn;
    if (k->rai_mbps.set)
        d->ai_bps = (double)k->rai_mbps.v * 1e6;
    if (k->rhai_mbps.set)
        d->hai_bps = (double)k->rhai_mbps.v * 1e6;
    if (k->min_rate_mbps.set)
        d->min_bps = (double)k->min_rate_mbps.v * 1e6;
    if (k->rate_on_first_cnp_mbps.set)
        d->first_cnp_bps = (double)k->rate_on_first_cnp_mbps.v * 1e6;
    if (k->g.set)
        d->g = 1.0 - (double)k->g.v / 1024.0; /* dce_tcp_g: 1 - g in 1/1024 */
    if (k->initial_alpha.set)
        d->initial_alpha = (double)k->initial_alpha.v / 1024.0;
    if (k->min_dec_fac.set)
        d->min_dec = 1.0 - (double)k->min_dec_fac.v / 100.0;
    if (k->threshold.set)
        d->fast_steps = (unsigned)k->threshold.v;
    if (k->byte_reset.set)
        d->byte_counter = (uint64_t)k->byte_reset.v;
    if (k->alpha_update_us.set)
        d->alpha_period_ns = k->alpha_update_us.v * 1000;
    if (k->rate_reduce_period_us.set)
        d->rate_reduce_period_ns = k->rate_reduce_period_us.v * 1000;
    if (k->time_reset_us.set)
        d->timer_ns = k->time_reset_us.v * 1000;
    if (k->min_time_between_cnps_us.set)
        d->cnp_interval_ns = k->min_time_between_cnps_us.v * 1000;
    if (k->max_rate_mbps.set && k->max_rate_mbps.v > 0 &&
        (double)k->max_rate_mbps.v * 1e6 < d->line_bps)
        d->line_bps = (double)k->max_rate_mbps.v * 1e6; /* rpg_max_rate; 0: the line rate */
    if (k->gd.set)
        d->alpha_cut = ldexp(1.0, 10 - (int)k->gd.v); /* alpha in 1/1024, cut in 1/2^gd */
    if (k->clamp_tgt_rate.set)
        d->clamp_target = k->clamp_tgt_rate.v != 0;
}

/* The flows' parameters, each distinct set once (most runs have one): a flow keeps a pointer,
 * and the few sets stay in cache. NO_INDEX: no memory for another set. */
static uint32_t intern_params(struct sim *s, const struct dcqcn_params *d)
{
    for (uint32_t i = 0; i < s->ndparams; i++)
        if (!memcmp(&s->dparams[i], d, sizeof(*d)))
            return i;
    if (s->ndparams == s->dparams_cap) {
        uint32_t cap = s->dparams_cap ? s->dparams_cap * 2 : 4;
        struct dcqcn_params *grown =
            budget_take(&s->budget, (uint64_t)(cap - s->dparams_cap) * sizeof(*grown), "the flows")
                ? realloc(s->dparams, cap * sizeof(*grown))
                : NULL;
        if (!grown)
            return NO_INDEX;
        s->dparams = grown;
        s->dparams_cap = cap;
    }
    s->dparams[s->ndparams] = *d;
    return s->ndparams++;
}

static int build_flow_list(struct sim *s, const struct fabric *f, const struct replay_flow *flows,
                           size_t n, uint32_t *dp_index, struct dcb_err *err)
{
    memset(s->flows, 0, (n ? n : 1) * sizeof(*s->flows));
    for (size_t i = 0; i < n; i++) {
        const struct replay_flow *rf = &flows[i];
        struct flow *fl = &s->flows[s->nflows];
        fl->src = rf->src ? fabric_node(s, f, rf->src) : NO_INDEX;
        fl->dst = rf->dst ? fabric_node(s, f, rf->dst) : NO_INDEX;
        if (fl->src == NO_INDEX || fl->dst == NO_INDEX)
            return dcb_err_set(err, DCB_E_INVAL, "flow %zu: no device '%s'", i,
                               fl->src == NO_INDEX ? (rf->src ? rf->src : "")
                                                   : (rf->dst ? rf->dst : ""));
        if (s->nodes[fl->src].is_switch || s->nodes[fl->dst].is_switch || fl->src == fl->dst)
            return dcb_err_set(err, DCB_E_INVAL, "flow %zu: runs between two different hosts", i);
        fl->src_port = host_port(s, fl->src);
        fl->dst_port = host_port(s, fl->dst);
        if (fl->src_port == NO_INDEX || fl->dst_port == NO_INDEX)
            return dcb_err_set(err, DCB_E_INVAL, "flow %zu: a host without a link", i);
        uint32_t first = s->ports[fl->src_port].peer;
        if (!s->nodes[s->ports[first].node].is_switch && s->ports[first].node != fl->dst)
            return dcb_err_set(err, DCB_E_INVAL, "flow %zu: no route", i);
        if (s->nodes[s->ports[first].node].is_switch &&
            !routes_count(s, s->ports[first].node, fl->dst))
            return dcb_err_set(err, DCB_E_INVAL, "flow %zu: no route from %s to %s", i, rf->src,
                               rf->dst);
        fl->payload = rf->payload ? rf->payload : REPLAY_PAYLOAD_DEFAULT;
        fl->bytes = rf->bytes;
        fl->npackets = rf->bytes ? (uint32_t)((rf->bytes + fl->payload - 1) / fl->payload) : 0;
        if (!rf->bytes &&
            s->end_ps / serialize_ps(&s->ports[fl->src_port], fl->payload + HEADER_BYTES) >=
                UINT32_MAX)
            return dcb_err_set(err, DCB_E_RANGE,
                               "flow %zu sends for the whole run: %.3f ms at "
                               "line rate is 2^32 packets or more (its PSN is 32-bit)",
                               i, (double)s->end_ps / 1e9);
        fl->dscp = rf->dscp;
        const struct qos_config *c = &s->ports[fl->src_port].cfg;
        fl->prio = nic_flow_prio(c, rf->dscp);
        fl->transport = s->opt->transport ? s->opt->transport[i] : REPLAY_TRANSPORT_AUTO;
        fl->sport = rf->sport;
        fl->start_ps = rf->start_ns * REPLAY_PS_PER_NS;
        fl->cnp_next_ps = INT64_MIN;
        const struct replay_after *af = s->opt->after ? &s->opt->after[i] : NULL;
        if (af && af->n > 2)
            return dcb_err_set(err, DCB_E_INVAL, "flow %zu: more than 2 dependencies", i);
        for (unsigned k = 0; af && k < af->n; k++)
            if (af->flow[k] >= i)
                return dcb_err_set(err, DCB_E_INVAL,
                                   "flow %zu: depends on flow %u, not an "
                                   "earlier one",
                                   i, af->flow[k]);
        if (af) {
            fl->waiting = fl->nafter = af->n;
            fl->after[0] = af->flow[0];
            fl->after[1] = af->flow[1];
        }
        struct dcqcn_params d;
        memset(&d, 0, sizeof(d)); /* compared whole, padding too */
        flow_params(s, fl, &d);
        if ((dp_index[i] = intern_params(s, &d)) == NO_INDEX)
            return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
        fl->ecmp_key = sim_flow_ecmp_key(fl);
        s->nflows++;
    }
    for (uint32_t i = 0; i < s->nflows; i++) {
        struct flow *fl = &s->flows[i];
        fl->dp = &s->dparams[dp_index[i]];
        dcqcn_rp_init(&fl->rp, fl->dp, fl->start_ps / REPLAY_PS_PER_NS);
    }
    return 0;
}

/* Who waits for whom, by the flow waited for: finishing a flow reads its own list, not every
 * later flow (a million flows finishing one by one). */
static int build_dependents(struct sim *s)
{
    uint64_t deps = 0;
    for (uint32_t g = 0; g < s->nflows; g++)
        deps += s->flows[g].nafter;
    if (!deps)
        return 0;
    if (!budget_take(&s->budget, ((uint64_t)s->nflows + 1 + deps) * sizeof(uint32_t), "the flows"))
        return DCB_E_RANGE;
    s->dependents_at = calloc((size_t)s->nflows + 1, sizeof(*s->dependents_at));
    s->dependents = malloc(deps * sizeof(*s->dependents));
    if (!s->dependents_at || !s->dependents)
        return DCB_E_NOMEM;
    for (uint32_t g = 0; g < s->nflows; g++)
        for (unsigned k = 0; k < s->flows[g].nafter; k++)
            s->dependents_at[s->flows[g].after[k] + 1]++;
    for (uint32_t f = 0; f < s->nflows; f++)
        s->dependents_at[f + 1] += s->dependents_at[f];
    uint32_t *fill = malloc(((size_t)s->nflows + 1) * sizeof(*fill));
    if (!fill)
        return DCB_E_NOMEM;
    memcpy(fill, s->dependents_at, ((size_t)s->nflows + 1) * sizeof(*fill));
    for (uint32_t g = 0; g < s->nflows; g++)
        for (unsigned k = 0; k < s->flows[g].nafter; k++)
            s->dependents[fill[s->flows[g].after[k]]++] = g;
    free(fill);
    return 0;
}

static int build_flows(struct sim *s, const struct fabric *f, const struct replay_flow *flows,
                       size_t n, struct dcb_err *err)
{
    if (!budget_take(&s->budget, (uint64_t)(n ? n : 1) * (sizeof(*s->flows) + sizeof(uint32_t)),
                     "the flows"))
        return DCB_E_RANGE;
    s->flows = large_alloc((n ? n : 1) * sizeof(*s->flows));
    uint32_t *dp_index = calloc(n ? n : 1, sizeof(*dp_index));
    if (!s->flows || !dp_index) {
        free(dp_index);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    }
    int rc = build_flow_list(s, f, flows, n, dp_index, err);
    free(dp_index);
    if (rc == 0 && (rc = build_dependents(s)) == DCB_E_NOMEM)
        rc = dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    return rc;
}
int sim_build(struct sim *s, const struct fabric *f, const struct replay_flow *flows, size_t n,
              struct dcb_err *err)
{
    int rc = build_nodes(s, f, err);
    if (rc == 0)
        rc = routes_build(s, err);
    if (rc == 0)
        rc = build_flows(s, f, flows, n, err);
    return rc;
}

void sim_free(struct sim *s)
{
    for (uint32_t i = 0; i < s->nports; i++) {
        struct port *pt = &s->ports[i];
        free(pt->ctrl.v);
        for (int q = 0; q < PRIOS; q++)
            free(pt->by_tc[q].q.v);
        free(pt->ready);
        free(pt->ready_at);
        free(pt->ready_prio);
    }
    free(s->ports);
    free(s->nodes);
    free(s->flows);
    free(s->dparams);
    free(s->dependents_at);
    free(s->dependents);
    free(s->pkts);
    routes_free(s);
    sim_measure_free(s);
    free(s->fault_port);
    evq_free(&s->queue);
}

/* The port each fault acts on: device:ifname, or a host's linked port. */
int sim_fault_resolve(struct sim *s, struct dcb_err *err)
{
    const struct replay_options *o = s->opt;
    if (!o->nfaults)
        return 0;
    s->fault_port = calloc(o->nfaults, sizeof(*s->fault_port));
    if (!s->fault_port)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    for (size_t i = 0; i < o->nfaults; i++) {
        const struct replay_fault *ft = &o->faults[i];
        uint32_t node = ft->device ? find_node(s, ft->device) : NO_INDEX;
        if (node == NO_INDEX)
            return dcb_err_set(err, DCB_E_INVAL, "fault %zu: no device '%s'", i,
                               ft->device ? ft->device : "");
        uint32_t port = ft->ifname ? find_port(s, node, ft->ifname) : host_port(s, node);
        if (port == NO_INDEX || s->ports[port].peer == NO_INDEX)
            return dcb_err_set(err, DCB_E_INVAL, "fault %zu: %s%s%s has no linked interface", i,
                               ft->device, ft->ifname ? ":" : "", ft->ifname ? ft->ifname : "");
        if (ft->kind != REPLAY_FAULT_LINK_DOWN && s->nodes[node].is_switch)
            return dcb_err_set(err, DCB_E_INVAL, "fault %zu: %s is a switch, not a host", i,
                               ft->device);
        if (ft->kind == REPLAY_FAULT_PAUSE_STORM && (ft->prio < 0 || ft->prio > 7))
            return dcb_err_set(err, DCB_E_RANGE, "fault %zu: priority %d is not 0-7", i, ft->prio);
        s->fault_port[i] = port;
    }
    return 0;
}
