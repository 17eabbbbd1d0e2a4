/* dcbkit report: the findings. The rule catalog over the store window (measured: counters,
 * events, collected config) and over the fabric file (intended config), a finding the store
 * already gave is not repeated from the intent; then one finding per device that gave no data,
 * so a device that could not be reached is never silently missing. Ranked worst first. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evidence_fabric.h"
#include "evidence_store.h"
#include "findings.h"
#include "report.h"
#include "units.h"
#include "verify.h"

#define UNREACHABLE_RULE "device-unreachable"

static cJSON *str_or_null(const char *s)
{
    return s && s[0] ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static void add_key(cJSON *o, const char *rule, const char *device, const char *ifname, int prio)
{
    char key[512];
    snprintf(key, sizeof(key), "%s|%s|%s|%d", rule, device, ifname, prio);
    cJSON_AddStringToObject(o, "key", key);
}

static cJSON *figures_json(const struct finding_figures *g)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "pause_us", g->pause_us);
    cJSON_AddNumberToObject(o, "marks", g->marks);
    cJSON_AddNumberToObject(o, "drops", g->drops);
    cJSON_AddNumberToObject(o, "throughput_bps", g->throughput_bps);
    cJSON_AddItemToObject(o, "fct_p99_ns", g->fct_p99_ns >= 0 ? cJSON_CreateNumber(g->fct_p99_ns)
                                                              : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "iter_p99_ns", g->iter_p99_ns >= 0
                                                ? cJSON_CreateNumber(g->iter_p99_ns)
                                                : cJSON_CreateNull());
    return o;
}

/* diagnose --verify's shape (docs/report.md); null when the finding was not replayed */
static cJSON *verified_json(const struct finding_verified *v)
{
    if (!v->done && !v->note[0])
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "done", v->done);
    cJSON_AddBoolToObject(o, "improved", v->done && v->improved);
    cJSON_AddBoolToObject(o, "tradeoff", v->done && v->tradeoff);
    cJSON_AddBoolToObject(o, "cached", v->cached);
    cJSON_AddStringToObject(o, "change", v->change);
    cJSON_AddStringToObject(o, "note", v->note);
    cJSON_AddItemToObject(o, "before", v->done ? figures_json(&v->before) : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "after", v->done ? figures_json(&v->after) : cJSON_CreateNull());
    return o;
}

static cJSON *finding_json(const struct finding *f, const char *source)
{
    const struct rule *r = f->rule;
    cJSON *o = cJSON_CreateObject();
    add_key(o, r->id, f->device, f->ifname, f->prio);
    cJSON_AddStringToObject(o, "rule", r->id);
    cJSON_AddStringToObject(o, "severity", rule_severity_name(f->severity));
    cJSON_AddNumberToObject(o, "confidence", r->confidence);
    cJSON_AddStringToObject(o, "scope", rule_scope_name(r->scope));
    cJSON_AddStringToObject(o, "source", source);
    cJSON_AddStringToObject(o, "device", f->device);
    cJSON_AddStringToObject(o, "ifname", f->ifname);
    cJSON_AddNumberToObject(o, "prio", f->prio);
    cJSON_AddStringToObject(o, "summary", f->summary);
    cJSON *ev = cJSON_AddArrayToObject(o, "evidence");
    for (size_t i = 0; i < f->nevidence; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", f->evidence[i].name);
        cJSON_AddStringToObject(e, "value", f->evidence[i].value);
        cJSON_AddItemToArray(ev, e);
    }
    cJSON_AddItemToObject(o, "knob", str_or_null(f->knob));
    cJSON_AddItemToObject(o, "direction", str_or_null(f->knob[0] ? r->direction : ""));
    cJSON_AddItemToObject(o, "proposed", str_or_null(f->proposed));
    cJSON_AddItemToObject(o, "reference", str_or_null(r->reference));
    cJSON_AddItemToObject(o, "verified", verified_json(&f->verified));
    return o;
}

static bool has_key(const cJSON *arr, const char *key)
{
    const cJSON *x;
    cJSON_ArrayForEach(x, arr) {
        if (strcmp(report_str(x, "key"), key) == 0)
            return true;
    }
    return false;
}

static int severity_rank(const char *s)
{
    return !strcmp(s, "crit") ? 2 : !strcmp(s, "warn") ? 1 : 0;
}

static int rank(const void *x, const void *y)
{
    const cJSON *a = *(const cJSON *const *)x, *b = *(const cJSON *const *)y;
    int c = severity_rank(report_str(b, "severity")) - severity_rank(report_str(a, "severity"));
    if (c)
        return c;
    double ca = report_num(a, "confidence"), cb = report_num(b, "confidence");
    if (ca != cb)
        return ca < cb ? 1 : -1;
    return strcmp(report_str(a, "key"), report_str(b, "key"));
}

/* Reorders the array in place, worst first; the key breaks ties, so the order is stable. */
static void rank_findings(cJSON *arr)
{
    int n = cJSON_GetArraySize(arr);
    if (n < 2)
        return;
    cJSON **items = malloc((size_t)n * sizeof(*items));
    if (!items)
        return;
    for (int i = n - 1; i >= 0; i--)
        items[i] = cJSON_DetachItemFromArray(arr, i);
    qsort(items, (size_t)n, sizeof(*items), rank);
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(arr, items[i]);
    free(items);
}

