/* --store DB [--at TIME]: the history. Without --at the view follows the store's newest data (a
 * collector writing it shows up live); with --at, or once [ or ] moved, it stands at a point in
 * time and shows the window of samples before it.
 *
 * What is fed stands on a grid of steps: the refresh interval, or the store's own sample spacing
 * where that is longer (collect --interval 60s under dcbtop -d 1; the status line says so). Of
 * each series only the last reading at or before each grid point goes to the sink, so rates are
 * taken over a step (never between two readings 10 ms apart in a store a replay wrote), the
 * history behind the sparklines has one value a step, and memory is bounded whatever the store
 * holds: the window is read a slice of steps at a time, sized so that a slice keeps at most
 * SLICE_SAMPLES readings. Every window holds at least SPACINGS_FED of the store's spacings. In
 * follow mode the data moves on by whole steps. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "source.h"

#define SEEK_INTERVALS 10 /* [ and ] move by this many refresh intervals */
#define FIRST_INTERVALS                                                                       \
    10                           /* the first frame loads this many intervals (or seconds, if \
                                  * more); the whole window follows on the next refresh */
#define SPACINGS_FED 3           /* a window holds at least this many sample spacings */
#define SLICE_SAMPLES (1u << 16) /* readings kept in memory at once (about 10 MB) */

struct store_ctx {
    struct dcb_source *src;
    struct dcb_store *st;
    char path[1024];
    int64_t first_ns, last_ns;
    int64_t at_ns;  /* the time shown; 0: follow the newest data */
    int64_t fed_ns; /* samples up to here were given to the sink */
    int64_t window_ns;
    bool reload;  /* feed the window before at_ns again */
    bool partial; /* only the end of the window is loaded yet */
    bool loaded_once;
    struct dcb_sample *samples; /* one slice's readings, put in time order */
    uint8_t *widths;            /* each reading's counter width (0: not a counter), by index */
    size_t nsamples, samples_cap, widths_cap;
    uint64_t series;     /* in the store when opened: sizes the slices */
    int64_t spacing_ns;  /* the store's mean time between a series' samples (0: unknown) */
    int64_t step_ns;     /* the grid: the refresh interval or the spacing, the longer */
    int64_t grid_end_ns; /* the grid point the feed under way ends on */
    /* the series store_range is handing out: its newest reading in the current step so far */
    struct dcb_sample pending;
    int64_t pending_cell; /* steps before grid_end_ns */
    unsigned width;
    bool has_pending;
};

struct timed {
    int64_t time_ns;
    size_t seq; /* arrival order: a stable sort */
};

static bool same_series(const struct dcb_sample *a, const struct dcb_sample *b)
{
    return a->metric == b->metric && a->prio == b->prio && a->queue == b->queue &&
           !strcmp(a->ifname, b->ifname) && !strcmp(a->device, b->device);
}

static int keep(struct store_ctx *c, const struct dcb_sample *s, unsigned width)
{
    if (c->nsamples == c->samples_cap &&
        dcb_grow(&c->samples, &c->samples_cap, sizeof(*c->samples), 4096) < 0)
        return DCB_E_NOMEM;
    if (c->nsamples >= c->widths_cap) {
        uint8_t *w = realloc(c->widths, c->samples_cap);
        if (!w)
            return DCB_E_NOMEM;
        c->widths = w;
        c->widths_cap = c->samples_cap;
    }
    c->widths[c->nsamples] = (uint8_t)width;
    c->samples[c->nsamples++] = *s;
    return 0;
}

static int keep_pending(struct store_ctx *c)
{
    if (!c->has_pending)
        return 0;
    c->has_pending = false;
    return keep(c, &c->pending, c->width);
}

/* The store hands out samples series by series, each in time order: of each step (grid cell) of
 * a series the newest reading is kept. A counter's width is looked up once per series and goes
 * to the sink with each of its readings. */
static int keep_sample(const struct dcb_sample *s, void *arg)
{
    struct store_ctx *c = arg;
    int64_t cell = (c->grid_end_ns - s->time_ns) / c->step_ns;
    bool same = c->has_pending && same_series(s, &c->pending);
    if (same && cell == c->pending_cell) {
        if (s->time_ns >= c->pending.time_ns)
            c->pending = *s;
        return 0;
    }
    if (keep_pending(c) < 0)
        return DCB_E_NOMEM;
    if (!same)
        c->width = metric_info(s->metric)->kind != METRIC_COUNTER
                       ? 0
                       : store_series_width(c->st, s->device, s->ifname, s->metric, s->prio,
                                            s->queue);
    c->pending = *s;
    c->pending_cell = cell;
    c->has_pending = true;
    return 0;
}

