/* dcbkit calc: the fabric formulas from lib/, at the command line. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "headroom.h"
#include "pause_time.h"
#include "units.h"

static const uint64_t common_speeds_bps[] = {
    10000000000ULL,  25000000000ULL,  40000000000ULL,  50000000000ULL,
    100000000000ULL, 200000000000ULL, 400000000000ULL, 800000000000ULL,
};

static int parse_quanta(const struct cli_ctx *ctx, const char *text, uint32_t *quanta)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 0);
    if (errno || end == text || *end || text[0] == '-')
        return cli_usage_error(ctx, "'%s': quanta must be a whole number (decimal or 0x hex)",
                               text);
    if (v > PAUSE_QUANTA_MAX)
        return cli_usage_error(ctx, "'%s': quanta is a 16-bit field, at most 65535", text);
    *quanta = (uint32_t)v;
    return 0;
}

static void print_pause_row(struct dcb_out *o, uint32_t quanta, uint64_t bps)
{
    char speed[DCB_UNIT_BUF], dur[DCB_UNIT_BUF];
    double ns = pfc_quanta_to_ns(quanta, bps);
    out_obj_open(o, NULL);
    out_u64(o, "link_speed_bps", NULL, bps);
    out_str(o, "link_speed", "  %-6s", dcb_fmt_speed(bps, speed, sizeof(speed)));
    out_dbl(o, "ns", NULL, ns);
    out_u64(o, "ps", NULL, pause_quanta_to_ps(quanta, bps));
    out_str(o, NULL, " %s\n", dcb_fmt_duration_ns(ns, dur, sizeof(dur)));
    out_obj_close(o);
}

static int calc_pause_time(struct cli_ctx *ctx, const char *time_text, uint64_t bps)
{
    struct dcb_err err;
    int64_t ns;
    if (dcb_parse_duration(time_text, &ns, &err) < 0)
        return cli_usage_error(ctx, "--time: %s", err.msg);
    if (!bps)
        return cli_usage_error(ctx, "--time needs --link-speed: quanta depend on it");
    uint32_t quanta = pfc_ns_to_quanta((uint64_t)ns, bps);
    bool capped = quanta == PAUSE_QUANTA_MAX &&
                  pfc_quanta_to_ns(PAUSE_QUANTA_MAX, bps) < (double)ns;
    double covered_ns = pfc_quanta_to_ns(quanta, bps);
    char speed[DCB_UNIT_BUF], want[DCB_UNIT_BUF], got[DCB_UNIT_BUF];
    dcb_fmt_speed(bps, speed, sizeof(speed));
    dcb_fmt_duration_ns((double)ns, want, sizeof(want));
    dcb_fmt_duration_ns(covered_ns, got, sizeof(got));

    struct dcb_out o;
    out_init(&o, stdout, ctx->format);
    out_obj_open(&o, NULL);
    out_u64(&o, "schema", NULL, 1);
    out_i64(&o, "time_ns", NULL, ns);
    out_u64(&o, "link_speed_bps", NULL, bps);
    out_u64(&o, "quanta", "%" PRIu64 " quanta", quanta);
    out_dbl(&o, "quanta_ns", NULL, covered_ns);
    out_bool(&o, "capped", NULL, capped);
    if (capped)
        out_text(&o, " (the maximum) cover only %s at %s; %s needs more than one PAUSE\n", got,
                 speed, want);
    else
        out_text(&o, " cover %s at %s (%" PRIu32 " quanta = %s)\n", want, speed, quanta, got);
    out_obj_close(&o);
    return cli_finish_output(&o, 0);
}

struct pause_args {
    uint64_t bps;
    const char *time_text;
};

static int pause_option(struct cli_ctx *ctx, void *args, int c, const char *arg)
{
    struct pause_args *a = args;
    struct dcb_err err;
    if (c == 't') {
        a->time_text = arg;
        return CLI_NEXT;
    }
    if (c != 's')
        return CLI_NOT_OWN;
    if (dcb_parse_speed(arg, &a->bps, &err) < 0)
        return cli_usage_error(ctx, "--link-speed: %s", err.msg);
    if (a->bps == 0)
        return cli_usage_error(ctx, "--link-speed must be above zero");
    return CLI_NEXT;
}

static int calc_pause(struct cli_ctx *ctx, int argc, char **argv)
{
    static const struct option longopts[] = {
        { "link-speed", required_argument, NULL, 's' },
        { "time", required_argument, NULL, 't' },
    };
    struct pause_args a = { 0 };
    struct cli_parser p = { longopts, 2, "s:t:", pause_option, &a, NULL };
    int prc = cli_parse(ctx, &p, argc, argv);
    if (prc != CLI_NEXT)
        return prc;
    uint64_t bps = a.bps;
    const char *time_text = a.time_text;
    if (time_text) {
        if (optind < argc)
            return cli_usage_error(ctx, "give QUANTA or --time, not both");
        return calc_pause_time(ctx, time_text, bps);
    }
    if (optind >= argc)
        return cli_usage_error(ctx, "pause needs QUANTA (0-65535) or --time DURATION");
    if (argc - optind > 1)
        return cli_usage_error(ctx, "unexpected argument '%s'", argv[optind + 1]);
    uint32_t quanta = 0;
    int rc = parse_quanta(ctx, argv[optind], &quanta);
    if (rc)
        return rc;

    uint64_t bit_times = (uint64_t)quanta * PAUSE_QUANTUM_BITS;
    struct dcb_out o;
    out_init(&o, stdout, ctx->format);
    out_obj_open(&o, NULL);
    out_u64(&o, "schema", NULL, 1);
    out_u64(&o, "quanta", "%" PRIu64 " quanta", quanta);
    out_u64(&o, "bit_times", " = %" PRIu64 " bit times", bit_times);
    out_arr_open(&o, "pauses");
    if (bps) {
        char speed[DCB_UNIT_BUF], dur[DCB_UNIT_BUF];
        double ns = pfc_quanta_to_ns(quanta, bps);
        out_text(&o, " = %s at %s\n", dcb_fmt_duration_ns(ns, dur, sizeof(dur)),
                 dcb_fmt_speed(bps, speed, sizeof(speed)));
        out_obj_open(&o, NULL);
        out_u64(&o, "link_speed_bps", NULL, bps);
        out_str(&o, "link_speed", NULL, speed);
        out_dbl(&o, "ns", NULL, ns);
        out_u64(&o, "ps", NULL, pause_quanta_to_ps(quanta, bps));
        out_obj_close(&o);
    } else {
        out_text(&o, "; pause time by link speed:\n");
        for (size_t i = 0; i < sizeof(common_speeds_bps) / sizeof(common_speeds_bps[0]); i++)
            print_pause_row(&o, quanta, common_speeds_bps[i]);
    }
    out_arr_close(&o);
    out_obj_close(&o);
    return cli_finish_output(&o, 0);
}

static int parse_link_speed(const struct cli_ctx *ctx, const char *text, uint64_t *bps)
{
    struct dcb_err err;
    if (dcb_parse_speed(text, bps, &err) < 0)
        return cli_usage_error(ctx, "--link-speed: %s", err.msg);
    if (*bps == 0)
        return cli_usage_error(ctx, "--link-speed must be above zero");
    return 0;
}

static int parse_response_ns(const struct cli_ctx *ctx, const char *text, uint64_t *ns)
{
    /* a bare number is nanoseconds, as the option's synopsis says; "3us" works too */
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (!errno && end != text && !*end && text[0] != '-') {
        *ns = v;
        return 0;
    }
    struct dcb_err err;
    int64_t d;
    if (dcb_parse_duration(text, &d, &err) < 0)
        return cli_usage_error(ctx, "--response-time: %s", err.msg);
    *ns = (uint64_t)d;
    return 0;
}

