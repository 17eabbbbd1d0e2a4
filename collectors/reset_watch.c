#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "counter.h"
#include "event_details.h"
#include "reset_watch.h"
#include "store_impl.h"

struct reset_watch {
    struct dcb_sink down;
    struct series_map series;
    struct counter_state *state; /* by series index */
    size_t cap;
    uint64_t resets;
};

static struct counter_state *state_of(struct reset_watch *w, const struct dcb_sample *s)
{
    bool added = false;
    int64_t idx = series_map_intern(&w->series, s, &added);
    if (idx < 0)
        return NULL;
    if ((size_t)idx >= w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 256;
        while (cap <= (size_t)idx)
            cap *= 2;
        struct counter_state *p = realloc(w->state, cap * sizeof(*p));
        if (!p)
            return NULL;
        w->state = p;
        w->cap = cap;
    }
    if (added)
        counter_state_init(&w->state[idx]);
    return &w->state[idx];
}

static void on_sample(void *arg, const struct dcb_sample *s, unsigned width_bits)
{
    struct reset_watch *w = arg;
    const struct metric_info *mi = s->metric >= 0 && s->metric < METRIC_COUNT
                                       ? metric_info(s->metric)
                                       : NULL;
    struct counter_state *st = mi && mi->kind == METRIC_COUNTER ? state_of(w, s) : NULL;
    if (st) {
        struct counter_delta d = counter_update(st, s->value.counter, s->time_ns,
                                                width_bits ? width_bits : 64, 0);
        if (d.kind == COUNTER_RESET && w->down.event) {
            struct event_details details;
            event_details_init(&details);
            event_details_str(&details, "metric", mi->name);
            event_details_i64(&details, "queue", s->queue);
            event_details_u64(&details, "previous", d.previous);
            event_details_u64(&details, "value", s->value.counter);
            struct dcb_event e;
            dcb_event_set(&e, s->time_ns, EVENT_COUNTER_RESET, s->device, s->ifname, s->prio,
                          event_details_json(&details));
            w->resets++;
            w->down.event(w->down.arg, &e);
        }
    }
    if (w->down.sample)
        w->down.sample(w->down.arg, s, width_bits);
}

static void on_event(void *arg, const struct dcb_event *e)
{
    struct reset_watch *w = arg;
    if (w->down.event)
        w->down.event(w->down.arg, e);
}

static void on_config(void *arg, const struct store_config_row *c)
{
    struct reset_watch *w = arg;
    if (w->down.config)
        w->down.config(w->down.arg, c);
}

static void on_link(void *arg, const char *device, const char *ifname, const char *peer,
                    const char *peer_port, const char *how)
{
    struct reset_watch *w = arg;
    if (w->down.link)
        w->down.link(w->down.arg, device, ifname, peer, peer_port, how);
}

/* the source starts over: what it gave before is no reading to compare with */
static void on_reset(void *arg)
{
    struct reset_watch *w = arg;
    series_map_free(&w->series);
    series_map_init(&w->series);
    if (w->down.reset)
        w->down.reset(w->down.arg);
}

struct reset_watch *reset_watch_new(struct dcb_sink down)
{
    struct reset_watch *w = calloc(1, sizeof(*w));
    if (!w)
        return NULL;
    w->down = down;
    series_map_init(&w->series);
    return w;
}

void reset_watch_free(struct reset_watch *w)
{
    if (!w)
        return;
    series_map_free(&w->series);
    free(w->state);
    free(w);
}

struct dcb_sink reset_watch_sink(struct reset_watch *w)
{
    return (struct dcb_sink){ on_sample, on_event, on_config, w->down.link ? on_link : NULL,
                              on_reset,  w };
}

uint64_t reset_watch_resets(const struct reset_watch *w)
{
    return w->resets;
}
