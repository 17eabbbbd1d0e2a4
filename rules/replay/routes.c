/* The routes: shortest paths to each host through switches only (hosts do not forward), every
 * equal-cost next hop kept for ECMP, without an entry per pair of nodes (sim.h, struct dest),
 * built again around the links that are down; and the ECMP pick a switch makes for a packet. */
#include <stdlib.h>
#include <string.h>

#include "large_alloc.h"
#include "sim.h"

#define ECMP_MAX 64

/* What build_routes works with: each host's switches (the ones its links that are up reach),
 * the links that are up between switches, and a breadth-first search's distances. Freed when
 * the routes are built. */
struct route_scratch {
    uint32_t *att;               /* att[att_at[h], att_at[h + 1]): host h's switches, sorted */
    uint32_t *att_at;            /* by node, nnodes + 1 */
    uint32_t *switches;          /* by switch index: its node */
    uint32_t *adj_at;            /* by switch index, nswitches + 1: its links to switches that
                                    are up, [adj_at[i], adj_at[i + 1]) of adj_port, adj_to */
    uint32_t *adj_port, *adj_to; /* the port, in port order, and the switch index it reaches */
    uint32_t *dist, *queue;      /* by switch index */
    uint32_t *order;             /* the hosts with a switch, by their switches */
    struct route *prev;          /* by switch index: its route toward the last group */
    size_t used, cap;            /* of s->route_ports */
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
        if (row[u].count && p->count == row[u].count &&
            !memcmp(&s->route_ports[p->start], &s->route_ports[row[u].start],
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
            if (!group_row(s, b, sw, nsw, &s->group_routes[(size_t)d->group * s->nswitches]))
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
int routes_build(struct sim *s, struct dcb_err *err)
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
    if (rc == DCB_E_NOMEM) /* also a route_ports growth past the budget: it names it */
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory for routes");
    return rc;
}

void routes_free(struct sim *s)
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
uint64_t sim_flow_ecmp_key(const struct flow *fl)
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

uint16_t routes_count(const struct sim *s, uint32_t node, uint32_t dst)
{
    return route_at(s, node, dst)->count;
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
    return sim_next_hop_key(s, node, sim_flow_ecmp_key(fl), dst_node);
}

/* A link went down or came back: routes are computed again around the links that are down, as
 * the fabric's routing protocol would converge (instantly, here). */
int sim_reroute(struct sim *s)
{
    routes_free(s);
    budget_give(&s->budget, s->routes_bytes);
    if (routes_build(s, NULL) < 0) {
        s->oom = true;
        return -1;
    }
    return 0;
}
