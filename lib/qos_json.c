#include "qos_json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qos_fields.h"

static int set_text(struct qos_config *c, const char *path, const char *text, const char *prefix,
                    struct dcb_err *err)
{
    struct dcb_err inner;
    int rc = qos_set(c, path, text, &inner);
    if (rc < 0)
        return dcb_err_set(err, rc, "%s%s", prefix, inner.msg);
    return 0;
}

static int app_from_json(struct qos_config *c, const cJSON *arr, const char *path,
                         const char *prefix, struct dcb_err *err)
{
    char list[QOS_APP_MAX * 16 + 16] = "";
    size_t used = 0;
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr) {
        const cJSON *sel = cJSON_GetObjectItemCaseSensitive(e, "selector");
        const cJSON *proto = cJSON_GetObjectItemCaseSensitive(e, "protocol");
        const cJSON *prio = cJSON_GetObjectItemCaseSensitive(e, "prio");
        if (!cJSON_IsNumber(sel) || !cJSON_IsNumber(proto) || !cJSON_IsNumber(prio) ||
            fabs(sel->valuedouble) > 1e6 || fabs(proto->valuedouble) > 1e6 ||
            fabs(prio->valuedouble) > 1e6)
            return dcb_err_set(err, DCB_E_INVAL,
                               "%s%s[%d]: needs numbers selector, protocol and prio", prefix, path,
                               i);
        if (i >= QOS_APP_MAX)
            return dcb_err_set(err, DCB_E_RANGE, "%s%s: more than %d entries", prefix, path,
                               QOS_APP_MAX);
        used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%d:%d:%d", i ? "," : "",
                                 (int)sel->valuedouble, (int)proto->valuedouble,
                                 (int)prio->valuedouble);
        i++;
    }
    if (i == 0) {
        c->app_set = true;
        c->napp = 0;
        return 0;
    }
    return set_text(c, path, list, prefix, err);
}

static int walk(struct qos_config *c, const cJSON *node, const char *path, const char *prefix,
                int depth, struct dcb_err *err)
{
    if (depth > 8)
        return dcb_err_set(err, DCB_E_INVAL, "%s%s: nested too deep", prefix, path);
    if (cJSON_IsNull(node))
        return 0; /* unknown */
    if (cJSON_IsObject(node) || (cJSON_IsArray(node) && strcmp(path, "app") != 0)) {
        const cJSON *child;
        int i = 0;
        cJSON_ArrayForEach(child, node) {
            char sub[QOS_PATH_MAX * 2];
            const char *key = cJSON_IsArray(node) ? NULL : child->string;
            char idx[16];
            if (!key) {
                snprintf(idx, sizeof(idx), "%d", i);
                key = idx;
            }
            if ((size_t)snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", key) >=
                QOS_PATH_MAX)
                return dcb_err_set(err, DCB_E_INVAL, "%s%.60s...: no such setting", prefix, sub);
            int rc = walk(c, child, sub, prefix, depth + 1, err);
            if (rc < 0)
                return rc;
            i++;
        }
        if (!*path && !cJSON_IsObject(node))
            return dcb_err_set(err, DCB_E_INVAL, "%s: a config must be an object", prefix);
        return 0;
    }
    if (cJSON_IsArray(node))
        return app_from_json(c, node, path, prefix, err);
    if (!*path)
        return dcb_err_set(err, DCB_E_INVAL, "%s: a config must be an object", prefix);
    char text[64];
    if (cJSON_IsBool(node)) {
        snprintf(text, sizeof(text), "%s", cJSON_IsTrue(node) ? "true" : "false");
    } else if (cJSON_IsNumber(node)) {
        double d = node->valuedouble;
        if (d == floor(d) && fabs(d) < 9e15)
            snprintf(text, sizeof(text), "%.0f", d);
        else
            snprintf(text, sizeof(text), "%.17g", d);
    } else if (cJSON_IsString(node)) {
        return set_text(c, path, node->valuestring, prefix, err);
    } else {
        return dcb_err_set(err, DCB_E_INVAL, "%s%s: unexpected value", prefix, path);
    }
    return set_text(c, path, text, prefix, err);
}

int qos_from_json(struct qos_config *c, const cJSON *obj, const char *prefix, struct dcb_err *err)
{
    if (!prefix)
        prefix = "";
    if (!cJSON_IsObject(obj))
        return dcb_err_set(err, DCB_E_INVAL, "%s: a config must be an object",
                           *prefix ? prefix : "config");
    return walk(c, obj, "", prefix, 0, err);
}

/* The object at the dotted path's parent, created as needed; *leaf points at the last part. */
static cJSON *parent_for(cJSON *root, const char *path, char *leaf, size_t leaflen)
{
    cJSON *node = root;
    const char *p = path;
    for (;;) {
        const char *dot = strchr(p, '.');
        if (!dot) {
            snprintf(leaf, leaflen, "%s", p);
            return node;
        }
        char part[QOS_PATH_MAX];
        snprintf(part, sizeof(part), "%.*s", (int)(dot - p), p);
        cJSON *next = cJSON_GetObjectItemCaseSensitive(node, part);
        if (!next) {
            next = cJSON_AddObjectToObject(node, part);
            if (!next)
                return NULL;
        }
        node = next;
        p = dot + 1;
    }
}

cJSON *qos_to_json(const struct qos_config *c)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    for (size_t i = 0; i < qos_field_count; i++) {
        const struct qos_field *f = &qos_fields[i];
        if (f->type == QF_APP) {
            if (!c->app_set)
                continue;
            cJSON *arr = cJSON_AddArrayToObject(root, "app");
            for (size_t k = 0; arr && k < c->napp; k++) {
                cJSON *e = cJSON_CreateObject();
                cJSON_AddNumberToObject(e, "selector", c->app[k].selector);
                cJSON_AddNumberToObject(e, "protocol", c->app[k].protocol);
                cJSON_AddNumberToObject(e, "prio", c->app[k].prio);
                cJSON_AddItemToArray(arr, e);
            }
            continue;
        }
        int n = f->count ? f->count : 1;
        for (int k = 0; k < n; k++) {
            int index = f->count ? k : -1;
            const struct qos_val *v = (const struct qos_val *)((const char *)c + f->offset +
                                                               (size_t)(k)*f->stride);
            if (!v->set)
                continue;
            char path[QOS_PATH_MAX], leaf[QOS_PATH_MAX], text[QOS_TEXT_MAX];
            qos_field_path(f, index, path, sizeof(path));
            cJSON *parent = parent_for(root, path, leaf, sizeof(leaf));
            if (!parent) {
                cJSON_Delete(root);
                return NULL;
            }
            switch (f->type) {
            case QF_BOOL: cJSON_AddBoolToObject(parent, leaf, v->v != 0); break;
            case QF_ENUM:
                qos_format_value(f, v->v, text, sizeof(text));
                cJSON_AddStringToObject(parent, leaf, text);
                break;
            case QF_LENGTH: cJSON_AddNumberToObject(parent, leaf, (double)v->v / 1000.0); break;
            default: cJSON_AddNumberToObject(parent, leaf, (double)v->v); break;
            }
        }
    }
    return root;
}
