/* The event store: one API, two back ends.
 *
 *  - SQLite (store_open_sqlite): the history. WAL mode, prepared statements, samples batched into
 *    transactions that flush by count or by age, whichever comes first (the age is checked when
 *    samples are put, so a writer that goes quiet calls store_flush() itself; collect does every
 *    interval). A batch survives a
 *    process crash once store_flush() (or a put that triggered a flush) returned success.
 *  - The ring (store_open_ring): a bounded in-memory store for live views; nothing touches disk.
 *
 * Readers see only committed data, and each read is one consistent snapshot. Series are
 * identified by (device, ifname, metric, prio, queue); prio/queue are -1 where they do not apply.
 * Counter values are kept as raw readings, and each counter series' width (store_set_series_width);
 * rate() and delta() use lib/counter.h at that width, so wraps and resets inside a window are
 * handled as everywhere else. */
#ifndef DCB_STORE_H
#define DCB_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "sample.h"

#define STORE_ANY (-2) /* filter value for prio/queue: match any */
#define STORE_SCHEMA_VERSION 4

struct dcb_store;

struct store_options {
    const char *path;         /* file path or ":memory:" */
    bool readonly;            /* open for reading only; never creates */
    bool durable;             /* synchronous=FULL: fsync every commit */
    size_t batch_max_samples; /* flush when this many are pending (0: 50000) */
    int64_t batch_max_age_ns; /* flush when the oldest pending is this old (0: 1 s) */
    /* The recent tier (see store_schema.c) is merged into the main sample table, in the same
     * transaction as a flush, once its samples span merge_age_ns (0: 60 s) or it holds
     * merge_max_rows (0: 4,000,000); always on close. */
    int64_t merge_age_ns;
    size_t merge_max_rows;
};

/* What to read. NULL strings and STORE_ANY indices match anything; t0/t1 bound time
 * (inclusive; 0 and INT64_MAX for no bound). */
struct store_filter {
    const char *device;
    const char *ifname;
    const char *metric;
    int prio;
    int queue;
    int64_t t0;
    int64_t t1;
};

void store_filter_init(struct store_filter *f);

struct store_info {
    uint64_t series;
    uint64_t samples;
    uint64_t events;
    uint64_t config_snapshots;
    uint64_t findings;
    uint64_t runs;
    int64_t first_ns; /* 0 when empty */
    int64_t last_ns;
    uint64_t size_bytes; /* database file (+WAL) size; ring: memory in use */
    int schema_version;
    const char *backend; /* "sqlite" or "ring" */
};

/* A config snapshot or a finding as stored: the key columns plus the JSON document. */
struct store_config_row {
    int64_t time_ns;
    const char *device;
    const char *ifname;
    const char *source; /* "dcbx", "dcbnl", "gnmi", "fabric" ... */
    const char *json;
};

struct store_finding_row {
    int64_t run_id;
    int64_t time_ns;
    const char *rule;
    const char *severity;
    const char *device;
    const char *ifname;
    int prio;
    const char *json;
};

typedef int (*store_sample_cb)(const struct dcb_sample *s, void *arg);
typedef int (*store_event_cb)(const struct dcb_event *e, void *arg);
typedef int (*store_finding_cb)(const struct store_finding_row *f, void *arg);
typedef int (*store_config_cb)(const struct store_config_row *c, void *arg);

int store_open_sqlite(struct dcb_store **out, const struct store_options *opt, struct dcb_err *err);
/* capacity: samples kept (the oldest are overwritten); events likewise. */
int store_open_ring(struct dcb_store **out, size_t sample_capacity, size_t event_capacity,
                    struct dcb_err *err);
/* Flushes what is pending and, when this handle wrote samples, merges the SQLite store's recent
 * tier (seconds at fabric scale); returns its error (the store is closed either way). */
int store_close(struct dcb_store *st, struct dcb_err *err);

/* Writes. Samples and events are queued and committed in batches; config, runs and findings are
 * written at once. */
int store_put_sample(struct dcb_store *st, const struct dcb_sample *s, struct dcb_err *err);
int store_put_event(struct dcb_store *st, const struct dcb_event *e, struct dcb_err *err);
/* Commits everything pending. Returns the number of samples committed, or a negative error. */
int64_t store_flush(struct dcb_store *st, struct dcb_err *err);
int64_t store_pending(const struct dcb_store *st);
int store_put_config(struct dcb_store *st, const struct store_config_row *c, struct dcb_err *err);
int store_begin_run(struct dcb_store *st, const char *command, const char *source, int64_t time_ns,
                    int64_t *run_id, struct dcb_err *err);
int store_end_run(struct dcb_store *st, int64_t run_id, int64_t time_ns, struct dcb_err *err);
int store_put_finding(struct dcb_store *st, const struct store_finding_row *f, struct dcb_err *err);

/* Reads. A callback returning non-zero stops the walk and that value is returned. */
int store_latest(struct dcb_store *st, const struct store_filter *f, store_sample_cb cb, void *arg,
                 struct dcb_err *err);
/* Samples of every matching series with t0 <= time <= t1, in (series, time) order. */
int store_range(struct dcb_store *st, const struct store_filter *f, store_sample_cb cb, void *arg,
                struct dcb_err *err);
