/* Building the simulated fabric from the fabric model: nodes, ports with their effective config,
 * links (speed, cable_m x 5 ns/m of propagation), shortest-path routes with every equal-cost next
 * hop kept for ECMP, and the flows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "large_alloc.h"
#include "sim.h"

#define PROP_PS_PER_M 5000        /* 5 ns/m: light in fibre and copper alike (rules.md 1.5) */
#define DEFAULT_BPS 100e9
#define ECMP_MAX 64

struct iface_list {
    struct sim *s;
    uint32_t node;
};

static bool ports_reserve(struct sim *s, uint32_t cap)
{
    struct port *grown = budget_take(&s->budget, (uint64_t)(cap - s->ports_cap) *
                                                 sizeof(*grown), "the ports")
                             ? large_alloc(cap * sizeof(*grown)) : NULL;
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
        return dcb_err_set(err, DCB_E_RANGE, "%s:%s: speed %.17g b/s is out of range (%lld to "
                           "%lld)", dev, pt->name, pt->bps, QOS_SPEED_MIN_BPS,
                           QOS_SPEED_MAX_BPS);
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
    uint32_t nifaces = 0;         /* the ports at once: each is 6 KB, and a copy doubles them */
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

/* ---- routes ------------------------------------------------------------------------------- */

/* What build_routes works with: each host's switches (the ones its links that are up reach),
 * the links that are up between switches, and a breadth-first search's distances. Freed when
 * the routes are built. */
struct route_scratch {
    uint32_t *att;                /* att[att_at[h], att_at[h + 1]): host h's switches, sorted */
    uint32_t *att_at;             /* by node, nnodes + 1 */
    uint32_t *switches;           /* by switch index: its node */
    uint32_t *adj_at;             /* by switch index, nswitches + 1: its links to switches that
                                     are up, [adj_at[i], adj_at[i + 1]) of adj_port, adj_to */
    uint32_t *adj_port, *adj_to;  /* the port, in port order, and the switch index it reaches */
    uint32_t *dist, *queue;       /* by switch index */
    uint32_t *order;              /* the hosts with a switch, by their switches */
    struct route *prev;           /* by switch index: its route toward the last group */
    size_t used, cap;             /* of s->route_ports */
};

static void scratch_free(struct route_scratch *b)
{
    free(b->att);
    free(b->att_at);
    free(b->switches);
    free(b->adj_at);
    free(b->adj_port);
    free(b->adj_to);
    free(b->dist);
    free(b->queue);
    free(b->order);
    free(b->prev);
}

static bool link_up(const struct sim *s, uint32_t port)
{
    return s->ports[port].peer != NO_INDEX && !s->ports[port].down;
}

static uint32_t peer_node(const struct sim *s, uint32_t port)
{
    return s->ports[s->ports[port].peer].node;
}

/* Each host's switches: the nodes its links that are up reach, switches only (hosts do not
 * forward), without repeats, in ascending order. */
static void host_switches(const struct sim *s, struct route_scratch *b)
{
    uint32_t k = 0;
    for (uint32_t h = 0; h < s->nnodes; h++) {
        const struct node *nh = &s->nodes[h];
        b->att_at[h] = k;
        for (uint32_t p = nh->first_port; !nh->is_switch && p < nh->first_port + nh->nports; p++) {
            uint32_t v = link_up(s, p) ? peer_node(s, p) : NO_INDEX;
            if (v == NO_INDEX || !s->nodes[v].is_switch)
                continue;
            uint32_t i = k;
            while (i > b->att_at[h] && b->att[i - 1] > v)
                i--;
            if (i > b->att_at[h] && b->att[i - 1] == v)
                continue;
            memmove(&b->att[i + 1], &b->att[i], (k - i) * sizeof(*b->att));
            b->att[i] = v;
            k++;
        }
    }
    b->att_at[s->nnodes] = k;
}

static int cmp_switches(const void *x, const void *y, void *arg)
{
    const struct route_scratch *b = arg;
    uint32_t hx = *(const uint32_t *)x, hy = *(const uint32_t *)y;
    uint32_t nx = b->att_at[hx + 1] - b->att_at[hx], ny = b->att_at[hy + 1] - b->att_at[hy];
    if (nx != ny)
        return nx < ny ? -1 : 1;
    for (uint32_t i = 0; i < nx; i++) {
        uint32_t vx = b->att[b->att_at[hx] + i], vy = b->att[b->att_at[hy] + i];
        if (vx != vy)
            return vx < vy ? -1 : 1;
    }
    return 0;
}

/* The hosts grouped by their switches: dests[h].group, s->ngroups. Returns how many hosts have
 * a switch; b->order holds them, a group's hosts one after another. */
static uint32_t group_hosts(struct sim *s, struct route_scratch *b)
{
    uint32_t n = 0;
    for (uint32_t h = 0; h < s->nnodes; h++)
        if (b->att_at[h + 1] > b->att_at[h])
            b->order[n++] = h;
    qsort_r(b->order, n, sizeof(*b->order), cmp_switches, b);
    s->ngroups = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i == 0 || cmp_switches(&b->order[i - 1], &b->order[i], b) != 0)
            s->ngroups++;
        s->dests[b->order[i]].group = s->ngroups - 1;
    }
    return n;
}

