/* dcbkit report's options: its own (window, output, rules, comparison) and every source option
 * (source_opts.h), into struct report_args; then the combinations that cannot go together. */
#include <string.h>

#include "report_cmd.h"
#include "units.h"

enum {
    O_SINCE = 256,
    O_COLLECT,
    O_INTERVAL,
    O_OUT,
    O_BASELINE,
    O_FROM_JSON,
    O_FORMAT_OUT,
    O_RULES,
    O_PROFILE,
    O_VERIFY
};

static const struct option own_longopts[] = {
    { "since", required_argument, NULL, O_SINCE },
    { "collect", required_argument, NULL, O_COLLECT },
    { "interval", required_argument, NULL, O_INTERVAL },
    { "out", required_argument, NULL, O_OUT },
    { "baseline", required_argument, NULL, O_BASELINE },
    { "from-json", required_argument, NULL, O_FROM_JSON },
    /* before the common options: `--format html|md` is the spelling for --from-json;
     * --format text|json still chooses the summary's format */
    { "format", required_argument, NULL, O_FORMAT_OUT },
    { "render", required_argument, NULL, O_FORMAT_OUT },
    { "rules", required_argument, NULL, O_RULES },
    { "profile", required_argument, NULL, O_PROFILE },
    { "verify", required_argument, NULL, O_VERIFY },
};
#define NOWN (sizeof(own_longopts) / sizeof(own_longopts[0]))
static int take_duration(struct cli_ctx *ctx, const char *flag, const char *arg, int64_t *dur)
{
    struct dcb_err err;
    if (dcb_parse_duration(arg, dur, &err) < 0)
        return cli_usage_error(ctx, "%s: %s", flag, err.msg);
    if (*dur < NS_PER_MS)
        return cli_usage_error(ctx, "%s must be at least 1ms", flag);
    return CLI_NEXT;
}

static int take_format(struct cli_ctx *ctx, struct report_args *a, const char *arg)
{
    if (!strcmp(arg, "text")) {
        ctx->format = OUT_TEXT;
        ctx->format_given = true;
        return CLI_NEXT;
    }
    if (strcmp(arg, "html") && strcmp(arg, "md") && strcmp(arg, "json"))
        return cli_usage_error(ctx,
                               "--format: html, md or json (with --from-json), text or json "
                               "(the summary), not '%s'",
                               arg);
    a->format = arg;
    return CLI_NEXT;
}

/* One option of report's own, in cli.h's convention. */
static int take_own(struct cli_ctx *ctx, void *args, int c, const char *arg)
{
    struct report_args *a = args;
    switch (c) {
    case O_OUT: a->out = arg; return CLI_NEXT;
    case O_BASELINE: a->baseline = arg; return CLI_NEXT;
    case O_FROM_JSON: a->from_json = arg; return CLI_NEXT;
    case O_VERIFY: a->verify = arg; return CLI_NEXT;
    case O_FORMAT_OUT: return take_format(ctx, a, arg);
    case O_RULES: return cli_opt_rules_dir(ctx, &a->rules, arg);
    case O_PROFILE: return cli_opt_rules_profile(ctx, &a->rules, arg);
    case O_SINCE: return take_duration(ctx, "--since", arg, &a->since_ns);
    case O_COLLECT: return take_duration(ctx, "--collect", arg, &a->collect_ns);
    case O_INTERVAL: return take_duration(ctx, "--interval", arg, &a->interval_ns);
    }
    return CLI_NOT_OWN;
}

static int check_from_json(struct cli_ctx *ctx, struct report_args *a)
{
    if (a->src.named || a->collect_ns || a->baseline || a->verify)
        return cli_usage_error(ctx, "--from-json re-renders a stored report: no --fabric, "
                                    "source, --collect, --baseline or --verify");
    /* -T json / --format text re-render as JSON / a text summary; neither: HTML */
    if (!a->format)
        a->format = !ctx->format_given ? "html" : ctx->format == OUT_JSON ? "json" : "text";
    return 0;
}

