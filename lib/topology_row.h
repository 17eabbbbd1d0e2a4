/* The store's "topology" config row of a port: where it sits, as a fabric file, a replay or LLDP
 * knows it. {"role": "switch", "peer": {"device", "ifname", "role"}, "via": "lldp"}; any part
 * may be absent. The rules follow "peer" to the partner port's records (rules/evidence_store.c). */
#ifndef DCB_TOPOLOGY_ROW_H
#define DCB_TOPOLOGY_ROW_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* The row's JSON (malloc'd; NULL when out of memory). role, peer_role and via may be NULL;
 * peer_device NULL: no partner. */
char *topology_row_json(const char *role, const char *peer_device, const char *peer_ifname,
                        const char *peer_role, const char *via);

/* An "alias:BY" row's JSON: {"names": [...]}, the other names a device goes by (NULL entries and
 * empty ones left out); NULL when none is left or out of memory. */
char *alias_row_json(const char *const *names, size_t n);

/* What an LLDP neighbour on device:ifname means for the store: a "topology:lldp" row naming the
 * partner (peer: its system name, else its chassis ID) and its port, and an "alias:lldp" row
 * when its chassis ID is another name than peer. Each row goes to put. */
void lldp_neighbor_rows(int64_t time_ns, const char *device, const char *ifname, const char *peer,
                        const char *peer_port, const char *chassis,
                        void (*put)(void *arg, const struct store_config_row *row), void *arg);

#endif
