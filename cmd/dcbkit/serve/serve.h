/* dcbkit serve internals: the board (the prebuilt pages scrapes read; board.c), the HTTP server
 * on libmicrohttpd (http.c), the feed (the source read into the ring; feed.c, events.c) and one
 * collection round: tick, evaluate the rules, render, publish (round.c). The command line is
 * args.c, the command cmd_serve.c. */
#ifndef DCB_SERVE_H
#define DCB_SERVE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "findings.h"
#include "path_gaps.h"
#include "prom.h"
#include "rules.h"
#include "sink_store.h"
#include "source_opts.h"
#include "store.h"

/* ---- the command line (args.c) ------------------------------------------------------------ */

struct serve_args {
    const char *listen;
    struct source_opts src; /* what to read (--store beside a live source taken out) */
    const char *record;     /* --store DB beside a live source: record there too */
    struct cli_rules rules;
    bool no_rules, once;
    int64_t interval_ns, history_ns, timeout_ns;
    long max_connections, ring_samples;
    uint64_t max_header;
};

#define SERVE_HELP_SHOWN (-1)
/* The source groups serve takes (the others it refuses, saying why). */
#define SERVE_SOURCE_GROUPS \
    (SOURCE_G_LOCAL | SOURCE_G_GNMI | SOURCE_G_STORE | SOURCE_G_REPLAY | SOURCE_G_FABRIC)

/* 0, SERVE_HELP_SHOWN, or an exit status after a one-line usage error. */
int serve_parse_args(struct cli_ctx *ctx, int argc, char **argv, struct serve_args *a);

/* ---- the board: what a scrape reads -------------------------------------------------------- */

/* An immutable page; scrapes hold a reference while libmicrohttpd sends it. */
struct serve_page {
    char *data;
    size_t len;
    void *gz;      /* data gzipped once when published, for the scrapers that */
    size_t gz_len; /* accept it; NULL when compression failed: data is sent */
    unsigned refs; /* under the board's mutex */
};

struct serve_board {
    pthread_mutex_t mu;
    struct serve_page *metrics; /* NULL until the first round */
    int64_t last_ok_ns;         /* Unix time of the last good collection, 0 for none */
    int64_t stale_after_ns;     /* /healthz fails when the last good collection is older */
    char problem[256];          /* why the last round failed, "" when it did not */
};

void serve_board_init(struct serve_board *b, int64_t stale_after_ns);
void serve_board_free(struct serve_board *b);
/* Takes buf's text as the new /metrics page (buf is left empty); ok says whether the round's
 * collection succeeded, problem why not. */
void serve_board_publish(struct serve_board *b, struct prom_buf *buf, bool ok, int64_t now_ns,
                         const char *problem);
struct serve_page *serve_board_acquire(struct serve_board *b);
void serve_board_release(struct serve_board *b, struct serve_page *p);
/* 200 with "ok ..." or 503 with the reason, into text. */
int serve_board_health(struct serve_board *b, int64_t now_ns, char *text, size_t len);

/* ---- HTTP ------------------------------------------------------------------------------------ */

struct serve_http_options {
    struct prom_listen listen;
    unsigned max_connections; /* open at once; a newcomer closes the oldest not answered */
    unsigned timeout_s;       /* an idle connection is closed after this */
    unsigned deadline_s;      /* a request's head and body arrive within this, or it closes */
    size_t max_request_bytes; /* request line and headers; larger gets 431 */
    bool verbose;             /* libmicrohttpd's own messages on stderr */
};

struct serve_http;

int serve_http_start(struct serve_http **out, const struct serve_http_options *opt,
                     struct serve_board *board, struct dcb_err *err);
/* The port bound (what port 0 became). */
unsigned serve_http_port(const struct serve_http *h);
void serve_http_stop(struct serve_http *h);

/* ---- the feed: the source, read into the ring ------------------------------------------- */

/* dcbkit_events_total: the events the source reported since start, counted per (device, ifname,
 * prio, kind) in that order (a sink tap; events.c). */
struct serve_events {
    struct prom_event_count *v;
    size_t n, cap;
    bool nomem;
};

void serve_events_count(struct serve_events *ev, const struct dcb_event *e);
void serve_events_free(struct serve_events *ev);

/* The source the options name (collectors/source_opts.h), opened in real time into a ring, and
 * also into a record store (--store with a live source); or, for --store alone, the store
 * another process writes, read in place and never ticked. Must not move once opened (the
 * source and the sink point into it). */
struct serve_feed {
    struct dcb_source src;
    struct sink_store sink;
    struct dcb_store *st;              /* what a round reads: the ring, or the store in place */
    bool in_place;                     /* st is the store source's own (src.direct) */
    const struct source_opts *waiting; /* a store that held no samples yet: opened again
                                        * each round, st NULL until then */
    int64_t interval_ns;
    const char *label; /* dcbkit_scrape_errors_total{source}: "local", "gnmi",
                        * "store", "replay", "fabric" */
    struct serve_events events;
    struct path_gaps gaps; /* the paths the devices do not serve */
};

struct serve_feed_options {
    const struct source_opts *so;
    const char *record; /* --store DB beside a live source, or NULL */
    size_t ring_samples;
    int64_t interval_ns;
};

/* 0, or -1 with err naming what failed to open. */
int serve_feed_open(struct serve_feed *f, const struct serve_feed_options *opt,
                    struct dcb_err *err);
/* Ticks the source: what is new goes into the ring (and the record store, flushed). *data_ns:
 * the evaluation time (now, or the newest data of a store read in place). A failed read, a
 * failed write, or a source that gave nothing and says why is an error. */
int serve_feed_tick(struct serve_feed *f, int64_t *data_ns, struct dcb_err *err);
void serve_feed_close(struct serve_feed *f);

/* ---- one round ------------------------------------------------------------------------------- */

struct serve_round {
    struct serve_feed *feed;
    const struct rule_set *rules; /* NULL: no findings */
    const char *profile;
    int64_t history_ns;               /* how far back rules may look */
    int64_t stale_ns;                 /* series older than this are not exported */
    struct prom_source_stat stats[2]; /* the source, then "rules" */
    struct dcb_sample *samples;
    size_t nsamples, samples_cap;
    struct finding_list findings;
    struct prom_config_value *configs;
    size_t nconfigs, configs_cap;
    struct prom_topology *topology;
    size_t ntopology, topology_cap;
    struct prom_buf page;
    bool verbose;
};

void serve_round_init(struct serve_round *r, struct serve_feed *feed, const struct rule_set *rules);
void serve_round_free(struct serve_round *r);
/* Ticks the feed, evaluates, renders and publishes; a failing source or rule run is counted in
 * dcbkit_scrape_errors_total and the page still goes out (with what there is). -1 only when the
 * page itself could not be built. */
int serve_round_run(struct serve_round *r, struct serve_board *board, struct dcb_err *err);

#endif
