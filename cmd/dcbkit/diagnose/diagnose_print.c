/* dcbkit diagnose: what a rules run left, and printing it (text, or JSON with -T json). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cite.h"
#include "diagnose_cmd.h"
#include "value_units.h"

#define DIAGNOSE_SCHEMA 1

void diagnose_undecided_add(void *arg, const struct rule_undecided *u)
{
    struct diagnose_result *r = arg;
    if (r->nundecided == r->undecided_cap) {
        size_t cap = r->undecided_cap ? r->undecided_cap * 2 : 32;
        struct rule_undecided *grown = realloc(r->undecided, cap * sizeof(*grown));
        if (!grown) {
            r->undecided_nomem = true;
            return;
        }
        r->undecided = grown;
        r->undecided_cap = cap;
    }
    r->undecided[r->nundecided] = *u;
    if (r->gaps)
        path_gaps_explain(r->gaps, &r->undecided[r->nundecided]);
    r->nundecided++;
}

void diagnose_result_free(struct diagnose_result *r)
{
    finding_list_free(&r->found);
    free(r->undecided);
    r->undecided = NULL;
    r->nundecided = r->undecided_cap = 0;
}

int diagnose_status(const struct diagnose_result *r)
{
    int worst = 0;
    for (size_t i = 0; i < r->found.n; i++) {
        int s = r->found.v[i].severity == RULE_CRIT   ? 2
                : r->found.v[i].severity == RULE_WARN ? 1
                                                      : 0;
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
    if (f->qp >= 0) {
        size_t used = strlen(place);
        snprintf(place + used, sizeof(place) - used, " qp %d", f->qp);
    }
    out_text(o, " %s", place);
    if (f->cause == CAUSE_VICTIM)
        out_text(o, " (victim)");
    out_text(o, "\n");
    out_str(o, "device", NULL, f->device);
    out_str(o, "ifname", NULL, f->ifname);
    out_i64(o, "prio", NULL, f->prio);
    out_i64(o, "qp", NULL, f->qp);
}

static void print_figures(struct dcb_out *o, const char *key, const char *label,
                          const struct finding_figures *g)
{
    out_obj_open(o, key);
    out_text(o, "        %-7s", label);
    out_dbl(o, "pause_us", " pause %.0f us,", g->pause_us);
    out_dbl(o, "marks", " marks %.0f,", g->marks);
    out_dbl(o, "drops", " drops %.0f,", g->drops);
    if (g->watchdog_drops > 0)
        out_dbl(o, "watchdog_drops", " (watchdog %.0f),", g->watchdog_drops);
    else
        out_dbl(o, "watchdog_drops", NULL, g->watchdog_drops);
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

struct reference_text {
    struct dcb_out *o;
    const char *doc; /* the shipped list's path, NULL when not found */
};

static void reference_part(void *ctx, const char *text, size_t len, const char *id, size_t id_len)
{
    const struct reference_text *t = ctx;
    if (id && t->doc && text[0] != '#')
        out_text(t->o, "%s#%.*s", t->doc, (int)id_len, id);
    else
        out_text(t->o, "%.*s", (int)len, text);
}

/* The reference as the catalog gives it; the text names the installed list by its path, JSON
 * adds a file:// link per anchor (reference_links). */
static void print_reference(struct dcb_out *o, const char *ref)
{
    char doc[4096];
    bool have_doc = ref && cite_doc_path(doc, sizeof(doc)) == 0;
    if (out_is_json(o)) {
        out_str(o, "reference", NULL, ref ? ref : "");
        char ids[16][CITE_ID_MAX], url[4096 + CITE_ID_MAX + 16];
        size_t n = have_doc ? cite_anchors(ref, ids, 16) : 0;
        out_arr_open(o, "reference_links");
        for (size_t i = 0; i < n && i < 16; i++) {
            snprintf(url, sizeof(url), "file://%s#%s", doc, ids[i]);
            out_str(o, NULL, NULL, url);
        }
        out_arr_close(o);
        return;
    }
    if (!ref)
        return;
    struct reference_text t = { o, have_doc ? doc : NULL };
    out_text(o, "      see: ");
    cite_walk(ref, reference_part, &t);
    out_text(o, "\n");
}

