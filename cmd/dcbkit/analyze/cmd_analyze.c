/* dcbkit analyze FILE: one pass over a capture through the decoders and the trackers, then the
 * findings (analyze_findings.c) and the report (analyze_print*.c). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "analyze.h"
#include "capture_file.h"
#include "cli.h"
#include "log.h"
#include "store.h"
#include "units.h"

#define DEFAULT_LINK_BPS 400000000000ULL
#define DEFAULT_STORM_MS 200
#define DEFAULT_TOP 20
#define PROGRESS_EVERY_FRAMES 65536
#define PROGRESS_PERIOD_NS 500000000LL
#define HELP_SHOWN (-1)

struct analyze_run {
    struct analysis a;
    struct dcb_store *store;
    uint64_t store_errors;
    char store_first_error[DCB_ERR_MSG_MAX];
    bool progress;
    int64_t started_ns, last_progress_ns;
};

static int64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int parse_lossless(const struct cli_ctx *ctx, const char *text, int *mask)
{
    *mask = 0;
    if (strcmp(text, "none") == 0)
        return 0;
    const char *p = text;
    while (*p) {
        if (*p < '0' || *p > '7' || (p[1] && p[1] != ','))
            return cli_usage_error(ctx, "--lossless takes priorities 0-7 separated by commas "
                                   "(such as 3 or 3,4) or 'none', not '%s'", text);
        *mask |= 1 << (*p - '0');
        p += p[1] ? 2 : 1;
    }
    if (!*mask)
        return cli_usage_error(ctx, "--lossless: no priority in '%s'", text);
    return 0;
}

struct analyze_args {
    struct analyze_options *opt;
    const char **store_path;
};

/* analyze's own options, in cli.h's convention. */
static int analyze_option(struct cli_ctx *ctx, void *args, int c, const char *arg)
{
    struct analyze_options *opt = ((struct analyze_args *)args)->opt;
    struct dcb_err err;
    long v;
    int rc;
    switch (c) {
    case 'r': opt->file = arg; return CLI_NEXT;
    case 'd': *((struct analyze_args *)args)->store_path = arg; return CLI_NEXT;
    case 's':
        if (dcb_parse_speed(arg, &opt->link_bps, &err) < 0)
            return cli_usage_error(ctx, "--link-speed: %s", err.msg);
        if (opt->link_bps == 0)
            return cli_usage_error(ctx, "--link-speed must be above zero");
        opt->link_speed_assumed = false;
        return CLI_NEXT;
    case 'l': return (rc = parse_lossless(ctx, arg, &opt->lossless_mask)) ? rc : CLI_NEXT;
    case 'S':
        if ((rc = cli_opt_long(ctx, "--storm-ms", arg, 1, 3600000, &v)) == CLI_NEXT)
            opt->storm_ns = v * 1000000LL;
        return rc;
    case 'Q':
        if ((rc = cli_opt_long(ctx, "--max-qps", arg, 1, 1L << 26, &v)) == CLI_NEXT)
            opt->max_qps = (uint32_t)v;
        return rc;
    case 'n':
        if ((rc = cli_opt_long(ctx, "--top", arg, 0, 1L << 30, &v)) == CLI_NEXT)
            opt->top = v;
        return rc;
    }
    return CLI_NOT_OWN;
}

static int parse_args(struct cli_ctx *ctx, int argc, char **argv, struct analyze_options *opt,
                      const char **store_path)
{
    static const struct option longopts[] = {
        { "read", required_argument, NULL, 'r' },
        { "link-speed", required_argument, NULL, 's' },
        { "lossless", required_argument, NULL, 'l' },
        { "storm-ms", required_argument, NULL, 'S' },
        { "max-qps", required_argument, NULL, 'Q' },
        { "top", required_argument, NULL, 'n' },
        { "store", required_argument, NULL, 'd' },
    };
    *opt = (struct analyze_options){
        .link_bps = DEFAULT_LINK_BPS, .link_speed_assumed = true, .lossless_mask = -1,
        .storm_ns = DEFAULT_STORM_MS * 1000000LL, .max_qps = QP_DEFAULT_MAX, .top = DEFAULT_TOP,
    };
    struct analyze_args args = { opt, store_path };
    struct cli_parser p = { longopts, sizeof(longopts) / sizeof(*longopts), "r:", analyze_option,
                            &args, NULL };
    int rc = cli_parse(ctx, &p, argc, argv);
    if (rc == 0)
        return HELP_SHOWN;
    if (rc != CLI_NEXT)
        return rc;
    if (optind < argc && !opt->file)
        opt->file = argv[optind++];
    if (optind < argc)
        return cli_usage_error(ctx, "unexpected argument '%s' (one capture per run)",
                               argv[optind]);
    if (!opt->file)
        return cli_usage_error(ctx, "give the capture to analyse: dcbkit analyze FILE");
    opt->verbose = ctx->verbosity > 0;
    return 0;
}

