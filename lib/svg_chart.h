/* SVG charts for the report and `replay --plot`: no scripts, no external assets, no ids, so one
 * document is a valid standalone .svg file and can also be pasted inline into HTML as often as
 * needed. The same input gives the same bytes (no clocks, no locale, no hash order).
 *
 * A chart is N panels stacked over one time axis (ns). Each panel has a title, a y unit with
 * automatic nice ticks (bytes -> KB/MB/GB, bits/s -> Mb/s/Gb/s, ns -> µs/ms/s), and holds
 *   - line series: points are folded as they arrive into one column per pixel (first, min, max,
 *     last), so a series of a million points costs the same bytes as one of a thousand;
 *   - step series: the same columns, drawn as a value that holds until the next point;
 *   - lanes of intervals (e.g. PFC pause intervals per port and priority): in a panel of lanes
 *     only, one row per lane; in a panel with series, shaded spans behind them.
 * A NaN value breaks a line; points outside the time range are dropped. Every label is escaped
 * (lib/xml_escape.h) and long labels are cut with "…".
 *
 *     struct svg_chart *c = svg_chart_new("leaf1 Ethernet4", t0, t1);
 *     int p = svg_chart_panel(c, "PFC pause", SVG_UNIT_NS, "paused per s");
 *     struct svg_series *s = svg_chart_line(c, p, "rx prio 3");
 *     for (...) svg_series_point(s, t_ns, value);
 *     struct svg_lane *l = svg_chart_lane(c, svg_chart_panel(c, "pauses", SVG_UNIT_NONE, NULL),
 *                                         "Ethernet4 p3");
 *     svg_lane_interval(l, start_ns, end_ns);
 *     svg_chart_write(c, stdout);           (or svg_chart_to_string)
 *     svg_chart_free(c);
 *
 * The heatmap is a rows x columns grid of values with a colour scale, row and column labels
 * (the report's "pause time per port and hour"). It writes one <rect> per cell, so keep it to a
 * few thousand cells (the report shows its top ports). */
#ifndef DCB_SVG_CHART_H
#define DCB_SVG_CHART_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum svg_unit {
    SVG_UNIT_NONE,    /* plain numbers with k/M/G */
    SVG_UNIT_BYTES,   /* B, KB, MB, GB, TB (powers of 1000, as lib/units.h) */
    SVG_UNIT_BPS,     /* b/s, Kb/s, Mb/s, Gb/s, Tb/s */
    SVG_UNIT_NS,      /* ns, µs, ms, s */
    SVG_UNIT_PER_SEC, /* /s, k/s, M/s */
    SVG_UNIT_PERCENT, /* % */
};

/* How the time axis is labelled: offsets from the start ("+250 ms") or UTC wall clock. */
enum svg_time_labels { SVG_TIME_RELATIVE, SVG_TIME_UTC };

struct svg_chart;
struct svg_series;
struct svg_lane;

/* Time range [t0_ns, t1_ns]; NULL if t1_ns <= t0_ns or out of memory. Width 960 px. */
struct svg_chart *svg_chart_new(const char *title, int64_t t0_ns, int64_t t1_ns);
void svg_chart_free(struct svg_chart *c);
/* Before any series or lane is added: the total width in px (320..4096). 0 or -1 if refused. */
int svg_chart_set_width(struct svg_chart *c, int width_px);
void svg_chart_set_time_labels(struct svg_chart *c, enum svg_time_labels labels);

/* A new panel at the bottom; returns its index, or -1 (out of memory). unit_label (may be NULL)
 * is printed above the y axis, e.g. "paused µs per s"; without it the unit's own name is. */
int svg_chart_panel(struct svg_chart *c, const char *title, enum svg_unit unit,
                    const char *unit_label);
/* Panel height in px (40..1000) of the plot area; default 120 (lanes: 14 per lane). */
int svg_panel_set_height(struct svg_chart *c, int panel, int height_px);
/* A fixed y range instead of the automatic one (values outside are drawn at the edge). */
int svg_panel_set_range(struct svg_chart *c, int panel, double lo, double hi);

/* Series: NULL if the panel does not exist or out of memory. The chart owns them. */
struct svg_series *svg_chart_line(struct svg_chart *c, int panel, const char *label);
struct svg_series *svg_chart_step(struct svg_chart *c, int panel, const char *label);
/* Colour as #rrggbb (anything else is refused: -1); default from an 8-colour palette. */
int svg_series_set_color(struct svg_series *s, const char *rgb);
void svg_series_point(struct svg_series *s, int64_t t_ns, double value);
void svg_series_points(struct svg_series *s, const int64_t *t_ns, const double *values, size_t n);
/* Points the series was given in range (for tests and "n points" captions). */
uint64_t svg_series_count(const struct svg_series *s);

struct svg_lane *svg_chart_lane(struct svg_chart *c, int panel, const char *label);
/* [start, end]; clipped to the chart's range; end < start is ignored. */
void svg_lane_interval(struct svg_lane *l, int64_t start_ns, int64_t end_ns);

/* 0, or -1 if fp reported a write error. */
int svg_chart_write(const struct svg_chart *c, FILE *fp);
/* The document as a NUL-terminated string the caller frees; NULL if out of memory. */
char *svg_chart_to_string(const struct svg_chart *c, size_t *len);

/* Heatmap ---------------------------------------------------------------------------------- */
struct svg_heatmap;

/* NULL if rows or cols is 0 or above 100000, rows x cols above 4 million, or out of memory. Every
 * cell starts as NaN (no data, drawn grey). */
struct svg_heatmap *svg_heatmap_new(const char *title, size_t rows, size_t cols,
                                    enum svg_unit unit);
void svg_heatmap_free(struct svg_heatmap *h);
void svg_heatmap_row_label(struct svg_heatmap *h, size_t row, const char *label);
void svg_heatmap_col_label(struct svg_heatmap *h, size_t col, const char *label);
void svg_heatmap_set(struct svg_heatmap *h, size_t row, size_t col, double value);
int svg_heatmap_write(const struct svg_heatmap *h, FILE *fp);
char *svg_heatmap_to_string(const struct svg_heatmap *h, size_t *len);

/* A value with its unit scaled for people, as the axes print it: "1.5 MB", "400 Gb/s",
 * "83.9 µs", "12 k/s"; "n/a" for NaN. Returns buf. */
char *svg_fmt_value(double v, enum svg_unit unit, char *buf, size_t len);

#endif
