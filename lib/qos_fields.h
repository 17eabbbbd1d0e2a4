/* Internal: the table of QoS config fields behind qos_config.h. */
#ifndef DCB_QOS_FIELDS_H
#define DCB_QOS_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "qos_config.h"

enum qos_field_type {
    QF_INT, /* whole number in [min, max] */
    QF_PERCENT,
    QF_MASK, /* priority bit mask 0x00-0xff */
    QF_BOOL,
    QF_ENUM,
    QF_BYTES,
    QF_SPEED,  /* bits per second */
    QF_MBPS,   /* megabits per second */
    QF_MS,     /* stored in milliseconds */
    QF_US,     /* stored in microseconds */
    QF_LENGTH, /* stored in millimetres, shown in metres */
    QF_APP,    /* the APP table */
};

struct qos_enum {
    const char *name;
    int64_t value;
};

struct qos_field {
    const char *pattern; /* canonical path; '#' is an index below count */
    const char *alias;   /* the same field without its switch./nic. prefix, or NULL */
    enum qos_field_type type;
    int count; /* 0 for a scalar */
    size_t offset, stride;
    int64_t min, max;
    const struct qos_enum *names;
    const char *help;
};

extern const struct qos_field qos_fields[];
extern const size_t qos_field_count;

const struct qos_field *qos_find_field(const char *path, int *index);
void qos_field_path(const struct qos_field *f, int index, char *buf, size_t len);
/* The stored value of field f at index (ignored for scalars); NULL for the APP table. */
const struct qos_val *qos_field_value(const struct qos_config *c, const struct qos_field *f,
                                      int index);
/* The field whose canonical pattern or alias is exactly pattern ('#' for the index), or NULL. */
const struct qos_field *qos_find_pattern(const char *pattern);
/* The name of enum value v of field f, or NULL. */
const char *qos_enum_name(const struct qos_field *f, int64_t v);
void qos_format_value(const struct qos_field *f, int64_t v, char *buf, size_t len);

#endif
