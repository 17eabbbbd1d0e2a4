/* dcbkit report: the nightly fabric health report. Optionally collects now, reads the window
 * from the store, runs the rules and config checks, compares with the previous report and
 * writes report.json (the model), report.html and report.md (its renderings). Exit status for
 * cron: 0 healthy, 1 warnings, 2 critical, 3 could not decide (no data, or an error). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "log.h"
#include "diagnose.h"
#include "report.h"
#include "units.h"

#define HELP_SHOWN (-1)
#define FAIL REPORT_UNDECIDED

struct report_args {
    const char *fabric, *store, *out, *baseline, *from_json, *format;
    const char *prometheus, *match, *verify;
    int64_t step_ns;
    struct cli_rules rules;
    int64_t since_ns, collect_ns, interval_ns;
};

static int parse_args(struct cli_ctx *ctx, int argc, char **argv, struct report_args *a)
{
    int rc;
    enum { O_FABRIC = 256, O_STORE, O_SINCE, O_COLLECT, O_INTERVAL, O_OUT, O_BASELINE,
           O_FROM_JSON, O_FORMAT_OUT, O_RULES, O_PROFILE, O_PROMETHEUS, O_MATCH, O_STEP,
           O_VERIFY };
    static const struct option longopts[] = {
        { "fabric", required_argument, NULL, O_FABRIC },
        { "store", required_argument, NULL, O_STORE },
        { "prometheus", required_argument, NULL, O_PROMETHEUS },
        { "match", required_argument, NULL, O_MATCH },
        { "step", required_argument, NULL, O_STEP },
        { "since", required_argument, NULL, O_SINCE },
        { "collect", required_argument, NULL, O_COLLECT },
        { "interval", required_argument, NULL, O_INTERVAL },
        { "out", required_argument, NULL, O_OUT },
        { "baseline", required_argument, NULL, O_BASELINE },
        { "from-json", required_argument, NULL, O_FROM_JSON },
        /* before the common options: `--format html|md` is the spelling for
         * --from-json; --format text|json still chooses the summary's format */
        { "format", required_argument, NULL, O_FORMAT_OUT },
        { "render", required_argument, NULL, O_FORMAT_OUT },
        { "rules", required_argument, NULL, O_RULES },
        { "profile", required_argument, NULL, O_PROFILE },
        { "verify", required_argument, NULL, O_VERIFY },
        CLI_COMMON_LONGOPTS,
        { NULL, 0, NULL, 0 },
    };
    struct dcb_err err;
    a->since_ns = 24 * 3600 * NS_PER_SEC;
    int c;
    while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
        int64_t *dur = NULL;
        const char *flag = NULL;
        switch (c) {
        case O_FABRIC: a->fabric = optarg; break;
        case O_STORE: a->store = optarg; break;
        case O_PROMETHEUS:
            if (strncmp(optarg, "http://", 7) != 0 && strncmp(optarg, "https://", 8) != 0)
                return cli_usage_error(ctx, "--prometheus takes an http:// or https:// URL, "
                                       "not '%s'", optarg);
            a->prometheus = optarg;
            break;
        case O_MATCH: a->match = optarg; break;
        case O_STEP: dur = &a->step_ns; flag = "--step"; break;
        case O_OUT: a->out = optarg; break;
        case O_BASELINE: a->baseline = optarg; break;
        case O_FROM_JSON: a->from_json = optarg; break;
        case O_FORMAT_OUT:
            if (!strcmp(optarg, "text")) {
                ctx->format = OUT_TEXT;
                break;
            }
            if (strcmp(optarg, "html") && strcmp(optarg, "md") && strcmp(optarg, "json"))
                return cli_usage_error(ctx, "--format: html, md or json (with --from-json), "
                                       "text or json (the summary), not '%s'", optarg);
            a->format = optarg;
            break;
        case O_RULES:
            if ((rc = cli_rules_dir(ctx, &a->rules, optarg)))
                return rc;
            break;
        case O_PROFILE:
            if ((rc = cli_rules_profile(ctx, &a->rules, optarg)))
                return rc;
            break;
        case O_VERIFY: a->verify = optarg; break;
        case O_SINCE: dur = &a->since_ns; flag = "--since"; break;
        case O_COLLECT: dur = &a->collect_ns; flag = "--collect"; break;
        case O_INTERVAL: dur = &a->interval_ns; flag = "--interval"; break;
        default:
            rc = cli_common_option(ctx, c, argv);
            if (rc == 0)
                return HELP_SHOWN;
            if (rc > 0)
                return rc;
        }
        if (dur) {
            if (dcb_parse_duration(optarg, dur, &err) < 0)
                return cli_usage_error(ctx, "%s: %s", flag, err.msg);
            if (*dur < NS_PER_MS)
                return cli_usage_error(ctx, "%s must be at least 1ms", flag);
        }
    }
    if (optind < argc)
        return cli_usage_error(ctx, "unexpected argument '%s'", argv[optind]);
    if (a->from_json) {
        if (a->fabric || a->collect_ns || a->baseline || a->verify)
            return cli_usage_error(ctx, "--from-json re-renders a stored report: no --fabric, "
                                   "--collect, --baseline or --verify");
        if (!a->format)
            a->format = "html";
        return 0;
    }
    if (a->format && strcmp(a->format, "json") == 0) {
        ctx->format = OUT_JSON;     /* --format json without --from-json: the summary */
        a->format = NULL;
    }
    if (a->format)
        return cli_usage_error(ctx, "--format %s goes with --from-json", a->format);
    if (!a->fabric)
        return cli_usage_error(ctx, "needs --fabric FILE (or --from-json REPORT.json)");
    if (a->prometheus && (a->store || a->collect_ns))
        return cli_usage_error(ctx, "--prometheus reads the window from Prometheus: no --store "
                               "or --collect");
    if ((a->match || a->step_ns) && !a->prometheus)
        return cli_usage_error(ctx, "--match and --step go with --prometheus");
    if (a->interval_ns && !a->collect_ns)
        return cli_usage_error(ctx, "--interval goes with --collect");
    if (!a->interval_ns) {
        a->interval_ns = a->collect_ns / 6;
        if (a->interval_ns < NS_PER_SEC)
            a->interval_ns = NS_PER_SEC;
        if (a->interval_ns > a->collect_ns)
            a->interval_ns = a->collect_ns;
    }
    return 0;
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * NS_PER_SEC + ts.tv_nsec;
}

