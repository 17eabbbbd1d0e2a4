/* dcbkit replay: run a scenario through the simulator (rules/replay): a summary, a comparison
 * of two configurations, samples into a store or as a stream, a live source in real time. */
#include <inttypes.h>
#include <malloc.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture_workload.h"
#include "cli.h"
#include "clock.h"
#include "log.h"
#include "out_event.h"
#include "progress.h"
#include "qos_json.h"
#include "replay_cmd.h"
#include "sink_store.h"
#include "store.h"

#define MAX_SETS 64

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
    (void)sig;
    stop_flag = 1;
}

struct replay_sink {
    struct dcb_store *store;
    FILE *stream; /* JSON Lines of samples and events, or NULL */
    struct replay_plot_data *plot;
    uint64_t samples, events, store_errors;
    int64_t last_ts;              /* --stream: flushed when time moves on */
    int64_t newest;               /* the newest sample's time */
    struct dcb_progress progress; /* not with --realtime: that runs as long as it says */
    int64_t t0;                   /* the times' origin */
    struct dcb_err store_err;
    struct dcb_out out;
    const char *prefix; /* --device-prefix, or NULL */
};

/* name with the --device-prefix in front; the caller checked that every name fits */
static void prefixed(char *dst, size_t len, const char *prefix, const char *name)
{
    size_t n = prefix ? strlen(prefix) : 0;
    if (n >= len)
        n = len - 1;
    if (n)
        memcpy(dst, prefix, n);
    size_t m = strnlen(name, len - 1 - n);
    memcpy(dst + n, name, m);
    dst[n + m] = '\0';
}

static void show_progress(struct replay_sink *k, const struct dcb_sample *s)
{
    if (dcb_progress_due(&k->progress))
        dcb_progress_show(&k->progress,
                          "replay: %.3f s simulated, %" PRIu64 " samples, %" PRIu64 " events",
                          (double)(s->time_ns - k->t0) / 1e9, k->samples, k->events);
}

static void sink_sample(void *arg, const struct dcb_sample *s)
{
    struct replay_sink *k = arg;
    struct dcb_sample renamed;
    if (k->prefix) {
        renamed = *s;
        prefixed(renamed.device, sizeof(renamed.device), k->prefix, s->device);
        s = &renamed;
    }
    if (k->progress.on && (k->samples & 1023) == 0)
        show_progress(k, s);
    k->samples++;
    if (s->time_ns > k->newest)
        k->newest = s->time_ns;
    if (k->store && store_put_sample(k->store, s, &k->store_err) < 0)
        k->store_errors++;
    if (k->stream) {
        struct dcb_out *o = &k->out;
        if (s->time_ns != k->last_ts) {
            fflush(k->stream); /* a reader sees each instant as soon as it is complete */
            k->last_ts = s->time_ns;
        }
        out_obj_open(o, NULL);
        out_i64(o, "ts", NULL, s->time_ns);
        out_str(o, "device", NULL, s->device);
        out_str(o, "ifname", NULL, s->ifname);
        out_str(o, "metric", NULL, metric_info(s->metric)->name);
        out_i64(o, "prio", NULL, s->prio);
        out_i64(o, "queue", NULL, s->queue);
        if (metric_info(s->metric)->kind == METRIC_COUNTER)
            out_u64(o, "value", NULL, s->value.counter);
        else
            out_dbl(o, "value", NULL, s->value.gauge);
        out_obj_close(o);
    }
}

/* A DCBX exchange names the peer device in its details ({"peer":"switch1",...}): prefixed too,
 * so that the report finds the neighbour among the devices written. */
static void prefix_peer(struct dcb_event *e, const char *prefix)
{
    static const char key[] = "{\"peer\":\"";
    size_t k = sizeof(key) - 1, n = strlen(prefix), len = strlen(e->details);
    if (e->kind != EVENT_DCBX_SEEN || strncmp(e->details, key, k) != 0 ||
        len + n >= sizeof(e->details))
        return;
    memmove(e->details + k + n, e->details + k, len - k + 1);
    memcpy(e->details + k, prefix, n);
}

