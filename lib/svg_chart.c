/* Stacked time-series panels as SVG. Points are folded into one column per pixel as they
 * arrive (first, min, max, last, in the order they came), which bounds both memory and output
 * whatever the number of points; lanes keep one covered/not-covered flag per column. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "svg_impl.h"
#include "xml_escape.h"

#define DEFAULT_WIDTH 960
#define MARGIN_LEFT 72
#define MARGIN_RIGHT 16
#define TITLE_H 30
#define HEADER_ROW_H 16
#define PANEL_GAP 12
#define LANE_H 14
#define AXIS_H 34
#define LABEL_MAX_CHARS 48
#define LANE_LABEL_MAX_CHARS 28

enum series_kind { SERIES_LINE, SERIES_STEP };

struct column {
    double first, last, min, max;
    uint32_t n;
    uint32_t i_min, i_max; /* arrival index of min and max within the column */
    bool brk;              /* a NaN came before this column's first point */
};

struct svg_series {
    struct svg_chart *chart;
    int panel;
    enum series_kind kind;
    char *label;
    char color[8];
    struct column *cols;
    uint64_t count;
    bool pending_break;
};

struct svg_lane {
    struct svg_chart *chart;
    int panel;
    char *label;
    char color[8];
    unsigned char *covered;
    uint64_t intervals;
    double total_ns;
};

struct panel {
    char *title;
    char *unit_label;
    enum svg_unit unit;
    int height; /* 0: automatic */
    bool fixed_range;
    double lo, hi;
};

struct svg_chart {
    char *title;
    int64_t t0, t1;
    int width;
    int cols; /* columns per series, fixed when the first one is made */
    enum svg_time_labels time_labels;
    struct panel *panels;
    size_t n_panels;
    struct svg_series **series;
    size_t n_series;
    struct svg_lane **lanes;
    size_t n_lanes;
};

static char *dup_str(const char *s)
{
    return strdup(s ? s : "");
}

struct svg_chart *svg_chart_new(const char *title, int64_t t0_ns, int64_t t1_ns)
{
    if (t1_ns <= t0_ns)
        return NULL;
    struct svg_chart *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->title = dup_str(title);
    if (!c->title) {
        free(c);
        return NULL;
    }
    c->t0 = t0_ns;
    c->t1 = t1_ns;
    c->width = DEFAULT_WIDTH;
    c->time_labels = SVG_TIME_RELATIVE;
    return c;
}

void svg_chart_free(struct svg_chart *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n_series; i++) {
        free(c->series[i]->label);
        free(c->series[i]->cols);
        free(c->series[i]);
    }
    for (size_t i = 0; i < c->n_lanes; i++) {
        free(c->lanes[i]->label);
        free(c->lanes[i]->covered);
        free(c->lanes[i]);
    }
    for (size_t i = 0; i < c->n_panels; i++) {
        free(c->panels[i].title);
        free(c->panels[i].unit_label);
    }
    free(c->series);
    free(c->lanes);
    free(c->panels);
    free(c->title);
    free(c);
}

int svg_chart_set_width(struct svg_chart *c, int width_px)
{
    if (c->cols || width_px < 320 || width_px > 4096)
        return -1;
    c->width = width_px;
    return 0;
}

void svg_chart_set_time_labels(struct svg_chart *c, enum svg_time_labels labels)
{
    c->time_labels = labels;
}

int svg_chart_panel(struct svg_chart *c, const char *title, enum svg_unit unit,
                    const char *unit_label)
{
    struct panel *p = realloc(c->panels, (c->n_panels + 1) * sizeof(*p));
    if (!p)
        return -1;
    c->panels = p;
    struct panel *np = &p[c->n_panels];
    memset(np, 0, sizeof(*np));
    np->title = dup_str(title);
    np->unit_label = unit_label ? strdup(unit_label) : NULL;
    if (!np->title || (unit_label && !np->unit_label)) {
        free(np->title);
        free(np->unit_label);
        return -1;
    }
    np->unit = unit;
    return (int)c->n_panels++;
}

static struct panel *panel_at(const struct svg_chart *c, int panel)
{
    return panel >= 0 && (size_t)panel < c->n_panels ? &c->panels[panel] : NULL;
}

int svg_panel_set_height(struct svg_chart *c, int panel, int height_px)
{
    struct panel *p = panel_at(c, panel);
    if (!p || height_px < 40 || height_px > 1000)
        return -1;
    p->height = height_px;
    return 0;
}