static int parse_medium(const struct cli_ctx *ctx, const char *text, enum cable_medium *m)
{
    if (strcmp(text, "fiber") == 0 || strcmp(text, "fibre") == 0)
        *m = CABLE_FIBER;
    else if (strcmp(text, "dac") == 0 || strcmp(text, "copper") == 0)
        *m = CABLE_DAC;
    else
        return cli_usage_error(ctx, "--medium is fiber or dac, not '%s'", text);
    return 0;
}

static int parse_formula(const struct cli_ctx *ctx, const char *text, enum headroom_formula *f)
{
    if (strcmp(text, "full") == 0)
        *f = HEADROOM_FORMULA_FULL;
    else if (strcmp(text, "simple") == 0)
        *f = HEADROOM_FORMULA_SIMPLE;
    else
        return cli_usage_error(ctx, "--formula is full or simple, not '%s'", text);
    return 0;
}

/* Up to three decimals, trailing zeros trimmed: 84, 82.031. */
static char *fmt_trim3(double v, char *buf, size_t len)
{
    snprintf(buf, len, "%.3f", v);
    char *e = buf + strlen(buf) - 1;
    while (*e == '0')
        *e-- = '\0';
    if (*e == '.')
        *e = '\0';
    return buf;
}

/* One of headroom's own options: -1 when c is not one, else 0 or a usage status. */
static int headroom_option(struct cli_ctx *ctx, int c, struct headroom_input *in, bool *have_cable)
{
    struct dcb_err err;
    switch (c) {
    case 's': return parse_link_speed(ctx, optarg, &in->link_bps);
    case 'c':
        *have_cable = true;
        if (dcb_parse_length(optarg, &in->cable_mm, &err) < 0)
            return cli_usage_error(ctx, "--cable: %s", err.msg);
        return 0;
    case 'm':
        if (dcb_parse_bytes(optarg, &in->mtu, &err) < 0)
            return cli_usage_error(ctx, "--mtu: %s", err.msg);
        if (in->mtu < 68 || in->mtu > 65535)
            return cli_usage_error(ctx, "--mtu takes 68 to 65535 bytes, not '%s'", optarg);
        return 0;
    case 'M': return parse_medium(ctx, optarg, &in->medium);
    case 'r': return parse_response_ns(ctx, optarg, &in->response_ns);
    case 'f': return parse_formula(ctx, optarg, &in->formula);
    }
    return -1;
}

