/* dcbkit diagnose: gather evidence (a fabric file, the store, a capture, or this host), run the
 * rule catalog over it, and print the findings ranked by severity and confidence, each with
 * its evidence, knob and proposed value. Exit status as monitoring plugins: 0 healthy, 1
 * warnings, 2 critical, 3 could not decide, 64 usage. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "diagnose.h"
#include "evidence_fabric.h"
#include "evidence_store.h"
#include "rules.h"
#include "units.h"

#define EXIT_UNDECIDED 3
#define HELP_SHOWN (-1)

struct diagnose_args {
    const char *store, *pcap, *fabric, *prometheus, *match;
    int64_t step_ns;
    bool local;
    struct cli_rules rules;
    int64_t since_ns;
    int64_t interval_ns;
    uint64_t link_bps;
    bool verify;
    const char *scenario, *cache_dir;
};

static int parse_args(struct cli_ctx *ctx, int argc, char **argv, struct diagnose_args *a)
{
    int rc;
    enum { O_STORE = 256, O_PCAP, O_FABRIC, O_LOCAL, O_RULES, O_PROFILE, O_SINCE, O_INTERVAL,
           O_LINK_SPEED, O_VERIFY, O_SCENARIO, O_CACHE_DIR, O_NO_CACHE, O_PROMETHEUS, O_MATCH,
           O_STEP };
    static const struct option longopts[] = {
        { "store", required_argument, NULL, O_STORE },
        { "pcap", required_argument, NULL, O_PCAP },
        { "fabric", required_argument, NULL, O_FABRIC },
        { "local", no_argument, NULL, O_LOCAL },
        { "prometheus", required_argument, NULL, O_PROMETHEUS },
        { "match", required_argument, NULL, O_MATCH },
        { "step", required_argument, NULL, O_STEP },
        { "rules", required_argument, NULL, O_RULES },
        { "profile", required_argument, NULL, O_PROFILE },
        { "since", required_argument, NULL, O_SINCE },
        { "interval", required_argument, NULL, O_INTERVAL },
        { "link-speed", required_argument, NULL, O_LINK_SPEED },
        { "verify", no_argument, NULL, O_VERIFY },
        { "scenario", required_argument, NULL, O_SCENARIO },
        { "cache-dir", required_argument, NULL, O_CACHE_DIR },
        { "no-cache", no_argument, NULL, O_NO_CACHE },
        CLI_COMMON_LONGOPTS,
        { NULL, 0, NULL, 0 },
    };
    struct dcb_err err;
    a->interval_ns = 1000000000LL;
    a->link_bps = 400000000000ULL;
    int c;
    while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
        switch (c) {
        case O_STORE: a->store = optarg; break;
        case O_PCAP: a->pcap = optarg; break;
        case O_FABRIC: a->fabric = optarg; break;
        case O_LOCAL: a->local = true; break;
        case O_PROMETHEUS:
            if (strncmp(optarg, "http://", 7) != 0 && strncmp(optarg, "https://", 8) != 0)
                return cli_usage_error(ctx, "--prometheus takes an http:// or https:// URL, "
                                       "not '%s'", optarg);
            a->prometheus = optarg;
            break;
        case O_MATCH: a->match = optarg; break;
        case O_STEP:
            if (dcb_parse_duration(optarg, &a->step_ns, &err) < 0 || a->step_ns < 1000000)
                return cli_usage_error(ctx, "--step: %s", a->step_ns < 1000000 ?
                                       "at least 1ms" : err.msg);
            break;
        case O_RULES:
            if ((rc = cli_rules_dir(ctx, &a->rules, optarg)))
                return rc;
            break;
        case O_PROFILE:
            if ((rc = cli_rules_profile(ctx, &a->rules, optarg)))
                return rc;
            break;
        case O_SINCE:
            if (dcb_parse_duration(optarg, &a->since_ns, &err) < 0)
                return cli_usage_error(ctx, "--since: %s", err.msg);
            if (a->since_ns <= 0)
                return cli_usage_error(ctx, "--since must be above zero");
            break;
        case O_INTERVAL:
            if (dcb_parse_duration(optarg, &a->interval_ns, &err) < 0 || a->interval_ns < 1000000)
                return cli_usage_error(ctx, "--interval: %s", a->interval_ns < 1000000 ?
                                       "at least 1ms" : err.msg);
            break;
        case O_LINK_SPEED:
            if (dcb_parse_speed(optarg, &a->link_bps, &err) < 0 || !a->link_bps)
                return cli_usage_error(ctx, "--link-speed: %s", a->link_bps ? err.msg :
                                       "must be above zero");
            break;
        case O_VERIFY: a->verify = true; break;
        case O_SCENARIO: a->scenario = optarg; break;
        case O_CACHE_DIR: a->cache_dir = optarg; break;
        case O_NO_CACHE: a->cache_dir = ""; break;
        default:
            rc = cli_common_option(ctx, c, argv);
            if (rc == 0)
                return HELP_SHOWN;
            if (rc > 0)
                return rc;
        }
    }
    if (optind < argc)
        return cli_usage_error(ctx, "unexpected argument '%s'", argv[optind]);
    int sources = !!a->store + !!a->pcap + !!a->fabric + a->local + !!a->prometheus;
    if (sources != 1)
        return cli_usage_error(ctx, "give one evidence source: --store DB, --pcap FILE, "
                               "--fabric FILE, --local or --prometheus URL");
    if (a->scenario && !a->verify)
        return cli_usage_error(ctx, "--scenario is what --verify replays: give --verify too");
    if (a->verify && !a->scenario && !a->fabric)
        return cli_usage_error(ctx, "--verify needs a scenario to replay: --scenario FILE (or "
                               "--fabric FILE, whose fabric gets a built-in incast)");
    if ((a->match || a->step_ns) && !a->prometheus)
        return cli_usage_error(ctx, "--match and --step go with --prometheus");
    return 0;
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The evaluation time of a store: its newest sample or event, so an old store reads as it was. */
static int64_t store_end(struct dcb_store *st)
{
    struct store_info info;
    struct dcb_err err;
    if (store_info(st, &info, &err) < 0 || !info.last_ns)
        return now_ns();
    return info.last_ns;
}

