/* dcbkit report: report.html. One file: inline CSS, inline SVG charts (lib/svg_chart), no
 * script, no external asset, so it opens from a mail attachment or an air-gapped share. Every
 * string from the model is written through xml_escape (h() below); attribute values other than
 * escaped text come from fixed sets (severity classes, element ids by index). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "svg_chart.h"
#include "value_units.h"
#include "xml_escape.h"

static const char css[] =
    "body{font:14px/1.45 'DejaVu Sans',Helvetica,Arial,sans-serif;margin:0 auto;max-width:1240px;"
    "padding:16px 20px;color:#222;background:#fff}"
    "h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid"
    " #ddd;padding-bottom:4px}h3{font-size:15px;margin:18px 0 6px}"
    ".meta{color:#666;font-size:12px}"
    ".verdict{padding:10px 14px;border-radius:6px;border-left:8px solid #999;background:#f6f6f6}"
    ".verdict.crit{border-color:#c62828;background:#fdecea}.verdict.warn{border-color:#ef8f00;"
    "background:#fff4e0}.verdict.ok{border-color:#2e7d32;background:#eaf5ea}"
    ".verdict .level{font-size:20px;font-weight:bold;text-transform:uppercase}"
    "table{border-collapse:collapse;margin:6px 0 10px;font-size:13px}"
    "th,td{border:1px solid #ddd;padding:3px 7px;text-align:left;vertical-align:top}"
    "th{background:#f2f2f2}td.n{text-align:right;font-variant-numeric:tabular-nums}"
    ".sev{font-weight:bold;border-radius:3px;padding:0 5px;color:#fff}"
    ".sev.crit{background:#c62828}.sev.warn{background:#ef8f00}.sev.info{background:#607d8b}"
    ".st-new{color:#c62828;font-weight:bold}.st-resolved{color:#2e7d32;font-weight:bold}"
    ".finding{border:1px solid #ddd;border-radius:6px;padding:4px 12px;margin:8px 0}"
    ".finding p{margin:5px 0}"
    ".finding.crit{border-left:6px solid #c62828}.finding.warn{border-left:6px solid #ef8f00}"
    ".finding.info{border-left:6px solid #607d8b}"
    ".verified{background:#f3f7f0;border-radius:4px;padding:2px 8px;margin:6px 0}"
    ".device{border-top:1px solid #eee;margin-top:14px}"
    "code{background:#f4f4f4;padding:0 3px;border-radius:3px}"
    "svg{max-width:100%;height:auto;display:block;margin:6px 0}"
    ".muted{color:#888}summary{cursor:pointer}summary h2{display:inline-block;border:0}"
    ".evidence-line{font-size:13px;margin:4px 0}";

static void h(FILE *fp, const char *s)
{
    xml_escape(fp, s, 0);
}

static const char *sev_class(const char *s)
{
    return !strcmp(s, "crit") ? "crit" : !strcmp(s, "warn") ? "warn" : "info";
}

static void td_text(FILE *fp, const char *s)
{
    fputs("<td>", fp);
    h(fp, s);
    fputs("</td>", fp);
}

/* One row a member of list, a cell a key, each as text. */
static void text_rows(FILE *fp, const cJSON *list, const char *const keys[], size_t nkeys)
{
    const cJSON *x;
    cJSON_ArrayForEach(x, list) {
        fputs("<tr>", fp);
        for (size_t i = 0; i < nkeys; i++)
            td_text(fp, report_str(x, keys[i]));
        fputs("</tr>\n", fp);
    }
}

static void sev_badge(FILE *fp, const char *sev)
{
    fprintf(fp, "<span class=\"sev %s\">", sev_class(sev));
    h(fp, sev);
    fputs("</span>", fp);
}

