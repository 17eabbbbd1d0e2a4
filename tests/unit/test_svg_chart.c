#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "svg_chart.h"
#include "svg_impl.h"
#include "utf8.h"
#include "xml_escape.h"

#define SEC 1000000000LL

static char *escaped(const char *s, size_t max_chars)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    assert_non_null(fp);
    xml_escape(fp, s, max_chars);
    fclose(fp);
    return buf;
}

static size_t count_of(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* Every byte sequence valid UTF-8, no control byte but \n, and no '<' that does not start an
 * element we write. */
static void assert_clean_document(const char *doc)
{
    const unsigned char *p = (const unsigned char *)doc;
    while (*p) {
        if (*p < 0x20 && *p != '\n')
            fail_msg("control byte 0x%02x at offset %zu", *p,
                     (size_t)(p - (const unsigned char *)doc));
        size_t n = dcb_utf8_seq_len(p, NULL);
        if (n == 0)
            fail_msg("invalid UTF-8 at offset %zu", (size_t)(p - (const unsigned char *)doc));
        p += n;
    }
    assert_null(strstr(doc, "<script"));
    assert_null(strstr(doc, "<img"));
    assert_null(strstr(doc, "href"));
    assert_int_equal(count_of(doc, "<svg "), 1);
    assert_int_equal(count_of(doc, "</svg>"), 1);
}

static void escape_entities_and_controls(void **state)
{
    (void)state;
    char *s = escaped("<script>alert(1)</script> & \"q\" 'a'", 0);
    assert_string_equal(s, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot; &#39;a&#39;");
    free(s);
    s = escaped("a\x01"
                "b\x7f"
                "c\n",
                0);
    assert_string_equal(s, "a\\x01b\\x7fc\\x0a");
    free(s);
    /* invalid UTF-8, a C1 control, a non-character -> U+FFFD; valid multibyte passes */
    s = escaped("\xff"
                "x\xc2\x85"
                "y\xef\xbf\xbe"
                "z\xc2\xb5s\xe2\x82",
                0);
    assert_string_equal(s, "\xef\xbf\xbd"
                           "x\xef\xbf\xbd"
                           "y\xef\xbf\xbd"
                           "z\xc2\xb5s\xef\xbf\xbd\xef\xbf\xbd");
    free(s);
    s = escaped(NULL, 0);
    assert_string_equal(s, "");
    free(s);
}

static void escape_truncates_on_characters(void **state)
{
    (void)state;
    char *s = escaped("abcdef", 4);
    assert_string_equal(s, "abc\xe2\x80\xa6");
    free(s);
    s = escaped("abcd", 4);
    assert_string_equal(s, "abcd");
    free(s);
    /* never cut inside an entity or a multibyte character */
    s = escaped("a&\xc2\xb5\xc2\xb5\xc2\xb5", 4);
    assert_string_equal(s, "a&amp;\xc2\xb5\xe2\x80\xa6");
    free(s);
    assert_int_equal(xml_text_chars("a\x01\xc2\xb5<"), 1 + 4 + 1 + 1);
}

static void values_with_units(void **state)
{
    (void)state;
    char b[64];
    assert_string_equal(svg_fmt_value(1.5e6, SVG_UNIT_BYTES, b, sizeof(b)), "1.5 MB");
    assert_string_equal(svg_fmt_value(400e9, SVG_UNIT_BPS, b, sizeof(b)), "400 Gb/s");
    assert_string_equal(svg_fmt_value(25e9, SVG_UNIT_BPS, b, sizeof(b)), "25 Gb/s");
    assert_string_equal(svg_fmt_value(83885, SVG_UNIT_NS, b, sizeof(b)), "83.9 \xc2\xb5s");
    assert_string_equal(svg_fmt_value(12000, SVG_UNIT_PER_SEC, b, sizeof(b)), "12 k/s");
    assert_string_equal(svg_fmt_value(21570e9, SVG_UNIT_NS, b, sizeof(b)), "5.99 h");
    assert_string_equal(svg_fmt_value(900e9, SVG_UNIT_NS, b, sizeof(b)), "15 min");
    assert_string_equal(svg_fmt_value(0, SVG_UNIT_BYTES, b, sizeof(b)), "0");
    assert_string_equal(svg_fmt_value(512, SVG_UNIT_BYTES, b, sizeof(b)), "512 B");
    assert_string_equal(svg_fmt_value(NAN, SVG_UNIT_BYTES, b, sizeof(b)), "n/a");
    assert_string_equal(svg_fmt_value(42.5, SVG_UNIT_PERCENT, b, sizeof(b)), "42.5%");
}

static void nice_ticks(void **state)
{
    (void)state;
    struct svg_ticks t;
    svg_nice_ticks(0, 1.37e6, 5, SVG_UNIT_BYTES, &t);
    assert_true(t.lo == 0);
    assert_true(t.hi >= 1.37e6);
    assert_true(t.n >= 4 && t.n <= 9);
    char b[64];
    /* 0, 200 KB ... or 0, 0.5 MB ...: one prefix for the whole axis */
    svg_fmt_with_prefix(t.v[t.n - 1], SVG_UNIT_BYTES, t.prefix, b, sizeof(b));
    assert_non_null(strstr(b, "MB"));
    for (int i = 1; i < t.n; i++)
        assert_true(fabs(t.v[i] - t.v[i - 1] - t.step) < t.step * 1e-9);

    svg_nice_ticks(0, 97e9, 5, SVG_UNIT_BPS, &t);
    svg_fmt_with_prefix(t.v[1], SVG_UNIT_BPS, t.prefix, b, sizeof(b));
    assert_string_equal(b, "20 Gb/s");

    /* flat and empty data still give a usable axis */
    svg_nice_ticks(5, 5, 5, SVG_UNIT_NONE, &t);
    assert_true(t.hi > t.lo);
    svg_nice_ticks(NAN, NAN, 5, SVG_UNIT_NONE, &t);
    assert_true(t.hi > t.lo && t.n >= 2);
}

static void time_ticks_and_labels(void **state)
{
    (void)state;
    struct svg_time_ticks tt;
    int64_t t0 = 1795392000LL * SEC + 17 * 60 * SEC; /* 2026-11-23 00:17 UTC... */
    svg_time_ticks(t0, t0 + 24 * 3600 * SEC, 9, SVG_TIME_UTC, &tt);
    assert_int_equal(tt.step, 3 * 3600 * SEC);
    assert_true(tt.n >= 7 && tt.n <= 9);
    char label[64], date[16];
    svg_time_label(tt.t[0], t0, tt.step, SVG_TIME_UTC, label, sizeof(label), date, sizeof(date));
    assert_string_equal(label, "03:00"); /* on whole steps of the wall clock */
    assert_int_equal(strlen(date), 10);

    svg_time_ticks(0, 600 * 1000000LL, 8, SVG_TIME_RELATIVE, &tt);
    assert_int_equal(tt.step, 100 * 1000000LL);
    svg_time_label(tt.t[3], 0, tt.step, SVG_TIME_RELATIVE, label, sizeof(label), date,
                   sizeof(date));
    assert_string_equal(label, "300 ms");
    assert_string_equal(date, "");
    svg_time_ticks(5, 5, 8, SVG_TIME_RELATIVE, &tt);
    assert_int_equal(tt.n, 0);
}

static struct svg_chart *sample_chart(const char *hostile)
{
    struct svg_chart *c = svg_chart_new(hostile, 0, 10 * SEC);
    assert_non_null(c);
    int p0 = svg_chart_panel(c, "queue depth", SVG_UNIT_BYTES, NULL);
    int p1 = svg_chart_panel(c, hostile, SVG_UNIT_BPS, hostile);
    int p2 = svg_chart_panel(c, "pauses", SVG_UNIT_NONE, NULL);
    struct svg_series *a = svg_chart_line(c, p0, "Ethernet4 q3");
    struct svg_series *b = svg_chart_step(c, p1, hostile);
    for (int i = 0; i <= 1000; i++) {
        int64_t t = (int64_t)i * 10 * 1000000LL;
        svg_series_point(a, t, 1e5 * (1 + sin(i / 30.0)));
        svg_series_point(b, t, (i / 100) * 10e9);
    }
    struct svg_lane *l = svg_chart_lane(c, p2, hostile);
    svg_lane_interval(l, 1 * SEC, 2 * SEC);
    svg_lane_interval(l, 5 * SEC, 5 * SEC + 1000);
    struct svg_lane *m = svg_chart_lane(c, p0, "pause rx p3");
    svg_lane_interval(m, 3 * SEC, 4 * SEC);
    return c;
}

static const char *const hostile_strings[] = {
    "<script>alert(1)</script>",
    "\"><svg onload=alert(1)>",
    "]]><!-- &amp; &#x3c; '",
    "\x01\x02\x1b[31mred\x7f",
    "\xff\xfe\xc0\xaf\xed\xa0\x80 bad utf-8",
    "</text></g></svg><script>x</script>",
};

static void hostile_labels_stay_text(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(hostile_strings) / sizeof(hostile_strings[0]); i++) {
        struct svg_chart *c = sample_chart(hostile_strings[i]);
        char *doc = svg_chart_to_string(c, NULL);
        assert_non_null(doc);
        assert_clean_document(doc);
        assert_null(strstr(doc, "<svg onload"));
        assert_int_equal(count_of(doc, "<g class=\"panel\">"), 3);
        free(doc);
        svg_chart_free(c);

        struct svg_heatmap *h = svg_heatmap_new(hostile_strings[i], 2, 3, SVG_UNIT_NS);
        svg_heatmap_row_label(h, 0, hostile_strings[i]);
        svg_heatmap_col_label(h, 2, hostile_strings[i]);
        svg_heatmap_set(h, 0, 2, 1e6);
        doc = svg_heatmap_to_string(h, NULL);
        assert_non_null(doc);
        assert_clean_document(doc);
        free(doc);
        svg_heatmap_free(h);
    }
    /* a colour is checked, never pasted */
    struct svg_chart *c = svg_chart_new("x", 0, SEC);
    struct svg_series *s = svg_chart_line(c, svg_chart_panel(c, "p", SVG_UNIT_NONE, NULL), "s");
    assert_int_equal(svg_series_set_color(s, "red\"/><script>"), -1);
    assert_int_equal(svg_series_set_color(s, "#12345"), -1);
    assert_int_equal(svg_series_set_color(s, "#12abEF"), 0);
    svg_chart_free(c);
}

static void same_input_same_bytes(void **state)
{
    (void)state;
    struct svg_chart *a = sample_chart("leaf1");
    struct svg_chart *b = sample_chart("leaf1");
    size_t la, lb;
    char *da = svg_chart_to_string(a, &la);
    char *db = svg_chart_to_string(b, &lb);
    char *da2 = svg_chart_to_string(a, NULL);
    assert_int_equal(la, lb);
    assert_memory_equal(da, db, la);
    assert_string_equal(da, da2);
    /* FILE* and string give the same document */
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    assert_int_equal(svg_chart_write(a, fp), 0);
    fclose(fp);
    assert_string_equal(buf, da);
    free(buf);
    free(da);
    free(db);
    free(da2);
    svg_chart_free(a);
    svg_chart_free(b);
}

/* A million noisy points cost no more than four vertices per pixel column. */
static void decimation_bounds_size(void **state)
{
    (void)state;
    struct svg_chart *c = svg_chart_new("1M points", 0, 1000 * SEC);
    int p = svg_chart_panel(c, "rate", SVG_UNIT_BPS, NULL);
    struct svg_series *s = svg_chart_line(c, p, "tx");
    struct svg_series *few = svg_chart_line(c, p, "few");
    uint64_t x = 88172645463325252ULL;
    for (int64_t i = 0; i < 1000000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        svg_series_point(s, i * 1000 * 1000, (double)(x % 100000) * 1e6);
    }
    for (int i = 0; i < 10; i++)
        svg_series_point(few, i * 100 * SEC, 5e10);
    assert_int_equal(svg_series_count(s), 1000000);
    size_t len;
    char *doc = svg_chart_to_string(c, &len);
    assert_non_null(doc);
    int cols = 960 - 72 - 16;
    /* the path of the big series: at most 1 move/line + 3 verticals per column */
    const char *d = strstr(doc, "stroke-linecap=\"round\" d=\"");
    assert_non_null(d);
    d += 27;
    const char *end = strchr(d, '"');
    size_t cmds = 0;
    for (const char *q = d; q < end; q++)
        cmds += *q == 'M' || *q == 'L' || *q == 'V' || *q == 'H';
    assert_true(cmds <= (size_t)cols * 4);
    assert_true(cmds >= (size_t)cols); /* and nothing lost: every column drawn */
    assert_true(len < 96 * 1024);
    free(doc);
    svg_chart_free(c);
}

static void empty_and_nan(void **state)
{
    (void)state;
    assert_null(svg_chart_new("backwards", 10, 10));
    /* no panels */
    struct svg_chart *c = svg_chart_new("empty", 0, SEC);
    char *doc = svg_chart_to_string(c, NULL);
    assert_non_null(strstr(doc, "no data"));
    assert_clean_document(doc);
    free(doc);
    /* a panel without series, a series of NaN only, points outside the range */
    int p = svg_chart_panel(c, "nothing", SVG_UNIT_BYTES, NULL);
    int q = svg_chart_panel(c, "nan", SVG_UNIT_BYTES, NULL);
    struct svg_series *s = svg_chart_line(c, q, "all NaN");
    svg_series_point(s, 100, NAN);
    svg_series_point(s, 200, INFINITY);
    svg_series_point(s, -5, 1);
    svg_series_point(s, SEC + 1, 1);
    assert_int_equal(svg_series_count(s), 0);
    assert_null(svg_chart_line(c, 7, "no such panel"));
    assert_null(svg_chart_lane(c, -1, "no such panel"));
    assert_int_equal(svg_panel_set_height(c, p, 5), -1);
    doc = svg_chart_to_string(c, NULL);
    assert_int_equal(count_of(doc, "no data"), 2);
    assert_null(strstr(doc, "nan\""));
    assert_null(strstr(doc, "inf"));
    assert_clean_document(doc);
    free(doc);
    svg_chart_free(c);

    /* a NaN breaks the line: two M commands */
    c = svg_chart_new("gap", 0, 100 * SEC);
    s = svg_chart_line(c, svg_chart_panel(c, "v", SVG_UNIT_NONE, NULL), "v");
    for (int i = 0; i < 100; i++)
        svg_series_point(s, i * SEC, i == 50 ? NAN : i);
    doc = svg_chart_to_string(c, NULL);
    const char *d = strstr(doc, "stroke-linecap=\"round\" d=\"");
    assert_non_null(d);
    const char *end = strchr(d + 26, '"');
    size_t moves = 0;
    for (const char *x = d + 26; x < end; x++)
        moves += *x == 'M';
    assert_int_equal(moves, 2);
    free(doc);
    svg_chart_free(c);

    /* heatmap: all NaN, and refused sizes */
    assert_null(svg_heatmap_new("x", 0, 3, SVG_UNIT_NONE));
    assert_null(svg_heatmap_new("x", 100000, 100000, SVG_UNIT_NONE));
    struct svg_heatmap *h = svg_heatmap_new("empty", 2, 2, SVG_UNIT_NONE);
    svg_heatmap_set(h, 5, 5, 1); /* outside: ignored */
    doc = svg_heatmap_to_string(h, NULL);
    assert_int_equal(count_of(doc, ": no data</title>"), 4);
    assert_clean_document(doc);
    free(doc);
    svg_heatmap_free(h);
}

static void heatmap_cells_and_scale(void **state)
{
    (void)state;
    struct svg_heatmap *h = svg_heatmap_new("pause per hour", 3, 24, SVG_UNIT_NS);
    for (size_t r = 0; r < 3; r++) {
        char label[32];
        snprintf(label, sizeof(label), "leaf%zu Ethernet%zu", r, r * 4);
        svg_heatmap_row_label(h, r, label);
        for (size_t col = 0; col < 24; col++) {
            if (r == 0) {
                snprintf(label, sizeof(label), "%02zu:00", col);
                svg_heatmap_col_label(h, col, label);
            }
            svg_heatmap_set(h, r, col, r == 2 ? 0 : (double)(col * 1000000));
        }
    }
    svg_heatmap_set(h, 1, 3, NAN);
    size_t len;
    char *doc = svg_heatmap_to_string(h, &len);
    assert_int_equal(count_of(doc, "<title>leaf"), 72);
    assert_int_equal(count_of(doc, ": no data</title>"), 1);
    assert_non_null(strstr(doc, "leaf0 Ethernet0, 23:00: 23 ms</title>"));
    assert_non_null(strstr(doc, "fill=\"#800026\"")); /* the largest value, darkest */
    assert_non_null(strstr(doc, ">23 ms</text>"));    /* the top of the scale */
    assert_clean_document(doc);
    char *again = svg_heatmap_to_string(h, NULL);
    assert_string_equal(doc, again);
    free(again);
    free(doc);
    svg_heatmap_free(h);
}

/* `test_svg_chart --write-sample DIR`: chart.svg, heatmap.svg and page.html (both inline, the
 * chart twice) for tests/integration/svg_chromium.py to render. */
static int write_sample(const char *dir)
{
    int64_t t0 = 1795392000LL * SEC;
    struct svg_chart *c = svg_chart_new("leaf1 <script>alert(1)</script>", t0, t0 + 86400 * SEC);
    svg_chart_set_time_labels(c, SVG_TIME_UTC);
    int p0 = svg_chart_panel(c, "PFC pause time", SVG_UNIT_NS, "paused per s");
    int p1 = svg_chart_panel(c, "egress queue depth", SVG_UNIT_BYTES, NULL);
    int p2 = svg_chart_panel(c, "tx rate", SVG_UNIT_BPS, NULL);
    int p3 = svg_chart_panel(c, "pause intervals", SVG_UNIT_NONE, NULL);
    struct svg_series *rx = svg_chart_line(c, p0, "rx prio 3");
    struct svg_series *tx = svg_chart_line(c, p0, "tx prio 3");
    struct svg_series *q = svg_chart_line(c, p1, "queue 3");
    struct svg_series *rate = svg_chart_step(c, p2, "Ethernet4 \"uplink\" & more");
    struct svg_lane *shade = svg_chart_lane(c, p1, "paused");
    struct svg_lane *lanes[3] = {
        svg_chart_lane(c, p3, "Ethernet4 p3"),
        svg_chart_lane(c, p3, "Ethernet8 p3"),
        svg_chart_lane(c, p3, "<b>Ethernet12</b> p3"),
    };
    for (int64_t i = 0; i < 86400; i++) {
        int64_t t = t0 + i * SEC;
        double burst = (i % 7200) < 600 ? 1 : 0;
        svg_series_point(rx, t, burst * 4e8 * (1 + sin((double)i / 50)));
        svg_series_point(tx, t, burst * 1e8);
        svg_series_point(q, t, 2e5 + burst * 9e6 * fabs(sin((double)i / 90)));
        svg_series_point(rate, t, i % 3600 < 1800 ? 380e9 : 120e9);
        if (i % 7200 == 0) {
            svg_lane_interval(shade, t, t + 600 * SEC);
            for (int k = 0; k < 3; k++)
                svg_lane_interval(lanes[k], t + k * 60 * SEC, t + (k + 3) * 120 * SEC);
        }
    }
    struct svg_heatmap *h = svg_heatmap_new("pause time per port and hour", 6, 24, SVG_UNIT_NS);
    for (size_t r = 0; r < 6; r++) {
        char label[48];
        snprintf(label, sizeof(label),
                 r == 5 ? "<i>leaf%zu</i> Ethernet%zu" : "leaf%zu Ethernet%zu", r / 2, r * 4);
        svg_heatmap_row_label(h, r, label);
        for (size_t col = 0; col < 24; col++) {
            snprintf(label, sizeof(label), "%02zu", col);
            svg_heatmap_col_label(h, col, label);
            svg_heatmap_set(h, r, col,
                            r == 3 && col == 5 ? NAN : (double)((r * 7 + col * 3) % 11) * 1e8);
        }
    }
    char path[4096];
    snprintf(path, sizeof(path), "%s/chart.svg", dir);
    FILE *fp = fopen(path, "w");
    int rc = fp && svg_chart_write(c, fp) == 0 ? 0 : 1;
    if (fp && fclose(fp) != 0)
        rc = 1;
    snprintf(path, sizeof(path), "%s/heatmap.svg", dir);
    fp = fopen(path, "w");
    rc |= fp && svg_heatmap_write(h, fp) == 0 ? 0 : 1;
    if (fp && fclose(fp) != 0)
        rc = 1;
    snprintf(path, sizeof(path), "%s/page.html", dir);
    fp = fopen(path, "w");
    if (fp) {
        fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
              "charset=\"utf-8\"><title>charts</title>"
              "</head><body>\n",
              fp);
        rc |= svg_chart_write(c, fp) | svg_chart_write(c, fp) | svg_heatmap_write(h, fp);
        fputs("</body></html>\n", fp);
        rc |= fclose(fp) != 0;
    } else {
        rc = 1;
    }
    svg_chart_free(c);
    svg_heatmap_free(h);
    if (rc)
        fprintf(stderr, "test_svg_chart: writing the samples in %s failed\n", dir);
    return rc;
}

