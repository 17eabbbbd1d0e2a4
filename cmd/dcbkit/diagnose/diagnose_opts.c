/* dcbkit diagnose: its options into struct diagnose_opts. The sources' flags are the shared
 * ones (source_opts.h); diagnose adds the rules, the window, the interval between two readings
 * of a live source and the verification in replay. */
#include <string.h>

#include "diagnose_cmd.h"
#include "units.h"

#define DIAGNOSE_GROUPS                                                                  \
    (SOURCE_G_LOCAL | SOURCE_G_GNMI | SOURCE_G_STORE | SOURCE_G_REPLAY | SOURCE_G_PCAP | \
     SOURCE_G_PROMETHEUS | SOURCE_G_FABRIC)

enum {
    O_RULES = 256,
    O_PROFILE,
    O_SINCE,
    O_INTERVAL,
    O_VERIFY,
    O_SCENARIO,
    O_CACHE_DIR,
    O_NO_CACHE
};

static const struct option own_longopts[] = {
    { "rules", required_argument, NULL, O_RULES },
    { "profile", required_argument, NULL, O_PROFILE },
    { "since", required_argument, NULL, O_SINCE },
    { "interval", required_argument, NULL, O_INTERVAL },
    { "verify", no_argument, NULL, O_VERIFY },
    { "scenario", required_argument, NULL, O_SCENARIO },
    { "cache-dir", required_argument, NULL, O_CACHE_DIR },
    { "no-cache", no_argument, NULL, O_NO_CACHE },
};
#define OWN_LONGOPTS (sizeof(own_longopts) / sizeof(own_longopts[0]))

/* diagnose's own options, in cli.h's convention (CLI_NEXT, CLI_NOT_OWN or an exit status). */
static int take_own(struct cli_ctx *ctx, void *args, int c, const char *arg)
{
    struct diagnose_opts *o = args;
    struct dcb_err err;
    switch (c) {
    case O_RULES: return cli_opt_rules_dir(ctx, &o->rules, arg);
    case O_PROFILE: return cli_opt_rules_profile(ctx, &o->rules, arg);
    case O_SINCE:
        if (dcb_parse_duration(arg, &o->since_ns, &err) < 0)
            return cli_usage_error(ctx, "--since: %s", err.msg);
        if (o->since_ns <= 0)
            return cli_usage_error(ctx, "--since must be above zero");
        return CLI_NEXT;
    case O_INTERVAL:
        if (dcb_parse_duration(arg, &o->interval_ns, &err) < 0 || o->interval_ns < 1000000)
            return cli_usage_error(ctx, "--interval: %s",
                                   o->interval_ns < 1000000 ? "at least 1ms" : err.msg);
        return CLI_NEXT;
    case O_VERIFY: o->verify = true; return CLI_NEXT;
    case O_SCENARIO: o->scenario = arg; return CLI_NEXT;
    case O_CACHE_DIR: o->cache_dir = arg; return CLI_NEXT;
    case O_NO_CACHE: o->cache_dir = ""; return CLI_NEXT;
    }
    return CLI_NOT_OWN;
}

/* The sources named, the fabric file counted apart when it is gNMI's device list. */
static unsigned sources_named(const struct source_opts *s)
{
    unsigned named = s->named;
    if ((named & SOURCE_G_GNMI) && s->fabric)
        named &= ~SOURCE_G_FABRIC;
    return named;
}

static int check(struct cli_ctx *ctx, const struct diagnose_opts *o)
{
    unsigned named = sources_named(&o->src);
    if (!named || (named & (named - 1)))
        return cli_usage_error(ctx, "give one evidence source: --store DB, --pcap FILE, "
                                    "--fabric FILE, --local, --gnmi HOST:PORT, --replay SCENARIO, "
                                    "--demo or --prometheus URL");
    if (o->scenario && !o->verify)
        return cli_usage_error(ctx, "--scenario is what --verify replays: give --verify too");
    if (o->verify && !o->scenario && !o->src.fabric)
        return cli_usage_error(ctx, "--verify needs a scenario to replay: --scenario FILE (or "
                                    "--fabric FILE, whose fabric gets a built-in incast)");
    if (o->src.store.at_ns || o->src.store.before_end_ns || o->src.store.window_ns)
        return cli_usage_error(ctx, "diagnose reads a store as of its newest data: --at and "
                                    "--window are dcbtop's (--since cuts the window)");
    if (o->src.replay.speed || o->src.pcap.speed)
        return cli_usage_error(ctx, "--replay-speed and --pcap-speed pace a view (dcbtop, serve); "
                                    "diagnose runs a replay or a capture as fast as it goes");
    if ((o->src.prometheus.match || o->src.prometheus.step_ns) && !o->src.prometheus.url)
        return cli_usage_error(ctx, "--match and --step go with --prometheus");
    return 0;
}

int diagnose_parse(struct cli_ctx *ctx, int argc, char **argv, struct diagnose_opts *o)
{
    memset(o, 0, sizeof(*o));
    source_opts_init(&o->src, DIAGNOSE_GROUPS);
    o->interval_ns = NS_PER_SEC;
    struct cli_parser p = { own_longopts, OWN_LONGOPTS, NULL, take_own, o, &o->src };
    int rc = cli_parse(ctx, &p, argc, argv);
    if (rc == 0)
        return DIAGNOSE_HELP_SHOWN;
    if (rc != CLI_NEXT)
        return rc;
    o->verbose = ctx->verbosity > 0;
    if (optind < argc)
        return cli_usage_error(ctx, "unexpected argument '%s'", argv[optind]);
    return check(ctx, o);
}
