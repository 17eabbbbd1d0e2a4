/* gNMI requests (encoded with protobuf-c) and the flattening of responses into leaves: one
 * (path, scalar value) per leaf, whether the target sent scalar TypedValues or a JSON / JSON_IETF
 * subtree (parsed with cJSON; RFC 7951 module prefixes dropped; list entries become [key=value]
 * from their "name", "index" or "*-id"/"id" member). Numbers sent as strings (SONiC's
 * COUNTERS_DB) stay strings here; gnmi_leaf_number() reads them. */
#ifndef DCB_GNMI_MSG_H
#define DCB_GNMI_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "gnmi.pb-c.h"

enum gnmi_mode { GNMI_STREAM = 0, GNMI_ONCE = 1, GNMI_POLL = 2 };
enum gnmi_stream_mode { GNMI_TARGET_DEFINED = 0, GNMI_ON_CHANGE = 1, GNMI_SAMPLE = 2 };
enum gnmi_encoding {
    GNMI_ENC_JSON = 0,
    GNMI_ENC_BYTES = 1,
    GNMI_ENC_PROTO = 2,
    GNMI_ENC_ASCII = 3,
    GNMI_ENC_JSON_IETF = 4
};

#define GNMI_MAX_PATHS 64

struct gnmi_request {
    const char *target; /* prefix target (SONiC: COUNTERS_DB), or NULL */
    const char *prefix; /* prefix path text, or NULL */
    const char *paths[GNMI_MAX_PATHS];
    size_t npaths;
    enum gnmi_encoding encoding;
    /* Subscribe */
    enum gnmi_mode mode;
    enum gnmi_stream_mode stream_mode;
    uint64_t sample_interval_ns;
    bool updates_only;
    /* Get: 0 ALL, 1 CONFIG, 2 STATE, 3 OPERATIONAL */
    int get_type;
};

/* Encoded messages in a malloc'ed buffer (free it). */
int gnmi_encode_get(const struct gnmi_request *r, uint8_t **buf, size_t *len, struct dcb_err *err);
int gnmi_encode_subscribe(const struct gnmi_request *r, uint8_t **buf, size_t *len,
                          struct dcb_err *err);
int gnmi_encode_poll(uint8_t **buf, size_t *len, struct dcb_err *err);

int gnmi_encoding_parse(const char *s, enum gnmi_encoding *out);
const char *gnmi_encoding_name(int e);

enum gnmi_val_kind {
    GNMI_VAL_STRING,
    GNMI_VAL_INT,
    GNMI_VAL_UINT,
    GNMI_VAL_DOUBLE,
    GNMI_VAL_BOOL,
    GNMI_VAL_NULL,
    GNMI_VAL_DELETE
};

struct gnmi_leaf {
    int64_t time_ns;
    const char *target; /* "" when the prefix names none */
    const char *origin;
    const char *path; /* "/a/b[k=v]/c" */
    enum gnmi_val_kind kind;
    const char *s; /* GNMI_VAL_STRING */
    int64_t i;
    uint64_t u;
    double d;
    bool b;
};

/* A negative return stops the walk and is passed back. */
typedef int (*gnmi_leaf_fn)(const struct gnmi_leaf *leaf, void *arg);

/* Walks every leaf of a notification (updates, then deletes). Returns the number of leaves, or
 * a negative error (a JSON value that does not parse is an error naming the path). */
int gnmi_notification_leaves(const Gnmi__Notification *n, gnmi_leaf_fn fn, void *arg,
                             struct dcb_err *err);

/* The leaf as a number: integers, doubles, booleans and numeric strings ("123", "1.5e3").
 * Returns true when it is one; *u holds it when it is a non-negative integer (is_uint). */
bool gnmi_leaf_number(const struct gnmi_leaf *l, double *d, uint64_t *u, bool *is_uint);
/* The value as text (for printing). */
void gnmi_leaf_text(const struct gnmi_leaf *l, char *buf, size_t len);

#endif
