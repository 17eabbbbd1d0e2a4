/* dcbkit collect's options: its own (pacing, the destination store, dumps, --capture) and the
 * source groups every command shares (collectors/source_opts.h), then the combinations it
 * takes. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "collect.h"
#include "units.h"

enum {
    O_INTERVAL = 256,
    O_COUNT,
    O_DURATION,
    O_ONCE,
    O_STORE,
    O_RAW_EVERY,
    O_DUMP,
    O_DRIVER,
    O_CAPTURE
};

static const struct option own_longopts[] = {
    { "interval", required_argument, NULL, O_INTERVAL },
    { "count", required_argument, NULL, O_COUNT },
    { "duration", required_argument, NULL, O_DURATION },
    { "once", no_argument, NULL, O_ONCE },
    { "store", required_argument, NULL, O_STORE },
    { "raw-every", required_argument, NULL, O_RAW_EVERY },
    { "from-ethtool-dump", required_argument, NULL, O_DUMP },
    { "driver", required_argument, NULL, O_DRIVER },
    { "capture", required_argument, NULL, O_CAPTURE },
};
#define NOWN (sizeof(own_longopts) / sizeof(own_longopts[0]))
/* One of collect's own options, in cli.h's convention. */
static int take_own(struct cli_ctx *ctx, void *args, int c, const char *arg)
{
    struct collect_opts *o = args;
    struct dcb_err err;
    switch (c) {
    case O_INTERVAL:
        if (dcb_parse_duration(arg, &o->interval_ns, &err) < 0 || o->interval_ns < 1000000)
            return cli_usage_error(ctx, "--interval: %s",
                                   o->interval_ns < 1000000 ? "at least 1ms" : err.msg);
        return CLI_NEXT;
    case O_COUNT: return cli_opt_long(ctx, "--count", arg, 1, 1000000000L, &o->count);
    case O_DURATION:
        if (dcb_parse_duration(arg, &o->duration_ns, &err) < 0 || o->duration_ns <= 0)
            return cli_usage_error(ctx, "--duration: %s",
                                   o->duration_ns <= 0 ? "must be above zero" : err.msg);
        return CLI_NEXT;
    case O_ONCE: o->count = 1; return CLI_NEXT;
    case O_STORE: o->store_path = arg; return CLI_NEXT;
    case O_RAW_EVERY: return cli_opt_long(ctx, "--raw-every", arg, 1, 1000000L, &o->raw_every);
    case O_DUMP:
        if (o->ndumps == COLLECT_DUMPS_MAX)
            return cli_usage_error(ctx, "at most %d dumps", COLLECT_DUMPS_MAX);
        o->dumps[o->ndumps++] = arg;
        return CLI_NEXT;
    case O_DRIVER: o->driver = arg; return CLI_NEXT;
    case O_CAPTURE: o->capture_iface = arg; return CLI_NEXT;
    }
    return CLI_NOT_OWN;
}

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

/* The combinations collect takes: one source at a time. */
static int check_sources(struct cli_ctx *ctx, struct collect_opts *o, int nargs, char **args)
{
    unsigned named = o->src.named & ~SOURCE_G_FABRIC;
    /* --fabric F alone is the fabric's intent, recorded once (as everywhere, it opens no
     * connection); with --gnmi all it is also the list of switches to poll */
    if (o->src.fabric && (named & ~SOURCE_G_GNMI))
        return cli_usage_error(ctx, "--fabric goes alone (its intent) or with --gnmi (its "
                                    "switches); not with --local, --replay, --demo or --pcap");
    if (named & (named - 1))
        return cli_usage_error(ctx, "collect records one source at a time: --local, --gnmi, "
                                    "--replay/--demo or --pcap");
    if (!o->src.named)
        o->src.named |= SOURCE_G_LOCAL; /* the default */
    bool local = o->src.named & SOURCE_G_LOCAL;
    if ((o->src.named & SOURCE_G_GNMI) && (nargs || o->capture_iface || o->ndumps))
        return cli_usage_error(ctx, "--gnmi/--fabric collect switches; --capture, "
                                    "--from-ethtool-dump and arguments are for this host");
    if (!local && (o->capture_iface || o->ndumps))
        return cli_usage_error(ctx, "--capture and --from-ethtool-dump read this host, not "
                                    "--replay or --pcap");
    bool finite = o->src.named & (SOURCE_G_REPLAY | SOURCE_G_PCAP) ||
                  o->src.named == SOURCE_G_FABRIC;
    if (finite && nargs)
        return cli_usage_error(ctx, "unexpected argument '%s'", args[0]);
    if (finite && o->count)
        return cli_usage_error(ctx, "--count and --once pace a live source; --replay, --demo "
                                    "and --pcap are recorded whole");
    if (o->src.replay.speed || o->src.pcap.speed)
        return cli_usage_error(ctx, "--replay-speed and --pcap-speed pace a view; collect "
                                    "records a replay or a capture as fast as it goes");
    if ((o->src.named & SOURCE_G_PCAP) && o->duration_ns)
        return cli_usage_error(ctx, "--pcap is recorded whole: no --duration");
    return 0;
}

static int check_local(struct cli_ctx *ctx, struct collect_opts *o, int nargs, char **args)
{
    if (o->capture_iface && join_words(ctx, nargs, args, o->filter, sizeof(o->filter)))
        return EXIT_USAGE;
    if (!o->capture_iface && nargs)
        return cli_usage_error(ctx, "unexpected argument '%s'", args[0]);
    if (o->capture_iface && o->ndumps)
        return cli_usage_error(ctx, "--capture and --from-ethtool-dump are separate runs");
    const char *pattern = o->src.local.pattern;
    if (o->ndumps && (!pattern || strpbrk(pattern, "*?[")))
        return cli_usage_error(ctx, "--from-ethtool-dump needs --ifname NAME (the interface it "
                                    "was taken on)");
    return 0;
}

static void set_device(struct collect_opts *o)
{
    if (o->src.local.device)
        snprintf(o->device, sizeof(o->device), "%s", o->src.local.device);
    else if (gethostname(o->device, sizeof(o->device) - 1) < 0)
        snprintf(o->device, sizeof(o->device), "localhost");
}

int collect_parse(struct cli_ctx *ctx, int argc, char **argv, struct collect_opts *o)
{
    memset(o, 0, sizeof(*o));
    source_opts_init(&o->src, COLLECT_SOURCE_GROUPS);
    o->interval_ns = 1000000000LL;
    o->raw_every = HOST_RAW_EVERY;
    struct cli_parser p = { own_longopts, NOWN, NULL, take_own, o, &o->src };
    int rc = cli_parse(ctx, &p, argc, argv);
    if (rc != CLI_NEXT)
        return rc;
    rc = check_sources(ctx, o, argc - optind, argv + optind);
    if (rc == 0 && (o->src.named & SOURCE_G_LOCAL))
        rc = check_local(ctx, o, argc - optind, argv + optind);
    if (rc == 0)
        set_device(o);
    return rc ? rc : CLI_NEXT;
}

long collect_ticks(const struct collect_opts *o)
{
    if (o->count || !o->duration_ns)
        return o->count;
    return (long)((o->duration_ns + o->interval_ns - 1) / o->interval_ns);
}
