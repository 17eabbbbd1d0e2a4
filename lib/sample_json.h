#ifndef DCB_SAMPLE_JSON_H
#define DCB_SAMPLE_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "sample.h"

/* Parses {"ts": ns, "device", "ifname", "metric", "prio", "queue", "value"} into s. prio and
 * queue default to -1. Returns 0, or -1 with a reason in why (e.g. "unknown metric 'x'"). */
int dcb_sample_from_json(const char *line, struct dcb_sample *s, char *why, size_t whylen);

/* {"ts", "kind", "device", "ifname", "prio", "details": {...}}: an event (prio default -1,
 * details default {}). "event", the streams' name for kind before their schema 2, is read when
 * kind is absent. */
int dcb_event_from_json(const char *line, struct dcb_event *e, char *why, size_t whylen);

/* {"ts", "device", "ifname", "source", "config": {...}}: a config snapshot as the store keeps it
 * (the config object is kept as its JSON text; free json). */
struct dcb_config_line {
    int64_t ts;
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX], source[64];
    char *json;
};
/* "source" may be written "config_source", as collect -T json prints it. */
int dcb_config_from_json(const char *line, struct dcb_config_line *c, char *why, size_t whylen);

/* What a line that `store import` reads holds, by its top-level keys: an event ("kind" or
 * "event"), a config snapshot (a "config" object), a counter collect printed raw ("metric":
 * null: no canonical metric, so nothing a store keeps), or else a sample (and not JSON at all
 * is left to the sample parser to say). Keys inside an event's details do not count. */
enum dcb_json_line { DCB_LINE_SAMPLE, DCB_LINE_EVENT, DCB_LINE_CONFIG, DCB_LINE_RAW_COUNTER };
enum dcb_json_line dcb_json_line_kind(const char *line);

#endif
