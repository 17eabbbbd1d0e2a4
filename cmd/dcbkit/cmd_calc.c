/* dcbkit calc: the fabric formulas from lib/, at the command line. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pause_time.h"
#include "units.h"

static const uint64_t common_speeds_bps[] = {
    10000000000ULL, 25000000000ULL, 40000000000ULL, 50000000000ULL,
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

static int calc_pause(struct cli_ctx *ctx, int argc, char **argv)
{
    static const struct option longopts[] = {
        { "link-speed", required_argument, NULL, 's' },
        { "time", required_argument, NULL, 't' },
        CLI_COMMON_LONGOPTS,
        { NULL, 0, NULL, 0 },
    };
    uint64_t bps = 0;
    const char *time_text = NULL;
    struct dcb_err err;
    int c;
    while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS "s:t:", longopts, NULL)) != -1) {
        if (c == 's') {
            if (dcb_parse_speed(optarg, &bps, &err) < 0)
                return cli_usage_error(ctx, "--link-speed: %s", err.msg);
            if (bps == 0)
                return cli_usage_error(ctx, "--link-speed must be above zero");
        } else if (c == 't') {
            time_text = optarg;
        } else {
            int rc = cli_common_option(ctx, c, argv);
            if (rc >= 0)
                return rc;
        }
    }
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

static int calc_run(struct cli_ctx *ctx, int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error(ctx, "needs a formula: pause");
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        cli_print_help(ctx->cmd, stdout);
        return 0;
    }
    if (strcmp(argv[1], "pause") == 0)
        return calc_pause(ctx, argc - 1, argv + 1);
    return cli_usage_error(ctx, "unknown formula '%s' (known: pause)", argv[1]);
}

static const struct cli_option_doc calc_options[] = {
    { "--link-speed SPEED",
      "Link speed, such as 25G, 100G, 400G or 800G (K, M, G, T are powers of 1000; 'bps' may "
      "follow). Without it, pause prints a table for the common speeds." },
    { "--time DURATION",
      "Instead of QUANTA: how many quanta cover this time at --link-speed (rounded up; units ns, "
      "us, ms, s)." },
    CLI_COMMON_OPTION_DOCS,
    { NULL, NULL },
};

static const struct cli_example calc_examples[] = {
    { "dcbkit calc pause 65535 --link-speed 400G",
      "The longest pause one PFC frame can ask for on a 400G link: 83.885 us." },
    { "dcbkit calc pause 0xffff", "The same quanta at every common link speed." },
    { "dcbkit calc pause --time 50us --link-speed 100G",
      "The quanta a sender must put in a PFC frame to stop its peer for 50 us." },
    { "dcbkit calc pause 65535 --link-speed 400G -T json", "The same, as one JSON object." },
    { NULL, NULL },
};

const struct cli_command cmd_calc = {
    .name = "calc",
    .summary = "fabric formulas: PFC pause quanta and time",
    .synopsis = "dcbkit calc pause QUANTA [--link-speed SPEED] [-T json]\n"
                "dcbkit calc pause --time DURATION --link-speed SPEED [-T json]",
    .description =
        "pause converts PAUSE and PFC quanta to time. One quantum is 512 bit times (IEEE 802.3 "
        "Annex 31B), so the same quanta value means a shorter pause on a faster link: "
        "time = quanta x 512 / link speed. A PFC frame carries one 16-bit quanta value per "
        "priority, at most 65535; a receiver that keeps pausing must refresh its XOFF before the "
        "time runs out.\n\n"
        "The decoders, the replay engine and the rules use the same formula from the library.",
    .options = calc_options,
    .examples = calc_examples,
    .json_doc =
        "calc pause QUANTA: {\"schema\":1, \"quanta\":N, \"bit_times\":N, \"pauses\":[{"
        "\"link_speed_bps\":N, \"link_speed\":\"400G\", \"ns\":X, \"ps\":N}, ...]}, one entry "
        "per link speed (one when --link-speed is given). "
        "calc pause --time: {\"schema\":1, \"time_ns\":N, \"link_speed_bps\":N, \"quanta\":N, "
        "\"quanta_ns\":X, \"capped\":bool}; capped is true when even 65535 quanta are shorter "
        "than the time asked for.",
    .run = calc_run,
};