static void header(FILE *fp, const cJSON *m)
{
    const cJSON *v = report_get(m, "verdict"), *w = report_get(m, "window"),
                *c = report_get(m, "counts");
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
          fp);
    h(fp, report_str(report_get(m, "fabric"), "name"));
    fputs(" fabric health: ", fp);
    h(fp, report_str(v, "level"));
    fprintf(fp,
            "</title>\n<style>%s</style>\n</head>\n<body>\n<header>\n<h1>Fabric health "
            "report: ",
            css);
    h(fp, report_str(report_get(m, "fabric"), "name"));
    report_fill(fp, w, "</h1>\n<p class=\"meta\">Window {start} to {end}", h);
    report_fill(fp, m, " · generated {generated} by dcbkit {dcbkit_version}", h);
    fputs(" · fabric file ", fp);
    h(fp, report_str(report_get(m, "fabric"), "file"));
    fputs("</p>\n</header>\n", fp);

    fprintf(fp, "<section id=\"verdict\" class=\"verdict %s\">\n<div class=\"level\">",
            !strcmp(report_str(v, "level"), "ok")        ? "ok"
            : !strcmp(report_str(v, "level"), "unknown") ? "unknown"
                                                         : sev_class(report_str(v, "level")));
    h(fp, report_str(v, "level"));
    fputs("</div>\n<p class=\"summary\">", fp);
    h(fp, report_str(v, "summary"));
    fprintf(fp,
            "</p>\n<table class=\"counts\"><tr><th>crit</th><th>warn</th><th>info"
            "</th></tr><tr><td class=\"n\">%.0f</td><td class=\"n\">%.0f</td><td class=\"n\">%.0f"
            "</td></tr></table>\n</section>\n",
            report_num(c, "crit"), report_num(c, "warn"), report_num(c, "info"));
}

static void status_cell(FILE *fp, const char *status)
{
    fprintf(fp, "<td class=\"%s\">",
            !strcmp(status, "new")        ? "st-new"
            : !strcmp(status, "resolved") ? "st-resolved"
                                          : "st-open");
    h(fp, status);
    fputs("</td>", fp);
}

/* One row per group: its severity, how many of its places are new, the rule, the places
 * compacted, the first place's summary. */
static void group_row(FILE *fp, const cJSON *findings, const struct report_group *g)
{
    char places[1024], status[48];
    fputs("<tr><td>", fp);
    sev_badge(fp, report_str(g->first, "severity"));
    fputs("</td>", fp);
    if (g->count == 1)
        snprintf(status, sizeof(status), "%s", report_str(g->first, "status"));
    else if (g->n_new == g->count || g->n_new == 0)
        snprintf(status, sizeof(status), "%s", g->n_new ? "new" : "still-open");
    else
        snprintf(status, sizeof(status), "%d new", g->n_new);
    status_cell(fp, status);
    fprintf(fp, "<td><a href=\"#f-%d\">", g->first_index);
    h(fp, report_str(g->first, "rule"));
    fputs("</a></td>", fp);
    if (g->count > 1)
        fprintf(fp, "<td>%d places: ", g->count);
    else
        fputs("<td>", fp);
    h(fp, report_group_places(findings, g, places, sizeof(places)));
    fputs("</td>", fp);
    td_text(fp, report_str(g->first, "summary"));
    fputs("</tr>\n", fp);
}

static void resolved_row(FILE *fp, const cJSON *f)
{
    char place[256];
    fputs("<tr><td>", fp);
    sev_badge(fp, report_str(f, "severity"));
    fputs("</td>", fp);
    status_cell(fp, "resolved");
    td_text(fp, report_str(f, "rule"));
    td_text(fp, report_place(f, place, sizeof(place)));
    td_text(fp, report_str(f, "summary"));
    fputs("</tr>\n", fp);
}

