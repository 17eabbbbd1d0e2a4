#include "gnmi_msg.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnmi_path.h"

static const char *const encoding_names[] = { "json", "bytes", "proto", "ascii", "json_ietf" };

int gnmi_encoding_parse(const char *s, enum gnmi_encoding *out)
{
    for (size_t i = 0; i < sizeof(encoding_names) / sizeof(encoding_names[0]); i++) {
        if (!strcasecmp(s, encoding_names[i]) ||
            (i == GNMI_ENC_JSON_IETF && !strcasecmp(s, "json-ietf"))) {
            *out = (enum gnmi_encoding)i;
            return 0;
        }
    }
    return DCB_E_INVAL;
}

const char *gnmi_encoding_name(int e)
{
    if (e >= 0 && (size_t)e < sizeof(encoding_names) / sizeof(encoding_names[0]))
        return encoding_names[e];
    return "unknown";
}

static int pack(const ProtobufCMessage *m, uint8_t **buf, size_t *len, struct dcb_err *err)
{
    size_t n = protobuf_c_message_get_packed_size(m);
    *buf = malloc(n ? n : 1);
    if (!*buf)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    *len = protobuf_c_message_pack(m, *buf);
    return 0;
}

struct paths {
    Gnmi__Path *prefix;
    Gnmi__Path *path[GNMI_MAX_PATHS];
    size_t n;
};

static void paths_free(struct paths *p)
{
    gnmi_path_free(p->prefix);
    for (size_t i = 0; i < p->n; i++)
        gnmi_path_free(p->path[i]);
}

static int paths_parse(const struct gnmi_request *r, struct paths *p, struct dcb_err *err)
{
    memset(p, 0, sizeof(*p));
    int rc = 0;
    if (r->prefix || r->target)
        rc = gnmi_path_parse(r->prefix ? r->prefix : "", r->target, &p->prefix, err);
    for (size_t i = 0; rc == 0 && i < r->npaths && i < GNMI_MAX_PATHS; i++) {
        rc = gnmi_path_parse(r->paths[i], NULL, &p->path[i], err);
        if (rc == 0)
            p->n++;
    }
    if (rc < 0)
        paths_free(p);
    return rc;
}

int gnmi_encode_get(const struct gnmi_request *r, uint8_t **buf, size_t *len, struct dcb_err *err)
{
    struct paths p;
    int rc = paths_parse(r, &p, err);
    if (rc < 0)
        return rc;
    Gnmi__GetRequest g;
    gnmi__get_request__init(&g);
    g.prefix = p.prefix;
    g.path = p.path;
    g.n_path = p.n;
    g.type = (Gnmi__GetRequest__DataType)r->get_type;
    g.encoding = (Gnmi__Encoding)r->encoding;
    rc = pack(&g.base, buf, len, err);
    paths_free(&p);
    return rc;
}

int gnmi_encode_subscribe(const struct gnmi_request *r, uint8_t **buf, size_t *len,
                          struct dcb_err *err)
{
    struct paths p;
    int rc = paths_parse(r, &p, err);
    if (rc < 0)
        return rc;
    Gnmi__Subscription subs[GNMI_MAX_PATHS];
    Gnmi__Subscription *subp[GNMI_MAX_PATHS];
    for (size_t i = 0; i < p.n; i++) {
        gnmi__subscription__init(&subs[i]);
        subs[i].path = p.path[i];
        if (r->mode == GNMI_STREAM) {
            subs[i].mode = (Gnmi__SubscriptionMode)r->stream_mode;
            if (r->stream_mode == GNMI_SAMPLE)
                subs[i].sample_interval = r->sample_interval_ns;
        }
        subp[i] = &subs[i];
    }
    Gnmi__SubscriptionList list;
    gnmi__subscription_list__init(&list);
    list.prefix = p.prefix;
    list.subscription = subp;
    list.n_subscription = p.n;
    list.mode = (Gnmi__SubscriptionList__Mode)r->mode;
    list.encoding = (Gnmi__Encoding)r->encoding;
    list.updates_only = r->updates_only;
    Gnmi__SubscribeRequest req;
    gnmi__subscribe_request__init(&req);
    req.request_case = GNMI__SUBSCRIBE_REQUEST__REQUEST_SUBSCRIBE;
    req.subscribe = &list;
    rc = pack(&req.base, buf, len, err);
    paths_free(&p);
    return rc;
}