/* Appends port p to route r (r's entries are the last of route_ports), growing route_ports
 * within the budget. */
static bool route_add(struct sim *s, struct route_scratch *b, struct route *r, uint32_t p)
{
    if (r->count == ECMP_MAX)
        return true;
    if (b->used == b->cap) {
        size_t more = b->cap ? b->cap : 1024;
        if (!budget_take(&s->budget, more * sizeof(*s->route_ports), "the routes"))
            return false;
        s->routes_bytes += more * sizeof(*s->route_ports);
        uint32_t *grown = realloc(s->route_ports, (b->cap + more) * sizeof(*grown));
        if (!grown)
            return false;
        s->route_ports = grown;
        b->cap += more;
    }
    if (!r->count) {
        r->start = (uint32_t)b->used;
        r->first = p;
    }
    s->route_ports[b->used++] = p;
    r->count++;
    return true;
}

/* Each switch's links to switches that are up (a search reads these, not the ports). */
static void switch_links(const struct sim *s, struct route_scratch *b)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->nswitches; i++) {
        const struct node *ns = &s->nodes[b->switches[i]];
        b->adj_at[i] = k;
        for (uint32_t p = ns->first_port; p < ns->first_port + ns->nports; p++) {
            uint32_t v = link_up(s, p) ? peer_node(s, p) : NO_INDEX;
            if (v != NO_INDEX && s->nodes[v].is_switch) {
                b->adj_port[k] = p;
                b->adj_to[k++] = s->nodes[v].switch_index;
            }
        }
    }
    b->adj_at[s->nswitches] = k;
}

/* A group's row: hop counts from its switches (1: the hosts hang from them) through switches
 * only, then each other switch's next hops, the neighbours one hop nearer. At the group's own
 * switches the hosts' last hops apply instead. */
static bool group_row(struct sim *s, struct route_scratch *b, const uint32_t *sw, uint32_t nsw,
                      struct route *row)
{
    uint32_t head = 0, tail = 0;
    for (uint32_t i = 0; i < s->nswitches; i++)
        b->dist[i] = UINT32_MAX;
    for (uint32_t i = 0; i < nsw; i++) {
        uint32_t u = s->nodes[sw[i]].switch_index;
        b->dist[u] = 1;
        b->queue[tail++] = u;
    }
    while (head < tail) {
        uint32_t u = b->queue[head++];
        for (uint32_t k = b->adj_at[u]; k < b->adj_at[u + 1]; k++) {
            uint32_t v = b->adj_to[k];
            if (b->dist[v] == UINT32_MAX) {
                b->dist[v] = b->dist[u] + 1;
                b->queue[tail++] = v;
            }
        }
    }
    for (uint32_t u = 0; u < s->nswitches; u++) {
        if (b->dist[u] == UINT32_MAX || b->dist[u] == 1)
            continue;
        for (uint32_t k = b->adj_at[u]; k < b->adj_at[u + 1]; k++)
            if (b->dist[b->adj_to[k]] + 1 == b->dist[u] &&
                !route_add(s, b, &row[u], b->adj_port[k]))
                return false;
        /* a leaf's uplinks toward every other leaf: one copy, shared */
        const struct route *p = &b->prev[u];
        if (row[u].count && p->count == row[u].count && !memcmp(&s->route_ports[p->start],
                                                &s->route_ports[row[u].start],
                                                p->count * sizeof(*s->route_ports))) {
            b->used -= row[u].count;
            row[u] = *p;
        }
        b->prev[u] = row[u];
    }
    return true;
}

