/* dcbtop: options, the source, and the main loop (interactive or batch). */
#include <errno.h>
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "log.h"
#include "source_opts.h"
#include "top.h"
#include "top_help.h"
#include "units.h"

/* Whether src polls devices at the refresh interval (--local, --gnmi), so that a device whose
 * readings stop is out of reach. A replay or a capture has its own pace; a store or a
 * Prometheus window moves in the source's time. */
static bool polls_devices(struct dcb_source *src)
{
    static const enum dcb_source_kind paced[] = { SOURCE_STORE, SOURCE_REPLAY, SOURCE_PCAP,
                                                  SOURCE_PROMETHEUS };
    if (!dcb_source_find(src, SOURCE_GNMI) && !dcb_source_find(src, SOURCE_LOCAL))
        return false;
    for (size_t k = 0; k < sizeof(paced) / sizeof(paced[0]); k++)
        if (dcb_source_find(src, paced[k]))
            return false;
    return true;
}

int top_step(struct top_app *app)
{
    struct dcb_err err;
    int64_t data_ns = 0;
    app->src.interval_ns = app->interval_ns;
    app->error[0] = '\0';
    app->model.wall_ns = dcb_realtime_ns();
    double speed = app->src.data_speed > 0 ? app->src.data_speed : 1;
    app->model.rate_window_ns = (int64_t)((double)app->interval_ns * speed);
    int rc = dcb_source_tick(&app->src, app->model.wall_ns, &data_ns, &err);
    if (rc < 0) {
        snprintf(app->error, sizeof(app->error), "%s", err.msg);
        return -1;
    }
    model_settle(&app->model);
    if (polls_devices(&app->src))
        model_mark_stale(&app->model, dcb_realtime_ns(), app->interval_ns);
    if (data_ns > app->model.data_ns)
        app->model.data_ns = data_ns;
    int64_t wall = dcb_realtime_ns();
    /* a finite source's last data (a capture played to its end) is judged at once */
    bool ended_now = rc == DCB_SOURCE_END && !app->source_ended;
    app->source_ended |= rc == DCB_SOURCE_END;
    if (!app->rules_wall_ns || app->model.dirty || ended_now ||
        wall - app->rules_wall_ns >= RULES_EVERY_NS) {
        app->rules_wall_ns = wall;
        if (model_run_rules(&app->model, &err) < 0)
            snprintf(app->error, sizeof(app->error), "rules: %s", err.msg);
    }
    return rc;
}