static int print_headroom(struct cli_ctx *ctx, const struct headroom_input *in,
                          const struct headroom *h)
{
    char speed[DCB_UNIT_BUF], len[DCB_UNIT_BUF], kb[DCB_UNIT_BUF], kib[DCB_UNIT_BUF];
    dcb_fmt_speed(in->link_bps, speed, sizeof(speed));
    dcb_fmt_length(in->cable_mm, len, sizeof(len));
    struct dcb_out o;
    out_init(&o, stdout, ctx->format);
    out_obj_open(&o, NULL);
    out_u64(&o, "schema", NULL, 1);
    out_str(&o, "formula", NULL, headroom_formula_name(in->formula));
    out_u64(&o, "link_speed_bps", NULL, in->link_bps);
    out_str(&o, "link_speed", NULL, speed);
    out_u64(&o, "cable_mm", NULL, in->cable_mm);
    out_str(&o, "cable", NULL, len);
    out_str(&o, "medium", NULL, cable_medium_name(in->medium));
    out_u64(&o, "propagation_ps_per_m", NULL, h->propagation_ps_per_m);
    out_u64(&o, "mtu", NULL, in->mtu);
    out_u64(&o, "response_time_ns", NULL, in->response_ns);
    out_text(&o, "PFC headroom (%s formula) for %s, %s of %s, MTU %" PRIu64 " B:\n",
             headroom_formula_name(in->formula), speed, len, cable_medium_name(in->medium),
             in->mtu);
    out_arr_open(&o, "terms");
    for (size_t i = 0; i < h->nterms; i++) {
        out_obj_open(&o, NULL);
        out_str(&o, "name", "  %-15s", h->term[i].name);
        out_u64(&o, "bytes", " %7" PRIu64 " B", h->term[i].bytes);
        out_str(&o, "how", "  %s\n", h->term[i].how);
        out_obj_close(&o);
    }
    out_arr_close(&o);
    out_u64(&o, "total_bytes", "  total           %7" PRIu64 " B", h->total);
    out_dbl(&o, "total_kb", NULL, (double)h->total / 1000.0);
    out_dbl(&o, "total_kib", NULL, (double)h->total / 1024.0);
    out_text(&o, "  = %s KB = %s KiB\n", fmt_trim3((double)h->total / 1000.0, kb, sizeof(kb)),
             fmt_trim3((double)h->total / 1024.0, kib, sizeof(kib)));
    out_obj_close(&o);
    return cli_finish_output(&o, 0);
}

