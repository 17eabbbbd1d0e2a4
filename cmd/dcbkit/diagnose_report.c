/* dcbkit diagnose: collecting, ranking and printing the findings. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose.h"

#define DIAGNOSE_SCHEMA 1

void diagnose_report_init(struct diagnose_report *r, bool verbose)
{
    memset(r, 0, sizeof(*r));
    r->verbose = verbose;
}

void diagnose_report_free(struct diagnose_report *r)
{
    free(r->findings);
    free(r->undecided);
    memset(r, 0, sizeof(*r));
}

void diagnose_report_add(void *arg, const struct finding *f)
{
    struct diagnose_report *r = arg;
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 32;
        struct finding *grown = realloc(r->findings, cap * sizeof(*grown));
        if (!grown) {
            r->nomem = true;
            return;
        }
        r->findings = grown;
        r->cap = cap;
    }
    r->findings[r->n++] = *f;
}

void diagnose_report_undecided(void *arg, const struct rule_undecided *u)
{
    struct diagnose_report *r = arg;
    if (r->nundecided == r->undecided_cap) {
        size_t cap = r->undecided_cap ? r->undecided_cap * 2 : 32;
        struct rule_undecided *grown = realloc(r->undecided, cap * sizeof(*grown));
        if (!grown) {
            r->nomem = true;
            return;
        }
        r->undecided = grown;
        r->undecided_cap = cap;
    }
    r->undecided[r->nundecided++] = *u;
}

static int rank(const void *x, const void *y)
{
    const struct finding *a = x, *b = y;
    if (a->severity != b->severity)
        return (int)b->severity - (int)a->severity;
    if (a->rule->confidence != b->rule->confidence)
        return a->rule->confidence < b->rule->confidence ? 1 : -1;
    int c = strcmp(a->rule->id, b->rule->id);
    if (c)
        return c;
    if ((c = strcmp(a->device, b->device)) != 0)
        return c;
    if ((c = strcmp(a->ifname, b->ifname)) != 0)
        return c;
    return a->prio - b->prio;
}

int diagnose_report_status(const struct diagnose_report *r)
{
    int worst = 0;
    for (size_t i = 0; i < r->n; i++) {
        int s = r->findings[i].severity == RULE_CRIT ? 2 :
                r->findings[i].severity == RULE_WARN ? 1 : 0;
        if (s > worst)
            worst = s;
    }
    return worst;
}

static void print_place(struct dcb_out *o, const struct finding *f)
{
    char place[160];
    snprintf(place, sizeof(place), "%s%s%s", f->device[0] ? f->device : "fabric",
             f->ifname[0] ? ":" : "", f->ifname);
    if (f->prio >= 0) {
        size_t used = strlen(place);
        snprintf(place + used, sizeof(place) - used, " prio %d", f->prio);
    }
    out_text(o, " %s\n", place);
    out_str(o, "device", NULL, f->device);
    out_str(o, "ifname", NULL, f->ifname);
    out_i64(o, "prio", NULL, f->prio);
}

static void print_figures(struct dcb_out *o, const char *key, const char *label,
                          const struct finding_figures *g)
{
    out_obj_open(o, key);
    out_text(o, "        %-7s", label);
    out_dbl(o, "pause_us", " pause %.0f us,", g->pause_us);
    out_dbl(o, "marks", " marks %.0f,", g->marks);
    out_dbl(o, "drops", " drops %.0f,", g->drops);
    out_dbl(o, "throughput_bps", " throughput %.3g b/s", g->throughput_bps);
    if (g->fct_p99_ns >= 0)
        out_dbl(o, "fct_p99_ns", ", FCT p99 %.0f ns", g->fct_p99_ns);
    else
        out_null(o, "fct_p99_ns", NULL);
    if (g->iter_p99_ns >= 0)
        out_dbl(o, "iter_p99_ns", ", iteration p99 %.0f ns", g->iter_p99_ns);
    else
        out_null(o, "iter_p99_ns", NULL);
    out_text(o, "\n");
    out_obj_close(o);
}

static void print_verified(struct dcb_out *o, const struct finding *f, bool asked)
{
    const struct finding_verified *v = &f->verified;
    if (!asked || (!v->done && !v->note[0])) {
        out_null(o, "verified", NULL);
        return;
    }
    out_obj_open(o, "verified");
    out_bool(o, "done", NULL, v->done);
    out_bool(o, "improved", NULL, v->done && v->improved);
    out_bool(o, "tradeoff", NULL, v->done && v->tradeoff);
    out_bool(o, "cached", NULL, v->cached);
    out_str(o, "change", NULL, v->change);
    out_str(o, "note", "      verified: %s", v->note);
    out_text(o, "%s", v->done && v->cached ? " (cached)\n" : "\n");
    if (v->done) {
        print_figures(o, "before", "before", &v->before);
        print_figures(o, "after", "after", &v->after);
    } else {
        out_null(o, "before", NULL);
        out_null(o, "after", NULL);
    }
    out_obj_close(o);
}

static void print_finding(struct dcb_out *o, const struct finding *f, bool verify)
{
    const struct rule *r = f->rule;
    out_obj_open(o, NULL);
    out_str(o, "severity", "  %-4s", rule_severity_name(f->severity));
    out_dbl(o, "confidence", " %.2f", r->confidence);
    out_str(o, "rule", " %s", r->id);
    out_str(o, "scope", NULL, rule_scope_name(r->scope));
    print_place(o, f);
    out_str(o, "summary", "      %s\n", f->summary);
    if (f->nevidence)
        out_text(o, "      evidence:");
    out_arr_open(o, "evidence");
    for (size_t i = 0; i < f->nevidence; i++) {
        out_obj_open(o, NULL);
        out_str(o, "name", " %s", f->evidence[i].name);
        out_str(o, "value", "=%s", f->evidence[i].value);
        out_text(o, "%s", i + 1 < f->nevidence ? ";" : "");
        out_obj_close(o);
    }
    out_arr_close(o);
    if (f->nevidence)
        out_text(o, "\n");
    out_str(o, "knob", f->knob[0] ? "      knob: %s" : NULL, f->knob);
    out_str(o, "direction", r->direction[0] && f->knob[0] ? " (%s)" : NULL, r->direction);
    if (f->proposed[0])
        out_str(o, "proposed", " -> %s", f->proposed);
    else
        out_null(o, "proposed", NULL);
    out_arr_open(o, "also");
    for (int i = 0; i < RULE_ALSO_MAX; i++)
        if (f->also[i][0])
            out_str(o, NULL, i ? ", %s" : "; with %s", f->also[i]);
    out_arr_close(o);
    out_text(o, "%s", f->knob[0] ? "\n" : "");
    out_str(o, "reference", r->reference ? "      see: %s\n" : NULL,
            r->reference ? r->reference : "");
    print_verified(o, f, verify);
    out_obj_close(o);
}

void diagnose_report_print(struct dcb_out *o, struct diagnose_report *r, const char *source_kind,
                           const char *source_name, const char *profile, size_t nrules,
                           const struct rule_run_stats *stats)
{
    if (r->n)                               /* findings is NULL when nothing fired */
        qsort(r->findings, r->n, sizeof(*r->findings), rank);
    size_t counts[3] = { 0 };
    for (size_t i = 0; i < r->n; i++)
        counts[r->findings[i].severity]++;
    int status = diagnose_report_status(r);
    const char *level = status == 2 ? "crit" : status == 1 ? "warn" : "ok";
    char summary[FINDING_TEXT_MAX + 64];
    if (r->n)
        snprintf(summary, sizeof(summary), "%zu findings (%zu crit, %zu warn, %zu info); worst: "
                 "%s", r->n, counts[RULE_CRIT], counts[RULE_WARN], counts[RULE_INFO],
                 r->findings[0].summary);
    else
        snprintf(summary, sizeof(summary), "no findings: %" PRIu64 " rule instances checked, %"
                 PRIu64 " could not decide (-v lists them)", stats->instances, stats->undecided);
    out_obj_open(o, NULL);
    out_u64(o, "schema", NULL, DIAGNOSE_SCHEMA);
    out_obj_open(o, "verdict");
    out_str(o, "level", "DIAGNOSIS %s: ", level);
    out_str(o, "summary", "%s\n", summary);
    out_obj_close(o);
    out_obj_open(o, "source");
    out_str(o, "kind", "  evidence: %s", source_kind);
    out_str(o, "name", source_name[0] ? " %s" : NULL, source_name);
    out_obj_close(o);
    if (profile)
        out_str(o, "profile", "; profile %s", profile);
    else
        out_null(o, "profile", NULL);
    out_u64(o, "rules", "; %" PRIu64 " rules", (uint64_t)nrules);
    out_obj_open(o, "stats");
    out_u64(o, "instances", ", %" PRIu64 " instances", stats->instances);
    out_u64(o, "fired", ", %" PRIu64 " fired", stats->fired);
    out_u64(o, "undecided", ", %" PRIu64 " undecided\n", stats->undecided);
    out_obj_close(o);
    if (r->n)
        out_text(o, "\nFindings (worst first)\n");
    out_arr_open(o, "findings");
    for (size_t i = 0; i < r->n; i++)
        print_finding(o, &r->findings[i], r->verify);
    out_arr_close(o);
    if (r->verbose) {
        if (r->nundecided)
            out_text(o, "\nCould not decide\n");
        out_arr_open(o, "undecided");
        for (size_t i = 0; i < r->nundecided; i++) {
            const struct rule_undecided *u = &r->undecided[i];
            out_obj_open(o, NULL);
            out_str(o, "rule", "  %s", u->rule->id);
            out_str(o, "device", " %s", u->device[0] ? u->device : "fabric");
            out_str(o, "ifname", u->ifname[0] ? ":%s" : NULL, u->ifname);
            out_i64(o, "prio", u->prio >= 0 ? " prio %" PRId64 : NULL, u->prio);
            out_str(o, "missing", ": lacks %s\n", u->missing);
            out_obj_close(o);
        }
        out_arr_close(o);
    }
    if (r->nomem)
        out_text(o, "(out of memory: some findings were not kept)\n");
    out_obj_close(o);
}
