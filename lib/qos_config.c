/* The QoS config model: one table of fields drives set, get, merge, diff and JSON. */
#include "qos_config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "qos_fields.h"
#include "units.h"

void qos_config_init(struct qos_config *c)
{
    memset(c, 0, sizeof(*c));
}

static struct qos_val *field_val(struct qos_config *c, const struct qos_field *f, int index)
{
    return (struct qos_val *)((char *)c + f->offset + (size_t)(index < 0 ? 0 : index) * f->stride);
}

static const struct qos_val *field_cval(const struct qos_config *c, const struct qos_field *f,
                                        int index)
{
    return field_val((struct qos_config *)c, f, index);
}

/* Matches path against a pattern where '#' stands for an index below count. */
static bool match_pattern(const char *pattern, const char *path, int count, int *index)
{
    *index = -1;
    while (*pattern && *path) {
        if (*pattern == '#') {
            if (!isdigit((unsigned char)*path))
                return false;
            long v = 0;
            int digits = 0;
            while (isdigit((unsigned char)*path)) {
                v = v * 10 + (*path++ - '0');
                if (++digits > 4)
                    return false;
            }
            if (v >= count)
                return false;
            *index = (int)v;
            pattern++;
            continue;
        }
        if (*pattern != *path)
            return false;
        pattern++;
        path++;
    }
    return *pattern == '\0' && *path == '\0';
}

const struct qos_field *qos_find_field(const char *path, int *index)
{
    for (size_t i = 0; i < qos_field_count; i++) {
        const struct qos_field *f = &qos_fields[i];
        if (match_pattern(f->pattern, path, f->count, index))
            return f;
        if (f->alias && match_pattern(f->alias, path, f->count, index))
            return f;
    }
    return NULL;
}

void qos_field_path(const struct qos_field *f, int index, char *buf, size_t len)
{
    const char *hash = strchr(f->pattern, '#');
    if (!hash || index < 0)
        snprintf(buf, len, "%s", f->pattern);
    else
        snprintf(buf, len, "%.*s%d%s", (int)(hash - f->pattern), f->pattern, index, hash + 1);
}

static const char *enum_name(const struct qos_field *f, int64_t v)
{
    for (const struct qos_enum *e = f->names; e && e->name; e++)
        if (e->value == v)
            return e->name;
    return NULL;
}

const char *qos_enum_name(const struct qos_field *f, int64_t v)
{
    return enum_name(f, v);
}

const struct qos_val *qos_field_value(const struct qos_config *c, const struct qos_field *f,
                                      int index)
{
    if (f->type == QF_APP)
        return NULL;
    return field_val((struct qos_config *)c, f, index);
}

const struct qos_field *qos_find_pattern(const char *pattern)
{
    for (size_t i = 0; i < qos_field_count; i++) {
        const struct qos_field *f = &qos_fields[i];
        if (!strcmp(f->pattern, pattern) || (f->alias && !strcmp(f->alias, pattern)))
            return f;
    }
    return NULL;
}

static int parse_int(const char *text, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 0);
    while (isspace((unsigned char)*end))
        end++;
    if (errno || end == text || *end)
        return -1;
    *out = v;
    return 0;
}

static bool has_unit(const char *text)
{
    size_t n = strlen(text);
    while (n && isspace((unsigned char)text[n - 1]))
        n--;
    return n && isalpha((unsigned char)text[n - 1]);
}

