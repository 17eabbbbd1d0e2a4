/* One line of JSON Lines as `dcbkit store import` takes it: a sample (as `store export --jsonl`
 * writes it), an event or a config snapshot (as `dcbkit collect -T json` writes them). A
 * neighbour's config ({"config_source":"lldp", "seen_on":"device:ifname"}) is kept under the
 * port it was seen on with the source "peer:lldp", as collect stores it. Collect's raw counters
 * (no canonical metric) are skipped. */
#ifndef DCB_RECORD_JSON_H
#define DCB_RECORD_JSON_H

#include <stddef.h>

#include "sample.h"

enum dcb_record_kind { RECORD_SAMPLE, RECORD_EVENT, RECORD_CONFIG, RECORD_SKIP };

struct dcb_record {
    enum dcb_record_kind kind;
    struct dcb_sample sample;
    struct dcb_event event;
    /* RECORD_CONFIG */
    int64_t time_ns;
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX], source[64];
    char *json;                  /* the config, compact; the caller frees it */
};

/* 0, or -1 with a reason in why. */
int dcb_record_from_json(const char *line, struct dcb_record *r, char *why, size_t whylen);

#endif