/* At a switch host h hangs from: its ports to h. */
static bool last_hop(struct sim *s, struct route_scratch *b, uint32_t sw, uint32_t h,
                     struct route *r)
{
    const struct node *ns = &s->nodes[sw];
    for (uint32_t p = ns->first_port; p < ns->first_port + ns->nports; p++)
        if (link_up(s, p) && peer_node(s, p) == h && !route_add(s, b, r, p))
            return false;
    return true;
}

static int routes_alloc(struct sim *s, struct route_scratch *b)
{
    uint32_t n = s->nnodes;
    b->att = malloc((s->nports ? s->nports : 1) * sizeof(*b->att));
    b->att_at = malloc(((size_t)n + 1) * sizeof(*b->att_at));
    b->switches = malloc((n ? n : 1) * sizeof(*b->switches));
    b->adj_at = malloc(((size_t)n + 1) * sizeof(*b->adj_at));
    b->adj_port = malloc((s->nports ? s->nports : 1) * sizeof(*b->adj_port));
    b->adj_to = malloc((s->nports ? s->nports : 1) * sizeof(*b->adj_to));
    b->dist = malloc((n ? n : 1) * sizeof(*b->dist));
    b->queue = malloc((n ? n : 1) * sizeof(*b->queue));
    b->order = malloc((n ? n : 1) * sizeof(*b->order));
    b->prev = calloc(n ? n : 1, sizeof(*b->prev));
    s->routes_bytes = (uint64_t)(n ? n : 1) * sizeof(*s->dests);
    if (!budget_take(&s->budget, s->routes_bytes, "the routes")) {
        s->routes_bytes = 0;
        return DCB_E_RANGE;
    }
    s->dests = large_alloc((n ? n : 1) * sizeof(*s->dests));
    if (!b->att || !b->att_at || !b->switches || !b->adj_at || !b->adj_port || !b->adj_to ||
        !b->dist || !b->queue || !b->order || !b->prev || !s->dests)
        return DCB_E_NOMEM;
    s->nswitches = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (s->nodes[i].is_switch)
            b->switches[s->nswitches] = i;
        s->nodes[i].switch_index = s->nodes[i].is_switch ? s->nswitches++ : NO_INDEX;
        s->dests[i] = (struct dest){ .group = NO_INDEX, .leaf = NO_INDEX };
    }
    return 0;
}

/* The tables the lookups read (s->dests, group_routes, last_hops): the last hops for every
 * host, and a row per group of hosts. */
static int routes_fill(struct sim *s, struct route_scratch *b, uint32_t nhosts)
{
    uint64_t rows = (uint64_t)s->ngroups * s->nswitches * sizeof(*s->group_routes);
    uint32_t nmore = b->att_at[s->nnodes] - nhosts;
    uint64_t more = (uint64_t)nmore * sizeof(*s->last_hops);
    if (!budget_take(&s->budget, rows + more, "the routes"))
        return DCB_E_RANGE;
    s->routes_bytes += rows + more;
    s->group_routes = calloc(rows ? rows : 1, 1);
    s->last_hops = calloc(more ? more : 1, 1);
    if (!s->group_routes || !s->last_hops)
        return DCB_E_NOMEM;
    uint32_t k = 0;
    for (uint32_t i = 0; i < nhosts; i++) {
        uint32_t h = b->order[i];
        const uint32_t *sw = &b->att[b->att_at[h]];
        uint32_t nsw = b->att_at[h + 1] - b->att_at[h];
        struct dest *d = &s->dests[h];
        if (i == 0 || d->group != s->dests[b->order[i - 1]].group) {
            if (!group_row(s, b, sw, nsw,
                           &s->group_routes[(size_t)d->group * s->nswitches]))
                return DCB_E_NOMEM;
        }
        d->leaf = sw[0];
        d->more = k;
        d->nmore = nsw - 1;
        if (!last_hop(s, b, sw[0], h, &d->last))
            return DCB_E_NOMEM;
        for (uint32_t j = 1; j < nsw; j++, k++) {
            s->last_hops[k].node = sw[j];
            if (!last_hop(s, b, sw[j], h, &s->last_hops[k].r))
                return DCB_E_NOMEM;
        }
    }
    return 0;
}