static void sink_event(void *arg, const struct dcb_event *e)
{
    struct replay_sink *k = arg;
    struct dcb_event renamed;
    if (k->prefix) {
        renamed = *e;
        prefixed(renamed.device, sizeof(renamed.device), k->prefix, e->device);
        prefix_peer(&renamed, k->prefix);
        e = &renamed;
    }
    k->events++;
    if (k->plot)
        replay_plot_event(k->plot, e);
    if (k->store && store_put_event(k->store, e, &k->store_err) < 0)
        k->store_errors++;
    if (k->stream) {
        static const struct out_event_form form = { .stream = true };
        out_event(&k->out, e, &form);
    }
}

static void sink_series(void *arg, const struct replay_series_point *p)
{
    struct replay_sink *k = arg;
    if (k->plot)
        replay_plot_series(k->plot, p);
}

/* The scenario's config goes in with its samples, so rules can read both from the store. */
static int store_configs_of(struct dcb_store *st, const struct fabric *f, const char *prefix,
                            int64_t t, struct dcb_err *err)
{
    struct sink_store ss = { .st = st };
    struct dcb_sink sink = sink_store_sink(&ss);
    source_replay_put_config(f, prefix, t, &sink);
    return sink_store_take_error(&ss, err);
}

struct replay_args {
    const char *file;
    bool demo;
    const char *sets[MAX_SETS];
    size_t nsets;
    const char *compare[MAX_SETS];
    size_t ncompare;
    const char *maps[MAX_SETS];
    size_t nmaps;
    int64_t duration_ns, warmup_ns;
    bool realtime, stream;
    double speed;
    const char *store_path, *plot_path, *capture;
    const char *prefix;
};

/* One line on stderr for each config path the scenario sets and the engine does not model. */
static void warn_unmodelled(const struct cli_ctx *ctx, const struct scenario *sc)
{
    struct scenario_unmodelled_path u[16];
    size_t n = scenario_unmodelled(sc, u, sizeof(u) / sizeof(u[0]));
    for (size_t i = 0; i < n && ctx->verbosity >= 0; i++)
        fprintf(stderr,
                "dcbkit: replay: %s: warning: %s is set (%zu interfaces) but not "
                "modelled: the run ignores it\n",
                sc->source, u[i].path, u[i].ifaces);
}

static int load(const struct replay_args *a, const char *const *sets, size_t nsets,
                struct scenario *sc, struct dcb_err *err)
{
    int rc = a->demo ? scenario_demo(sc, sets, nsets, err)
                     : scenario_load_file(sc, a->file, sets, nsets, err);
    if (rc < 0 || !a->capture)
        return rc;
    struct workload w;
    workload_init(&w);
    rc = capture_workload_read(a->capture, &sc->fabric, a->maps, a->nmaps, &w, err);
    if (rc == 0)
        rc = scenario_set_workload(sc, &w, err);
    workload_free(&w);
    if (rc < 0)
        scenario_free(sc);
    return rc;
}

static int check_prefix(const struct replay_args *a, const struct scenario *sc)
{
    for (size_t i = 0; a->prefix && i < sc->fabric.ndevices; i++)
        if (strlen(a->prefix) + strlen(sc->fabric.devices[i].name) >= DCB_DEVICE_MAX)
            return cli_fail(1, "replay", "--device-prefix: '%s%s' is longer than %d characters",
                            a->prefix, sc->fabric.devices[i].name, DCB_DEVICE_MAX - 1);
    return 0;
}

/* --warmup leaves something to measure: it is shorter than a finite run. */
static int check_warmup(const struct replay_args *a, const struct scenario *sc)
{
    int64_t run_ns = a->duration_ns        ? a->duration_ns
                     : sc->workload.repeat ? SCENARIO_FOREVER
                                           : sc->options.duration_ns;
    if (a->warmup_ns > 0 && run_ns != SCENARIO_FOREVER && a->warmup_ns >= run_ns)
        return cli_fail(1, "replay", "--warmup %.3f ms: not shorter than the run (%.3f ms)",
                        (double)a->warmup_ns / 1e6, (double)run_ns / 1e6);
    return 0;
}