static int load_rules(const struct report_findings_input *in, struct rule_set *rs,
                      struct dcb_err *err)
{
    char dir[4096];
    if (rules_default_dir(dir, sizeof(dir)) < 0)
        return dcb_err_set(err, DCB_E_NOTFOUND, "no rule catalog found; set DCBKIT_RULES");
    int rc = rule_set_load_dir(rs, dir, err);
    for (int i = 0; i < in->nrules_dirs && rc == 0; i++)
        rc = rule_set_load_dir(rs, in->rules_dirs[i], err);
    return rc;
}

static int run_over(const struct rule_set *rs, const struct evidence *ev,
                    const struct report_findings_input *in, const char *source, cJSON *arr,
                    struct dcb_err *err)
{
    struct finding_list found = { 0 };
    struct rule_run_options opt = { .profile = in->profile, .now_ns = in->w->t1,
                                    .on_finding = finding_list_add, .arg = &found };
    struct rule_run_stats stats;
    int rc = rule_set_run(rs, ev, &opt, &stats, err);
    if (rc == 0 && in->verify_scenario) {
        struct rule_verify_options vo = { .scenario = in->verify_scenario };
        struct rule_verify_stats vs;
        rc = rule_verify(&vo, found.v, found.n, &vs, err);
    }
    for (size_t i = 0; rc == 0 && i < found.n; i++) {
        cJSON *f = finding_json(&found.v[i], source);
        if (has_key(arr, report_str(f, "key")))
            cJSON_Delete(f);       /* measured already said it */
        else
            cJSON_AddItemToArray(arr, f);
    }
    if (rc == 0 && found.nomem)
        rc = dcb_err_set(err, DCB_E_NOMEM, "out of memory keeping findings");
    finding_list_free(&found);
    return rc;
}

static const char *collect_failure(const struct report_findings_input *in, const char *device)
{
    for (size_t i = 0; i < in->ncollect_failed; i++)
        if (strcmp(in->collect_failed[i].device, device) == 0)
            return in->collect_failed[i].why;
    return NULL;
}

/* A device with no sample or config in the window: unreachable, or nothing collects it. */
static void add_unreachable(const struct report_findings_input *in, const cJSON *dev,
                            cJSON *arr)
{
    const char *name = report_str(dev, "name");
    const char *reach = report_str(dev, "reach");
    const char *why = collect_failure(in, name);
    char since[64], summary[1024];
    report_fmt_time(in->w->t0, since, sizeof(since));
    if (why)
        snprintf(summary, sizeof(summary), "%s could not be reached: %s; the report has no data "
                 "from it since %s", name, why, since);
    else if (!strcmp(reach, "gnmi"))
        snprintf(summary, sizeof(summary), "no data from %s (gNMI target %s) since %s: it could "
                 "not be reached, or nothing collects it", name, report_str(dev, "target"),
                 since);
    else
        snprintf(summary, sizeof(summary), "no data from %s (reach %s) since %s: it could not be "
                 "reached, or nothing collects it", name, reach, since);
    cJSON *o = cJSON_CreateObject();
    add_key(o, UNREACHABLE_RULE, name, "", -1);
    cJSON_AddStringToObject(o, "rule", UNREACHABLE_RULE);
    cJSON_AddStringToObject(o, "severity", "warn");
    cJSON_AddNumberToObject(o, "confidence", 1);
    cJSON_AddStringToObject(o, "scope", "device");
    cJSON_AddStringToObject(o, "source", why ? "collect" : "store");
    cJSON_AddStringToObject(o, "device", name);
    cJSON_AddStringToObject(o, "ifname", "");
    cJSON_AddNumberToObject(o, "prio", -1);
    cJSON_AddStringToObject(o, "summary", summary);
    cJSON *ev = cJSON_AddArrayToObject(o, "evidence");
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "name", "series in window");
    cJSON_AddStringToObject(e, "value", "0");
    cJSON_AddItemToArray(ev, e);
    cJSON_AddNullToObject(o, "knob");
    cJSON_AddNullToObject(o, "direction");
    cJSON_AddNullToObject(o, "proposed");
    cJSON_AddStringToObject(o, "reference", "docs/report.md (unreachable devices)");
    cJSON_AddNullToObject(o, "verified");
    cJSON_AddItemToArray(arr, o);
}

int report_findings(const struct report_findings_input *in, cJSON *model, struct dcb_err *err)
{
    cJSON *arr = cJSON_AddArrayToObject(model, "findings");
    struct rule_set rs;
    rule_set_init(&rs);
    int rc = load_rules(in, &rs, err);
    if (rc == 0 && in->st) {
        struct evidence ev = { 0 };
        rc = evidence_store_open(&ev, in->st, in->w->t1, err);
        if (rc == 0) {
            evidence_store_limit(&ev, in->w->t0);
            if (in->wrap)
                in->wrap(&ev, in->wrap_arg);
            rc = run_over(&rs, &ev, in, "store", arr, err);
            if (in->unwrap)
                in->unwrap(&ev, in->wrap_arg);
            evidence_store_close(&ev);
        }
    }
    if (rc == 0 && in->fab) {
        struct evidence ev = { 0 };
        rc = evidence_fabric_open(&ev, in->fab, err);
        if (rc == 0) {
            rc = run_over(&rs, &ev, in, "fabric", arr, err);
            evidence_fabric_close(&ev);
        }
    }
    size_t nrules = rs.n;
    rule_set_free(&rs);
    if (rc < 0)
        return rc;
    const cJSON *dev;
    cJSON_ArrayForEach(dev, cJSON_GetObjectItemCaseSensitive(model, "devices")) {
        if (strcmp(report_str(dev, "status"), "ok") != 0)
            add_unreachable(in, dev, arr);
    }
    cJSON_AddNumberToObject(model, "rules", (double)nrules);
    rank_findings(arr);
    return 0;
}
