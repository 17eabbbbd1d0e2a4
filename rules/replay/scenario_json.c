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

int sj_keys(const cJSON *obj, const char *const *allowed, const char *path, struct dcb_err *err)
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

int sj_object(const cJSON *obj, const char *path, struct dcb_err *err)
{
    if (!cJSON_IsObject(obj))
        return dcb_err_set(err, DCB_E_INVAL, "%s: must be an object", path);
    return 0;
}

int sj_need(const cJSON *obj, const char *key, const char *path, struct dcb_err *err)
{
    if (!cJSON_GetObjectItemCaseSensitive(obj, key))
        return dcb_err_set(err, DCB_E_INVAL, "%s%s%s: missing", path, sep(path), key);
    return 0;
}

int sj_int(const cJSON *obj, const char *key, int64_t lo, int64_t hi, int64_t *out,
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

int sj_bytes(const cJSON *obj, const char *key, uint64_t *out, const char *path,
             struct dcb_err *err)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it)
        return 0;
    if (cJSON_IsNumber(it)) {
        if (it->valuedouble < 0 || it->valuedouble != floor(it->valuedouble))
            return dcb_err_set(err, DCB_E_RANGE, "%s%s%s: %.17g is not a whole number of bytes "
                               "(0 or more)", path, sep(path), key, it->valuedouble);
        if (it->valuedouble > 1e18)
            return dcb_err_set(err, DCB_E_RANGE, "%s%s%s: too large", path, sep(path), key);
        *out = (uint64_t)it->valuedouble;
        return 0;
    }
    if (cJSON_IsString(it))
        return unit_text(it, dcb_parse_bytes, out, path, key, err);
    return dcb_err_set(err, DCB_E_INVAL, "%s%s%s: a size such as 1000000 or \"1MB\"", path,
                       sep(path), key);
}

int sj_speed(const cJSON *obj, const char *key, double *out, const char *path,
             struct dcb_err *err)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    uint64_t bps;
    if (!it)
        return 0;
    if (cJSON_IsNumber(it)) {
        if (!(it->valuedouble > 0) || it->valuedouble > 1e15)
            return dcb_err_set(err, DCB_E_RANGE, "%s%s%s: %.17g is not a speed above zero", path,
                               sep(path), key, it->valuedouble);
        *out = it->valuedouble;
        return 0;
    }
    if (cJSON_IsString(it)) {
        int rc = unit_text(it, dcb_parse_speed, &bps, path, key, err);
        if (rc < 0)
            return rc;
        if (bps == 0)
            return dcb_err_set(err, DCB_E_RANGE, "%s%s%s: must be above zero", path, sep(path),
                               key);
        *out = (double)bps;
        return 0;
    }
    return dcb_err_set(err, DCB_E_INVAL, "%s%s%s: a speed such as \"25G\"", path, sep(path), key);
}

int sj_time(const cJSON *obj, const char *key, int64_t scale, int64_t *out, const char *path,
            struct dcb_err *err)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it)
        return 0;
    if (cJSON_IsNumber(it)) {
        if (!(it->valuedouble >= 0) || it->valuedouble * (double)scale > 1e17)
            return dcb_err_set(err, DCB_E_RANGE, "%s%s%s: %.17g is not a time of 0 or more", path,
                               sep(path), key, it->valuedouble);
        *out = (int64_t)llround(it->valuedouble * (double)scale);
        return 0;
    }
    if (cJSON_IsString(it)) {
        uint64_t ns = 0;
        int rc = unit_text(it, parse_duration_u64, &ns, path, key, err);
        *out = (int64_t)ns;
        return rc;
    }
    return dcb_err_set(err, DCB_E_INVAL, "%s%s%s: a time such as 5 or \"5us\"", path, sep(path),
                       key);
}

int sj_bool(const cJSON *obj, const char *key, bool *out, const char *path, struct dcb_err *err)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it)
        return 0;
    if (!cJSON_IsBool(it))
        return dcb_err_set(err, DCB_E_INVAL, "%s%s%s: must be true or false", path, sep(path),
                           key);
    *out = cJSON_IsTrue(it);
    return 0;
}

int sj_string(const cJSON *obj, const char *key, size_t max, const char **out, const char *path,
              struct dcb_err *err)
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