int gnmi_encode_poll(uint8_t **buf, size_t *len, struct dcb_err *err)
{
    Gnmi__Poll poll;
    gnmi__poll__init(&poll);
    Gnmi__SubscribeRequest req;
    gnmi__subscribe_request__init(&req);
    req.request_case = GNMI__SUBSCRIBE_REQUEST__REQUEST_POLL;
    req.poll = &poll;
    return pack(&req.base, buf, len, err);
}

/* ---- flattening ---------------------------------------------------------------------------- */

struct walk {
    gnmi_leaf_fn fn;
    void *arg;
    struct gnmi_leaf leaf;
    char path[GNMI_PATH_MAX];
    int count;
    struct dcb_err *err;
};

static int emit(struct walk *w, size_t plen)
{
    w->path[plen] = '\0';
    w->leaf.path = w->path;
    w->count++;
    return w->fn(&w->leaf, w->arg);
}

/* RFC 7951 qualifies a member with its module ("openconfig-interfaces:interfaces"). SONiC
 * keys also hold a colon ("Ethernet0:3", a port and a queue), so only a module-like name
 * followed by a name that starts with a letter is a qualifier. */
static const char *strip_module(const char *key)
{
    const char *c = strchr(key, ':');
    if (!c || c == key || !((c[1] >= 'a' && c[1] <= 'z') || (c[1] >= 'A' && c[1] <= 'Z')))
        return key;
    for (const char *p = key; p < c; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '_' || *p == '.'))
            return key;
    return c + 1;
}

/* The member that names a list entry: "name", "index", "id" or "*-id" holding a scalar. */
static const cJSON *list_key(const cJSON *obj)
{
    static const char *const prefer[] = { "name", "index", "id" };
    for (size_t i = 0; i < 3; i++) {
        const cJSON *c;
        cJSON_ArrayForEach(c, obj) {
            if (c->string && !strcmp(strip_module(c->string), prefer[i]) &&
                (cJSON_IsString(c) || cJSON_IsNumber(c)))
                return c;
        }
    }
    const cJSON *c;
    cJSON_ArrayForEach(c, obj) {
        size_t n = c->string ? strlen(c->string) : 0;
        if (n > 3 && !strcmp(c->string + n - 3, "-id") && (cJSON_IsString(c) || cJSON_IsNumber(c)))
            return c;
    }
    return NULL;
}

static int walk_json(struct walk *w, const cJSON *j, size_t plen, int depth);

static int walk_scalar(struct walk *w, const cJSON *j, size_t plen)
{
    struct gnmi_leaf *l = &w->leaf;
    if (cJSON_IsString(j)) {
        l->kind = GNMI_VAL_STRING;
        l->s = j->valuestring;
    } else if (cJSON_IsBool(j)) {
        l->kind = GNMI_VAL_BOOL;
        l->b = cJSON_IsTrue(j);
    } else if (cJSON_IsNumber(j)) {
        double d = j->valuedouble;
        if (d >= 0 && d < 18446744073709551616.0 && d == floor(d)) {
            l->kind = GNMI_VAL_UINT;
            l->u = (uint64_t)d;
        } else {
            l->kind = GNMI_VAL_DOUBLE;
            l->d = d;
        }
    } else {
        l->kind = GNMI_VAL_NULL;
    }
    return emit(w, plen);
}

static int walk_json(struct walk *w, const cJSON *j, size_t plen, int depth)
{
    if (depth > 32)
        return dcb_err_set(w->err, DCB_E_RANGE, "%s: JSON nested too deep", w->path);
    if (cJSON_IsObject(j)) {
        const cJSON *c;
        cJSON_ArrayForEach(c, j) {
            if (!c->string)
                continue;
            const char *name = strip_module(c->string);
            if (cJSON_IsArray(c)) {
                const cJSON *e;
                size_t idx = 0;
                cJSON_ArrayForEach(e, c) {
                    const cJSON *k = cJSON_IsObject(e) ? list_key(e) : NULL;
                    Gnmi__PathKey key = GNMI__PATH_KEY__INIT;
                    char num[32], idxs[32];
                    Gnmi__PathKey *kp = &key;
                    if (k) {
                        key.key = (char *)strip_module(k->string);
                        if (cJSON_IsString(k)) {
                            key.value = k->valuestring;
                        } else {
                            snprintf(num, sizeof(num), "%.17g", k->valuedouble);
                            key.value = num;
                        }
                    } else {
                        snprintf(idxs, sizeof(idxs), "%zu", idx);
                        key.key = (char *)"index";
                        key.value = idxs;
                    }
                    int l = gnmi_path_append_elem(w->path, sizeof(w->path), plen, name, &kp, 1);
                    if (l < 0)
                        return dcb_err_set(w->err, DCB_E_RANGE, "a path longer than %d bytes",
                                           GNMI_PATH_MAX);
                    int rc = cJSON_IsObject(e) || cJSON_IsArray(e)
                                 ? walk_json(w, e, (size_t)l, depth + 1)
                                 : walk_scalar(w, e, (size_t)l);
                    if (rc < 0)
                        return rc;
                    idx++;
                }
                continue;
            }
            int l = gnmi_path_append_elem(w->path, sizeof(w->path), plen, name, NULL, 0);
            if (l < 0)
                return dcb_err_set(w->err, DCB_E_RANGE, "a path longer than %d bytes",
                                   GNMI_PATH_MAX);
            int rc = cJSON_IsObject(c) ? walk_json(w, c, (size_t)l, depth + 1)
                                       : walk_scalar(w, c, (size_t)l);
            if (rc < 0)
                return rc;
        }
        w->path[plen] = '\0';
        return 0;
    }
    return walk_scalar(w, j, plen);
}