int svg_panel_set_range(struct svg_chart *c, int panel, double lo, double hi)
{
    struct panel *p = panel_at(c, panel);
    if (!p || !isfinite(lo) || !isfinite(hi) || hi <= lo)
        return -1;
    p->fixed_range = true;
    p->lo = lo;
    p->hi = hi;
    return 0;
}

static int fix_columns(struct svg_chart *c)
{
    if (!c->cols)
        c->cols = c->width - MARGIN_LEFT - MARGIN_RIGHT;
    return c->cols;
}

static size_t panel_item_count(const struct svg_chart *c, int panel)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n_series; i++)
        n += c->series[i]->panel == panel;
    for (size_t i = 0; i < c->n_lanes; i++)
        n += c->lanes[i]->panel == panel;
    return n;
}

static struct svg_series *add_series(struct svg_chart *c, int panel, const char *label,
                                     enum series_kind kind)
{
    if (!panel_at(c, panel))
        return NULL;
    struct svg_series **arr = realloc(c->series, (c->n_series + 1) * sizeof(*arr));
    if (!arr)
        return NULL;
    c->series = arr;
    struct svg_series *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    s->cols = calloc((size_t)fix_columns(c), sizeof(*s->cols));
    s->label = dup_str(label);
    if (!s->cols || !s->label) {
        free(s->cols);
        free(s->label);
        free(s);
        return NULL;
    }
    s->chart = c;
    s->panel = panel;
    s->kind = kind;
    snprintf(s->color, sizeof(s->color), "%s", svg_palette(panel_item_count(c, panel)));
    c->series[c->n_series++] = s;
    return s;
}

struct svg_series *svg_chart_line(struct svg_chart *c, int panel, const char *label)
{
    return add_series(c, panel, label, SERIES_LINE);
}

struct svg_series *svg_chart_step(struct svg_chart *c, int panel, const char *label)
{
    return add_series(c, panel, label, SERIES_STEP);
}

static bool valid_rgb(const char *rgb)
{
    if (!rgb || rgb[0] != '#' || strlen(rgb) != 7)
        return false;
    for (int i = 1; i < 7; i++) {
        char ch = rgb[i];
        if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F')))
            return false;
    }
    return true;
}

int svg_series_set_color(struct svg_series *s, const char *rgb)
{
    if (!valid_rgb(rgb))
        return -1;
    snprintf(s->color, sizeof(s->color), "%s", rgb);
    return 0;
}

/* Column of t, or -1 outside the range. */
static int column_of(const struct svg_chart *c, int64_t t)
{
    if (t < c->t0 || t > c->t1)
        return -1;
    double f = ((double)t - (double)c->t0) / ((double)c->t1 - (double)c->t0);
    int col = (int)(f * c->cols);
    return col >= c->cols ? c->cols - 1 : col < 0 ? 0 : col;
}

void svg_series_point(struct svg_series *s, int64_t t_ns, double value)
{
    int ci = column_of(s->chart, t_ns);
    if (ci < 0)
        return;
    if (!isfinite(value)) {
        s->pending_break = true;
        return;
    }
    struct column *col = &s->cols[ci];
    s->count++;
    if (col->n == 0) {
        col->first = col->last = col->min = col->max = value;
        col->i_min = col->i_max = 0;
        col->brk = s->pending_break;
    } else {
        if (value < col->min) {
            col->min = value;
            col->i_min = col->n;
        }
        if (value > col->max) {
            col->max = value;
            col->i_max = col->n;
        }
        col->last = value;
    }
    if (col->n < UINT32_MAX)
        col->n++;
    s->pending_break = false;
}

void svg_series_points(struct svg_series *s, const int64_t *t_ns, const double *values, size_t n)
{
    for (size_t i = 0; i < n; i++)
        svg_series_point(s, t_ns[i], values[i]);
}

uint64_t svg_series_count(const struct svg_series *s)
{
    return s->count;
}

struct svg_lane *svg_chart_lane(struct svg_chart *c, int panel, const char *label)
{
    if (!panel_at(c, panel))
        return NULL;
    struct svg_lane **arr = realloc(c->lanes, (c->n_lanes + 1) * sizeof(*arr));
    if (!arr)
        return NULL;
    c->lanes = arr;
    struct svg_lane *l = calloc(1, sizeof(*l));
    if (!l)
        return NULL;
    l->covered = calloc((size_t)fix_columns(c), 1);
    l->label = dup_str(label);
    if (!l->covered || !l->label) {
        free(l->covered);
        free(l->label);
        free(l);
        return NULL;
    }
    l->chart = c;
    l->panel = panel;
    snprintf(l->color, sizeof(l->color), "%s", svg_palette(panel_item_count(c, panel)));
    c->lanes[c->n_lanes++] = l;
    return l;
}

