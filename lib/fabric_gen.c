/* Standard topologies, expanded into explicit devices and links:
 *   star:       switch1 with Ethernet0..N-1 to host1..hostN (eth0)
 *   leaf-spine: leafL ports Ethernet0..H-1 to its hosts, EthernetH.. to spine1..S;
 *               spineS port Ethernet(L-1) to leafL; hosts host1.. numbered across leaves. */
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

int fabric_generate(struct fabric *f, const struct fabric_gen *g, struct dcb_err *err)
{
    char a[DCB_DEVICE_MAX], b[DCB_DEVICE_MAX], port[DCB_IFNAME_MAX];
    int rc;
    if (g->type == GEN_STAR) {
        if ((rc = add_named(f, "switch", 1, FABRIC_SWITCH, err)) < 0)
            return rc;
        for (int h = 1; h <= g->hosts; h++) {
            if ((rc = add_named(f, "host", h, FABRIC_HOST, err)) < 0)
                return rc;
            snprintf(b, sizeof(b), "host%d", h);
            snprintf(port, sizeof(port), "Ethernet%d", h - 1);
            if ((rc = link_ends(f, "switch1", port, b, "eth0", g->host_speed_bps, g->host_cable_mm,
                                g->host_cable_set, err)) < 0)
                return rc;
        }
        return 0;
    }
    for (int s = 1; s <= g->spines; s++)
        if ((rc = add_named(f, "spine", s, FABRIC_SWITCH, err)) < 0)
            return rc;
    int host = 0;
    for (int l = 1; l <= g->leaves; l++) {
        if ((rc = add_named(f, "leaf", l, FABRIC_SWITCH, err)) < 0)
            return rc;
        snprintf(a, sizeof(a), "leaf%d", l);
        for (int h = 0; h < g->hosts_per_leaf; h++) {
            if ((rc = add_named(f, "host", ++host, FABRIC_HOST, err)) < 0)
                return rc;
            snprintf(b, sizeof(b), "host%d", host);
            snprintf(port, sizeof(port), "Ethernet%d", h);
            if ((rc = link_ends(f, a, port, b, "eth0", g->host_speed_bps, g->host_cable_mm,
                                g->host_cable_set, err)) < 0)
                return rc;
        }
        for (int s = 1; s <= g->spines; s++) {
            char spine_port[DCB_IFNAME_MAX];
            snprintf(b, sizeof(b), "spine%d", s);
            snprintf(port, sizeof(port), "Ethernet%d", g->hosts_per_leaf + s - 1);
            snprintf(spine_port, sizeof(spine_port), "Ethernet%d", l - 1);
            if ((rc = link_ends(f, a, port, b, spine_port, g->uplink_speed_bps, g->uplink_cable_mm,
                                g->uplink_cable_set, err)) < 0)
                return rc;
        }
    }
    return 0;
}