/* --store: the run goes after what the store holds, with the scenario's config first. */
static int open_record(const struct replay_args *a, const struct scenario *sc,
                       struct replay_sink *sink, int64_t *t0, int64_t *run_id)
{
    struct store_options so = { .path = a->store_path };
    struct store_info info;
    struct dcb_err err;
    if (store_open_sqlite(&sink->store, &so, &err) < 0 || store_info(sink->store, &info, &err) < 0)
        goto fail;
    /* a run never overlaps what the store holds: it starts after the newest sample */
    if (info.last_ns >= *t0)
        *t0 = info.last_ns + 1000000;
    if (store_begin_run(sink->store, "replay", sc->source, *t0, run_id, &err) < 0 ||
        store_configs_of(sink->store, &sc->fabric, a->prefix, *t0, &err) < 0)
        goto fail;
    return 0;
fail:
    if (sink->store)
        store_close(sink->store, NULL);
    sink->store = NULL;
    return cli_fail(1, "replay", "store %s: %s", a->store_path, err.msg);
}

static int close_record(const struct replay_args *a, struct replay_sink *sink, int64_t run_id,
                        int status)
{
    struct dcb_err cerr;
    if (sink->store_errors)
        status = cli_fail(1, "replay", "store %s: %s", a->store_path, sink->store_err.msg);
    int64_t end = dcb_realtime_ns();
    if (sink->newest > end)
        end = sink->newest;
    if (store_end_run(sink->store, run_id, end, &cerr) < 0 && !status)
        status = cli_fail(1, "replay", "store %s: %s", a->store_path, cerr.msg);
    if (store_close(sink->store, &cerr) < 0 && !status)
        status = cli_fail(1, "replay", "store %s: %s", a->store_path, cerr.msg);
    return status;
}

static void setup_outputs(struct cli_ctx *ctx, const struct replay_args *a,
                          struct replay_sink *sink, int64_t t0)
{
    sink->prefix = a->prefix;
    if (a->stream) {
        sink->stream = stdout;
        out_init(&sink->out, stdout, OUT_JSON);
    }
    dcb_progress_start(&sink->progress, !a->realtime && ctx->verbosity >= 0);
    sink->t0 = a->store_path ? t0 : 0;
}

/* The summary (text or JSON), or only with -v when the samples stream to stdout. */
static int print_summary(struct cli_ctx *ctx, const struct replay_args *a,
                         const struct scenario *sc, const struct scenario_result *res, int status)
{
    struct dcb_out o;
    out_init(&o, a->stream ? stderr : stdout, a->stream ? OUT_TEXT : ctx->format);
    if (!a->stream || ctx->verbosity > 0)
        replay_print_run(&o, sc, res);
    if (a->stream && fflush(stdout) != 0 && !status)
        status = cli_fail(1, "replay", "writing output: %m");
    return cli_finish_output(&o, status);
}

static int simulate(const struct replay_args *a, struct scenario *sc, struct replay_sink *sink,
                    int64_t t0, struct scenario_result *res)
{
    struct dcb_err err;
    struct replay_hooks hooks = { sink_sample, sink_event, sink_series, sink };
    struct scenario_run_options ro = {
        .duration_ns = a->duration_ns,
        .realtime = a->realtime,
        .speed = a->speed,
        .stop = &stop_flag,
        .wall_start_ns = a->store_path ? t0 : 0,
        .warmup_ns = a->warmup_ns,
    };
    int rc = scenario_run(sc, &ro, &hooks, res, &err);
    return rc < 0 ? cli_fail(1, "replay", "%s: %s", sc->source, err.msg) : 0;
}