static void changes(FILE *fp, const cJSON *m)
{
    const cJSON *cmp = report_get(m, "comparison");
    fputs("<section id=\"changes\">\n<h2>Since the previous report</h2>\n<p>", fp);
    if (!report_str(cmp, "baseline")[0]) {
        fputs("No previous report to compare with: every finding is listed as new.", fp);
    } else {
        fprintf(fp, "<b>%.0f new</b>, %.0f still open, <b>%.0f resolved</b>, compared with ",
                report_num(cmp, "new"), report_num(cmp, "still_open"), report_num(cmp, "resolved"));
        h(fp, report_str(cmp, "baseline"));
        fputs(" (generated ", fp);
        h(fp, report_str(cmp, "baseline_generated"));
        fputs(").", fp);
    }
    fputs("</p>\n", fp);
    const cJSON *findings = report_get(m, "findings");
    size_t ngroups = 0;
    struct report_group *groups = report_group_findings(findings, &ngroups);
    if (ngroups || cJSON_GetArraySize(report_get(cmp, "resolved_findings"))) {
        fputs("<table class=\"findings\"><tr><th>severity</th><th>status</th><th>rule</th>"
              "<th>where</th><th>summary</th></tr>\n",
              fp);
        for (size_t k = 0; k < ngroups; k++)
            group_row(fp, findings, &groups[k]);
        const cJSON *f;
        cJSON_ArrayForEach(f, report_get(cmp, "resolved_findings")) {
            resolved_row(fp, f);
        }
        fputs("</table>\n", fp);
    }
    free(groups);
    fputs("</section>\n", fp);
}

static void top(FILE *fp, const cJSON *m)
{
    const cJSON *top = report_get(m, "top"), *r;
    fputs("<section id=\"top\">\n<details><summary><h2>Top offenders</h2></summary>\n", fp);
    for (const struct report_table *t = report_top_tables; t->title; t++) {
        const cJSON *rows = report_get(top, t->key);
        fprintf(fp, "<h3>%s</h3>\n", t->title);
        if (!cJSON_GetArraySize(rows)) {
            fprintf(fp, "<p class=\"muted\">%s</p>\n", t->empty);
            continue;
        }
        fputs("<table><tr>", fp);
        for (const struct report_column *c = t->columns; c->title; c++)
            fprintf(fp, "<th>%s</th>", c->title);
        fputs("</tr>\n", fp);
        cJSON_ArrayForEach(r, rows) {
            fputs("<tr>", fp);
            for (const struct report_column *c = t->columns; c->title; c++) {
                char cell[256];
                fputs(c->unit == REPORT_TEXT ? "<td>" : "<td class=\"n\">", fp);
                h(fp, report_cell(r, c, cell, sizeof(cell)));
                fputs("</td>", fp);
            }
            fputs("</tr>\n", fp);
        }
        fputs("</table>\n", fp);
    }
    fputs("</details>\n</section>\n", fp);
}

static void heatmap(FILE *fp, const cJSON *m)
{
    const cJSON *hm = report_get(m, "heatmap");
    const cJSON *rows = report_get(hm, "rows"), *cols = report_get(hm, "columns");
    fputs("<section id=\"heatmap\">\n<details><summary><h2>Pause time per port and hour</h2>"
          "</summary>\n",
          fp);
    int nr = cJSON_GetArraySize(rows), nc = cJSON_GetArraySize(cols);
    if (!nr || !nc) {
        fputs("<p class=\"muted\">No port has pause time in the window.</p>\n</details>\n"
              "</section>\n",
              fp);
        return;
    }
    char step[64];
    fprintf(fp,
            "<p class=\"meta\">The %d ports with most pause time of %.0f that paused; a "
            "column is %s (UTC).</p>\n",
            nr, report_num(hm, "ports_with_pause_time"),
            svg_fmt_value(report_num(hm, "step_ns"), SVG_UNIT_NS, step, sizeof(step)));
    struct svg_heatmap *hmap = svg_heatmap_new("pause time per port and hour", (size_t)nr,
                                               (size_t)nc, SVG_UNIT_NS);
    if (!hmap) {
        fputs("<p>(out of memory drawing the heatmap)</p>\n</details>\n</section>\n", fp);
        return;
    }
    size_t c = 0;
    const cJSON *x;
    cJSON_ArrayForEach(x, cols) {
        svg_heatmap_col_label(hmap, c++, cJSON_IsString(x) ? x->valuestring : "");
    }
    size_t r = 0;
    cJSON_ArrayForEach(x, rows) {
        char label[160];
        snprintf(label, sizeof(label), "%s %s", report_str(x, "device"), report_str(x, "ifname"));
        svg_heatmap_row_label(hmap, r, label);
        c = 0;
        const cJSON *v;
        cJSON_ArrayForEach(v, report_get(x, "values")) {
            svg_heatmap_set(hmap, r, c++, report_item_num(v));
        }
        r++;
    }
    svg_heatmap_write(hmap, fp);
    svg_heatmap_free(hmap);
    fputs("</details>\n</section>\n", fp);
}

