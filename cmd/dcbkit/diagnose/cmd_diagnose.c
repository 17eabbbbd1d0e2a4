/* dcbkit diagnose: gather evidence from one source (a fabric file, a store, a capture, this
 * host, switches over gNMI, a replayed scenario, or Prometheus), run the rule catalog over it,
 * and print the findings in the one order (rules/findings.h), each with its evidence, knob and
 * proposed value. Exit status as monitoring plugins: 0 healthy, 1 warnings, 2 critical, 3 could
 * not decide, 64 usage. */
#include <stdio.h>

#include "diagnose_cmd.h"
#include "verify.h"

static void add_finding(void *arg, const struct finding *f)
{
    finding_list_add(&((struct diagnose_result *)arg)->found, f);
}

int diagnose_run_rules(const struct diagnose_opts *o, const struct rule_set *rs,
                       const struct diagnose_evidence *d, struct diagnose_result *r,
                       struct dcb_err *err)
{
    struct rule_run_options opt = {
        .profile = o->rules.profile,
        .now_ns = d->now_ns,
        .on_finding = add_finding,
        .on_undecided = o->verbose ? diagnose_undecided_add : NULL,
        .arg = r,
    };
    r->nrules = rs->n;
    r->gaps = &d->gaps;
    return rule_set_run(rs, &d->ev, &opt, &r->stats, err);
}

static int verify_advice(const struct diagnose_opts *o, struct diagnose_result *r,
                         struct dcb_err *err)
{
    struct rule_verify_options vo = { .scenario = o->scenario,
                                      .fabric = o->src.fabric,
                                      .cache_dir = o->cache_dir };
    struct rule_verify_stats vs = { 0 };
    if (rule_verify(&vo, r->found.v, r->found.n, &vs, err) < 0)
        return -1;
    if (o->verbose)
        out_term(stderr, "dcbkit: verify: %u replays run, %u from the cache (%s)\n", vs.runs,
                 vs.hits, vs.cache_dir[0] ? vs.cache_dir : "no cache");
    return 0;
}

static int print_result(struct cli_ctx *ctx, const struct diagnose_result *r,
                        const struct diagnose_evidence *d)
{
    struct dcb_out o;
    out_init(&o, stdout, ctx->format);
    diagnose_print(&o, r, d);
    int verdict = diagnose_status(r);
    int status = cli_finish_output(&o, verdict);
    return status == 1 && verdict != 1 ? DIAGNOSE_UNDECIDED : status; /* output failed */
}

static int diagnose_run(struct cli_ctx *ctx, int argc, char **argv)
{
    static struct diagnose_opts o;
    int rc = diagnose_parse(ctx, argc, argv, &o);
    if (rc)
        return rc == DIAGNOSE_HELP_SHOWN ? 0 : rc;
    struct diagnose_evidence d = { 0 };
    struct diagnose_result r = { .verify = o.verify,
                                 .verbose = o.verbose,
                                 .profile = o.rules.profile };
    struct rule_set rs;
    rule_set_init(&rs);
    struct dcb_err err;
    int status = 0;
    if (rule_set_load_catalog(&rs, o.rules.dirs, o.rules.ndirs, &err) < 0) {
        status = cli_fail(DIAGNOSE_UNDECIDED, "diagnose", "%s", err.msg);
    } else if (diagnose_evidence_open(&o, &d, &err) < 0) {
        status = cli_fail(DIAGNOSE_UNDECIDED, NULL, "%s", err.msg);
    } else if (diagnose_run_rules(&o, &rs, &d, &r, &err) < 0) {
        status = cli_fail(DIAGNOSE_UNDECIDED, "diagnose", "%s", err.msg);
    } else if (o.verify && verify_advice(&o, &r, &err) < 0) {
        status = cli_fail(DIAGNOSE_UNDECIDED, "diagnose --verify", "%s", err.msg);
    } else {
        finding_list_rank(&r.found);
        status = print_result(ctx, &r, &d);
    }
    rule_set_free(&rs);
    diagnose_evidence_close(&d);
    diagnose_result_free(&r);
    return status;
}

