#ifndef DCB_SAMPLE_JSON_H
#define DCB_SAMPLE_JSON_H

#include <stddef.h>

#include "sample.h"

/* Parses {"ts": ns, "device", "ifname", "metric", "prio", "queue", "value"} into s. prio and
 * queue default to -1. Returns 0, or -1 with a reason in why (e.g. "unknown metric 'x'"). */
int dcb_sample_from_json(const char *line, struct dcb_sample *s, char *why, size_t whylen);

#endif
