/* Where rules get their data: an evidence source answers for one port (device, interface) at a
 * time. The store answers from samples, events and config snapshots; a fabric file answers with
 * its intended config only (metrics and events are unknown there). */
#ifndef DCB_EVIDENCE_H
#define DCB_EVIDENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "err.h"
#include "metrics.h"
#include "qos_config.h"
#include "sample.h"

/* AGG_BUSY_RATE: the per-second rate over the sample intervals in which the counter moved
 * (what a link carries while it carries anything); unknown when it never moved. */
enum evidence_agg { AGG_RATE, AGG_DELTA, AGG_AVG, AGG_MAX, AGG_MIN, AGG_LAST, AGG_BUSY_RATE };

typedef void (*evidence_port_fn)(void *arg, const char *device, const char *ifname);
typedef void (*evidence_qp_fn)(void *arg, int qp);

struct evidence_ops {
    /* Calls fn for every port it knows, in a stable order. */
    int (*each_port)(void *ctx, evidence_port_fn fn, void *arg, struct dcb_err *err);
    /* Calls fn for every QP the port has per-QP series of (metrics with the qp label), in
     * ascending order. NULL: the source knows no QPs. */
    void (*each_qp)(void *ctx, const char *device, const char *ifname, evidence_qp_fn fn,
                    void *arg);
    /* The port's config and its link partner's; NULL when unknown. */
    const struct qos_config *(*config)(void *ctx, const char *device, const char *ifname);
    const struct qos_config *(*peer_config)(void *ctx, const char *device, const char *ifname);
    /* Whether the port's link partner is a port of this evidence with its own config, so that
     * a check of the link also runs at the partner's end. NULL: never. */
    bool (*peer_judged)(void *ctx, const char *device, const char *ifname);
    /* The port's link partner as "device:ifname": as LLDP on the port names it (observed true),
     * or as the fabric file or a replay cables it; NULL when unknown. */
    const char *(*peer_port)(void *ctx, const char *device, const char *ifname, bool observed);
    /* How many of the names the device goes by another device claims too (rules/identity.h),
     * the first as "ALIAS (also OTHER)" in *first. NULL: the source keeps no names. */
    size_t (*alias_conflicts)(void *ctx, const char *device, const char **first);
    /* "host", "switch" or NULL. */
    const char *(*role)(void *ctx, const char *device);
    /* The role of the port's link partner's device: "host", "switch" or NULL when unknown. */
    const char *(*peer_role)(void *ctx, const char *device, const char *ifname);
    /* The metric's aggregate over [t0, t1] on the port (prio/queue -1 when they do not apply):
     * 1 with *out set, 0 when unknown, or a negative error. NULL when the source has none. */
    int (*metric)(void *ctx, const char *device, const char *ifname, enum metric_id m, int prio,
                  int queue, enum evidence_agg agg, int64_t t0, int64_t t1, double *out,
                  struct dcb_err *err);
    /* Whether the device said it does not serve the path that gives name (a canonical metric
     * or config field): a gNMI target that rejected the path. NULL when the source cannot say. */
    bool (*unserved)(void *ctx, const char *device, const char *name);
    /* Events of kind in [t0, t1]; device/ifname NULL match any, prio -1 any. 1 with *out set, 0
     * when the source keeps no events, or a negative error. NULL when the source has none. */
    int (*event_count)(void *ctx, const char *device, const char *ifname, enum dcb_event_kind kind,
                       int prio, int64_t t0, int64_t t1, uint64_t *out, struct dcb_err *err);
    /* The time of the first event of kind in [t0, t1], matched as event_count does: 1 with *ts
     * set, 0 when there is none (or the source keeps no events), or a negative error. NULL when
     * the source has none. */
    int (*first_event)(void *ctx, const char *device, const char *ifname, enum dcb_event_kind kind,
                       int prio, int64_t t0, int64_t t1, int64_t *ts, struct dcb_err *err);
};

struct evidence {
    const struct evidence_ops *ops;
    void *ctx;
};

const char *evidence_agg_name(enum evidence_agg a);

#endif
