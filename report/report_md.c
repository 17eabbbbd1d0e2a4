/* dcbkit report: report.md, for chat and tickets. Tables and lists only; every string from the
 * model goes through md_escape, so a hostile LLDP name stays text in any Markdown renderer
 * (including those that pass HTML through). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "value_units.h"
#include "svg_chart.h"
#include "utf8.h"

void md_escape(FILE *fp, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    bool start = true;
    while (*p) {
        unsigned char c = *p;
        if (c == '<') {
            fputs("&lt;", fp);
        } else if (c == '>') {
            fputs("&gt;", fp);
        } else if (c == '&') {
            fputs("&amp;", fp);
        } else if (strchr("\\`*_{}[]|~", c) || (start && strchr("#+-.!", c))) {
            fputc('\\', fp);
            fputc(c, fp);
        } else if (c < 0x20 || c == 0x7f) {
            fputs("\xef\xbf\xbd", fp);
        } else {
            size_t n = dcb_utf8_seq_len(p, NULL);
            if (n == 0) {
                fputs("\xef\xbf\xbd", fp);
                n = 1;
            } else {
                fwrite(p, 1, n, fp);
            }
            p += n;
            start = false;
            continue;
        }
        p++;
        start = false;
    }
}

/* before/after as "pause 812 us, marks 40, drops 0" */
static void figures(FILE *fp, const char *label, const cJSON *fig)
{
    fprintf(fp, "     - %s:", label);
    static const char *const keys[] = { "pause_us", "marks", "drops" };
    static const char *const names[] = { "pause (us)", "marks", "drops" };
    for (size_t i = 0; i < 3; i++) {
        double v = report_num(fig, keys[i]);
        if (isfinite(v))
            fprintf(fp, "%s %s %.0f", i ? "," : "", names[i], v);
    }
    double t = report_num(fig, "throughput_bps");
    if (isfinite(t))
        fprintf(fp, ", throughput %.3g Gb/s", t / 1e9);
    fputc('\n', fp);
}

static void md_verified(FILE *fp, const cJSON *v)
{
    if (!cJSON_IsObject(v)) {
        fputs("not run\n", fp);
        return;
    }
    if (report_str(v, "change")[0]) {
        md_escape(fp, report_str(v, "change"));
        fputs(": ", fp);
    }
    md_escape(fp, report_str(v, "note"));
    fputc('\n', fp);
    if (cJSON_IsTrue(report_get(v, "done"))) {
        figures(fp, "before", report_get(v, "before"));
        figures(fp, "after", report_get(v, "after"));
    }
}

static void md_value(FILE *fp, const cJSON *o, const char *key, enum svg_unit unit)
{
    double v = report_num(o, key);
    char buf[64];
    fputs(isfinite(v) ? svg_fmt_value(v, unit, buf, sizeof(buf)) : "–", fp);
}

/* A code span for knobs, values and metric names: the fence is one backtick longer than the
 * longest run inside, so nothing in s needs (or gets) a backslash, and '|' is escaped for
 * tables. A string with anything but printable ASCII or with '<', '>' or '&' (from a hostile
 * file) is written escaped as text instead: a renderer that passes HTML through must never see
 * a tag, and a code span cannot hold an entity. */
static void md_code(FILE *fp, const char *s)
{
    s = s ? s : "";
    size_t run = 0, longest = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p >= 0x7f || *p == '<' || *p == '>' || *p == '&') {
            md_escape(fp, s);
            return;
        }
        run = *p == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    bool pad = s[0] == '`' || (s[0] && s[strlen(s) - 1] == '`');
    for (size_t k = 0; k <= longest; k++)
        fputc('`', fp);
    if (pad)
        fputc(' ', fp);
    for (const char *p = s; *p; p++) {
        if (*p == '|')
            fputs("\\|", fp);
        else
            fputc(*p, fp);
    }
    if (pad)
        fputc(' ', fp);
    for (size_t k = 0; k <= longest; k++)
        fputc('`', fp);
}

static void md_place(FILE *fp, const cJSON *f)
{
    char place[256];
    md_escape(fp, report_place(f, place, sizeof(place)));
}

static void md_fill(FILE *fp, const cJSON *o, const char *tmpl)
{
    report_fill(fp, o, tmpl, md_escape);
}

/* " (41.2 KB)" after a proposed value whose knob has a unit. */
static void md_proposed_unit(FILE *fp, const cJSON *f)
{
    char shown[96];
    if (value_unit_note(report_str(f, "knob"), report_str(f, "proposed"), shown,
                        sizeof(shown))[0]) {
        fputs(" (", fp);
        md_escape(fp, shown);
        fputc(')', fp);
    }
}

