/* The store's front: dispatch to the back end, and what both share (delta/rate, paths). */
#include "store_impl.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "counter.h"

void store_filter_init(struct store_filter *f)
{
    memset(f, 0, sizeof(*f));
    f->prio = STORE_ANY;
    f->queue = STORE_ANY;
    f->t0 = INT64_MIN;
    f->t1 = INT64_MAX;
}

static int unsupported(const char *what, struct dcb_err *err)
{
    return dcb_err_set(err, DCB_E_UNSUPP, "%s is not kept by this store", what);
}

int store_close(struct dcb_store *st, struct dcb_err *err)
{
    return st ? st->ops->close(st, err) : 0;
}

int store_put_sample(struct dcb_store *st, const struct dcb_sample *s, struct dcb_err *err)
{
    if ((int)s->metric < 0 || s->metric >= METRIC_COUNT)
        return dcb_err_set(err, DCB_E_INVAL, "sample with an unknown metric id %d", s->metric);
    return st->ops->put_sample(st, s, err);
}

int store_put_event(struct dcb_store *st, const struct dcb_event *e, struct dcb_err *err)
{
    return st->ops->put_event(st, e, err);
}

int64_t store_flush(struct dcb_store *st, struct dcb_err *err)
{
    return st->ops->flush(st, err);
}

int64_t store_pending(const struct dcb_store *st)
{
    return st->ops->pending(st);
}

int store_put_config(struct dcb_store *st, const struct store_config_row *c, struct dcb_err *err)
{
    return st->ops->put_config ? st->ops->put_config(st, c, err) : unsupported("config", err);
}

int store_begin_run(struct dcb_store *st, const char *command, const char *source, int64_t time_ns,
                    int64_t *run_id, struct dcb_err *err)
{
    if (!st->ops->begin_run) {
        *run_id = 0;
        return 0;
    }
    return st->ops->begin_run(st, command, source, time_ns, run_id, err);
}

int store_end_run(struct dcb_store *st, int64_t run_id, int64_t time_ns, struct dcb_err *err)
{
    return st->ops->end_run ? st->ops->end_run(st, run_id, time_ns, err) : 0;
}

int store_put_finding(struct dcb_store *st, const struct store_finding_row *f, struct dcb_err *err)
{
    return st->ops->put_finding ? st->ops->put_finding(st, f, err) : unsupported("findings", err);
}

int store_latest(struct dcb_store *st, const struct store_filter *f, store_sample_cb cb, void *arg,
                 struct dcb_err *err)
{
    return st->ops->latest(st, f, cb, arg, err);
}

int store_range(struct dcb_store *st, const struct store_filter *f, store_sample_cb cb, void *arg,
                struct dcb_err *err)
{
    return st->ops->range(st, f, cb, arg, err);
}

bool store_has_range_runs(const struct dcb_store *st)
{
    return st->ops->range_runs != NULL;
}

int store_range_runs(struct dcb_store *st, const struct store_filter *f, store_run_cb cb, void *arg,
                     struct store_samples *out, struct dcb_err *err)
{
    if (out)
        *out = (struct store_samples){ 0 };
    return st->ops->range_runs ? st->ops->range_runs(st, f, cb, arg, out, err)
                               : unsupported("reading a series at a time", err);
}

int store_events(struct dcb_store *st, const struct store_filter *f, const char *kind,
                 store_event_cb cb, void *arg, struct dcb_err *err)
{
    return st->ops->events(st, f, kind, cb, arg, err);
}

int store_aggregate(struct dcb_store *st, const struct store_filter *f, enum store_agg agg,
                    double *out, struct dcb_err *err)
{
    if (!f->device || !f->ifname || !f->metric || f->prio == STORE_ANY || f->queue == STORE_ANY)
        return dcb_err_set(err, DCB_E_INVAL, "an aggregate names one series");
    return st->ops->aggregate ? st->ops->aggregate(st, f, agg, out, err)
                              : unsupported("aggregates", err);
}

int store_configs(struct dcb_store *st, const char *device, const char *ifname, int64_t t1,
                  store_config_cb cb, void *arg, struct dcb_err *err)
{
    return st->ops->configs ? st->ops->configs(st, device, ifname, t1, cb, arg, err)
                            : unsupported("config snapshots", err);
}

int store_findings(struct dcb_store *st, int64_t run_id, store_finding_cb cb, void *arg,
                   struct dcb_err *err)
{
    return st->ops->findings ? st->ops->findings(st, run_id, cb, arg, err)
                             : unsupported("findings", err);
}

int store_last_run(struct dcb_store *st, const char *command, const char *source, int64_t before_ns,
                   int64_t *run_id, int64_t *started_ns, struct dcb_err *err)
{
    return st->ops->last_run
               ? st->ops->last_run(st, command, source, before_ns, run_id, started_ns, err)
               : unsupported("runs", err);
}

int store_info(struct dcb_store *st, struct store_info *info, struct dcb_err *err)
{
    memset(info, 0, sizeof(*info));
    return st->ops->info(st, info, err);
}

int store_snapshot_begin(struct dcb_store *st, struct dcb_err *err)
{
    return st->ops->snapshot_begin ? st->ops->snapshot_begin(st, err) : 0;
}