static void progress(const char *what)
{
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "report: %s\n", what);
}

/* DIR/NAME through a temporary file and a rename: the previous report survives a failure. */
static int write_file(const char *dir, const char *name, int (*write)(const cJSON *, FILE *),
                      const cJSON *model, struct dcb_err *err)
{
    char path[4096], tmp[4200];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
    FILE *fp = fopen(tmp, "w");
    if (!fp)
        return dcb_err_set(err, DCB_E_IO, "%s: %s", tmp, strerror(errno));
    int rc = write(model, fp);
    int saved = errno;
    if (fclose(fp) != 0 && rc == 0) {
        rc = -1;
        saved = errno;
    }
    if (rc != 0 || rename(tmp, path) != 0) {
        if (rc == 0)
            saved = errno;
        unlink(tmp);
        return dcb_err_set(err, DCB_E_IO, "%s: %s", path, strerror(saved ? saved : EIO));
    }
    return 0;
}

/* --format json: the stored document itself, as read (it was checked to be a report). */
static const char *json_source;

static int copy_source(const cJSON *model, FILE *out)
{
    (void)model;
    FILE *in = fopen(json_source, "rb");
    if (!in)
        return -1;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
        fwrite(buf, 1, n, out);
    int rc = ferror(in) || ferror(out) ? -1 : 0;
    fclose(in);
    return rc;
}

static int from_json(struct cli_ctx *ctx, const struct report_args *a)
{
    (void)ctx;
    struct dcb_err err;
    cJSON *m = report_model_load(a->from_json, &err);
    if (!m)
        return cli_fail(FAIL, a->from_json, "%s", err.msg);
    json_source = a->from_json;
    int (*render)(const cJSON *, FILE *) = !strcmp(a->format, "md") ? report_write_md :
        !strcmp(a->format, "json") ? copy_source : report_write_html;
    int status = report_model_status(m);
    if (a->out) {
        char name[32];
        snprintf(name, sizeof(name), "report.%s", a->format);
        if (write_file(a->out, name, render, m, &err) < 0)
            status = cli_fail(FAIL, "report", "%s", err.msg);
    } else if (render(m, stdout) != 0 || fflush(stdout) != 0) {
        status = cli_fail(FAIL, "writing output", "%s", strerror(errno));
    }
    cJSON_Delete(m);
    return status;
}