void svg_lane_interval(struct svg_lane *l, int64_t start_ns, int64_t end_ns)
{
    const struct svg_chart *c = l->chart;
    if (end_ns < start_ns || end_ns < c->t0 || start_ns > c->t1)
        return;
    if (start_ns < c->t0)
        start_ns = c->t0;
    if (end_ns > c->t1)
        end_ns = c->t1;
    int a = column_of(c, start_ns), b = column_of(c, end_ns);
    memset(l->covered + a, 1, (size_t)(b - a + 1));
    l->intervals++;
    l->total_ns += (double)end_ns - (double)start_ns;
}

/* ---- layout ----------------------------------------------------------------------------- */

struct panel_layout {
    double top; /* of the header */
    double plot_top, plot_h;
    int header_rows;
    bool lanes_only;
    size_t n_lanes;
    struct svg_ticks ticks;
    bool has_data;
};

struct layout {
    double margin_left, plot_w, col_w, height;
    struct panel_layout *p;
};

static double text_px(const char *s, size_t max_chars)
{
    size_t n = xml_text_chars(s);
    if (max_chars && n > max_chars)
        n = max_chars;
    return (double)n * SVG_CHAR_PX;
}

/* Panel titles are bold and larger: 12 px bold runs about 7.6 px a character. */
static double title_px(const char *s)
{
    return text_px(s, LABEL_MAX_CHARS) * 7.6 / SVG_CHAR_PX;
}

/* Legend items of a panel, laid out after its title; rows needed. */
static int legend_rows(const struct svg_chart *c, int panel, double x0, double x_end, FILE *fp,
                       double top);

static void panel_range(const struct svg_chart *c, int panel, struct panel_layout *pl)
{
    const struct panel *p = &c->panels[panel];
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < c->n_series; i++) {
        const struct svg_series *s = c->series[i];
        if (s->panel != panel)
            continue;
        for (int k = 0; k < c->cols; k++) {
            if (!s->cols[k].n)
                continue;
            lo = fmin(lo, s->cols[k].min);
            hi = fmax(hi, s->cols[k].max);
            pl->has_data = true;
        }
    }
    for (size_t i = 0; i < c->n_lanes; i++)
        if (c->lanes[i]->panel == panel && c->lanes[i]->intervals)
            pl->has_data = true;
    if (p->fixed_range) {
        lo = p->lo;
        hi = p->hi;
    } else if (!isfinite(lo)) {
        lo = 0;
        hi = 1;
    } else {
        lo = fmin(lo, 0); /* an honest baseline: counters and rates start at zero */
        hi = fmax(hi, 0);
    }
    int target = pl->plot_h >= 100 ? 5 : 3;
    svg_nice_ticks(lo, hi, target, p->unit, &pl->ticks);
    if (p->fixed_range) {
        pl->ticks.lo = lo;
        pl->ticks.hi = hi;
    }
}

static int compute_layout(const struct svg_chart *c, struct layout *L)
{
    L->p = calloc(c->n_panels ? c->n_panels : 1, sizeof(*L->p));
    if (!L->p)
        return -1;
    double label_w = 0;
    for (size_t i = 0; i < c->n_lanes; i++)
        label_w = fmax(label_w, text_px(c->lanes[i]->label, LANE_LABEL_MAX_CHARS) + 10);
    L->margin_left = fmax(MARGIN_LEFT, label_w);
    L->plot_w = c->width - L->margin_left - MARGIN_RIGHT;
    if (L->plot_w < 100) {
        L->plot_w = 100;
    }
    L->col_w = c->cols ? L->plot_w / c->cols : 1;
    double y = TITLE_H;
    for (size_t i = 0; i < c->n_panels; i++) {
        struct panel_layout *pl = &L->p[i];
        size_t n_series = 0;
        for (size_t k = 0; k < c->n_series; k++)
            n_series += c->series[k]->panel == (int)i;
        for (size_t k = 0; k < c->n_lanes; k++)
            pl->n_lanes += c->lanes[k]->panel == (int)i;
        pl->lanes_only = pl->n_lanes > 0 && n_series == 0;
        pl->top = y;
        double title_end = L->margin_left + title_px(c->panels[i].title) + 14;
        pl->header_rows = pl->lanes_only
                              ? 1
                              : legend_rows(c, (int)i, title_end, c->width - MARGIN_RIGHT, NULL, 0);
        pl->plot_top = y + pl->header_rows * HEADER_ROW_H + 4;
        if (c->panels[i].height)
            pl->plot_h = c->panels[i].height;
        else if (pl->lanes_only)
            pl->plot_h = (double)pl->n_lanes * LANE_H;
        else
            pl->plot_h = 120;
        panel_range(c, (int)i, pl);
        y = pl->plot_top + pl->plot_h + PANEL_GAP;
    }
    L->height = y + AXIS_H;
    return 0;
}

