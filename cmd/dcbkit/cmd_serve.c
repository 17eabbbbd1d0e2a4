/* dcbkit serve: a Prometheus exporter. A collection round runs every --interval on the main
 * thread (read the source, evaluate the rules, render the page); libmicrohttpd's thread answers
 * scrapes from the last published page only. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "serve.h"
#include "units.h"

#define HELP_SHOWN (-1)

struct serve_args {
    const char *listen;
    bool local, demo;
    const char *store, *replay, *fabric;
    const char *sets[32];
    int nsets;
    double speed;
    const char *sysfs_root, *proc_root, *ifname, *maps, *device;
    struct cli_rules rules;
    bool no_rules, no_lldp;
    int64_t interval_ns, history_ns, timeout_ns;
    long max_connections, ring_samples;
    uint64_t max_header;
    bool once;
};

static int parse_args(struct cli_ctx *ctx, int argc, char **argv, struct serve_args *a)
{
    enum { O_LISTEN = 256, O_LOCAL, O_STORE, O_SYSFS, O_PROC, O_IFNAME, O_MAPS, O_DEVICE,
           O_RULES, O_NO_RULES, O_PROFILE, O_INTERVAL, O_HISTORY, O_TIMEOUT, O_MAX_CONN,
           O_MAX_HEADER, O_RING, O_ONCE, O_NO_LLDP, O_REPLAY, O_DEMO, O_SET, O_SPEED, O_FABRIC };
    static const struct option longopts[] = {
        { "listen", required_argument, NULL, O_LISTEN },
        { "local", no_argument, NULL, O_LOCAL },
        { "store", required_argument, NULL, O_STORE },
        { "replay", required_argument, NULL, O_REPLAY },
        { "demo", no_argument, NULL, O_DEMO },
        { "fabric", required_argument, NULL, O_FABRIC },
        { "set", required_argument, NULL, O_SET },
        { "speed", required_argument, NULL, O_SPEED },
        { "sysfs-root", required_argument, NULL, O_SYSFS },
        { "proc-root", required_argument, NULL, O_PROC },
        { "ifname", required_argument, NULL, O_IFNAME },
        { "maps", required_argument, NULL, O_MAPS },
        { "device", required_argument, NULL, O_DEVICE },
        { "rules", required_argument, NULL, O_RULES },
        { "no-rules", no_argument, NULL, O_NO_RULES },
        { "profile", required_argument, NULL, O_PROFILE },
        { "interval", required_argument, NULL, O_INTERVAL },
        { "history", required_argument, NULL, O_HISTORY },
        { "timeout", required_argument, NULL, O_TIMEOUT },
        { "max-connections", required_argument, NULL, O_MAX_CONN },
        { "max-header-size", required_argument, NULL, O_MAX_HEADER },
        { "ring-samples", required_argument, NULL, O_RING },
        { "once", no_argument, NULL, O_ONCE },
        { "no-lldp", no_argument, NULL, O_NO_LLDP },
        CLI_COMMON_LONGOPTS,
        { NULL, 0, NULL, 0 },
    };
    a->listen = "127.0.0.1:9876";
    a->sysfs_root = "/sys";
    a->interval_ns = 5 * NS_PER_SEC;
    a->history_ns = 300 * NS_PER_SEC;
    a->timeout_ns = 10 * NS_PER_SEC;
    a->max_connections = 512;
    a->ring_samples = 1L << 20;
    a->max_header = 16384;
    struct dcb_err err;
    int c, rc;
    while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
        switch (c) {
        case O_LISTEN: a->listen = optarg; break;
        case O_LOCAL: a->local = true; break;
        case O_STORE: a->store = optarg; break;
        case O_REPLAY: a->replay = optarg; break;
        case O_DEMO: a->demo = true; break;
        case O_FABRIC: a->fabric = optarg; break;
        case O_SET:
            if (a->nsets == 32)
                return cli_usage_error(ctx, "at most 32 --set overrides");
            if (!strchr(optarg, '='))
                return cli_usage_error(ctx, "--set takes PATH=VALUE, not '%s'", optarg);
            a->sets[a->nsets++] = optarg;
            break;
        case O_SPEED: {
            char *end;
            a->speed = strtod(optarg, &end);
            if (end == optarg || *end || !(a->speed >= 0.001 && a->speed <= 1000))
                return cli_usage_error(ctx, "--speed takes a factor from 0.001 to 1000, not "
                                       "'%s'", optarg);
            break;
        }
        case O_SYSFS: a->sysfs_root = optarg; break;
        case O_PROC: a->proc_root = optarg; break;
        case O_IFNAME: a->ifname = optarg; break;
        case O_MAPS: a->maps = optarg; break;
        case O_DEVICE: a->device = optarg; break;
        case O_RULES:
            if ((rc = cli_rules_dir(ctx, &a->rules, optarg)))
                return rc;
            break;
        case O_NO_RULES: a->no_rules = true; break;
        case O_PROFILE:
            if ((rc = cli_rules_profile(ctx, &a->rules, optarg)))
                return rc;
            break;
        case O_INTERVAL:
        case O_HISTORY:
        case O_TIMEOUT: {
            int64_t ns;
            const char *flag = c == O_INTERVAL ? "--interval" : c == O_HISTORY ? "--history"
                                                                                : "--timeout";
            int64_t min = c == O_INTERVAL ? 10 * NS_PER_MS : NS_PER_SEC;
            if (dcb_parse_duration(optarg, &ns, &err) < 0)
                return cli_usage_error(ctx, "%s: %s", flag, err.msg);
            if (ns < min || ns > 86400 * NS_PER_SEC)
                return cli_usage_error(ctx, "%s: from %s to 24h, not '%s'", flag,
                                       c == O_INTERVAL ? "10ms" : "1s", optarg);
            *(c == O_INTERVAL ? &a->interval_ns : c == O_HISTORY ? &a->history_ns
                                                                 : &a->timeout_ns) = ns;
            break;
        }
        case O_MAX_CONN:
            if ((rc = cli_parse_long(ctx, "--max-connections", optarg, 1, 60000,
                                     &a->max_connections)))
                return rc;
            break;
        case O_RING:
            if ((rc = cli_parse_long(ctx, "--ring-samples", optarg, 1024, 1L << 28,
                                     &a->ring_samples)))
                return rc;
            break;
        case O_MAX_HEADER:
            if (dcb_parse_bytes(optarg, &a->max_header, &err) < 0)
                return cli_usage_error(ctx, "--max-header-size: %s", err.msg);
            if (a->max_header < 4096 || a->max_header > (1u << 24))
                return cli_usage_error(ctx, "--max-header-size: from 4KiB to 16MiB, not '%s'",
                                       optarg);
            break;
        case O_ONCE: a->once = true; break;
        case O_NO_LLDP: a->no_lldp = true; break;
        default:
            rc = cli_common_option(ctx, c, argv);
            if (rc == 0)
                return HELP_SHOWN;
            if (rc > 0)
                return rc;
        }
    }
    if (optind < argc)
        return cli_usage_error(ctx, "unexpected argument '%s'", argv[optind]);
    if (ctx->format == OUT_JSON)
        return cli_usage_error(ctx, "serve writes the Prometheus text format; -T json does "
                               "not apply");
    int live = a->local + !!a->replay + a->demo;
    if (live > 1 || (!live && !a->store && !a->fabric))
        return cli_usage_error(ctx, "give one source: --local, --replay SCENARIO, --demo, "
                               "--fabric FILE, or --store DB alone");
    if (a->fabric && (a->replay || a->demo))
        return cli_usage_error(ctx, "--fabric: a scenario brings its own fabric");
    if (a->fabric && a->store && !live)
        return cli_usage_error(ctx, "--fabric with --store: give --local too (a store serve "
                               "only reads cannot take the fabric's intent)");
    if ((a->nsets || a->speed) && !a->replay && !a->demo)
        return cli_usage_error(ctx, "--set and --speed go with --replay or --demo");
    if (!a->local && (strcmp(a->sysfs_root, "/sys") != 0 || a->proc_root || a->ifname ||
                      a->maps || a->device || a->no_lldp))
        return cli_usage_error(ctx, "--sysfs-root, --proc-root, --ifname, --maps, --device and "
                               "--no-lldp go with --local");
    return 0;
}

/* Runs rounds until SIGINT or SIGTERM; the signals are blocked in every thread and taken here. */
static int serve_loop(struct serve_round *round, struct serve_board *board, int64_t interval_ns,
                      const sigset_t *stop)
{
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (;;) {
        struct dcb_err err;
        if (serve_round_run(round, board, &err) < 0)
            fprintf(stderr, "dcbkit: serve: %s\n", err.msg);
        int64_t n = (int64_t)next.tv_sec * NS_PER_SEC + next.tv_nsec + interval_ns;
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        int64_t now_ns = (int64_t)now.tv_sec * NS_PER_SEC + now.tv_nsec;
        if (n < now_ns)               /* a round overran: skip, do not catch up in a burst */
            n = now_ns + interval_ns - (now_ns - n) % interval_ns;
        next = (struct timespec){ n / NS_PER_SEC, n % NS_PER_SEC };
        for (;;) {
            int64_t wait = n - now_ns;
            if (wait <= 0)
                break;
            struct timespec ts = { wait / NS_PER_SEC, wait % NS_PER_SEC };
            int sig = sigtimedwait(stop, NULL, &ts);
            if (sig > 0)
                return sig;
            clock_gettime(CLOCK_MONOTONIC, &now);
            now_ns = (int64_t)now.tv_sec * NS_PER_SEC + now.tv_nsec;
        }
    }
}

