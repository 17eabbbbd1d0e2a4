/* dcbkit collect: sample host interfaces (driver statistics, netdev, RDMA) into canonical
 * samples and events, printed and/or written to the store. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "collect_capture.h"
#include "collect_gnmi.h"
#include "ethtool_dump.h"
#include "host_source.h"
#include "log.h"
#include "store.h"
#include "units.h"


static volatile sig_atomic_t collect_stop;

static void on_stop(int sig)
{
    (void)sig;
    collect_stop = 1;
}

struct collect_run {
    struct cli_ctx *ctx;
    struct host_source src;
    struct dcb_store *store;
    struct dcb_out out;
    char device[DCB_DEVICE_MAX];
    int64_t interval_ns;
    bool lldp;                   /* listen for LLDP neighbours (live only) */
};

static void on_event(void *arg, const struct dcb_event *e)
{
    struct collect_run *run = arg;
    if (run->store) {
        struct dcb_err err;
        if (store_put_event(run->store, e, &err) < 0)
            dcb_warn("collect: %s", err.msg);
    }
    const char *kind = dcb_event_kind_name(e->kind);
    if (out_is_json(&run->out)) {
        struct dcb_out *o = &run->out;
        out_obj_open(o, NULL);
        out_i64(o, "ts", NULL, e->time_ns);
        out_str(o, "event", NULL, kind);
        out_str(o, "device", NULL, e->device);
        out_str(o, "ifname", NULL, e->ifname);
        out_i64(o, "prio", NULL, e->prio);
        fprintf(o->fp, ",\"details\":%s", e->details);
        out_obj_close(o);
    } else {
        fprintf(stdout, "event %s %s %s\n", kind, e->ifname, e->details);
    }
}

/* A config snapshot: the interface's own, or what its link partner advertised (LLDP). */
static void on_config(void *arg, const struct host_config_snap *snap)
{
    struct collect_run *run = arg;
    if (run->store) {
        struct store_config_row row = { snap->time_ns, run->device, snap->ifname, snap->source,
                                        snap->json };
        struct dcb_err err;
        if (store_put_config(run->store, &row, &err) < 0)
            dcb_warn("collect: %s", err.msg);
    }
    struct dcb_out *o = &run->out;
    if (out_is_json(o)) {
        out_obj_open(o, NULL);
        out_i64(o, "ts", NULL, snap->time_ns);
        out_str(o, "device", NULL, snap->peer ? snap->peer : run->device);
        out_str(o, "ifname", NULL, snap->peer ? snap->peer_port : snap->ifname);
        out_str(o, "config_source", NULL, snap->peer ? "lldp" : snap->source);
        if (snap->peer) {
            char seen[DCB_DEVICE_MAX + IFNAMSIZ + 2];
            snprintf(seen, sizeof(seen), "%s:%s", run->device, snap->ifname);
            out_str(o, "seen_on", NULL, seen);
        }
        fprintf(o->fp, ",\"config\":%s", snap->json);
        out_obj_close(o);
    } else if (snap->peer) {
        out_text(o, "neighbour of %s: ", snap->ifname);
        out_str(o, NULL, "%s", snap->peer);
        out_str(o, NULL, " port %s", snap->peer_port);
        out_text(o, " (%s DCBX): %s\n", snap->dcbx_mode, snap->json);
    } else {
        printf("config %s (%s): %s\n", snap->ifname, snap->source, snap->json);
    }
}

