#ifndef DCB_SAMPLE_JSON_H
#define DCB_SAMPLE_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "sample.h"

/* Parses {"ts": ns, "device", "ifname", "metric", "prio", "queue", "value"} into s. prio and
 * queue default to -1. Returns 0, or -1 with a reason in why (e.g. "unknown metric 'x'"). */
int dcb_sample_from_json(const char *line, struct dcb_sample *s, char *why, size_t whylen);

/* {"ts", "kind", "device", "ifname", "prio", "details": {...}}: an event (prio default -1,
 * details default {}). */
int dcb_event_from_json(const char *line, struct dcb_event *e, char *why, size_t whylen);

/* {"ts", "device", "ifname", "source", "config": {...}}: a config snapshot as the store keeps it
 * (the config object is kept as its JSON text; free json). */
struct dcb_config_line {
    int64_t ts;
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX], source[64];
    char *json;
};
int dcb_config_from_json(const char *line, struct dcb_config_line *c, char *why, size_t whylen);

#endif
