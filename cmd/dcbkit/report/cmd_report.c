/* dcbkit report: the nightly fabric health report. Gets the evidence into a store (reading a
 * store in place, or running any source into one), reads the window, runs the rules and config
 * checks, compares with the previous report and writes report.json (the model, report/),
 * report.html and report.md (its renderings). Exit status for cron: 0 healthy, 1 warnings,
 * 2 critical, 3 could not decide (no data, or an error). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "report_cmd.h"
#include "units.h"

#define FAIL REPORT_UNDECIDED

struct report_job {
    const struct report_args *a;
    const char *out;
    struct fabric fab;
    bool have_fab;
    struct report_evidence ev;
    struct report_window w;
    cJSON *model, *baseline;
    char baseline_name[256];
    struct dcb_progress progress;
};

static int step_prepare(struct report_job *j)
{
    struct stat sb;
    struct dcb_err err;
    if (stat(j->out, &sb) != 0 && mkdir(j->out, 0777) != 0)
        return cli_fail(FAIL, j->out, "%s", strerror(errno));
    fabric_init(&j->fab);
    if (!j->a->src.fabric)
        return 0;
    j->have_fab = true;
    if (fabric_load_file(&j->fab, j->a->src.fabric, &err) < 0)
        return cli_fail(FAIL, "report", "%s", err.msg); /* err names the file */
    return 0;
}

/* The window's end: --at, or the store's newest data (now when it has none) or the time the
 * sources reached when that is later (Prometheus' query end: diagnose evaluates there). */
static int64_t window_end(const struct report_job *j, int64_t now)
{
    struct store_info info;
    struct dcb_err err;
    const struct source_opts *o = &j->a->src;
    if (o->store.at_ns)
        return o->store.at_ns;
    int64_t end = store_info(j->ev.st, &info, &err) == 0 && info.last_ns ? info.last_ns : now;
    if (o->store.before_end_ns)
        return end - o->store.before_end_ns;
    return j->ev.data_ns > end ? j->ev.data_ns : end;
}

/* The window: --since (or --window) before its end. */
static int step_model(struct report_job *j)
{
    struct dcb_err err;
    int64_t now = dcb_realtime_ns();
    int64_t end = window_end(j, now);
    j->w = (struct report_window){ end - j->a->since_ns, end };
    const char *name = j->have_fab ? j->fab.name : j->ev.label;
    j->model = report_model_new(name, j->a->src.fabric, j->ev.label, &j->w, now);
    dcb_progress_stage(&j->progress, "report: reading the window from the store");
    if (!j->model)
        return cli_fail(FAIL, "report", "out of memory");
    if (report_gather(j->ev.st, j->have_fab ? &j->fab : NULL, &j->w, j->model, &err) < 0 ||
        report_missing_paths(j->ev.st, &j->w, j->model, &err) < 0)
        return cli_fail(FAIL, "report", "%s", err.msg);
    return 0;
}

static int step_findings(struct report_job *j)
{
    struct dcb_err err;
    dcb_progress_stage(&j->progress, "report: running the rules");
    struct report_findings_input in = {
        .st = j->ev.st,
        .fab = j->have_fab ? &j->fab : NULL,
        .w = &j->w,
        .rules_dirs = j->a->rules.dirs,
        .nrules_dirs = j->a->rules.ndirs,
        .profile = j->a->rules.profile,
        .verify_scenario = j->a->verify,
        .collect_failed = j->ev.failed,
        .ncollect_failed = j->ev.nfailed,
    };
    if (report_findings(&in, j->model, &err) < 0)
        return cli_fail(FAIL, "report", "%s", err.msg);
    return 0;
}

static int step_compare(struct report_job *j)
{
    struct dcb_err err;
    const char *fabric_name = j->have_fab ? j->fab.name : j->ev.label;
    j->baseline = report_baseline(j->a->baseline, j->ev.record, fabric_name, j->out, &j->w,
                                  j->baseline_name, sizeof(j->baseline_name), &err);
    if (!j->baseline && j->a->baseline)
        return cli_fail(FAIL, j->a->baseline, "%s", err.msg);
    report_diff(j->model, j->baseline, j->baseline_name[0] ? j->baseline_name : NULL);
    if (j->ev.store_path)
        report_add_raw_links(j->model, j->a->since_ns, j->ev.label);
    return 0;
}