static void on_counter(void *arg, int64_t now, const char *ifname, const struct host_counter *c,
                       const struct counter_delta *d)
{
    struct collect_run *run = arg;
    double rate = counter_rate_per_sec(d);
    if (c->mapped && run->store) {
        struct dcb_sample s;
        dcb_sample_set(&s, now, run->device, ifname, c->match.metric, c->match.prio,
                       c->match.queue);
        s.value.counter = c->value;
        struct dcb_err err;
        if (store_put_sample(run->store, &s, &err) < 0)
            dcb_warn("collect: %s", err.msg);
    }
    struct dcb_out *o = &run->out;
    if (out_is_json(o)) {
        out_obj_open(o, NULL);
        out_i64(o, "ts", NULL, now);
        out_str(o, "device", NULL, run->device);
        out_str(o, "ifname", NULL, ifname);
        out_str(o, "source", NULL, c->source);
        out_str(o, "counter", NULL, c->raw);
        if (c->mapped) {
            out_str(o, "metric", NULL, metric_info(c->match.metric)->name);
            out_i64(o, "prio", NULL, c->match.prio);
            out_i64(o, "queue", NULL, c->match.queue);
        } else {
            out_null(o, "metric", NULL);
        }
        out_u64(o, "value", NULL, c->value);
        out_dbl(o, "rate", NULL, rate);
        out_obj_close(o);
    } else if (c->mapped) {
        char label[24] = "";
        if (c->match.prio >= 0)
            snprintf(label, sizeof(label), "prio=%d", c->match.prio);
        else if (c->match.queue >= 0)
            snprintf(label, sizeof(label), "queue=%d", c->match.queue);
        printf("%-12s %-26s %-8s %20" PRIu64, ifname, metric_info(c->match.metric)->name, label,
               c->value);
        if (isfinite(rate))
            printf(" %14.1f/s", rate);
        printf("   (%s %s)\n", c->source, c->raw);
    }
}

/* The link speed, a gauge: no rate, no counter state. */
static void on_speed(void *arg, int64_t now, const char *ifname, uint64_t bps, const char *source)
{
    struct collect_run *run = arg;
    if (run->store) {
        struct dcb_sample s;
        dcb_sample_set(&s, now, run->device, ifname, METRIC_LINK_SPEED_BPS, -1, -1);
        s.value.gauge = (double)bps;
        struct dcb_err err;
        if (store_put_sample(run->store, &s, &err) < 0)
            dcb_warn("collect: %s", err.msg);
    }
    struct dcb_out *o = &run->out;
    if (out_is_json(o)) {
        out_obj_open(o, NULL);
        out_i64(o, "ts", NULL, now);
        out_str(o, "device", NULL, run->device);
        out_str(o, "ifname", NULL, ifname);
        out_str(o, "source", NULL, source);
        out_str(o, "counter", NULL, "speed");
        out_str(o, "metric", NULL, metric_info(METRIC_LINK_SPEED_BPS)->name);
        out_i64(o, "prio", NULL, -1);
        out_i64(o, "queue", NULL, -1);
        out_u64(o, "value", NULL, bps);
        out_null(o, "rate", NULL);
        out_obj_close(o);
    } else {
        printf("%-12s %-26s %-8s %20" PRIu64 "   (%s speed)\n", ifname,
               metric_info(METRIC_LINK_SPEED_BPS)->name, "", bps, source);
    }
}

static void on_message(void *arg, enum dcb_log_level level, const char *text)
{
    (void)arg;
    if (level == DCB_LOG_ERROR)
        cli_fail(1, "collect", "%s", text);
    else
        dcb_log(level, "collect: %s", text);
}

/* One sampling pass. Returns how many interfaces were read. */
static size_t collect_tick(struct collect_run *run)
{
    struct dcb_err err;
    int read = host_source_tick(&run->src, host_source_now(), &err);
    if (read < 0)
        cli_fail(1, "collect", "%s", err.msg);
    if (run->store) {
        if (store_flush(run->store, &err) < 0) {
            cli_fail(1, "collect", "%s", err.msg);
            run->src.failures++;
        }
    }
    fflush(stdout);
    return read < 0 ? 0 : (size_t)read;
}

#define MAX_DUMPS 64
#define DUMP_FILE_MAX (16u << 20)

struct dump_add {
    struct collect_run *run;
    const struct counter_map *map;
    const char *ifname;
    int64_t ts;
};

static void add_dump_stat(const char *name, uint64_t value, void *arg)
{
    struct dump_add *a = arg;
    struct host_counter c;
    memset(&c, 0, sizeof(c));
    c.source = "ethtool";
    snprintf(c.raw, sizeof(c.raw), "%s", name);
    c.value = value;
    c.mapped = counter_map_match(a->map, name, &c.match);
    host_source_counter(&a->run->src, a->ts, a->ifname, &c);
}