static int run_one(struct cli_ctx *ctx, const struct replay_args *a)
{
    struct scenario sc;
    struct dcb_err err;
    if (load(a, a->sets, a->nsets, &sc, &err) < 0)
        return cli_fail(1, "replay", "%s", err.msg);
    warn_unmodelled(ctx, &sc);
    struct replay_sink sink;
    memset(&sink, 0, sizeof(sink));
    int64_t run_id = 0, t0 = dcb_realtime_ns();
    int status = check_prefix(a, &sc);
    if (!status)
        status = check_warmup(a, &sc);
    if (!status && a->store_path)
        status = open_record(a, &sc, &sink, &t0, &run_id);
    setup_outputs(ctx, a, &sink, t0);
    if (!status && a->plot_path && !(sink.plot = replay_plot_new(a->store_path ? t0 : 0)))
        status = cli_fail(1, "replay", "out of memory");
    struct scenario_result res;
    int ran = status ? -1 : simulate(a, &sc, &sink, t0, &res);
    dcb_progress_end(&sink.progress); /* also when it never ran */
    if (ran)
        status = ran < 0 ? status : ran;
    if (sink.store)
        status = close_record(a, &sink, run_id, status);
    if (ran == 0 && status == 0 && sink.plot &&
        replay_plot_write(a->plot_path, sink.plot, &sc, &res, &err) < 0)
        status = cli_fail(1, "replay", "--plot %s: %s", a->plot_path, err.msg);
    replay_plot_free(sink.plot);
    if (ran == 0) {
        status = print_summary(ctx, a, &sc, &res, status);
        scenario_result_free(&res);
    }
    scenario_free(&sc);
    return status;
}

static int run_compare(struct cli_ctx *ctx, const struct replay_args *a)
{
    const char *all[2 * MAX_SETS];
    size_t n = 0;
    for (size_t i = 0; i < a->nsets; i++)
        all[n++] = a->sets[i];
    for (size_t i = 0; i < a->ncompare; i++)
        all[n++] = a->compare[i];
    struct scenario base, var;
    struct dcb_err err;
    if (load(a, a->sets, a->nsets, &base, &err) < 0)
        return cli_fail(1, "replay", "%s", err.msg);
    if (load(a, all, n, &var, &err) < 0) {
        scenario_free(&base);
        return cli_fail(1, "replay", "%s", err.msg);
    }
    warn_unmodelled(ctx, &var); /* the variant has the baseline's settings too */
    if (check_warmup(a, &base) || check_warmup(a, &var)) {
        scenario_free(&base);
        scenario_free(&var);
        return 1;
    }
    struct scenario_run_options ro = { .duration_ns = a->duration_ns,
                                       .stop = &stop_flag,
                                       .warmup_ns = a->warmup_ns };
    struct scenario_result rb, rv;
    struct replay_sink sink;
    memset(&sink, 0, sizeof(sink));
    if (a->plot_path && !(sink.plot = replay_plot_new(0))) {
        scenario_free(&base);
        scenario_free(&var);
        return cli_fail(1, "replay", "out of memory");
    }
    struct replay_hooks hooks = { NULL, sink_event, sink_series, &sink };
    int status = 0;
    if (scenario_run(&base, &ro, NULL, &rb, &err) < 0) {
        status = cli_fail(1, "replay", "baseline: %s", err.msg);
    } else {
        if (scenario_run(&var, &ro, a->plot_path ? &hooks : NULL, &rv, &err) < 0) {
            status = cli_fail(1, "replay", "variant: %s", err.msg);
        } else {
            struct dcb_out o;
            out_init(&o, stdout, ctx->format);
            replay_print_compare(&o, &base, &rb, &var, &rv, a->compare, a->ncompare);
            status = cli_finish_output(&o, 0);
            if (status == 0 && sink.plot &&
                replay_plot_write(a->plot_path, sink.plot, &var, &rv, &err) < 0)
                status = cli_fail(1, "replay", "--plot %s: %s", a->plot_path, err.msg);
            scenario_result_free(&rv);
        }
        scenario_result_free(&rb);
    }
    replay_plot_free(sink.plot);
    scenario_free(&base);
    scenario_free(&var);
    return status;
}

static int add_set(struct cli_ctx *ctx, const char **v, size_t *n, const char *flag,
                   const char *arg)
{
    if (*n >= MAX_SETS)
        return cli_usage_error(ctx, "at most %d %s options", MAX_SETS, flag);
    if (!strchr(arg, '=') || arg[0] == '=')
        return cli_usage_error(ctx, "%s takes path=value, not '%s'", flag, arg);
    v[(*n)++] = arg;
    return CLI_NEXT;
}

