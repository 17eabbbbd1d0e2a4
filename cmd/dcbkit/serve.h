/* dcbkit serve internals: the board (the prebuilt pages scrapes read; serve_board.c), the HTTP
 * server on libmicrohttpd (serve_http.c), the evidence sources (serve_source.c) and one
 * collection round: collect, evaluate the rules, render, publish (serve_round.c). */
#ifndef DCB_SERVE_H
#define DCB_SERVE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fabric.h"
#include "prom.h"
#include "rules.h"
#include "store.h"

/* ---- the board: what a scrape reads -------------------------------------------------------- */

/* An immutable page; scrapes hold a reference while libmicrohttpd sends it. */
struct serve_page {
    char *data;
    size_t len;
    unsigned refs;               /* under the board's mutex */
};

struct serve_board {
    pthread_mutex_t mu;
    struct serve_page *metrics;  /* NULL until the first round */
    int64_t last_ok_ns;          /* Unix time of the last good collection, 0 for none */
    int64_t stale_after_ns;      /* /healthz fails when the last good collection is older */
    char problem[256];           /* why the last round failed, "" when it did not */
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
    unsigned max_connections;    /* open connections at once; more are refused */
    unsigned timeout_s;          /* an idle or slow connection is closed after this */
    size_t max_request_bytes;    /* request line and headers; larger gets 431 */
    bool verbose;                /* libmicrohttpd's own messages on stderr */
};

struct serve_http;

int serve_http_start(struct serve_http **out, const struct serve_http_options *opt,
                     struct serve_board *board, struct dcb_err *err);
/* The port bound (what port 0 became). */
unsigned serve_http_port(const struct serve_http *h);
void serve_http_stop(struct serve_http *h);

/* ---- sources ------------------------------------------------------------------------------- */

struct serve_source {
    const char *name;            /* the source label: "local", "store", "replay" */
    struct dcb_store *st;        /* where its samples are: a ring, or the store it reads */
    struct dcb_store *record;    /* also written here (--store with a live source), or NULL */
    bool is_ring;                /* rules preload the window (the ring keeps arrival order) */
    /* Puts one round of samples into st; NULL when someone else writes st. */
    int (*collect)(struct serve_source *src, struct dcb_err *err);
    /* The evaluation time: now, or the newest data of a store. */
    int64_t (*now)(struct serve_source *src);
    void (*close)(struct serve_source *src);
    void *ctx;
    /* events put through serve_put_event, counted since start, kept in (device, ifname,
     * prio, kind) order */
    struct prom_event_count *events;
    size_t nevents, events_cap;
    bool events_nomem;
    /* a fabric's intended config, put in as snapshots on the first round (serve_intent.c) */
    const struct fabric *intent;
    int64_t intent_ns;
    bool intent_put;
};

struct serve_local_options {
    const char *sysfs_root;      /* "/sys" or a fixture tree */
    const char *proc_root;       /* NULL, or a folder holding net/dev */
    const char *ifname;          /* fnmatch pattern, NULL: all but lo */
    const char *maps_dir;        /* NULL: the installed maps */
    const char *device;          /* NULL: the host name */
    size_t ring_samples;         /* the ring's capacity */
    bool lldp;                   /* listen for LLDP partners (live /sys, CAP_NET_RAW) */
    bool verbose;                /* the source's notes on stderr */
};

int serve_source_local_open(struct serve_source *src, const struct serve_local_options *opt,
                            struct dcb_err *err);
struct serve_replay_options {
    const char *scenario;        /* a scenario file, or NULL for the built-in demo */
    const char *const *sets;     /* path=value overrides */
    size_t nsets;
    double speed;                /* simulated seconds per wall second (0: 1) */
    int64_t duration_ns;         /* 0: until stopped (a workload that does not repeat ends) */
    size_t ring_samples;
};

/* Runs the scenario in real time on a thread of its own until the source is closed. */
int serve_source_replay_open(struct serve_source *src, const struct serve_replay_options *opt,
                             struct dcb_err *err);
int serve_source_store_open(struct serve_source *src, const char *path, struct dcb_err *err);
/* What a live source collects goes to its ring and, when set, to the record store. */
int serve_put_sample(struct serve_source *src, const struct dcb_sample *s, struct dcb_err *err);
int serve_put_event(struct serve_source *src, const struct dcb_event *e, struct dcb_err *err);
int serve_put_config(struct serve_source *src, const struct store_config_row *c,
                     struct dcb_err *err);
/* The intent's "fabric" and "peer:fabric" snapshots, through serve_put_config. */
int serve_put_intent(struct serve_source *src, struct dcb_err *err);
/* --fabric FILE alone: a ring with the intent only (the configuration checks). */
int serve_source_fabric_open(struct serve_source *src, const char *path, size_t ring_samples,
                             struct dcb_err *err);
/* --fabric FILE with a live source: fab (owned by the caller) is its intent too. */
void serve_source_add_intent(struct serve_source *src, const struct fabric *fab);
/* Closes the record store too. */
void serve_source_close(struct serve_source *src);

/* ---- one round ------------------------------------------------------------------------------- */

struct serve_round {
    struct serve_source *src;
    const struct rule_set *rules;    /* NULL: no findings */
    const char *profile;
    int64_t history_ns;              /* how far back rules may look */
    int64_t stale_ns;                /* series older than this are not exported */
    struct prom_source_stat stats[2];    /* the source, then "rules" */
    struct dcb_sample *samples;
    size_t nsamples, samples_cap;
    struct finding *findings;
    size_t nfindings, findings_cap;
    struct prom_config_value *configs;
    size_t nconfigs, configs_cap;
    struct prom_topology *topology;
    size_t ntopology, topology_cap;
    struct prom_buf page;
    bool verbose;
};

void serve_round_init(struct serve_round *r, struct serve_source *src,
                      const struct rule_set *rules);
void serve_round_free(struct serve_round *r);
/* Collects, evaluates, renders and publishes; a failing source or rule run is counted in
 * dcbkit_scrape_errors_total and the page still goes out (with what there is). -1 only when the
 * page itself could not be built. */
int serve_round_run(struct serve_round *r, struct serve_board *board, struct dcb_err *err);

#endif