static char *read_dump(const char *path, size_t *len, struct dcb_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        dcb_err_set(err, DCB_E_IO, "%s: %s", path, strerror(errno));
        return NULL;
    }
    char *buf = malloc(DUMP_FILE_MAX + 1);
    *len = buf ? fread(buf, 1, DUMP_FILE_MAX + 1, f) : 0;
    bool failed = !buf || ferror(f) || *len > DUMP_FILE_MAX;
    fclose(f);
    if (failed) {
        free(buf);
        dcb_err_set(err, DCB_E_IO, "%s: unreadable or larger than 16 MiB", path);
        return NULL;
    }
    buf[*len] = '\0';
    return buf;
}

/* Saved `ethtool -S` dumps, taken one interval apart, through the same maps and counter logic
 * as the live ioctl. */
static int collect_dumps(struct collect_run *run, const struct counter_maps *maps,
                         const char *const *dumps, int ndumps, const char *ifname,
                         const char *driver)
{
    int64_t start = host_source_now();
    for (int i = 0; i < ndumps; i++) {
        struct dcb_err err;
        size_t len;
        char *text = read_dump(dumps[i], &len, &err);
        if (!text)
            return cli_fail(1, "collect", "%s", err.msg);
        const char *drv = driver ? driver : ethtool_dump_guess_driver(text, len);
        struct dump_add a = { run, drv ? counter_maps_find(maps, drv, "ethtool") : NULL, ifname,
                              start + i * run->interval_ns };
        int rc = ethtool_dump_parse(text, len, add_dump_stat, &a, &err);
        free(text);
        if (rc < 0)
            return cli_fail(1, "collect", "%s: %s", dumps[i], err.msg);
        if (!a.map)
            dcb_warn("collect: %s: no counter map for driver %s; counters stay raw (see --driver)",
                     dumps[i], drv ? drv : "(not recognised)");
        if (run->store && store_flush(run->store, &err) < 0)
            return cli_fail(1, "collect", "%s", err.msg);
    }
    return 0;
}

#define CAPTURE_FILTER_MAX 1024
#define CAPTURE_DEFAULT_LINK_BPS 400000000000ULL

/* The words after the options, joined by spaces (a BPF filter as tcpdump takes it). */
static int join_words(struct cli_ctx *ctx, int n, char **words, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        int w = snprintf(buf + used, len - used, "%s%s", i ? " " : "", words[i]);
        if (w < 0 || (size_t)w >= len - used)
            return cli_usage_error(ctx, "the filter is longer than %zu bytes", len - 1);
        used += (size_t)w;
    }
    return 0;
}

static int collect_capture_cmd(struct cli_ctx *ctx, struct collect_run *run,
                               const char *store_path, const char *iface, const char *filter,
                               long count, uint64_t link_bps)
{
    struct dcb_err err;
    if (store_path) {
        struct store_options opt = { .path = store_path };
        if (store_open_sqlite(&run->store, &opt, &err) < 0)
            return cli_fail(1, "collect", "%s", err.msg);
    }
    out_init(&run->out, stdout, ctx->format);
    signal(SIGINT, on_stop);
    signal(SIGTERM, on_stop);
    struct collect_capture_opts o = {
        .iface = iface, .filter = filter, .device = run->device, .interval_ns = run->interval_ns,
        .count = count, .link_bps = link_bps, .store = run->store, .out = &run->out,
        .stop = &collect_stop, .verbosity = ctx->verbosity,
    };
    int status = collect_capture_run(&o);
    status = cli_finish_output(&run->out, status);
    if (run->store && store_close(run->store, &err) < 0)
        status = cli_fail(1, "collect", "%s", err.msg);
    return status;
}

