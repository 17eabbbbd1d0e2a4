/* The sink most uses write a source into: a store (the in-memory ring for live views and
 * diagnosis, an SQLite store for history), and optionally a second store that records the same
 * (serve --store with a live source, collect). A write that fails is kept and said once: the
 * source goes on, the use asks sink_store_take_error after each tick. */
#ifndef DCB_SINK_STORE_H
#define DCB_SINK_STORE_H

#include <stdint.h>

#include "source.h"
#include "store.h"

struct sink_store {
    struct dcb_store *st;     /* what the use reads */
    struct dcb_store *record; /* also written here, or NULL */
    /* a use's look at every event and sample as it goes in (serve counts events; collect
     * prints); may be NULL */
    void (*tap_event)(void *arg, const struct dcb_event *e);
    void (*tap_sample)(void *arg, const struct dcb_sample *s, unsigned width_bits);
    void (*tap_config)(void *arg, const struct store_config_row *c);
    void *tap_arg;
    uint64_t samples, events, configs;
    int error; /* the first failed write since the last take */
    struct dcb_err err;
};

/* The sink that writes into s (s must outlive the source). */
struct dcb_sink sink_store_sink(struct sink_store *s);

/* 0, or the first write error since the last call (err set), which is then forgotten. */
int sink_store_take_error(struct sink_store *s, struct dcb_err *err);

/* A new ring sized for a use that reads everything a finite source gives (diagnose, report):
 * samples and events in the millions, bounded. */
int sink_store_open_ring(struct dcb_store **st, size_t samples, size_t events, struct dcb_err *err);

#endif
