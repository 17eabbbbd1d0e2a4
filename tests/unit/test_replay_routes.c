/* The replay engine's routes (rules/replay/topo.c) on small fabrics, walked hop by hop through
 * sim_next_hop_key(): every host reaches every other host on a shortest path (hand-counted:
 * 2 links under one leaf, 4 through a spine, 6 through a super-spine), ECMP spreads a set of
 * flows over every equal-cost uplink and nothing else, a host on two leaves is reached through
 * both, a link that goes down leaves its groups, and the tables grow with switches and groups
 * of hosts, not with pairs of nodes. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "fabric.h"
#include "sim.h"

#define KEYS 64

struct net {
    struct fabric f;
    struct replay_options o;
    struct sim *s;
    unsigned *by_port; /* picks() */
};

static void net_build(struct net *n, const char *text)
{
    struct dcb_err err;
    fabric_init(&n->f);
    if (fabric_load_text(&n->f, text, strlen(text), "test", &err) < 0) {
        print_error("%s\n", err.msg);
        fail();
    }
    replay_options_init(&n->o);
    n->s = calloc(1, sizeof(*n->s));
    assert_non_null(n->s);
    n->s->opt = &n->o;
    n->s->free_pkt = NO_INDEX;
    n->s->budget.max = 1ULL << 32;
    evq_init(&n->s->queue);
    if (sim_build(n->s, &n->f, NULL, 0, &err) < 0) {
        print_error("%s\n", err.msg);
        fail();
    }
    n->by_port = calloc(n->s->nports, sizeof(*n->by_port));
    assert_non_null(n->by_port);
}

static void net_free(struct net *n)
{
    free(n->by_port);
    sim_free(n->s);
    free(n->s);
    fabric_free(&n->f);
}

static uint32_t node_of(const struct sim *s, const char *name)
{
    for (uint32_t i = 0; i < s->nnodes; i++)
        if (!strcmp(s->nodes[i].name, name))
            return i;
    print_error("no node %s\n", name);
    fail();
    return NO_INDEX;
}

static uint32_t port_of(const struct sim *s, const char *device, const char *ifname)
{
    const struct node *n = &s->nodes[node_of(s, device)];
    for (uint32_t p = n->first_port; p < n->first_port + n->nports; p++)
        if (!strcmp(s->ports[p].name, ifname))
            return p;
    print_error("no port %s:%s\n", device, ifname);
    fail();
    return NO_INDEX;
}

static const char *peer_name(const struct sim *s, uint32_t port)
{
    return s->nodes[s->ports[s->ports[port].peer].node].name;
}

/* The ECMP key of the k-th flow from src to dst (its UDP source port 49152 + k). */
static uint64_t key_of(uint32_t src, uint32_t dst, unsigned k)
{
    struct flow fl = { .src = src, .dst = dst, .sport = (uint16_t)(49152 + k) };
    return sim_flow_ecmp_key(&fl);
}

/* Links crossed from host src to host dst, leaving by the host's first linked port; -1: a
 * switch had no next hop, or the walk did not end at dst. */
static int walk(struct sim *s, uint32_t src, uint32_t dst, uint64_t key)
{
    const struct node *n = &s->nodes[src];
    uint32_t port = NO_INDEX;
    for (uint32_t p = n->first_port; p < n->first_port + n->nports && port == NO_INDEX; p++)
        if (s->ports[p].peer != NO_INDEX)
            port = p;
    int links = 0;
    while (port != NO_INDEX && links < 16) {
        uint32_t at = s->ports[s->ports[port].peer].node;
        links++;
        if (!s->nodes[at].is_switch)
            return at == dst ? links : -1;
        port = sim_next_hop_key(s, at, key, dst);
    }
    return -1;
}

