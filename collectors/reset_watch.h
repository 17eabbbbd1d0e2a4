/* The reset stage of the source layer: a sink in front of another that follows every counter
 * series, and before a reading lower than the last one that its width does not explain as a
 * wrap (lib/counter.h), gives the downstream sink a counter_reset event. Sources that read
 * raw device counters without following them (gNMI) go through it, once, where every command
 * opens them (source_opts_open, through dcb_source_watch_resets). The others do not: the local
 * host source says its resets itself (it knows each counter's width from its map); a store or
 * Prometheus window gives back the counter_reset events recorded with its samples; replay and
 * pcap counters are computed and never go back. */
#ifndef DCB_RESET_WATCH_H
#define DCB_RESET_WATCH_H

#include <stdint.h>

#include "source.h"

struct reset_watch;

/* A stage that passes everything to down; NULL when out of memory. */
struct reset_watch *reset_watch_new(struct dcb_sink down);
void reset_watch_free(struct reset_watch *w);
/* The sink to give the source. */
struct dcb_sink reset_watch_sink(struct reset_watch *w);
/* counter_reset events given so far. */
uint64_t reset_watch_resets(const struct reset_watch *w);

#endif