static int by_time(const void *a, const void *b)
{
    const struct timed *x = a, *y = b;
    if (x->time_ns != y->time_ns)
        return x->time_ns < y->time_ns ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int put_samples_in_time_order(struct store_ctx *c, struct dcb_err *err)
{
    struct timed *order = malloc((c->nsamples ? c->nsamples : 1) * sizeof(*order));
    if (!order)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory for %zu samples", c->nsamples);
    for (size_t k = 0; k < c->nsamples; k++)
        order[k] = (struct timed){ c->samples[k].time_ns, k };
    qsort(order, c->nsamples, sizeof(*order), by_time);
    for (size_t k = 0; k < c->nsamples; k++) {
        size_t i = order[k].seq;
        c->src->sink.sample(c->src->sink.arg, &c->samples[i], c->widths[i]);
    }
    free(order);
    c->nsamples = 0;
    return 0;
}

static int put_event(const struct dcb_event *e, void *arg)
{
    struct store_ctx *c = arg;
    c->src->sink.event(c->src->sink.arg, e);
    return 0;
}

static int put_config(const struct store_config_row *r, void *arg)
{
    struct store_ctx *c = arg;
    c->src->sink.config(c->src->sink.arg, r);
    return 0;
}

static int max_latest(const struct dcb_sample *s, void *arg)
{
    int64_t *t = arg;
    if (s->time_ns > *t)
        *t = s->time_ns;
    return 0;
}

/* The readings of (t0, t1] on the grid that ends at t1, a slice of steps at a time, oldest
 * first, each slice in time order. */
static int feed_samples(struct store_ctx *c, int64_t t0, int64_t t1, struct dcb_err *err)
{
    c->grid_end_ns = t1;
    int64_t per_slice = (int64_t)(SLICE_SAMPLES / (c->series ? c->series : 1));
    if (per_slice < 1)
        per_slice = 1;
    int64_t steps = (t1 - t0 + c->step_ns - 1) / c->step_ns;
    for (int64_t k = steps; k > 0; k -= per_slice) {
        struct store_filter f;
        store_filter_init(&f);
        int64_t lo = t1 - k * c->step_ns,
                hi = t1 - (k > per_slice ? k - per_slice : 0) * c->step_ns;
        f.t0 = (lo > t0 ? lo : t0) + 1;
        f.t1 = hi;
        c->nsamples = 0;
        c->has_pending = false;
        int rc = store_range(c->st, &f, keep_sample, c, err);
        if (rc == 0)
            rc = keep_pending(c);
        if (rc == DCB_E_NOMEM)
            return dcb_err_set(err, DCB_E_NOMEM, "out of memory for the window's samples");
        if (rc < 0 || put_samples_in_time_order(c, err) < 0)
            return -1;
    }
    return 0;
}

/* Samples on the grid and events in (t0, t1], then the config as of t1. */
static int feed(struct store_ctx *c, int64_t t0, int64_t t1, struct dcb_err *err)
{
    struct store_filter f;
    store_filter_init(&f);
    f.t0 = t0 + 1;
    f.t1 = t1;
    if (feed_samples(c, t0, t1, err) < 0 || store_events(c->st, &f, NULL, put_event, c, err) < 0 ||
        store_configs(c->st, NULL, NULL, t1, put_config, c, err) < 0)
        return -1;
    c->fed_ns = t1;
    return 0;
}

/* The status line: what is said, and the store's spacing when rates span more than -d. */
static void set_status(struct dcb_source *src, const struct store_ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_status(struct dcb_source *src, const struct store_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(src->status, sizeof(src->status), fmt, ap);
    va_end(ap);
    if (c->spacing_ns <= src->interval_ns || src->interval_ns <= 0)
        return;
    size_t n = strlen(src->status);
    snprintf(src->status + n, sizeof(src->status) - n,
             "%sa sample every %.3g s in the store: rates are over that spacing", n ? "; " : "",
             (double)c->spacing_ns / 1e9);
}

static int store_tick(struct dcb_source *src, int64_t now_ns, int64_t *data_ns, struct dcb_err *err)
{
    (void)now_ns;
    struct store_ctx *c = src->ctx;
    c->step_ns = src->interval_ns > c->spacing_ns ? src->interval_ns : c->spacing_ns;
    if (c->step_ns <= 0)
        c->step_ns = 1000000000LL;
    int64_t window = c->window_ns;
    if (window < 60 * src->interval_ns)
        window = 60 * src->interval_ns;
    if (window < SPACINGS_FED * c->spacing_ns)
        window = SPACINGS_FED * c->spacing_ns;
    /* the first frame comes from the window's last intervals (rates, findings); the next
     * refresh starts over with the whole window (the history behind the sparklines) */
    int64_t first = FIRST_INTERVALS * src->interval_ns;
    if (first < FIRST_INTERVALS * 1000000000LL)
        first = FIRST_INTERVALS * 1000000000LL; /* a store sampled every second or so */
    if (first < SPACINGS_FED * c->spacing_ns)
        first = SPACINGS_FED * c->spacing_ns;
    if (first > window)
        first = window;
    if (c->partial) {
        c->partial = false;
        c->reload = !!c->at_ns;
        c->fed_ns = 0;
        if (!c->at_ns)
            src->sink.reset(src->sink.arg);
    }
    if (c->at_ns) {
        *data_ns = c->at_ns;
        if (!c->reload)
            return 0;
        c->reload = false;
        src->sink.reset(src->sink.arg);
        set_status(src, c, "history: [ and ] move %d intervals", SEEK_INTERVALS);
        if (!c->loaded_once) {
            c->loaded_once = c->partial = true;
            return feed(c, c->at_ns - first, c->at_ns, err);
        }
        return feed(c, c->at_ns - window, c->at_ns, err);
    }
    int64_t newest = 0;
    struct store_filter f;
    store_filter_init(&f);
    if (store_latest(c->st, &f, max_latest, &newest, err) < 0)
        return -1;
    if (newest > c->last_ns)
        c->last_ns = newest;
    int rc = 0;
    if (!c->fed_ns && !c->loaded_once) {
        c->loaded_once = c->partial = true;
        rc = feed(c, c->last_ns - first, c->last_ns, err);
    } else if (!c->fed_ns) {
        rc = feed(c, c->last_ns - window, c->last_ns, err);
    } else {
        /* what a writer added, by whole steps of the grid the view stands on */
        int64_t end = c->fed_ns + (c->last_ns - c->fed_ns) / c->step_ns * c->step_ns;
        if (end > c->fed_ns)
            rc = feed(c, c->fed_ns, end, err);
    }
    *data_ns = c->fed_ns ? c->fed_ns : c->last_ns;
    return rc;
}

static int store_seek(struct dcb_source *src, int steps, struct dcb_err *err)
{
    (void)err;
    struct store_ctx *c = src->ctx;
    int64_t at = c->at_ns ? c->at_ns : c->last_ns;
    at += (int64_t)steps * SEEK_INTERVALS * src->interval_ns;
    if (at > c->last_ns)
        at = c->last_ns;
    if (at < c->first_ns)
        at = c->first_ns;
    c->at_ns = at;
    c->reload = true;
    return 0;
}

static void store_close_src(struct dcb_source *src)
{
    struct store_ctx *c = src->ctx;
    store_close(c->st, NULL);
    free(c->samples);
    free(c->widths);
    free(c);
    src->ctx = NULL;
}

/* The mean time between two samples of a series: the store's span over the readings each
 * series has on average, less one. */
static int64_t store_spacing(const struct store_info *info)
{
    if (!info->series || info->samples < 2 * info->series || info->last_ns <= info->first_ns)
        return 0;
    double per_series = (double)info->samples / (double)info->series;
    return (int64_t)((double)(info->last_ns - info->first_ns) / (per_series - 1));
}

static const struct dcb_source_ops store_ops = { store_tick, store_seek, store_close_src };

int dcb_source_store_open(struct dcb_source *src, const char *path, int64_t at_ns,
                          int64_t window_ns, struct dcb_err *err)
{
    struct store_ctx *c = calloc(1, sizeof(*c));
    if (!c)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    c->src = src;
    snprintf(c->path, sizeof(c->path), "%s", path);
    struct store_options so = { .path = path, .readonly = true };
    if (store_open_sqlite(&c->st, &so, err) < 0) {
        free(c);
        return -1;
    }
    struct store_info info;
    if (store_info(c->st, &info, err) < 0) {
        store_close(c->st, NULL);
        free(c);
        return -1;
    }
    if (!info.last_ns && !info.events && !info.config_snapshots) {
        store_close(c->st, NULL);
        free(c);
        return dcb_err_set(err, DCB_E_NOTFOUND, "%s: the store holds no data", path);
    }
    c->first_ns = info.first_ns;
    c->series = info.series;
    c->last_ns = info.last_ns;
    c->window_ns = window_ns;
    c->spacing_ns = store_spacing(&info);
    if (at_ns) {
        c->at_ns = at_ns < c->first_ns ? c->first_ns : at_ns > c->last_ns ? c->last_ns : at_ns;
        c->reload = true;
    }
    src->ops = &store_ops;
    src->kind = SOURCE_STORE;
    src->direct = c->st;
    src->ctx = c;
    snprintf(src->name, sizeof(src->name), "store %s", path);
    set_status(src, c, "%s", "");
    return 0;
}

void dcb_source_store_at_before_end(struct dcb_source *src, int64_t before_ns)
{
    struct store_ctx *c = src->ctx;
    c->at_ns = c->last_ns - before_ns < c->first_ns ? c->first_ns : c->last_ns - before_ns;
    c->reload = true;
}
