/* dcbkit report's options: its own (window, output, rules, comparison) and every source option
 * (source_opts.h), into struct report_args; then the combinations that cannot go together. */
#include <string.h>

#include "report_cmd.h"
#include "units.h"

enum {
    O_SINCE = 256, O_COLLECT, O_INTERVAL, O_OUT, O_BASELINE, O_FROM_JSON, O_FORMAT_OUT, O_RULES,
    O_PROFILE, O_VERIFY
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
static const struct option common_longopts[] = { CLI_COMMON_LONGOPTS };
#define NCOMMON (sizeof(common_longopts) / sizeof(common_longopts[0]))
#define LONGOPTS_MAX (NOWN + NCOMMON + 96)

static void build_longopts(struct option *opts)
{
    size_t n = 0;
    memcpy(opts, own_longopts, sizeof(own_longopts));
    n = NOWN;
    source_opts_longopts(SOURCE_G_ALL, opts, &n, LONGOPTS_MAX - NCOMMON - 1);
    memcpy(opts + n, common_longopts, sizeof(common_longopts));
    memset(&opts[n + NCOMMON], 0, sizeof(opts[0]));
}

static int take_duration(struct cli_ctx *ctx, const char *flag, const char *arg, int64_t *dur)
{
    struct dcb_err err;
    if (dcb_parse_duration(arg, dur, &err) < 0)
        return cli_usage_error(ctx, "%s: %s", flag, err.msg);
    if (*dur < NS_PER_MS)
        return cli_usage_error(ctx, "%s must be at least 1ms", flag);
    return 0;
}

static int take_format(struct cli_ctx *ctx, struct report_args *a, const char *arg)
{
    if (!strcmp(arg, "text")) {
        ctx->format = OUT_TEXT;
        return 0;
    }
    if (strcmp(arg, "html") && strcmp(arg, "md") && strcmp(arg, "json"))
        return cli_usage_error(ctx, "--format: html, md or json (with --from-json), text or json "
                               "(the summary), not '%s'", arg);
    a->format = arg;
    return 0;
}

/* One option of report's own: 0 taken, 64 a usage error, -1 not report's. */
static int take_own(struct cli_ctx *ctx, struct report_args *a, int c, const char *arg)
{
    switch (c) {
    case O_OUT: a->out = arg; return 0;
    case O_BASELINE: a->baseline = arg; return 0;
    case O_FROM_JSON: a->from_json = arg; return 0;
    case O_VERIFY: a->verify = arg; return 0;
    case O_FORMAT_OUT: return take_format(ctx, a, arg);
    case O_RULES: return cli_rules_dir(ctx, &a->rules, arg);
    case O_PROFILE: return cli_rules_profile(ctx, &a->rules, arg);
    case O_SINCE: return take_duration(ctx, "--since", arg, &a->since_ns);
    case O_COLLECT: return take_duration(ctx, "--collect", arg, &a->collect_ns);
    case O_INTERVAL: return take_duration(ctx, "--interval", arg, &a->interval_ns);
    }
    return -1;
}

static int take_source(struct cli_ctx *ctx, struct report_args *a, int c, const char *arg)
{
    char why[256];
    int rc = source_opts_take(&a->src, c, arg, why, sizeof(why));
    if (rc < 0)
        return cli_usage_error(ctx, "%s", why);
    if (rc == 0)
        return -1;
    if (c == SO_PROMETHEUS && strncmp(arg, "http://", 7) != 0 && strncmp(arg, "https://", 8) != 0)
        return cli_usage_error(ctx, "--prometheus takes an http:// or https:// URL, not '%s'",
                               arg);
    return 0;
}

static int check_from_json(struct cli_ctx *ctx, struct report_args *a)
{
    if (a->src.named || a->collect_ns || a->baseline || a->verify)
        return cli_usage_error(ctx, "--from-json re-renders a stored report: no --fabric, "
                               "source, --collect, --baseline or --verify");
    if (!a->format)
        a->format = "html";
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
    char why[256];
    if (!o->fabric && !names_devices(o))
        return cli_usage_error(ctx, "needs --fabric FILE (or --from-json REPORT.json, or a "
                               "source that names its devices: --local, --gnmi, --replay, "
                               "--demo, --pcap)");
    if (source_opts_check(o, why, sizeof(why)) < 0)
        return cli_usage_error(ctx, "%s", why);
    if ((o->named & SOURCE_G_PROMETHEUS) &&
        ((o->named & ~(SOURCE_G_PROMETHEUS | SOURCE_G_FABRIC)) || a->collect_ns))
        return cli_usage_error(ctx, "--prometheus reads the window from Prometheus: no --store, "
                               "other source or --collect");
    if ((o->prometheus.match || o->prometheus.step_ns) && !(o->named & SOURCE_G_PROMETHEUS))
        return cli_usage_error(ctx, "--match and --step go with --prometheus");
    bool live = o->named & (SOURCE_G_LOCAL | SOURCE_G_GNMI);
    if (a->interval_ns && !a->collect_ns && !live)
        return cli_usage_error(ctx, "--interval goes with --collect or a live source (--local, "
                               "--gnmi)");
    return 0;
}

/* --interval: a sixth of --collect, at least 1s; --collect: two intervals. */
static void default_times(struct report_args *a)
{
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
        ctx->format = OUT_JSON;     /* --format json without --from-json: the summary */
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
    struct option longopts[LONGOPTS_MAX];
    build_longopts(longopts);
    memset(a, 0, sizeof(*a));
    source_opts_init(&a->src, SOURCE_G_ALL);
    a->since_ns = 24 * 3600 * NS_PER_SEC;
    int c;
    while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
        int rc = take_own(ctx, a, c, optarg);
        if (rc < 0)
            rc = take_source(ctx, a, c, optarg);
        if (rc < 0) {
            rc = cli_common_option(ctx, c, argv);
            if (rc == 0)
                return REPORT_HELP_SHOWN;
            if (rc < 0)
                continue;
        }
        if (rc)
            return rc;
    }
    if (optind < argc)
        return cli_usage_error(ctx, "unexpected argument '%s'", argv[optind]);
    return check_args(ctx, a);
}