/* How many of KEYS flows from src to dst leave switch sw by each of its ports. */
static void picks(struct sim *s, const char *sw, const char *src, const char *dst,
                  unsigned *by_port)
{
    uint32_t node = node_of(s, sw), a = node_of(s, src), b = node_of(s, dst);
    memset(by_port, 0, s->nports * sizeof(*by_port));
    for (unsigned k = 0; k < KEYS; k++) {
        uint32_t p = sim_next_hop_key(s, node, key_of(a, b, k), b);
        assert_int_not_equal(p, NO_INDEX);
        assert_int_equal(s->ports[p].node, node);
        by_port[p]++;
    }
}

/* Every ordered pair of hosts, eight flows each: hops(i, j) links, hosts numbered from 1. */
static void all_pairs(struct sim *s, int nhosts, int (*hops)(int, int))
{
    for (int i = 1; i <= nhosts; i++)
        for (int j = 1; j <= nhosts; j++) {
            if (i == j)
                continue;
            char a[16], b[16];
            snprintf(a, sizeof(a), "host%d", i);
            snprintf(b, sizeof(b), "host%d", j);
            uint32_t na = node_of(s, a), nb = node_of(s, b);
            for (unsigned k = 0; k < 8; k++) {
                int got = walk(s, na, nb, key_of(na, nb, k));
                if (got != hops(i, j)) {
                    print_error("%s -> %s (flow %u): %d links, not %d\n", a, b, k, got, hops(i, j));
                    fail();
                }
            }
        }
}

/* 4 leaves x 3 hosts, 4 spines: leaf L has host3L-2..host3L on Ethernet0-2 and spine S on
 * Ethernet(2+S); spine S reaches leaf L on Ethernet(L-1). */
#define LEAF_SPINE                                                      \
    "{\"generate\":{\"type\":\"leaf-spine\",\"leaves\":4,\"spines\":4," \
    "\"hosts_per_leaf\":3,\"speed\":\"100G\"}}"

static int leaf_spine_hops(int i, int j)
{
    return (i - 1) / 3 == (j - 1) / 3 ? 2 : 4;
}

static void leaf_spine_reach(void **state)
{
    (void)state;
    struct net n;
    net_build(&n, LEAF_SPINE);
    all_pairs(n.s, 12, leaf_spine_hops);
    net_free(&n);
}

/* host1 (leaf1) to host4 (leaf2): leaf1 spreads 64 flows over its four uplinks, each within
 * 8-24 of its 16; a spine has one way down to leaf2, and leaf2 one port to host4. */
static void leaf_spine_ecmp(void **state)
{
    (void)state;
    struct net n;
    net_build(&n, LEAF_SPINE);
    struct sim *s = n.s;
    unsigned *by_port = n.by_port;
    picks(s, "leaf1", "host1", "host4", by_port);
    for (int sp = 1; sp <= 4; sp++) {
        char ifname[16], spine[16];
        snprintf(ifname, sizeof(ifname), "Ethernet%d", 2 + sp);
        snprintf(spine, sizeof(spine), "spine%d", sp);
        uint32_t p = port_of(s, "leaf1", ifname);
        assert_string_equal(peer_name(s, p), spine);
        if (by_port[p] < 8 || by_port[p] > 24) {
            print_error("leaf1 sent %u of %d flows to %s\n", by_port[p], KEYS, spine);
            fail();
        }
    }
    for (int sp = 1; sp <= 4; sp++) {
        char spine[16];
        snprintf(spine, sizeof(spine), "spine%d", sp);
        picks(s, spine, "host1", "host4", by_port);
        assert_int_equal(by_port[port_of(s, spine, "Ethernet1")], KEYS);
    }
    picks(s, "leaf2", "host1", "host4", by_port);
    assert_int_equal(by_port[port_of(s, "leaf2", "Ethernet0")], KEYS);
    /* the same flow takes the same uplink every time */
    uint32_t l1 = node_of(s, "leaf1"), h1 = node_of(s, "host1"), h4 = node_of(s, "host4");
    assert_int_equal(sim_next_hop_key(s, l1, key_of(h1, h4, 5), h4),
                     sim_next_hop_key(s, l1, key_of(h1, h4, 5), h4));
    net_free(&n);
}