void diagnose_print_finding_body(struct dcb_out *o, const struct finding *f, bool verify)
{
    const struct rule *r = f->rule;
    out_str(o, "severity", "  %-4s", rule_severity_name(f->severity));
    out_dbl(o, "confidence", " %.2f", r->confidence);
    out_str(o, "rule", " %s", r->id);
    out_str(o, "scope", NULL, rule_scope_name(r->scope));
    out_str(o, "cause", NULL, finding_cause_name(f->cause));
    if (f->paused_by[0])
        out_str(o, "paused_by", NULL, f->paused_by);
    else
        out_null(o, "paused_by", NULL);
    print_place(o, f);
    out_str(o, "summary", "      %s\n", f->summary);
    if (f->nevidence)
        out_text(o, "      evidence:");
    out_arr_open(o, "evidence");
    for (size_t i = 0; i < f->nevidence; i++) {
        out_obj_open(o, NULL);
        char shown[96];
        out_str(o, "name", " %s", f->evidence[i].name);
        out_str(o, "value", NULL, f->evidence[i].value); /* JSON: the raw value */
        out_text(o, "=%s",
                 value_with_unit(f->evidence[i].name, f->evidence[i].value, shown, sizeof(shown)));
        out_text(o, "%s", i + 1 < f->nevidence ? ";" : "");
        out_obj_close(o);
    }
    out_arr_close(o);
    if (f->nevidence)
        out_text(o, "\n");
    out_str(o, "knob", f->knob[0] ? "      knob: %s" : NULL, f->knob);
    out_str(o, "direction", r->direction[0] && f->knob[0] ? " (%s)" : NULL, r->direction);
    if (f->proposed[0]) {
        char shown[96];
        out_str(o, "proposed", " -> %s", f->proposed);
        if (value_unit_note(f->knob, f->proposed, shown, sizeof(shown))[0])
            out_text(o, " (%s)", shown);
    } else
        out_null(o, "proposed", NULL);
    out_arr_open(o, "also");
    for (int i = 0; i < RULE_ALSO_MAX; i++)
        if (f->also[i][0])
            out_str(o, NULL, i ? ", %s" : "; with %s", f->also[i]);
    out_arr_close(o);
    out_text(o, "%s", f->knob[0] ? "\n" : "");
    print_reference(o, r->reference);
    print_verified(o, f, verify);
}

static void print_finding(struct dcb_out *o, const struct finding *f, bool verify)
{
    out_obj_open(o, NULL);
    diagnose_print_finding_body(o, f, verify);
    out_obj_close(o);
}

static void print_head(struct dcb_out *o, const struct diagnose_result *r,
                       const struct diagnose_evidence *d)
{
    const struct finding_list *l = &r->found;
    size_t counts[3] = { 0 };
    for (size_t i = 0; i < l->n; i++)
        counts[l->v[i].severity]++;
    int status = diagnose_status(r);
    const char *level = status == 2 ? "crit" : status == 1 ? "warn" : "ok";
    char summary[FINDING_TEXT_MAX + 64];
    if (l->n)
        snprintf(summary, sizeof(summary),
                 "%zu findings (%zu crit, %zu warn, %zu info); worst: "
                 "%s",
                 l->n, counts[RULE_CRIT], counts[RULE_WARN], counts[RULE_INFO], l->v[0].summary);
    else
        snprintf(summary, sizeof(summary),
                 "no findings: %" PRIu64 " rule instances checked, %" PRIu64
                 " could not decide (-v lists them)",
                 r->stats.instances, r->stats.undecided);
    out_u64(o, "schema", NULL, DIAGNOSE_SCHEMA);
    out_obj_open(o, "verdict");
    out_str(o, "level", "DIAGNOSIS %s: ", level);
    out_str(o, "summary", "%s\n", summary);
    out_obj_close(o);
    out_obj_open(o, "source");
    out_str(o, "kind", "  evidence: %s", d->kind);
    out_str(o, "name", d->name[0] ? " %s" : NULL, d->name);
    out_obj_close(o);
    if (r->profile)
        out_str(o, "profile", "; profile %s", r->profile);
    else
        out_null(o, "profile", NULL);
    out_u64(o, "rules", "; %" PRIu64 " rules", (uint64_t)r->nrules);
    out_obj_open(o, "stats");
    out_u64(o, "instances", ", %" PRIu64 " instances", r->stats.instances);
    out_u64(o, "fired", ", %" PRIu64 " fired", r->stats.fired);
    out_u64(o, "undecided", ", %" PRIu64 " undecided\n", r->stats.undecided);
    out_obj_close(o);
}

static void print_undecided(struct dcb_out *o, const struct diagnose_result *r)
{
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
        out_i64(o, "qp", u->qp >= 0 ? " qp %" PRId64 : NULL, u->qp);
        out_str(o, "not_served", u->not_served[0] ? ": undecided: %s" : NULL, u->not_served);
        out_str(o, "missing", u->not_served[0] ? " (lacks %s)\n" : ": lacks %s\n", u->missing);
        out_obj_close(o);
    }
    out_arr_close(o);
}

void diagnose_print(struct dcb_out *o, const struct diagnose_result *r,
                    const struct diagnose_evidence *d)
{
    out_obj_open(o, NULL);
    print_head(o, r, d);
    if (r->found.n)
        out_text(o, "\nFindings (worst first)\n");
    out_arr_open(o, "findings");
    for (size_t i = 0; i < r->found.n; i++)
        print_finding(o, &r->found.v[i], r->verify);
    out_arr_close(o);
    if (r->verbose)
        print_undecided(o, r);
    if (r->found.nomem || r->undecided_nomem)
        out_text(o, "(out of memory: some findings were not kept)\n");
    out_obj_close(o);
}
