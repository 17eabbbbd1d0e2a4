/* Strict JSON readers for scenario files: every error is one line naming the path. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scenario_json.h"
#include "units.h"

static const char *sep(const char *path)
{
    return path && *path ? "." : "";
}

int scenario_json_keys(const cJSON *obj, const char *const *allowed, const char *path,
                       struct dcb_err *err)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, obj) {
        bool ok = false;
        for (const char *const *a = allowed; *a && !ok; a++)
            ok = item->string && strcmp(item->string, *a) == 0;
        if (!ok)
            return dcb_err_set(err, DCB_E_INVAL, "%s%s%s: unknown key", path, sep(path),
                               item->string ? item->string : "?");
    }
    return 0;
}

int scenario_json_object(const cJSON *obj, const char *path, struct dcb_err *err)
{
    if (!cJSON_IsObject(obj))
        return dcb_err_set(err, DCB_E_INVAL, "%s: must be an object", path);
    return 0;
}

int scenario_json_need(const cJSON *obj, const char *key, const char *path, struct dcb_err *err)
{
    if (!cJSON_GetObjectItemCaseSensitive(obj, key))
        return dcb_err_set(err, DCB_E_INVAL, "%s%s%s: missing", path, sep(path), key);
    return 0;
}

int scenario_json_int(const cJSON *obj, const char *key, int64_t lo, int64_t hi, int64_t *out,
                      const char *path, struct dcb_err *err)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it)
        return 0;
    if (!cJSON_IsNumber(it) || it->valuedouble != floor(it->valuedouble) ||
        it->valuedouble < (double)lo || it->valuedouble > (double)hi)
        return dcb_err_set(err, DCB_E_RANGE, "%s%s%s: must be a whole number from %lld to %lld",
                           path, sep(path), key, (long long)lo, (long long)hi);
    *out = (int64_t)it->valuedouble;
    return 0;
}

/* A string with a unit ("1MB", "25G", "5us") through parse; never negative. */
static int unit_text(const cJSON *it, int (*parse)(const char *, uint64_t *, struct dcb_err *),
                     uint64_t *out, const char *path, const char *key, struct dcb_err *err)
{
    struct dcb_err uerr;
    if (it->valuestring[0] == '-')
        return dcb_err_set(err, DCB_E_RANGE, "%s%s%s: \"%s\" is negative", path, sep(path), key,
                           it->valuestring);
    if (parse(it->valuestring, out, &uerr) < 0)
        return dcb_err_set(err, uerr.code, "%s%s%s: %s", path, sep(path), key, uerr.msg);
    return 0;
}

static int parse_duration_u64(const char *text, uint64_t *ns, struct dcb_err *err)
{
    int64_t v = 0;
    int rc = dcb_parse_duration(text, &v, err);
    *ns = (uint64_t)v;
    return rc;
}

/* A number as JSON would write it, without an exponent for the round figures of the ranges. */
static const char *num_text(double v, char *buf, size_t len)
{
    snprintf(buf, len, "%.15g", v);
    return buf;
}

static int out_of_range(const char *path, const char *key, const char *value, const char *lo,
                        const char *hi, struct dcb_err *err)
{
    return dcb_err_set(err, DCB_E_RANGE, "%s%s%s: %s is out of range (%s to %s)", path, sep(path),
                       key, value, lo, hi);
}

/* A whole number of base units (bytes, bits per second) from a number or a string with a unit
 * through parse; lo..hi printed by fmt, the value as written. */
static int unit_value(const cJSON *it, int (*parse)(const char *, uint64_t *, struct dcb_err *),
                      char *(*fmt)(uint64_t, char *, size_t), uint64_t lo, uint64_t hi,
                      uint64_t *out, const char *path, const char *key, struct dcb_err *err)
{
    char v[32], l[DCB_UNIT_BUF] = "0", h[DCB_UNIT_BUF];
    if (lo)
        fmt(lo, l, sizeof(l));
    fmt(hi, h, sizeof(h));
    if (cJSON_IsNumber(it)) {
        double d = it->valuedouble;
        snprintf(v, sizeof(v), "%.17g", d);
        if (!(d >= (double)lo && d <= (double)hi))
            return out_of_range(path, key, v, l, h, err);
        *out = (uint64_t)d;
        return 0;
    }
    int rc = unit_text(it, parse, out, path, key, err);
    if (rc < 0)
        return rc;
    if (*out < lo || *out > hi)
        return out_of_range(path, key, it->valuestring, l, h, err);
    return 0;
}

