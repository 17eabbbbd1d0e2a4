/* dcbtop: options, the source, and the main loop (interactive or batch). */
#include <errno.h>
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "top.h"
#include "top_doc.h"
#include "units.h"

#define EXIT_USAGE 64

int64_t top_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int top_step(struct top_app *app)
{
    struct dcb_err err;
    int64_t data_ns = 0;
    app->src.interval_ns = app->interval_ns;
    app->error[0] = '\0';
    if (app->src.ops->tick(&app->src, top_now_ns(), &data_ns, &err) < 0) {
        snprintf(app->error, sizeof(app->error), "%s", err.msg);
        return -1;
    }
    model_settle(&app->model);
    if (data_ns > app->model.data_ns)
        app->model.data_ns = data_ns;
    int64_t wall = top_now_ns();
    if (!app->rules_wall_ns || app->model.dirty || wall - app->rules_wall_ns >= RULES_EVERY_NS) {
        app->rules_wall_ns = wall;
        if (model_run_rules(&app->model, &err) < 0)
            snprintf(app->error, sizeof(app->error), "rules: %s", err.msg);
    }
    return 0;
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "dcbtop: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see 'dcbtop --help')\n");
    return EXIT_USAGE;
}

/* "1", "0.5" (seconds, as top takes them) or a duration ("500ms"). */
int top_parse_delay(const char *text, int64_t *ns)
{
    char *end;
    errno = 0;
    double s = strtod(text, &end);
    if (end != text && !*end && !errno) {
        if (!(s >= 0.01 && s <= 3600))
            return -1;
        *ns = (int64_t)llround(s * 1e9);
        return 0;
    }
    struct dcb_err err;
    if (dcb_parse_duration(text, ns, &err) < 0 || *ns < 10000000LL || *ns > 3600000000000LL)
        return -1;
    return 0;
}

/* --at: Unix seconds, an ISO 8601 UTC time, or "-DURATION" before the store's end (0 here,
 * resolved by the source as an offset). */
static int parse_at(const char *text, int64_t *ns, int64_t *before_end)
{
    struct dcb_err err;
    *ns = 0;
    *before_end = 0;
    if (text[0] == '-')
        return dcb_parse_duration(text + 1, before_end, &err) < 0 || *before_end <= 0 ? -1 : 0;
    char *end;
    errno = 0;
    double s = strtod(text, &end);
    if (end != text && !*end && !errno && s > 0) {
        *ns = (int64_t)llround(s * 1e9);
        return 0;
    }
    struct tm tm;
    memset(&tm, 0, sizeof(tm));
    end = strptime(text, "%Y-%m-%dT%H:%M:%S", &tm);
    if (!end || (*end && strcmp(end, "Z") != 0))
        return -1;
    *ns = (int64_t)timegm(&tm) * 1000000000LL;
    return 0;
}

static int parse_sort(const char *name)
{
    if (!strcasecmp(name, "name"))
        return SORT_NAME;
    for (int c = 0; c < TOP_NCOLS; c++)
        if (!strcasecmp(name, top_cols[c].key) || !strcasecmp(name, top_cols[c].title))
            return c;
    return -2;
}

