/* QoS config <-> JSON. The JSON nests the dotted paths:
 *   {"trust": "dscp", "dscp2prio": {"26": 3}, "pfc": {"enabled": 8},
 *    "switch": {"wred": {"3": {"min_bytes": 150000, "ecn": true}}},
 *    "nic": {"dcqcn": {"rai_mbps": 5}}, "app": [{"selector": 5, "protocol": 26, "prio": 3}]}
 * Indexed tables may also be arrays ("prio2tc": [0,0,0,3,0,0,0,0]; null = unknown). Numbers are
 * in the unit the path names (bytes, ms, Mb/s, bps, metres); strings take units ("150KB").
 * Only known fields are written: unknown stays unknown through save and load. */
#ifndef DCB_QOS_JSON_H
#define DCB_QOS_JSON_H

#include <cjson/cJSON.h>

#include "qos_config.h"

/* Sets every field obj names; errors name prefix + path ("devices[2].config.pfc.enabled: ..."). */
int qos_from_json(struct qos_config *c, const cJSON *obj, const char *prefix, struct dcb_err *err);
/* A new object with every known field; NULL when out of memory. */
cJSON *qos_to_json(const struct qos_config *c);

#endif