/* Down: leaf1's uplink to spine1. Toward host1, leaf2 spreads over spines 2-4 only (through
 * spine1 it would be 3 switches away, not 2); toward host4 leaf1 no longer uses it. Back up, it
 * is used again. */
static void leaf_spine_link_down(void **state)
{
    (void)state;
    struct net n;
    net_build(&n, LEAF_SPINE);
    struct sim *s = n.s;
    unsigned *by_port = n.by_port;
    uint32_t up = port_of(s, "leaf1", "Ethernet3");
    s->ports[up].down = s->ports[s->ports[up].peer].down = true;
    assert_int_equal(sim_reroute(s), 0);
    picks(s, "leaf2", "host4", "host1", by_port);
    assert_int_equal(by_port[port_of(s, "leaf2", "Ethernet3")], 0);
    for (int e = 4; e <= 6; e++) {
        char ifname[16];
        snprintf(ifname, sizeof(ifname), "Ethernet%d", e);
        assert_true(by_port[port_of(s, "leaf2", ifname)] >= 8);
    }
    picks(s, "leaf1", "host1", "host4", by_port);
    assert_int_equal(by_port[up], 0);
    all_pairs(s, 12, leaf_spine_hops);
    s->ports[up].down = s->ports[s->ports[up].peer].down = false;
    assert_int_equal(sim_reroute(s), 0);
    picks(s, "leaf2", "host4", "host1", by_port);
    assert_true(by_port[port_of(s, "leaf2", "Ethernet3")] >= 8);
    net_free(&n);
}

/* A k = 4 fat-tree: 4 pods of 2 leaves (2 hosts each) and 2 spines, 4 super-spines in two
 * planes. Hosts 4p-3..4p are pod p's. */
#define FAT_TREE                                                            \
    "{\"generate\":{\"type\":\"fat-tree\",\"pods\":4,\"leaves_per_pod\":2," \
    "\"spines_per_pod\":2,\"super_spines\":4,\"hosts_per_leaf\":2}}"

static int fat_tree_hops(int i, int j)
{
    if ((i - 1) / 2 == (j - 1) / 2)
        return 2;
    return (i - 1) / 4 == (j - 1) / 4 ? 4 : 6;
}

/* host1 to host16 (pod 4): leaf1 spreads over both of its pod's spines, spine1 over both
 * super-spines of its plane; the super-spine has one way down. */
static void fat_tree(void **state)
{
    (void)state;
    struct net n;
    net_build(&n, FAT_TREE);
    struct sim *s = n.s;
    all_pairs(s, 16, fat_tree_hops);
    unsigned *by_port = n.by_port;
    const char *const hops[] = { "leaf1", "spine1" };
    for (int h = 0; h < 2; h++) {
        picks(s, hops[h], "host1", "host16", by_port);
        unsigned used = 0;
        for (uint32_t p = 0; p < s->nports; p++) {
            if (!by_port[p])
                continue;
            used++;
            assert_true(by_port[p] >= 16);
            assert_true(strncmp(peer_name(s, p), h ? "super" : "spine", 5) == 0);
        }
        assert_int_equal(used, 2);
    }
    uint32_t sw = s->ports[s->ports[sim_next_hop_key(s, node_of(s, "spine1"), key_of(0, 0, 0),
                                                     node_of(s, "host16"))]
                               .peer]
                      .node;
    picks(s, s->nodes[sw].name, "host1", "host16", by_port);
    unsigned used = 0;
    for (uint32_t p = 0; p < s->nports; p++)
        used += by_port[p] == KEYS;
    assert_int_equal(used, 1);
    net_free(&n);
}

/* host1 hangs from leaf1 and leaf2, host2 from leaf1, host3 from leaf2; two spines. A spine
 * reaches host1 through both leaves, host2 through leaf1 only; host3 reaches host1 in 2 links
 * through leaf2, host2 in 4. */
