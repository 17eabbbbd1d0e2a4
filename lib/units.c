#include "units.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

struct unit_suffix {
    const char *name;
    uint64_t scale; /* base units per 1 of this unit */
};

static const struct unit_suffix speed_units[] = {
    { "", 1 },
    { "bps", 1 },
    { "b/s", 1 },
    { "K", 1000ULL },
    { "Kbps", 1000ULL },
    { "Kb/s", 1000ULL },
    { "M", 1000000ULL },
    { "Mbps", 1000000ULL },
    { "Mb/s", 1000000ULL },
    { "G", 1000000000ULL },
    { "Gbps", 1000000000ULL },
    { "Gb/s", 1000000000ULL },
    { "T", 1000000000000ULL },
    { "Tbps", 1000000000000ULL },
    { "Tb/s", 1000000000000ULL },
    { NULL, 0 },
};

static const struct unit_suffix byte_units[] = {
    { "", 1 },
    { "B", 1 },
    { "K", 1000ULL },
    { "KB", 1000ULL },
    { "M", 1000000ULL },
    { "MB", 1000000ULL },
    { "G", 1000000000ULL },
    { "GB", 1000000000ULL },
    { "T", 1000000000000ULL },
    { "TB", 1000000000000ULL },
    { "KiB", 1ULL << 10 },
    { "Ki", 1ULL << 10 },
    { "MiB", 1ULL << 20 },
    { "Mi", 1ULL << 20 },
    { "GiB", 1ULL << 30 },
    { "Gi", 1ULL << 30 },
    { "TiB", 1ULL << 40 },
    { "Ti", 1ULL << 40 },
    { NULL, 0 },
};

static const struct unit_suffix duration_units[] = {
    { "ns", 1 },
    { "us", 1000ULL },
    { "\xc2\xb5s", 1000ULL }, /* µs */
    { "ms", 1000000ULL },
    { "s", 1000000000ULL },
    { "m", 60ULL * 1000000000ULL },
    { "min", 60ULL * 1000000000ULL },
    { "h", 3600ULL * 1000000000ULL },
    { "d", 86400ULL * 1000000000ULL },
    { NULL, 0 },
};

static const struct unit_suffix length_units[] = {
    { "", 1000 }, { "m", 1000 }, { "mm", 1 }, { "cm", 10 }, { "km", 1000000 }, { NULL, 0 },
};

/* Splits "  2.5 Gbps" into a decimal number and a suffix, then scales exactly:
 * value = whole*scale + round(frac*scale / 10^digits). */
static int parse_scaled(const char *text, const struct unit_suffix *units, const char *what,
                        uint64_t *out, struct dcb_err *err)
{
    if (!text)
        return dcb_err_set(err, DCB_E_INVAL, "%s: no value given", what);
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '-' || *p == '+')
        return dcb_err_set(err, DCB_E_INVAL, "'%s': %s must be a non-negative number", text, what);
    uint64_t whole = 0, frac = 0, frac_div = 1;
    int digits = 0;
    while (isdigit((unsigned char)*p)) {
        unsigned d = (unsigned)(*p - '0');
        if (whole > (UINT64_MAX - d) / 10)
            return dcb_err_set(err, DCB_E_RANGE, "'%s': %s is too large", text, what);
        whole = whole * 10 + d;
        p++;
        digits++;
    }
    if (*p == '.') {
        p++;
        while (isdigit((unsigned char)*p)) {
            if (frac_div < 1000000000000ULL) { /* keep 12 fraction digits, ignore the rest */
                frac = frac * 10 + (uint64_t)(*p - '0');
                frac_div *= 10;
            }
            p++;
            digits++;
        }
    }
    if (digits == 0)
        return dcb_err_set(err, DCB_E_INVAL, "'%s': %s must start with a number", text, what);
    while (isspace((unsigned char)*p))
        p++;
    const char *suffix = p;
    size_t slen = strlen(suffix);
    while (slen && isspace((unsigned char)suffix[slen - 1]))
        slen--;

    const struct unit_suffix *u = NULL;
    for (const struct unit_suffix *c = units; c->name; c++) {
        /* exact case first: "m" (minutes) and "M" must not collide in duration/length tables */
        if (strlen(c->name) == slen && strncmp(c->name, suffix, slen) == 0) {
            u = c;
            break;
        }
    }
    if (!u) {
        for (const struct unit_suffix *c = units; c->name; c++) {
            if (strlen(c->name) == slen && strncasecmp(c->name, suffix, slen) == 0) {
                u = c;
                break;
            }
        }
    }
    if (!u)
        return dcb_err_set(err, DCB_E_INVAL, "'%s': unknown %s unit '%.*s'", text, what, (int)slen,
                           suffix);

    unsigned __int128 value = (unsigned __int128)whole * u->scale;
    value += ((unsigned __int128)frac * u->scale + frac_div / 2) / frac_div;
    if (value > UINT64_MAX)
        return dcb_err_set(err, DCB_E_RANGE, "'%s': %s is too large", text, what);
    *out = (uint64_t)value;
    return 0;
}