static bool terminal_utf8(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    dcb_log_init("dcbtop");
    enum { O_LOCAL = 256, O_STORE, O_AT, O_WINDOW, O_SYSFS, O_PROC, O_IFNAME, O_MAPS, O_RULES,
           O_DEVICE, O_DEMO, O_REPLAY, O_REPLAY_SPEED, O_GNMI, O_FABRIC, O_MAN, O_SORT };
    static const struct option longopts[] = {
        { "batch", no_argument, NULL, 'b' },
        { "iterations", required_argument, NULL, 'n' },
        { "delay", required_argument, NULL, 'd' },
        { "format", required_argument, NULL, 'T' },
        { "prio", required_argument, NULL, 'p' },
        { "sort", required_argument, NULL, O_SORT },
        { "filter", required_argument, NULL, 'f' },
        { "local", no_argument, NULL, O_LOCAL },
        { "store", required_argument, NULL, O_STORE },
        { "at", required_argument, NULL, O_AT },
        { "window", required_argument, NULL, O_WINDOW },
        { "sysfs-root", required_argument, NULL, O_SYSFS },
        { "proc-root", required_argument, NULL, O_PROC },
        { "ifname", required_argument, NULL, O_IFNAME },
        { "maps", required_argument, NULL, O_MAPS },
        { "rules", required_argument, NULL, O_RULES },
        { "device", required_argument, NULL, O_DEVICE },
        { "demo", no_argument, NULL, O_DEMO },
        { "replay", required_argument, NULL, O_REPLAY },
        { "replay-speed", required_argument, NULL, O_REPLAY_SPEED },
        { "gnmi", required_argument, NULL, O_GNMI },
        { "fabric", required_argument, NULL, O_FABRIC },
        { "man", no_argument, NULL, O_MAN },
        { "version", no_argument, NULL, 'V' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    static struct top_app app;
    app.interval_ns = 1000000000LL;
    app.format = OUT_TEXT;
    app.view.sort = COL_PFC_RX;
    app.view.utf8 = terminal_utf8();
    bool batch = false;
    long iterations = 0;
    int prio = TOP_PRIO_LOSSLESS;
    const char *store = NULL, *rules_dir = NULL, *unavailable = NULL, *scenario = NULL;
    bool replay = false;
    double speed = 1;
    int64_t at_ns = 0, at_before_end = 0, window_ns = 0;
    struct top_local_options lo = { 0 };
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":bn:d:T:p:f:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'b': batch = true; break;
        case 'n': {
            char *end;
            errno = 0;
            iterations = strtol(optarg, &end, 10);
            if (end == optarg || *end || errno || iterations < 1 || iterations > 100000000L)
                return usage_error("-n takes a whole number from 1, not '%s'", optarg);
            break;
        }
        case 'd':
            if (top_parse_delay(optarg, &app.interval_ns) < 0)
                return usage_error("-d takes seconds from 0.01 to 3600 (1, 0.5, 500ms), not "
                                   "'%s'", optarg);
            break;
        case 'T':
            if (out_parse_format(optarg, &app.format) < 0)
                return usage_error("-T takes 'text' or 'json', not '%s'", optarg);
            break;
        case 'p':
            if (!strcmp(optarg, "l") || !strcmp(optarg, "lossless"))
                prio = TOP_PRIO_LOSSLESS;
            else if (optarg[0] >= '0' && optarg[0] <= '7' && !optarg[1])
                prio = optarg[0] - '0';
            else
                return usage_error("-p takes a priority 0-7 or 'lossless', not '%s'", optarg);
            break;
        case O_SORT:
            app.view.sort = parse_sort(optarg);
            if (app.view.sort == -2)
                return usage_error("--sort takes name or a column key (rx_bps, pfc_rx_per_s, "
                                   "...), not '%s'", optarg);
            break;
        case 'f': snprintf(app.view.filter, sizeof(app.view.filter), "%s", optarg); break;
        case O_LOCAL: break;
        case O_STORE: store = optarg; break;
        case O_AT:
            if (parse_at(optarg, &at_ns, &at_before_end) < 0)
                return usage_error("--at takes Unix seconds, YYYY-MM-DDTHH:MM:SSZ or -DURATION "
                                   "(before the store's end), not '%s'", optarg);
            break;
        case O_WINDOW: {
            struct dcb_err err;
            if (dcb_parse_duration(optarg, &window_ns, &err) < 0 || window_ns <= 0)
                return usage_error("--window takes a duration (5m), not '%s'", optarg);
            break;
        }
        case O_SYSFS: lo.sysfs_root = optarg; break;
        case O_PROC: lo.proc_root = optarg; break;
        case O_IFNAME: lo.pattern = optarg; break;
        case O_MAPS: lo.maps_dir = optarg; break;
        case O_DEVICE: lo.device = optarg; break;
        case O_RULES: rules_dir = optarg; break;
        case O_DEMO: replay = true; scenario = NULL; break;
        case O_REPLAY: replay = true; scenario = optarg; break;
        case O_REPLAY_SPEED: {
            char *end;
            errno = 0;
            speed = strtod(optarg, &end);
            if (end == optarg || *end || errno || !(speed >= 0.001 && speed <= 1000))
                return usage_error("--replay-speed takes a factor from 0.001 to 1000, not '%s'",
                                   optarg);
            break;
        }
        case O_GNMI: unavailable = "--gnmi"; break;
        case O_FABRIC: unavailable = "--fabric"; break;
        case O_MAN: top_print_man(stdout); return 0;
        case 'V': printf("dcbtop %s\n", DCBKIT_VERSION); return 0;
        case 'h': top_print_help(stdout); return 0;
        case ':': return usage_error("option '%s' needs a value", argv[optind - 1]);
        default: return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return usage_error("unexpected argument '%s'", argv[optind]);
    if (unavailable) {
        fprintf(stderr, "dcbtop: %s: this source is not part of this build yet (the gNMI "
                "source plugs in later); use --local, --store or --demo\n", unavailable);
        return 1;
    }
    if (store && replay)
        return usage_error("%s", "give one source: --store or --replay/--demo");
    if ((at_ns || at_before_end) && !store)
        return usage_error("%s needs --store DB", "--at");
    if (!batch && !isatty(STDOUT_FILENO))
        return usage_error("%s", "stdout is not a terminal: use -b for batch mode");
    if (!batch && app.format == OUT_JSON)
        return usage_error("%s", "-T json is for batch mode (-b)");
    struct dcb_err err;
    if (model_init(&app.model, &err) < 0) {
        fprintf(stderr, "dcbtop: %s\n", err.msg);
        return 1;
    }
    app.model.prio = prio;
    model_load_rules(&app.model, rules_dir);
    if (rules_dir && app.model.rules_error[0]) {
        fprintf(stderr, "dcbtop: --rules: %s\n", app.model.rules_error);
        model_free(&app.model);
        return 1;
    }
    app.src.sink = model_sink(&app.model);
    app.src.interval_ns = app.interval_ns;
    int rc = store ? top_source_store_open(&app.src, store, at_ns, window_ns, &err)
             : replay ? top_source_replay_open(&app.src, scenario, speed, &err)
                      : top_source_local_open(&app.src, &lo, &err);
    if (rc < 0) {
        fprintf(stderr, "dcbtop: %s: %s\n",
                store ? store : replay ? (scenario ? scenario : "--demo") : "local", err.msg);
        model_free(&app.model);
        return 1;
    }
    if (at_before_end && app.src.ops->seek)
        top_source_store_at_before_end(&app.src, at_before_end);
    int status = 0;
    if (batch) {
        struct timespec next;
        clock_gettime(CLOCK_MONOTONIC, &next);
        for (long f = 0; iterations == 0 || f < iterations; f++) {
            if (top_step(&app) < 0) {
                fprintf(stderr, "dcbtop: %s\n", app.error);
                status = 1;
                break;
            }
            if (app.error[0])
                fprintf(stderr, "dcbtop: %s\n", app.error);
            if (batch_frame(&app) < 0) {
                fprintf(stderr, "dcbtop: writing output: %s\n", strerror(errno));
                status = 1;
                break;
            }
            if (iterations && f + 1 >= iterations)
                break;
            next.tv_nsec += app.interval_ns % 1000000000LL;
            next.tv_sec += app.interval_ns / 1000000000LL + next.tv_nsec / 1000000000LL;
            next.tv_nsec %= 1000000000LL;
            while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
                ;
        }
    } else {
        status = ui_run(&app);
    }
    app.src.ops->close(&app.src);
    model_free(&app.model);
    return status;
}
