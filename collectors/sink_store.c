/* A source's samples, events and config snapshots into a store (and a second that records). */
#include <string.h>

#include "sink_store.h"

static void keep_error(struct sink_store *s, int rc, const struct dcb_err *err)
{
    if (rc < 0 && !s->error) {
        s->error = rc;
        s->err = *err;
    }
}

static void on_sample(void *arg, const struct dcb_sample *smp, unsigned width_bits)
{
    struct sink_store *s = arg;
    struct dcb_err err;
    s->samples++;
    if (s->tap_sample)
        s->tap_sample(s->tap_arg, smp, width_bits);
    /* a width the store would not assume (64) goes with the series: every reader of the store
     * then tells this counter's wraps from its resets (the store's check of a width it already
     * has is a hash lookup) */
    bool width = width_bits && width_bits != 64;
    if (s->st && width)
        keep_error(s, store_set_series_width(s->st, smp, width_bits, &err), &err);
    if (s->st)
        keep_error(s, store_put_sample(s->st, smp, &err), &err);
    if (s->record && width)
        keep_error(s, store_set_series_width(s->record, smp, width_bits, &err), &err);
    if (s->record)
        keep_error(s, store_put_sample(s->record, smp, &err), &err);
}

static void on_event(void *arg, const struct dcb_event *e)
{
    struct sink_store *s = arg;
    struct dcb_err err;
    s->events++;
    if (s->tap_event)
        s->tap_event(s->tap_arg, e);
    if (s->st)
        keep_error(s, store_put_event(s->st, e, &err), &err);
    if (s->record)
        keep_error(s, store_put_event(s->record, e, &err), &err);
}

static void on_config(void *arg, const struct store_config_row *c)
{
    struct sink_store *s = arg;
    struct dcb_err err;
    s->configs++;
    if (s->tap_config)
        s->tap_config(s->tap_arg, c);
    if (s->st)
        keep_error(s, store_put_config(s->st, c, &err), &err);
    if (s->record)
        keep_error(s, store_put_config(s->record, c, &err), &err);
}

struct dcb_sink sink_store_sink(struct sink_store *s)
{
    return (struct dcb_sink){ on_sample, on_event, on_config, NULL, NULL, s };
}

int sink_store_take_error(struct sink_store *s, struct dcb_err *err)
{
    int rc = s->error;
    if (rc < 0)
        *err = s->err;
    s->error = 0;
    return rc;
}

int sink_store_open_ring(struct dcb_store **st, size_t samples, size_t events, struct dcb_err *err)
{
    return store_open_ring(st, samples ? samples : (1u << 20), events ? events : (1u << 18), err);
}