static void md_knob(FILE *fp, const cJSON *f, bool proposed_varies)
{
    md_code(fp, report_str(f, "knob"));
    if (report_str(f, "proposed")[0]) {
        fputs(" → ", fp);
        md_code(fp, report_str(f, "proposed"));
        md_proposed_unit(fp, f);
        if (proposed_varies)
            fputs(" (here; each place's value under All places)", fp);
    }
}

/* One row per group of findings (rule, severity, knob), the worst first. */
static void findings_table(FILE *fp, const cJSON *findings)
{
    fputs("| severity | status | rule | where | summary | knob |\n"
          "|---|---|---|---|---|---|\n",
          fp);
    size_t ngroups = 0;
    struct report_group *groups = report_group_findings(findings, &ngroups);
    for (size_t k = 0; k < ngroups; k++) {
        const struct report_group *g = &groups[k];
        char places[1024];
        md_fill(fp, g->first, "| {severity} | ");
        if (g->count > 1 && g->n_new && g->n_new < g->count)
            fprintf(fp, "%d new", g->n_new);
        else
            md_escape(fp, report_str(g->first, "status"));
        md_fill(fp, g->first, " | {rule} | ");
        if (g->count > 1)
            fprintf(fp, "%d places: ", g->count);
        md_escape(fp, report_group_places(findings, g, places, sizeof(places)));
        md_fill(fp, g->first, " | {summary} | ");
        if (report_str(g->first, "knob")[0])
            md_knob(fp, g->first, g->proposed_varies);
        fputs(" |\n", fp);
    }
    free(groups);
}

static void all_places_table(FILE *fp, const cJSON *findings)
{
    fputs("\n## All places\n\n| severity | status | rule | where | proposed |\n"
          "|---|---|---|---|---|\n",
          fp);
    const cJSON *f;
    cJSON_ArrayForEach(f, findings) {
        md_fill(fp, f, "| {severity} | {status} | {rule} | ");
        md_place(fp, f);
        fputs(" | ", fp);
        if (report_str(f, "proposed")[0])
            md_code(fp, report_str(f, "proposed"));
        fputs(" |\n", fp);
    }
}

static void top_tables(FILE *fp, const cJSON *top)
{
    for (const struct report_table *t = report_top_tables; t->title; t++) {
        const cJSON *rows = report_get(top, t->key), *r;
        fprintf(fp, "\n### %s\n\n", t->title);
        if (!cJSON_GetArraySize(rows)) {
            fprintf(fp, "%s\n", t->empty);
            continue;
        }
        for (const struct report_column *c = t->columns; c->title; c++)
            fprintf(fp, "| %s ", c->title);
        fputs("|\n", fp);
        for (const struct report_column *c = t->columns; c->title; c++)
            fputs("|---", fp);
        fputs("|\n", fp);
        cJSON_ArrayForEach(r, rows) {
            for (const struct report_column *c = t->columns; c->title; c++) {
                char cell[256];
                fputs("| ", fp);
                md_escape(fp, report_cell(r, c, cell, sizeof(cell)));
                fputc(' ', fp);
            }
            fputs("|\n", fp);
        }
    }
}

/* The paths a device does not serve: what the report could not look at, and why rules that
 * need what they give stayed undecided. */
static void missing_paths(FILE *fp, const cJSON *list)
{
    if (!cJSON_GetArraySize(list))
        return;
    fputs("\n## Paths not served\n\n", fp);
    static const char *const parts[][2] = {
        /* text before, then the key's value */
        { "- path ", "path" },
        { " not served by ", "device" },
        { " (", "reason" },
        { "): no ", "gives" },
    };
    const cJSON *p;
    cJSON_ArrayForEach(p, list) {
        for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
            fputs(parts[i][0], fp);
            md_escape(fp, report_str(p, parts[i][1]));
        }
        fputs("\n", fp);
    }
}