/* Shortest paths to each host through switches only (hosts do not forward), every equal-cost
 * next hop kept: O(switches x groups) entries, never one per pair of nodes. */
static int build_routes(struct sim *s, struct dcb_err *err)
{
    struct route_scratch b = { 0 };
    int rc = routes_alloc(s, &b);
    if (rc == 0) {
        host_switches(s, &b);
        switch_links(s, &b);
        uint32_t nhosts = group_hosts(s, &b);
        rc = routes_fill(s, &b, nhosts);
    }
    scratch_free(&b);
    if (rc == DCB_E_NOMEM)       /* also a route_ports growth past the budget: it names it */
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory for routes");
    return rc;
}

static void routes_free(struct sim *s)
{
    free(s->dests);
    free(s->group_routes);
    free(s->last_hops);
    free(s->route_ports);
    s->dests = NULL;
    s->group_routes = NULL;
    s->last_hops = NULL;
    s->route_ports = NULL;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* The 5-tuple: addresses (the hosts), protocol, UDP source port and 4791. Packets carry it, so
 * a switch choosing among next hops need not read the flow. */
uint64_t flow_ecmp_key(const struct flow *fl)
{
    return (uint64_t)fl->src << 40 ^ (uint64_t)fl->dst << 16 ^ fl->sport ^ (uint64_t)17 << 56 ^
           (uint64_t)4791 << 24;
}

static const struct route no_route;

/* The next hops at switch node toward host dst. */
static const struct route *route_at(const struct sim *s, uint32_t node, uint32_t dst)
{
    const struct dest *d = &s->dests[dst];
    if (node == d->leaf)
        return &d->last;
    for (uint32_t k = 0; k < d->nmore; k++)
        if (s->last_hops[d->more + k].node == node)
            return &s->last_hops[d->more + k].r;
    uint32_t col = s->nodes[node].switch_index;
    if (d->group == NO_INDEX || col == NO_INDEX)
        return &no_route;
    return &s->group_routes[(size_t)d->group * s->nswitches + col];
}

uint32_t sim_next_hop_key(struct sim *s, uint32_t node, uint64_t ecmp_key, uint32_t dst_node)
{
    const struct route *r = route_at(s, node, dst_node);
    uint16_t count = r->count;
    if (!count)
        return NO_INDEX;
    if (count == 1)
        return r->first;
    uint64_t h = mix(ecmp_key ^ (uint64_t)node << 48);
    uint32_t pick = s->route_ports[r->start + h % count];
    /* a link that is down leaves the group: the next one up takes its flows */
    for (uint16_t k = 1; s->ports[pick].down && k < count; k++)
        pick = s->route_ports[r->start + (h + k) % count];
    return s->ports[pick].down ? NO_INDEX : pick;
}

uint32_t sim_next_hop(struct sim *s, uint32_t node, const struct flow *fl, uint32_t dst_node)
{
    return sim_next_hop_key(s, node, flow_ecmp_key(fl), dst_node);
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
        d->g = 1.0 - (double)k->g.v / 1024.0;          /* dce_tcp_g: 1 - g in 1/1024 */
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
        d->line_bps = (double)k->max_rate_mbps.v * 1e6;  /* rpg_max_rate; 0: the line rate */
    if (k->gd.set)
        d->alpha_cut = ldexp(1.0, 10 - (int)k->gd.v);    /* alpha in 1/1024, cut in 1/2^gd */
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
            budget_take(&s->budget, (uint64_t)(cap - s->dparams_cap) * sizeof(*grown),
                        "the flows") ? realloc(s->dparams, cap * sizeof(*grown)) : NULL;
        if (!grown)
            return NO_INDEX;
        s->dparams = grown;
        s->dparams_cap = cap;
    }
    s->dparams[s->ndparams] = *d;
    return s->ndparams++;
}

