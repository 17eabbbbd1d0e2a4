/* The fabric health report (`dcbkit report`, cmd/dcbkit/report/). The report is one JSON model
 * (report.json, schema 1, documented in docs/report.md); everything else is a rendering of it,
 * so `--from-json` re-renders exactly. It reads a store (whatever source filled it):
 *
 *   report_gather.c    the store window -> traffic (top offenders, heatmap, per-device charts),
 *                      QPs, LLDP neighbours, config snapshots
 *   report_findings.c  the rules over the store and the fabric file, unreachable devices
 *   report_diff.c      findings against the previous report: new, still-open, resolved
 *   report_model.c     verdict, counts, the document's order; reading a stored report back
 *   report_html.c      report.html: one file, inline CSS and SVG, no script
 *   report_md.c        report.md for chat and tickets
 *   report_groups.c    findings grouped by rule and cause, with their places compacted
 * Every string that came from the network is escaped by the renderers (xml_escape for HTML,
 * md_escape for Markdown). */
#ifndef DCB_REPORT_H
#define DCB_REPORT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "err.h"
#include "fabric.h"
#include "findings.h"
#include "store.h"
#include "svg_chart.h"

#define REPORT_SCHEMA 1
#define REPORT_CHART_BUCKETS 96 /* points per per-device chart over the window */
#define REPORT_TOP 10           /* rows of each top-offender table */
#define REPORT_HEATMAP_ROWS 40  /* ports in the heatmap, most pause time first */
#define REPORT_CHART_PORTS 3    /* a device chart's lines: its total and its top ports */

/* Exit status for cron, as diagnose: 0 healthy, 1 warnings, 2 critical, 3 could not decide. */
enum report_status { REPORT_OK = 0, REPORT_WARN = 1, REPORT_CRIT = 2, REPORT_UNDECIDED = 3 };

struct report_window {
    int64_t t0, t1;
};

/* What gather adds to the model ("traffic", "top", "heatmap", "devices", "qps"); fab may be
 * NULL (devices then come from the store alone). */
int report_gather(struct dcb_store *st, const struct fabric *fab, const struct report_window *w,
                  cJSON *model, struct dcb_err *err);

/* "missing_paths": the paths each device does not serve as of the window's end (the gNMI
 * source's source_gap events with a path), at the top and in each device. */
int report_missing_paths(struct dcb_store *st, const struct report_window *w, cJSON *model,
                         struct dcb_err *err);

/* Collection problems found by --collect, one per device that failed: device -> reason. */
struct report_collect_result {
    char device[DCB_DEVICE_MAX];
    char why[256];
};

/* The rules over the store window (and the fabric's intent, when given), plus a finding per
 * device without data; the "findings" array in the one order (rules/findings.h), each with its
 * "key". */
struct report_findings_input {
    struct dcb_store *st;     /* may be NULL: no store evidence */
    const struct fabric *fab; /* may be NULL */
    const struct report_window *w;
    const char *const *rules_dirs; /* extra --rules folders */
    int nrules_dirs;
    const char *profile;
    const char *verify_scenario; /* --verify: replay each finding's change in this scenario */
    const struct report_collect_result *collect_failed;
    size_t ncollect_failed;
};
int report_findings(const struct report_findings_input *in, cJSON *model, struct dcb_err *err);

/* The previous report (report_baseline.c): --baseline file, else the store's newest report of
 * this fabric before the window's end, else report.json in out_dir when its window is earlier.
 * NULL when there is none (name ""), or when file cannot be read (err set, name the file). */
cJSON *report_baseline(const char *file, struct dcb_store *st, const char *fabric_name,
                       const char *out_dir, const struct report_window *w, char *name,
                       size_t name_len, struct dcb_err *err);
/* Records this report's findings in the store as a run, for the next report's comparison. */
int report_record(struct dcb_store *st, const cJSON *model, const char *fabric_name,
                  const struct report_window *w, struct dcb_err *err);