static const struct cli_option_doc diagnose_options[] = {
    { "--fabric FILE", "Check a fabric file's intended config (the configuration checks; "
                       "metrics and events are unknown there)." },
    { "--store DB",
      "Evaluate over a store's history: samples, events and config snapshots "
      "as of its newest data (--since cuts the window; dcbtop's --at and --window do not "
      "apply)." },
    { "--pcap FILE",
      "Analyse a capture and evaluate over its events, its capture.* counters, "
      "its per-QP capture.qp_* series and the DCBX configs the link partners advertised: the "
      "findings dcbkit analyze FILE lists with the same options." },
    { "--local",
      "Read this host twice, --interval apart (counters, DCB config, DCQCN knobs), "
      "and evaluate over that; --sysfs-root DIR reads a saved sysfs tree instead of /sys, "
      "--ifname PATTERN limits the interfaces, --device NAME names the host." },
    { "--gnmi HOST:PORT",
      "Read switches over gNMI twice, --interval apart (counters and "
      "config), and evaluate over that; --gnmi all --fabric FILE reads every gNMI device of "
      "the fabric. The TLS and credential options are dcbtop's (--plaintext, --insecure, "
      "--tls-ca FILE, --tls-cert FILE, --tls-key FILE, --credentials FILE, --map NAME)." },
    { "--replay SCENARIO, --demo",
      "Run a scenario (or the built-in demo) on the replay "
      "engine as fast as it goes and evaluate over what it measured; --set PATH=VALUE changes "
      "the scenario." },
    { "--prometheus URL",
      "Read the window from a Prometheus (or Thanos, Mimir) that scrapes "
      "dcbkit serve, through /api/v1/query_range: the canonical metrics, dcbkit_qos_config "
      "(config), dcbkit_topology_info (role(), peer_role()) and dcbkit_events_total (each "
      "increase an event, at most 100000, then one source_gap event), so one diagnosis covers "
      "a fleet no single machine collects." },
    { "--match MATCHERS", "--prometheus: extra label matchers for every series, e.g. "
                          "'job=\"dcbkit\",device=~\"leaf.*\"'." },
    { "--step DURATION", "--prometheus: resolution of the window (default 15s; Prometheus "
                         "caps a query at 11,000 points a series)." },
    { "--rules DIR", "Also load the *.rules files of DIR (repeatable); see rules/README.md." },
    { "--profile pfc-only", "For sites that run PFC without DCQCN on purpose: rules that expect "
                            "DCQCN are skipped." },
    { "--since DURATION",
      "Store: no evidence older than this before the store's newest data: "
      "longer windows are cut there (default: as each rule says). Prometheus: the window "
      "read, ending now (default 15m)." },
    { "--interval DURATION", "--local, --gnmi: time between the two readings (default 1s)." },
    { "--link-speed SPEED", "--pcap: link speed for pause quanta (default 400G)." },
    { "--lossless LIST", "--pcap: the lossless priorities, such as 3 or 3,4 (the capture's "
                         "port gets them as its PFC mask)." },
    { "--storm-ms MS", "--pcap: a pause longer than this is a storm (default 200)." },
    { "--max-qps N", "--pcap: QPs tracked one by one (default 262144); packets of later QPs "
                     "are counted as untracked (capture-qp-table-full)." },
    { "--verify",
      "Replay each finding's proposed change (knob=value on every interface it "
      "applies to) against the scenario without it; attach both figures (pause time, ECN marks, "
      "drops and the PFC watchdog's share of them, throughput, FCT p99, iteration p99). "
      "Advice helps when the objective as a whole gets better: fewer drops other than the "
      "watchdog's, less pause, more throughput, a shorter FCT or iteration p99, at no cost in "
      "the others. Advice that does not help is withdrawn (its change stays in verified.change) "
      "and demoted." },
    { "--scenario FILE",
      "--verify: the scenario to replay (dcbkit replay's format). With "
      "--fabric and no scenario, every other host sends to the last one for 10 ms." },
    { "--cache-dir DIR",
      "--verify: where replay results are kept, keyed by a hash of the "
      "scenario as run (fabric, overrides, seed) and the engine version (default "
      "$DCBKIT_CACHE_DIR, else $XDG_CACHE_HOME/dcbkit/replay, else ~/.cache/dcbkit/replay)." },
    { "--no-cache", "--verify: run every replay, keep nothing." },
    { NULL, NULL },
};

