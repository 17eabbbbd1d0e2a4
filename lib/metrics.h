/* The canonical metric registry (see metrics.def). Every source produces samples of these
 * metrics and every consumer reads only these. */
#ifndef DCB_METRICS_H
#define DCB_METRICS_H

#include <stdbool.h>
#include <stddef.h>

enum metric_kind { METRIC_COUNTER, METRIC_GAUGE };

enum metric_unit {
    UNIT_BYTES,
    UNIT_PACKETS,
    UNIT_FRAMES,
    UNIT_EVENTS,
    UNIT_MICROSECONDS,
    UNIT_BITS_PER_SECOND, /* Prometheus has no bits: exported as bytes per second */
    UNIT_CODE,            /* a field's value, such as a DSCP or a PCP */
};

/* LABELS_QP: per QP of a port; the QP's number rides in the sample's queue field. */
enum metric_labels { LABELS_NONE, LABELS_PRIO, LABELS_QUEUE, LABELS_QP };

enum metric_id {
#define METRIC(id, name, kind, unit, labels, help) METRIC_##id,
#include "metrics.def"
#undef METRIC
    METRIC_COUNT,
    METRIC_NONE = -1,
};

struct metric_info {
    enum metric_id id;
    const char *name;
    enum metric_kind kind;
    enum metric_unit unit;
    enum metric_labels labels;
    const char *help;
};

const struct metric_info *metric_info(enum metric_id id);
/* By dotted name; METRIC_NONE if unknown. */
enum metric_id metric_lookup(const char *name);
const char *metric_kind_name(enum metric_kind kind);
const char *metric_unit_name(enum metric_unit unit);
const char *metric_labels_name(enum metric_labels labels);

/* Prometheus name in base units: pfc.rx_pause -> dcbkit_pfc_rx_pause_total,
 * pfc.rx_pause_us -> dcbkit_pfc_rx_pause_seconds_total, queue.depth_bytes ->
 * dcbkit_queue_depth_bytes. Returns buf. */
char *metric_prom_name(enum metric_id id, char *buf, size_t len);
/* Factor from the stored unit to the Prometheus base unit (1e-6 for microseconds, 1/8 for
 * bits per second). */
double metric_prom_scale(enum metric_id id);

#endif
