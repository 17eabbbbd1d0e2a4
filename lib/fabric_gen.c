/* Standard topologies, expanded into explicit devices and links:
 *   star:       switch1 with Ethernet0..N-1 to host1..hostN (eth0)
 *   leaf-spine: leafL ports Ethernet0..H-1 to its hosts, EthernetH.. to spine1..S;
 *               spineS port Ethernet(L-1) to leafL; hosts host1.. numbered across leaves.
 *   fat-tree:   three tiers. Pod p has leaves_per_pod leaves and spines_per_pod spines, each
 *               leaf linked to every spine of its pod; the super-spines form one plane per pod
 *               spine index, and spine j of every pod links to each super-spine of plane j.
 *               Leaves, spines and hosts are numbered across pods (leaf1.., spine1.., host1..);
 *               super1..C. A leaf's ports: Ethernet0..H-1 to its hosts, then one per pod spine;
 *               a spine's: Ethernet0..L-1 to its pod's leaves, then one per super-spine of its
 *               plane; super-spine port Ethernet(p-1) goes to pod p. */
#include <stdio.h>

#include "fabric.h"

static int link_ends(struct fabric *f, const char *adev, const char *aif, const char *bdev,
                     const char *bif, uint64_t speed, uint64_t cable_mm, bool cable_set,
                     struct dcb_err *err)
{
    struct fabric_link *l = fabric_add_link(f, err);
    if (!l)
        return DCB_E_NOMEM;
    snprintf(l->a.device, sizeof(l->a.device), "%s", adev);
    snprintf(l->a.ifname, sizeof(l->a.ifname), "%s", aif);
    snprintf(l->b.device, sizeof(l->b.device), "%s", bdev);
    snprintf(l->b.ifname, sizeof(l->b.ifname), "%s", bif);
    l->speed_bps = speed;
    l->cable_mm = cable_mm;
    l->cable_set = cable_set;
    return 0;
}

static int add_named(struct fabric *f, const char *prefix, int n, enum fabric_role role,
                     struct dcb_err *err)
{
    char name[DCB_DEVICE_MAX];
    snprintf(name, sizeof(name), "%s%d", prefix, n);
    if (fabric_find_device(f, name))
        return dcb_err_set(err, DCB_E_INVAL, "generate: device \"%s\" already exists", name);
    return fabric_add_device(f, name, role, err) ? 0 : DCB_E_NOMEM;
}

static int gen_star(struct fabric *f, const struct fabric_gen *g, struct dcb_err *err)
{
    char host[DCB_DEVICE_MAX], port[DCB_IFNAME_MAX];
    int rc;
    if ((rc = add_named(f, "switch", 1, FABRIC_SWITCH, err)) < 0)
        return rc;
    for (int h = 1; h <= g->hosts; h++) {
        if ((rc = add_named(f, "host", h, FABRIC_HOST, err)) < 0)
            return rc;
        snprintf(host, sizeof(host), "host%d", h);
        snprintf(port, sizeof(port), "Ethernet%d", h - 1);
        if ((rc = link_ends(f, "switch1", port, host, "eth0", g->host_speed_bps, g->host_cable_mm,
                            g->host_cable_set, err)) < 0)
            return rc;
    }
    return 0;
}

/* One leaf (leafN) with its hosts on Ethernet0..H-1; *host counts the hosts made so far. */
static int gen_leaf(struct fabric *f, const struct fabric_gen *g, int leaf, int *host,
                    struct dcb_err *err)
{
    char name[DCB_DEVICE_MAX], hname[DCB_DEVICE_MAX], port[DCB_IFNAME_MAX];
    int rc;
    if ((rc = add_named(f, "leaf", leaf, FABRIC_SWITCH, err)) < 0)
        return rc;
    snprintf(name, sizeof(name), "leaf%d", leaf);
    for (int h = 0; h < g->hosts_per_leaf; h++) {
        if ((rc = add_named(f, "host", ++*host, FABRIC_HOST, err)) < 0)
            return rc;
        snprintf(hname, sizeof(hname), "host%d", *host);
        snprintf(port, sizeof(port), "Ethernet%d", h);
        if ((rc = link_ends(f, name, port, hname, "eth0", g->host_speed_bps, g->host_cable_mm,
                            g->host_cable_set, err)) < 0)
            return rc;
    }
    return 0;
}

