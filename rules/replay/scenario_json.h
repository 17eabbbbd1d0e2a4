/* Internal to rules/replay: strict readers for the JSON users write (scenarios, workloads).
 * Each takes the object, the key and the path of the object ("workload", "faults[2]") and
 * names "path.key" in its error. A missing key leaves *out alone and returns 0 (optional) or
 * an error (sj_need_*). */
#ifndef DCB_SCENARIO_JSON_H
#define DCB_SCENARIO_JSON_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include "err.h"

int sj_keys(const cJSON *obj, const char *const *allowed, const char *path, struct dcb_err *err);
/* An object (or the path's type error). */
int sj_object(const cJSON *obj, const char *path, struct dcb_err *err);
/* A whole number in [lo, hi]. */
int sj_int(const cJSON *obj, const char *key, int64_t lo, int64_t hi, int64_t *out,
           const char *path, struct dcb_err *err);
/* A number of bytes: 1000000 or "1MB"; 0 allowed. */
int sj_bytes(const cJSON *obj, const char *key, uint64_t *out, const char *path,
             struct dcb_err *err);
/* Bits per second, above zero: 25e9 or "25G". */
int sj_speed(const cJSON *obj, const char *key, double *out, const char *path,
             struct dcb_err *err);
/* A time given in the key's unit (scale ns per unit, e.g. 1000 for "_us"): a number >= 0, or
 * a string with a unit ("5us"). */
int sj_time(const cJSON *obj, const char *key, int64_t scale, int64_t *out, const char *path,
            struct dcb_err *err);
int sj_bool(const cJSON *obj, const char *key, bool *out, const char *path, struct dcb_err *err);
/* A string of 1..max-1 characters; *out points into obj. */
int sj_string(const cJSON *obj, const char *key, size_t max, const char **out, const char *path,
              struct dcb_err *err);
int sj_need(const cJSON *obj, const char *key, const char *path, struct dcb_err *err);

#endif
