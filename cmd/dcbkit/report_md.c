/* dcbkit report: report.md, for chat and tickets. Tables and lists only; every string from the
 * model goes through md_escape, so a hostile LLDP name stays text in any Markdown renderer
 * (including those that pass HTML through). */
#include <math.h>
#include <string.h>

#include "report.h"
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

static const cJSON *get(const cJSON *o, const char *key)
{
    return o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

static void md_value(FILE *fp, const cJSON *o, const char *key, enum svg_unit unit)
{
    double v = report_num(o, key);
    char buf[64];
    fputs(isfinite(v) ? svg_fmt_value(v, unit, buf, sizeof(buf)) : "–", fp);
}

static void md_place(FILE *fp, const cJSON *f)
{
    char place[256];
    md_escape(fp, report_place(f, place, sizeof(place)));
}

static void findings_table(FILE *fp, const cJSON *findings)
{
    fputs("| severity | status | rule | where | summary | knob |\n"
          "|---|---|---|---|---|---|\n", fp);
    const cJSON *f;
    cJSON_ArrayForEach(f, findings) {
        fputs("| ", fp);
        md_escape(fp, report_str(f, "severity"));
        fputs(" | ", fp);
        md_escape(fp, report_str(f, "status"));
        fputs(" | ", fp);
        md_escape(fp, report_str(f, "rule"));
        fputs(" | ", fp);
        md_place(fp, f);
        fputs(" | ", fp);
        md_escape(fp, report_str(f, "summary"));
        fputs(" | ", fp);
        if (report_str(f, "knob")[0]) {
            fputc('`', fp);
            md_escape(fp, report_str(f, "knob"));
            fputc('`', fp);
            if (report_str(f, "proposed")[0]) {
                fputs(" → ", fp);
                md_escape(fp, report_str(f, "proposed"));
            }
        }
        fputs(" |\n", fp);
    }
}

static void top_tables(FILE *fp, const cJSON *top)
{
    const cJSON *r;
    fputs("\n### Most pause time\n\n", fp);
    if (!cJSON_GetArraySize(get(top, "pause")))
        fputs("No port paused in the window.\n", fp);
    else
        fputs("| device | port | pause time | paused | pausing | pause frames |\n"
              "|---|---|---|---|---|---|\n", fp);
    cJSON_ArrayForEach(r, get(top, "pause")) {
        fputs("| ", fp);
        md_escape(fp, report_str(r, "device"));
        fputs(" | ", fp);
        md_escape(fp, report_str(r, "ifname"));
        fputs(" | ", fp);
        md_value(fp, r, "pause_ns", SVG_UNIT_NS);
        fputs(" | ", fp);
        md_value(fp, r, "paused_ns", SVG_UNIT_NS);
        fputs(" | ", fp);
        md_value(fp, r, "pausing_ns", SVG_UNIT_NS);
        fputs(" | ", fp);
        md_value(fp, r, "pause_frames", SVG_UNIT_NONE);
        fputs(" |\n", fp);
    }
    fputs("\n### Most drops and ECN marks\n\n", fp);
    if (!cJSON_GetArraySize(get(top, "marks_drops")))
        fputs("No drops or marks in the window.\n", fp);
    else
        fputs("| device | port | drops | marks |\n|---|---|---|---|\n", fp);
    cJSON_ArrayForEach(r, get(top, "marks_drops")) {
        fputs("| ", fp);
        md_escape(fp, report_str(r, "device"));
        fputs(" | ", fp);
        md_escape(fp, report_str(r, "ifname"));
        fputs(" | ", fp);
        md_value(fp, r, "drops", SVG_UNIT_NONE);
        fputs(" | ", fp);
        md_value(fp, r, "marks", SVG_UNIT_NONE);
        fputs(" |\n", fp);
    }
    fputs("\n### QPs with most retransmissions\n\n", fp);
    if (!cJSON_GetArraySize(get(top, "retransmits")))
        fputs("No analysed capture in the window.\n", fp);
    else
        fputs("| device | QP | retransmissions | PSN gaps | NAKs |\n|---|---|---|---|---|\n", fp);
    cJSON_ArrayForEach(r, get(top, "retransmits")) {
        fputs("| ", fp);
        md_escape(fp, report_str(r, "device"));
        fputs(" | ", fp);
        md_escape(fp, report_str(r, "qp"));
        fprintf(fp, " | %.0f | %.0f | %.0f |\n", report_num(r, "retransmits"),
                report_num(r, "psn_gaps"), report_num(r, "naks"));
    }
}

int report_write_md(const cJSON *m, FILE *fp)
{
    const cJSON *v = get(m, "verdict"), *w = get(m, "window"), *c = get(m, "counts");
    const cJSON *cmp = get(m, "comparison");
    fputs("# Fabric health report: ", fp);
    md_escape(fp, report_str(get(m, "fabric"), "name"));
    fputs("\n\n**Verdict: ", fp);
    md_escape(fp, report_str(v, "level"));
    fputs("**: ", fp);
    md_escape(fp, report_str(v, "summary"));
    fputs("\n\nWindow ", fp);
    md_escape(fp, report_str(w, "start"));
    fputs(" to ", fp);
    md_escape(fp, report_str(w, "end"));
    fputs("; generated ", fp);
    md_escape(fp, report_str(m, "generated"));
    fprintf(fp, ".\n\n| crit | warn | info |\n|---|---|---|\n| %.0f | %.0f | %.0f |\n",
            report_num(c, "crit"), report_num(c, "warn"), report_num(c, "info"));

    fputs("\n## Since the previous report\n\n", fp);
    if (!report_str(cmp, "baseline")[0])
        fputs("No previous report to compare with: every finding is new.\n", fp);
    else {
        fprintf(fp, "%.0f new, %.0f still open, %.0f resolved (compared with ",
                report_num(cmp, "new"), report_num(cmp, "still_open"),
                report_num(cmp, "resolved"));
        md_escape(fp, report_str(cmp, "baseline"));
        fputs(").\n", fp);
    }
    const cJSON *r;
    cJSON_ArrayForEach(r, get(cmp, "resolved_findings")) {
        fputs("- resolved: ", fp);
        md_escape(fp, report_str(r, "rule"));
        fputs(" at ", fp);
        md_place(fp, r);
        fputs(": ", fp);
        md_escape(fp, report_str(r, "summary"));
        fputc('\n', fp);
    }

    fputs("\n## Findings\n\n", fp);
    if (!cJSON_GetArraySize(get(m, "findings")))
        fputs("None.\n", fp);
    else
        findings_table(fp, get(m, "findings"));

    fputs("\n## Top offenders\n", fp);
    top_tables(fp, get(m, "top"));

    fputs("\n## Devices\n\n| device | role | reach | status | ports | pause time | drops | marks |"
          "\n|---|---|---|---|---|---|---|---|\n", fp);
    const cJSON *d;
    cJSON_ArrayForEach(d, get(m, "devices")) {
        const cJSON *t = get(d, "totals");
        fputs("| ", fp);
        md_escape(fp, report_str(d, "name"));
        fputs(" | ", fp);
        md_escape(fp, report_str(d, "role"));
        fputs(" | ", fp);
        md_escape(fp, report_str(d, "reach"));
        fputs(" | ", fp);
        md_escape(fp, report_str(d, "status"));
        fprintf(fp, " | %.0f | ", report_num(d, "ports"));
        md_value(fp, t, "pause_ns", SVG_UNIT_NS);
        fputs(" | ", fp);
        md_value(fp, t, "drops", SVG_UNIT_NONE);
        fputs(" | ", fp);
        md_value(fp, t, "marks", SVG_UNIT_NONE);
        fputs(" |\n", fp);
        const cJSON *n;
        cJSON_ArrayForEach(n, get(d, "neighbours")) {
            fputs("|  ↳ ", fp);
            md_escape(fp, report_str(n, "ifname"));
            fputs(" | neighbour | ", fp);
            md_escape(fp, report_str(n, "peer"));
            fputs(" | port ", fp);
            md_escape(fp, report_str(n, "port"));
            fputs(" | | | | |\n", fp);
        }
    }

    fputs("\n## Evidence and knobs\n\n", fp);
    int i = 0;
    const cJSON *f;
    cJSON_ArrayForEach(f, get(m, "findings")) {
        fprintf(fp, "%d. **", ++i);
        md_escape(fp, report_str(f, "rule"));
        fputs("** (", fp);
        md_escape(fp, report_str(f, "severity"));
        fputs(") ", fp);
        md_place(fp, f);
        fputs(": ", fp);
        md_escape(fp, report_str(f, "summary"));
        fputs("\n   - evidence:", fp);
        const cJSON *e;
        int k = 0;
        cJSON_ArrayForEach(e, get(f, "evidence")) {
            fputs(k++ ? "; " : " ", fp);
            md_escape(fp, report_str(e, "name"));
            fputs(" = ", fp);
            md_escape(fp, report_str(e, "value"));
        }
        if (!k)
            fputs(" none recorded", fp);
        fputc('\n', fp);
        if (report_str(f, "knob")[0]) {
            fputs("   - knob: `", fp);
            md_escape(fp, report_str(f, "knob"));
            fputs("` (", fp);
            md_escape(fp, report_str(f, "direction"));
            fputs(")", fp);
            if (report_str(f, "proposed")[0]) {
                fputs(" → ", fp);
                md_escape(fp, report_str(f, "proposed"));
            }
            fputc('\n', fp);
        }
        fputs("   - replay verification: ", fp);
        fputs(cJSON_IsObject(get(f, "verified")) ? "see report.json\n" : "not run\n", fp);
    }

    fputs("\n## Raw data\n\n", fp);
    const cJSON *raw = get(m, "raw"), *x;
    cJSON_ArrayForEach(x, get(raw, "files")) {
        fputs("- ", fp);
        md_escape(fp, cJSON_IsString(x) ? x->valuestring : "");
        fputc('\n', fp);
    }
    cJSON_ArrayForEach(x, get(raw, "commands")) {
        fputs("- `", fp);
        /* in a code span only the backtick needs care */
        for (const char *p = cJSON_IsString(x) ? x->valuestring : ""; *p; p++)
            fputc(*p == '`' ? '\'' : (unsigned char)*p < 0x20 ? ' ' : *p, fp);
        fputs("`\n", fp);
    }
    return ferror(fp) ? -1 : 0;
}
