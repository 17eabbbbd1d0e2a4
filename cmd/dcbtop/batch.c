/* Batch mode, like top -b: one frame per refresh on stdout, flushed. Text frames are the main
 * view as plain lines; JSON frames are one object per line (docs/dcbtop.md):
 *   {"time": ns, "source", "prio", "interfaces": [...], "findings": [...]}
 * with null for every rate not known yet, and "stale_s" (seconds without a reading from a polled
 * device, its rates null) or null; "behind_s" says how far a source paced to the wall clock
 * trails it, "simulated_s" where a replay's frame stands in simulated time. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "out.h"
#include "top.h"

static void put_val(struct dcb_out *o, const char *key, struct top_val v)
{
    if (v.state == VAL_KNOWN && isfinite(v.v))
        out_dbl(o, key, NULL, v.v);
    else
        out_null(o, key, NULL);
}

static void json_cols(struct dcb_out *o, const struct top_val *cols, bool port)
{
    for (int c = 0; c < TOP_NCOLS; c++)
        if (port || (c != COL_CNP_SENT && c != COL_CNP_HANDLED && c != COL_OOS))
            put_val(o, top_cols[c].key, cols[c]);
}

static void json_finding(struct dcb_out *o, const struct finding *f)
{
    out_obj_open(o, NULL);
    out_str(o, "rule", NULL, f->rule->id);
    out_str(o, "severity", NULL, rule_severity_name(f->severity));
    out_str(o, "cause", NULL, finding_cause_name(f->cause));
    out_str(o, "device", NULL, f->device);
    out_str(o, "ifname", NULL, f->ifname);
    out_i64(o, "prio", NULL, f->prio);
    out_str(o, "summary", NULL, f->summary);
    out_arr_open(o, "evidence");
    for (size_t e = 0; e < f->nevidence; e++) {
        out_obj_open(o, NULL);
        out_str(o, "name", NULL, f->evidence[e].name);
        out_str(o, "value", NULL, f->evidence[e].value);
        out_obj_close(o);
    }
    out_arr_close(o);
    out_str(o, "knob", NULL, f->knob);
    if (f->proposed[0])
        out_str(o, "proposed", NULL, f->proposed);
    else
        out_null(o, "proposed", NULL);
    out_obj_close(o);
}

static void frame_json(struct top_app *app, struct top_iface **rows, size_t n)
{
    struct top_model *m = &app->model;
    struct dcb_out o;
    out_init(&o, stdout, OUT_JSON);
    char buf[32];
    out_obj_open(&o, NULL);
    out_i64(&o, "time", NULL, m->data_ns);
    out_str(&o, "source", NULL, app->src.name);
    if (app->src.status[0])
        out_str(&o, "status", NULL, app->src.status);
    else
        out_null(&o, "status", NULL);
    if (app->src.behind_ns > 0)
        out_dbl(&o, "behind_s", NULL, (double)app->src.behind_ns / 1e9);
    else
        out_null(&o, "behind_s", NULL);
    if (app->src.origin_ns && m->data_ns >= app->src.origin_ns)
        out_dbl(&o, "simulated_s", NULL, (double)(m->data_ns - app->src.origin_ns) / 1e9);
    else
        out_null(&o, "simulated_s", NULL);
    out_str(&o, "prio", NULL, view_prio_name(m->prio, buf, sizeof(buf)));
    out_arr_open(&o, "interfaces");
    for (size_t r = 0; r < n; r++) {
        const struct top_iface *i = rows[r];
        out_obj_open(&o, NULL);
        out_str(&o, "device", NULL, i->device);
        out_str(&o, "ifname", NULL, i->ifname);
        if (isfinite(i->speed_bps))
            out_dbl(&o, "speed_bps", NULL, i->speed_bps);
        else
            out_null(&o, "speed_bps", NULL);
        if (i->severity >= 0)
            out_str(&o, "severity", NULL, rule_severity_name((enum rule_severity)i->severity));
        else
            out_null(&o, "severity", NULL);
        if (i->stale_ns > 0)
            out_i64(&o, "stale_s", NULL, i->stale_ns / 1000000000LL);
        else
            out_null(&o, "stale_s", NULL);
        unsigned mask = model_prio_mask(m, i);
        out_arr_open(&o, "prios_shown");
        for (int p = 0; p < 8; p++)
            if (mask & (1u << p))
                out_i64(&o, NULL, NULL, p);
        out_arr_close(&o);
        json_cols(&o, i->col, true);
        out_arr_open(&o, "per_prio");
        for (int p = 0; p < 8; p++) {
            if (!model_prio_has_data(i, p))
                continue;
            struct top_val pc[TOP_NCOLS];
            model_prio_cols(i, p, pc);
            out_obj_open(&o, NULL);
            out_i64(&o, "prio", NULL, p);
            json_cols(&o, pc, false);
            out_obj_close(&o);
        }
        out_arr_close(&o);
        out_obj_close(&o);
    }
    out_arr_close(&o);
    out_arr_open(&o, "findings");
    for (size_t f = 0; f < m->nfindings; f++)
        json_finding(&o, &m->findings[f]);
    out_arr_close(&o);
    out_obj_close(&o);
}

static void frame_text(struct top_app *app, struct top_iface **rows, size_t n)
{
    struct top_model *m = &app->model;
    bool utf8 = app->view.utf8;
    char when[64], prio[32], name[160];
    time_t t = (time_t)(m->data_ns / 1000000000LL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
    view_sanitize(app->src.name, name, sizeof(name), utf8);
    out_term(stdout, "dcbtop %s  %s  %zu interfaces  %s  sort %s  %zu findings\n", when, name, n,
             view_prio_name(m->prio, prio, sizeof(prio)), view_sort_name(app->view.sort),
             m->nfindings);
    if (app->src.status[0]) {
        view_sanitize(app->src.status, name, sizeof(name), utf8);
        out_term(stdout, "note: %s\n", name);
    }
    if (app->src.behind_ns > 0)
        out_term(stdout, "note: %s\n", view_behind(&app->src, name, sizeof(name)));
    out_term(stdout, "%-4s %-24s", "SEV", "INTERFACE");
    for (int c = 0; c < TOP_NCOLS; c++)
        printf(" %7s", top_cols[c].title);
    printf("\n");
    for (size_t r = 0; r < n; r++) {
        const struct top_iface *i = rows[r];
        char label[2 * DCB_DEVICE_MAX], safe[4 * sizeof(label)];
        snprintf(label, sizeof(label), "%s/%s", i->device, i->ifname);
        view_sanitize(label, safe, sizeof(safe), utf8);
        out_term(stdout, "%-4s %-24s",
                 i->severity >= 0 ? rule_severity_name((enum rule_severity)i->severity) : "-",
                 safe);
        for (int c = 0; c < TOP_NCOLS; c++) {
            char v[32];
            view_format(v, sizeof(v), i->col[c], top_cols[c].unit, utf8);
            printf(" %*s", utf8 && !strcmp(v, "\xe2\x80\xa6") ? 9 : 7, v);
        }
        if (i->stale_ns > 0)
            printf("  stale %llds", (long long)(i->stale_ns / 1000000000LL));
        printf("\n");
    }
    for (size_t f = 0; f < m->nfindings; f++) {
        const struct finding *fd = &m->findings[f];
        char place[160], summary[4 * FINDING_TEXT_MAX];
        if (fd->device[0])
            snprintf(place, sizeof(place), "%s/%s", fd->device, fd->ifname);
        else
            snprintf(place, sizeof(place), "fabric");
        view_sanitize(place, name, sizeof(name), utf8);
        view_sanitize(fd->summary, summary, sizeof(summary), utf8);
        out_term(stdout, "%s %s %s: %s", rule_severity_name(fd->severity), fd->rule->id, name,
                 summary);
        if (fd->knob[0])
            out_term(stdout, " [knob %s%s%s]", fd->knob, fd->proposed[0] ? " -> " : "",
                     fd->proposed);
        printf("\n");
    }
    printf("\n");
}

int batch_frame(struct top_app *app)
{
    static struct top_iface *rows[4096];
    size_t n = view_rows(&app->model, &app->view, rows, sizeof(rows) / sizeof(rows[0]));
    if (app->batch_view == TOP_BATCH_QOS && app->format == OUT_JSON)
        batch_qos_json(app, rows, n);
    else if (app->batch_view == TOP_BATCH_QOS)
        batch_qos_text(app, rows, n);
    else if (app->format == OUT_JSON)
        frame_json(app, rows, n);
    else
        frame_text(app, rows, n);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : -1;
}
