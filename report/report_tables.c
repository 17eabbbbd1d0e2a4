/* dcbkit report: the top-offender tables, described once for both renderers. */
#include <math.h>
#include <stdio.h>

#include "report.h"

static const struct report_column pause_cols[] = {
    { "device", "device", REPORT_TEXT },
    { "port", "ifname", REPORT_TEXT },
    { "pause time", "pause_ns", SVG_UNIT_NS },
    { "paused (rx)", "paused_ns", SVG_UNIT_NS },
    { "pausing (tx)", "pausing_ns", SVG_UNIT_NS },
    { "pause frames", "pause_frames", SVG_UNIT_NONE },
    { NULL, NULL, 0 },
};

static const struct report_column drop_cols[] = {
    { "device", "device", REPORT_TEXT },
    { "port", "ifname", REPORT_TEXT },
    { "drops", "drops", SVG_UNIT_NONE },
    { "ECN marks", "marks", SVG_UNIT_NONE },
    { NULL, NULL, 0 },
};

static const struct report_column qp_cols[] = {
    { "device", "device", REPORT_TEXT },
    { "QP", "qp", REPORT_TEXT },
    { "retransmissions", "retransmits", SVG_UNIT_NONE },
    { "PSN gaps", "psn_gaps", SVG_UNIT_NONE },
    { "NAKs", "naks", SVG_UNIT_NONE },
    { NULL, NULL, 0 },
};

const struct report_table report_top_tables[] = {
    { "Most pause time", "pause", "No port paused in the window.", pause_cols },
    { "Most drops and ECN marks", "marks_drops", "No drops or marks in the window.", drop_cols },
    { "QPs with most retransmissions", "retransmits",
      "No analysed capture in the window (dcbkit analyze --store puts one there).", qp_cols },
    { NULL, NULL, NULL, NULL },
};

char *report_cell(const cJSON *row, const struct report_column *c, char *buf, size_t len)
{
    if (c->unit == REPORT_TEXT) {
        snprintf(buf, len, "%s", report_str(row, c->key));
        return buf;
    }
    double v = report_num(row, c->key);
    if (!isfinite(v))
        snprintf(buf, len, "–");
    else
        svg_fmt_value(v, (enum svg_unit)c->unit, buf, len);
    return buf;
}