int scenario_json_bytes(const cJSON *obj, const char *key, uint64_t lo, uint64_t hi, uint64_t *out,
                        const char *path, struct dcb_err *err)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it)
        return 0;
    if (cJSON_IsNumber(it) && it->valuedouble != floor(it->valuedouble))
        return dcb_err_set(err, DCB_E_RANGE, "%s%s%s: %.17g is not a whole number of bytes", path,
                           sep(path), key, it->valuedouble);
    if (cJSON_IsNumber(it) || cJSON_IsString(it))
        return unit_value(it, dcb_parse_bytes, dcb_fmt_bytes, lo, hi, out, path, key, err);
    return dcb_err_set(err, DCB_E_INVAL, "%s%s%s: a size such as 1000000 or \"1MB\"", path,
                       sep(path), key);
}

int scenario_json_speed(const cJSON *obj, const char *key, uint64_t lo, uint64_t hi, double *out,
                        const char *path, struct dcb_err *err)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it)
        return 0;
    if (!cJSON_IsNumber(it) && !cJSON_IsString(it))
        return dcb_err_set(err, DCB_E_INVAL, "%s%s%s: a speed such as \"25G\"", path, sep(path),
                           key);
    uint64_t bps;
    int rc = unit_value(it, dcb_parse_speed, dcb_fmt_speed, lo, hi, &bps, path, key, err);
    if (rc == 0)
        *out = cJSON_IsNumber(it) ? it->valuedouble : (double)bps;
    return rc;
}

void scenario_json_span_text(const struct scenario_json_span *span, int64_t scale, char *buf,
                             size_t len)
{
    char lo[32], hi[32];
    num_text((double)span->lo_ns / (double)scale, lo, sizeof(lo));
    num_text((double)span->hi_ns / (double)scale, hi, sizeof(hi));
    snprintf(buf, len, "%s%s to %s", span->zero && span->lo_ns > 0 ? "0, or " : "", lo, hi);
}

int scenario_json_time(const cJSON *obj, const char *key, int64_t scale,
                       const struct scenario_json_span *span, int64_t *out, const char *path,
                       struct dcb_err *err)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it)
        return 0;
    double units;
    int64_t ns; /* -1: outside 0..hi_ns */
    if (cJSON_IsNumber(it)) {
        units = it->valuedouble;
        double d = units * (double)scale;
        ns = d >= 0 && d <= (double)span->hi_ns ? (int64_t)llround(d) : -1;
        if (ns == 0 && d > 0)
            ns = -1; /* under a nanosecond is not none */
    } else if (cJSON_IsString(it)) {
        uint64_t u = 0;
        int rc = unit_text(it, parse_duration_u64, &u, path, key, err);
        if (rc < 0)
            return rc;
        ns = u <= (uint64_t)span->hi_ns ? (int64_t)u : -1;
        units = (double)u / (double)scale;
    } else {
        return dcb_err_set(err, DCB_E_INVAL, "%s%s%s: a time such as 5 or \"5us\"", path, sep(path),
                           key);
    }
    if (ns < span->lo_ns && !(span->zero && ns == 0)) {
        char v[32], range[80];
        scenario_json_span_text(span, scale, range, sizeof(range));
        return dcb_err_set(err, DCB_E_RANGE, "%s%s%s: %s is out of range (%s)", path, sep(path),
                           key, num_text(units, v, sizeof(v)), range);
    }
    *out = ns;
    return 0;
}

int scenario_json_bool(const cJSON *obj, const char *key, bool *out, const char *path,
                       struct dcb_err *err)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it)
        return 0;
    if (!cJSON_IsBool(it))
        return dcb_err_set(err, DCB_E_INVAL, "%s%s%s: must be true or false", path, sep(path), key);
    *out = cJSON_IsTrue(it);
    return 0;
}

int scenario_json_string(const cJSON *obj, const char *key, size_t max, const char **out,
                         const char *path, struct dcb_err *err)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it)
        return 0;
    if (!cJSON_IsString(it) || !it->valuestring[0] || strlen(it->valuestring) >= max)
        return dcb_err_set(err, DCB_E_INVAL, "%s%s%s: must be a string of 1 to %zu characters",
                           path, sep(path), key, max - 1);
    *out = it->valuestring;
    return 0;
}
