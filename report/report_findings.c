/* dcbkit report: the findings. The rule catalog over the store window (measured: counters,
 * events, collected config) and over the fabric file (intended config), a finding the store
 * already gave is not repeated from the intent; then one finding per device that gave no data,
 * so a device that could not be reached is never silently missing. All of them in the one order
 * (rules/findings.h), worst first. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
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

/* A QP finding's key says its QP too; the others keep the key they always had. */
static void add_key(cJSON *o, const char *rule, const char *device, const char *ifname, int prio,
                    int qp)
{
    char key[512];
    int n = snprintf(key, sizeof(key), "%s|%s|%s|%d", rule, device, ifname, prio);
    if (qp >= 0 && n > 0 && (size_t)n < sizeof(key))
        snprintf(key + n, sizeof(key) - (size_t)n, "|qp%d", qp);
    cJSON_AddStringToObject(o, "key", key);
}

static cJSON *figures_json(const struct finding_figures *g)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "pause_us", g->pause_us);
    cJSON_AddNumberToObject(o, "marks", g->marks);
    cJSON_AddNumberToObject(o, "drops", g->drops);
    cJSON_AddNumberToObject(o, "throughput_bps", g->throughput_bps);
    cJSON_AddItemToObject(o, "fct_p99_ns",
                          g->fct_p99_ns >= 0 ? cJSON_CreateNumber(g->fct_p99_ns)
                                             : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "iter_p99_ns",
                          g->iter_p99_ns >= 0 ? cJSON_CreateNumber(g->iter_p99_ns)
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
    add_key(o, r->id, f->device, f->ifname, f->prio, f->qp);
    cJSON_AddStringToObject(o, "rule", r->id);
    cJSON_AddStringToObject(o, "severity", rule_severity_name(f->severity));
    cJSON_AddNumberToObject(o, "confidence", r->confidence);
    cJSON_AddStringToObject(o, "scope", rule_scope_name(r->scope));
    cJSON_AddStringToObject(o, "cause", finding_cause_name(f->cause));
    cJSON_AddItemToObject(o, "paused_by", str_or_null(f->paused_by));
    cJSON_AddStringToObject(o, "source", source);
    cJSON_AddStringToObject(o, "device", f->device);
    cJSON_AddStringToObject(o, "ifname", f->ifname);
    cJSON_AddNumberToObject(o, "prio", f->prio);
    cJSON_AddNumberToObject(o, "qp", f->qp);
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

/* A finding and what gave it ("store", "fabric", "collect"), in the one order. */
struct placed {
    struct finding f;
    const char *source;
};

struct found {
    struct placed *v;
    size_t n, cap;
};

static int found_add(struct found *fd, const struct finding *f, const char *source)
{
    if (fd->n == fd->cap && dcb_grow(&fd->v, &fd->cap, sizeof(*fd->v), 64) < 0)
        return -1;
    fd->v[fd->n++] = (struct placed){ *f, source };
    return 0;
}

static bool same_place(const struct finding *a, const struct finding *b)
{
    return !strcmp(a->rule->id, b->rule->id) && !strcmp(a->device, b->device) &&
           !strcmp(a->ifname, b->ifname) && a->prio == b->prio;
}

/* Whether an earlier source (the store: measured) already said it. */
static bool found_has(const struct found *fd, const struct finding *f)
{
    for (size_t i = 0; i < fd->n; i++)
        if (same_place(&fd->v[i].f, f))
            return true;
    return false;
}

static int by_order(const void *x, const void *y)
{
    return finding_order(&((const struct placed *)x)->f, &((const struct placed *)y)->f);
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
                    const struct report_findings_input *in, const char *source, struct found *fd,
                    struct dcb_err *err)
{
    struct finding_list l = { 0 };
    struct rule_run_options opt = { .profile = in->profile,
                                    .now_ns = in->w->t1,
                                    .on_finding = finding_list_add,
                                    .arg = &l };
    struct rule_run_stats stats;
    int rc = rule_set_run(rs, ev, &opt, &stats, err);
    if (rc == 0 && in->verify_scenario) {
        struct rule_verify_options vo = { .scenario = in->verify_scenario };
        struct rule_verify_stats vs = { 0 };
        rc = rule_verify(&vo, l.v, l.n, &vs, err);
    }
    for (size_t i = 0; rc == 0 && i < l.n; i++)
        if (!found_has(fd, &l.v[i]) && found_add(fd, &l.v[i], source) < 0)
            l.nomem = true;
    if (rc == 0 && l.nomem)
        rc = dcb_err_set(err, DCB_E_NOMEM, "out of memory keeping findings");
    finding_list_free(&l);
    return rc;
}

static const char *collect_failure(const struct report_findings_input *in, const char *device)
{
    for (size_t i = 0; i < in->ncollect_failed; i++)
        if (strcmp(in->collect_failed[i].device, device) == 0)
            return in->collect_failed[i].why;
    return NULL;
}

static char unreachable_reference[] =
    "docs/report.md, devices not reached [docs/rules-references.md#dcbkit-report]";
static const struct rule unreachable_rule = {
    .id = UNREACHABLE_RULE,
    .severity = RULE_WARN,
    .confidence = 1,
    .scope = SCOPE_DEVICE,
    .reference = unreachable_reference,
};

/* A device with no sample in the window: unreachable, or nothing collects it. A finding like
 * any other, so it takes its place in the one order. reach and target: as the fabric file has
 * them ("unlisted" and "" for a device only the command line names). */
static int add_unreachable(const struct report_findings_input *in, const char *name,
                           const char *reach, const char *target, struct found *fd)
{
    const char *why = collect_failure(in, name);
    char since[64];
    struct finding f = { .rule = &unreachable_rule,
                         .severity = RULE_WARN,
                         .prio = -1,
                         .qp = -1,
                         .nevidence = 1 };
    snprintf(f.device, sizeof(f.device), "%s", name);
    report_fmt_time(in->w->t0, since, sizeof(since));
    if (why)
        snprintf(f.summary, sizeof(f.summary),
                 "%s could not be reached: %s; the report has no "
                 "data from it since %s",
                 name, why, since);
    else if (!strcmp(reach, "gnmi"))
        snprintf(f.summary, sizeof(f.summary),
                 "no data from %s (gNMI target %s) since %s: it "
                 "could not be reached, or nothing collects it",
                 name, target, since);
    else
        snprintf(f.summary, sizeof(f.summary),
                 "no data from %s (reach %s) since %s: it could "
                 "not be reached, or nothing collects it",
                 name, reach, since);
    snprintf(f.evidence[0].name, sizeof(f.evidence[0].name), "series in window");
    snprintf(f.evidence[0].value, sizeof(f.evidence[0].value), "0");
    return found_add(fd, &f, why ? "collect" : "store");
}

static bool model_has_device(const cJSON *model, const char *name)
{
    const cJSON *dev;
    cJSON_ArrayForEach(dev, cJSON_GetObjectItemCaseSensitive(model, "devices")) {
        if (!strcmp(report_str(dev, "name"), name))
            return true;
    }
    return false;
}

/* Every device without data: the model's (the fabric's, the store's), and those collection got
 * nothing from that nothing else lists (a --gnmi HOST:PORT that refused every call). */
static int add_unreachable_devices(const struct report_findings_input *in, const cJSON *model,
                                   struct found *fd)
{
    const cJSON *dev;
    cJSON_ArrayForEach(dev, cJSON_GetObjectItemCaseSensitive(model, "devices")) {
        if (strcmp(report_str(dev, "status"), "ok") != 0 &&
            add_unreachable(in, report_str(dev, "name"), report_str(dev, "reach"),
                            report_str(dev, "target"), fd) < 0)
            return -1;
    }
    for (size_t i = 0; i < in->ncollect_failed; i++) {
        const char *name = in->collect_failed[i].device;
        if (!model_has_device(model, name) && add_unreachable(in, name, "unlisted", "", fd) < 0)
            return -1;
    }
    return 0;
}

static int run_sources(const struct report_findings_input *in, const struct rule_set *rs,
                       struct found *fd, struct dcb_err *err)
{
    int rc = 0;
    if (in->st) {
        struct evidence ev = { 0 };
        rc = store_snapshot_begin(in->st, err);
        if (rc == 0 && (rc = evidence_store_open(&ev, in->st, in->w->t1, err)) == 0) {
            evidence_store_limit(&ev, in->w->t0);
            rc = run_over(rs, &ev, in, "store", fd, err);
            evidence_store_close(&ev);
        }
        store_snapshot_end(in->st);
    }
    if (rc == 0 && in->fab) {
        struct evidence ev = { 0 };
        rc = evidence_fabric_open(&ev, in->fab, err);
        if (rc == 0) {
            rc = run_over(rs, &ev, in, "fabric", fd, err);
            evidence_fabric_close(&ev);
        }
    }
    return rc;
}

int report_findings(const struct report_findings_input *in, cJSON *model, struct dcb_err *err)
{
    cJSON *arr = cJSON_AddArrayToObject(model, "findings");
    struct rule_set rs;
    struct found fd = { 0 };
    rule_set_init(&rs);
    int rc = load_rules(in, &rs, err);
    if (rc == 0)
        rc = run_sources(in, &rs, &fd, err);
    if (rc == 0 && add_unreachable_devices(in, model, &fd) < 0)
        rc = dcb_err_set(err, DCB_E_NOMEM, "out of memory keeping findings");
    if (rc == 0) {
        if (fd.n > 1)
            qsort(fd.v, fd.n, sizeof(*fd.v), by_order);
        for (size_t i = 0; i < fd.n; i++)
            cJSON_AddItemToArray(arr, finding_json(&fd.v[i].f, fd.v[i].source));
        cJSON_AddNumberToObject(model, "rules", (double)rs.n);
    }
    free(fd.v);
    rule_set_free(&rs);
    return rc;
}
