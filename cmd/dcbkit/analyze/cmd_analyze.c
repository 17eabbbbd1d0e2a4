/* dcbkit analyze FILE: the capture read through the capture source into a ring and judged by
 * the rule catalog, the way dcbkit diagnose --pcap does it (diagnose_evidence_open,
 * diagnose_run_rules: one code path, the same flags), then the report (analyze_print*.c) over
 * what the source's trackers kept. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "analyze.h"
#include "cli.h"
#include "log.h"
#include "progress.h"
#include "store.h"
#include "units.h"

#define DEFAULT_TOP 20
#define DEFAULT_STORM_NS 200000000LL
#define HELP_SHOWN (-1)

struct analyze_run {
    struct analysis a;
    struct rule_set rs;
    struct diagnose_evidence d;
    struct diagnose_result r;
    struct dcb_store *store; /* --store DB */
    int64_t run_id;
    struct dcb_progress progress; /* its clock also times the run (resources.elapsed_s) */
};

/* analyze's own options, in cli.h's convention; the flags it shares with diagnose --pcap go
 * through the one parser of the source options. */
static int analyze_option(struct cli_ctx *ctx, void *args, int c, const char *arg)
{
    struct analyze_options *opt = args;
    char why[256];
    long v;
    int rc;
    switch (c) {
    case 'r': opt->file = arg; return CLI_NEXT;
    case 'd': opt->store_path = arg; return CLI_NEXT;
    case 'n':
        if ((rc = cli_opt_long(ctx, "--top", arg, 0, 1L << 30, &v)) == CLI_NEXT)
            opt->top = v;
        return rc;
    case SO_LINK_SPEED:
    case SO_LOSSLESS:
    case SO_STORM_MS:
    case SO_MAX_QPS:
        if (source_opts_take(&opt->judge.src, c, arg, why, sizeof(why)) < 0)
            return cli_usage_error(ctx, "%s", why);
        return CLI_NEXT;
    }
    return CLI_NOT_OWN;
}

/* The capture as diagnose --pcap would name it, read as fast as it goes. */
static void judge_capture(struct analyze_options *opt)
{
    struct diagnose_opts *j = &opt->judge;
    j->src.pcap.path = opt->file;
    j->src.named |= SOURCE_G_PCAP;
    j->interval_ns = NS_PER_SEC;
    j->keep_partial = true;
    opt->link_bps = j->src.pcap.link_bps;
    opt->link_speed_assumed = !j->src.pcap.link_speed_given;
    opt->storm_ns = j->src.pcap.storm_ns ? j->src.pcap.storm_ns : DEFAULT_STORM_NS;
}

static int parse_args(struct cli_ctx *ctx, int argc, char **argv, struct analyze_options *opt)
{
    static const struct option longopts[] = {
        { "read", required_argument, NULL, 'r' },
        { "link-speed", required_argument, NULL, SO_LINK_SPEED },
        { "lossless", required_argument, NULL, SO_LOSSLESS },
        { "storm-ms", required_argument, NULL, SO_STORM_MS },
        { "max-qps", required_argument, NULL, SO_MAX_QPS },
        { "top", required_argument, NULL, 'n' },
        { "store", required_argument, NULL, 'd' },
    };
    memset(opt, 0, sizeof(*opt));
    source_opts_init(&opt->judge.src, SOURCE_G_PCAP);
    opt->top = DEFAULT_TOP;
    struct cli_parser p = { longopts, sizeof(longopts) / sizeof(*longopts),
                            "r:",     analyze_option,
                            opt,      NULL };
    int rc = cli_parse(ctx, &p, argc, argv);
    if (rc == 0)
        return HELP_SHOWN;
    if (rc != CLI_NEXT)
        return rc;
    if (optind < argc && !opt->file)
        opt->file = argv[optind++];
    if (optind < argc)
        return cli_usage_error(ctx, "unexpected argument '%s' (one capture per run)", argv[optind]);
    if (!opt->file)
        return cli_usage_error(ctx, "give the capture to analyse: dcbkit analyze FILE");
    opt->verbose = ctx->verbosity > 0;
    judge_capture(opt);
    return 0;
}

static void show_progress(void *arg, uint64_t frames, uint32_t qps)
{
    struct analyze_run *run = arg;
    if (!dcb_progress_due(&run->progress))
        return;
    double s = dcb_progress_elapsed(&run->progress);
    dcb_progress_show(&run->progress, "analyze: %.1fM frames, %u QPs, %.1fM frames/s",
                      (double)frames / 1e6, qps, s > 0 ? (double)frames / s / 1e6 : 0);
}

