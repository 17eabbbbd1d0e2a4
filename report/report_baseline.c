/* dcbkit report: where the previous report comes from, and leaving this one for the next run.
 * The previous report is --baseline FILE; else the newest report of this fabric recorded in the
 * store before this window's end (each report records its findings there as a run); else the
 * report.json already in the output folder when it covers an earlier window. A report of the
 * same window is never its own baseline, so the same store and window give the same report. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"

#define RUN_COMMAND "report"

struct from_store {
    cJSON *findings;
};

static int on_finding_row(const struct store_finding_row *r, void *arg)
{
    struct from_store *fs = arg;
    cJSON *f = r->json ? cJSON_Parse(r->json) : NULL;
    if (cJSON_IsObject(f) && report_str(f, "key")[0])
        cJSON_AddItemToArray(fs->findings, f);
    else
        cJSON_Delete(f); /* not a report's finding: not comparable */
    return 0;
}

static cJSON *store_baseline(struct dcb_store *st, const char *fabric_name,
                             const struct report_window *w, char *name, size_t name_len)
{
    int64_t run_id, started;
    struct dcb_err err;
    if (!st || store_last_run(st, RUN_COMMAND, fabric_name, w->t1, &run_id, &started, &err) != 1)
        return NULL;
    cJSON *b = cJSON_CreateObject();
    struct from_store fs = { cJSON_AddArrayToObject(b, "findings") };
    if (store_findings(st, run_id, on_finding_row, &fs, &err) < 0) {
        cJSON_Delete(b);
        return NULL;
    }
    char when[64];
    report_fmt_time(started, when, sizeof(when));
    cJSON_AddNumberToObject(b, "schema", REPORT_SCHEMA);
    cJSON_AddStringToObject(b, "generated", when);
    cJSON *win = cJSON_AddObjectToObject(b, "window");
    cJSON_AddItemToObject(win, "end_ns", report_json_int((double)started));
    snprintf(name, name_len, "the store's report of the window ending %s", when);
    return b;
}

cJSON *report_baseline(const char *file, struct dcb_store *st, const char *fabric_name,
                       const char *out_dir, const struct report_window *w, char *name,
                       size_t name_len, struct dcb_err *err)
{
    name[0] = '\0';
    if (file) {
        snprintf(name, name_len, "%s", file);
        return report_model_load(file, err); /* NULL: the caller fails with err */
    }
    cJSON *b = store_baseline(st, fabric_name, w, name, name_len);
    if (b)
        return b;
    char path[4096];
    snprintf(path, sizeof(path), "%s/report.json", out_dir);
    if (access(path, F_OK) != 0)
        return NULL;
    struct dcb_err e2;
    b = report_model_load(path, &e2);
    if (!b) {
        fprintf(stderr, "dcbkit: report: previous %s not used: %s\n", path, e2.msg);
        return NULL;
    }
    double end = report_num(cJSON_GetObjectItemCaseSensitive(b, "window"), "end_ns");
    if (!(end < (double)w->t1)) {
        cJSON_Delete(b);
        return NULL;
    }
    snprintf(name, name_len, "report.json (previous run in the output folder)");
    return b;
}

int report_record(struct dcb_store *st, const cJSON *model, const char *fabric_name,
                  const struct report_window *w, struct dcb_err *err)
{
    int64_t run_id;
    int rc = store_begin_run(st, RUN_COMMAND, fabric_name, w->t1, &run_id, err);
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(model, "findings")) {
        if (rc < 0)
            break;
        char *json = cJSON_PrintUnformatted(f);
        double prio = report_num(f, "prio");
        struct store_finding_row row = {
            run_id,
            w->t1,
            report_str(f, "rule"),
            report_str(f, "severity"),
            report_str(f, "device"),
            report_str(f, "ifname"),
            isfinite(prio) ? (int)prio : -1,
            json,
        };
        rc = json ? store_put_finding(st, &row, err)
                  : dcb_err_set(err, DCB_E_NOMEM, "out of memory");
        free(json);
    }
    if (rc >= 0)
        rc = store_end_run(st, run_id, w->t1, err);
    return rc < 0 ? rc : 0;
}