struct headroom_args {
    struct headroom_input in;
    bool have_cable;
};

static int headroom_parser_option(struct cli_ctx *ctx, void *args, int c, const char *arg)
{
    struct headroom_args *a = args;
    (void)arg;
    int rc = headroom_option(ctx, c, &a->in, &a->have_cable);
    return rc < 0 ? CLI_NOT_OWN : rc ? rc : CLI_NEXT;
}

static int calc_headroom(struct cli_ctx *ctx, int argc, char **argv)
{
    static const struct option longopts[] = {
        { "link-speed", required_argument, NULL, 's' },
        { "cable", required_argument, NULL, 'c' },
        { "mtu", required_argument, NULL, 'm' },
        { "medium", required_argument, NULL, 'M' },
        { "response-time", required_argument, NULL, 'r' },
        { "formula", required_argument, NULL, 'f' },
    };
    struct headroom_args a = { .in = { .response_ns = HEADROOM_DEFAULT_RESPONSE_NS } };
    struct cli_parser p = { longopts, sizeof(longopts) / sizeof(*longopts),
                            NULL,     headroom_parser_option,
                            &a,       NULL };
    int prc = cli_parse(ctx, &p, argc, argv);
    if (prc != CLI_NEXT)
        return prc;
    struct headroom_input in = a.in;
    bool have_cable = a.have_cable;
    struct dcb_err err;
    if (optind < argc)
        return cli_usage_error(ctx, "unexpected argument '%s'", argv[optind]);
    if (!in.link_bps || !have_cable || !in.mtu)
        return cli_usage_error(ctx,
                               "headroom needs --link-speed, --cable and --mtu (%s is missing)",
                               !in.link_bps  ? "--link-speed"
                               : !have_cable ? "--cable"
                                             : "--mtu");
    struct headroom h;
    if (headroom_required(&in, &h, &err) < 0)
        return cli_usage_error(ctx, "%s", err.msg);
    return print_headroom(ctx, &in, &h);
}
static void print_threshold(struct dcb_out *o, const char *name, uint64_t bytes, const char *why)
{
    char b[DCB_UNIT_BUF];
    out_obj_open(o, NULL);
    out_str(o, "name", "  %-5s", name);
    out_u64(o, "bytes", " %9" PRIu64 " B", bytes);
    out_str(o, NULL, "  %-8s", dcb_fmt_bytes(bytes, b, sizeof(b)));
    out_str(o, "why", " %s\n", why);
    out_obj_close(o);
}

static int threshold_option(struct cli_ctx *ctx, void *args, int c, const char *arg)
{
    struct threshold_plan_input *in = args;
    struct dcb_err err;
    long v = 0;
    int rc;
    switch (c) {
    case 's': return (rc = parse_link_speed(ctx, arg, &in->link_bps)) ? rc : CLI_NEXT;
    case 'b':
        if (dcb_parse_bytes(arg, &in->buffer_bytes, &err) < 0)
            return cli_usage_error(ctx, "--buffer: %s", err.msg);
        if (in->buffer_bytes == 0)
            return cli_usage_error(ctx, "--buffer must be above zero");
        return CLI_NEXT;
    case 'p':
        if ((rc = cli_opt_long(ctx, "--ports", arg, 1, 4096, &v)) == CLI_NEXT)
            in->ports = (uint32_t)v;
        return rc;
    case 'l':
        if ((rc = cli_opt_long(ctx, "--lossless-prios", arg, 1, 8, &v)) == CLI_NEXT)
            in->lossless_prios = (uint32_t)v;
        return rc;
    case 'r': {
        int64_t ns = 0;
        if (dcb_parse_duration(arg, &ns, &err) < 0)
            return cli_usage_error(ctx, "--rtt: %s", err.msg);
        if (ns < 100 || ns > 1000000)
            return cli_usage_error(ctx, "--rtt takes 100ns to 1ms, not '%s'", arg);
        in->base_rtt_ns = (uint64_t)ns;
        return CLI_NEXT;
    }
    }
    return CLI_NOT_OWN;
}