static int open_store(struct analyze_run *run, const char *path)
{
    struct dcb_err err;
    struct store_options so = { .path = path };
    if (store_open_sqlite(&run->store, &so, &err) < 0)
        return cli_fail(1, path, "%s", err.msg);
    if (store_begin_run(run->store, "analyze", run->a.opt.file, dcb_realtime_ns(), &run->run_id,
                        &err) < 0) {
        store_close(run->store, NULL);
        run->store = NULL;
        return cli_fail(1, path, "%s", err.msg);
    }
    return 0;
}

/* The findings and the end of the run (the evidence went in as it was read); 0, or 1 after
 * saying what failed. */
static int close_store(struct analyze_run *run, const char *path)
{
    struct dcb_err err;
    int rc = 0;
    const struct finding_list *l = &run->r.found;
    for (size_t i = 0; i < l->n && rc >= 0; i++) {
        const struct finding *f = &l->v[i];
        char json[FINDING_TEXT_MAX * 2 + 64], summary[FINDING_TEXT_MAX * 2];
        out_json_string_buf(summary, sizeof(summary), f->summary);
        snprintf(json, sizeof(json), "{\"summary\":%s,\"qp\":%d}", summary, f->qp);
        struct store_finding_row row = {
            .run_id = run->run_id,
            .time_ns = run->d.now_ns,
            .rule = f->rule->id,
            .severity = rule_severity_name(f->severity),
            .device = f->device,
            .ifname = f->ifname,
            .prio = f->prio,
            .json = json,
        };
        rc = store_put_finding(run->store, &row, &err);
    }
    if (rc >= 0)
        rc = store_end_run(run->store, run->run_id, dcb_realtime_ns(), &err);
    struct dcb_err close_err;
    if (store_close(run->store, &close_err) < 0 && rc >= 0) {
        rc = -1;
        err = close_err;
    }
    run->store = NULL;
    return rc < 0 ? cli_fail(1, path, "%s (the report above is complete)", err.msg) : 0;
}

/* Reads and judges the capture: 0, or 1 after saying why (a capture that broke part-way is
 * still judged on the frames before the break). */
static int judge(struct analyze_run *run)
{
    struct analyze_options *opt = &run->a.opt;
    struct dcb_err err;
    rule_set_init(&run->rs);
    run->r.verbose = opt->verbose;
    if (rule_set_load_catalog(&run->rs, NULL, 0, &err) < 0)
        return cli_fail(1, "analyze", "%s", err.msg);
    if (diagnose_evidence_open(&opt->judge, &run->d, &err) < 0) {
        out_term(stderr, "%s: %s\n", dcb_progname(), err.msg);
        return 1;
    }
    if (diagnose_run_rules(&opt->judge, &run->rs, &run->d, &run->r, &err) < 0)
        return cli_fail(1, "analyze", "%s", err.msg);
    finding_list_rank(&run->r.found);
    if (run->d.broke)
        out_term(stderr, "%s: %s\n", dcb_progname(), run->d.broke_err.msg);
    return run->d.broke ? 1 : 0;
}

/* What the source read, for the report. */
static void take_view(struct analyze_run *run)
{
    struct analysis *a = &run->a;
    struct source_pcap_view v;
    if (dcb_source_pcap_view(&run->d.src, &v) < 0)
        return;
    a->src = &run->d.src;
    a->t = v.tracks;
    a->frames = v.frames;
    a->malformed = v.malformed;
    a->other_linktype = v.other_linktype;
    a->first_ns = v.first_ns;
    a->last_ns = v.last_ns;
    a->lossless_mask = v.lossless_mask;
    a->lossless_source = v.lossless_source;
    a->judged = &run->r;
}

static void report(struct cli_ctx *ctx, struct analyze_run *run, int *status)
{
    struct analysis *a = &run->a;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    a->peak_rss_kb = ru.ru_maxrss;
    a->elapsed_s = dcb_progress_elapsed(&run->progress);
    if (ctx->verbosity > 0)
        out_term(stderr,
                 "analyze: %" PRIu64 " frames in %.2f s (%.2fM frames/s), %u QPs "
                 "tracked, peak RSS %ld KB\n",
                 a->frames, a->elapsed_s,
                 a->elapsed_s > 0 ? (double)a->frames / a->elapsed_s / 1e6 : 0, a->t->qps.nflows,
                 a->peak_rss_kb);
    struct dcb_out o;
    out_init(&o, stdout, ctx->format);
    analyze_print(&o, a);
    *status = cli_finish_output(&o, *status);
}

