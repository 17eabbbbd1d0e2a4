/* dcbkit report: this run's findings against the previous report's, by key (rule, device,
 * interface, priority): new, still-open (with the time it was first reported), and resolved
 * (in the previous report, not in this one). */
#include <math.h>
#include <string.h>

#include "report.h"

static const cJSON *find_key(const cJSON *arr, const char *key)
{
    const cJSON *x;
    cJSON_ArrayForEach(x, arr) {
        if (strcmp(report_str(x, "key"), key) == 0)
            return x;
    }
    return NULL;
}

static void copy_str(cJSON *dst, const cJSON *src, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(src, key);
    cJSON_AddItemToObject(dst, key, v ? cJSON_Duplicate(v, true) : cJSON_CreateNull());
}

void report_diff(cJSON *model, const cJSON *baseline, const char *baseline_name)
{
    cJSON *findings = cJSON_GetObjectItemCaseSensitive(model, "findings");
    const cJSON *old = baseline ? cJSON_GetObjectItemCaseSensitive(baseline, "findings") : NULL;
    const cJSON *old_window = baseline ? cJSON_GetObjectItemCaseSensitive(baseline, "window")
                                       : NULL;
    double old_end = report_num(old_window, "end_ns");
    int n_new = 0, n_open = 0, n_resolved = 0;
    cJSON *f;
    cJSON_ArrayForEach(f, findings) {
        const cJSON *was = old ? find_key(old, report_str(f, "key")) : NULL;
        cJSON_AddStringToObject(f, "status", was ? "still-open" : "new");
        /* first reported: carried over from the previous report, else this window's end */
        double first = was ? report_num(was, "first_reported_ns") : NAN;
        if (was && first != first)
            first = old_end;
        if (first != first)
            first = report_num(cJSON_GetObjectItemCaseSensitive(model, "window"), "end_ns");
        cJSON_AddItemToObject(f, "first_reported_ns", report_json_int(first));
        was ? n_open++ : n_new++;
    }
    cJSON *cmp = cJSON_AddObjectToObject(model, "comparison");
    if (baseline) {
        cJSON_AddStringToObject(cmp, "baseline", baseline_name ? baseline_name : "");
        cJSON_AddItemToObject(
            cmp, "baseline_generated",
            cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(baseline, "generated"), true));
    } else {
        cJSON_AddNullToObject(cmp, "baseline");
        cJSON_AddNullToObject(cmp, "baseline_generated");
    }
    cJSON *resolved = cJSON_CreateArray();
    const cJSON *o;
    cJSON_ArrayForEach(o, old) {
        if (find_key(findings, report_str(o, "key")))
            continue;
        cJSON *r = cJSON_CreateObject();
        static const char *const keep[] = { "key",     "rule",   "severity",
                                            "device",  "ifname", "prio",
                                            "summary", "knob",   "first_reported_ns" };
        for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
            copy_str(r, o, keep[i]);
        cJSON_AddStringToObject(r, "status", "resolved");
        cJSON_AddItemToArray(resolved, r);
        n_resolved++;
    }
    cJSON_AddNumberToObject(cmp, "new", n_new);
    cJSON_AddNumberToObject(cmp, "still_open", n_open);
    cJSON_AddNumberToObject(cmp, "resolved", n_resolved);
    cJSON_AddItemToObject(cmp, "resolved_findings", resolved);
}