static int calc_thresholds(struct cli_ctx *ctx, int argc, char **argv)
{
    static const struct option longopts[] = {
        { "link-speed", required_argument, NULL, 's' },
        { "buffer", required_argument, NULL, 'b' },
        { "ports", required_argument, NULL, 'p' },
        { "lossless-prios", required_argument, NULL, 'l' },
        { "rtt", required_argument, NULL, 'r' },
    };
    struct threshold_plan_input in = { .lossless_prios = 1,
                                       .base_rtt_ns = THRESH_BASE_RTT_NS_DEFAULT };
    struct dcb_err err;
    struct cli_parser pr = { longopts, sizeof(longopts) / sizeof(*longopts),
                             NULL,     threshold_option,
                             &in,      NULL };
    int prc = cli_parse(ctx, &pr, argc, argv);
    if (prc != CLI_NEXT)
        return prc;
    if (optind < argc)
        return cli_usage_error(ctx, "unexpected argument '%s'", argv[optind]);
    if (!in.link_bps || !in.buffer_bytes || !in.ports)
        return cli_usage_error(ctx,
                               "thresholds needs --link-speed, --buffer and --ports (%s is "
                               "missing)",
                               !in.link_bps       ? "--link-speed"
                               : !in.buffer_bytes ? "--buffer"
                                                  : "--ports");
    struct threshold_plan p;
    if (threshold_plan(&in, &p, &err) < 0)
        return cli_usage_error(ctx, "%s", err.msg);

    char speed[DCB_UNIT_BUF], buf[DCB_UNIT_BUF];
    dcb_fmt_speed(in.link_bps, speed, sizeof(speed));
    struct dcb_out o;
    out_init(&o, stdout, ctx->format);
    out_obj_open(&o, NULL);
    out_u64(&o, "schema", NULL, 1);
    out_u64(&o, "link_speed_bps", NULL, in.link_bps);
    out_u64(&o, "buffer_bytes", NULL, in.buffer_bytes);
    out_u64(&o, "ports", NULL, in.ports);
    out_u64(&o, "lossless_prios", NULL, in.lossless_prios);
    out_u64(&o, "base_rtt_ns", NULL, in.base_rtt_ns);
    out_u64(&o, "bdp_bytes", NULL, p.bdp_bytes);
    out_bool(&o, "clamped", NULL, p.clamped);
    out_bool(&o, "kmin_below_bdp", NULL, p.kmin_below_bdp);
    out_text(&o,
             "Lossless queue thresholds for %s, %s buffer, %" PRIu32 " ports x %" PRIu32
             " lossless prio%s (XON < Kmin < Kmax < XOFF):\n",
             speed, dcb_fmt_bytes(in.buffer_bytes, buf, sizeof(buf)), in.ports, in.lossless_prios,
             in.lossless_prios == 1 ? "" : "s");
    out_arr_open(&o, "thresholds");
    print_threshold(&o, "xon", p.v.xon, p.why_xon);
    print_threshold(&o, "kmin", p.v.kmin, p.why_kmin);
    print_threshold(&o, "kmax", p.v.kmax, p.why_kmax);
    print_threshold(&o, "xoff", p.v.xoff, p.why_xoff);
    out_arr_close(&o);
    if (p.kmin_below_bdp) {
        char xoff[DCB_UNIT_BUF], bdp[DCB_UNIT_BUF];
        out_text(&o,
                 "warning: XOFF %s per PG is under 4/3 of one BDP (%s at %s): PFC will "
                 "pause before ECN has marked enough; share the buffer among fewer lossless "
                 "PGs, or use a larger one\n",
                 dcb_fmt_bytes(p.v.xoff, xoff, sizeof(xoff)),
                 dcb_fmt_bytes(p.bdp_bytes, bdp, sizeof(bdp)), speed);
    }
    out_obj_close(&o);
    return cli_finish_output(&o, 0);
}