static int serve_run(struct cli_ctx *ctx, int argc, char **argv)
{
    struct serve_args a = { 0 };
    int rc = parse_args(ctx, argc, argv, &a);
    if (rc)
        return rc == HELP_SHOWN ? 0 : rc;
    struct dcb_err err;
    struct serve_http_options ho = {
        .max_connections = (unsigned)a.max_connections,
        .timeout_s = (unsigned)((a.timeout_ns + NS_PER_SEC - 1) / NS_PER_SEC),
        .max_request_bytes = (size_t)a.max_header,
        .verbose = ctx->verbosity > 0,
    };
    if (prom_parse_listen(a.listen, &ho.listen, &err) < 0)
        return cli_usage_error(ctx, "--listen: %s", err.msg);

    struct rule_set rs;
    rule_set_init(&rs);
    if (!a.no_rules && rule_set_load_catalog(&rs, a.rules.dirs, a.rules.ndirs, &err) < 0) {
        rule_set_free(&rs);
        return cli_fail(1, "serve", "%s", err.msg);
    }
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    if (!a.once)            /* before any thread starts: the replay's, libmicrohttpd's */
        pthread_sigmask(SIG_BLOCK, &stop, NULL);
    struct fabric fab;
    fabric_init(&fab);
    struct serve_source src;
    const char *what = a.local ? a.sysfs_root : a.replay ? a.replay : a.demo ? "demo" : a.store;
    if (a.local) {
        struct serve_local_options lo = { a.sysfs_root, a.proc_root, a.ifname, a.maps, a.device,
                                          (size_t)a.ring_samples, !a.no_lldp,
                                          ctx->verbosity > 0 };
        rc = serve_source_local_open(&src, &lo, &err);
        if (rc == 0 && a.fabric) {
            if (fabric_load_file(&fab, a.fabric, &err) < 0) {
                serve_source_close(&src);
                what = a.fabric;
                rc = -1;
            } else {
                serve_source_add_intent(&src, &fab);
            }
        }
    } else if (a.fabric) {
        rc = serve_source_fabric_open(&src, a.fabric, (size_t)a.ring_samples, &err);
        what = a.fabric;
    } else if (a.store && !a.replay && !a.demo) {
        rc = serve_source_store_open(&src, a.store, &err);
    } else {
        struct serve_replay_options ro = { a.replay, a.sets, (size_t)a.nsets, a.speed, 0,
                                           (size_t)a.ring_samples };
        rc = serve_source_replay_open(&src, &ro, &err);
    }
    if (rc == 0 && a.store && (a.local || a.replay || a.demo)) {
        struct store_options so = { .path = a.store };
        rc = store_open_sqlite(&src.record, &so, &err);
        if (rc < 0) {
            serve_source_close(&src);
            what = a.store;
        }
    }
    if (rc < 0) {
        rule_set_free(&rs);
        fabric_free(&fab);
        return cli_fail(1, what, "%s", err.msg);
    }
    struct serve_round round;
    serve_round_init(&round, &src, a.no_rules ? NULL : &rs);
    round.profile = a.rules.profile;
    round.history_ns = a.history_ns;
    round.verbose = ctx->verbosity > 0;
    if (round.stale_ns < 3 * a.interval_ns)
        round.stale_ns = 3 * a.interval_ns;
    struct serve_board board;
    serve_board_init(&board, 3 * a.interval_ns + 5 * NS_PER_SEC);

    int status = 0;
    if (a.once) {
        if (a.replay || a.demo) {     /* let the replay run one interval first */
            struct timespec ts = { a.interval_ns / NS_PER_SEC, a.interval_ns % NS_PER_SEC };
            nanosleep(&ts, NULL);
        }
        if (serve_round_run(&round, &board, &err) < 0) {
            status = cli_fail(1, "serve", "%s", err.msg);
        } else {
            struct serve_page *p = serve_board_acquire(&board);
            if (p && (fwrite(p->data, 1, p->len, stdout) != p->len || fflush(stdout) != 0))
                status = cli_fail(1, "writing output", "%s", "short write");
            serve_board_release(&board, p);
            char why[512];
            if (!status && serve_board_health(&board, round.stats[0].last_ok_ns, why,
                                              sizeof(why)) != 200)
                status = cli_fail(1, "serve", "%s", why);
        }
    } else {
        struct serve_http *http = NULL;
        if (serve_http_start(&http, &ho, &board, &err) < 0) {
            status = cli_fail(1, "serve", "%s", err.msg);
        } else {
            char where[96];
            snprintf(where, sizeof(where), "%s", ho.listen.text);
            char *colon = strrchr(where, ':');
            if (colon)
                snprintf(colon + 1, sizeof(where) - (size_t)(colon + 1 - where), "%u",
                         serve_http_port(http));
            if (!ho.listen.loopback)
                fprintf(stderr, "dcbkit: serve: listening on %s, which other hosts can reach; "
                        "/metrics has no authentication (put it behind a firewall or a TLS "
                        "proxy)\n", where);
            if (ctx->verbosity >= 0)
                fprintf(stderr, "dcbkit: serve: listening on http://%s/metrics (source %s, "
                        "every %.3g s, %zu rules)\n", where, src.name,
                        (double)a.interval_ns / 1e9, a.no_rules ? (size_t)0 : rs.n);
            serve_loop(&round, &board, a.interval_ns, &stop);
            serve_http_stop(http);
        }
    }
    serve_board_free(&board);
    serve_round_free(&round);
    serve_source_close(&src);
    fabric_free(&fab);
    rule_set_free(&rs);
    return status;
}