static int analyze_run(struct cli_ctx *ctx, int argc, char **argv)
{
    static struct analyze_run run;
    memset(&run, 0, sizeof(run));
    int rc = parse_args(ctx, argc, argv, &run.a.opt);
    if (rc)
        return rc == HELP_SHOWN ? 0 : rc;
    struct analyze_options *opt = &run.a.opt;
    if (opt->store_path && open_store(&run, opt->store_path))
        return 1;
    opt->judge.record = run.store;
    dcb_progress_start(&run.progress, ctx->verbosity >= 0);
    if (run.progress.on) {
        opt->judge.src.pcap.progress = show_progress;
        opt->judge.src.pcap.progress_arg = &run;
    }
    int status = judge(&run);
    dcb_progress_end(&run.progress);
    take_view(&run);
    if (run.a.judged && (!status || run.d.broke))
        report(ctx, &run, &status);
    if (run.store && close_store(&run, opt->store_path))
        status = 1;
    rule_set_free(&run.rs);
    diagnose_evidence_close(&run.d);
    diagnose_result_free(&run.r);
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
    { "--store DB",
      "Also write what the capture source gave (events: pause intervals, storms, "
      "PSN gaps, NAKs, DCBX changes and mismatches; capture.* samples; config snapshots), the "
      "findings and a run record to this store." },
    { NULL, NULL },
};

static const struct cli_example analyze_examples[] = {
    { "dcbkit analyze fabric.pcap --link-speed 400G", "What is wrong on this link, worst first." },
    { "dcbkit analyze storm.pcapng --lossless 3 --storm-ms 100 -T json",
      "The same as one JSON document, with priority 3 as the only lossless class." },
    { "tcpdump -i eth0 -w - 'udp port 4791 or ether proto 0x8808' | dcbkit analyze -",
      "Analyse a capture as it is written." },
    { "dcbkit analyze case.pcap --store case.db && dcbkit store events --store case.db",
      "Keep the events and findings for later." },
    { NULL, NULL },
};

static const struct cli_exit analyze_exits[] =
    CLI_EXITS("the capture was read, whatever the verdict",
              "the capture could not be read, or broke part-way (the report then "
              "covers the frames before the break); the store could not be written");

const struct cli_command cmd_analyze = {
    .name = "analyze",
    .summary = "explain a capture: pauses and storms, RoCE loss and marking, CNPs, DCBX",
    .synopsis = "dcbkit analyze FILE [--link-speed SPEED] [--lossless LIST] [--storm-ms N] "
                "[--max-qps N] [--top N] [--store DB] [-T text|json]",
    .description =
        "analyze reads a capture once and reports what an engineer would otherwise dig out of "
        "Wireshark by hand. The text report starts with a VERDICT line (ok, warn or crit and "
        "the worst finding), then Capture, Findings, Pauses, RoCE flows, CNPs and DCBX.\n\n"
        "Findings: the capture is read through the capture source into an in-memory store and "
        "judged by the rule catalog, exactly as dcbkit diagnose --pcap FILE with the same "
        "options judges it: the same rules, places (device, interface, priority, QP) and "
        "severities. Per-QP rules (scope qp) name the flow they found; its qp number is in the "
        "RoCE flows list.\n\n"
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
        "CNPs: per destination QP, count, rate, DSCP and PCP, and the data flow they answer.\n\n"
        "DCBX: per neighbour (chassis ID and port ID), the IEEE or CEE configuration and how "
        "often it changed. Two neighbours on one capture interface are the two ends of a link: "
        "their PFC, ETS and App tables, DCBX versions and willing bits are compared.\n\n"
        "Memory stays bounded: the QP table holds --max-qps records, CE->CNP latencies are "
        "kept up to a fixed budget (the median says when it is not exact), and per-class "
        "interval lists keep the first 32. On a terminal, a capture that takes longer than 2 s "
        "shows "
        "its progress on stderr.",
    .options = analyze_options,
    .examples = analyze_examples,
    .json_doc =
        "One document (docs/analyze.md): schema (2), file, verdict {level (ok, warn, crit), "
        "summary}, capture {frames, malformed, other_linktype, first_ns, last_ns, "
        "duration_ns, link_speed_bps, link_speed_assumed, lossless [prio], lossless_source "
        "(option, dcbx, unknown), storm_ms}, findings [{severity (crit, warn, info), confidence, "
        "rule, scope, device, ifname, prio, qp (-1 when not per QP), summary, evidence, knob, "
        "direction, proposed, also, reference, reference_links, verified, flow {src_ip, dst_ip, "
        "dqpn} or null, "
        "kind and count (schema 1's, kept through schema 2)}] ranked worst first, "
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
        "or null, qp or null}]}, cnps {count, unattributed, list [{src_ip, dst_ip, dqpn, count, "
        "rate_per_s, dscp [], pcp [], for_flow or null}]}, dcbx {lldp_frames, dcbx_frames, "
        "neighbours_count, neighbours [{chassis, port, src, iface, protocol, frames, changes, "
        "willing, pfc_enable, pfc_cap, has_ets, prio_tc, tc_bw, tsa, app [{sel, proto, "
        "prio}]}], links [{a {chassis, port}, b {chassis, port}, mismatches [dcbx_version, "
        "pfc_enable, ets, app], willing (both, one, neither)}]}, resources {peak_rss_kb, "
        "elapsed_s}.",
    .run = analyze_run,
    .exits = analyze_exits,
};
