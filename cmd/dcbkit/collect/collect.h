/* dcbkit collect: a source (this host, switches over gNMI, a replay, a capture file) recorded
 * into a store and printed as it comes. The command parses into struct collect_opts
 * (collect_opts.c), picks the source, and runs it through the source layer
 * (collectors/source.h) into the record store (collect_record.c); each source's lines are
 * printed by its own printer (collect_print_local.c, collect_gnmi.c, collect_print.c).
 * --capture IFACE, live traffic, is its own loop (collect_capture.c). */
#ifndef DCB_COLLECT_H
#define DCB_COLLECT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "gnmi_source.h"
#include "host_source.h"
#include "sink_store.h"
#include "source_opts.h"

#define COLLECT_DUMPS_MAX 64
#define COLLECT_FILTER_MAX 1024

/* The source groups collect takes: --store is its destination, not a source. */
#define COLLECT_SOURCE_GROUPS \
    (SOURCE_G_LOCAL | SOURCE_G_GNMI | SOURCE_G_REPLAY | SOURCE_G_PCAP | SOURCE_G_FABRIC)

struct collect_opts {
    struct source_opts src;
    const char *store_path; /* where it is recorded; NULL: printed only */
    int64_t interval_ns, duration_ns;
    long count; /* 0: until stopped (or the duration) */
    long raw_every;
    const char *dumps[COLLECT_DUMPS_MAX]; /* --from-ethtool-dump */
    size_t ndumps;
    const char *driver;
    const char *capture_iface; /* --capture */
    char filter[COLLECT_FILTER_MAX];
    char device[DCB_DEVICE_MAX]; /* --device, else the host name */
};

/* Parses argv into o: 0, or an exit status (64 after a usage error, 0 after --help). */
/* CLI_NEXT to go on, or the exit status (0 after --help). */
int collect_parse(struct cli_ctx *ctx, int argc, char **argv, struct collect_opts *o);
/* The samples a live host run takes: --count, or --duration in intervals (0: no end). */
long collect_ticks(const struct collect_opts *o);

/* What a run prints and where it records. */
struct collect_run {
    struct cli_ctx *ctx;
    const struct collect_opts *opt;
    struct dcb_out out;
    struct dcb_store *record; /* the store, or NULL */
    struct sink_store sink;
    struct dcb_source src;
    uint64_t samples, events, configs; /* as printed (gNMI and the finite sources) */
    bool store_failed;                 /* a write failed: said once, exit 1 */
    bool quiet_failure;                /* stopped after an error already printed */
    /* after each tick, once the store is committed: a negative return stops the run */
    int (*check_tick)(struct collect_run *r);
    uint64_t ticks;
};

/* Set by SIGINT and SIGTERM once collect_catch_signals ran: the run stops. */
extern volatile sig_atomic_t collect_stop;
void collect_catch_signals(void);

/* The record store: opened (when --store) with the output and the stop signals, before the
 * source (which writes into r->sink); the source run through dcb_source_run (how: its
 * duration and count) with a commit after each tick; the source and the store closed, the
 * exit status returned. */
int collect_record_open(struct collect_run *r, struct dcb_err *err);
int collect_record_drive(struct collect_run *r, const struct dcb_source_run *how,
                         struct dcb_err *err);
int collect_record_close(struct collect_run *r, int status);
/* A write error since the last check, said once. */
void collect_record_check(struct collect_run *r);

/* The sources, each with its printer: an exit status. */
int collect_local(struct collect_run *r);
int collect_gnmi(struct collect_run *r);
int collect_finite(struct collect_run *r); /* --replay/--demo, --pcap */
int collect_capture(struct cli_ctx *ctx, const struct collect_opts *o);

/* The local source's printer (collect_print_local.c). */
struct host_source_sink collect_local_printer(struct collect_run *r);
/* The generic printer of canonical rows, for the finite sources (collect_print.c). */
void collect_print_taps(struct collect_run *r);
/* Only its events: every event the sink takes, the source's and the source layer's
 * (counter_reset from the reset stage), for a source whose own printer shows the rest. */
void collect_print_event_tap(struct collect_run *r);
/* A sample line: "source" names where from, "counter" the leaf (NULL: none); counted. */
void collect_print_sample(struct collect_run *r, const struct dcb_sample *s, const char *source,
                          const char *key);
/* An event line (out_event's stream form); text names the event's device or its ifname. */
void collect_print_event(struct dcb_out *o, const struct dcb_event *e, bool by_device);

#endif