static const struct cli_option_doc serve_options[] = {
    { "--listen ADDRESS:PORT", "Where to listen (default 127.0.0.1:9876, loopback only). Any "
      "other address must be given here, and serve says on stderr that it is reachable from "
      "other hosts. IPv6 as [::1]:9876; port 0 picks a free port (printed on stderr)." },
    { "--local", "Read this host every interval: NIC counters, RDMA counters, DCB config." },
    { "--replay SCENARIO", "Run a replay scenario (docs/scenario.md) in real time and export "
      "the simulated fabric: every switch and host port." },
    { "--demo", "The built-in replay demo (the one dcbtop --demo shows)." },
    { "--fabric FILE", "The fabric file's intended QoS config as config snapshots (source "
      "fabric, and peer:fabric for each link partner): alone, the configuration checks over the "
      "intent; with --local, next to what this host measures, so the checks compare both. "
      "Collecting the fabric's switches over gNMI waits for the gNMI collector." },
    { "--set PATH=VALUE", "--replay, --demo: override a scenario key or config path "
      "(repeatable)." },
    { "--speed FACTOR", "--replay, --demo: simulated seconds per wall second (default 1)." },
    { "--store DB", "Alone: export the newest values of a store that dcbkit collect --store "
      "writes, and evaluate the rules over its history. With --local, --replay or --demo: also "
      "record what is collected into DB (samples, events, config snapshots), committed every "
      "round, so dcbkit diagnose and report can read the same run later." },
    { "--interval DURATION", "Time between collection rounds (default 5s). Scrapes read the "
      "page the last round built, so they cost no collection." },
    { "--rules DIR", "Also load the *.rules files of DIR (repeatable)." },
    { "--no-rules", "No dcbkit_finding series (no rule catalog is loaded)." },
    { "--profile pfc-only", "Skip the rules that expect DCQCN." },
    { "--history DURATION", "How far back rules look (default 5m)." },
    { "--sysfs-root DIR, --proc-root DIR", "--local: read a sysfs tree (and a folder holding "
      "net/dev) saved elsewhere." },
    { "--ifname PATTERN", "--local: interfaces to read, a shell pattern (default: all but lo)." },
    { "--device NAME", "--local: the device label (default: the host name)." },
    { "--no-lldp", "--local: do not listen for what link partners advertise (LLDP/DCBX needs "
      "CAP_NET_RAW; without it serve says so once and goes on)." },
    { "--maps DIR", "--local: counter maps (default: $DCBKIT_MAPS or the installed maps)." },
    { "--ring-samples N", "--local: samples the in-memory history keeps (default 1048576, 40 "
      "bytes each); rules see at most this much history." },
    { "--max-connections N", "Open connections at once (default 512); more are refused." },
    { "--timeout DURATION", "Close a connection idle or stalled this long (default 10s)." },
    { "--max-header-size SIZE", "Largest request line plus headers (default 16KiB); larger "
      "requests get 431." },
    { "--once", "Run one round, print the page on stdout and exit (for promtool, or a "
      "node_exporter textfile)." },
    CLI_COMMON_OPTION_DOCS,
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
    { "dcbkit serve --replay storm.json --store storm.db",
      "Export a fault scenario in real time and keep its history for dcbkit report." },
    { NULL, NULL },
};