/* Marks each finding new or still-open against baseline (a previous report.json model, or
 * NULL) and adds "comparison" with the resolved ones. */
void report_diff(cJSON *model, const cJSON *baseline, const char *baseline_name);

/* Verdict and counts from the findings; returns the exit status. */
enum report_status report_verdict(cJSON *model, bool have_data);
/* The skeleton: schema, generated, fabric, store, window. */
cJSON *report_model_new(const char *fabric_name, const char *fabric_file, const char *store,
                        const struct report_window *w, int64_t generated_ns);
/* A stored report.json: parsed and checked (schema 1). NULL with err set otherwise. */
cJSON *report_model_load(const char *path, struct dcb_err *err);
cJSON *report_model_parse(const char *text, size_t len, struct dcb_err *err);
/* The status a model's verdict stands for. */
enum report_status report_model_status(const cJSON *model);

int report_write_json(const cJSON *model, FILE *fp);
int report_write_html(const cJSON *model, FILE *fp);
int report_write_md(const cJSON *model, FILE *fp);

/* The top-offender tables (report_tables.c): a column shows text or a number in a unit. */
#define REPORT_TEXT (-1)
struct report_column {
    const char *title, *key;
    int unit; /* enum svg_unit, or REPORT_TEXT */
};
struct report_table {
    const char *title, *key;             /* key: under "top" */
    const char *empty;                   /* said when the table has no row */
    const struct report_column *columns; /* ends with a NULL title */
};
extern const struct report_table report_top_tables[]; /* ends with a NULL title */
/* A cell as shown (a unit-scaled number, "–" when unknown), unescaped. */
char *report_cell(const cJSON *row, const struct report_column *c, char *buf, size_t len);

/* Findings grouped for people (report_groups.c): one group per rule, severity and knob, in the
 * order of each group's first finding (the worst cause first). Free the array with free(). */
struct report_group {
    const cJSON *first;   /* the group's first finding: its summary, evidence, knob */
    int first_index;      /* its index in the findings array */
    int count;            /* findings (places) in the group */
    int n_new;            /* of them with status "new" */
    bool proposed_varies; /* the places propose different values */
};
struct report_group *report_group_findings(const cJSON *findings, size_t *ngroups);
/* The group's places compacted: "switch1 Ethernet0–7; leaf2 Ethernet4, prio 3". */
char *report_group_places(const cJSON *findings, const struct report_group *g, char *buf,
                          size_t len);

/* Helpers shared by the renderers. */
static inline const cJSON *report_get(const cJSON *obj, const char *key)
{
    return obj ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}
const char *report_str(const cJSON *obj, const char *key); /* "" when absent */
/* Writes tmpl with each {key} replaced by obj's string member key, through escape. */
void report_fill(FILE *fp, const cJSON *obj, const char *tmpl,
                 void (*escape)(FILE *fp, const char *s));
double report_num(const cJSON *obj, const char *key); /* NaN when absent */
double report_item_num(const cJSON *v);               /* NaN when not a number */
/* A whole number printed exactly (ns timestamps, totals); null when not finite. */
cJSON *report_json_int(double v);
char *report_fmt_time(int64_t ns, char *buf, size_t len);        /* 2026-11-23 16:00:00 UTC */
char *report_place(const cJSON *finding, char *buf, size_t len); /* leaf1:Ethernet4 prio 3 */
/* Markdown: s with every character Markdown or HTML would act on escaped, on one line. */
void md_escape(FILE *fp, const char *s);

/* The documents findings cite (report_refs.c). A reference is written escaped, each of its
 * anchors (cite.h) a link to the copy of that entry of docs/rules-references.md which the
 * References section at the end of the report holds; that section links on to the primary
 * source and to the installed list. */
void report_html_reference(FILE *fp, const char *ref);
void report_html_references(FILE *fp, const cJSON *model);
void report_md_reference(FILE *fp, const char *ref);
void report_md_references(FILE *fp, const cJSON *model);

#endif
