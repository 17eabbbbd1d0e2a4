/* Axis arithmetic for the SVG charts: nice ticks, unit prefixes, time ticks and labels. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "svg_impl.h"
#include "xml_escape.h"

struct unit_prefixes {
    const char *names[6]; /* index i is 1000^i base units */
    int count;
    const char *sep; /* between number and unit */
};

static const struct unit_prefixes prefixes[] = {
    [SVG_UNIT_NONE] = { { "", "k", "M", "G", "T" }, 5, "" },
    [SVG_UNIT_BYTES] = { { "B", "KB", "MB", "GB", "TB", "PB" }, 6, " " },
    [SVG_UNIT_BPS] = { { "b/s", "Kb/s", "Mb/s", "Gb/s", "Tb/s" }, 5, " " },
    [SVG_UNIT_NS] = { { "ns", "\xc2\xb5s", "ms", "s" }, 4, " " },
    [SVG_UNIT_PER_SEC] = { { "/s", "k/s", "M/s", "G/s" }, 4, " " },
    [SVG_UNIT_PERCENT] = { { "%" }, 1, "" },
};

static const struct unit_prefixes *unit_of(enum svg_unit unit)
{
    if ((unsigned)unit >= sizeof(prefixes) / sizeof(prefixes[0]))
        unit = SVG_UNIT_NONE;
    return &prefixes[unit];
}

static int prefix_for(double mag, enum svg_unit unit)
{
    const struct unit_prefixes *u = unit_of(unit);
    int i = 0;
    while (i + 1 < u->count && mag >= pow(1000.0, i + 1))
        i++;
    return i;
}

/* At most three significant decimals' worth, trailing zeros trimmed. */
static void trimmed(char *buf, size_t len, double x)
{
    double m = fabs(x);
    int decimals = m >= 100 ? 0 : m >= 10 ? 1 : m >= 1 ? 2 : 3;
    snprintf(buf, len, "%.*f", decimals, x);
    if (strchr(buf, '.')) {
        char *e = buf + strlen(buf) - 1;
        while (*e == '0')
            *e-- = '\0';
        if (*e == '.')
            *e = '\0';
    }
    if (strcmp(buf, "-0") == 0)
        snprintf(buf, len, "0");
}

char *svg_fmt_with_prefix(double v, enum svg_unit unit, int prefix, char *buf, size_t len)
{
    const struct unit_prefixes *u = unit_of(unit);
    if (!isfinite(v)) {
        snprintf(buf, len, "n/a");
        return buf;
    }
    if (prefix < 0)
        prefix = 0;
    if (prefix >= u->count)
        prefix = u->count - 1;
    char num[48];
    trimmed(num, sizeof(num), v / pow(1000.0, prefix));
    if (strcmp(num, "0") == 0 && unit != SVG_UNIT_PERCENT)
        snprintf(buf, len, "0");
    else
        snprintf(buf, len, "%s%s%s", num, u->sep, u->names[prefix]);
    return buf;
}

char *svg_fmt_value(double v, enum svg_unit unit, char *buf, size_t len)
{
    /* long durations read better in minutes and hours than in thousands of seconds */
    if (unit == SVG_UNIT_NS && isfinite(v) && fabs(v) >= 600e9) {
        char num[48];
        bool hours = fabs(v) >= 7200e9;
        trimmed(num, sizeof(num), v / (hours ? 3600e9 : 60e9));
        snprintf(buf, len, "%s %s", num, hours ? "h" : "min");
        return buf;
    }
    return svg_fmt_with_prefix(v, unit, isfinite(v) ? prefix_for(fabs(v), unit) : 0, buf, len);
}

void svg_nice_ticks(double lo, double hi, int target, enum svg_unit unit, struct svg_ticks *t)
{
    if (!isfinite(lo) || !isfinite(hi) || hi < lo) {
        lo = 0;
        hi = 1;
    }
    if (hi == lo) { /* a flat series: from zero to just above it (or below) */
        if (lo >= 0) {
            lo = 0;
            hi = hi > 0 ? hi * 1.1 : 1;
        } else {
            hi = 0;
            lo *= 1.1;
        }
    }
    if (target < 2)
        target = 2;
    double raw = (hi - lo) / target;
    double mag = pow(10, floor(log10(raw)));
    double norm = raw / mag;
    double step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
    t->lo = floor(lo / step) * step;
    t->hi = ceil(hi / step) * step;
    t->step = step;
    t->n = 0;
    for (int i = 0; t->n < SVG_MAX_TICKS; i++) {
        double v = t->lo + i * step;
        if (v > t->hi + step * 1e-9)
            break;
        if (fabs(v) < step * 1e-9)
            v = 0;
        t->v[t->n++] = v;
    }
    if (t->n > 0)
        t->hi = t->v[t->n - 1];
    double m = fmax(fabs(t->lo), fabs(t->hi));
    t->prefix = prefix_for(m, unit);
    /* "0.5 MB" reads well; "0.02 MB" does not: step down a prefix for small steps */
    if (t->prefix > 0 && step < pow(1000.0, t->prefix) / 50)
        t->prefix--;
}

/* ---- time ------------------------------------------------------------------------------- */

#define US 1000LL
#define MS 1000000LL
#define SEC 1000000000LL
#define MIN (60 * SEC)
#define HOUR (60 * MIN)
#define DAY (24 * HOUR)

