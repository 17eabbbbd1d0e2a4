/* The canonical sample and event: what every source produces and every consumer reads.
 * Strings are held inline so that samples can be copied into rings and queues freely. */
#ifndef DCB_SAMPLE_H
#define DCB_SAMPLE_H

#include <stdint.h>

#include "metrics.h"

#define DCB_DEVICE_MAX 64
#define DCB_IFNAME_MAX 48
#define DCB_DETAILS_MAX 512
#define DCB_NO_INDEX (-1) /* prio or queue that does not apply */

struct dcb_sample {
    int64_t time_ns; /* Unix time, nanoseconds */
    char device[DCB_DEVICE_MAX];
    char ifname[DCB_IFNAME_MAX];
    enum metric_id metric;
    int16_t prio;  /* 0..7 or DCB_NO_INDEX */
    int16_t queue; /* 0..N or DCB_NO_INDEX; a per-QP metric's QP */
    /* counters hold the raw monotonic reading; gauges a measured value */
    union {
        uint64_t counter;
        double gauge;
    } value;
};

#define DCB_EVENT_KINDS(X)            \
    X(PFC_XOFF, "pfc_xoff")           \
    X(PFC_XON, "pfc_xon")             \
    X(PAUSE_STORM, "pause_storm")     \
    X(PAUSE_GLOBAL, "pause_global")   \
    X(CNP, "cnp")                     \
    X(CE_MARK, "ce_mark")             \
    X(PSN_GAP, "psn_gap")             \
    X(NAK, "nak")                     \
    X(RNR_NAK, "rnr_nak")             \
    X(RETRANSMIT, "retransmit")       \
    X(DROP, "drop")                   \
    X(DCBX_SEEN, "dcbx_seen")         \
    X(DCBX_MISMATCH, "dcbx_mismatch") \
    X(WATCHDOG, "watchdog")           \
    X(COUNTER_RESET, "counter_reset") \
    X(SOURCE_GAP, "source_gap")       \
    X(FINDING, "finding")

enum dcb_event_kind {
#define DCB_EVENT_ENUM(id, name) EVENT_##id,
    DCB_EVENT_KINDS(DCB_EVENT_ENUM)
#undef DCB_EVENT_ENUM
        EVENT_KIND_COUNT,
    EVENT_KIND_NONE = -1,
};

struct dcb_event {
    int64_t time_ns;
    enum dcb_event_kind kind;
    char device[DCB_DEVICE_MAX];
    char ifname[DCB_IFNAME_MAX];
    int16_t prio;
    char details[DCB_DETAILS_MAX]; /* a JSON object, "{}" when there is nothing to add */
};

const char *dcb_event_kind_name(enum dcb_event_kind kind);
enum dcb_event_kind dcb_event_kind_lookup(const char *name);

/* Fill the identity part; strings are truncated to fit. */
void dcb_sample_set(struct dcb_sample *s, int64_t time_ns, const char *device, const char *ifname,
                    enum metric_id metric, int prio, int queue);
void dcb_event_set(struct dcb_event *e, int64_t time_ns, enum dcb_event_kind kind,
                   const char *device, const char *ifname, int prio, const char *details_json);

#endif
