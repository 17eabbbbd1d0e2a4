/* How far each device sits from the hosts over the links the evidence knows (hosts 0, leaves 1:
 * cabled to a host, whether or not the host is in the evidence; spines 2, ...): a switch port whose
 * link partner sits farther from the hosts is an uplink, and a switch's uplinks are its ECMP
 * members. Built once per rules run, on first use. */
#ifndef DCB_TIERS_H
#define DCB_TIERS_H

#include <stdbool.h>
#include <stddef.h>

#include "evidence.h"

struct eval_port;

struct tier_map {
    bool built, nomem;
    size_t ndev;
    const char **dev; /* each device's name, in the port list's (sorted) order */
    int *tier;        /* -1: no path to a host is known */
};

/* The device's tier, or -1 when unknown. ports: every port of the evidence, sorted by device. */
int tier_of(struct tier_map *t, const struct evidence *ev, const struct eval_port *ports,
            size_t nports, const char *device);
void tier_map_free(struct tier_map *t);

#endif