/* ---- drawing ---------------------------------------------------------------------------- */

static void attr_num(FILE *fp, const char *name, double v)
{
    fprintf(fp, " %s=\"", name);
    svg_num(fp, v);
    fputc('"', fp);
}

static void text_at(FILE *fp, double x, double y, const char *anchor, const char *extra,
                    const char *s, size_t max_chars)
{
    fputs("<text", fp);
    attr_num(fp, "x", x);
    attr_num(fp, "y", y);
    if (anchor)
        fprintf(fp, " text-anchor=\"%s\"", anchor);
    if (extra)
        fprintf(fp, " %s", extra);
    fputc('>', fp);
    xml_escape(fp, s, max_chars);
    fputs("</text>\n", fp);
}

static int legend_rows(const struct svg_chart *c, int panel, double x0, double x_end, FILE *fp,
                       double top)
{
    double x = x0;
    int row = 0;
    bool any = false;
    for (size_t pass = 0; pass < 2; pass++) {
        size_t n = pass == 0 ? c->n_series : c->n_lanes;
        for (size_t i = 0; i < n; i++) {
            const char *label, *color;
            if (pass == 0) {
                if (c->series[i]->panel != panel)
                    continue;
                label = c->series[i]->label;
                color = c->series[i]->color;
            } else {
                if (c->lanes[i]->panel != panel)
                    continue;
                label = c->lanes[i]->label;
                color = c->lanes[i]->color;
            }
            double w = 14 + text_px(label, LABEL_MAX_CHARS) + 12;
            if (any && x + w > x_end) {
                row++;
                x = MARGIN_LEFT;
            }
            any = true;
            if (fp) {
                double ty = top + row * HEADER_ROW_H + 12;
                fputs("<rect", fp);
                attr_num(fp, "x", x);
                attr_num(fp, "y", ty - 9);
                fprintf(fp, " width=\"10\" height=\"%s\" fill=\"%s\"%s/>\n", pass == 0 ? "3" : "10",
                        color, pass == 0 ? "" : " fill-opacity=\"0.35\"");
                text_at(fp, x + 14, ty, NULL, "fill=\"#333333\"", label, LABEL_MAX_CHARS);
            }
            x += w;
        }
    }
    return row + 1;
}

static double y_of(const struct panel_layout *pl, double v)
{
    double span = pl->ticks.hi - pl->ticks.lo;
    double f = span > 0 ? (v - pl->ticks.lo) / span : 0;
    if (f < 0)
        f = 0;
    if (f > 1)
        f = 1;
    return pl->plot_top + pl->plot_h - f * pl->plot_h;
}

static void y_axis(FILE *fp, const struct svg_chart *c, const struct layout *L,
                   const struct panel_layout *pl, const struct panel *p)
{
    double x0 = L->margin_left, x1 = L->margin_left + L->plot_w;
    for (int i = 0; i < pl->ticks.n; i++) {
        double y = y_of(pl, pl->ticks.v[i]);
        fputs("<path d=\"M", fp);
        svg_num(fp, x0);
        fputc(' ', fp);
        svg_num(fp, y);
        fputc('H', fp);
        svg_num(fp, x1);
        fputs("\" stroke=\"#e6e6e6\"/>\n", fp);
        char buf[64];
        svg_fmt_with_prefix(pl->ticks.v[i], p->unit, pl->ticks.prefix, buf, sizeof(buf));
        text_at(fp, x0 - 4, y + 3.5, "end", "fill=\"#555555\" font-size=\"10\"", buf, 0);
    }
    (void)c;
}

static void put_point(FILE *fp, char cmd, double x, double y)
{
    fputc(cmd, fp);
    svg_num(fp, x);
    fputc(' ', fp);
    svg_num(fp, y);
}

static void put_v(FILE *fp, double y)
{
    fputc('V', fp);
    svg_num(fp, y);
}

