#include "value_units.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool ends_with(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return n >= k && !memcmp(s + n - k, suffix, k);
}

enum svg_unit value_unit_of(const char *name, double *to_base)
{
    *to_base = 1;
    size_t n = strcspn(name, "["); /* "pfc.rx_pause_us[200ms]": the window is not the unit */
    static const struct {
        const char *suffix;
        enum svg_unit unit;
        double factor;
    } table[] = {
        { "_ns", SVG_UNIT_NS, 1 },          { "_us", SVG_UNIT_NS, 1e3 },
        { "_ms", SVG_UNIT_NS, 1e6 },        { "_bytes", SVG_UNIT_BYTES, 1 },
        { ".headroom", SVG_UNIT_BYTES, 1 }, { ".xoff", SVG_UNIT_BYTES, 1 },
        { ".xon", SVG_UNIT_BYTES, 1 },      { ".size", SVG_UNIT_BYTES, 1 },
        { "_bps", SVG_UNIT_BPS, 1 },        { "_mbps", SVG_UNIT_BPS, 1e6 },
        { "_gbps", SVG_UNIT_BPS, 1e9 },     { "max_p", SVG_UNIT_PERCENT, 1 },
        { "_pct", SVG_UNIT_PERCENT, 1 },    { "_per_s", SVG_UNIT_PER_SEC, 1 },
    };
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        if (ends_with(name, n, table[i].suffix)) {
            *to_base = table[i].factor;
            return table[i].unit;
        }
    }
    return SVG_UNIT_NONE;
}

char *value_with_unit(const char *name, const char *value, char *buf, size_t len)
{
    if (!len)
        return buf;
    char *end = NULL;
    double v = value && *value ? strtod(value, &end) : NAN;
    if (!value || !end || *end || !isfinite(v)) {
        snprintf(buf, len, "%s", value ? value : "");
        return buf;
    }
    double factor;
    enum svg_unit unit = value_unit_of(name ? name : "", &factor);
    if (unit == SVG_UNIT_NONE) {
        if (v == floor(v) && fabs(v) < 1e15)
            snprintf(buf, len, "%.0f", v);
        else
            snprintf(buf, len, "%.4g", v);
        return buf;
    }
    return svg_fmt_value(v * factor, unit, buf, len);
}

char *value_unit_note(const char *name, const char *value, char *buf, size_t len)
{
    value_with_unit(name, value, buf, len);
    if (len && value && !strcmp(buf, value))
        buf[0] = '\0';
    return buf;
}