static int diagnose_run(struct cli_ctx *ctx, int argc, char **argv)
{
    struct diagnose_args a = { 0 };
    int rc = parse_args(ctx, argc, argv, &a);
    if (rc)
        return rc == HELP_SHOWN ? 0 : rc;
    struct dcb_err err;
    struct rule_set rs;
    rule_set_init(&rs);
    if (rule_set_load_catalog(&rs, a.rules.dirs, a.rules.ndirs, &err) < 0) {
        rule_set_free(&rs);
        return cli_fail(EXIT_UNDECIDED, "diagnose", "%s", err.msg);
    }
    struct diagnose_report rep;
    diagnose_report_init(&rep, ctx->verbosity > 0);
    rep.verify = a.verify;
    struct evidence ev = { 0 };
    struct fabric fab;
    fabric_init(&fab);
    struct dcb_store *st = NULL;
    struct diagnose_prom_events *prom_events = NULL;
    int status = 0;
    int64_t now = now_ns();
    const char *source_kind = a.fabric ? "fabric" : a.store ? "store" : a.pcap ? "pcap" :
                              a.prometheus ? "prometheus" : "local";
    const char *source_name = a.fabric ? a.fabric : a.store ? a.store : a.pcap ? a.pcap :
                              a.prometheus ? a.prometheus : "";
    if (a.fabric) {
        if (fabric_load_file(&fab, a.fabric, &err) < 0 ||
            evidence_fabric_open(&ev, &fab, &err) < 0)
            status = cli_fail(EXIT_UNDECIDED, "diagnose", "%s", err.msg);
    } else if (a.store) {
        struct store_options so = { .path = a.store, .readonly = true };
        if (store_open_sqlite(&st, &so, &err) < 0) {
            status = cli_fail(EXIT_UNDECIDED, a.store, "%s", err.msg);
        } else {
            now = store_end(st);
            if (evidence_store_open(&ev, st, now, &err) < 0)
                status = cli_fail(EXIT_UNDECIDED, a.store, "%s", err.msg);
            else if (a.since_ns)
                evidence_store_limit(&ev, now - a.since_ns);
        }
    } else if (a.prometheus) {
        struct diagnose_prometheus p = { a.prometheus, a.match, now,
                                         a.since_ns ? a.since_ns : 15 * 60 * NS_PER_SEC,
                                         a.step_ns ? a.step_ns : 15 * NS_PER_SEC, 30000 };
        if (diagnose_gather_prometheus(&p, &st, &prom_events, &now, &err) < 0 ||
            evidence_store_open(&ev, st, now, &err) < 0 ||
            evidence_store_preload(&ev, now - p.window_ns, &err) < 0)
            status = cli_fail(EXIT_UNDECIDED, a.prometheus, "%s", err.msg);
        else
            diagnose_prom_evidence(&ev, prom_events);
    } else {
        struct diagnose_gather g = { .pcap = a.pcap, .interval_ns = a.interval_ns,
                                     .link_bps = a.link_bps, .verbose = ctx->verbosity > 0 };
        if (diagnose_gather_ring(&g, &st, &now, &err) < 0 ||
            evidence_store_open(&ev, st, now, &err) < 0 ||
            evidence_store_preload(&ev, 0, &err) < 0)   /* the ring is small: all of it */
            status = cli_fail(EXIT_UNDECIDED, source_kind, "%s", err.msg);
    }
    if (!status) {
        struct rule_run_options opt = {
            .profile = a.rules.profile, .now_ns = now, .on_finding = diagnose_report_add,
            .on_undecided = ctx->verbosity > 0 ? diagnose_report_undecided : NULL, .arg = &rep,
        };
        struct rule_run_stats stats;
        struct diagnose_verify dv = { .scenario = a.scenario, .fabric = a.fabric,
                                      .cache_dir = a.cache_dir, .verbose = ctx->verbosity > 0 };
        if (rule_set_run(&rs, &ev, &opt, &stats, &err) < 0) {
            status = cli_fail(EXIT_UNDECIDED, "diagnose", "%s", err.msg);
        } else if (a.verify && diagnose_verify(&dv, &rep, &err) < 0) {
            status = cli_fail(EXIT_UNDECIDED, "diagnose --verify", "%s", err.msg);
        } else {
            struct dcb_out o;
            out_init(&o, stdout, ctx->format);
            diagnose_report_print(&o, &rep, source_kind, source_name, a.rules.profile, rs.n, &stats);
            status = cli_finish_output(&o, diagnose_report_status(&rep));
            if (status == 1 && diagnose_report_status(&rep) != 1)
                status = EXIT_UNDECIDED;       /* the output could not be written */
        }
    }
    diagnose_prom_unwrap(&ev, prom_events);
    if (ev.ctx)
        (a.fabric ? evidence_fabric_close : evidence_store_close)(&ev);
    diagnose_prom_events_free(prom_events);
    if (st)
        store_close(st, NULL);
    fabric_free(&fab);
    diagnose_report_free(&rep);
    rule_set_free(&rs);
    return status;
}