const struct cli_command cmd_serve = {
    .name = "serve",
    .summary = "export the canonical metrics and active findings to Prometheus",
    .synopsis = "dcbkit serve [--local | --replay SCENARIO | --demo] [--fabric FILE] [--store DB] "
                "[--listen ADDRESS:PORT] [--interval D] [--rules DIR | --no-rules] [--once]",
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
        "dcbkit_scrape_errors_total{source} counts failed collections (source is the evidence "
        "source, or rules); dcbkit_source_series, dcbkit_collect_duration_seconds and "
        "dcbkit_last_collect_timestamp_seconds tell how the last round went. A series whose "
        "newest sample is older than 5 minutes (or three intervals) is no longer exported.\n\n"
        "Collection runs on its own interval; a scrape only reads the page the last round "
        "built, so any number of Prometheus servers may scrape as often as they like. /healthz "
        "answers 200 while the last good collection is recent (three intervals plus 5 s) and "
        "503 with the reason otherwise.\n\n"
        "The HTTP server is libmicrohttpd: one thread serves every connection; connections are "
        "bounded (--max-connections), idle ones closed (--timeout), request headers capped "
        "(--max-header-size); only GET and HEAD are answered. There is no TLS or "
        "authentication: serve binds to loopback unless told otherwise.",
    .options = serve_options,
    .examples = serve_examples,
    .json_doc = NULL,
    .run = serve_run,
};
