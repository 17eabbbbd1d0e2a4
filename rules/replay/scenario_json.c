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

int sj_bytes(const cJSON *obj, const char *key, uint64_t *out, const char *path,
             struct dcb_err *err)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    struct dcb_err uerr;
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
    if (cJSON_IsString(it)) {
        if (it->valuestring[0] == '-')
            return dcb_err_set(err, DCB_E_RANGE, "%s%s%s: \"%s\" is negative", path, sep(path),
                               key, it->valuestring);
        if (dcb_parse_bytes(it->valuestring, out, &uerr) < 0)
            return dcb_err_set(err, uerr.code, "%s%s%s: %s", path, sep(path), key, uerr.msg);
        return 0;
    }
    return dcb_err_set(err, DCB_E_INVAL, "%s%s%s: a size such as 1000000 or \"1MB\"", path,
                       sep(path), key);
}

int sj_speed(const cJSON *obj, const char *key, double *out, const char *path,
             struct dcb_err *err)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    struct dcb_err uerr;
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
        if (it->valuestring[0] == '-')
            return dcb_err_set(err, DCB_E_RANGE, "%s%s%s: \"%s\" is negative", path, sep(path),
                               key, it->valuestring);
        if (dcb_parse_speed(it->valuestring, &bps, &uerr) < 0)
            return dcb_err_set(err, uerr.code, "%s%s%s: %s", path, sep(path), key, uerr.msg);
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
    struct dcb_err uerr;
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
        if (it->valuestring[0] == '-')
            return dcb_err_set(err, DCB_E_RANGE, "%s%s%s: \"%s\" is negative", path, sep(path),
                               key, it->valuestring);
        if (dcb_parse_duration(it->valuestring, out, &uerr) < 0)
            return dcb_err_set(err, uerr.code, "%s%s%s: %s", path, sep(path), key, uerr.msg);
        return 0;
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