static int walk_typed(struct walk *w, const Gnmi__TypedValue *v, size_t plen)
{
    struct gnmi_leaf *l = &w->leaf;
    if (!v) {
        l->kind = GNMI_VAL_NULL;
        return emit(w, plen);
    }
    switch (v->value_case) {
    case GNMI__TYPED_VALUE__VALUE_STRING_VAL:
    case GNMI__TYPED_VALUE__VALUE_ASCII_VAL:
        l->kind = GNMI_VAL_STRING;
        l->s = v->value_case == GNMI__TYPED_VALUE__VALUE_STRING_VAL ? v->string_val : v->ascii_val;
        if (!l->s)
            l->s = "";
        return emit(w, plen);
    case GNMI__TYPED_VALUE__VALUE_INT_VAL:
        l->kind = GNMI_VAL_INT;
        l->i = v->int_val;
        return emit(w, plen);
    case GNMI__TYPED_VALUE__VALUE_UINT_VAL:
        l->kind = GNMI_VAL_UINT;
        l->u = v->uint_val;
        return emit(w, plen);
    case GNMI__TYPED_VALUE__VALUE_BOOL_VAL:
        l->kind = GNMI_VAL_BOOL;
        l->b = v->bool_val;
        return emit(w, plen);
    case GNMI__TYPED_VALUE__VALUE_FLOAT_VAL:
        l->kind = GNMI_VAL_DOUBLE;
        l->d = v->float_val;
        return emit(w, plen);
    case GNMI__TYPED_VALUE__VALUE_DOUBLE_VAL:
        l->kind = GNMI_VAL_DOUBLE;
        l->d = v->double_val;
        return emit(w, plen);
    case GNMI__TYPED_VALUE__VALUE_DECIMAL_VAL:
        l->kind = GNMI_VAL_DOUBLE;
        l->d = v->decimal_val
                   ? (double)v->decimal_val->digits /
                         pow(10.0, v->decimal_val->precision > 30 ? 30 : v->decimal_val->precision)
                   : 0;
        return emit(w, plen);
    case GNMI__TYPED_VALUE__VALUE_JSON_VAL:
    case GNMI__TYPED_VALUE__VALUE_JSON_IETF_VAL: {
        const ProtobufCBinaryData *b = v->value_case == GNMI__TYPED_VALUE__VALUE_JSON_VAL
                                           ? &v->json_val
                                           : &v->json_ietf_val;
        cJSON *j = cJSON_ParseWithLength((const char *)b->data, b->len);
        if (!j) {
            w->path[plen] = '\0';
            return dcb_err_set(w->err, DCB_E_INVAL, "%s: the JSON value does not parse",
                               plen ? w->path : "/");
        }
        int rc = walk_json(w, j, plen, 0);
        cJSON_Delete(j);
        return rc;
    }
    case GNMI__TYPED_VALUE__VALUE_LEAFLIST_VAL: {
        /* a leaf-list: one leaf per element, the index as a key on the last element */
        const Gnmi__ScalarArray *a = v->leaflist_val;
        for (size_t i = 0; a && i < a->n_element; i++) {
            int end = snprintf(w->path + plen, sizeof(w->path) - plen, "%s[index=%zu]",
                               plen ? "" : "/", i);
            if (end < 0 || (size_t)end >= sizeof(w->path) - plen)
                return dcb_err_set(w->err, DCB_E_RANGE, "a path longer than %d bytes",
                                   GNMI_PATH_MAX);
            const Gnmi__TypedValue *e = a->element[i];
            int rc = e && e->value_case != GNMI__TYPED_VALUE__VALUE_LEAFLIST_VAL &&
                             e->value_case != GNMI__TYPED_VALUE__VALUE_JSON_VAL &&
                             e->value_case != GNMI__TYPED_VALUE__VALUE_JSON_IETF_VAL
                         ? walk_typed(w, e, plen + (size_t)end)
                         : 0;
            w->path[plen] = '\0';
            if (rc < 0)
                return rc;
        }
        return 0;
    }
    default: l->kind = GNMI_VAL_NULL; return emit(w, plen);
    }
}