static int collect_run_cmd(struct cli_ctx *ctx, int argc, char **argv)
{
    enum { O_LOCAL = 256, O_IFNAME, O_INTERVAL, O_COUNT, O_DURATION, O_ONCE, O_STORE, O_SYSFS,
           O_MAPS, O_DEVICE, O_DUMP, O_DRIVER, O_NO_LLDP, O_CAPTURE, O_LINK_SPEED,
           O_PROC, O_RAW_EVERY };
    static const struct option longopts[] = {
        { "local", no_argument, NULL, O_LOCAL },
        { "ifname", required_argument, NULL, O_IFNAME },
        { "interval", required_argument, NULL, O_INTERVAL },
        { "count", required_argument, NULL, O_COUNT },
        { "duration", required_argument, NULL, O_DURATION },
        { "once", no_argument, NULL, O_ONCE },
        { "store", required_argument, NULL, O_STORE },
        { "sysfs-root", required_argument, NULL, O_SYSFS },
        { "proc-root", required_argument, NULL, O_PROC },
        { "raw-every", required_argument, NULL, O_RAW_EVERY },
        { "maps", required_argument, NULL, O_MAPS },
        { "device", required_argument, NULL, O_DEVICE },
        { "from-ethtool-dump", required_argument, NULL, O_DUMP },
        { "driver", required_argument, NULL, O_DRIVER },
        { "no-lldp", no_argument, NULL, O_NO_LLDP },
        { "capture", required_argument, NULL, O_CAPTURE },
        { "link-speed", required_argument, NULL, O_LINK_SPEED },
        COLLECT_GNMI_LONGOPTS,
        CLI_COMMON_LONGOPTS,
        { NULL, 0, NULL, 0 },
    };
    struct collect_run run;
    memset(&run, 0, sizeof(run));
    run.ctx = ctx;
    run.interval_ns = 1000000000LL;
    run.lldp = true;
    const char *store_path = NULL, *sysfs_root = "/sys", *maps_dir = NULL;
    const char *proc_root = "/proc", *pattern = NULL;
    long count = 0, raw_every = HOST_RAW_EVERY;
    int64_t duration = 0;
    const char *dumps[MAX_DUMPS];
    int ndumps = 0;
    const char *driver = NULL, *capture_iface = NULL;
    uint64_t link_bps = CAPTURE_DEFAULT_LINK_BPS;
    static struct collect_gnmi_opts gnmi;   /* static: it holds up to 1024 target names */
    collect_gnmi_init(&gnmi);
    struct dcb_err err;
    int c;
    while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
        switch (c) {
        case O_LOCAL: break;
        case O_IFNAME: pattern = optarg; break;
        case O_INTERVAL:
            if (dcb_parse_duration(optarg, &run.interval_ns, &err) < 0 || run.interval_ns < 1000000)
                return cli_usage_error(ctx, "--interval: %s",
                                       run.interval_ns < 1000000 ? "at least 1ms" : err.msg);
            break;
        case O_COUNT: {
            int rc = cli_parse_long(ctx, "--count", optarg, 1, 1000000000L, &count);
            if (rc)
                return rc;
            break;
        }
        case O_DURATION:
            if (dcb_parse_duration(optarg, &duration, &err) < 0 || duration <= 0)
                return cli_usage_error(ctx, "--duration: %s",
                                       duration <= 0 ? "must be above zero" : err.msg);
            break;
        case O_ONCE: count = 1; break;
        case O_STORE: store_path = optarg; break;
        case O_SYSFS: sysfs_root = optarg; break;
        case O_PROC: proc_root = optarg; break;
        case O_RAW_EVERY: {
            int rc = cli_parse_long(ctx, "--raw-every", optarg, 1, 1000000L, &raw_every);
            if (rc)
                return rc;
            break;
        }
        case O_MAPS: maps_dir = optarg; break;
        case O_DEVICE: snprintf(run.device, sizeof(run.device), "%s", optarg); break;
        case O_DUMP:
            if (ndumps == MAX_DUMPS)
                return cli_usage_error(ctx, "at most %d dumps", MAX_DUMPS);
            dumps[ndumps++] = optarg;
            break;
        case O_DRIVER: driver = optarg; break;
        case O_NO_LLDP: run.lldp = false; break;
        case O_CAPTURE: capture_iface = optarg; break;
        case O_LINK_SPEED:
            if (dcb_parse_speed(optarg, &link_bps, &err) < 0 || !link_bps)
                return cli_usage_error(ctx, "--link-speed: %s", link_bps ? err.msg :
                                       "must be above zero");
            break;
        default: {
            int rc = collect_gnmi_option(ctx, &gnmi, c, optarg);
            if (rc > 0)
                return rc;
            if (rc == 0)
                break;
            rc = cli_common_option(ctx, c, argv);
            if (rc >= 0)
                return rc;
        }
        }
    }
    if (collect_gnmi_wanted(&gnmi)) {
        if (optind < argc || capture_iface || ndumps)
            return cli_usage_error(ctx, "--gnmi/--fabric collect switches; --capture, "
                                   "--from-ethtool-dump and arguments are for this host");
        signal(SIGINT, on_stop);
        signal(SIGTERM, on_stop);
        return collect_gnmi_cmd(ctx, &gnmi, store_path, run.device[0] ? run.device : NULL,
                                run.interval_ns, count, duration, &collect_stop);
    }
    char filter[CAPTURE_FILTER_MAX] = "";
    if (capture_iface && join_words(ctx, argc - optind, argv + optind, filter, sizeof(filter)))
        return EXIT_USAGE;
    if (!capture_iface && optind < argc)
        return cli_usage_error(ctx, "unexpected argument '%s'", argv[optind]);
    if (capture_iface && ndumps)
        return cli_usage_error(ctx, "--capture and --from-ethtool-dump are separate runs");
    if (ndumps && (!pattern || strpbrk(pattern, "*?[")))
        return cli_usage_error(ctx, "--from-ethtool-dump needs --ifname NAME (the interface it "
                               "was taken on)");
    if (duration && !count)
        count = (long)((duration + run.interval_ns - 1) / run.interval_ns);
    if (!run.device[0] && gethostname(run.device, sizeof(run.device) - 1) < 0)
        snprintf(run.device, sizeof(run.device), "localhost");
    if (capture_iface)
        return collect_capture_cmd(ctx, &run, store_path, capture_iface, filter, count,
                                   link_bps);

    char maps_buf[4096];
    if (!maps_dir) {
        if (counter_maps_default_dir(maps_buf, sizeof(maps_buf)) < 0)
            return cli_fail(1, "collect", "no counter maps found; set DCBKIT_MAPS or --maps");
        maps_dir = maps_buf;
    }
    struct counter_maps maps;
    if (counter_maps_load_dir(&maps, maps_dir, &err) < 0)
        return cli_fail(1, "collect", "%s", err.msg);
    struct host_source_options hopt = {
        .sysfs_root = sysfs_root, .proc_root = proc_root, .pattern = pattern,
        .device = run.device, .maps = &maps, .raw_every = (unsigned)raw_every, .lldp = run.lldp,
    };
    struct host_source_sink sink = { on_counter, on_speed, on_event, on_config, on_message, &run };
    if (host_source_open(&run.src, &hopt, &sink, &err) < 0) {
        counter_maps_free(&maps);
        return cli_fail(1, "collect", "%s", err.msg);
    }
    int status = 0;
    if (store_path) {
        struct store_options opt = { .path = store_path };
        if (store_open_sqlite(&run.store, &opt, &err) < 0) {
            status = cli_fail(1, "collect", "%s", err.msg);
            goto out;
        }
    }
    out_init(&run.out, stdout, ctx->format);
    if (ndumps) {
        status = collect_dumps(&run, &maps, dumps, ndumps, pattern, driver);
        status = cli_finish_output(&run.out, status);
        goto out;
    }
    signal(SIGINT, on_stop);
    signal(SIGTERM, on_stop);
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (long tick = 0; !collect_stop && (count == 0 || tick < count); tick++) {
        size_t read = collect_tick(&run);
        if (tick == 0 && read == 0) {
            status = 1;  /* nothing could be read at all: the error is already printed */
            break;
        }
        if (count && tick + 1 >= count)
            break;
        next.tv_nsec += run.interval_ns % 1000000000LL;
        next.tv_sec += run.interval_ns / 1000000000LL + next.tv_nsec / 1000000000LL;
        next.tv_nsec %= 1000000000LL;
        while (!collect_stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
            ;
    }
    if (ctx->verbosity >= 0)
        fprintf(stderr, "dcbkit: collected %" PRIu64 " samples, %" PRIu64 " events, %" PRIu64
                " read failures\n", run.src.samples, run.src.events, run.src.failures);
    status = cli_finish_output(&run.out, status);
out:
    if (run.store && store_close(run.store, &err) < 0)
        status = cli_fail(1, "collect", "%s", err.msg);
    host_source_close(&run.src);
    counter_maps_free(&maps);
    return status;
}

