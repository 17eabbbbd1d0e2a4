/* dcbkit serve: a Prometheus exporter. The command parses (args.c), opens the source the
 * options name (feed.c), then runs a collection round every --interval on the main thread (tick
 * the source, evaluate the rules, render the page; round.c); libmicrohttpd's thread answers
 * scrapes from the last published page only. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "log.h"
#include "serve.h"
#include "units.h"

/* Runs rounds until SIGINT or SIGTERM; the signals are blocked in every thread and taken here. */
static int serve_loop(struct serve_round *round, struct serve_board *board, int64_t interval_ns,
                      const sigset_t *stop)
{
    struct dcb_ticker ticker;
    dcb_ticker_start(&ticker, interval_ns);
    for (;;) {
        struct dcb_err err;
        if (serve_round_run(round, board, &err) < 0)
            dcb_cmd_error("serve", "%s", err.msg);
        int64_t now = dcb_monotonic_ns();
        for (int64_t due = dcb_ticker_next(&ticker, now); now < due; now = dcb_monotonic_ns()) {
            struct timespec wait = { (due - now) / NS_PER_SEC, (due - now) % NS_PER_SEC };
            int sig = sigtimedwait(stop, NULL, &wait);
            if (sig > 0)
                return sig;
        }
    }
}

static int http_options(struct cli_ctx *ctx, const struct serve_args *a,
                        struct serve_http_options *ho)
{
    struct dcb_err err;
    *ho = (struct serve_http_options){
        .max_connections = (unsigned)a->max_connections,
        .timeout_s = (unsigned)((a->timeout_ns + NS_PER_SEC - 1) / NS_PER_SEC),
        .deadline_s = (unsigned)((a->timeout_ns + NS_PER_SEC - 1) / NS_PER_SEC),
        .max_request_bytes = (size_t)a->max_header,
        .verbose = ctx->verbosity > 0,
    };
    if (prom_parse_listen(a->listen, &ho->listen, &err) < 0)
        return cli_usage_error(ctx, "--listen: %s", err.msg);
    return 0;
}

/* --once: one round on stdout. Every source is read once before the round, so that the page
 * carries what a source gives from its second read on (this host's config); a replay or a
 * switch, which streams, runs one interval in between. */
static int run_once(struct serve_round *round, struct serve_board *board,
                    const struct serve_args *a)
{
    struct dcb_err err;
    int64_t data_ns;
    serve_feed_tick(round->feed, &data_ns, &err);
    if (a->src.named & (SOURCE_G_REPLAY | SOURCE_G_GNMI)) {
        dcb_sleep_ns(a->interval_ns, NULL);
    }
    if (serve_round_run(round, board, &err) < 0)
        return cli_fail(1, "serve", "%s", err.msg);
    int status = 0;
    struct serve_page *p = serve_board_acquire(board);
    if (p && (fwrite(p->data, 1, p->len, stdout) != p->len || fflush(stdout) != 0))
        status = cli_fail(1, "writing output", "%s", "short write");
    serve_board_release(board, p);
    char why[512];
    if (!status && serve_board_health(board, round->stats[0].last_ok_ns, why, sizeof(why)) != 200)
        status = cli_fail(1, "serve", "%s", why);
    return status;
}

/* Listens and runs rounds until SIGINT or SIGTERM. */
static int run_listening(struct cli_ctx *ctx, struct serve_round *round, struct serve_board *board,
                         const struct serve_args *a, const sigset_t *stop)
{
    struct serve_http_options ho;
    int rc = http_options(ctx, a, &ho);
    if (rc)
        return rc;
    struct dcb_err err;
    struct serve_http *http = NULL;
    if (serve_http_start(&http, &ho, board, &err) < 0)
        return cli_fail(1, "serve", "%s", err.msg);
    cli_drop_privileges(ctx, &a->src); /* listening, the store and the sources open */
    char where[96];
    snprintf(where, sizeof(where), "%s", ho.listen.text);
    char *colon = strrchr(where, ':');
    if (colon)
        snprintf(colon + 1, sizeof(where) - (size_t)(colon + 1 - where), "%u",
                 serve_http_port(http));
    if (!ho.listen.loopback)
        out_term(stderr,
                 "dcbkit: serve: listening on %s, which other hosts can reach; "
                 "/metrics has no authentication (put it behind a firewall or a TLS proxy)\n",
                 where);
    if (ctx->verbosity >= 0)
        out_term(stderr,
                 "dcbkit: serve: listening on http://%s/metrics (source %s, every "
                 "%.3g s, %zu rules)\n",
                 where, round->feed->label, (double)a->interval_ns / 1e9,
                 round->rules ? round->rules->n : (size_t)0);
    serve_loop(round, board, a->interval_ns, stop);
    serve_http_stop(http);
    return 0;
}