/* The column's values in arrival order: first, then min and max as they came, then last. */
static int column_values(const struct column *col, double out[4])
{
    int n = 0;
    out[n++] = col->first;
    if (col->n > 1) {
        bool min_first = col->i_min <= col->i_max;
        out[n++] = min_first ? col->min : col->max;
        out[n++] = min_first ? col->max : col->min;
        out[n++] = col->last;
    }
    return n;
}

static void series_path(FILE *fp, const struct svg_series *s, const struct layout *L,
                        const struct panel_layout *pl)
{
    const struct svg_chart *c = s->chart;
    fprintf(fp,
            "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.3\" stroke-linejoin=\"round\" "
            "stroke-linecap=\"round\" d=\"",
            s->color);
    bool started = false;
    double last_y = 0;
    for (int k = 0; k < c->cols; k++) {
        const struct column *col = &s->cols[k];
        if (!col->n)
            continue;
        double x = L->margin_left + (k + 0.5) * L->col_w;
        double v[4];
        int n = column_values(col, v);
        double y = y_of(pl, v[0]);
        if (!started || col->brk) {
            put_point(fp, 'M', x, y);
        } else if (s->kind == SERIES_STEP) {
            fputc('H', fp);
            svg_num(fp, x);
            put_v(fp, y);
        } else {
            put_point(fp, 'L', x, y);
        }
        bool moved = !started || col->brk, drawn = !moved;
        last_y = y;
        for (int i = 1; i < n; i++) {
            double yi = y_of(pl, v[i]);
            if (yi != last_y) {
                put_v(fp, yi);
                drawn = true;
            }
            last_y = yi;
        }
        /* a point with no neighbour would be an empty subpath: a zero-length one with round
         * caps draws it as a dot */
        bool next = k + 1 < c->cols && s->cols[k + 1].n && !s->cols[k + 1].brk;
        if (!drawn && !next)
            fputs("h0", fp);
        started = true;
    }
    fputs("\"><title>", fp);
    xml_escape(fp, s->label, 0);
    fprintf(fp, " (%llu points)</title></path>\n", (unsigned long long)s->count);
}

static void lane_rects(FILE *fp, const struct svg_lane *l, const struct layout *L, double top,
                       double h, bool shade)
{
    const struct svg_chart *c = l->chart;
    char total[64];
    svg_fmt_value(l->total_ns, SVG_UNIT_NS, total, sizeof(total));
    fprintf(fp, "<g fill=\"%s\"%s><title>", l->color, shade ? " fill-opacity=\"0.18\"" : "");
    xml_escape(fp, l->label, 0);
    fprintf(fp, ": %llu intervals, %s</title>\n", (unsigned long long)l->intervals, total);
    for (int k = 0; k < c->cols;) {
        if (!l->covered[k]) {
            k++;
            continue;
        }
        int a = k;
        while (k < c->cols && l->covered[k])
            k++;
        fputs("<rect", fp);
        attr_num(fp, "x", L->margin_left + a * L->col_w);
        attr_num(fp, "y", top);
        attr_num(fp, "width", (k - a) * L->col_w);
        attr_num(fp, "height", h);
        fputs("/>\n", fp);
    }
    fputs("</g>\n", fp);
}