static bool have_data(const cJSON *model)
{
    double samples = report_num(cJSON_GetObjectItemCaseSensitive(model, "traffic"), "samples");
    bool have = samples > 0;
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(model, "devices")) {
        have |= !strcmp(report_str(d, "status"), "ok");
    }
    return have;
}

static int step_write(struct cli_ctx *ctx, struct report_job *j)
{
    struct dcb_err err;
    int status = (int)report_verdict(j->model, have_data(j->model));
    dcb_progress_stage(&j->progress, "report: writing report.json, report.html, report.md");
    if (report_write_files(ctx, j->out, j->model))
        return FAIL;
    if (j->ev.readonly)
        dcb_warn("report: %s is read-only here: this report is not recorded for the next one's "
                 "comparison",
                 j->ev.label);
    else if (j->ev.record && report_record(j->ev.record, j->model, j->fab.name, &j->w, &err) < 0)
        dcb_warn("report: not recorded in the store: %s", err.msg);
    return status;
}

static int report_run(struct cli_ctx *ctx, int argc, char **argv)
{
    struct report_args a;
    int rc = report_parse_args(ctx, argc, argv, &a);
    if (rc)
        return rc == REPORT_HELP_SHOWN ? 0 : rc;
    if (a.from_json)
        return report_from_json(&a);
    struct report_job j = { .a = &a, .out = a.out ? a.out : "." };
    dcb_progress_start(&j.progress, ctx->verbosity >= 0);
    int status = step_prepare(&j);
    if (!status)
        status = report_evidence_get(&a, j.have_fab ? &j.fab : NULL, &j.ev, &j.progress);
    if (!status)
        status = step_model(&j);
    if (!status)
        status = step_findings(&j);
    if (!status)
        status = step_compare(&j);
    if (!status)
        status = step_write(ctx, &j);
    dcb_progress_end(&j.progress);
    cJSON_Delete(j.model);
    cJSON_Delete(j.baseline);
    report_evidence_free(&j.ev);
    fabric_free(&j.fab);
    return status;
}

static const struct cli_option_doc report_options[] = {
    { "--since DURATION",
      "The window: this long before the store's newest data (or before "
      "--at TIME), or before now with --prometheus (default 24h; --window is the same). With "
      "--prometheus, --step defaults to the window / 10,000, at least 15s." },
    { "--verify SCENARIO.json",
      "Replay every finding's proposed change in this scenario "
      "(as `dcbkit diagnose --verify --scenario`, with its cache): the finding shows the figures "
      "before and after, and advice the replay does not bear out drops a severity." },
    { "--collect DURATION",
      "How long live sources (--local, --gnmi) run before the report "
      "(default: two intervals). Without a live source: first collect from every device of "
      "the fabric for this long, its local device through the local source and its gNMI "
      "devices over gNMI (counters and QoS config). A device that gives nothing is a "
      "finding." },
    { "--interval DURATION", "Time between samples of live sources (default a sixth of "
                             "--collect, at least 1s)." },
    { "--out DIR", "Where report.html, report.json and report.md go (default: the current "
                   "folder; created if missing). Files are replaced atomically." },
    { "--baseline FILE",
      "The previous report.json to compare with (default: the newest report of "
      "this fabric recorded in the store before the window's end, else report.json already in "
      "--out when it covers an earlier window)." },
    { "--rules DIR", "Also load the *.rules files of DIR (repeatable)." },
    { "--profile pfc-only", "Skip the rules that expect DCQCN." },
    { "--from-json FILE", "Re-render a stored report.json instead (no store is read)." },
    { "--format html|md|json|text",
      "--from-json: what to render (default html; -T json and "
      "-T text are json and a text summary), to stdout or into --out (--render is the same). "
      "Without --from-json, --format text|json is -T." },
    { NULL, NULL },
};

