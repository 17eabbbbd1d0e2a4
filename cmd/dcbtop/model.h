/* dcbtop's data model: what the source gave, kept in an in-memory ring store (the rules read it
 * there, as diagnose reads its evidence), plus per interface the rate of every counter series
 * over the refresh interval (lib/counter.h deltas, so wraps and resets are handled as in
 * `dcbkit collect`), the columns of the main view, their last 60 values, the interface's QoS
 * config and its link partner's, and the findings of the last rules run. */
#ifndef DCBTOP_MODEL_H
#define DCBTOP_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "counter.h"
#include "qos_config.h"
#include "rules.h"
#include "source.h"
#include "store.h"

#define TOP_HIST 60
#define TOP_SLOTS 9            /* priority (or queue) 0..7, and slot 8 for "none" */
#define TOP_PRIO_LOSSLESS (-1) /* the priority choice "the lossless set" */

enum top_col {
    COL_RX,
    COL_TX,
    COL_PFC_RX,
    COL_PFC_TX,
    COL_PAUSED,
    COL_ECN,
    COL_CNP_SENT,
    COL_CNP_HANDLED,
    COL_OOS,
    COL_DROPS,
    TOP_NCOLS
};

enum top_col_unit { UNIT_BPS, UNIT_PER_S, UNIT_PCT };

struct top_col_info {
    const char *title; /* screen heading */
    const char *key;   /* JSON key */
    enum top_col_unit unit;
    const char *help;
};

extern const struct top_col_info top_cols[TOP_NCOLS];

/* A column's value: known, waiting for a second sample ("…", null), or not provided by the
 * source at all ("-", null). */
enum top_val_state { VAL_ABSENT, VAL_PENDING, VAL_KNOWN };

struct top_val {
    double v;
    enum top_val_state state;
};

/* One counter series of an interface. Its rate is taken over the rate window (the refresh
 * interval, in the data's time): from the newest reading back to the newest earlier one at least
 * three quarters of a window old, of the two kept. A source that gives readings more often than
 * that (the replay's two rounds a refresh) thus still shows rates over the whole interval, and
 * one that gives them once a refresh shows them between consecutive readings. */
struct top_series {
    struct counter_state st;
    uint64_t total;                    /* the increase since the first reading (modulo
                                        * 2^64: only differences count) */
    int64_t newest_ns, prev_ns;        /* readings a later one can be taken from; */
    uint64_t newest_total, prev_total; /* prev_ns 0: none */
    double rate;                       /* per second; NaN until a base, or after a
                                        * reset */
};

struct top_iface {
    char device[DCB_DEVICE_MAX];
    char ifname[DCB_IFNAME_MAX];
    struct top_series *series[METRIC_COUNT][TOP_SLOTS]; /* NULL: never seen */
    bool has_series;      /* some counter came: a row of the main view */
    double speed_bps;     /* NaN: unknown */
    int64_t cur_ns;       /* time of the readings being taken in */
    int64_t settled_ns;   /* time the columns stand at */
    int64_t recv_wall_ns; /* wall time of the tick its last reading came */
    int64_t stale_ns;     /* >0: a polled device gave no reading for this
                           * long (an outage): no rate is shown */
    struct top_val col[TOP_NCOLS];
    float hist[TOP_NCOLS][TOP_HIST]; /* NaN where unknown */
    unsigned hist_n, hist_pos;
    int severity; /* worst active finding, -1 none */
    bool expanded;
    struct qos_config *config, *peer; /* NULL: unknown */
    char config_source[64];
    char peer_name[DCB_DEVICE_MAX], peer_port[DCB_IFNAME_MAX], peer_via[32];
};

struct top_model {
    struct dcb_store *ring;
    struct top_iface **ifaces;
    size_t n, cap;
    size_t last_hit;
    int prio;               /* 0..7 or TOP_PRIO_LOSSLESS */
    int64_t data_ns;        /* the time the data stands at */
    int64_t wall_ns;        /* wall time of the tick under way */
    int64_t rate_window_ns; /* rates span at least 3/4 of this (0: any) */
    uint64_t samples, events;
    /* findings */
    struct rule_set rules;
    bool rules_loaded;
    const char *profile; /* --profile, NULL: every rule */
    char rules_error[300];
    struct finding *findings;
    size_t nfindings, findings_cap;
    int64_t findings_ns; /* data time of the last run, 0: never */
    bool dirty;          /* a reset since the last run */
};

int model_init(struct top_model *m, struct dcb_err *err);
void model_free(struct top_model *m);
/* The sink a source writes to. */
struct dcb_sink model_sink(struct top_model *m);
/* Ends the readings taken in: each interface's columns and history move to its newest time. */
void model_settle(struct top_model *m);
/* After a tick at wall_ns of a source that polls devices (--local, --gnmi): an interface that had
 * no reading for more than two intervals and a second is stale (its device is out of reach): its
 * rates become unknown, never the last ones shown as live, until readings come again. */
void model_mark_stale(struct top_model *m, int64_t wall_ns, int64_t interval_ns);
/* Recomputes the columns for another priority choice (history stays as it was taken). */
void model_set_prio(struct top_model *m, int prio);
/* The priorities the columns cover for this interface (bit mask). */
unsigned model_prio_mask(const struct top_model *m, const struct top_iface *i);
/* A series' rate per second: NaN when unknown (never seen, or waiting for a base). */
double model_rate(const struct top_iface *i, enum metric_id m, int slot);
/* Columns for one priority of an interface (the expanded rows, the detail view). */
void model_prio_cols(const struct top_iface *i, int prio, struct top_val out[TOP_NCOLS]);
/* Whether any series of the interface is per this priority (or queue). */
bool model_prio_has_data(const struct top_iface *i, int prio);
/* Loads the rule catalog ($DCBKIT_RULES or the installed one) and the *.rules of each of dirs
 * (--rules, as for diagnose); a failure is kept in rules_error and the findings pane says it.
 * profile: --profile (NULL: every rule). */
void model_load_rules(struct top_model *m, const char *const *dirs, int ndirs, const char *profile);
/* Runs the rules over the ring at the data time. 0 or a negative error. */
int model_run_rules(struct top_model *m, struct dcb_err *err);

#endif