enum {
    OPT_SET = 256,
    OPT_COMPARE,
    OPT_DURATION,
    OPT_SEED,
    OPT_STORE,
    OPT_PLOT,
    OPT_REALTIME,
    OPT_SPEED,
    OPT_STREAM,
    OPT_DEMO,
    OPT_WORKLOAD_FROM,
    OPT_HOST_MAP,
    OPT_PREFIX,
    OPT_WARMUP
};

static const struct option replay_longopts[] = {
    { "set", required_argument, NULL, OPT_SET },
    { "compare", required_argument, NULL, OPT_COMPARE },
    { "duration", required_argument, NULL, OPT_DURATION },
    { "seed", required_argument, NULL, OPT_SEED },
    { "store", required_argument, NULL, OPT_STORE },
    { "plot", required_argument, NULL, OPT_PLOT },
    { "realtime", no_argument, NULL, OPT_REALTIME },
    { "replay-speed", required_argument, NULL, OPT_SPEED },
    { "stream", no_argument, NULL, OPT_STREAM },
    { "demo", no_argument, NULL, OPT_DEMO },
    { "workload-from", required_argument, NULL, OPT_WORKLOAD_FROM },
    { "host-map", required_argument, NULL, OPT_HOST_MAP },
    { "device-prefix", required_argument, NULL, OPT_PREFIX },
    { "warmup", required_argument, NULL, OPT_WARMUP },
};

/* One of replay's own options, in cli.h's convention. */
static int replay_option(struct cli_ctx *ctx, void *args, int c, const char *arg)
{
    struct replay_args *a = args;
    static char seed_set[48];
    struct dcb_err err;
    char *end;
    long seed;
    switch (c) {
    case OPT_SET: return add_set(ctx, a->sets, &a->nsets, "--set", arg);
    case OPT_COMPARE: return add_set(ctx, a->compare, &a->ncompare, "--compare", arg);
    case OPT_HOST_MAP: return add_set(ctx, a->maps, &a->nmaps, "--host-map", arg);
    case OPT_DURATION:
        if (scenario_parse_duration(arg, &a->duration_ns, &err) < 0)
            return cli_usage_error(ctx, "--duration takes a time such as 20ms or 'forever': %s",
                                   err.msg);
        return CLI_NEXT;
    case OPT_WARMUP:
        if (scenario_parse_duration(arg, &a->warmup_ns, &err) < 0 ||
            a->warmup_ns == SCENARIO_FOREVER)
            return cli_usage_error(ctx, "--warmup takes a time such as 300ms, not '%s'", arg);
        return CLI_NEXT;
    case OPT_SEED:
        if (cli_opt_long(ctx, "--seed", arg, 0, 9007199254740991L, &seed) != CLI_NEXT)
            return EXIT_USAGE;
        snprintf(seed_set, sizeof(seed_set), "seed=%ld", seed);
        return add_set(ctx, a->sets, &a->nsets, "--set", seed_set);
    case OPT_STORE: a->store_path = arg; return CLI_NEXT;
    case OPT_PLOT: a->plot_path = arg; return CLI_NEXT;
    case OPT_REALTIME: a->realtime = true; return CLI_NEXT;
    case OPT_SPEED:
        a->speed = strtod(arg, &end);
        if (*end || !(a->speed > 0) || a->speed > 1e6)
            return cli_usage_error(ctx,
                                   "--replay-speed takes a factor above 0 such as 0.5 or "
                                   "10, not '%s'",
                                   arg);
        return CLI_NEXT;
    case OPT_STREAM: a->stream = true; return CLI_NEXT;
    case OPT_DEMO: a->demo = true; return CLI_NEXT;
    case OPT_WORKLOAD_FROM: a->capture = arg; return CLI_NEXT;
    case OPT_PREFIX:
        if (!arg[0] || strlen(arg) >= DCB_DEVICE_MAX / 2)
            return cli_usage_error(ctx, "--device-prefix takes 1 to %d characters",
                                   DCB_DEVICE_MAX / 2 - 1);
        a->prefix = arg;
        return CLI_NEXT;
    default: return CLI_NOT_OWN;
    }
}