static const int64_t time_steps[] = {
    1,        2,        5,        10,       20,       50,        100,      200,       500,
    US,       2 * US,   5 * US,   10 * US,  20 * US,  50 * US,   100 * US, 200 * US,  500 * US,
    MS,       2 * MS,   5 * MS,   10 * MS,  20 * MS,  50 * MS,   100 * MS, 200 * MS,  500 * MS,
    SEC,      2 * SEC,  5 * SEC,  10 * SEC, 15 * SEC, 30 * SEC,  MIN,      2 * MIN,   5 * MIN,
    10 * MIN, 15 * MIN, 30 * MIN, HOUR,     2 * HOUR, 3 * HOUR,  6 * HOUR, 12 * HOUR, DAY,
    2 * DAY,  7 * DAY,  14 * DAY, 28 * DAY, 91 * DAY, 364 * DAY,
};

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

void svg_time_ticks(int64_t t0, int64_t t1, int target, enum svg_time_labels mode,
                    struct svg_time_ticks *tt)
{
    tt->n = 0;
    tt->step = 0;
    if (t1 <= t0)
        return;
    if (target < 2)
        target = 2;
    double span = (double)t1 - (double)t0;
    size_t nsteps = sizeof(time_steps) / sizeof(time_steps[0]);
    int64_t step = time_steps[nsteps - 1];
    for (size_t i = 0; i < nsteps; i++) {
        if (span / (double)time_steps[i] <= target) {
            step = time_steps[i];
            break;
        }
    }
    while (span / (double)step > SVG_MAX_TICKS * 2 - 1)
        step *= 2;
    tt->step = step;
    /* UTC ticks sit on whole steps of the wall clock; relative ones on whole steps from t0 */
    int64_t base = mode == SVG_TIME_UTC ? 0 : t0;
    int64_t k = floor_div(t0 - base, step);
    if (base + k * step < t0)
        k++;
    for (int64_t t = base + k * step; t <= t1 && tt->n < SVG_MAX_TICKS * 2; t += step) {
        tt->t[tt->n++] = t;
        if (t > INT64_MAX - step)
            break;
    }
}

void svg_time_label(int64_t t, int64_t t0, int64_t step, enum svg_time_labels mode, char *buf,
                    size_t len, char *date, size_t date_len)
{
    if (date_len)
        date[0] = '\0';
    if (mode == SVG_TIME_RELATIVE) {
        static const struct {
            int64_t scale;
            const char *unit;
        } u[] = {
            { DAY, "d" }, { HOUR, "h" },       { MIN, "min" }, { SEC, "s" },
            { MS, "ms" }, { US, "\xc2\xb5s" }, { 1, "ns" },
        };
        size_t i = 0;
        while (i + 1 < sizeof(u) / sizeof(u[0]) && step < u[i].scale)
            i++;
        char num[48];
        trimmed(num, sizeof(num), (double)(t - t0) / (double)u[i].scale);
        if (strcmp(num, "0") == 0)
            snprintf(buf, len, "0");
        else
            snprintf(buf, len, "%s %s", num, u[i].unit);
        return;
    }
    time_t secs = (time_t)floor_div(t, SEC);
    int64_t frac_ns = t - (int64_t)secs * SEC;
    struct tm tm;
    gmtime_r(&secs, &tm);
    if (step < SEC)
        snprintf(buf, len, "%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min, tm.tm_sec,
                 (int)(frac_ns / MS));
    else if (step < MIN)
        snprintf(buf, len, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
    else if (step < DAY)
        snprintf(buf, len, "%02d:%02d", tm.tm_hour, tm.tm_min);
    else
        snprintf(buf, len, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
    if (step < DAY && date_len)
        snprintf(date, date_len, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
}

/* ---- output ----------------------------------------------------------------------------- */

void svg_num(FILE *fp, double v)
{
    if (!isfinite(v))
        v = 0;
    if (v > 1e9)
        v = 1e9;
    if (v < -1e9)
        v = -1e9;
    long long tenths = llround(v * 10);
    char buf[32];
    if (tenths % 10 == 0)
        snprintf(buf, sizeof(buf), "%lld", tenths / 10);
    else
        snprintf(buf, sizeof(buf), "%s%lld.%lld", tenths < 0 ? "-" : "", llabs(tenths) / 10,
                 llabs(tenths) % 10);
    fputs(buf, fp);
}

/* Okabe-Ito, readable by colour-blind people; yellow swapped for a dark grey. */
const char *svg_palette(size_t i)
{
    static const char *const p[] = {
        "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#555555", "#000000",
    };
    return p[i % (sizeof(p) / sizeof(p[0]))];
}

void svg_doc_open(FILE *fp, double width, double height, const char *title)
{
    fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", fp);
    svg_num(fp, width);
    fputs("\" height=\"", fp);
    svg_num(fp, height);
    fputs("\" viewBox=\"0 0 ", fp);
    svg_num(fp, width);
    fputc(' ', fp);
    svg_num(fp, height);
    fputs("\" role=\"img\" aria-label=\"", fp);
    xml_escape(fp, title, 0);
    fputs("\" " SVG_FONT " font-size=\"11\">\n<title>", fp);
    xml_escape(fp, title, 0);
    fputs("</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n", fp);
}

void svg_doc_close(FILE *fp)
{
    fputs("</svg>\n", fp);
}

char *svg_to_string(int (*write)(const void *obj, FILE *fp), const void *obj, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *fp = open_memstream(&buf, &n);
    if (!fp)
        return NULL;
    int rc = write(obj, fp);
    if (fclose(fp) != 0 || rc != 0) {
        free(buf);
        return NULL;
    }
    if (len)
        *len = n;
    return buf;
}