static const struct {
    const char *key, *title;
    enum svg_unit unit;
} chart_panels[] = {
    { "pause_ns", "PFC pause time", SVG_UNIT_NS },
    { "pause_frames", "pause frames", SVG_UNIT_NONE },
    { "marks", "ECN marks", SVG_UNIT_NONE },
    { "drops", "drops", SVG_UNIT_NONE },
};

static void device_chart(FILE *fp, const cJSON *d, const cJSON *m)
{
    const cJSON *charts = report_get(d, "charts"), *w = report_get(m, "window");
    double t0 = report_num(w, "start_ns"), t1 = report_num(w, "end_ns");
    double bucket = report_num(charts, "bucket_ns");
    /* a stored model can hold anything: times outside int64 nanoseconds draw no chart */
    if (!(t1 > t0) || !(bucket > 0) || !(t0 > -9e18) || !(t1 < 9e18) || !(bucket < 9e18))
        return;
    int panels = 0;
    for (size_t i = 0; i < sizeof(chart_panels) / sizeof(chart_panels[0]); i++)
        panels += cJSON_GetArraySize(report_get(charts, chart_panels[i].key)) > 0;
    if (!panels) {
        fputs("<p class=\"muted\">No pause, mark or drop counters from this device in the "
              "window.</p>\n",
              fp);
        return;
    }
    char title[160], per[64];
    snprintf(title, sizeof(title), "%s: pauses, marks and drops per %s", report_str(d, "name"),
             svg_fmt_value(bucket, SVG_UNIT_NS, per, sizeof(per)));
    struct svg_chart *c = svg_chart_new(title, (int64_t)t0, (int64_t)t1);
    if (!c)
        return;
    svg_chart_set_width(c, 1180);
    svg_chart_set_time_labels(c, SVG_TIME_UTC);
    for (size_t i = 0; i < sizeof(chart_panels) / sizeof(chart_panels[0]); i++) {
        const cJSON *lines = report_get(charts, chart_panels[i].key), *line;
        if (!cJSON_GetArraySize(lines))
            continue;
        int p = svg_chart_panel(c, chart_panels[i].title, chart_panels[i].unit, "per interval");
        svg_panel_set_height(c, p, 90);
        cJSON_ArrayForEach(line, lines) {
            struct svg_series *s = svg_chart_line(c, p, report_str(line, "label"));
            if (!s)
                continue;
            int k = 0;
            const cJSON *v;
            cJSON_ArrayForEach(v, report_get(line, "values")) {
                double x = report_item_num(v), at = t0 + (k + 0.5) * bucket;
                if (isfinite(x) && at < 9e18)
                    svg_series_point(s, (int64_t)at, x);
                k++;
            }
        }
    }
    svg_chart_write(c, fp);
    svg_chart_free(c);
}

static void device_config(FILE *fp, const cJSON *d, const cJSON *m)
{
    const cJSON *cfg = report_get(d, "config"), *row;
    if (!cJSON_GetArraySize(cfg)) {
        fputs("<p class=\"muted\">No QoS config known for this device.</p>\n", fp);
        return;
    }
    fputs("<table class=\"config\"><tr><th>interface</th><th>source</th><th>config</th>"
          "<th>checks</th></tr>\n",
          fp);
    const char *dev = report_str(d, "name");
    cJSON_ArrayForEach(row, cfg) {
        const char *ifname = report_str(row, "ifname"), *source = report_str(row, "source");
        fputs("<tr>", fp);
        td_text(fp, ifname);
        td_text(fp, source);
        fputs("<td>", fp);
        const cJSON *fld;
        int k = 0;
        cJSON_ArrayForEach(fld, report_get(row, "fields")) {
            fputs(k++ ? " · " : "", fp);
            fputs("<code>", fp);
            h(fp, fld->string);
            fputs("</code>=", fp);
            h(fp, cJSON_IsString(fld) ? fld->valuestring : "");
        }
        if (!k)
            fputs("<span class=\"muted\">nothing known</span>", fp);
        fputs("</td><td>", fp);
        /* the config checks that fired on this interface */
        const cJSON *f;
        int nf = 0, i = 0;
        cJSON_ArrayForEach(f, report_get(m, "findings")) {
            if (!strcmp(report_str(f, "device"), dev) && !strcmp(report_str(f, "ifname"), ifname) &&
                !strncmp(report_str(f, "rule"), "cfg-", 4)) {
                fputs(nf++ ? " " : "", fp);
                fprintf(fp, "<a href=\"#f-%d\" class=\"sev %s\">", i,
                        sev_class(report_str(f, "severity")));
                h(fp, report_str(f, "rule"));
                fputs("</a>", fp);
            }
            i++;
        }
        if (!nf)
            fputs(strncmp(source, "peer:", 5) ? "pass" : "", fp);
        fputs("</td></tr>\n", fp);
    }
    fputs("</table>\n", fp);
}