/* Combinations that cannot go together: CLI_NEXT when none, else 64 after the message. */
static int check_args(struct cli_ctx *ctx, const struct replay_args *a)
{
    if (a->speed > 0 && !a->realtime)
        return cli_usage_error(ctx, "--replay-speed needs --realtime");
    if (a->ncompare && (a->realtime || a->stream || a->store_path))
        return cli_usage_error(ctx, "--compare runs two finite simulations: it does not take "
                                    "--realtime, --stream or --store");
    if (a->ncompare && a->duration_ns == SCENARIO_FOREVER)
        return cli_usage_error(ctx, "--compare needs a finite --duration");
    if (a->plot_path && a->duration_ns == SCENARIO_FOREVER)
        return cli_usage_error(ctx, "--plot needs a finite --duration");
    if (a->prefix && !a->store_path && !a->stream)
        return cli_usage_error(ctx, "--device-prefix renames what goes to --store or --stream");
    if (a->nmaps && !a->capture)
        return cli_usage_error(ctx, "--host-map goes with --workload-from");
    return CLI_NEXT;
}

static int parse_args(struct cli_ctx *ctx, int argc, char **argv, struct replay_args *a)
{
    struct cli_parser p = { replay_longopts,
                            sizeof(replay_longopts) / sizeof(*replay_longopts),
                            NULL,
                            replay_option,
                            a,
                            NULL };
    int rc = cli_parse(ctx, &p, argc, argv);
    if (rc != CLI_NEXT)
        return rc;
    if (!a->demo && optind >= argc)
        return cli_usage_error(ctx, "a scenario file (or --demo) is required");
    if (a->demo && optind < argc)
        return cli_usage_error(ctx, "--demo takes no scenario file");
    if (optind + 1 < argc)
        return cli_usage_error(ctx, "unexpected argument '%s'", argv[optind + 1]);
    a->file = a->demo ? NULL : argv[optind];
    return check_args(ctx, a);
}

static int replay_main(struct cli_ctx *ctx, int argc, char **argv)
{
    struct replay_args a;
    memset(&a, 0, sizeof(a));
    int rc = parse_args(ctx, argc, argv, &a);
    if (rc != CLI_NEXT)
        return rc;
    /* every pass builds and frees a simulator: keep the freed heap instead of handing it back
     * to the kernel and faulting it in again (half the CPU time of a repeating scenario) */
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    return a.ncompare ? run_compare(ctx, &a) : run_one(ctx, &a);
}