/* "1", "0.5" (seconds, as top takes them) or a duration ("500ms"). */
int top_parse_delay(const char *text, int64_t *ns)
{
    char *end;
    errno = 0;
    double s = strtod(text, &end);
    if (end != text && !*end && !errno) {
        if (!(s >= TOP_DELAY_MIN_NS / 1e9 && s <= TOP_DELAY_MAX_NS / 1e9))
            return -1;
        *ns = (int64_t)llround(s * 1e9);
        return 0;
    }
    struct dcb_err err;
    if (dcb_parse_duration(text, ns, &err) < 0 || *ns < TOP_DELAY_MIN_NS || *ns > TOP_DELAY_MAX_NS)
        return -1;
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


/* What the command line asked for; parse_args fills it, run_* use it. */
struct top_args {
    struct cli_ctx ctx;
    bool batch, auto_source;
    long iterations;
    int prio;
    struct cli_rules rules;
    struct source_opts src;
};

enum { O_MAN = 256, O_SORT, O_AUTO, O_RULES, O_PROFILE, O_VIEW };

static const struct option own_longopts[] = {
    { "batch", no_argument, NULL, 'b' },
    { "iterations", required_argument, NULL, 'n' },
    { "delay", required_argument, NULL, 'd' },
    { "prio", required_argument, NULL, 'p' },
    { "sort", required_argument, NULL, O_SORT },
    { "filter", required_argument, NULL, 'f' },
    { "view", required_argument, NULL, O_VIEW },
    { "rules", required_argument, NULL, O_RULES },
    { "profile", required_argument, NULL, O_PROFILE },
    { "auto", no_argument, NULL, O_AUTO },
    { "man", no_argument, NULL, O_MAN },
    { "version", no_argument, NULL, 'V' },
};
#define OWN_LONGOPTS (sizeof(own_longopts) / sizeof(own_longopts[0]))

static int parse_prio(struct top_args *a, const char *arg)
{
    if (!strcmp(arg, "l") || !strcmp(arg, "lossless"))
        a->prio = TOP_PRIO_LOSSLESS;
    else if (arg[0] >= '0' && arg[0] <= '7' && !arg[1])
        a->prio = arg[0] - '0';
    else
        return cli_usage_error(&a->ctx, "-p takes a priority 0-7 or 'lossless', not '%s'", arg);
    return CLI_NEXT;
}

static int parse_view(struct top_app *app, struct top_args *a, const char *arg)
{
    if (!strcmp(arg, "interfaces"))
        app->batch_view = TOP_BATCH_INTERFACES;
    else if (!strcmp(arg, "qos"))
        app->batch_view = TOP_BATCH_QOS;
    else
        return cli_usage_error(&a->ctx, "--view takes interfaces or qos, not '%s'", arg);
    return CLI_NEXT;
}

struct top_parse {
    struct top_app *app;
    struct top_args *a;
};

/* One of dcbtop's own options, in cli.h's convention. */
static int own_option(struct cli_ctx *ctx, void *args, int c, const char *arg)
{
    struct top_app *app = ((struct top_parse *)args)->app;
    struct top_args *a = ((struct top_parse *)args)->a;
    (void)ctx;
    switch (c) {
    case 'b': a->batch = true; return CLI_NEXT;
    case 'n': return cli_opt_long(&a->ctx, "-n", arg, 1, 100000000L, &a->iterations);
    case 'd':
        if (top_parse_delay(arg, &app->interval_ns) < 0)
            return cli_usage_error(&a->ctx, "-d takes " TOP_DELAY_RANGE ", not '%s'", arg);
        return CLI_NEXT;
    case 'p': return parse_prio(a, arg);
    case O_SORT:
        app->view.sort = parse_sort(arg);
        if (app->view.sort == -2)
            return cli_usage_error(&a->ctx,
                                   "--sort takes name or a column key (rx_bps, "
                                   "pfc_rx_per_s, ...), not '%s'",
                                   arg);
        return CLI_NEXT;
    case 'f': snprintf(app->view.filter, sizeof(app->view.filter), "%s", arg); return CLI_NEXT;
    case O_VIEW: return parse_view(app, a, arg);
    case O_RULES: return cli_opt_rules_dir(&a->ctx, &a->rules, arg);
    case O_PROFILE: return cli_opt_rules_profile(&a->ctx, &a->rules, arg);
    case O_AUTO: a->auto_source = true; return CLI_NEXT;
    case O_MAN: cli_print_man_page(&top_command, stdout); return 0;
    case 'V': out_term(stdout, "dcbtop %s\n", DCBKIT_VERSION); return 0;
    }
    return CLI_NOT_OWN;
}

static int parse_args(struct top_app *app, struct top_args *a, int argc, char **argv)
{
    struct top_parse tp = { app, a };
    struct cli_parser p = { own_longopts, OWN_LONGOPTS, "bn:d:p:f:V", own_option, &tp, &a->src };
    opterr = 0;
    int rc = cli_parse(&a->ctx, &p, argc, argv);
    if (rc != CLI_NEXT)
        return rc;
    app->format = a->ctx.format;
    if (optind < argc)
        return cli_usage_error(&a->ctx, "unexpected argument '%s'", argv[optind]);
    return CLI_NEXT;
}

static int check_args(const struct top_app *app, const struct top_args *a)
{
    const struct cli_ctx *ctx = &a->ctx;
    unsigned live = a->src.named & ~SOURCE_G_FABRIC;
    if (live & (live - 1))
        return cli_usage_error(ctx,
                               "give one source of data: --local, --gnmi, --store, "
                               "--replay/--demo, --pcap or --prometheus (a --fabric file may go "
                               "with any)");
    if (!a->batch && !isatty(STDOUT_FILENO))
        return cli_usage_error(ctx, "stdout is not a terminal: use -b for batch mode");
    if (!a->batch && app->format == OUT_JSON)
        return cli_usage_error(ctx, "-T json is for batch mode (-b)");
    if (!a->batch && app->batch_view != TOP_BATCH_INTERFACES)
        return cli_usage_error(ctx, "--view is for batch mode (-b): Tab cycles the views");
    return CLI_NEXT;
}

/* --auto: this host when one of its interfaces has PFC counters. 0 with the source open, or -1
 * (the caller opens the demo). */
static int open_auto_local(struct top_app *app, const struct top_args *a)
{
    struct dcb_err err;
    app->src.sink = model_sink(&app->model);
    app->src.interval_ns = app->interval_ns;
    if (dcb_source_local_open(&app->src, &a->src.local, &err) < 0)
        return -1;
    int64_t data_ns;
    if (dcb_source_tick(&app->src, dcb_realtime_ns(), &data_ns, &err) == 0 &&
        dcb_source_local_has_pfc(&app->src)) {
        app->model.data_ns = data_ns;
        return 0;
    }
    dcb_source_close(&app->src);
    app->src.sink.reset(app->src.sink.arg);
    return -1;
}

static int open_source(struct top_app *app, struct top_args *a)
{
    struct dcb_err err;
    bool only_intent = !(a->src.named & ~SOURCE_G_FABRIC);
    if (a->auto_source && only_intent) {
        if (open_auto_local(app, a) == 0)
            return 0;
        a->src.named |= SOURCE_G_REPLAY;
        a->src.demo = true;
    } else if (!a->src.named) {
        a->src.named = SOURCE_G_LOCAL;
    }
    if (source_opts_open(&a->src, model_sink(&app->model), app->interval_ns, 0, &app->src, &err) <
        0) {
        out_term(stderr, "dcbtop: %s\n", err.msg);
        return 1;
    }
    cli_drop_privileges(NULL, &a->src);
    if (a->auto_source && a->src.demo)
        snprintf(app->src.status, sizeof(app->src.status),
                 "no interface here has PFC counters: showing the built-in demo");
    return 0;
}

/* A source paced to the wall clock (a replay, a capture played in real time) whose tick brought
 * nothing new is behind (a busy machine): tick it again until its data moves on, it ends, or
 * NEW_DATA_WAIT_NS passes, so that no frame repeats the one before. rc: the last tick's. */
#define NEW_DATA_WAIT_NS (10 * 1000000000LL)
static int wait_new_data(struct top_app *app, int64_t shown_ns, int rc)
{
    int64_t poll = app->interval_ns / 4 < 20000000LL ? app->interval_ns / 4 : 20000000LL;
    int64_t give_up = dcb_monotonic_ns() + NEW_DATA_WAIT_NS + app->interval_ns;
    while (rc == 0 && app->src.data_speed > 0 && app->model.data_ns == shown_ns &&
           dcb_monotonic_ns() < give_up) {
        dcb_sleep_ns(poll, NULL);
        rc = top_step(app);
    }
    return rc;
}

static int run_batch(struct top_app *app, long iterations)
{
    struct dcb_ticker ticker;
    dcb_ticker_start(&ticker, app->interval_ns);
    int64_t shown_ns = -1;
    for (long f = 0; iterations == 0 || f < iterations; f++) {
        int rc = top_step(app);
        if (rc >= 0)
            rc = wait_new_data(app, shown_ns, rc);
        if (rc < 0) {
            out_term(stderr, "dcbtop: %s\n", app->error);
            return 1;
        }
        if (app->error[0])
            out_term(stderr, "dcbtop: %s\n", app->error);
        shown_ns = app->model.data_ns;
        if (batch_frame(app) < 0) {
            out_term(stderr, "dcbtop: writing output: %s\n", strerror(errno));
            return 1;
        }
        if (iterations && f + 1 >= iterations)
            break;
        dcb_ticker_wait(&ticker, NULL);
    }
    return 0;
}

static int setup_model(struct top_app *app, const struct top_args *a)
{
    struct dcb_err err;
    if (model_init(&app->model, &err) < 0) {
        out_term(stderr, "dcbtop: %s\n", err.msg);
        return 1;
    }
    app->model.prio = a->prio;
    model_load_rules(&app->model, a->rules.dirs, a->rules.ndirs, a->rules.profile);
    if (a->rules.ndirs && app->model.rules_error[0]) {
        out_term(stderr, "dcbtop: --rules: %s\n", app->model.rules_error);
        model_free(&app->model);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C"); /* "0.5" is half a second in every locale */
    dcb_log_init("dcbtop");
    static struct top_app app;
    static struct top_args a;
    app.interval_ns = 1000000000LL;
    app.format = OUT_TEXT;
    app.view.sort = COL_PFC_RX;
    app.view.utf8 = terminal_utf8();
    a.prio = TOP_PRIO_LOSSLESS;
    a.ctx = (struct cli_ctx){ .cmd = &top_command, .format = OUT_TEXT };
    source_opts_init(&a.src, SOURCE_G_ALL);
    int rc = parse_args(&app, &a, argc, argv);
    if (rc == CLI_NEXT)
        rc = check_args(&app, &a);
    if (rc != CLI_NEXT)
        return rc;
    if (setup_model(&app, &a) != 0)
        return 1;
    if (open_source(&app, &a) != 0) {
        model_free(&app.model);
        return 1;
    }
    int status = a.batch ? run_batch(&app, a.iterations) : ui_run(&app);
    dcb_source_close(&app.src);
    model_free(&app.model);
    return status;
}