static int calc_run(struct cli_ctx *ctx, int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error(ctx, "needs a formula: pause, headroom or thresholds");
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        cli_print_help(ctx->cmd, stdout);
        return 0;
    }
    if (strcmp(argv[1], "pause") == 0)
        return calc_pause(ctx, argc - 1, argv + 1);
    if (strcmp(argv[1], "headroom") == 0)
        return calc_headroom(ctx, argc - 1, argv + 1);
    if (strcmp(argv[1], "thresholds") == 0)
        return calc_thresholds(ctx, argc - 1, argv + 1);
    return cli_usage_error(ctx, "unknown formula '%s' (known: pause, headroom, thresholds)",
                           argv[1]);
}

static const struct cli_option_doc calc_options[] = {
    { "--link-speed SPEED",
      "Link speed, such as 25G, 100G, 400G or 800G (K, M, G, T are powers of 1000; 'bps' may "
      "follow). Without it, pause prints a table for the common speeds." },
    { "--time DURATION",
      "Instead of QUANTA: how many quanta cover this time at --link-speed (rounded up; units ns, "
      "us, ms, s)." },
    { "--cable LENGTH", "headroom: cable length, in metres (100m, 2.5m, 1km; a bare number is "
                        "metres)." },
    { "--mtu BYTES", "headroom: the largest frame on the link, 68 to 65535 (9216, 9KiB)." },
    { "--medium fiber|dac", "headroom: cable type (default fiber). Both are taken as 5 ns/m, "
                            "the figure the background sources give for either." },
    { "--response-time NS",
      "headroom: time from the queue crossing XOFF to the PFC frame leaving, in ns or with a unit "
      "(3us); default 3000." },
    { "--formula full|simple",
      "headroom: full (default) adds the PFC frame, the peer's response and a second MTU to the "
      "simple cable + response + MTU sum." },
    { "--buffer BYTES", "thresholds: the switch's shared buffer (64MB, 32MiB)." },
    { "--ports N", "thresholds: ports sharing the buffer, 1 to 4096." },
    { "--lossless-prios N", "thresholds: lossless priorities per port, 1 to 8 (default 1)." },
    { "--rtt DURATION", "thresholds: the fabric's unloaded round trip, 100ns to 1ms (default "
                        "2us); Kmin is one bandwidth-delay product of it." },
    { NULL, NULL },
};

static const struct cli_example calc_examples[] = {
    { "dcbkit calc pause 65535 --link-speed 400G",
      "The longest pause one PFC frame can ask for on a 400G link: 83.885 us." },
    { "dcbkit calc pause 0xffff", "The same quanta at every common link speed." },
    { "dcbkit calc pause --time 50us --link-speed 100G",
      "The quanta a sender must put in a PFC frame to stop its peer for 50 us." },
    { "dcbkit calc pause 65535 --link-speed 400G -T json", "The same, as one JSON object." },
    { "dcbkit calc headroom --link-speed 400G --cable 100m --mtu 9216",
      "The PFC headroom of one lossless PG on a 400G link over 100 m of fiber, term by term." },
    { "dcbkit calc headroom --link-speed 100G --cable 300m --mtu 9000 --formula simple",
      "The textbook sum: 3 us cable round trip + 3 us response + one MTU = 84000 B (84 KB)." },
    { "dcbkit calc thresholds --link-speed 400G --buffer 64MB --ports 64",
      "XON, Kmin, Kmax and XOFF for a lossless queue, each with its reason." },
    { NULL, NULL },
};

