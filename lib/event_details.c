#include "event_details.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "out.h"
#include "utf8.h"

/* One byte is kept back for the closing brace. */
static size_t room(const struct event_details *d)
{
    return sizeof(d->json) - 1 - d->len;
}

void event_details_init(struct event_details *d)
{
    d->json[0] = '{';
    d->json[1] = '\0';
    d->len = 1;
    d->full = false;
}

/* The separator and the escaped key; false once the object is full. */
static bool put_key(struct event_details *d, const char *key)
{
    if (d->full)
        return false;
    if (d->len > 1) {
        if (room(d) < 2) {
            d->full = true;
            return false;
        }
        d->json[d->len++] = ',';
    }
    size_t n = out_json_string_buf(d->json + d->len, room(d), key);
    if (n + 1 >= room(d)) {
        d->full = true;
        return false;
    }
    d->len += n;
    d->json[d->len++] = ':';
    d->json[d->len] = '\0';
    return true;
}

static void put_literal(struct event_details *d, const char *key, const char *literal)
{
    if (!put_key(d, key))
        return;
    size_t n = strlen(literal);
    if (n >= room(d)) {
        d->full = true;
        return;
    }
    memcpy(d->json + d->len, literal, n + 1);
    d->len += n;
}

void event_details_str(struct event_details *d, const char *key, const char *value)
{
    if (!put_key(d, key))
        return;
    size_t n = out_json_string_buf(d->json + d->len, room(d), value);
    if (n >= room(d)) {
        d->full = true;
        return;
    }
    d->len += n;
}

void event_details_u64(struct event_details *d, const char *key, uint64_t value)
{
    char digits[24];
    snprintf(digits, sizeof(digits), "%" PRIu64, value);
    put_literal(d, key, digits);
}

void event_details_i64(struct event_details *d, const char *key, int64_t value)
{
    char digits[24];
    snprintf(digits, sizeof(digits), "%" PRId64, value);
    put_literal(d, key, digits);
}

void event_details_bool(struct event_details *d, const char *key, bool value)
{
    put_literal(d, key, value ? "true" : "false");
}

void event_details_fixed(struct event_details *d, const char *key, double value, int decimals)
{
    char number[64];
    if (!isfinite(value) || fabs(value) >= 1e18)
        snprintf(number, sizeof(number), "null");
    else
        snprintf(number, sizeof(number), "%.*f",
                 decimals < 0   ? 0
                 : decimals > 9 ? 9
                                : decimals,
                 value);
    put_literal(d, key, number);
}

const char *event_details_json(struct event_details *d)
{
    if (d->full)
        return "{\"truncated\":true}";
    d->json[d->len] = '}';
    d->json[d->len + 1] = '\0';
    return d->json;
}

bool event_details_valid(const char *json)
{
    for (const unsigned char *p = (const unsigned char *)json; *p;) {
        size_t n = *p < 0x20 ? 0 : dcb_utf8_seq_len(p, NULL);
        if (n == 0)
            return false;
        p += n;
    }
    cJSON *j = cJSON_ParseWithOpts(json, NULL, true);
    bool object = cJSON_IsObject(j);
    cJSON_Delete(j);
    return object;
}