static const struct cli_option_doc replay_options[] = {
    { "--set PATH=VALUE",
      "Override the scenario before it runs (repeatable): a scenario key "
      "(workload.bytes=2MB, duration_ms=5, faults[0].drain=5G, fabric.generate.hosts=16) or a "
      "QoS config path on every interface it applies to (switch.wred.3.min_bytes=200KB), or on "
      "one device or interface (leaf1/pfc.enabled=0x18, host3:eth0/nic.dcqcn.rai_mbps=10)." },
    { "--compare PATH=VALUE", "Run the scenario twice, as given and with these overrides "
                              "(repeatable), and print the figures side by side with deltas." },
    { "--duration TIME", "Simulated time, e.g. 20ms, 1s, or 'forever' (until interrupted). "
                         "Without it: duration_ms, or forever when the workload repeats." },
    { "--warmup TIME",
      "Measure the summary after this much simulated time (e.g. 300ms): the "
      "flows' throughput and Jain fairness, over the run and in 10 ms windows, the queues' mean "
      "and percentiles (each egress queue's depth at the series interval), the pause share, "
      "and the counters (drops, PFC frames, marks, CNPs, link utilisation) from the first sample "
      "at or after it. A steady state, such as DCQCN's fixed point, measured from the CLI." },
    { "--seed N", "The random seed (WRED draws, permutations); the same seed gives the same "
                  "output bit for bit." },
    { "--store DB",
      "Write the samples, events and each interface's config into the SQLite "
      "store DB as one run; times are the wall clock at the start plus simulated time, or "
      "just after the store's newest sample when that is later, so runs never overlap." },
    { "--device-prefix PREFIX",
      "Put PREFIX in front of every device name written to --store "
      "or --stream (ps-switch1 for switch1), so several scenarios on the same fabric can share "
      "one store and stay apart: one report, one finding per scenario." },
    { "--plot FILE.svg", "Draw the bottleneck queue's depth, the Rc and Rt of the first eight "
                         "flows, and the PFC pause intervals on one time axis." },
    { "--realtime", "Pace simulated time to the wall clock; samples and events carry wall-clock "
                    "timestamps." },
    { "--replay-speed X", "With --realtime: X simulated seconds per wall second (0.1 slows a "
                          "100G fabric down enough to watch)." },
    { "--stream", "Print every sample and event as JSON Lines on stdout as they happen (the "
                  "summary goes to stderr with -v)." },
    { "--demo", "Run the built-in demo scenario instead of a file: " SCENARIO_DEMO_SUMMARY "." },
    { "--workload-from FILE.pcap",
      "Replace the workload with the RoCEv2 data flows of a "
      "capture (sizes, start offsets, endpoints from the QP records of 'dcbkit analyze')." },
    { "--host-map IP=HOST",
      "With --workload-from: put this address on this host (repeatable); "
      "unmapped addresses take the fabric's hosts in order of first appearance." },
    { NULL, NULL },
};

static const struct cli_example replay_examples[] = {
    { "dcbkit replay fixtures/scenarios/healthy-incast.json",
      "Run a scenario and print flows, drops, pauses, marks and fairness." },
    { "dcbkit replay fixtures/scenarios/ecn-above-xoff.json --compare switch.wred.3.min_bytes=20KB "
      "--compare switch.wred.3.max_bytes=100KB",
      "Would moving WRED below XOFF stop the pauses? Baseline and variant side by side." },
    { "dcbkit replay incast.json --set workload.count=16 --duration 50ms -T json",
      "What-if with a bigger incast, as JSON." },
    { "dcbkit replay --demo --realtime --stream", "A live fabric for dcbtop, serve or a pipe." },
    { "dcbkit replay incast.json --plot incast.svg",
      "The DCQCN sawtooth: queue depth, Rc/Rt and pauses on one time axis." },
    { "dcbkit replay base.json --workload-from job.pcap --host-map 10.0.0.1=host1",
      "Replay the flows a capture saw on a fabric of your choice." },
    { "dcbkit replay pause-storm.json --store lab.db --device-prefix ps-",
      "Several scenarios into one store, each on its own devices (ps-switch1, ...)." },
    { NULL, NULL },
};

