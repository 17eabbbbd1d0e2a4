#include "metrics.h"

#include <stdio.h>
#include <string.h>

static const struct metric_info registry[METRIC_COUNT] = {
#define METRIC(id, name, kind, unit, labels, help) \
    { METRIC_##id, name, METRIC_##kind, UNIT_##unit, LABELS_##labels, help },
#include "metrics.def"
#undef METRIC
};

const struct metric_info *metric_info(enum metric_id id)
{
    if ((int)id < 0 || id >= METRIC_COUNT)
        return NULL;
    return &registry[id];
}

enum metric_id metric_lookup(const char *name)
{
    if (!name)
        return METRIC_NONE;
    for (int i = 0; i < METRIC_COUNT; i++)
        if (strcmp(registry[i].name, name) == 0)
            return (enum metric_id)i;
    return METRIC_NONE;
}

const char *metric_kind_name(enum metric_kind kind)
{
    return kind == METRIC_COUNTER ? "counter" : "gauge";
}

const char *metric_unit_name(enum metric_unit unit)
{
    switch (unit) {
    case UNIT_BYTES: return "bytes";
    case UNIT_PACKETS: return "packets";
    case UNIT_FRAMES: return "frames";
    case UNIT_EVENTS: return "events";
    case UNIT_MICROSECONDS: return "microseconds";
    case UNIT_BITS_PER_SECOND: return "bits/s";
    case UNIT_CODE: return "code";
    }
    return "?";
}

const char *metric_labels_name(enum metric_labels labels)
{
    switch (labels) {
    case LABELS_NONE: return "";
    case LABELS_PRIO: return "prio";
    case LABELS_QUEUE: return "queue";
    case LABELS_QP: return "qp";
    }
    return "?";
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);
    return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

char *metric_prom_name(enum metric_id id, char *buf, size_t len)
{
    const struct metric_info *m = metric_info(id);
    if (!m || len == 0) {
        if (len)
            buf[0] = '\0';
        return buf;
    }
    char base[96];
    snprintf(base, sizeof(base), "%s", m->name);
    for (char *p = base; *p; p++)
        if (*p == '.')
            *p = '_';
    size_t blen = strlen(base);
    const char *unit = "";
    if (m->unit == UNIT_MICROSECONDS) {
        if (ends_with(base, blen, "_us"))
            base[blen - 3] = '\0';
        unit = "_seconds";
    } else if (m->unit == UNIT_BITS_PER_SECOND) {
        if (ends_with(base, blen, "_bps"))
            base[blen - 4] = '\0';
        unit = "_bytes_per_second"; /* promtool: "use base unit bytes instead of bits" */
    } else if (m->unit == UNIT_BYTES && !ends_with(base, blen, "_bytes")) {
        unit = "_bytes";
    }
    snprintf(buf, len, "dcbkit_%s%s%s", base, unit, m->kind == METRIC_COUNTER ? "_total" : "");
    return buf;
}

double metric_prom_scale(enum metric_id id)
{
    const struct metric_info *m = metric_info(id);
    if (m && m->unit == UNIT_MICROSECONDS)
        return 1e-6;
    return m && m->unit == UNIT_BITS_PER_SECOND ? 0.125 : 1.0;
}
