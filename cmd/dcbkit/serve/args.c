/* dcbkit serve's command line: its own options (where to listen, how often, the rules, the HTTP
 * limits) and the source options every command shares (collectors/source_opts.h), checked for
 * what serve can export: a live source, a fabric's intent, or a store another process writes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"
#include "units.h"

enum {
    O_LISTEN = 256,
    O_RULES,
    O_NO_RULES,
    O_PROFILE,
    O_INTERVAL,
    O_HISTORY,
    O_TIMEOUT,
    O_MAX_CONN,
    O_MAX_HEADER,
    O_RING,
    O_ONCE,
    O_SPEED,
    O_PCAP,
    O_PROMETHEUS
};

static const struct option own_longopts[] = {
    { "listen", required_argument, NULL, O_LISTEN },
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
    { "speed", required_argument, NULL, O_SPEED },
    { "pcap", required_argument, NULL, O_PCAP },
    { "prometheus", required_argument, NULL, O_PROMETHEUS },
};
#define OWN_LONGOPTS (sizeof(own_longopts) / sizeof(own_longopts[0]))

static void defaults(struct serve_args *a)
{
    memset(a, 0, sizeof(*a));
    a->listen = "127.0.0.1:9876";
    a->interval_ns = 5 * NS_PER_SEC;
    a->history_ns = 300 * NS_PER_SEC;
    a->timeout_ns = 10 * NS_PER_SEC;
    a->max_connections = 512;
    a->ring_samples = 1L << 20;
    a->max_header = 16384;
    source_opts_init(&a->src, SERVE_SOURCE_GROUPS);
}

static int duration_opt(struct cli_ctx *ctx, const char *flag, const char *arg, int64_t min,
                        const char *min_text, int64_t *out)
{
    struct dcb_err err;
    int64_t ns;
    if (dcb_parse_duration(arg, &ns, &err) < 0)
        return cli_usage_error(ctx, "%s: %s", flag, err.msg);
    if (ns < min || ns > 86400 * NS_PER_SEC)
        return cli_usage_error(ctx, "%s: from %s to 24h, not '%s'", flag, min_text, arg);
    *out = ns;
    return 0;
}

/* Sources serve has no use for, and why (the help says the same). */
static int refused(struct cli_ctx *ctx, int c)
{
    if (c == O_PCAP)
        return cli_usage_error(ctx, "--pcap: serve exports a live fabric, and a finished capture "
                                    "has no 'now'; record it into a store (dcbkit collect --pcap "
                                    "FILE --store DB) and serve the store");
    return cli_usage_error(ctx, "--prometheus: Prometheus already holds what serve would export "
                                "again; use federation (/federate) instead");
}

/* The older helpers' 0 for a good value is CLI_NEXT here. */
static int next_if_ok(int rc)
{
    return rc ? rc : CLI_NEXT;
}

/* One of serve's own options, in cli.h's convention. */
static int own_option(struct cli_ctx *ctx, void *args, int c, const char *arg)
{
    struct serve_args *a = args;
    struct dcb_err err;
    switch (c) {
    case O_LISTEN: a->listen = arg; return CLI_NEXT;
    case O_RULES: return cli_opt_rules_dir(ctx, &a->rules, arg);
    case O_NO_RULES: a->no_rules = true; return CLI_NEXT;
    case O_PROFILE: return cli_opt_rules_profile(ctx, &a->rules, arg);
    case O_INTERVAL:
        return next_if_ok(
            duration_opt(ctx, "--interval", arg, 10 * NS_PER_MS, "10ms", &a->interval_ns));
    case O_HISTORY:
        return next_if_ok(duration_opt(ctx, "--history", arg, NS_PER_SEC, "1s", &a->history_ns));
    case O_TIMEOUT:
        return next_if_ok(duration_opt(ctx, "--timeout", arg, NS_PER_SEC, "1s", &a->timeout_ns));
    case O_MAX_CONN:
        return cli_opt_long(ctx, "--max-connections", arg, 1, 60000, &a->max_connections);
    case O_RING: return cli_opt_long(ctx, "--ring-samples", arg, 1024, 1L << 28, &a->ring_samples);
    case O_MAX_HEADER:
        if (dcb_parse_bytes(arg, &a->max_header, &err) < 0)
            return cli_usage_error(ctx, "--max-header-size: %s", err.msg);
        if (a->max_header < 4096 || a->max_header > (1u << 24))
            return cli_usage_error(ctx, "--max-header-size: from 4KiB to 16MiB, not '%s'", arg);
        return CLI_NEXT;
    case O_ONCE: a->once = true; return CLI_NEXT;
    case O_SPEED: /* the older name of --replay-speed */
        return cli_source_option(ctx, &a->src, SO_REPLAY_SPEED, NULL);
    case O_PCAP:
    case O_PROMETHEUS: return refused(ctx, c);
    }
    return CLI_NOT_OWN;
}