static void wrap_prom(struct evidence *ev, void *arg)
{
    diagnose_prom_evidence(ev, arg);
}

static void unwrap_prom(struct evidence *ev, void *arg)
{
    diagnose_prom_unwrap(ev, arg);
}

static void add_raw_links(cJSON *model, const struct report_args *a, const char *store)
{
    cJSON *raw = cJSON_AddObjectToObject(model, "raw");
    cJSON *files = cJSON_AddArrayToObject(raw, "files");
    cJSON_AddItemToArray(files, cJSON_CreateString("report.json"));
    cJSON_AddItemToArray(files, cJSON_CreateString("report.md"));
    cJSON_AddStringToObject(raw, "store", store);
    char since[64], cmd[4400];
    snprintf(since, sizeof(since), "%" PRId64 "s", (int64_t)(a->since_ns / NS_PER_SEC));
    cJSON *cmds = cJSON_AddArrayToObject(raw, "commands");
    snprintf(cmd, sizeof(cmd), "dcbkit store export --store '%s' --since %s --jsonl", store,
             since);
    cJSON_AddItemToArray(cmds, cJSON_CreateString(cmd));
    snprintf(cmd, sizeof(cmd), "dcbkit diagnose --store '%s' --since %s -v", store, since);
    cJSON_AddItemToArray(cmds, cJSON_CreateString(cmd));
}

static void print_summary(struct cli_ctx *ctx, const cJSON *m, const char *out)
{
    struct dcb_out o;
    out_init(&o, stdout, ctx->format);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(m, "verdict");
    const cJSON *cmp = cJSON_GetObjectItemCaseSensitive(m, "comparison");
    out_obj_open(&o, NULL);
    out_u64(&o, "schema", NULL, REPORT_SCHEMA);
    out_obj_open(&o, "verdict");
    out_str(&o, "level", "REPORT %s: ", report_str(v, "level"));
    out_str(&o, "summary", "%s\n", report_str(v, "summary"));
    out_obj_close(&o);
    out_obj_open(&o, "comparison");
    out_u64(&o, "new", "  findings: %" PRIu64 " new", (uint64_t)report_num(cmp, "new"));
    out_u64(&o, "still_open", ", %" PRIu64 " still open",
            (uint64_t)report_num(cmp, "still_open"));
    out_u64(&o, "resolved", ", %" PRIu64 " resolved\n", (uint64_t)report_num(cmp, "resolved"));
    out_obj_close(&o);
    out_obj_open(&o, "files");
    static const char *const names[] = { "html", "json", "md" };
    out_text(&o, "  written:");
    for (size_t i = 0; i < 3; i++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/report.%s", out, names[i]);
        out_str(&o, names[i], " %s", path);
    }
    out_text(&o, "\n");
    out_obj_close(&o);
    out_obj_close(&o);
    out_finish(&o);
}