static void draw_panel(FILE *fp, const struct svg_chart *c, const struct layout *L, int i)
{
    const struct panel *p = &c->panels[i];
    const struct panel_layout *pl = &L->p[i];
    double x0 = L->margin_left;
    fputs("<g class=\"panel\">\n", fp);
    text_at(fp, x0, pl->top + 12, NULL, "font-weight=\"bold\" font-size=\"12\"", p->title,
            LABEL_MAX_CHARS);
    if (!pl->lanes_only) {
        double title_end = x0 + title_px(p->title) + 14;
        legend_rows(c, i, title_end, c->width - MARGIN_RIGHT, fp, pl->top);
        /* tick labels carry the unit; the caller's label (e.g. "paused per s") sits above */
        if (p->unit_label)
            text_at(fp, x0 - 4, pl->plot_top - 4, "end", "fill=\"#777777\" font-size=\"9\"",
                    p->unit_label, 14);
    }
    fputs("<rect", fp);
    attr_num(fp, "x", x0);
    attr_num(fp, "y", pl->plot_top);
    attr_num(fp, "width", L->plot_w);
    attr_num(fp, "height", pl->plot_h);
    fputs(" fill=\"#fcfcfc\" stroke=\"#bbbbbb\"/>\n", fp);

    if (pl->lanes_only) {
        size_t row = 0;
        for (size_t k = 0; k < c->n_lanes; k++) {
            const struct svg_lane *l = c->lanes[k];
            if (l->panel != i)
                continue;
            double top = pl->plot_top + (double)row * (pl->plot_h / (double)pl->n_lanes);
            double h = pl->plot_h / (double)pl->n_lanes;
            text_at(fp, x0 - 4, top + h / 2 + 3.5, "end", "font-size=\"10\"", l->label,
                    LANE_LABEL_MAX_CHARS);
            lane_rects(fp, l, L, top + 2, h - 4, false);
            row++;
        }
    } else {
        y_axis(fp, c, L, pl, p);
        for (size_t k = 0; k < c->n_lanes; k++)
            if (c->lanes[k]->panel == i)
                lane_rects(fp, c->lanes[k], L, pl->plot_top, pl->plot_h, true);
        for (size_t k = 0; k < c->n_series; k++)
            if (c->series[k]->panel == i && c->series[k]->count)
                series_path(fp, c->series[k], L, pl);
    }
    if (!pl->has_data)
        text_at(fp, x0 + L->plot_w / 2, pl->plot_top + pl->plot_h / 2 + 4, "middle",
                "fill=\"#999999\"", "no data", 0);
    fputs("</g>\n", fp);
}

static void time_axis(FILE *fp, const struct svg_chart *c, const struct layout *L)
{
    if (!c->n_panels)
        return;
    struct svg_time_ticks tt;
    svg_time_ticks(c->t0, c->t1, (int)(L->plot_w / 90), c->time_labels, &tt);
    double top = L->p[0].plot_top;
    const struct panel_layout *last = &L->p[c->n_panels - 1];
    double bottom = last->plot_top + last->plot_h;
    char prev_date[16] = "";
    for (int i = 0; i < tt.n; i++) {
        double f = ((double)tt.t[i] - (double)c->t0) / ((double)c->t1 - (double)c->t0);
        double x = L->margin_left + f * L->plot_w;
        for (size_t k = 0; k < c->n_panels; k++) {
            fputs("<path d=\"M", fp);
            svg_num(fp, x);
            fputc(' ', fp);
            svg_num(fp, L->p[k].plot_top);
            fputc('V', fp);
            svg_num(fp, L->p[k].plot_top + L->p[k].plot_h);
            fputs("\" stroke=\"#e6e6e6\"/>\n", fp);
        }
        char label[64], date[16];
        svg_time_label(tt.t[i], c->t0, tt.step, c->time_labels, label, sizeof(label), date,
                       sizeof(date));
        text_at(fp, x, bottom + 12, "middle", "fill=\"#555555\" font-size=\"10\"", label, 0);
        if (date[0] && strcmp(date, prev_date) != 0) {
            bool at_right = x > L->margin_left + L->plot_w - 30;
            text_at(fp, x + (at_right ? 14 : 0), bottom + 24, at_right ? "end" : "middle",
                    "fill=\"#777777\" font-size=\"9\"", date, 0);
            memcpy(prev_date, date, sizeof(prev_date));
        }
    }
    text_at(fp, L->margin_left - 6, bottom + 12, "end", "fill=\"#777777\" font-size=\"9\"",
            c->time_labels == SVG_TIME_UTC ? "time (UTC)" : "time", 0);
    (void)top;
}

static int chart_write(const void *obj, FILE *fp)
{
    const struct svg_chart *c = obj;
    struct layout L;
    if (compute_layout(c, &L) != 0)
        return -1;
    double height = c->n_panels ? L.height : TITLE_H + 40;
    svg_doc_open(fp, c->width, height, c->title);
    text_at(fp, 8, 19, NULL, "font-weight=\"bold\" font-size=\"14\"", c->title, 120);
    if (!c->n_panels)
        text_at(fp, c->width / 2.0, TITLE_H + 20, "middle", "fill=\"#999999\"", "no data", 0);
    for (size_t i = 0; i < c->n_panels; i++)
        draw_panel(fp, c, &L, (int)i);
    time_axis(fp, c, &L);
    svg_doc_close(fp);
    free(L.p);
    return ferror(fp) ? -1 : 0;
}

int svg_chart_write(const struct svg_chart *c, FILE *fp)
{
    return chart_write(c, fp);
}

char *svg_chart_to_string(const struct svg_chart *c, size_t *len)
{
    return svg_to_string(chart_write, c, len);
}