/* The sources that name their devices themselves; the others need --fabric for the list. */
static bool names_devices(const struct source_opts *o)
{
    return (o->named & (SOURCE_G_LOCAL | SOURCE_G_REPLAY | SOURCE_G_PCAP)) ||
           ((o->named & SOURCE_G_GNMI) && o->gnmi.naddresses);
}

static int check_sources(struct cli_ctx *ctx, struct report_args *a)
{
    const struct source_opts *o = &a->src;
    if (!o->fabric && !names_devices(o))
        return cli_usage_error(ctx, "needs --fabric FILE (or --from-json REPORT.json, or a "
                                    "source that names its devices: --local, --gnmi, --replay, "
                                    "--demo, --pcap)");
    if ((o->named & SOURCE_G_PROMETHEUS) &&
        ((o->named & ~(SOURCE_G_PROMETHEUS | SOURCE_G_FABRIC)) || a->collect_ns))
        return cli_usage_error(ctx, "--prometheus reads the window from Prometheus: no --store, "
                                    "other source or --collect");
    if (o->replay.speed || o->pcap.speed)
        return cli_usage_error(ctx, "--replay-speed and --pcap-speed pace a view (dcbtop, serve); "
                                    "report runs a replay or a capture as fast as it goes");
    if ((o->prometheus.match || o->prometheus.step_ns) && !(o->named & SOURCE_G_PROMETHEUS))
        return cli_usage_error(ctx, "--match and --step go with --prometheus");
    if (o->store.window_ns && a->since_ns)
        return cli_usage_error(ctx, "--since and --window both give the window's length: give "
                                    "one");
    bool live = o->named & (SOURCE_G_LOCAL | SOURCE_G_GNMI);
    if (a->interval_ns && !a->collect_ns && !live)
        return cli_usage_error(ctx, "--interval goes with --collect or a live source (--local, "
                                    "--gnmi)");
    return 0;
}

/* The window: --since or --window, else a day. --interval: a sixth of --collect, at least 1s;
 * --collect: two intervals. */
static void default_times(struct report_args *a)
{
    if (!a->since_ns)
        a->since_ns = a->src.store.window_ns ? a->src.store.window_ns : 24 * 3600 * NS_PER_SEC;
    if (!a->interval_ns && a->collect_ns) {
        a->interval_ns = a->collect_ns / 6;
        if (a->interval_ns < NS_PER_SEC)
            a->interval_ns = NS_PER_SEC;
        if (a->interval_ns > a->collect_ns)
            a->interval_ns = a->collect_ns;
    }
    if (!a->interval_ns)
        a->interval_ns = NS_PER_SEC;
    if (!a->collect_ns)
        a->collect_ns = 2 * a->interval_ns;
}

static int check_args(struct cli_ctx *ctx, struct report_args *a)
{
    if (a->from_json)
        return check_from_json(ctx, a);
    if (a->format && strcmp(a->format, "json") == 0) {
        ctx->format = OUT_JSON; /* --format json without --from-json: the summary */
        a->format = NULL;
    }
    if (a->format)
        return cli_usage_error(ctx, "--format %s goes with --from-json", a->format);
    int rc = check_sources(ctx, a);
    a->collect_given = a->collect_ns != 0;
    if (rc == 0)
        default_times(a);
    return rc;
}

int report_parse_args(struct cli_ctx *ctx, int argc, char **argv, struct report_args *a)
{
    memset(a, 0, sizeof(*a));
    source_opts_init(&a->src, SOURCE_G_ALL);
    struct cli_parser p = { own_longopts, NOWN, NULL, take_own, a, &a->src };
    int rc = cli_parse(ctx, &p, argc, argv);
    if (rc == 0)
        return REPORT_HELP_SHOWN;
    if (rc != CLI_NEXT)
        return rc;
    if (optind < argc)
        return cli_usage_error(ctx, "unexpected argument '%s'", argv[optind]);
    return check_args(ctx, a);
}