void store_snapshot_end(struct dcb_store *st)
{
    if (st->ops->snapshot_end)
        st->ops->snapshot_end(st);
}

int store_set_series_width(struct dcb_store *st, const struct dcb_sample *s, unsigned bits,
                           struct dcb_err *err)
{
    if ((int)s->metric < 0 || s->metric >= METRIC_COUNT)
        return dcb_err_set(err, DCB_E_INVAL, "a series with an unknown metric id %d", s->metric);
    if (bits > 64)
        return dcb_err_set(err, DCB_E_INVAL, "a counter %u bits wide", bits);
    return st->ops->set_series_width ? st->ops->set_series_width(st, s, bits ? bits : 64, err)
                                     : unsupported("a counter's width", err);
}

unsigned store_series_width(struct dcb_store *st, const char *device, const char *ifname,
                            enum metric_id metric, int prio, int queue)
{
    unsigned bits = st->ops->series_width
                        ? st->ops->series_width(st, device, ifname, metric, prio, queue)
                        : 0;
    return bits >= 1 && bits <= 64 ? bits : 64;
}

int64_t store_prune(struct dcb_store *st, int64_t cutoff_ns, struct dcb_err *err)
{
    return st->ops->prune(st, cutoff_ns, err);
}

struct delta_walk {
    struct dcb_store *st;
    unsigned width_bits; /* 0: the series' own, looked up at its first sample */
    struct counter_window win;
    bool is_counter;
    bool seen_series;
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX];
    enum metric_id metric;
    int prio, queue;
    bool ambiguous;
    uint64_t samples;
    int64_t first_ns, last_ns;
    double first_gauge, last_gauge;
};

static int delta_step(const struct dcb_sample *s, void *arg)
{
    struct delta_walk *w = arg;
    if (!w->seen_series) {
        w->seen_series = true;
        memcpy(w->device, s->device, sizeof(w->device));
        memcpy(w->ifname, s->ifname, sizeof(w->ifname));
        w->metric = s->metric;
        w->prio = s->prio;
        w->queue = s->queue;
        const struct metric_info *mi = metric_info(s->metric);
        w->is_counter = mi && mi->kind == METRIC_COUNTER;
        if (w->is_counter)
            counter_window_init(&w->win, w->width_bits
                                             ? w->width_bits
                                             : store_series_width(w->st, s->device, s->ifname,
                                                                  s->metric, s->prio, s->queue));
        w->first_ns = s->time_ns;
        w->first_gauge = s->value.gauge;
    } else if (s->metric != w->metric || s->prio != w->prio || s->queue != w->queue ||
               strcmp(s->device, w->device) != 0 || strcmp(s->ifname, w->ifname) != 0) {
        w->ambiguous = true;
        return 1;
    }
    w->samples++;
    w->last_ns = s->time_ns;
    w->last_gauge = s->value.gauge;
    if (w->is_counter)
        counter_window_add(&w->win, s->value.counter, s->time_ns);
    return 0;
}

int store_delta(struct dcb_store *st, const struct store_filter *f, unsigned width_bits,
                double *delta, double *rate_per_sec, uint64_t *resets, struct dcb_err *err)
{
    struct delta_walk w;
    memset(&w, 0, sizeof(w));
    w.st = st;
    w.width_bits = width_bits;
    counter_window_init(&w.win, width_bits);
    int rc = store_range(st, f, delta_step, &w, err);
    if (w.ambiguous)
        return dcb_err_set(err, DCB_E_INVAL,
                           "the filter matches more than one series; name device, ifname, "
                           "metric, prio and queue");
    if (rc < 0)
        return rc;
    *delta = NAN;
    *rate_per_sec = NAN;
    if (resets)
        *resets = w.win.resets;
    if (w.samples < 2)
        return 0;
    if (w.is_counter) { /* no rate spans a reset */
        *delta = w.win.total;
        *rate_per_sec = counter_window_rate(&w.win);
        return 0;
    }
    *delta = w.last_gauge - w.first_gauge;
    if (w.last_ns > w.first_ns)
        *rate_per_sec = *delta * 1e9 / (double)(w.last_ns - w.first_ns);
    return 0;
}

int store_default_path(char *buf, size_t len, struct dcb_err *err)
{
    const char *xdg = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    char dir[4096];
    if (xdg && *xdg)
        snprintf(dir, sizeof(dir), "%s/dcbkit", xdg);
    else if (home && *home)
        snprintf(dir, sizeof(dir), "%s/.local/share/dcbkit", home);
    else
        return dcb_err_set(err, DCB_E_NOTFOUND,
                           "neither XDG_DATA_HOME nor HOME is set; use --store");
    /* mkdir -p for the last two levels is enough for ~/.local/share/dcbkit */
    for (char *p = dir + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            if (mkdir(dir, 0755) < 0 && errno != EEXIST)
                return dcb_err_set(err, DCB_E_IO, "creating %s: %s", dir, strerror(errno));
            *p = '/';
        }
    }
    if (mkdir(dir, 0755) < 0 && errno != EEXIST)
        return dcb_err_set(err, DCB_E_IO, "creating %s: %s", dir, strerror(errno));
    if ((size_t)snprintf(buf, len, "%s/dcbkit.db", dir) >= len)
        return dcb_err_set(err, DCB_E_RANGE, "store path too long");
    return 0;
}