const struct cli_command cmd_calc = {
    .name = "calc",
    .summary = "fabric formulas: PFC pause quanta, PFC headroom, lossless queue thresholds",
    .synopsis = "dcbkit calc pause QUANTA [--link-speed SPEED] [-T json]\n"
                "dcbkit calc pause --time DURATION --link-speed SPEED [-T json]\n"
                "dcbkit calc headroom --link-speed SPEED --cable LENGTH --mtu BYTES "
                "[--medium fiber|dac] [--response-time NS] [--formula full|simple] [-T json]\n"
                "dcbkit calc thresholds --link-speed SPEED --buffer BYTES --ports N "
                "[--lossless-prios N] [--rtt DURATION] [-T json]",
    .description =
        "pause converts PAUSE and PFC quanta to time. One quantum is 512 bit times (IEEE 802.3 "
        "Annex 31B), so the same quanta value means a shorter pause on a faster link: "
        "time = quanta x 512 / link speed. A PFC frame carries one 16-bit quanta value per "
        "priority, at most 65535; a receiver that keeps pausing must refresh its XOFF before the "
        "time runs out.\n\n"
        "headroom is the buffer a lossless priority group needs above XOFF: the data that still "
        "arrives while the PFC frame is produced, travels and is obeyed. The simple formula is "
        "cable round trip (2 x length x 5 ns/m) + response time + one MTU, all at line rate. The "
        "full formula, the default, adds the PFC frame's own 84 bytes on the wire, the time the "
        "peer may take to obey (IEEE 802.3 Annex 31B: 905 quanta at 400G) and a second MTU, the "
        "frame the receiver is sending when it has to send PFC. Each term is rounded up to whole "
        "bytes; KB is 1000 bytes, KiB 1024.\n\n"
        "thresholds proposes XON < Kmin < Kmax < XOFF for one lossless queue: Kmin is one "
        "bandwidth-delay product (link speed x --rtt, default 2 us: 100 KB at 400G, 200 KB at "
        "800G, the published starting values for those speeds) and Kmax 15 of them (1.5 MB at "
        "400G), capped at 3/4 of XOFF. The cap never lowers Kmin: the queue a flow needs grows "
        "with the link, whatever the buffer. When not even Kmin fits, Kmin is half the cap and "
        "a warning says PFC will act before ECN. XOFF is the buffer divided evenly among the "
        "lossless PGs; XON is half of Kmin. The rules cfg-threshold-order and"
        " cfg-threshold-xon check the same order.\n\n"
        "The decoders, the replay engine and the rules use the same formulas from the library.",
    .options = calc_options,
    .examples = calc_examples,
    .json_doc =
        "calc pause QUANTA: {\"schema\":1, \"quanta\":N, \"bit_times\":N, \"pauses\":[{"
        "\"link_speed_bps\":N, \"link_speed\":\"400G\", \"ns\":X, \"ps\":N}, ...]}, one entry "
        "per link speed (one when --link-speed is given). "
        "calc pause --time: {\"schema\":1, \"time_ns\":N, \"link_speed_bps\":N, \"quanta\":N, "
        "\"quanta_ns\":X, \"capped\":bool}; capped is true when even 65535 quanta are shorter "
        "than the time asked for. "
        "calc headroom: {\"schema\":1, \"formula\":\"full\", \"link_speed_bps\":N, "
        "\"link_speed\":\"400G\", \"cable_mm\":N, \"cable\":\"100m\", \"medium\":\"fiber\", "
        "\"propagation_ps_per_m\":N, \"mtu\":N, \"response_time_ns\":N, \"terms\":[{\"name\":"
        "\"cable_rtt\", \"bytes\":N, \"how\":\"...\"}, ...], \"total_bytes\":N, \"total_kb\":X, "
        "\"total_kib\":X}; terms are cable_rtt, local_response, mtu, then (full) pfc_frame, "
        "peer_response, mtu_peer, and total_bytes is their sum. "
        "calc thresholds: {\"schema\":1, \"link_speed_bps\":N, \"buffer_bytes\":N, \"ports\":N, "
        "\"lossless_prios\":N, \"base_rtt_ns\":N, \"bdp_bytes\":N, \"clamped\":bool, "
        "\"kmin_below_bdp\":bool, \"thresholds\":[{\"name\":\"xon\", \"bytes\":N, "
        "\"why\":\"...\"}, kmin, kmax, xoff]}, in that order, each larger than the one before.",
    .run = calc_run,
    .actions = "pause headroom thresholds",
};