static int parse_options(struct cli_ctx *ctx, int argc, char **argv, struct serve_args *a)
{
    struct cli_parser p = { own_longopts, OWN_LONGOPTS, NULL, own_option, a, &a->src };
    int rc = cli_parse(ctx, &p, argc, argv);
    if (rc == 0)
        return SERVE_HELP_SHOWN;
    if (rc != CLI_NEXT)
        return rc;
    if (optind < argc)
        return cli_usage_error(ctx, "unexpected argument '%s'", argv[optind]);
    return 0;
}

/* Which sources go together in serve. */
static int check_sources(struct cli_ctx *ctx, const struct source_opts *o)
{
    unsigned live = o->named & (SOURCE_G_LOCAL | SOURCE_G_GNMI | SOURCE_G_REPLAY);
    bool store = o->named & SOURCE_G_STORE, fabric = o->named & SOURCE_G_FABRIC;
    if (!o->named || ((live & SOURCE_G_REPLAY) && live != SOURCE_G_REPLAY))
        return cli_usage_error(ctx, "give one source: --local, --gnmi HOST:PORT, --replay "
                                    "SCENARIO, --demo, --fabric FILE, or --store DB alone");
    if (fabric && (live & SOURCE_G_REPLAY))
        return cli_usage_error(ctx, "--fabric: a scenario brings its own fabric");
    if (fabric && store && !live)
        return cli_usage_error(ctx, "--fabric with --store: give --local or --gnmi too (a store "
                                    "serve only reads cannot take the fabric's intent)");
    if (o->store.at_ns || o->store.before_end_ns || o->store.window_ns)
        return cli_usage_error(ctx, "--at and --window do not apply: serve exports a store's "
                                    "newest values (--history says how far back the rules look)");
    const struct source_local_options *l = &o->local;
    if (!(o->named & SOURCE_G_LOCAL) && (l->sysfs_root || l->proc_root || l->pattern || l->no_lldp))
        return cli_usage_error(ctx, "--sysfs-root, --proc-root, --ifname and --no-lldp go with "
                                    "--local");
    if (!(o->named & (SOURCE_G_LOCAL | SOURCE_G_GNMI)) && (l->maps_dir || l->device))
        return cli_usage_error(ctx, "--maps and --device go with --local or --gnmi");
    return 0;
}

int serve_parse_args(struct cli_ctx *ctx, int argc, char **argv, struct serve_args *a)
{
    defaults(a);
    int rc = parse_options(ctx, argc, argv, a);
    if (rc)
        return rc;
    if ((rc = check_sources(ctx, &a->src)))
        return rc;
    struct source_opts *o = &a->src;
    if ((o->named & SOURCE_G_STORE) && (o->named & ~(SOURCE_G_STORE | SOURCE_G_FABRIC))) {
        a->record = o->store.path; /* beside a live source, the store records */
        o->named &= ~SOURCE_G_STORE;
    }
    if (o->local.sysfs_root && strcmp(o->local.sysfs_root, "/sys") != 0)
        o->local.no_lldp = true; /* a saved tree has no live links to listen on */
    return 0;
}
