/* Shared by svg_chart.c and svg_heatmap.c: numbers, ticks, palette, the document frame. */
#ifndef DCB_SVG_IMPL_H
#define DCB_SVG_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "svg_chart.h"

#define SVG_FONT "font-family=\"DejaVu Sans,Helvetica,Arial,sans-serif\""
/* Width of one character at the 11 px label font, for layout without a font engine. */
#define SVG_CHAR_PX 6.6
#define SVG_MAX_TICKS 24

struct svg_ticks {
    double lo, hi, step; /* the range widened to whole steps */
    int n;
    double v[SVG_MAX_TICKS];
    int prefix; /* the unit prefix every tick label shares */
};

/* Nice 1-2-5 ticks covering [lo, hi], about target of them. */
void svg_nice_ticks(double lo, double hi, int target, enum svg_unit unit, struct svg_ticks *t);
/* v printed with the given prefix (index into the unit's prefix table). */
char *svg_fmt_with_prefix(double v, enum svg_unit unit, int prefix, char *buf, size_t len);

struct svg_time_ticks {
    int n;
    int64_t t[SVG_MAX_TICKS * 2];
    int64_t step;
};
void svg_time_ticks(int64_t t0, int64_t t1, int target, enum svg_time_labels mode,
                    struct svg_time_ticks *tt);
/* The tick label; *date receives "YYYY-MM-DD" (UTC mode, steps under a day) or "". */
void svg_time_label(int64_t t, int64_t t0, int64_t step, enum svg_time_labels mode, char *buf,
                    size_t len, char *date, size_t date_len);

/* A coordinate with at most one decimal, independent of the locale. */
void svg_num(FILE *fp, double v);
const char *svg_palette(size_t i);

void svg_doc_open(FILE *fp, double width, double height, const char *title);
void svg_doc_close(FILE *fp);
/* Runs write(obj, fp) on a memory stream; the string, or NULL. */
char *svg_to_string(int (*write)(const void *obj, FILE *fp), const void *obj, size_t *len);

#endif
