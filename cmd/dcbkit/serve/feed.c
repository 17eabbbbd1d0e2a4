/* Where serve's numbers come from: the source the options name, opened through the source layer
 * in real time and written into a ring that the page and the rules read (and into a record
 * store beside it with --store); or, for --store alone, a store that another process (dcbkit
 * collect --store) writes, which serve reads in place without ticking. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "serve.h"
#include "units.h"

static void count_event(void *arg, const struct dcb_event *e)
{
    struct serve_feed *f = arg;
    serve_events_count(&f->events, e);
    path_gaps_take(&f->gaps, e);
}

/* The label of the source that measures (the fabric's intent beside it does not). */
static const char *label_of(struct dcb_source *src)
{
    static const enum dcb_source_kind measured[] = { SOURCE_LOCAL, SOURCE_GNMI, SOURCE_REPLAY,
                                                     SOURCE_STORE };
    for (size_t i = 0; i < sizeof(measured) / sizeof(measured[0]); i++)
        if (dcb_source_find(src, measured[i]))
            return dcb_source_kind_name(measured[i]);
    return dcb_source_kind_name(src->kind);
}

static int open_in_place(struct serve_feed *f, const struct source_opts *so, int64_t interval_ns,
                         struct dcb_err *err)
{
    struct dcb_sink none = { 0 };
    if (source_opts_open(so, none, interval_ns, 0, &f->src, err) < 0) {
        /* a store collect has just created holds nothing yet: open it again each round */
        if (err->code != DCB_E_NOTFOUND ||
            faccessat(AT_FDCWD, so->store.path, F_OK, AT_EACCESS) != 0)
            return -1;
        f->waiting = so;
        f->interval_ns = interval_ns;
        return 0;
    }
    f->st = f->src.direct;
    f->waiting = NULL;
    return 0;
}

static int open_ring(struct serve_feed *f, const struct serve_feed_options *opt,
                     struct dcb_err *err)
{
    if (store_open_ring(&f->sink.st, opt->ring_samples, opt->ring_samples / 16 + 1, err) < 0)
        return -1;
    f->st = f->sink.st;
    if (opt->record) {
        struct store_options o = { .path = opt->record };
        if (store_open_sqlite(&f->sink.record, &o, err) < 0)
            return -1;
    }
    f->sink.tap_event = count_event;
    f->sink.tap_arg = f;
    return source_opts_open(opt->so, sink_store_sink(&f->sink), opt->interval_ns, 0, &f->src, err);
}

int serve_feed_open(struct serve_feed *f, const struct serve_feed_options *opt, struct dcb_err *err)
{
    memset(f, 0, sizeof(*f));
    f->in_place = opt->so->named == SOURCE_G_STORE && !opt->record;
    int rc = f->in_place ? open_in_place(f, opt->so, opt->interval_ns, err)
                         : open_ring(f, opt, err);
    if (rc < 0) {
        serve_feed_close(f);
        return -1;
    }
    f->label = f->in_place ? "store" : label_of(&f->src);
    return 0;
}

static int64_t store_newest(struct dcb_store *st)
{
    struct store_info info;
    struct dcb_err err;
    if (store_info(st, &info, &err) < 0 || !info.last_ns)
        return dcb_realtime_ns();
    return info.last_ns;
}

int serve_feed_tick(struct serve_feed *f, int64_t *data_ns, struct dcb_err *err)
{
    if (f->in_place) {
        *data_ns = dcb_realtime_ns();
        if (f->waiting && open_in_place(f, f->waiting, f->interval_ns, err) < 0)
            return -1;
        if (f->waiting)
            return dcb_err_set(err, DCB_E_NOTFOUND, "%s: the store holds no samples yet",
                               f->waiting->store.path);
        *data_ns = store_newest(f->st);
        return 0;
    }
    uint64_t samples = f->sink.samples;
    int rc = dcb_source_tick(&f->src, dcb_realtime_ns(), data_ns, err);
    if (rc < 0)
        return rc;
    if (sink_store_take_error(&f->sink, err) < 0)
        return -1;
    if (f->sink.record && store_flush(f->sink.record, err) < 0) {
        char why[sizeof(err->msg)];
        snprintf(why, sizeof(why), "%s", err->msg);
        return dcb_err_set(err, DCB_E_IO, "recording to the store: %s", why);
    }
    /* a source that cannot read says so in its status and gives nothing */
    if (f->sink.samples == samples && f->src.status[0])
        return dcb_err_set(err, DCB_E_NOTFOUND, "%s", f->src.status);
    return 0;
}

void serve_feed_close(struct serve_feed *f)
{
    dcb_source_close(&f->src);
    if (f->sink.st)
        store_close(f->sink.st, NULL);
    if (f->sink.record)
        store_close(f->sink.record, NULL);
    serve_events_free(&f->events);
    path_gaps_free(&f->gaps);
    memset(f, 0, sizeof(*f));
}