/* Parses text for field f; on error fills err naming path. */
static int parse_value(const struct qos_field *f, const char *path, const char *text, int64_t *out,
                       struct dcb_err *err)
{
    struct dcb_err uerr;
    uint64_t u;
    int64_t ns;
    switch (f->type) {
    case QF_BOOL:
        if (!strcasecmp(text, "true") || !strcasecmp(text, "yes") || !strcasecmp(text, "on") ||
            !strcmp(text, "1"))
            *out = 1;
        else if (!strcasecmp(text, "false") || !strcasecmp(text, "no") ||
                 !strcasecmp(text, "off") || !strcmp(text, "0"))
            *out = 0;
        else
            return dcb_err_set(err, DCB_E_INVAL, "%s: '%s' is not true or false", path, text);
        return 0;
    case QF_ENUM:
        for (const struct qos_enum *e = f->names; e->name; e++) {
            if (!strcasecmp(e->name, text)) {
                *out = e->value;
                return 0;
            }
        }
        if (parse_int(text, out) == 0 && enum_name(f, *out))
            return 0;
        {
            char choices[128] = "";
            for (const struct qos_enum *e = f->names; e->name; e++) {
                strncat(choices, e->name, sizeof(choices) - strlen(choices) - 2);
                if (e[1].name)
                    strncat(choices, "|", sizeof(choices) - strlen(choices) - 1);
            }
            return dcb_err_set(err, DCB_E_INVAL, "%s: '%s' is not one of %s", path, text, choices);
        }
    case QF_BYTES:
        if (dcb_parse_bytes(text, &u, &uerr) < 0)
            return dcb_err_set(err, uerr.code, "%s: %s", path, uerr.msg);
        if (u > INT64_MAX)
            return dcb_err_set(err, DCB_E_RANGE, "%s: '%s' is too large", path, text);
        *out = (int64_t)u;
        break;
    case QF_SPEED:
        if (dcb_parse_speed(text, &u, &uerr) < 0)
            return dcb_err_set(err, uerr.code, "%s: %s", path, uerr.msg);
        if (u > INT64_MAX)
            return dcb_err_set(err, DCB_E_RANGE, "%s: '%s' is too large", path, text);
        *out = (int64_t)u;
        break;
    case QF_MBPS:
        if (has_unit(text)) {
            if (dcb_parse_speed(text, &u, &uerr) < 0)
                return dcb_err_set(err, uerr.code, "%s: %s", path, uerr.msg);
            *out = (int64_t)(u / 1000000);
        } else if (parse_int(text, out) < 0) {
            return dcb_err_set(err, DCB_E_INVAL, "%s: '%s' is not a rate in Mb/s", path, text);
        }
        break;
    case QF_MS:
    case QF_US:
        if (has_unit(text)) {
            if (dcb_parse_duration(text, &ns, &uerr) < 0)
                return dcb_err_set(err, uerr.code, "%s: %s", path, uerr.msg);
            int64_t unit = f->type == QF_MS ? 1000000 : 1000;
            if (ns % unit)
                return dcb_err_set(err, DCB_E_INVAL, "%s: '%s' is not a whole number of %s", path,
                                   text, f->type == QF_MS ? "ms" : "us");
            *out = ns / unit;
        } else if (parse_int(text, out) < 0) {
            return dcb_err_set(err, DCB_E_INVAL, "%s: '%s' is not a duration", path, text);
        }
        break;
    case QF_LENGTH:
        if (dcb_parse_length(text, &u, &uerr) < 0)
            return dcb_err_set(err, uerr.code, "%s: %s", path, uerr.msg);
        if (u > INT64_MAX)
            return dcb_err_set(err, DCB_E_RANGE, "%s: '%s' is too long", path, text);
        *out = (int64_t)u;
        break;
    case QF_MASK:
        if (parse_int(text, out) < 0)
            return dcb_err_set(err, DCB_E_INVAL, "%s: '%s' is not a priority bit mask", path, text);
        if (*out < 0)
            return dcb_err_set(err, DCB_E_RANGE, "%s: %s is negative", path, text);
        if (*out > 0xff)
            return dcb_err_set(err, DCB_E_RANGE, "%s: 0x%" PRIx64 " has bits above priority 7",
                               path, (uint64_t)*out);
        return 0;
    case QF_INT:
    case QF_PERCENT:
        if (parse_int(text, out) < 0)
            return dcb_err_set(err, DCB_E_INVAL, "%s: '%s' is not a whole number", path, text);
        break;
    case QF_APP: return dcb_err_set(err, DCB_E_INVAL, "%s: not a scalar", path);
    }
    if (*out < f->min || *out > f->max)
        return dcb_err_set(err, DCB_E_RANGE, "%s: %s is out of range (%" PRId64 " to %" PRId64 ")",
                           path, text, f->min, f->max);
    return 0;
}

