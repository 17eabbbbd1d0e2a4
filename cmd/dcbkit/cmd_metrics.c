/* dcbkit metrics: the canonical metric registry, for people and for tools. */
#include <stdio.h>

#include "cli.h"
#include "metrics.h"

static int metrics_run(struct cli_ctx *ctx, int argc, char **argv)
{
    struct cli_parser p = { 0 };
    int rc = cli_parse(ctx, &p, argc, argv);
    if (rc != CLI_NEXT)
        return rc;
    if (optind < argc)
        return cli_usage_error(ctx, "unexpected argument '%s'", argv[optind]);

    struct dcb_out o;
    out_init(&o, stdout, ctx->format);
    out_obj_open(&o, NULL);
    out_u64(&o, "schema", NULL, 1);
    out_text(&o, "%-28s %-7s %-12s %-6s %s\n", "METRIC", "KIND", "UNIT", "LABEL", "PROMETHEUS");
    out_arr_open(&o, "metrics");
    for (int i = 0; i < METRIC_COUNT; i++) {
        const struct metric_info *m = metric_info((enum metric_id)i);
        char prom[128];
        out_obj_open(&o, NULL);
        out_str(&o, "name", "%-28s ", m->name);
        out_str(&o, "kind", "%-7s ", metric_kind_name(m->kind));
        out_str(&o, "unit", "%-12s ", metric_unit_name(m->unit));
        out_arr_open(&o, "labels");
        if (m->labels != LABELS_NONE)
            out_str(&o, NULL, NULL, metric_labels_name(m->labels));
        out_arr_close(&o);
        out_text(&o, "%-6s ", m->labels == LABELS_NONE ? "-" : metric_labels_name(m->labels));
        out_str(&o, "prometheus", "%s\n", metric_prom_name(m->id, prom, sizeof(prom)));
        out_str(&o, "help", NULL, m->help);
        out_obj_close(&o);
    }
    out_arr_close(&o);
    out_obj_close(&o);
    return cli_finish_output(&o, 0);
}

static const struct cli_option_doc metrics_options[] = {
    { NULL, NULL },
};

static const struct cli_example metrics_examples[] = {
    { "dcbkit metrics", "The table of canonical metrics." },
    { "dcbkit metrics -T json | jq -r '.metrics[].prometheus'", "The Prometheus names only." },
    { NULL, NULL },
};

const struct cli_command cmd_metrics = {
    .name = "metrics",
    .summary = "list the canonical metrics every source produces",
    .synopsis = "dcbkit metrics [-T json]",
    .description =
        "Every collector (NIC counters, RDMA counters, gNMI, captures, the replay engine) turns "
        "what it reads into these metrics, and every consumer (rules, dcbtop, report, serve) "
        "reads only these. Counters are monotonic and readers take deltas that survive 32-bit "
        "and 64-bit wraps and resets; gauges are instantaneous. prio and queue labels are -1 "
        "where they do not apply. The Prometheus name is in base units (microseconds become "
        "seconds).",
    .options = metrics_options,
    .examples = metrics_examples,
    .json_doc = "{\"schema\":1, \"metrics\":[{\"name\", \"kind\" (counter|gauge), \"unit\", "
                "\"labels\" ([] or [\"prio\"] or [\"queue\"]), \"prometheus\", \"help\"}, ...]}",
    .run = metrics_run,
};