static int load_rules(const struct serve_args *a, struct rule_set *rs)
{
    struct dcb_err err;
    rule_set_init(rs);
    if (!a->no_rules && rule_set_load_catalog(rs, a->rules.dirs, a->rules.ndirs, &err) < 0) {
        rule_set_free(rs);
        return cli_fail(1, "serve", "%s", err.msg);
    }
    return 0;
}

static int open_feed(struct serve_feed *feed, const struct serve_args *a)
{
    struct dcb_err err;
    struct serve_feed_options fo = { &a->src, a->record, (size_t)a->ring_samples, a->interval_ns };
    if (serve_feed_open(feed, &fo, &err) < 0)
        return cli_fail(1, NULL, "%s", err.msg);
    return 0;
}

static int serve_run(struct cli_ctx *ctx, int argc, char **argv)
{
    static struct serve_args a;
    static struct serve_feed feed;
    int rc = serve_parse_args(ctx, argc, argv, &a);
    if (rc)
        return rc == SERVE_HELP_SHOWN ? 0 : rc;
    struct serve_http_options ho;
    struct rule_set rs;
    if ((rc = http_options(ctx, &a, &ho)) || (rc = load_rules(&a, &rs)))
        return rc;
    if ((rc = open_feed(&feed, &a))) {
        rule_set_free(&rs);
        return rc;
    }
    /* after a source's child process started (it keeps SIGTERM to stop on), before
     * libmicrohttpd's thread does: the loop takes the signals */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    if (!a.once)
        pthread_sigmask(SIG_BLOCK, &stop, NULL);
    struct serve_round round;
    serve_round_init(&round, &feed, a.no_rules ? NULL : &rs);
    round.profile = a.rules.profile;
    round.history_ns = a.history_ns;
    round.verbose = ctx->verbosity > 0;
    if (round.stale_ns < 3 * a.interval_ns)
        round.stale_ns = 3 * a.interval_ns;
    struct serve_board board;
    serve_board_init(&board, 3 * a.interval_ns + 5 * NS_PER_SEC);
    int status = a.once ? run_once(&round, &board, &a)
                        : run_listening(ctx, &round, &board, &a, &stop);
    serve_board_free(&board);
    serve_round_free(&round);
    serve_feed_close(&feed);
    rule_set_free(&rs);
    return status;
}

static const struct cli_option_doc serve_options[] = {
    { "--listen ADDRESS:PORT",
      "Where to listen (default 127.0.0.1:9876, loopback only). Any "
      "other address must be given here, and serve says on stderr that it is reachable from "
      "other hosts. IPv6 as [::1]:9876; port 0 picks a free port (printed on stderr)." },
    { "--store DB",
      "Alone: export the newest values of a store that dcbkit collect --store "
      "writes, and evaluate the rules over its history. With --local, --gnmi, --replay or "
      "--demo: also record what is collected into DB (samples, events, config snapshots), "
      "committed every round, so dcbkit diagnose and report can read the same run later." },
    { "--at TIME", "Refused: serve exports a store's newest values." },
    { "--window DURATION", "Refused: --history says how far back the rules look." },
    { "--speed FACTOR", "The older name of --replay-speed." },
    { "--pcap FILE",
      "Refused: serve exports a live fabric, and a finished capture has no "
      "'now'. Record it into a store (dcbkit collect --pcap FILE --store DB) and serve the "
      "store." },
    { "--prometheus URL", "Refused: Prometheus already holds what serve would export again; "
                          "use federation (/federate) instead." },
    { "--interval DURATION", "Time between collection rounds (default 5s). Scrapes read the "
                             "page the last round built, so they cost no collection." },
    { "--rules DIR", "Also load the *.rules files of DIR (repeatable)." },
    { "--no-rules", "No dcbkit_finding series (no rule catalog is loaded)." },
    { "--profile pfc-only", "Skip the rules that expect DCQCN." },
    { "--history DURATION", "How far back rules look (default 5m)." },
    { "--ring-samples N", "Samples the in-memory history keeps (default 1048576, 40 bytes "
                          "each); rules see at most this much history." },
    { "--max-connections N",
      "Open connections at once (default 512). A connection past the "
      "cap closes the oldest one not being answered, so a scraper always gets in." },
    { "--timeout DURATION",
      "A request's line, headers and body must all arrive within this "
      "of its start, however steadily they drip, and an idle connection is closed after it "
      "(default 10s). (Each gNMI call keeps its 10 s deadline.)" },
    { "--max-header-size SIZE", "Largest request line plus headers (default 16KiB); larger "
                                "requests get 431." },
    { "--once", "Run one round, print the page on stdout and exit (for promtool, or a "
                "node_exporter textfile)." },
    { NULL, NULL },
};