static int report_run(struct cli_ctx *ctx, int argc, char **argv)
{
    struct report_args a = { 0 };
    int rc = parse_args(ctx, argc, argv, &a);
    if (rc)
        return rc == HELP_SHOWN ? 0 : rc;
    if (a.from_json)
        return from_json(ctx, &a);

    struct dcb_err err;
    const char *out = a.out ? a.out : ".";
    struct stat sb;
    if (stat(out, &sb) != 0 && mkdir(out, 0777) != 0)
        return cli_fail(FAIL, out, "%s", strerror(errno));
    char store_buf[4096];
    const char *store = a.store ? a.store : getenv("DCBKIT_STORE");
    if (!store) {
        if (store_default_path(store_buf, sizeof(store_buf), &err) < 0)
            return cli_fail(FAIL, "store", "%s", err.msg);
        store = store_buf;
    }
    struct fabric fab;
    fabric_init(&fab);
    if (fabric_load_file(&fab, a.fabric, &err) < 0) {
        fabric_free(&fab);
        return cli_fail(FAIL, a.fabric, "%s", err.msg);
    }
    struct report_collect_result *failed = NULL;
    size_t nfailed = 0;
    int status = 0;
    if (a.collect_ns) {
        progress("collecting from the fabric's devices");
        if (report_collect(&fab, store, a.collect_ns, a.interval_ns, &failed, &nfailed,
                           &err) < 0)
            status = cli_fail(FAIL, "report --collect", "%s", err.msg);
    }
    struct dcb_store *st = NULL;
    bool writable = false;
    struct diagnose_prom_events *prom_events = NULL;
    if (!status && a.prometheus) {
        /* the window as Prometheus kept it, at a step that stays under its 11,000 points */
        int64_t step = a.step_ns ? a.step_ns : a.since_ns / 10000;
        if (step < 15 * NS_PER_SEC && !a.step_ns)
            step = 15 * NS_PER_SEC;
        struct diagnose_prometheus p = { a.prometheus, a.match, now_ns(), a.since_ns, step,
                                         60000 };
        int64_t end;
        progress("reading the window from Prometheus");
        if (diagnose_gather_prometheus(&p, &st, &prom_events, &end, &err) < 0)
            status = cli_fail(FAIL, a.prometheus, "%s", err.msg);
        store = a.prometheus;
    } else if (!status) {
        /* read-write to record this report for the next one; read-only will do otherwise */
        struct store_options so = { .path = store };
        if (access(store, F_OK) == 0 && store_open_sqlite(&st, &so, NULL) == 0) {
            writable = true;
        } else {
            so.readonly = true;
            st = NULL;
        }
        if (!writable && store_open_sqlite(&st, &so, &err) < 0)
            status = nfailed ? cli_fail(FAIL, "report", "%s; %s: %s", err.msg,
                                        failed[nfailed - 1].device, failed[nfailed - 1].why)
                             : cli_fail(FAIL, "report", "%s", err.msg);
    }
    cJSON *model = NULL, *baseline = NULL;
    if (!status) {
        struct store_info info;
        int64_t end = store_info(st, &info, &err) == 0 && info.last_ns ? info.last_ns : now_ns();
        struct report_window w = { end - a.since_ns, end };
        model = report_model_new(fab.name, a.fabric, store, &w, now_ns());
        progress("reading the window from the store");
        if (!model)
            status = cli_fail(FAIL, "report", "out of memory");
        else if (report_gather(st, &fab, &w, model, &err) < 0)
            status = cli_fail(FAIL, "report", "%s", err.msg);
        progress("running the rules");
        struct report_findings_input in = {
            .st = st, .fab = &fab, .w = &w, .rules_dirs = a.rules.dirs,
            .nrules_dirs = a.rules.ndirs, .profile = a.rules.profile, .verify_scenario = a.verify,
            .collect_failed = failed,
            .ncollect_failed = nfailed,
        };
        if (prom_events) {
            in.wrap = wrap_prom;
            in.unwrap = unwrap_prom;
            in.wrap_arg = prom_events;
        }
        if (!status && report_findings(&in, model, &err) < 0)
            status = cli_fail(FAIL, "report", "%s", err.msg);
        char baseline_name[256] = "";
        if (!status) {
            baseline = report_baseline(a.baseline, st, fab.name, out, &w, baseline_name,
                                       sizeof(baseline_name), &err);
            if (!baseline && a.baseline)
                status = cli_fail(FAIL, a.baseline, "%s", err.msg);
        }
        if (!status) {
            report_diff(model, baseline, baseline_name[0] ? baseline_name : NULL);
            if (!a.prometheus)
                add_raw_links(model, &a, store);
            double samples = report_num(cJSON_GetObjectItemCaseSensitive(model, "traffic"),
                                        "samples");
            bool have_data = samples > 0;
            const cJSON *d;
            cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(model, "devices")) {
                have_data |= !strcmp(report_str(d, "status"), "ok");
            }
            status = (int)report_verdict(model, have_data);
            progress("writing report.json, report.html, report.md");
            if (write_file(out, "report.json", report_write_json, model, &err) < 0 ||
                write_file(out, "report.html", report_write_html, model, &err) < 0 ||
                write_file(out, "report.md", report_write_md, model, &err) < 0)
                status = cli_fail(FAIL, "report", "%s", err.msg);
            else
                print_summary(ctx, model, out);
            if (status != FAIL && !writable)
                dcb_warn("report: %s is read-only here: this report is not recorded for the "
                         "next one's comparison", store);
            else if (status != FAIL && report_record(st, model, fab.name, &w, &err) < 0)
                dcb_warn("report: not recorded in the store: %s", err.msg);
        }
    }
    cJSON_Delete(model);
    cJSON_Delete(baseline);
    if (st)
        store_close(st, NULL);
    diagnose_prom_events_free(prom_events);
    free(failed);
    fabric_free(&fab);
    return status;
}