static int build_flow_list(struct sim *s, const struct fabric *f,
                           const struct replay_flow *flows, size_t n, uint32_t *dp_index,
                           struct dcb_err *err)
{
    memset(s->flows, 0, (n ? n : 1) * sizeof(*s->flows));
    for (size_t i = 0; i < n; i++) {
        const struct replay_flow *rf = &flows[i];
        struct flow *fl = &s->flows[s->nflows];
        fl->src = rf->src ? fabric_node(s, f, rf->src) : NO_INDEX;
        fl->dst = rf->dst ? fabric_node(s, f, rf->dst) : NO_INDEX;
        if (fl->src == NO_INDEX || fl->dst == NO_INDEX)
            return dcb_err_set(err, DCB_E_INVAL, "flow %zu: no device '%s'", i,
                               fl->src == NO_INDEX ? (rf->src ? rf->src : "") :
                               (rf->dst ? rf->dst : ""));
        if (s->nodes[fl->src].is_switch || s->nodes[fl->dst].is_switch || fl->src == fl->dst)
            return dcb_err_set(err, DCB_E_INVAL, "flow %zu: runs between two different hosts",
                               i);
        fl->src_port = host_port(s, fl->src);
        fl->dst_port = host_port(s, fl->dst);
        if (fl->src_port == NO_INDEX || fl->dst_port == NO_INDEX)
            return dcb_err_set(err, DCB_E_INVAL, "flow %zu: a host without a link", i);
        uint32_t first = s->ports[fl->src_port].peer;
        if (!s->nodes[s->ports[first].node].is_switch &&
            s->ports[first].node != fl->dst)
            return dcb_err_set(err, DCB_E_INVAL, "flow %zu: no route", i);
        if (s->nodes[s->ports[first].node].is_switch &&
            !route_at(s, s->ports[first].node, fl->dst)->count)
            return dcb_err_set(err, DCB_E_INVAL, "flow %zu: no route from %s to %s", i,
                               rf->src, rf->dst);
        fl->payload = rf->payload ? rf->payload : REPLAY_PAYLOAD_DEFAULT;
        fl->bytes = rf->bytes;
        fl->npackets = rf->bytes ? (uint32_t)((rf->bytes + fl->payload - 1) / fl->payload) : 0;
        if (!rf->bytes && s->end_ps / serialize_ps(&s->ports[fl->src_port],
                                                   fl->payload + HEADER_BYTES) >= UINT32_MAX)
            return dcb_err_set(err, DCB_E_RANGE, "flow %zu sends for the whole run: %.3f ms at "
                               "line rate is 2^32 packets or more (its PSN is 32-bit)", i,
                               (double)s->end_ps / 1e9);
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
                return dcb_err_set(err, DCB_E_INVAL, "flow %zu: depends on flow %u, not an "
                                   "earlier one", i, af->flow[k]);
        if (af) {
            fl->waiting = fl->nafter = af->n;
            fl->after[0] = af->flow[0];
            fl->after[1] = af->flow[1];
        }
        struct dcqcn_params d;
        memset(&d, 0, sizeof(d));          /* compared whole, padding too */
        flow_params(s, fl, &d);
        if ((dp_index[i] = intern_params(s, &d)) == NO_INDEX)
            return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
        fl->ecmp_key = flow_ecmp_key(fl);
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
    if (!budget_take(&s->budget, ((uint64_t)s->nflows + 1 + deps) * sizeof(uint32_t),
                     "the flows"))
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
        rc = build_routes(s, err);
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
    measure_free(s);
    free(s->fault_port);
    evq_free(&s->queue);
}

/* A link went down or came back: routes are computed again around the links that are down, as
 * the fabric's routing protocol would converge (instantly, here). */
int sim_reroute(struct sim *s)
{
    routes_free(s);
    budget_give(&s->budget, s->routes_bytes);
    if (build_routes(s, NULL) < 0) {
        s->oom = true;
        return -1;
    }
    return 0;
}

/* The port each fault acts on: device:ifname, or a host's linked port. */
int fault_resolve(struct sim *s, struct dcb_err *err)
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
            return dcb_err_set(err, DCB_E_RANGE, "fault %zu: priority %d is not 0-7", i,
                               ft->prio);
        s->fault_port[i] = port;
    }
    return 0;
}