int report_write_md(const cJSON *m, FILE *fp)
{
    const cJSON *v = report_get(m, "verdict"), *w = report_get(m, "window"),
                *c = report_get(m, "counts");
    const cJSON *cmp = report_get(m, "comparison");
    fputs("# Fabric health report: ", fp);
    md_escape(fp, report_str(report_get(m, "fabric"), "name"));
    md_fill(fp, v, "\n\n**Verdict: {level}**: {summary}");
    md_fill(fp, w, "\n\nWindow {start} to {end}");
    md_fill(fp, m, "; generated {generated}");
    fprintf(fp, ".\n\n| crit | warn | info |\n|---|---|---|\n| %.0f | %.0f | %.0f |\n",
            report_num(c, "crit"), report_num(c, "warn"), report_num(c, "info"));

    fputs("\n## Since the previous report\n\n", fp);
    if (!report_str(cmp, "baseline")[0])
        fputs("No previous report to compare with: every finding is new.\n", fp);
    else {
        fprintf(fp, "%.0f new, %.0f still open, %.0f resolved (compared with ",
                report_num(cmp, "new"), report_num(cmp, "still_open"), report_num(cmp, "resolved"));
        md_escape(fp, report_str(cmp, "baseline"));
        fputs(").\n", fp);
    }
    const cJSON *r;
    cJSON_ArrayForEach(r, report_get(cmp, "resolved_findings")) {
        md_fill(fp, r, "- resolved: {rule} at ");
        md_place(fp, r);
        md_fill(fp, r, ": {summary}\n");
    }

    fputs("\n## Findings\n\n", fp);
    if (!cJSON_GetArraySize(report_get(m, "findings")))
        fputs("None.\n", fp);
    else
        findings_table(fp, report_get(m, "findings"));

    fputs("\n## Top offenders\n", fp);
    top_tables(fp, report_get(m, "top"));

    fputs("\n## Devices\n\n| device | role | reach | status | ports | pause time | drops | marks |"
          "\n|---|---|---|---|---|---|---|---|\n",
          fp);
    const cJSON *d;
    cJSON_ArrayForEach(d, report_get(m, "devices")) {
        const cJSON *t = report_get(d, "totals");
        md_fill(fp, d, "| {name} | {role} | {reach} | {status}");
        fprintf(fp, " | %.0f | ", report_num(d, "ports"));
        md_value(fp, t, "pause_ns", SVG_UNIT_NS);
        fputs(" | ", fp);
        md_value(fp, t, "drops", SVG_UNIT_NONE);
        fputs(" | ", fp);
        md_value(fp, t, "marks", SVG_UNIT_NONE);
        fputs(" |\n", fp);
        const cJSON *n;
        cJSON_ArrayForEach(n, report_get(d, "neighbours")) {
            md_fill(fp, n, "|  ↳ {ifname} | neighbour | {peer} | port {port} | | | | |\n");
        }
    }

    missing_paths(fp, report_get(m, "missing_paths"));

    fputs("\n## Evidence and knobs\n\n", fp);
    const cJSON *all = report_get(m, "findings");
    size_t ngroups = 0;
    struct report_group *groups = report_group_findings(all, &ngroups);
    for (size_t k = 0; k < ngroups; k++) {
        const struct report_group *g = &groups[k];
        const cJSON *f = g->first;
        char places[1024];
        fprintf(fp, "%zu. ", k + 1);
        md_fill(fp, f, "**{rule}** ({severity}) ");
        if (g->count > 1)
            fprintf(fp, "%d places, ", g->count);
        md_escape(fp, report_group_places(all, g, places, sizeof(places)));
        md_fill(fp, f, ": {summary}\n   - evidence");
        if (g->count > 1) {
            fputs(" (", fp);
            md_place(fp, f);
            fputc(')', fp);
        }
        fputc(':', fp);
        const cJSON *e;
        int n = 0;
        cJSON_ArrayForEach(e, report_get(f, "evidence")) {
            fputs(n++ ? "; " : " ", fp);
            char shown[96];
            md_code(fp, report_str(e, "name"));
            fputs(" = ", fp);
            md_escape(fp, value_with_unit(report_str(e, "name"), report_str(e, "value"), shown,
                                          sizeof(shown)));
        }
        if (!n)
            fputs(" none recorded", fp);
        fputc('\n', fp);
        if (report_str(f, "knob")[0]) {
            fputs("   - knob: ", fp);
            md_code(fp, report_str(f, "knob"));
            fputs(" (", fp);
            md_escape(fp, report_str(f, "direction"));
            fputs(")", fp);
            if (report_str(f, "proposed")[0]) {
                fputs(" → ", fp);
                md_code(fp, report_str(f, "proposed"));
                md_proposed_unit(fp, f);
            }
            fputc('\n', fp);
        }
        if (report_str(f, "reference")[0]) {
            fputs("   - see: ", fp);
            report_md_reference(fp, report_str(f, "reference"));
            fputc('\n', fp);
        }
        fputs("   - replay verification: ", fp);
        md_verified(fp, report_get(f, "verified"));
    }
    free(groups);
    if (cJSON_GetArraySize(all))
        all_places_table(fp, all);
    report_md_references(fp, m);

    fputs("\n## Raw data\n\n", fp);
    const cJSON *raw = report_get(m, "raw"), *x;
    cJSON_ArrayForEach(x, report_get(raw, "files")) {
        fputs("- ", fp);
        md_escape(fp, cJSON_IsString(x) ? x->valuestring : "");
        fputc('\n', fp);
    }
    cJSON_ArrayForEach(x, report_get(raw, "commands")) {
        fputs("- ", fp);
        md_escape(fp, cJSON_IsString(x) ? x->valuestring : "");
        fputc('\n', fp);
    }
    return ferror(fp) ? -1 : 0;
}
