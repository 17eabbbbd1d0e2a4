#include "view.h"
#include "source.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool passes(const struct top_iface *i, const char *filter)
{
    if (!i->ifname[0] && !i->has_series)
        return false; /* a device's own config, not a port */
    if (!filter[0])
        return true;
    return strstr(i->ifname, filter) || strstr(i->device, filter);
}

static int sort_col;

static int by_name(const struct top_iface *a, const struct top_iface *b)
{
    int c = strcmp(a->device, b->device);
    return c ? c : strcmp(a->ifname, b->ifname);
}

static int by_column(const void *pa, const void *pb)
{
    const struct top_iface *a = *(struct top_iface *const *)pa;
    const struct top_iface *b = *(struct top_iface *const *)pb;
    if (sort_col != SORT_NAME) {
        const struct top_val *x = &a->col[sort_col], *y = &b->col[sort_col];
        bool kx = x->state == VAL_KNOWN, ky = y->state == VAL_KNOWN;
        if (kx != ky)
            return kx ? -1 : 1;
        if (kx && x->v != y->v)
            return x->v > y->v ? -1 : 1;
    }
    return by_name(a, b);
}

size_t view_rows(const struct top_model *m, const struct top_view *v, struct top_iface **rows,
                 size_t max)
{
    size_t n = 0;
    for (size_t k = 0; k < m->n && n < max; k++)
        if (passes(m->ifaces[k], v->filter))
            rows[n++] = m->ifaces[k];
    sort_col = v->sort;
    if (n > 1)
        qsort(rows, n, sizeof(*rows), by_column);
    return n;
}

void view_format(char *buf, size_t len, struct top_val val, enum top_col_unit unit, bool utf8)
{
    if (val.state == VAL_ABSENT) {
        snprintf(buf, len, "-");
        return;
    }
    if (val.state == VAL_PENDING || !isfinite(val.v)) {
        snprintf(buf, len, "%s", utf8 ? "\xe2\x80\xa6" : "...");
        return;
    }
    double v = val.v;
    if (unit == UNIT_PCT) {
        snprintf(buf, len, v >= 9.95 || v == 0 ? "%.0f%%" : "%.1f%%", v);
        return;
    }
    static const char suffix[] = " kMGTP";
    int k = 0;
    while (fabs(v) >= 999.5 && k < 5) {
        v /= 1000;
        k++;
    }
    if (k == 0)
        snprintf(buf, len, v == 0 || fabs(v) >= 9.95 ? "%.0f" : "%.1f", v);
    else
        snprintf(buf, len, fabs(v) >= 9.95 ? "%.0f%c" : "%.1f%c", v, suffix[k]);
}

/* The length of the valid, printable UTF-8 sequence at s (0 when it is not one). */
static size_t utf8_printable(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n;
    unsigned cp;
    if (c < 0x80)
        return c >= 0x20 && c != 0x7f ? 1 : 0;
    if ((c & 0xe0) == 0xc0) {
        n = 2;
        cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
        n = 3;
        cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    for (size_t k = 1; k < n; k++) {
        if ((s[k] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[k] & 0x3f);
    }
    static const unsigned min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (cp < min[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    if (cp < 0xa0) /* C1 controls (CSI is U+009B) */
        return 0;
    if ((cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) ||
        (cp >= 0x2066 && cp <= 0x2069)) /* zero-width and bidi overrides */
        return 0;
    return n;
}

void view_sanitize(const char *in, char *out, size_t len, bool utf8)
{
    size_t o = 0;
    const unsigned char *s = (const unsigned char *)in;
    if (!len)
        return;
    while (*s) {
        size_t n = utf8 ? utf8_printable(s) : (*s >= 0x20 && *s < 0x7f);
        if (n) {
            if (o + n >= len)
                break;
            memcpy(out + o, s, n);
            o += n;
            s += n;
        } else {
            if (o + 4 >= len)
                break;
            snprintf(out + o, len - o, "\\x%02x", *s);
            o += 4;
            s++;
        }
    }
    out[o] = '\0';
}

void view_sparkline(const struct top_iface *i, int col, int n, char *buf, size_t len, bool utf8)
{
    static const char *const bars[8] = { "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83",
                                         "\xe2\x96\x84", "\xe2\x96\x85", "\xe2\x96\x86",
                                         "\xe2\x96\x87", "\xe2\x96\x88" };
    static const char ascii[] = "_.-:=+*#";
    size_t o = 0;
    buf[0] = '\0';
    if (n > (int)i->hist_n)
        n = (int)i->hist_n;
    double max = 0;
    for (int k = 0; k < n; k++) {
        float v = i->hist[col][(i->hist_pos + TOP_HIST - n + k) % TOP_HIST];
        if (!isnan(v) && v > max)
            max = v;
    }
    for (int k = 0; k < n; k++) {
        float v = i->hist[col][(i->hist_pos + TOP_HIST - n + k) % TOP_HIST];
        const char *cell;
        char one[2] = { ' ', '\0' };
        if (isnan(v)) {
            cell = " ";
        } else {
            int level = max > 0 ? (int)(v / max * 7.0 + 0.5) : 0;
            if (level < 0)
                level = 0;
            if (level > 7)
                level = 7;
            one[0] = ascii[level];
            cell = utf8 ? bars[level] : one;
        }
        size_t w = strlen(cell);
        if (o + w >= len)
            break;
        memcpy(buf + o, cell, w);
        o += w;
    }
    buf[o] = '\0';
}

const char *view_prio_name(int prio, char *buf, size_t len)
{
    if (prio < 0)
        snprintf(buf, len, "lossless");
    else
        snprintf(buf, len, "prio %d", prio);
    return buf;
}

const char *view_sort_name(int sort)
{
    return sort == SORT_NAME ? "name" : top_cols[sort].title;
}

void view_mask(unsigned mask, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int p = 0; p < 8; p++)
        if (mask & (1u << p)) {
            int w = snprintf(buf + o, len - o, "%s%d", o ? "," : "", p);
            if (w < 0 || (size_t)w >= len - o)
                break;
            o += (size_t)w;
        }
    if (!o)
        snprintf(buf, len, "none");
}

const char *view_behind(const struct dcb_source *src, char *buf, size_t len)
{
    snprintf(buf, len,
             "behind real time by %.1f s: this machine is too busy for the %s's "
             "pace, the frames show its data as far as it got",
             (double)src->behind_ns / 1e9, src->kind == SOURCE_PCAP ? "capture" : "simulation");
    return buf;
}