static const struct cli_option_doc diagnose_options[] = {
    { "--fabric FILE", "Check a fabric file's intended config (the configuration checks; "
      "metrics and events are unknown there)." },
    { "--store DB", "Evaluate over a store's history: samples, events and config snapshots "
      "as of its newest data." },
    { "--pcap FILE", "Analyse a capture (as dcbkit analyze does) and evaluate over its events "
      "and the DCBX configs the link partners advertised." },
    { "--local", "Read this host twice, --interval apart (counters, DCB config, DCQCN knobs), "
      "and evaluate over that." },
    { "--prometheus URL", "Read the window from a Prometheus (or Thanos, Mimir) that scrapes "
      "dcbkit serve, through /api/v1/query_range: the canonical metrics, dcbkit_qos_config "
      "(config), dcbkit_topology_info (role(), peer_role()) and dcbkit_events_total (event "
      "counts, from its increase over each rule's window), so one diagnosis covers a fleet no "
      "single machine collects." },
    { "--match MATCHERS", "--prometheus: extra label matchers for every series, e.g. "
      "'job=\"dcbkit\",device=~\"leaf.*\"'." },
    { "--step DURATION", "--prometheus: resolution of the window (default 15s; Prometheus "
      "caps a query at 11,000 points a series)." },
    { "--rules DIR", "Also load the *.rules files of DIR (repeatable); see rules/README.md." },
    { "--profile pfc-only", "For sites that run PFC without DCQCN on purpose: rules that expect "
      "DCQCN are skipped." },
    { "--since DURATION", "Store: no evidence older than this before the store's newest data: "
      "longer windows are cut there (default: as each rule says). Prometheus: the window "
      "read, ending now (default 15m)." },
    { "--interval DURATION", "--local: time between the two readings (default 1s)." },
    { "--link-speed SPEED", "--pcap: link speed for pause quanta (default 400G)." },
    { "--verify", "Replay each finding's proposed change (knob=value on every interface it "
      "applies to) against the scenario without it; attach both figures (pause time, ECN marks, "
      "drops, throughput, FCT p99, iteration p99) and demote advice that does not help." },
    { "--scenario FILE", "--verify: the scenario to replay (dcbkit replay's format). With "
      "--fabric and no scenario, every other host sends to the last one for 10 ms." },
    { "--cache-dir DIR", "--verify: where replay results are kept, keyed by a hash of the "
      "scenario as run (fabric, overrides, seed) and the engine version (default "
      "$DCBKIT_CACHE_DIR, else $XDG_CACHE_HOME/dcbkit/replay, else ~/.cache/dcbkit/replay)." },
    { "--no-cache", "--verify: run every replay, keep nothing." },
    CLI_COMMON_OPTION_DOCS,
    { NULL, NULL },
};