static const struct cli_example serve_examples[] = {
    { "dcbkit serve --local", "Export this host on 127.0.0.1:9876/metrics." },
    { "dcbkit serve --local --listen 10.0.0.5:9876 --interval 10s",
      "Export on a management address for a central Prometheus." },
    { "dcbkit collect --store fabric.db & dcbkit serve --store fabric.db",
      "Keep history in a store and export its newest values." },
    { "dcbkit serve --local --once | promtool check metrics", "Check the page." },
    { "dcbkit serve --demo", "A simulated fabric with a slow receiver, for dashboards." },
    { "dcbkit serve --gnmi leaf1:8080 --tls-ca ca.pem",
      "Export a switch read over gNMI: its "
      "counters, its QoS config and the findings." },
    { "dcbkit serve --fabric fabric.json --gnmi all",
      "Export every switch of the fabric that is reached over gNMI, next to its intent." },
    { "dcbkit serve --replay storm.json --store storm.db",
      "Export a fault scenario in real time and keep its history for dcbkit report." },
    { NULL, NULL },
};

static const struct cli_exit serve_exits[] =
    CLI_EXITS("SIGINT or SIGTERM stopped it; --once printed the page",
              "it could not listen; the source, the store or the rules could not "
              "be opened; --once's collection failed or its page could not be written");

const struct cli_command cmd_serve = {
    .name = "serve",
    .summary = "export the canonical metrics and active findings to Prometheus",
    .synopsis = "dcbkit serve [--local] [--gnmi HOST:PORT | --gnmi all] [--fabric FILE] "
                "[--store DB] [--listen ADDRESS:PORT] [--interval D] [--rules DIR | --no-rules] "
                "[--once]\n"
                "dcbkit serve --replay SCENARIO | --demo [--store DB] [options]\n"
                "dcbkit serve --store DB [options]",
    .description =
        "serve answers /metrics in the Prometheus text exposition format (0.0.4) and /healthz. "
        "Every canonical metric (dcbkit metrics lists them) is named dcbkit_<metric>_total for "
        "counters and dcbkit_<metric> for gauges, in base units (pfc.rx_pause_us becomes "
        "dcbkit_pfc_rx_pause_seconds_total), with the labels device, ifname, and prio or queue "
        "where they apply. Counters are the raw readings: Prometheus' rate() handles resets.\n\n"
        "Each round also evaluates the rule catalog over the source's recent history and "
        "exports every active finding as dcbkit_finding{rule,severity,device,ifname,prio} 1. "
        "dcbkit_events_total{device,ifname,prio,kind} counts the events the source reported "
        "(pfc_xoff, pause_storm, watchdog, counter_reset ...), and "
        "dcbkit_qos_config{device,ifname,source,field} carries every known QoS config field as "
        "dcbkit stores it, and dcbkit_topology_info 1 (labels device, ifname, role, "
        "peer_device, peer_ifname, peer_role) where each port sits (from the fabric file), so "
        "dcbkit diagnose and "
        "report --prometheus read config, topology and event counts back. "
        "dcbkit_source_missing_path{device,path} 1 names each path of the gNMI map a device "
        "does not serve (the rules that need what it gives stay undecided). "
        "dcbkit_scrape_errors_total{source} counts failed collections (source is the evidence "
        "source, or rules); dcbkit_source_series, dcbkit_collect_duration_seconds and "
        "dcbkit_last_collect_timestamp_seconds tell how the last round went. A series whose "
        "newest sample is older than 5 minutes (or three intervals) is no longer exported.\n\n"
        "Collection runs on its own interval; a scrape only reads the page the last round "
        "built, so any number of Prometheus servers may scrape as often as they like; a scraper "
        "that sends Accept-Encoding: gzip (Prometheus does) gets the page gzipped, compressed "
        "once a round (the demo's 190 KB page is about 11 KB). /healthz "
        "answers 200 while the last good collection is recent (three intervals plus 5 s) and "
        "503 with the reason otherwise.\n\n"
        "The HTTP server is libmicrohttpd: one thread serves every connection; connections are "
        "capped (--max-connections: a newcomer closes the oldest connection not being "
        "answered), each request must arrive whole within --timeout of its start (a client "
        "dripping bytes cannot hold a connection), idle ones are closed, request headers capped "
        "(--max-header-size); only GET and HEAD are answered. There is no TLS or "
        "authentication: serve binds to loopback unless told otherwise; to reach it from "
        "elsewhere, bind a management address and front it with a proxy that does TLS and "
        "authentication (nginx, or Prometheus' exporter-toolkit conventions in one).",
    .options = serve_options,
    .examples = serve_examples,
    .json_doc = NULL,
    .source_groups = SERVE_SOURCE_GROUPS,
    .run = serve_run,
    .exits = serve_exits,
};
