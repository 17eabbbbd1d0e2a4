/* dcbkit analyze: the report. Text starts with the verdict line, then one section per kind of
 * evidence; -T json is the same as one document (docs/analyze.md). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analyze.h"
#include "units.h"

/* 2: findings are the rule catalog's (docs/analyze.md) */
#define ANALYZE_SCHEMA 2

void analyze_print_bits(struct dcb_out *o, const char *key, uint64_t mask, unsigned bits)
{
    out_arr_open(o, key);
    for (unsigned i = 0; i < bits; i++)
        if (mask & (1ull << i))
            out_u64(o, NULL, NULL, i);
    out_arr_close(o);
}

static void print_verdict(struct dcb_out *o, const struct analysis *a)
{
    const struct finding_list *l = &a->judged->found;
    const char *level = analyze_verdict(a);
    char summary[FINDING_TEXT_MAX + 64];
    if (!strcmp(level, "ok"))
        snprintf(summary, sizeof(summary),
                 "%" PRIu64 " frames: no finding above info (%" PRIu64
                 " rule instances checked, %" PRIu64 " could not decide)",
                 a->frames, a->judged->stats.instances, a->judged->stats.undecided);
    else if (l->n > 1)
        snprintf(summary, sizeof(summary), "%s (+%zu more)", l->v[0].summary, l->n - 1);
    else
        snprintf(summary, sizeof(summary), "%s", l->v[0].summary);
    out_obj_open(o, "verdict");
    out_str(o, "level", "VERDICT %s: ", level);
    out_str(o, "summary", "%s\n", summary);
    out_obj_close(o);
}

static void print_capture(struct dcb_out *o, const struct analysis *a)
{
    char speed[DCB_UNIT_BUF], dur[DCB_UNIT_BUF], mask[32];
    out_obj_open(o, "capture");
    out_text(o, "\nCapture\n");
    out_str(o, "file", "  %s: ", a->opt.file);
    out_u64(o, "frames", "%" PRIu64 " frames", a->frames);
    out_u64(o, "malformed", ", %" PRIu64 " malformed", a->malformed);
    out_u64(o, "other_linktype", NULL, a->other_linktype);
    out_i64(o, "first_ns", NULL, a->frames ? a->first_ns : 0);
    out_i64(o, "last_ns", NULL, a->frames ? a->last_ns : 0);
    int64_t duration = a->frames ? a->last_ns - a->first_ns : 0;
    out_i64(o, "duration_ns", NULL, duration);
    out_str(o, NULL, " over %s\n", dcb_fmt_duration_ns((double)duration, dur, sizeof(dur)));
    out_u64(o, "link_speed_bps", NULL, a->opt.link_bps);
    out_bool(o, "link_speed_assumed", NULL, a->opt.link_speed_assumed);
    out_text(o, "  link speed %s%s", dcb_fmt_speed(a->opt.link_bps, speed, sizeof(speed)),
             a->opt.link_speed_assumed ? " (assumed; give --link-speed)" : "");
    out_arr_open(o, "lossless");
    for (int i = 0; a->lossless_mask > 0 && i < 8; i++)
        if (a->lossless_mask & (1 << i))
            out_u64(o, NULL, NULL, (uint64_t)i);
    out_arr_close(o);
    out_text(o, "; lossless priorities %s",
             a->lossless_mask < 0
                 ? "unknown"
                 : analyze_mask_str((unsigned)a->lossless_mask, 8, mask, sizeof(mask)));
    out_str(o, "lossless_source",
            a->lossless_mask < 0           ? NULL
            : a->lossless_source[0] == 'o' ? " (--lossless)"
                                           : " (from the DCBX seen)",
            a->lossless_source);
    out_i64(o, "storm_ms", "; storm above %" PRId64 " ms\n", a->opt.storm_ns / 1000000);
    out_obj_close(o);
}

void analyze_print(struct dcb_out *o, struct analysis *a)
{
    out_obj_open(o, NULL);
    out_u64(o, "schema", NULL, ANALYZE_SCHEMA);
    out_str(o, "file", NULL, a->opt.file);
    print_verdict(o, a);
    print_capture(o, a);
    analyze_print_findings(o, a);
    analyze_print_pauses(o, a);
    analyze_print_flows(o, a);
    analyze_print_dcbx(o, a);
    out_obj_open(o, "resources");
    out_i64(o, "peak_rss_kb", NULL, a->peak_rss_kb);
    out_dbl(o, "elapsed_s", NULL, a->elapsed_s);
    out_obj_close(o);
    out_obj_close(o);
}