static const struct cli_example diagnose_examples[] = {
    { "dcbkit diagnose --fabric fabric.json", "Check the intended QoS config before a rollout." },
    { "dcbkit diagnose --store fabric.db -T json", "Findings over the collected history." },
    { "dcbkit diagnose --pcap link.pcap -v", "A capture, with what each rule could not decide." },
    { "dcbkit diagnose --store fabric.db --verify --scenario incast.json",
      "Findings over the history, each proposed change checked on the replay engine." },
    { "dcbkit diagnose --prometheus http://prom:9090 --match 'job=\"dcbkit\"' --since 1h",
      "The fleet's last hour, as Prometheus kept it." },
    { "dcbkit diagnose --fabric fabric.json --profile pfc-only",
      "A site that runs PFC without DCQCN by design." },
    { NULL, NULL },
};

const struct cli_command cmd_diagnose = {
    .name = "diagnose",
    .summary = "run the rule catalog over a fabric file, the store, a capture or this host",
    .synopsis = "dcbkit diagnose (--fabric FILE | --store DB | --pcap FILE | --local | "
                "--prometheus URL [--match M] [--step D]) "
                "[--rules DIR] [--profile pfc-only] [--since D] [--verify [--scenario FILE] "
                "[--cache-dir DIR | --no-cache]] [-T text|json] [-v]",
    .description =
        "diagnose gathers evidence through the same paths as analyze and collect, evaluates the "
        "rule catalog (rules/catalog, or $DCBKIT_RULES) and any --rules folders, and prints the "
        "findings ranked by severity and confidence. Each finding names the rule, where it "
        "fired (device, interface, priority), what it saw (the evidence), the knob to turn, "
        "which way, the proposed value and a reference.\n\n"
        "A rule fires only when its condition is true: data a source does not have is unknown, "
        "never zero, and a rule that meets unknown data does not fire. -v lists every rule "
        "instance that could not decide and the data it lacked (division by zero included).\n\n"
        "Exit status follows the monitoring convention: 0 no finding above info, 1 warnings, 2 "
        "critical findings, 3 could not decide (the evidence or the rules could not be read), "
        "64 usage error.",
    .options = diagnose_options,
    .examples = diagnose_examples,
    .json_doc =
        "One document: schema (1), source {kind (fabric, store, pcap, local, prometheus), name}, profile, "
        "verdict {level (ok, warn, crit), summary}, rules (how many were loaded), stats "
        "{instances, fired, undecided}, findings [{rule, severity (crit, warn, info), "
        "confidence, scope, device, ifname, prio (-1 when not per priority), summary, evidence "
        "[{name, value}], knob, direction, proposed (null when none), also [\"path=value\"] "
        "(changes that go with the knob's), reference, verified}] "
        "ranked worst first, and with -v undecided [{rule, device, ifname, prio, missing}]. "
        "verified is null without --verify; with it {done, improved, tradeoff (improved at a "
        "cost in drops, throughput or FCT p99), cached, change (knob=value, and any path=value "
        "the rule sets with it, space-separated), note, before and after {pause_us, marks, drops, throughput_bps, "
        "fct_p99_ns, iter_p99_ns (null when no flow or iteration finished)}} (before and after "
        "null when done is false); severity is then the one after demotion.",
    .run = diagnose_run,
};