static const struct cli_example report_examples[] = {
    { "dcbkit report --fabric fabric.json --store fabric.db --out /srv/reports/$(date +%F)",
      "The nightly report over the last 24 h of the store." },
    { "dcbkit report --fabric fabric.json --collect 60s --since 10m --out now",
      "Collect for a minute first, then report on the last ten minutes." },
    { "dcbkit report --fabric fabric.json --baseline yesterday/report.json --out today",
      "Compare with yesterday's report: new, still-open and resolved findings." },
    { "dcbkit report --fabric fabric.json --prometheus http://prom:9090 --since 24h --out today",
      "The fleet's day as Prometheus kept it." },
    { "dcbkit report --demo --out demo",
      "The built-in replay demo (a leaf-spine with an incast and a slow receiver) as a report." },
    { "dcbkit report --fabric fabric.json --gnmi all --collect 30s --out now",
      "Poll the fabric's switches for half a minute, then report on it." },
    { "dcbkit report --from-json today/report.json --format md",
      "Re-render a stored report as Markdown for a ticket." },
    { NULL, NULL },
};

static const struct cli_exit report_exits[] =
    CLI_EXITS_VERDICT(CLI_EXIT_WARNINGS_WHEN("the worst finding is a warn (a device of the "
                                             "fabric that gave no data is one)"),
                      REPORT_UNDECIDED,
                      "no data in the window; the evidence, the rules or (--from-json) the stored "
                      "report could not be read; a file could not be written");

const struct cli_command cmd_report = {
    .name = "report",
    .summary = "the nightly fabric health report: report.html, report.json, report.md",
    .synopsis = "dcbkit report --fabric FILE [--store DB] [--since 24h] [--collect D] [--out DIR] "
                "[--baseline PREVIOUS.json] [--verify SCENARIO.json]\n"
                "dcbkit report --fabric FILE --prometheus URL [--match M] [--step D] [--since D] "
                "[--out DIR]\n"
                "dcbkit report [--fabric FILE] --local | --gnmi HOST:PORT | --gnmi all | "
                "--replay S | --demo | --pcap FILE [--store DB] [--collect D] [--out DIR]\n"
                "dcbkit report --from-json REPORT.json [--format html|md|json] [--out DIR]",
    .description =
        "report builds what an on-call engineer reads with the morning coffee. It reads a "
        "store: --store DB by itself is read in place (default: $DCBKIT_STORE, else the "
        "default store); any other source (this host, gNMI switches, a replay or the demo, a "
        "capture, Prometheus) runs into the --store DB first when one is given, else into "
        "memory - a replay or capture to its end, a live source for --collect. The fabric file "
        "says which devices the report covers (a device without data is a finding of its own) "
        "and their intended QoS config. The report then reads the window from the store, runs "
        "the rule catalog over it (counters, events, collected config) and the config checks "
        "over the fabric file's intent, compares the findings with the previous report, and "
        "writes three files: report.json (the model, \"schema\": 1, documented in "
        "docs/report.md), report.html (one self-contained file: inline CSS and SVG charts, no "
        "script, no external asset) and report.md (for chat and tickets).\n\n"
        "The HTML gives, in order: the verdict and counts by severity; new, still-open and "
        "resolved findings against the previous report; the top offenders (most pause time; "
        "most drops and ECN marks; the QPs with most retransmissions when captures were "
        "analysed into the store); a heatmap of pause time per port and hour; a section per "
        "device with charts of pauses, marks and drops over the window, its LLDP neighbours "
        "and its QoS config with the checks that fired there; the evidence and knob of every "
        "finding; and the raw data. A device of the fabric with no data in the window is a "
        "finding of its own (device-unreachable).\n\n"
        "Every string that came from the network (LLDP system names, port IDs, interface "
        "names, gNMI keys) is escaped in the HTML and the Markdown. The same store and window "
        "give byte-identical report.json apart from \"generated\". The exit status is "
        "diagnose's, for cron; --from-json exits with the stored verdict's.",
    .options = report_options,
    .source_groups = SOURCE_G_ALL,
    .examples = report_examples,
    .json_doc =
        "The files are described in docs/report.md. On stdout, -T json prints one document: "
        "schema (1), verdict {level (ok, warn, crit, unknown), summary}, comparison {new, "
        "still_open, resolved}, files {html, json, md} (paths written).",
    .run = report_run,
    .exits = report_exits,
};