static const struct cli_example diagnose_examples[] = {
    { "dcbkit diagnose --fabric fabric.json", "Check the intended QoS config before a rollout." },
    { "dcbkit diagnose --store fabric.db -T json", "Findings over the collected history." },
    { "dcbkit diagnose --pcap link.pcap -v", "A capture, with what each rule could not decide." },
    { "dcbkit diagnose --demo -T json", "The demo fabric replayed, then diagnosed." },
    { "dcbkit diagnose --store fabric.db --verify --scenario incast.json",
      "Findings over the history, each proposed change checked on the replay engine." },
    { "dcbkit diagnose --prometheus http://prom:9090 --match 'job=\"dcbkit\"' --since 1h",
      "The fleet's last hour, as Prometheus kept it." },
    { "dcbkit diagnose --fabric fabric.json --profile pfc-only",
      "A site that runs PFC without DCQCN by design." },
    { NULL, NULL },
};

static const struct cli_exit diagnose_exits[] =
    CLI_EXITS_VERDICT(CLI_EXIT_WARNINGS, DIAGNOSE_UNDECIDED,
                      "the evidence or the rules could not be read, a --verify replay failed, or "
                      "the output could not be written");

const struct cli_command cmd_diagnose = {
    .name = "diagnose",
    .summary = "run the rule catalog over a fabric file, the store, a capture, this host, "
               "switches, a replay or Prometheus",
    .synopsis = "dcbkit diagnose (--fabric FILE | --store DB | --pcap FILE [--link-speed S] "
                "[--lossless L] [--storm-ms MS] [--max-qps N] | --local | --gnmi HOST:PORT | "
                "--replay SCENARIO | --demo | "
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
        "instance that could not decide and the data it lacked (division by zero included). "
        "The exit status follows the monitoring convention (Nagios, Icinga).",
    .options = diagnose_options,
    .examples = diagnose_examples,
    .json_doc =
        "One document: schema (1), source {kind (fabric, store, pcap, local, gnmi, replay, "
        "prometheus), name}, profile, "
        "verdict {level (ok, warn, crit), summary}, rules (how many were loaded), stats "
        "{instances, fired, undecided}, findings [{rule, severity (crit, warn, info), "
        "confidence, scope, cause (root, or victim: paused from downstream before it paused "
        "anyone), paused_by (a victim's: the device:ifname whose XOFF reached it first; null "
        "otherwise), device, ifname, prio (-1 when not per priority), qp (-1 when not "
        "per QP), summary, evidence [{name, value}], knob, direction, proposed (null when "
        "none), also [\"path=value\"] (changes that go with the knob's), reference (its sources, "
        "with anchors into docs/rules-references.md), reference_links [file:// URL of each "
        "anchor in the installed list], verified}] "
        "ranked worst first, and with -v undecided [{rule, device, ifname, prio, qp, missing}]. "
        "verified is null without --verify; with it {done, improved, tradeoff (improved at a "
        "cost in drops, throughput or FCT p99), cached, change (knob=value, and any path=value "
        "the rule sets with it, space-separated), note, before and after {pause_us, marks, "
        "drops, throughput_bps, fct_p99_ns, iter_p99_ns (null when no flow or iteration "
        "finished)}} (before and after "
        "null when done is false); severity is then the one after demotion.",
    .run = diagnose_run,
    .exits = diagnose_exits,
};