static void devices(FILE *fp, const cJSON *m)
{
    fprintf(fp,
            "<section id=\"devices\">\n<details><summary><h2>Devices (%d): charts, "
            "neighbours, config</h2></summary>\n",
            cJSON_GetArraySize(report_get(m, "devices")));
    const cJSON *d;
    int i = 0;
    cJSON_ArrayForEach(d, report_get(m, "devices")) {
        fprintf(fp, "<article class=\"device\" id=\"dev-%d\">\n<h3>", i++);
        h(fp, report_str(d, "name"));
        fputs("</h3>\n<p class=\"meta\">", fp);
        h(fp, report_str(d, "role"));
        fputs(" · reach ", fp);
        h(fp, report_str(d, "reach"));
        if (report_str(d, "target")[0]) {
            fputs(" ", fp);
            h(fp, report_str(d, "target"));
        }
        fputs(" · ", fp);
        h(fp, !strcmp(report_str(d, "status"), "ok")
                  ? "data in the window"
                  : "NO DATA in the window (see the device-unreachable finding)");
        fprintf(fp, " · %.0f series, %.0f ports with pause/mark/drop counters</p>\n",
                report_num(d, "series"), report_num(d, "ports"));
        device_chart(fp, d, m);
        const cJSON *nb = report_get(d, "neighbours");
        if (cJSON_GetArraySize(nb)) {
            static const char *const cols[] = { "ifname", "peer", "port", "dcbx" };
            fputs("<table class=\"neighbours\"><tr><th>interface</th><th>LLDP neighbour</th>"
                  "<th>its port</th><th>DCBX</th></tr>\n",
                  fp);
            text_rows(fp, nb, cols, sizeof(cols) / sizeof(cols[0]));
            fputs("</table>\n", fp);
        }
        device_config(fp, d, m);
        fputs("</article>\n", fp);
    }
    fputs("</details>\n</section>\n", fp);
}

/* One figure of a verification's before/after with this many digits after the point (or
 * significant digits when general), "–" when the replay could not say. */
static void figure(FILE *fp, const cJSON *fig, const char *key, double scale, int digits,
                   bool general)
{
    double v = report_num(fig, key);
    fputs("<td>", fp);
    if (isfinite(v))
        fprintf(fp, general ? "%.*g" : "%.*f", digits, v * scale);
    else
        fputs("–", fp);
    fputs("</td>", fp);
}

