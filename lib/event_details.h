/* An event's details object built key by key, so that no name from a device, a frame or a
 * dump is ever spliced into JSON text: strings go through the JSON writer's escaping
 * (out_json_string_buf), so a counter named rx_"evil" stays one string.
 *
 *     struct event_details d;
 *     event_details_init(&d);
 *     event_details_str(&d, "counter", c->raw);
 *     event_details_u64(&d, "previous", prev);
 *     dcb_event_set(&e, ..., event_details_json(&d));
 *
 * An object that would not fit in DCB_DETAILS_MAX becomes {"truncated":true}, as dcb_event_set
 * makes of one passed whole: a cut object would not parse. */
#ifndef DCB_EVENT_DETAILS_H
#define DCB_EVENT_DETAILS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample.h"

struct event_details {
    char json[DCB_DETAILS_MAX];
    size_t len; /* bytes used, the closing brace not yet written */
    bool full;  /* something did not fit: the object is {"truncated":true} */
};

void event_details_init(struct event_details *d);
void event_details_str(struct event_details *d, const char *key, const char *value);
void event_details_u64(struct event_details *d, const char *key, uint64_t value);
void event_details_i64(struct event_details *d, const char *key, int64_t value);
void event_details_bool(struct event_details *d, const char *key, bool value);
/* value with a fixed number of decimals; null if it is not finite */
void event_details_fixed(struct event_details *d, const char *key, double value, int decimals);
/* The object, closed; d stays valid for more keys only after another event_details_init. */
const char *event_details_json(struct event_details *d);

/* True if json is one JSON object a strict reader accepts (valid UTF-8, no raw control byte):
 * what every writer since the builder stores; a store written before may hold worse. */
bool event_details_valid(const char *json);

#endif
