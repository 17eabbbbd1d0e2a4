/* The store's "topology" config row of a port: where it sits, as a fabric file, a replay or LLDP
 * knows it. {"role": "switch", "peer": {"device", "ifname", "role"}, "via": "lldp"}; any part
 * may be absent. The rules follow "peer" to the partner port's records (rules/evidence_store.c). */
#ifndef DCB_TOPOLOGY_ROW_H
#define DCB_TOPOLOGY_ROW_H

#include <stddef.h>

/* The row's JSON (malloc'd; NULL when out of memory). role, peer_role and via may be NULL;
 * peer_device NULL: no partner. */
char *topology_row_json(const char *role, const char *peer_device, const char *peer_ifname,
                        const char *peer_role, const char *via);

/* An "alias:BY" row's JSON: {"names": [...]}, the other names a device goes by (NULL entries and
 * empty ones left out); NULL when none is left or out of memory. */
char *alias_row_json(const char *const *names, size_t n);

#endif