/* "sel:proto:prio,sel:proto:prio" */
static int parse_app(struct qos_config *c, const char *path, const char *text, struct dcb_err *err)
{
    struct qos_config tmp = *c;
    tmp.napp = 0;
    const char *p = text;
    while (*p) {
        long sel, proto, prio;
        char *end;
        errno = 0;
        sel = strtol(p, &end, 10);
        bool ok = end != p && *end == ':';
        if (ok) {
            p = end + 1;
            proto = strtol(p, &end, 0);
            ok = end != p && *end == ':';
        }
        if (ok) {
            p = end + 1;
            prio = strtol(p, &end, 10);
            ok = end != p && errno == 0;
        }
        if (!ok)
            return dcb_err_set(err, DCB_E_INVAL,
                               "%s: '%s' is not a list of selector:protocol:priority", path, text);
        if (sel < 1 || sel > 5 || proto < 0 || proto > 0xffff || prio < 0 || prio > 7 ||
            (sel == 5 && proto > 63))
            return dcb_err_set(err, DCB_E_RANGE,
                               "%s: entry %ld:%ld:%ld out of range (selector 1-5, protocol "
                               "0-65535, DSCP 0-63, priority 0-7)",
                               path, sel, proto, prio);
        if (tmp.napp == QOS_APP_MAX)
            return dcb_err_set(err, DCB_E_RANGE, "%s: more than %d entries", path, QOS_APP_MAX);
        tmp.app[tmp.napp++] = (struct qos_app){ (uint8_t)sel, (uint16_t)proto, (uint8_t)prio };
        p = end;
        while (*p == ',' || isspace((unsigned char)*p))
            p++;
    }
    c->napp = tmp.napp;
    memcpy(c->app, tmp.app, sizeof(c->app));
    c->app_set = true;
    return 0;
}

static void format_app(const struct qos_config *c, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < c->napp && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%u:%u:%u", i ? "," : "",
                                 c->app[i].selector, c->app[i].protocol, c->app[i].prio);
}

void qos_format_value(const struct qos_field *f, int64_t v, char *buf, size_t len)
{
    char human[DCB_UNIT_BUF];
    uint64_t back = 0;
    switch (f->type) {
    case QF_BOOL: snprintf(buf, len, "%s", v ? "true" : "false"); return;
    case QF_ENUM: {
        const char *name = enum_name(f, v);
        if (name)
            snprintf(buf, len, "%s", name);
        else
            snprintf(buf, len, "%" PRId64, v);
        return;
    }
    case QF_MASK: snprintf(buf, len, "0x%02" PRIx64, (uint64_t)v); return;
    case QF_SPEED:
        dcb_fmt_speed((uint64_t)v, human, sizeof(human));
        if (dcb_parse_speed(human, &back, NULL) == 0 && back == (uint64_t)v)
            snprintf(buf, len, "%s", human);
        else
            snprintf(buf, len, "%" PRId64, v);
        return;
    case QF_LENGTH:
        snprintf(buf, len, "%s", dcb_fmt_length((uint64_t)v, human, sizeof(human)));
        return;
    case QF_MS: snprintf(buf, len, "%" PRId64 "ms", v); return;
    case QF_US: snprintf(buf, len, "%" PRId64 "us", v); return;
    default: snprintf(buf, len, "%" PRId64, v); return;
    }
}

