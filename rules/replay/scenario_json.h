/* Internal to rules/replay: strict readers for the JSON users write (scenarios, workloads).
 * Each takes the object, the key and the path of the object ("workload", "faults[2]") and
 * names "path.key" in its error. A missing key leaves *out alone and returns 0 (optional) or
 * an error (scenario_json_need()). */
#ifndef DCB_SCENARIO_JSON_H
#define DCB_SCENARIO_JSON_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "replay.h"

/* The ranges of the scenario keys that scale time or size (docs/scenario.md, "Ranges and
 * limits"), within what replay_run() accepts. */
#define SJ_BYTES_MAX                                                                   \
    100000000000ULL               /* a flow's bytes, a ring's message: 100 GB, so that \
                                     at 64 bytes a packet its PSN stays below 2^32 */
#define SJ_XOFF_MAX 1000000000ULL /* a slow receiver's XOFF threshold: 1 GB */
#define SJ_MEMORY_MIN 16000000ULL /* max_memory_bytes: 16 MB to 1 TB */
#define SJ_MEMORY_MAX 1000000000000ULL

int scenario_json_keys(const cJSON *obj, const char *const *allowed, const char *path,
                       struct dcb_err *err);
/* An object (or the path's type error). */
int scenario_json_object(const cJSON *obj, const char *path, struct dcb_err *err);
/* A whole number in [lo, hi]. */
int scenario_json_int(const cJSON *obj, const char *key, int64_t lo, int64_t hi, int64_t *out,
                      const char *path, struct dcb_err *err);
/* The readers below refuse a value outside [lo, hi] with "path.key: VALUE is out of range
 * (LO to HI)", sizes and speeds in units ("100GB", "1.6T"), times in the key's unit. */
/* A number of bytes: 1000000 or "1MB". */
int scenario_json_bytes(const cJSON *obj, const char *key, uint64_t lo, uint64_t hi, uint64_t *out,
                        const char *path, struct dcb_err *err);
/* Bits per second: 25e9 or "25G". */
int scenario_json_speed(const cJSON *obj, const char *key, uint64_t lo, uint64_t hi, double *out,
                        const char *path, struct dcb_err *err);
/* A time given in the key's unit (scale ns per unit, e.g. 1000 for "_us"): a number, or a
 * string with a unit ("5us"), from lo_ns to hi_ns; with zero, 0 too (none). */
struct scenario_json_span {
    int64_t lo_ns, hi_ns;
    bool zero;
};
int scenario_json_time(const cJSON *obj, const char *key, int64_t scale,
                       const struct scenario_json_span *span, int64_t *out, const char *path,
                       struct dcb_err *err);
/* "(LO to HI)" of a time key in its unit (scale ns per unit), for messages. */
void scenario_json_span_text(const struct scenario_json_span *span, int64_t scale, char *buf,
                             size_t len);
int scenario_json_bool(const cJSON *obj, const char *key, bool *out, const char *path,
                       struct dcb_err *err);
/* A string of 1..max-1 characters; *out points into obj. */
int scenario_json_string(const cJSON *obj, const char *key, size_t max, const char **out,
                         const char *path, struct dcb_err *err);
int scenario_json_need(const cJSON *obj, const char *key, const char *path, struct dcb_err *err);

#endif