const struct cli_command cmd_replay = {
    .name = "replay",
    .summary = "simulate a fabric under a workload and faults (what-if, demo source)",
    .synopsis =
        "dcbkit replay SCENARIO.json [--set PATH=VALUE]... [--compare PATH=VALUE]...\n"
        "              [--duration TIME|forever] [--seed N] [--store DB] [--plot FILE.svg]\n"
        "              [--warmup TIME] [--realtime [--replay-speed X]] [--stream]\n"
        "              [-T text|json]\n"
        "dcbkit replay --demo [options]\n"
        "dcbkit replay SCENARIO.json --workload-from FILE.pcap [--host-map IP=HOST]...",
    .description =
        "Runs a scenario (docs/scenario.md: a fabric, a workload, faults, a duration and a seed) "
        "through the packet-level simulator of switch buffers, PFC, WRED/ECN, ETS, the PFC "
        "watchdog and DCQCN NICs, and prints what an operator would measure: per-flow "
        "throughput and completion time, drops by priority group and traffic class, PFC frames "
        "by who sent them, pause time, the longest unbroken pause, ECN marks and CNPs, queue "
        "depth percentiles, link utilisation per host, the imbalance of ECMP uplinks, and for a "
        "ring all-reduce the iteration times. The samples and events are the canonical ones of "
        "the real collectors, so --store feeds the rules engine and --stream feeds anything "
        "that reads 'dcbkit collect -T json'.\n\n"
        "Bad scenarios are refused with one line naming the JSON path or the --set path. The "
        "same seed gives the same output bit for bit. fixtures/scenarios/ holds nine scenarios "
        "of common failures, each with the signature its test asserts.",
    .options = replay_options,
    .examples = replay_examples,
    .json_doc =
        "{\"schema\":1, \"scenario\", \"source\", \"workload\", \"nflows\", \"faults\", \"seed\", "
        "\"simulated_ns\", \"passes\", \"wall_s\", \"cpu_s\", \"events\", \"events_per_cpu_s\", "
        "\"packet_hops\", \"stopped\", \"warmup_ns\", \"measured_from_ns\", \"warnings\" "
        "(a line for each config path the scenario sets that the engine does not model, "
        "docs/scenario.md), \"figures\": "
        "{\"goodput_bps\", \"jain\", \"jain_window_min\", \"jain_window_mean\", "
        "\"windows_jain_099\", \"windows_fair\" (10 ms windows: shares of those with Jain >= "
        "0.99, with every flow within 10 % of their mean), "
        "\"bottleneck_util\", \"drops_pg\", \"drops_queue\", \"drops_wred\", \"drops_oversize\", "
        "\"drops_fcs\", "
        "\"pfc_tx_switch\", \"pfc_tx_host\", \"pause_global_tx\", \"pause_global_rx\", "
        "\"pause_fraction_max\", \"longest_pause_ns\", \"first_pause_ns\", "
        "\"marks_by_first_pause\", \"ecn_marked\", \"ce_received\", \"cnp_sent\", "
        "\"cnp_handled\", \"cnp_ignored\" (CNPs to a sender whose RP is off), "
        "\"watchdog_storms\", \"uplink_ratio\", \"queue_mean_bytes\", \"queue_p50_bytes\", "
        "\"queue_p99_bytes\", "
        "\"queue_max_bytes\", \"retransmitted\", \"out_of_sequence\", \"naks_received\", "
        "\"ack_timeouts\", ring all-reduce: \"iterations\", "
        "\"iteration_mean_ns\", \"iteration_p99_ns\"} (null: not applicable), \"pg_drops\", "
        "\"queue_drops\", \"pfc_tx_switch\", \"pfc_tx_host\" ([8] by priority or TC), "
        "\"longest_pause_port\", \"longest_pause_prio\", \"uplink_device\", \"flows\": "
        "[{\"flow\", \"src\", \"dst\", \"bytes\", \"start_ns\", \"bytes_acked\", "
        "\"bytes_measured\" (after the warm-up), "
        "\"throughput_bps\", \"fct_ns\" (null: unfinished), \"packets_sent\", \"retransmitted\" "
        "(packets sent again: go-back-N), \"cnps\" (that came back), "
        "\"ce_marked\", \"final_rc_bps\", \"cnps_handled\" (by the RP), \"naks\", "
        "\"out_of_sequence\" (its receiver's), \"timeouts\"}], "
        "\"queues\": [{\"device\", \"ifname\", \"tc\", "
        "\"samples\", \"mean_bytes\", \"p50_bytes\", \"p99_bytes\", \"max_bytes\"}], "
        "\"hosts\": [{\"device\", \"ifname\", \"rx_util\", "
        "\"tx_util\", \"pfc_tx\"}]}. With --compare: {\"schema\":1, \"scenario\", \"changes\": "
        "[...], \"compare\": [{\"key\", \"baseline\", \"variant\", \"delta\"}], \"baseline\": "
        "{header}, \"variant\": {header}}. With --stream, JSON Lines: samples {\"ts\", "
        "\"device\", \"ifname\", \"metric\", \"prio\", \"queue\", \"value\"} and events "
        "{\"schema\":2, \"ts\", \"kind\", \"event\" (the same as kind, its name before "
        "schema 2, kept for this schema only), \"device\", \"ifname\", \"prio\", "
        "\"details\"}.",
    .run = replay_main,
};
