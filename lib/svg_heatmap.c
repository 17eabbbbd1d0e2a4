/* A rows x columns grid of values as SVG: one cell per value, coloured on a sequential scale
 * from 0 to the largest value, with row labels on the left, column labels below and the scale
 * at the bottom. NaN is "no data" (grey), 0 is near white, so a quiet port stays quiet. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "svg_impl.h"
#include "xml_escape.h"

#define CELL_H 14
#define MARGIN_TOP 30
#define MARGIN_RIGHT 16
#define ROW_LABEL_MAX_CHARS 32
#define COL_LABEL_MAX_CHARS 12
#define MAX_SIDE 100000
#define MAX_CELLS 4000000
#define PLOT_W 860
#define NO_DATA_COLOR "#cccccc"
#define ZERO_COLOR "#f7f7f7"

struct svg_heatmap {
    char *title;
    enum svg_unit unit;
    size_t rows, cols;
    char **row_labels, **col_labels;
    double *v;
};

struct svg_heatmap *svg_heatmap_new(const char *title, size_t rows, size_t cols, enum svg_unit unit)
{
    if (rows == 0 || cols == 0 || rows > MAX_SIDE || cols > MAX_SIDE || rows * cols > MAX_CELLS)
        return NULL;
    struct svg_heatmap *h = calloc(1, sizeof(*h));
    if (!h)
        return NULL;
    h->title = strdup(title ? title : "");
    h->row_labels = calloc(rows, sizeof(char *));
    h->col_labels = calloc(cols, sizeof(char *));
    h->v = malloc(rows * cols * sizeof(double));
    if (!h->title || !h->row_labels || !h->col_labels || !h->v) {
        free(h->title);
        free(h->row_labels);
        free(h->col_labels);
        free(h->v);
        free(h);
        return NULL;
    }
    h->rows = rows;
    h->cols = cols;
    h->unit = unit;
    for (size_t i = 0; i < rows * cols; i++)
        h->v[i] = NAN;
    return h;
}

void svg_heatmap_free(struct svg_heatmap *h)
{
    if (!h)
        return;
    for (size_t i = 0; i < h->rows; i++)
        free(h->row_labels[i]);
    for (size_t i = 0; i < h->cols; i++)
        free(h->col_labels[i]);
    free(h->row_labels);
    free(h->col_labels);
    free(h->v);
    free(h->title);
    free(h);
}

static void set_label(char **slot, const char *label)
{
    char *copy = strdup(label ? label : "");
    if (!copy)
        return; /* out of memory: the label stays as it was */
    free(*slot);
    *slot = copy;
}

void svg_heatmap_row_label(struct svg_heatmap *h, size_t row, const char *label)
{
    if (row < h->rows)
        set_label(&h->row_labels[row], label);
}

void svg_heatmap_col_label(struct svg_heatmap *h, size_t col, const char *label)
{
    if (col < h->cols)
        set_label(&h->col_labels[col], label);
}

void svg_heatmap_set(struct svg_heatmap *h, size_t row, size_t col, double value)
{
    if (row < h->rows && col < h->cols)
        h->v[row * h->cols + col] = value;
}

/* ColorBrewer YlOrRd, five stops; f in [0, 1]. */
static void scale_color(double f, char out[8])
{
    static const unsigned char stops[5][3] = {
        { 255, 255, 204 }, { 254, 217, 118 }, { 253, 141, 60 }, { 227, 26, 28 }, { 128, 0, 38 },
    };
    if (!(f >= 0))
        f = 0;
    if (f > 1)
        f = 1;
    double pos = f * 4;
    int i = (int)pos;
    if (i > 3)
        i = 3;
    double t = pos - i;
    int rgb[3];
    for (int k = 0; k < 3; k++)
        rgb[k] = (int)lround(stops[i][k] + (stops[i + 1][k] - stops[i][k]) * t);
    snprintf(out, 8, "#%02x%02x%02x", rgb[0] & 0xff, rgb[1] & 0xff, rgb[2] & 0xff);
}

static void cell_color(double v, double max, char out[8])
{
    if (!isfinite(v))
        snprintf(out, 8, NO_DATA_COLOR);
    else if (v <= 0 || max <= 0)
        snprintf(out, 8, ZERO_COLOR);
    else
        scale_color(v / max, out);
}

static void text_el(FILE *fp, double x, double y, const char *attrs, const char *s, size_t max)
{
    fputs("<text x=\"", fp);
    svg_num(fp, x);
    fputs("\" y=\"", fp);
    svg_num(fp, y);
    fprintf(fp, "\" %s>", attrs);
    xml_escape(fp, s, max);
    fputs("</text>\n", fp);
}