static const struct cli_option_doc collect_options[] = {
    { "--local", "Collect from this host (the default)." },
    { "--ifname PATTERN", "Interfaces to sample, a shell pattern (default: all but lo)." },
    { "--interval DURATION", "Time between samples (default 1s)." },
    { "--count N, --duration DURATION, --once", "How long to run (default: until interrupted)." },
    { "--store PATH", "Write canonical samples and events to this store, committed every interval." },
    { "--device NAME", "The device name samples carry (default: the host name)." },
    { "--no-lldp",
      "Do not listen for LLDP neighbours. By default each interface's link partner and the "
      "DCBX config it advertises are recorded (a dcbx_seen event and a config snapshot of the "
      "peer); that needs CAP_NET_RAW, and without it collect says so once and goes on." },
    { "--sysfs-root DIR", "Read a sysfs tree saved elsewhere instead of /sys (no ioctl then: "
      "the link speed comes from class/net/IF/speed)." },
    { "--proc-root DIR",
      "Read DIR/net/dev instead of /proc/net/dev: the netdev statistics of interfaces that "
      "have no class/net/IF/statistics directory (default /proc)." },
    { "--maps DIR", "Counter maps (default: $DCBKIT_MAPS or the installed maps)." },
    { "--from-ethtool-dump FILE",
      "Import saved `ethtool -S` text (from a support bundle) instead of reading the host; "
      "repeat for dumps taken one --interval apart, which gives rates. Needs --ifname NAME; "
      "--device names the host." },
    { "--driver NAME",
      "The driver whose map names the dump's counters (mlx5_core, bnxt_en, ice); guessed from "
      "the names when omitted." },
    { "--capture IFACE [FILTER]",
      "Instead of counters, run the decoders and the analyze trackers on live traffic on IFACE "
      "(a mirror port, or a host port), with an optional BPF filter: pause intervals and storms, "
      "PSN gaps, NAKs, retransmissions and DCBX changes become events as they happen, and "
      "capture.* counters (PFC frames and paused time per priority, PAUSE frames, RoCE, CE, CNP, "
      "gaps, NAKs, retransmissions, kernel drops) are written every --interval. Needs "
      "CAP_NET_RAW." },
    { "--link-speed SPEED", "With --capture: the link speed that turns pause quanta into time "
      "(default 400G)." },
    COLLECT_GNMI_OPTION_DOCS,
    { "--raw-every N", "Read the sysfs counters that map to no canonical metric (kept under "
      "their raw names) on the first sample and every Nth after it; mapped ones every sample "
      "(default 10; 1 reads everything every time). Keeps a 300-counter RDMA port cheap." },
    CLI_COMMON_OPTION_DOCS,
    { NULL, NULL },
};