/* issue 31: an all-zero series gets a 0..1 axis, never -1..1 ("-1 ns" of pause); a series with
 * data in one bucket only is drawn (a dot: a zero-length subpath with round caps). */
static void flat_and_lone_series(void **state)
{
    (void)state;
    struct svg_chart *c = svg_chart_new("zeros", 0, 100 * SEC);
    struct svg_series *s = svg_chart_line(c, svg_chart_panel(c, "pause", SVG_UNIT_NS, NULL), "p");
    for (int i = 0; i < 100; i++)
        svg_series_point(s, i * SEC, 0);
    char *doc = svg_chart_to_string(c, NULL);
    assert_null(strstr(doc, "\xe2\x88\x92"
                            "1")); /* U+2212 minus before a 1 */
    assert_null(strstr(doc, ">-1"));
    free(doc);
    svg_chart_free(c);

    c = svg_chart_new("lone", 0, 100 * SEC);
    s = svg_chart_line(c, svg_chart_panel(c, "v", SVG_UNIT_NONE, NULL), "v");
    svg_series_point(s, 50 * SEC, 7);
    doc = svg_chart_to_string(c, NULL);
    const char *d = strstr(doc, "stroke-linecap=\"round\" d=\"");
    assert_non_null(d);
    const char *end = strchr(d + 26, '"');
    assert_non_null(end);
    assert_non_null(memmem(d + 26, (size_t)(end - d - 26), "h0", 2));
    free(doc);
    svg_chart_free(c);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write-sample") == 0)
        return write_sample(argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(escape_entities_and_controls),
        cmocka_unit_test(escape_truncates_on_characters),
        cmocka_unit_test(values_with_units),
        cmocka_unit_test(flat_and_lone_series),
        cmocka_unit_test(nice_ticks),
        cmocka_unit_test(time_ticks_and_labels),
        cmocka_unit_test(hostile_labels_stay_text),
        cmocka_unit_test(same_input_same_bytes),
        cmocka_unit_test(decimation_bounds_size),
        cmocka_unit_test(empty_and_nan),
        cmocka_unit_test(heatmap_cells_and_scale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