#define DUAL_HOMED                                                                              \
    "{\"devices\":[{\"name\":\"spine1\",\"role\":\"switch\"},"                                  \
    "{\"name\":\"spine2\",\"role\":\"switch\"},{\"name\":\"leaf1\",\"role\":\"switch\"},"       \
    "{\"name\":\"leaf2\",\"role\":\"switch\"},{\"name\":\"host1\",\"role\":\"host\"},"          \
    "{\"name\":\"host2\",\"role\":\"host\"},{\"name\":\"host3\",\"role\":\"host\"}],"           \
    "\"links\":[{\"a\":\"leaf1:up1\",\"b\":\"spine1:d1\"},{\"a\":\"leaf1:up2\",\"b\":\"spine2:" \
    "d1\"},"                                                                                    \
    "{\"a\":\"leaf2:up1\",\"b\":\"spine1:d2\"},{\"a\":\"leaf2:up2\",\"b\":\"spine2:d2\"},"      \
    "{\"a\":\"leaf1:p1\",\"b\":\"host1:eth0\"},{\"a\":\"leaf2:p1\",\"b\":\"host1:eth1\"},"      \
    "{\"a\":\"leaf1:p2\",\"b\":\"host2:eth0\"},{\"a\":\"leaf2:p2\",\"b\":\"host3:eth0\"}]}"

static void dual_homed(void **state)
{
    (void)state;
    struct net n;
    net_build(&n, DUAL_HOMED);
    struct sim *s = n.s;
    unsigned *by_port = n.by_port;
    picks(s, "spine1", "host3", "host1", by_port);
    assert_true(by_port[port_of(s, "spine1", "d1")] >= 16);
    assert_true(by_port[port_of(s, "spine1", "d2")] >= 16);
    picks(s, "spine1", "host3", "host2", by_port);
    assert_int_equal(by_port[port_of(s, "spine1", "d1")], KEYS);
    picks(s, "leaf2", "host3", "host1", by_port);
    assert_int_equal(by_port[port_of(s, "leaf2", "p1")], KEYS);
    uint32_t h1 = node_of(s, "host1"), h2 = node_of(s, "host2"), h3 = node_of(s, "host3");
    for (unsigned k = 0; k < KEYS; k++) {
        assert_int_equal(walk(s, h3, h1, key_of(h3, h1, k)), 2);
        assert_int_equal(walk(s, h3, h2, key_of(h3, h2, k)), 4);
        assert_int_equal(walk(s, h2, h1, key_of(h2, h1, k)), 2);
        assert_int_equal(walk(s, h1, h3, key_of(h1, h3, k)), 4); /* leaves by eth0: leaf1 */
    }
    net_free(&n);
}

/* 64 leaves x 16 hosts, 8 spines: 64 groups. A route per pair of its 1,096 nodes was 14.4 MB;
 * now 32 bytes a node, a 12-byte route per switch and group (55 KB) and the next-hop lists
 * (leaf uplinks shared, a spine's one port per leaf, a host's last hop). */
static void compact(void **state)
{
    (void)state;
    struct net n;
    net_build(&n, "{\"generate\":{\"type\":\"leaf-spine\",\"leaves\":64,\"spines\":8,"
                  "\"hosts_per_leaf\":16,\"speed\":\"100G\"}}");
    struct sim *s = n.s;
    assert_int_equal(s->nnodes, 1096);
    assert_int_equal(s->ngroups, 64);
    assert_int_equal(s->nswitches, 72);
    if (s->routes_bytes > 128 * 1024) {
        print_error("routes take %llu bytes\n", (unsigned long long)s->routes_bytes);
        fail();
    }
    uint32_t a = node_of(s, "host1"), b = node_of(s, "host1024");
    for (unsigned k = 0; k < KEYS; k++)
        assert_int_equal(walk(s, a, b, key_of(a, b, k)), 4);
    net_free(&n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(leaf_spine_reach),     cmocka_unit_test(leaf_spine_ecmp),
        cmocka_unit_test(leaf_spine_link_down), cmocka_unit_test(fat_tree),
        cmocka_unit_test(dual_homed),           cmocka_unit_test(compact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