int qos_set(struct qos_config *c, const char *path, const char *value, struct dcb_err *err)
{
    int index;
    const struct qos_field *f = qos_find_field(path, &index);
    if (!f)
        return dcb_err_set(err, DCB_E_NOTFOUND, "%s: no such setting (see 'dcbkit fabric paths')",
                           path);
    char canon[QOS_PATH_MAX];
    qos_field_path(f, index, canon, sizeof(canon));
    if (!value)
        return dcb_err_set(err, DCB_E_INVAL, "%s: no value", canon);
    while (isspace((unsigned char)*value))
        value++;
    if (f->type == QF_APP)
        return parse_app(c, canon, value, err);
    int64_t v = 0;
    int rc = parse_value(f, canon, value, &v, err);
    if (rc < 0)
        return rc;
    struct qos_val *slot = field_val(c, f, index);
    slot->v = v;
    slot->set = true;
    return 0;
}

int qos_set_assignment(struct qos_config *c, const char *assignment, struct dcb_err *err)
{
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment)
        return dcb_err_set(err, DCB_E_INVAL, "'%s': expected path=value", assignment);
    char path[QOS_PATH_MAX];
    size_t n = (size_t)(eq - assignment);
    if (n >= sizeof(path))
        return dcb_err_set(err, DCB_E_INVAL, "'%.*s': path too long", (int)n, assignment);
    memcpy(path, assignment, n);
    path[n] = '\0';
    return qos_set(c, path, eq + 1, err);
}

int qos_unset(struct qos_config *c, const char *path, struct dcb_err *err)
{
    int index;
    const struct qos_field *f = qos_find_field(path, &index);
    if (!f)
        return dcb_err_set(err, DCB_E_NOTFOUND, "%s: no such setting", path);
    if (f->type == QF_APP) {
        c->app_set = false;
        c->napp = 0;
    } else {
        field_val(c, f, index)->set = false;
    }
    return 0;
}

int qos_get(const struct qos_config *c, const char *path, char *buf, size_t len,
            struct dcb_err *err)
{
    int index;
    const struct qos_field *f = qos_find_field(path, &index);
    if (!f)
        return dcb_err_set(err, DCB_E_NOTFOUND, "%s: no such setting", path);
    if (f->type == QF_APP) {
        if (!c->app_set)
            return dcb_err_set(err, DCB_E_NOTFOUND, "%s: unknown", path);
        format_app(c, buf, len);
        return 0;
    }
    const struct qos_val *slot = field_cval(c, f, index);
    if (!slot->set)
        return dcb_err_set(err, DCB_E_NOTFOUND, "%s: unknown", path);
    qos_format_value(f, slot->v, buf, len);
    return 0;
}

void qos_merge(struct qos_config *dst, const struct qos_config *src)
{
    for (size_t i = 0; i < qos_field_count; i++) {
        const struct qos_field *f = &qos_fields[i];
        if (f->type == QF_APP) {
            if (src->app_set) {
                dst->app_set = true;
                dst->napp = src->napp;
                memcpy(dst->app, src->app, sizeof(dst->app));
            }
            continue;
        }
        int n = f->count ? f->count : 1;
        for (int k = 0; k < n; k++) {
            const struct qos_val *s = field_cval(src, f, f->count ? k : -1);
            if (s->set)
                *field_val(dst, f, f->count ? k : -1) = *s;
        }
    }
}

/* Calls visit(path, text-or-NULL) for every field instance of c. */
static void each_instance(const struct qos_config *c,
                          void (*visit)(const struct qos_field *f, int index, const char *path,
                                        const char *text, void *arg),
                          void *arg)
{
    char path[QOS_PATH_MAX], text[QOS_TEXT_MAX];
    for (size_t i = 0; i < qos_field_count; i++) {
        const struct qos_field *f = &qos_fields[i];
        if (f->type == QF_APP) {
            format_app(c, text, sizeof(text));
            visit(f, -1, f->pattern, c->app_set ? text : NULL, arg);
            continue;
        }
        int n = f->count ? f->count : 1;
        for (int k = 0; k < n; k++) {
            int index = f->count ? k : -1;
            qos_field_path(f, index, path, sizeof(path));
            const struct qos_val *v = field_cval(c, f, index);
            if (v->set)
                qos_format_value(f, v->v, text, sizeof(text));
            visit(f, index, path, v->set ? text : NULL, arg);
        }
    }
}