/* A switch-to-switch link: aN's port Ethernet(aport) to bM's port Ethernet(bport). */
static int uplink(struct fabric *f, const struct fabric_gen *g, const char *aprefix, int a,
                  int aport, const char *bprefix, int b, int bport, struct dcb_err *err)
{
    char an[DCB_DEVICE_MAX], bn[DCB_DEVICE_MAX], ap[DCB_IFNAME_MAX], bp[DCB_IFNAME_MAX];
    snprintf(an, sizeof(an), "%s%d", aprefix, a);
    snprintf(bn, sizeof(bn), "%s%d", bprefix, b);
    snprintf(ap, sizeof(ap), "Ethernet%d", aport);
    snprintf(bp, sizeof(bp), "Ethernet%d", bport);
    return link_ends(f, an, ap, bn, bp, g->uplink_speed_bps, g->uplink_cable_mm,
                     g->uplink_cable_set, err);
}

static int gen_leaf_spine(struct fabric *f, const struct fabric_gen *g, struct dcb_err *err)
{
    int rc, host = 0;
    for (int s = 1; s <= g->spines; s++)
        if ((rc = add_named(f, "spine", s, FABRIC_SWITCH, err)) < 0)
            return rc;
    for (int l = 1; l <= g->leaves; l++) {
        if ((rc = gen_leaf(f, g, l, &host, err)) < 0)
            return rc;
        for (int s = 1; s <= g->spines; s++)
            if ((rc = uplink(f, g, "leaf", l, g->hosts_per_leaf + s - 1, "spine", s, l - 1, err)) <
                0)
                return rc;
    }
    return 0;
}

static int gen_fat_tree(struct fabric *f, const struct fabric_gen *g, struct dcb_err *err)
{
    int rc, host = 0;
    int per_plane = g->super_spines / g->spines;
    for (int c = 1; c <= g->super_spines; c++)
        if ((rc = add_named(f, "super", c, FABRIC_SWITCH, err)) < 0)
            return rc;
    for (int p = 0; p < g->pods; p++) {
        for (int j = 1; j <= g->spines; j++) {
            int spine = p * g->spines + j;
            if ((rc = add_named(f, "spine", spine, FABRIC_SWITCH, err)) < 0)
                return rc;
            for (int m = 0; m < per_plane; m++)
                if ((rc = uplink(f, g, "spine", spine, g->leaves + m, "super",
                                 (j - 1) * per_plane + m + 1, p, err)) < 0)
                    return rc;
        }
        for (int i = 1; i <= g->leaves; i++) {
            int leaf = p * g->leaves + i;
            if ((rc = gen_leaf(f, g, leaf, &host, err)) < 0)
                return rc;
            for (int j = 1; j <= g->spines; j++)
                if ((rc = uplink(f, g, "leaf", leaf, g->hosts_per_leaf + j - 1, "spine",
                                 p * g->spines + j, i - 1, err)) < 0)
                    return rc;
        }
    }
    return 0;
}

int fabric_generate(struct fabric *f, const struct fabric_gen *g, struct dcb_err *err)
{
    switch (g->type) {
    case GEN_STAR: return gen_star(f, g, err);
    case GEN_LEAF_SPINE: return gen_leaf_spine(f, g, err);
    case GEN_FAT_TREE:
        if (g->spines < 1 || g->super_spines % g->spines)
            return dcb_err_set(err, DCB_E_INVAL,
                               "generate: super_spines (%d) must be a multiple of spines_per_pod "
                               "(%d)",
                               g->super_spines, g->spines);
        return gen_fat_tree(f, g, err);
    }
    return dcb_err_set(err, DCB_E_INVAL, "generate: unknown type");
}
