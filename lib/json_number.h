/* Exact integers from JSON text. cJSON keeps every number as a double, exact only below 2^53:
 * nanosecond timestamps (about 2^60 today) and 64-bit counters need the number's own digits,
 * which this reads from the text of a top-level member. */
#ifndef DCB_JSON_NUMBER_H
#define DCB_JSON_NUMBER_H

#include <stdint.h>

enum json_uint {
    JSON_UINT_EXACT, /* a plain run of digits that fits: *out holds it */
    JSON_UINT_OTHER, /* absent, not a number, or written with a sign, fraction or
                      * exponent, or past 2^64-1: read the double as before */
};

/* The top-level member key of the JSON object in text (text must already parse: cJSON said so;
 * the first of duplicate keys, as cJSON_GetObjectItem finds it). */
enum json_uint json_top_uint(const char *text, const char *key, uint64_t *out);

#endif