/* diagnose --verify's result: the change replayed, its verdict, and the figures before/after. */
static void html_verified(FILE *fp, const cJSON *v)
{
    fputs("<div class=\"verified\"><p>Replay verification", fp);
    if (report_str(v, "change")[0]) {
        fputs(" of <code>", fp);
        h(fp, report_str(v, "change"));
        fputs("</code>", fp);
    }
    fputs(": ", fp);
    h(fp, report_str(v, "note"));
    if (cJSON_IsTrue(report_get(v, "cached")))
        fputs(" (cached)", fp);
    fputs("</p>\n", fp);
    if (cJSON_IsTrue(report_get(v, "done"))) {
        fputs("<table><tr><th></th><th>pause (µs)</th><th>marks</th><th>drops</th>"
              "<th>throughput (Gb/s)</th><th>FCT p99 (µs)</th></tr>\n",
              fp);
        static const char *const rows[] = { "before", "after" };
        for (size_t i = 0; i < 2; i++) {
            const cJSON *fig = report_get(v, rows[i]);
            fprintf(fp, "<tr><th>%s</th>", rows[i]);
            figure(fp, fig, "pause_us", 1, 0, false);
            figure(fp, fig, "marks", 1, 0, false);
            figure(fp, fig, "drops", 1, 0, false);
            figure(fp, fig, "throughput_bps", 1e-9, 3, true);
            figure(fp, fig, "fct_p99_ns", 1e-3, 1, false);
            fputs("</tr>\n", fp);
        }
        fputs("</table>\n", fp);
    }
    fputs("</div>\n", fp);
}

/* " (41.2 KB)" after a proposed value whose knob has a unit; nothing when it has none. */
static void proposed_unit(FILE *fp, const cJSON *f)
{
    char shown[96];
    if (value_unit_note(report_str(f, "knob"), report_str(f, "proposed"), shown,
                        sizeof(shown))[0]) {
        fputs(" (", fp);
        h(fp, shown);
        fputs(")", fp);
    }
}

/* One article per group: the first place's evidence and knob stand for the group; the other
 * places are listed under a <details> (no script needed to expand it). */
static void finding_article(FILE *fp, const cJSON *findings, const struct report_group *g)
{
    const cJSON *f = g->first;
    char places[1024];
    const char *sev = report_str(f, "severity");
    fprintf(fp, "<article class=\"finding %s\" id=\"f-%d\">\n<p>", sev_class(sev), g->first_index);
    sev_badge(fp, sev);
    fputs(" <b>", fp);
    h(fp, report_str(f, "rule"));
    fputs("</b> at ", fp);
    h(fp, report_group_places(findings, g, places, sizeof(places)));
    fprintf(fp, " · confidence %.2f · ", report_num(f, "confidence"));
    report_fill(fp, f, "{status} · from {source}</p>\n<p>{summary}</p>\n", h);
    const cJSON *e;
    if (cJSON_GetArraySize(report_get(f, "evidence"))) {
        char place[256];
        fputs("<p class=\"evidence-line\">Evidence", fp);
        if (g->count > 1) {
            fputs(" at ", fp);
            h(fp, report_place(f, place, sizeof(place)));
        }
        fputs(":", fp);
        int n = 0;
        cJSON_ArrayForEach(e, report_get(f, "evidence")) {
            char shown[96];
            fputs(n++ ? "; " : " ", fp);
            fputs("<code>", fp);
            h(fp, report_str(e, "name"));
            fputs("</code> = <b>", fp);
            h(fp,
              value_with_unit(report_str(e, "name"), report_str(e, "value"), shown, sizeof(shown)));
            fputs("</b>", fp);
        }
        fputs("</p>\n", fp);
    }
    if (report_str(f, "knob")[0]) {
        fputs("<p>Knob <code>", fp);
        h(fp, report_str(f, "knob"));
        fputs("</code> (", fp);
        h(fp, report_str(f, "direction"));
        fputs(")", fp);
        if (report_str(f, "proposed")[0]) {
            fputs(" → <code>", fp);
            h(fp, report_str(f, "proposed"));
            fputs("</code>", fp);
            proposed_unit(fp, f);
            if (g->proposed_varies)
                fputs(" here; each place's own value is in the table of all places", fp);
        }
        fputs("</p>\n", fp);
    }
    const cJSON *v = report_get(f, "verified");
    if (cJSON_IsObject(v))
        html_verified(fp, v);
    fputs("<p class=\"meta\">", fp);
    if (!cJSON_IsObject(v))
        fputs("Replay verification: not run", fp);
    if (report_str(f, "reference")[0]) {
        fputs(cJSON_IsObject(v) ? "See " : " · see ", fp);
        report_html_reference(fp, report_str(f, "reference"));
    }
    if (g->count > 1)
        fprintf(fp, " · %d places: <a href=\"#all-places\">all places</a>", g->count);
    fputs("</p>\n</article>\n", fp);
}