struct each_field_arg {
    qos_field_fn fn;
    void *arg;
};

static void each_field_visit(const struct qos_field *f, int index, const char *path,
                             const char *text, void *arg)
{
    (void)index;
    struct each_field_arg *a = arg;
    a->fn(path, text, f->help, a->arg);
}

void qos_each_field(const struct qos_config *c, qos_field_fn fn, void *arg)
{
    struct each_field_arg a = { fn, arg };
    each_instance(c, each_field_visit, &a);
}

struct each_value_arg {
    const struct qos_config *c;
    qos_value_fn fn;
    void *arg;
};

static void each_value_visit(const struct qos_field *f, int index, const char *path,
                             const char *text, void *arg)
{
    struct each_value_arg *a = arg;
    if (f->type == QF_APP || !text)
        return;
    a->fn(path, field_cval(a->c, f, index)->v, a->arg);
}

void qos_each_value(const struct qos_config *c, qos_value_fn fn, void *arg)
{
    struct each_value_arg a = { c, fn, arg };
    each_instance(c, each_value_visit, &a);
}

int qos_set_raw(struct qos_config *c, const char *path, int64_t value, struct dcb_err *err)
{
    int index;
    const struct qos_field *f = qos_find_field(path, &index);
    if (!f || f->type == QF_APP)
        return dcb_err_set(err, DCB_E_NOTFOUND, "%s: no such numeric setting", path);
    if (value < f->min || value > f->max)
        return dcb_err_set(err, DCB_E_RANGE, "%s: %" PRId64 " is outside %" PRId64 "..%" PRId64,
                           path, value, f->min, f->max);
    struct qos_val *slot = field_val(c, f, index);
    slot->v = value;
    slot->set = true;
    return 0;
}

struct diff_arg {
    const struct qos_config *other;
    qos_diff_fn fn;
    void *arg;
    int count;
};

static void diff_visit(const struct qos_field *f, int index, const char *path, const char *text,
                       void *arg)
{
    struct diff_arg *d = arg;
    char other[QOS_TEXT_MAX];
    const char *other_text = NULL;
    if (f->type == QF_APP) {
        if (d->other->app_set) {
            format_app(d->other, other, sizeof(other));
            other_text = other;
        }
    } else {
        const struct qos_val *v = field_cval(d->other, f, index);
        if (v->set) {
            qos_format_value(f, v->v, other, sizeof(other));
            other_text = other;
        }
    }
    bool same = (!text && !other_text) || (text && other_text && strcmp(text, other_text) == 0);
    if (!same) {
        d->count++;
        if (d->fn)
            d->fn(path, text, other_text, d->arg);
    }
}

int qos_diff(const struct qos_config *a, const struct qos_config *b, qos_diff_fn fn, void *arg)
{
    struct diff_arg d = { b, fn, arg, 0 };
    each_instance(a, diff_visit, &d);
    return d.count;
}

int qos_validate(const struct qos_config *c, const char *prefix, struct dcb_err *err)
{
    if (!prefix)
        prefix = "";
    for (int tc = 0; tc < 8; tc++) {
        const struct qos_wred *w = &c->wred[tc];
        if (w->min_bytes.set && w->max_bytes.set && w->min_bytes.v > w->max_bytes.v)
            return dcb_err_set(err, DCB_E_INVAL,
                               "%sswitch.wred.%d.min_bytes: %" PRId64
                               " is above max_bytes %" PRId64,
                               prefix, tc, w->min_bytes.v, w->max_bytes.v);
    }
    int64_t bw = 0;
    int known = 0;
    for (int tc = 0; tc < 8; tc++) {
        if (c->ets_bw[tc].set) {
            bw += c->ets_bw[tc].v;
            known++;
        }
    }
    if (known == 8 && bw != 100 && bw != 0)
        return dcb_err_set(err, DCB_E_INVAL, "%sets.bw: sums to %" PRId64 "%%, not 100%%", prefix,
                           bw);
    return 0;
}
