/* libFuzzer: untrusted labels (LLDP names, gNMI keys, interface descriptions) and values through
 * the SVG chart and heatmap. The input is split at NUL bytes into titles and labels; its bytes
 * also make points, intervals and cells. The document must be valid UTF-8 with no control
 * byte but \n, one <svg> element, and no element the labels tried to inject. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "svg_chart.h"
#include "utf8.h"

static void check(const char *doc)
{
    if (!doc)
        return; /* out of memory is allowed */
    const unsigned char *p = (const unsigned char *)doc;
    while (*p) {
        size_t n = dcb_utf8_seq_len(p, NULL);
        if (n == 0 || (*p < 0x20 && *p != '\n'))
            abort();
        p += n;
    }
    const char *first = strstr(doc, "<svg ");
    if (!first || strstr(first + 1, "<svg") || strstr(doc, "<script") || strstr(doc, "<x"))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    const char *labels[8] = { "", "", "", "", "", "", "", "" };
    size_t n_labels = 0;
    for (size_t i = 0; i <= size && n_labels < 8; i++) {
        if (i == 0 || text[i - 1] == '\0')
            labels[n_labels++] = text + i;
    }
    for (size_t i = n_labels; i < 8; i++)
        labels[i] = labels[i % n_labels]; /* n_labels >= 1: text itself is the first */

    int64_t span = 1 + (int64_t)(size * 7919);
    struct svg_chart *c = svg_chart_new(labels[0], -span / 3, span);
    if (c) {
        svg_chart_set_time_labels(c, size & 1 ? SVG_TIME_UTC : SVG_TIME_RELATIVE);
        int p0 = svg_chart_panel(c, labels[1], (enum svg_unit)(size % 6), labels[2]);
        int p1 = svg_chart_panel(c, labels[3], SVG_UNIT_BYTES, NULL);
        struct svg_series *s = svg_chart_line(c, p0, labels[4]);
        struct svg_series *st = svg_chart_step(c, p1, labels[5]);
        struct svg_lane *l = svg_chart_lane(c, p1, labels[6]);
        struct svg_lane *l2 = svg_chart_lane(c, svg_chart_panel(c, "lanes", SVG_UNIT_NONE, NULL),
                                             labels[7]);
        for (size_t i = 0; i + 1 < size; i += 2) {
            int64_t t = (int64_t)data[i] * span / 200 - span / 4;
            double v = data[i + 1] == 255 ? NAN
                       : data[i + 1] == 254
                           ? -1e300
                           : (double)data[i + 1] * (double)(1ULL << (data[i] % 60));
            if (s)
                svg_series_point(s, t, v);
            if (st)
                svg_series_point(st, t, -v);
            if (l)
                svg_lane_interval(l, t, t + data[i + 1] * span / 100);
            if (l2)
                svg_lane_interval(l2, t + span / 10, t);
        }
        char *doc = svg_chart_to_string(c, NULL);
        check(doc);
        free(doc);
        svg_chart_free(c);
    }

    size_t rows = 1 + size % 5, cols = 1 + size % 7;
    struct svg_heatmap *h = svg_heatmap_new(labels[0], rows, cols, (enum svg_unit)(size % 6));
    if (h) {
        for (size_t r = 0; r < rows; r++)
            svg_heatmap_row_label(h, r, labels[(r + 1) % 8]);
        for (size_t k = 0; k < cols; k++)
            svg_heatmap_col_label(h, k, labels[(k + 2) % 8]);
        for (size_t i = 0; i < size; i++)
            svg_heatmap_set(h, i % rows, (i / rows) % cols,
                            data[i] == 255   ? NAN
                            : data[i] == 254 ? INFINITY
                                             : (double)data[i] - 3);
        char *doc = svg_heatmap_to_string(h, NULL);
        check(doc);
        free(doc);
        svg_heatmap_free(h);
    }
    free(text);
    return 0;
}