static void findings(FILE *fp, const cJSON *m)
{
    fputs("<section id=\"findings\">\n<h2>Findings: evidence and knobs</h2>\n", fp);
    const cJSON *all = report_get(m, "findings");
    size_t ngroups = 0;
    struct report_group *groups = report_group_findings(all, &ngroups);
    if (!ngroups)
        fputs("<p>No findings.</p>\n", fp);
    for (size_t k = 0; k < ngroups; k++)
        finding_article(fp, all, &groups[k]);
    free(groups);
    fputs("</section>\n", fp);
}

/* Every finding on its own row, in the one order: the places the groups stand for. */
static void all_places(FILE *fp, const cJSON *m)
{
    const cJSON *all = report_get(m, "findings"), *f;
    if (!cJSON_GetArraySize(all))
        return;
    fprintf(fp,
            "<section id=\"all-places\">\n<h2>All places</h2>\n<details><summary>%d "
            "findings, one per place</summary>\n<table class=\"findings\"><tr><th>severity"
            "</th><th>status</th><th>rule</th><th>where</th><th>proposed</th></tr>\n",
            cJSON_GetArraySize(all));
    cJSON_ArrayForEach(f, all) {
        char place[256];
        fputs("<tr><td>", fp);
        sev_badge(fp, report_str(f, "severity"));
        fputs("</td>", fp);
        status_cell(fp, report_str(f, "status"));
        td_text(fp, report_str(f, "rule"));
        td_text(fp, report_place(f, place, sizeof(place)));
        td_text(fp, report_str(f, "proposed"));
        fputs("</tr>\n", fp);
    }
    fputs("</table>\n</details>\n</section>\n", fp);
}

/* The paths a device does not serve: what the report could not look at, and why rules that
 * need what they give stayed undecided. */
static void missing_paths(FILE *fp, const cJSON *m)
{
    static const char *const cols[] = { "device", "path", "reason", "gives" };
    const cJSON *list = report_get(m, "missing_paths");
    if (!cJSON_GetArraySize(list))
        return;
    fputs("<section id=\"missing-paths\">\n<h2>Paths not served</h2>\n<table>\n<tr><th>Device"
          "</th><th>Path</th><th>The device said</th><th>So there is no</th></tr>\n",
          fp);
    text_rows(fp, list, cols, sizeof(cols) / sizeof(cols[0]));
    fputs("</table>\n</section>\n", fp);
}

static void raw(FILE *fp, const cJSON *m)
{
    const cJSON *r = report_get(m, "raw"), *x;
    fputs("<section id=\"raw\">\n<h2>Raw data</h2>\n<ul>\n", fp);
    cJSON_ArrayForEach(x, report_get(r, "files")) {
        const char *name = cJSON_IsString(x) ? x->valuestring : "";
        /* links only to the files report writes beside this one */
        if (!strcmp(name, "report.json") || !strcmp(name, "report.md"))
            fprintf(fp, "<li><a href=\"%s\">%s</a></li>\n", name, name);
        else {
            fputs("<li>", fp);
            h(fp, name);
            fputs("</li>\n", fp);
        }
    }
    fputs("<li>store: <code>", fp);
    h(fp, report_str(r, "store"));
    fputs("</code></li>\n", fp);
    cJSON_ArrayForEach(x, report_get(r, "commands")) {
        fputs("<li><code>", fp);
        h(fp, cJSON_IsString(x) ? x->valuestring : "");
        fputs("</code></li>\n", fp);
    }
    fputs("</ul>\n</section>\n", fp);
}

int report_write_html(const cJSON *m, FILE *fp)
{
    header(fp, m);
    changes(fp, m);
    findings(fp, m);
    top(fp, m);
    heatmap(fp, m);
    devices(fp, m);
    missing_paths(fp, m);
    all_places(fp, m);
    report_html_references(fp, m);
    raw(fp, m);
    fputs("</body>\n</html>\n", fp);
    return ferror(fp) ? -1 : 0;
}