static void store_event(void *arg, const struct dcb_event *e)
{
    struct analyze_run *run = arg;
    struct dcb_err err;
    if (store_put_event(run->store, e, &err) < 0 && run->store_errors++ == 0)
        snprintf(run->store_first_error, sizeof(run->store_first_error), "%s", err.msg);
}

static void show_progress(struct analyze_run *run, bool done)
{
    int64_t now = monotonic_ns();
    if (!done && now - run->last_progress_ns < PROGRESS_PERIOD_NS)
        return;
    run->last_progress_ns = now;
    if (done) {
        fprintf(stderr, "\r\033[K");
        return;
    }
    double s = (double)(now - run->started_ns) / 1e9;
    fprintf(stderr, "\ranalyze: %.1fM frames, %u QPs, %.1fM frames/s\033[K",
            (double)run->a.frames / 1e6, run->a.t.qps.nflows,
            s > 0 ? (double)run->a.frames / s / 1e6 : 0);
}

static bool on_packet(void *arg, const struct capture_packet *p)
{
    static struct dcb_frame frame;
    struct analyze_run *run = arg;
    struct analysis *a = &run->a;
    if (!a->frames++)
        a->first_ns = p->ts_ns;
    a->last_ns = p->ts_ns;
    if (run->progress && (a->frames % PROGRESS_EVERY_FRAMES) == 0)
        show_progress(run, false);
    if (!dcb_linktype_known(p->linktype)) {
        a->other_linktype++;
        return true;
    }
    if (!dcb_decode_link_frame(p->linktype, p->data, p->caplen, p->len, &frame))
        a->malformed++;
    dcb_verify_icrc(p->data, &frame);     /* a corrupt frame counts as such, not as a mark */
    track_set_frame(&a->t, p->ts_ns, p->iface, &frame);
    return true;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int open_store(struct analyze_run *run, const char *path, int64_t *run_id)
{
    struct dcb_err err;
    struct store_options so = { .path = path };
    if (store_open_sqlite(&run->store, &so, &err) < 0)
        return cli_fail(1, path, "%s", err.msg);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    if (store_begin_run(run->store, "analyze", run->a.opt.file,
                        (int64_t)now.tv_sec * 1000000000 + now.tv_nsec, run_id, &err) < 0) {
        store_close(run->store, NULL);
        run->store = NULL;
        return cli_fail(1, path, "%s", err.msg);
    }
    return 0;
}

/* The findings and the end of the run; 0, or 1 after saying what failed. */
static int close_store(struct analyze_run *run, const char *path, int64_t run_id)
{
    struct dcb_err err;
    const char *device = base_name(run->a.opt.file);
    for (unsigned i = 0; i < run->a.nfindings && !run->store_errors; i++) {
        const struct analyze_finding *f = &run->a.findings[i];
        char json[ANALYZE_SUMMARY_MAX * 2 + 64], summary[ANALYZE_SUMMARY_MAX * 2];
        out_json_string_buf(summary, sizeof(summary), f->summary);
        snprintf(json, sizeof(json), "{\"summary\":%s,\"count\":%" PRIu64 "}", summary, f->count);
        struct store_finding_row row = {
            .run_id = run_id, .time_ns = run->a.last_ns, .rule = f->kind,
            .severity = f->severity == SEV_INFO ? "info" : analyze_severity_name(f->severity),
            .device = device, .ifname = "", .prio = -1, .json = json,
        };
        if (store_put_finding(run->store, &row, &err) < 0 && run->store_errors++ == 0)
            snprintf(run->store_first_error, sizeof(run->store_first_error), "%s", err.msg);
    }
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    if (!run->store_errors &&
        store_end_run(run->store, run_id, (int64_t)now.tv_sec * 1000000000 + now.tv_nsec,
                      &err) < 0 && run->store_errors++ == 0)
        snprintf(run->store_first_error, sizeof(run->store_first_error), "%s", err.msg);
    if (store_close(run->store, &err) < 0 && run->store_errors++ == 0)
        snprintf(run->store_first_error, sizeof(run->store_first_error), "%s", err.msg);
    run->store = NULL;
    if (run->store_errors)
        return cli_fail(1, path, "%s (%" PRIu64 " writes failed; the report above is complete)",
                        run->store_first_error, run->store_errors);
    return 0;
}

static int analyze_run(struct cli_ctx *ctx, int argc, char **argv)
{
    static struct analyze_run run;
    const char *store_path = NULL;
    memset(&run, 0, sizeof(run));
    int rc = parse_args(ctx, argc, argv, &run.a.opt, &store_path);
    if (rc)
        return rc == HELP_SHOWN ? 0 : rc;
    struct analysis *a = &run.a;
    int64_t run_id = 0;
    if (store_path && open_store(&run, store_path, &run_id))
        return 1;
    struct track_events events = {
        .fn = run.store ? store_event : NULL, .arg = &run, .device = base_name(a->opt.file),
    };
    if (track_set_init(&a->t, a->opt.link_bps, a->opt.storm_ns, a->opt.max_qps, &events) < 0) {
        if (run.store)
            store_close(run.store, NULL);
        return cli_fail(1, "analyze", "cannot allocate the QP table for --max-qps %u",
                        a->opt.max_qps);
    }
    run.progress = isatty(STDERR_FILENO) && ctx->verbosity >= 0;
    run.started_ns = run.last_progress_ns = monotonic_ns();
    struct dcb_err err;
    int status = 0;
    if (capture_file_read(a->opt.file, NULL, on_packet, &run, &err) < 0)
        status = cli_fail(1, a->opt.file, "%s", err.msg);
    if (run.progress)
        show_progress(&run, true);
    if (a->frames || !status) {
        track_set_finish(&a->t, a->last_ns);
        if (track_set_nomem(&a->t))
            dcb_warn("analyze: out of memory: some records were not kept (counted as untracked)");
        analyze_judge(a);
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        a->peak_rss_kb = ru.ru_maxrss;
        a->elapsed_s = (double)(monotonic_ns() - run.started_ns) / 1e9;
        if (ctx->verbosity > 0)
            fprintf(stderr, "analyze: %" PRIu64 " frames in %.2f s (%.2fM frames/s), %u QPs "
                    "tracked, peak RSS %ld KB\n", a->frames, a->elapsed_s,
                    a->elapsed_s > 0 ? (double)a->frames / a->elapsed_s / 1e6 : 0,
                    a->t.qps.nflows, a->peak_rss_kb);
        struct dcb_out o;
        out_init(&o, stdout, ctx->format);
        analyze_print(&o, a);
        status = cli_finish_output(&o, status);
    }
    if (run.store && close_store(&run, store_path, run_id))
        status = 1;
    track_set_free(&a->t);
    return status;
}

static const struct cli_option_doc analyze_options[] = {
    { "FILE, -r FILE", "The capture: pcap or pcapng (also with mixed link types), '-' for "
      "standard input." },
    { "--link-speed SPEED", "Link speed for turning pause quanta into time (default 400G, "
      "reported as assumed)." },
    { "--lossless LIST", "The lossless priorities, such as 3 or 3,4 (default: the PFC enable "
      "masks advertised in the capture's DCBX; unknown without either)." },
    { "--storm-ms N", "A priority paused by refreshed XOFFs for longer than this is a storm "
      "(default 200)." },
    { "--max-qps N", "QPs tracked one by one (default 262144); packets of later QPs are "
      "counted as untracked." },
    { "--top N", "RoCE flows listed in text output, busiest first (default 20; JSON lists "
      "all)." },
    { "--store DB", "Also write the events (pause intervals, storms, PSN gaps, NAKs, DCBX "
      "changes and mismatches), the findings and a run record to this store." },
    CLI_COMMON_OPTION_DOCS,
    { NULL, NULL },
};

static const struct cli_example analyze_examples[] = {
    { "dcbkit analyze fabric.pcap --link-speed 400G",
      "What is wrong on this link, worst first." },
    { "dcbkit analyze storm.pcapng --lossless 3 --storm-ms 100 -T json",
      "The same as one JSON document, with priority 3 as the only lossless class." },
    { "tcpdump -i eth0 -w - 'udp port 4791 or ether proto 0x8808' | dcbkit analyze -",
      "Analyse a capture as it is written." },
    { "dcbkit analyze case.pcap --store case.db && dcbkit store events --store case.db",
      "Keep the events and findings for later." },
    { NULL, NULL },
};

const struct cli_command cmd_analyze = {
    .name = "analyze",
    .summary = "explain a capture: pauses and storms, RoCE loss and marking, CNPs, DCBX",
    .synopsis = "dcbkit analyze FILE [--link-speed SPEED] [--lossless LIST] [--storm-ms N] "
                "[--max-qps N] [--top N] [--store DB] [-T text|json]",
    .description =
        "analyze reads a capture once and reports what an engineer would otherwise dig out of "
        "Wireshark by hand. The text report starts with a VERDICT line (ok, warning or error "
        "and the worst finding), then Capture, Findings, Pauses, RoCE flows, CNPs and DCBX.\n\n"
        "Pauses: per sender MAC and priority (802.3x PAUSE is priority 'all'), the XOFF "
        "intervals: an XOFF starts one, refreshed XOFFs extend it, an XON or the quanta running "
        "out (q x 512 bit times at --link-speed) end it. Totals, the longest, frames per second, "
        "storms (one interval longer than --storm-ms made of refreshed XOFFs), PFC on a "
        "priority that is not lossless, and 802.3x PAUSE on a link that runs PFC.\n\n"
        "RoCE flows: one per (source IP, destination IP, destination QP): packets, bytes, "
        "goodput, opcode mix, PSN gaps, duplicates, go-back-N retransmission episodes, ACKs, "
        "NAKs and RNR NAKs (on the flow that carries them back), ECN and CE share, not-ECT "
        "data, DSCP and PCP. A flow and the reverse flow carrying its ACKs and CNPs are paired "
        "by ACK PSNs. CE->CNP reaction time: from the first CE-marked packet not yet answered "
        "to the CNP that answers it (median is the lower middle value).\n\n"
        "CNPs: per destination QP, count, rate, DSCP and PCP, the data flow they answer, and a "
        "warning when the DCBX App table does not put the CNP DSCP where its PCP says.\n\n"
        "DCBX: per neighbour (chassis ID and port ID), the IEEE or CEE configuration and how "
        "often it changed. Two neighbours on one capture interface are the two ends of a link: "
        "their PFC, ETS and App tables, DCBX versions and willing bits are compared.\n\n"
        "Memory stays bounded: the QP table holds --max-qps records, CE->CNP latencies are "
        "kept up to a fixed budget (the median says when it is not exact), and per-class "
        "interval lists keep the first 32. On a terminal, progress goes to stderr.\n\n"
        "Exit status: 0 when the capture was read (whatever the verdict), 1 when it could not "
        "be read or broke part-way (the report then covers the frames before the break), 64 "
        "on a usage error.",
    .options = analyze_options,
    .examples = analyze_examples,
    .json_doc =
        "One document (docs/analyze.md): schema (1), file, verdict {level (ok, warning, "
        "error), summary}, capture {frames, malformed, other_linktype, first_ns, last_ns, "
        "duration_ns, link_speed_bps, link_speed_assumed, lossless [prio], lossless_source "
        "(option, dcbx, unknown), storm_ms}, findings [{severity, kind, count, summary}], "
        "pauses {frames_pfc, frames_pause, total_paused_ns, storms, untracked_frames, classes "
        "[{src, prio (-1 for 802.3x), kind (pfc, pause), frames, xoff, refreshes, xon, "
        "intervals, paused_ns, longest_ns, frames_per_s, storms, lossless, intervals_list "
        "[{start_ns, end_ns, xoffs, ended_by}]}], pfc_on_lossy [{src, prio, frames}], "
        "pause_on_pfc_link {frames, senders} or null}, flows {count, roce_packets, bad_icrc, "
        "max_qps, untracked_packets, untracked_bytes, latencies_dropped, list [{src_ip, "
        "dst_ip, dqpn, packets, bytes, first_ns, last_ns, duration_ns, goodput_bytes, "
        "goodput_bps, data_packets, psn_gaps, psn_missing, duplicates, retransmit_episodes, "
        "retransmitted_packets, acks, naks, rnr_naks, bad_icrc, ce_packets, ce_fraction, ecn "
        "{not_ect, ect1, ect0, ce}, non_ect_packets, dscp [], pcp [], untagged, "
        "cnps_received, cnps_without_ce, cnp_latency_ns {count, median, max, median_exact} or "
        "null, opcodes [{opcode, name, packets}], opcodes_other, peer {src_ip, dst_ip, dqpn} "
        "or null}]}, cnps {count, unattributed, list [{src_ip, dst_ip, dqpn, count, "
        "rate_per_s, dscp [], pcp [], for_flow or null}]}, dcbx {lldp_frames, dcbx_frames, "
        "neighbours_count, neighbours [{chassis, port, src, iface, protocol, frames, changes, "
        "willing, pfc_enable, pfc_cap, has_ets, prio_tc, tc_bw, tsa, app [{sel, proto, "
        "prio}]}], links [{a {chassis, port}, b {chassis, port}, mismatches [dcbx_version, "
        "pfc_enable, ets, app], willing (both, one, neither)}]}, resources {peak_rss_kb, "
        "elapsed_s}.",
    .run = analyze_run,
};