int gnmi_notification_leaves(const Gnmi__Notification *n, gnmi_leaf_fn fn, void *arg,
                             struct dcb_err *err)
{
    struct walk w;
    memset(&w, 0, sizeof(w));
    w.fn = fn;
    w.arg = arg;
    w.err = err;
    w.leaf.time_ns = n->timestamp;
    w.leaf.target = n->prefix && n->prefix->target ? n->prefix->target : "";
    w.leaf.origin = n->prefix && n->prefix->origin ? n->prefix->origin : "";
    int base = gnmi_path_append(w.path, sizeof(w.path), 0, n->prefix);
    if (base < 0)
        return dcb_err_set(err, DCB_E_RANGE, "a prefix longer than %d bytes", GNMI_PATH_MAX);
    for (size_t i = 0; i < n->n_update; i++) {
        const Gnmi__Update *u = n->update[i];
        if (!u)
            continue;
        int l = gnmi_path_append(w.path, sizeof(w.path), (size_t)base, u->path);
        if (l < 0)
            return dcb_err_set(err, DCB_E_RANGE, "a path longer than %d bytes", GNMI_PATH_MAX);
        if (u->path && u->path->origin && *u->path->origin && !*w.leaf.origin)
            w.leaf.origin = u->path->origin;
        int rc = walk_typed(&w, u->val, (size_t)l);
        if (rc < 0)
            return rc;
    }
    for (size_t i = 0; i < n->n_delete_; i++) {
        int l = gnmi_path_append(w.path, sizeof(w.path), (size_t)base, n->delete_[i]);
        if (l < 0)
            return dcb_err_set(err, DCB_E_RANGE, "a path longer than %d bytes", GNMI_PATH_MAX);
        w.leaf.kind = GNMI_VAL_DELETE;
        int rc = emit(&w, (size_t)l);
        if (rc < 0)
            return rc;
    }
    return w.count;
}

bool gnmi_leaf_number(const struct gnmi_leaf *l, double *d, uint64_t *u, bool *is_uint)
{
    *is_uint = false;
    switch (l->kind) {
    case GNMI_VAL_UINT:
        *u = l->u;
        *d = (double)l->u;
        *is_uint = true;
        return true;
    case GNMI_VAL_INT:
        *d = (double)l->i;
        if (l->i >= 0) {
            *u = (uint64_t)l->i;
            *is_uint = true;
        }
        return true;
    case GNMI_VAL_DOUBLE: *d = l->d; return isfinite(l->d);
    case GNMI_VAL_BOOL:
        *u = l->b;
        *d = l->b;
        *is_uint = true;
        return true;
    case GNMI_VAL_STRING: {
        const char *s = l->s;
        if (!s || !*s)
            return false;
        char *end;
        if (*s >= '0' && *s <= '9') {
            errno = 0;
            unsigned long long v = strtoull(s, &end, 10);
            if (!*end && errno == 0) {
                *u = v;
                *d = (double)v;
                *is_uint = true;
                return true;
            }
        }
        errno = 0;
        double v = strtod(s, &end);
        if (*end || errno || !isfinite(v) || end == s)
            return false;
        *d = v;
        return true;
    }
    default: return false;
    }
}

void gnmi_leaf_text(const struct gnmi_leaf *l, char *buf, size_t len)
{
    switch (l->kind) {
    case GNMI_VAL_STRING: snprintf(buf, len, "%s", l->s ? l->s : ""); break;
    case GNMI_VAL_INT: snprintf(buf, len, "%" PRId64, l->i); break;
    case GNMI_VAL_UINT: snprintf(buf, len, "%" PRIu64, l->u); break;
    case GNMI_VAL_DOUBLE: snprintf(buf, len, "%.17g", l->d); break;
    case GNMI_VAL_BOOL: snprintf(buf, len, "%s", l->b ? "true" : "false"); break;
    case GNMI_VAL_DELETE: snprintf(buf, len, "(deleted)"); break;
    default: snprintf(buf, len, "null"); break;
    }
}