/* One series' samples as store_range_runs hands them out: its key (a sample with no value), the
 * counter's width as store_series_width says it, and its readings in time order (a gauge's value
 * as its bits), which are out's [start, start + n) when the caller keeps them. */
struct store_run {
    const struct dcb_sample *key;
    unsigned bits;
    const int64_t *ts;
    const uint64_t *raw;
    size_t start, n;
};
typedef int (*store_run_cb)(const struct store_run *run, void *arg);
/* Every run of a walk, series after series: arrays the caller then owns (free()). */
struct store_samples {
    int64_t *ts;
    uint64_t *raw;
    size_t n;
};
/* store_range a series at a time, for bulk readers (no strings per sample); only where
 * store_has_range_runs says the back end offers it. out: NULL, or where the walk's arrays are
 * handed over when it returns 0 (no copy for a reader that keeps them all). */
bool store_has_range_runs(const struct dcb_store *st);
int store_range_runs(struct dcb_store *st, const struct store_filter *f, store_run_cb cb, void *arg,
                     struct store_samples *out, struct dcb_err *err);
int store_events(struct dcb_store *st, const struct store_filter *f, const char *kind,
                 store_event_cb cb, void *arg, struct dcb_err *err);
int store_findings(struct dcb_store *st, int64_t run_id, store_finding_cb cb, void *arg,
                   struct dcb_err *err);
/* The newest run of command with this source that started before before_ns (e.g. the previous
 * nightly report of a fabric): 1 with *run_id and *started_ns set, 0 when there is none, or a
 * negative error. */
int store_last_run(struct dcb_store *st, const char *command, const char *source, int64_t before_ns,
                   int64_t *run_id, int64_t *started_ns, struct dcb_err *err);
/* The newest config snapshot of each (device, ifname, source) taken at or before t1, in
 * (device, ifname, source) order; device/ifname NULL match any. The ring keeps only the newest
 * snapshot of each, whatever t1. */
int store_configs(struct dcb_store *st, const char *device, const char *ifname, int64_t t1,
                  store_config_cb cb, void *arg, struct dcb_err *err);
int store_info(struct dcb_store *st, struct store_info *info, struct dcb_err *err);

/* Many reads as one snapshot, until store_snapshot_end: what a writer commits meanwhile is not
 * seen, and the reads share one lock instead of taking one each (a diagnosis makes thousands).
 * No write may come in between. A no-op for the ring. */
int store_snapshot_begin(struct dcb_store *st, struct dcb_err *err);
void store_snapshot_end(struct dcb_store *st);
/* Deletes samples and events older than cutoff_ns. Returns rows deleted or a negative error. */
int64_t store_prune(struct dcb_store *st, int64_t cutoff_ns, struct dcb_err *err);

/* A counter series' width in bits (32 for mlx5 Q-counters), which tells a wrap from a reset to
 * every reader: the series is s's key (its time and value are not used), bits 1..64 (0: 64).
 * Set once, it stays with the series (SQLite: written with the next flush, the series row
 * created if it has none yet); setting the width it already has costs a hash lookup. */
int store_set_series_width(struct dcb_store *st, const struct dcb_sample *s, unsigned bits,
                           struct dcb_err *err);
/* The width a series was given, 64 when never said (or no such series, or a store from before
 * widths were kept). */
unsigned store_series_width(struct dcb_store *st, const char *device, const char *ifname,
                            enum metric_id metric, int prio, int queue);

/* The increase of one counter series over [t0, t1] (wraps and resets handled as in
 * lib/counter.h: an interval with a reset adds nothing), and the per-second rate over the time
 * of the intervals without one (no rate spans a reset). width_bits: the counter's width, 0 for
 * the series' own (store_series_width). The filter must match exactly
 * one series. NaN when fewer than two samples fall in the window. */
int store_delta(struct dcb_store *st, const struct store_filter *f, unsigned width_bits,
                double *delta, double *rate_per_sec, uint64_t *resets, struct dcb_err *err);

/* BUSY_RATE: a counter's increase over the time of the sample intervals that had one (the rate
 * while it moved); too few samples when it never moved. */
enum store_agg {
    STORE_AGG_DELTA,
    STORE_AGG_RATE,
    STORE_AGG_AVG,
    STORE_AGG_MAX,
    STORE_AGG_MIN,
    STORE_AGG_LAST,
    STORE_AGG_BUSY_RATE
};

/* One series' aggregate over [t0, t1]: the filter names it exactly (device, ifname, metric,
 * prio, queue). Counters' delta and rate count increases at the series' width (counter_step): a
 * decrease the width explains is a wrap, any other a reset whose interval counts neither its
 * increase nor its time (as store_delta does). 1 with *out set, 0 when the window holds too
 * few samples (none; one for delta and rate) or no such series, or a negative error. The back ends
 * answer it without handing out every sample: SQLite in SQL, the ring along its per-series chain.
 */
int store_aggregate(struct dcb_store *st, const struct store_filter *f, enum store_agg agg,
                    double *out, struct dcb_err *err);

/* $XDG_DATA_HOME/dcbkit/dcbkit.db, or ~/.local/share/dcbkit/dcbkit.db; creates the folder. */
int store_default_path(char *buf, size_t len, struct dcb_err *err);

#endif