static void rect_el(FILE *fp, double x, double y, double w, double hgt, const char *fill)
{
    fputs("<rect x=\"", fp);
    svg_num(fp, x);
    fputs("\" y=\"", fp);
    svg_num(fp, y);
    fputs("\" width=\"", fp);
    svg_num(fp, w);
    fputs("\" height=\"", fp);
    svg_num(fp, hgt);
    fprintf(fp, "\" fill=\"%s\"", fill);
}

static int heatmap_write(const void *obj, FILE *fp)
{
    const struct svg_heatmap *h = obj;
    double max = 0;
    for (size_t i = 0; i < h->rows * h->cols; i++)
        if (isfinite(h->v[i]) && h->v[i] > max)
            max = h->v[i];
    size_t label_chars = 0;
    for (size_t r = 0; r < h->rows; r++) {
        size_t n = xml_text_chars(h->row_labels[r]);
        label_chars = n > label_chars ? n : label_chars;
    }
    if (label_chars > ROW_LABEL_MAX_CHARS)
        label_chars = ROW_LABEL_MAX_CHARS;
    double ml = fmax(40, (double)label_chars * SVG_CHAR_PX + 12);
    double cw = fmin(40, fmax(4, (double)PLOT_W / (double)h->cols));
    double grid_w = cw * (double)h->cols;
    double grid_h = (double)CELL_H * (double)h->rows;
    double width = fmax(ml + grid_w + MARGIN_RIGHT, 420);
    double y_cols = MARGIN_TOP + grid_h + 12;
    double y_scale = y_cols + 18;
    double height = y_scale + 34;

    svg_doc_open(fp, width, height, h->title);
    text_el(fp, 8, 19, "font-weight=\"bold\" font-size=\"14\"", h->title, 120);
    for (size_t r = 0; r < h->rows; r++) {
        double y = MARGIN_TOP + (double)r * CELL_H;
        text_el(fp, ml - 6, y + CELL_H - 3.5, "text-anchor=\"end\" font-size=\"10\"",
                h->row_labels[r], ROW_LABEL_MAX_CHARS);
        for (size_t c = 0; c < h->cols; c++) {
            double v = h->v[r * h->cols + c];
            char color[8], value[64];
            cell_color(v, max, color);
            rect_el(fp, ml + (double)c * cw, y, cw - (cw > 6 ? 1 : 0), CELL_H - 1, color);
            fputs("><title>", fp);
            xml_escape(fp, h->row_labels[r], 0);
            fputs(", ", fp);
            xml_escape(fp, h->col_labels[c], 0);
            fputs(": ", fp);
            xml_escape(fp,
                       isfinite(v) ? svg_fmt_value(v, h->unit, value, sizeof(value)) : "no data",
                       0);
            fputs("</title></rect>\n", fp);
        }
    }
    /* column labels: as many as fit without overlapping */
    size_t every = (size_t)ceil(((double)COL_LABEL_MAX_CHARS * 0.5 * SVG_CHAR_PX + 6) / cw);
    if (every < 1)
        every = 1;
    for (size_t c = 0; c < h->cols; c += every)
        text_el(fp, ml + ((double)c + 0.5) * cw, y_cols,
                "text-anchor=\"middle\" font-size=\"10\" fill=\"#555555\"", h->col_labels[c],
                COL_LABEL_MAX_CHARS);

    /* the scale: eight steps from 0 to the largest value, and "no data" */
    double sx = ml, sw = 24;
    for (int i = 0; i < 8; i++) {
        char color[8];
        if (i == 0)
            snprintf(color, sizeof(color), ZERO_COLOR);
        else
            scale_color((double)i / 7, color);
        rect_el(fp, sx + i * sw, y_scale, sw, 10, color);
        fputs(" stroke=\"#bbbbbb\" stroke-width=\"0.5\"/>\n", fp);
    }
    char lo[64], hi[64];
    svg_fmt_value(0, h->unit, lo, sizeof(lo));
    svg_fmt_value(max, h->unit, hi, sizeof(hi));
    text_el(fp, sx, y_scale + 22, "font-size=\"10\" fill=\"#555555\"", lo, 0);
    text_el(fp, sx + 8 * sw, y_scale + 22, "text-anchor=\"end\" font-size=\"10\" fill=\"#555555\"",
            hi, 0);
    rect_el(fp, sx + 8 * sw + 16, y_scale, sw, 10, NO_DATA_COLOR);
    fputs("/>\n", fp);
    text_el(fp, sx + 9 * sw + 20, y_scale + 9, "font-size=\"10\" fill=\"#555555\"", "no data", 0);
    svg_doc_close(fp);
    return ferror(fp) ? -1 : 0;
}

int svg_heatmap_write(const struct svg_heatmap *h, FILE *fp)
{
    return heatmap_write(h, fp);
}

char *svg_heatmap_to_string(const struct svg_heatmap *h, size_t *len)
{
    return svg_to_string(heatmap_write, h, len);
}