static const struct cli_example collect_examples[] = {
    { "dcbkit collect --ifname 'eth*' --interval 1s --store fabric.db",
      "Sample every ethN each second into the store until interrupted." },
    { "dcbkit collect --once -T json", "One sample of everything, as JSON Lines, for scripts." },
    { "dcbkit collect --gnmi leaf1:8080 --plaintext --map sonic --device leaf1 --store fabric.db",
      "A SONiC switch's PFC, queue, watermark and watchdog counters and its QoS config." },
    { "sudo dcbkit collect --capture span0 --link-speed 400G --store fabric.db "
      "'ether proto 0x8808 or udp dst port 4791'",
      "Pause frames and RoCE seen on a mirror port, as events and capture.* counters." },
    { "dcbkit collect --ifname enp1s0f0 --count 10 --interval 100ms",
      "Ten fast samples of one port with rates." },
    { "dcbkit collect --device gpu17 --ifname ens1f0 --from-ethtool-dump before.txt "
      "--from-ethtool-dump after.txt --interval 60s --store case.db",
      "Two dumps from a support bundle, a minute apart, into a store for the rules." },
    { NULL, NULL },
};

const struct cli_command cmd_collect = {
    .name = "collect",
    .summary = "sample NIC, netdev and RDMA counters into canonical metrics",
    .synopsis = "dcbkit collect [--local] [--ifname PATTERN] [--interval 1s] "
                "[--count N | --duration D | --once] [--store DB] [-T json]\n"
                "dcbkit collect --capture IFACE [--link-speed SPEED] [--interval 1s] "
                "[--count N | --duration D] [--store DB] [-T json] [FILTER]\n"
                "dcbkit collect --gnmi HOST:PORT... | --fabric FILE [--map NAME] "
                "[--gnmi-mode stream|poll|once] [TLS and credential options] [--interval 1s] "
                "[--count N | --duration D] [--store DB] [-T json]",
    .description =
        "Reads each interface's driver statistics through the SIOCETHTOOL ioctl (what ethtool -S "
        "shows, without running ethtool), its link speed (link.speed_bps), the netdev "
        "statistics every driver has (sysfs, or /proc/net/dev when sysfs has none), the DCB "
        "config over DCB netlink (trust from the APP trust table where the kernel and driver "
        "expose it), and the RDMA hw_counters of the RDMA device on top of it, and maps driver names to canonical "
        "metrics with the counter maps (collectors/maps). A counter no map names is still "
        "reported under its raw name.\n\n"
        "Rates survive 32-bit and 64-bit wraps; a counter that goes back (driver reload) gives "
        "a counter_reset event. An interface that vanishes gives a source_gap event and is "
        "picked up again when it returns; an interface that cannot be read is reported once "
        "and the others are still collected.\n\n"
        "With --gnmi or --fabric, collect reads switches instead, over gNMI: counters by "
        "subscription through a vendor map (collectors/maps/NAME_gnmi.json), QoS config by Get, "
        "a source_gap event for each outage, reconnection with backoff (docs/gnmi.md).",
    .options = collect_options,
    .examples = collect_examples,
    .json_doc =
        "JSON Lines, one object per counter per sample: {\"ts\" (ns), \"device\", \"ifname\", "
        "\"source\" (ethtool|netdev|rdma), \"counter\" (the driver's name), \"metric\" "
        "(canonical name or null), \"prio\", \"queue\", \"value\", \"rate\" (per second; null "
        "on the first sample)}; the link speed comes the same way as a gauge: \"source\" "
        "(ethtool|sysfs), \"counter\":\"speed\", \"metric\":\"link.speed_bps\", \"value\" in bits "
        "per second, \"rate\" null, and nothing while the speed is unknown; events: {\"ts\", \"event\" (counter_reset|source_gap), "
        "\"device\", \"ifname\", \"prio\", \"details\"}; and config snapshots when the DCQCN "
        "knobs change: {\"ts\", \"device\", \"ifname\", \"config_source\" (\"mlnx_ofed sysfs\" or "
        "\"mlx5 debugfs\"), \"config\" (QoS config JSON, as in docs/fabric.md)}; a neighbour's advertised DCBX comes "
        "the same way with \"config_source\":\"lldp\", the peer's name and port as device "
        "and ifname, and \"seen_on\":\"device:ifname\", after a dcbx_seen event. With --gnmi "
        "or --fabric: samples have \"source\":\"gnmi\", \"counter\" the leaf as "
        "TARGET:/path and no \"rate\"; config snapshots \"config_source\":\"gnmi\" (ifname "
        "\"\" for device-wide settings); source_gap details {\"from_ns\", \"to_ns\", "
        "\"seconds\", \"address\", \"subscription\", \"reason\"} (docs/gnmi.md).",
    .run = collect_run_cmd,
};