static const struct cli_option_doc report_options[] = {
    { "--fabric FILE", "The fabric file: which devices the report covers (a device without data "
      "is a finding of its own) and their intended QoS config." },
    { "--store DB", "The store to read (default: $DCBKIT_STORE, else the default store)." },
    { "--prometheus URL", "Read the window from a Prometheus (or Thanos, Mimir) that scrapes "
      "dcbkit serve across the fleet, through /api/v1/query_range, instead of a store: the "
      "canonical metrics, dcbkit_qos_config (collected config), dcbkit_topology_info (where "
      "each port sits) and dcbkit_events_total (event counts). One report then covers a fleet that no single machine collects." },
    { "--match MATCHERS", "--prometheus: extra label matchers, e.g. 'job=\"dcbkit\"'." },
    { "--step DURATION", "--prometheus: the window's resolution (default: the window / 10,000, "
      "at least 15s)." },
    { "--since DURATION", "The window: this long before the store's newest data, or before now "
      "with --prometheus (default 24h)." },
    { "--verify SCENARIO.json", "Replay every finding's proposed change in this scenario "
      "(as `dcbkit diagnose --verify --scenario`, with its cache): the finding shows the figures "
      "before and after, and advice the replay does not bear out drops a severity." },
    { "--collect DURATION", "First collect from every device of the fabric for this long: local "
      "devices through `dcbkit collect`, gNMI devices over gNMI (counters and QoS config, as "
      "`dcbkit collect --fabric`). A device that gives nothing is a finding." },
    { "--interval DURATION", "--collect: time between samples (default a sixth of --collect, at "
      "least 1s)." },
    { "--out DIR", "Where report.html, report.json and report.md go (default: the current "
      "folder; created if missing). Files are replaced atomically." },
    { "--baseline FILE", "The previous report.json to compare with (default: the newest report of "
      "this fabric recorded in the store before the window's end, else report.json already in "
      "--out when it covers an earlier window)." },
    { "--rules DIR", "Also load the *.rules files of DIR (repeatable)." },
    { "--profile pfc-only", "Skip the rules that expect DCQCN." },
    { "--from-json FILE", "Re-render a stored report.json instead (no store is read)." },
    { "--format html|md|json", "--from-json: what to render (default html), to stdout or into "
      "--out (--render is the same). Without --from-json, --format text|json is -T." },
    CLI_COMMON_OPTION_DOCS,
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
    { "dcbkit report --from-json today/report.json --format md",
      "Re-render a stored report as Markdown for a ticket." },
    { NULL, NULL },
};

const struct cli_command cmd_report = {
    .name = "report",
    .summary = "the nightly fabric health report: report.html, report.json, report.md",
    .synopsis = "dcbkit report --fabric FILE [--store DB] [--since 24h] [--collect D] [--out DIR] "
                "[--baseline PREVIOUS.json] [--verify SCENARIO.json]\n"
                "dcbkit report --fabric FILE --prometheus URL [--match M] [--step D] [--since D] "
                "[--out DIR]\n"
                "dcbkit report --from-json REPORT.json [--format html|md|json] [--out DIR]",
    .description =
        "report builds what an on-call engineer reads with the morning coffee. It optionally "
        "collects now from every device of the fabric, reads the window from the store, runs "
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
        "give byte-identical report.json apart from \"generated\".\n\n"
        "Exit status for cron: 0 healthy, 1 warnings, 2 critical, 3 could not decide (no data "
        "in the window, or an error), 64 usage. --from-json exits with the stored verdict's "
        "status (3 when the file cannot be read).",
    .options = report_options,
    .examples = report_examples,
    .json_doc =
        "The files are described in docs/report.md. On stdout, -T json prints one document: "
        "schema (1), verdict {level (ok, warn, crit, unknown), summary}, comparison {new, "
        "still_open, resolved}, files {html, json, md} (paths written).",
    .run = report_run,
};