int dcb_parse_speed(const char *text, uint64_t *bps, struct dcb_err *err)
{
    return parse_scaled(text, speed_units, "link speed", bps, err);
}

int dcb_parse_bytes(const char *text, uint64_t *bytes, struct dcb_err *err)
{
    return parse_scaled(text, byte_units, "size", bytes, err);
}

int dcb_parse_length(const char *text, uint64_t *mm, struct dcb_err *err)
{
    return parse_scaled(text, length_units, "length", mm, err);
}

int dcb_parse_duration(const char *text, int64_t *ns, struct dcb_err *err)
{
    /* A bare number has no unit; only a zero needs none. */
    const char *p = text ? text : "";
    if (*p && p[strspn(p, "0123456789. \t")] == '\0') {
        static const struct unit_suffix bare[] = { { "", 1 }, { NULL, 0 } };
        uint64_t zero;
        if (parse_scaled(text, bare, "duration", &zero, err) == 0 && zero == 0) {
            *ns = 0;
            return 0;
        }
        return dcb_err_set(err, DCB_E_INVAL, "'%s': duration needs a unit (ns, us, ms, s, m, h, d)",
                           text);
    }
    uint64_t v;
    int rc = parse_scaled(text, duration_units, "duration", &v, err);
    if (rc < 0)
        return rc;
    if (v > INT64_MAX)
        return dcb_err_set(err, DCB_E_RANGE, "'%s': duration is too large", text);
    *ns = (int64_t)v;
    return 0;
}

/* Prints value/scale with up to three decimals, trailing zeros trimmed. */
static void print_trimmed(char *buf, size_t len, double value, const char *sep, const char *unit)
{
    char num[48];
    snprintf(num, sizeof(num), "%.3f", value);
    char *dot = strchr(num, '.');
    if (dot) {
        char *e = num + strlen(num) - 1;
        while (e > dot && *e == '0')
            *e-- = '\0';
        if (e == dot)
            *e = '\0';
    }
    snprintf(buf, len, "%s%s%s", num, sep, unit);
}

static char *fmt_decimal(uint64_t v, const struct unit_suffix *scales, size_t n, const char *sep,
                         char *buf, size_t len)
{
    /* scales ordered from largest to smallest; the last one has scale 1 */
    for (size_t i = 0; i < n; i++) {
        if (v >= scales[i].scale || i == n - 1) {
            print_trimmed(buf, len, (double)v / (double)scales[i].scale, sep, scales[i].name);
            return buf;
        }
    }
    return buf;
}

/* v in steps of 1000 from tera down, names[0] the tera name and names[4] the unit's */
static char *fmt_si(uint64_t v, const char *const names[5], char *buf, size_t len)
{
    const struct unit_suffix s[] = {
        { names[0], 1000000000000ULL },
        { names[1], 1000000000ULL },
        { names[2], 1000000ULL },
        { names[3], 1000ULL },
        { names[4], 1 },
    };
    return fmt_decimal(v, s, sizeof(s) / sizeof(s[0]), "", buf, len);
}

char *dcb_fmt_speed(uint64_t bps, char *buf, size_t len)
{
    static const char *const names[5] = { "T", "G", "M", "K", "bps" };
    return fmt_si(bps, names, buf, len);
}

char *dcb_fmt_rate(uint64_t bps, char *buf, size_t len)
{
    static const char *const names[5] = { "Tb/s", "Gb/s", "Mb/s", "Kb/s", "b/s" };
    return fmt_si(bps, names, buf, len);
}

char *dcb_fmt_bytes(uint64_t bytes, char *buf, size_t len)
{
    static const char *const names[5] = { "TB", "GB", "MB", "KB", "B" };
    return fmt_si(bytes, names, buf, len);
}

char *dcb_fmt_length(uint64_t mm, char *buf, size_t len)
{
    static const struct unit_suffix s[] = {
        { "km", 1000000 },
        { "m", 1000 },
        { "mm", 1 },
    };
    if (mm > 0 && mm < 1000) { /* cables are "0.5m", not "500mm" */
        print_trimmed(buf, len, (double)mm / 1000.0, "", "m");
        return buf;
    }
    return fmt_decimal(mm, s, sizeof(s) / sizeof(s[0]), "", buf, len);
}

char *dcb_fmt_duration_ns(double ns, char *buf, size_t len)
{
    static const struct {
        const char *unit;
        double scale;
    } s[] = {
        { "h", 3600e9 }, { "s", 1e9 }, { "ms", 1e6 }, { "\xc2\xb5s", 1e3 }, { "ns", 1 },
    };
    if (!isfinite(ns)) {
        snprintf(buf, len, "n/a");
        return buf;
    }
    double mag = fabs(ns);
    for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
        if (mag >= s[i].scale || i == sizeof(s) / sizeof(s[0]) - 1) {
            print_trimmed(buf, len, ns / s[i].scale, " ", s[i].unit);
            return buf;
        }
    }
    return buf;
}
