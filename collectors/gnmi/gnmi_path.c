#include "gnmi_path.h"

#include <stdlib.h>
#include <string.h>

static void elem_free(Gnmi__PathElem *e)
{
    if (!e)
        return;
    for (size_t k = 0; k < e->n_key; k++) {
        if (e->key[k]) {
            free(e->key[k]->key);
            free(e->key[k]->value);
        }
        free(e->key[k]);
    }
    free(e->key);
    free(e->name);
    free(e);
}

void gnmi_path_free(Gnmi__Path *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n_elem; i++)
        elem_free(p->elem[i]);
    free(p->elem);
    if (p->origin != protobuf_c_empty_string)
        free(p->origin);
    if (p->target != protobuf_c_empty_string)
        free(p->target);
    free(p);
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/* Copies an unescaped span ("\x" -> "x"). */
static char *unescape(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    size_t o = 0;
    for (size_t i = 0; d && i < n; i++) {
        if (s[i] == '\\' && i + 1 < n)
            i++;
        d[o++] = s[i];
    }
    if (d)
        d[o] = '\0';
    return d;
}

static int add_key(Gnmi__PathElem *e, const char *k, size_t klen, const char *v, size_t vlen)
{
    Gnmi__PathKey **nk = realloc(e->key, (e->n_key + 1) * sizeof(*nk));
    if (!nk)
        return -1;
    e->key = nk;
    Gnmi__PathKey *pk = malloc(sizeof(*pk));
    if (!pk)
        return -1;
    gnmi__path_key__init(pk);
    pk->key = dup_n(k, klen);
    pk->value = unescape(v, vlen);
    e->key[e->n_key++] = pk;
    return pk->key && pk->value ? 0 : -1;
}

int gnmi_path_parse(const char *text, const char *target, Gnmi__Path **out, struct dcb_err *err)
{
    *out = NULL;
    if (strlen(text) >= GNMI_PATH_MAX)
        return dcb_err_set(err, DCB_E_INVAL, "path too long");
    Gnmi__Path *p = malloc(sizeof(*p));
    if (!p)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    gnmi__path__init(p);
    const char *s = text;
    const char *origin_end = strstr(s, ":/");
    const char *first_bracket = strchr(s, '[');
    if (origin_end && (!first_bracket || origin_end < first_bracket) &&
        !memchr(s, '/', (size_t)(origin_end - s))) {
        p->origin = dup_n(s, (size_t)(origin_end - s));
        s = origin_end + 1;
    }
    if (target && *target)
        p->target = dup_n(target, strlen(target));
    int rc = 0;
    while (*s) {
        while (*s == '/')
            s++;
        if (!*s)
            break;
        const char *name = s;
        while (*s && *s != '/' && *s != '[')
            s++;
        if (s == name) {
            rc = dcb_err_set(err, DCB_E_INVAL, "path '%s': an element without a name", text);
            break;
        }
        Gnmi__PathElem **ne = realloc(p->elem, (p->n_elem + 1) * sizeof(*ne));
        Gnmi__PathElem *e = ne ? malloc(sizeof(*e)) : NULL;
        if (ne)
            p->elem = ne;
        if (!e) {
            rc = dcb_err_set(err, DCB_E_NOMEM, "out of memory");
            break;
        }
        gnmi__path_elem__init(e);
        p->elem[p->n_elem++] = e;
        e->name = dup_n(name, (size_t)(s - name));
        while (rc == 0 && *s == '[') {
            const char *k = ++s;
            while (*s && *s != '=' && *s != ']')
                s++;
            if (*s != '=' || s == k) {
                rc = dcb_err_set(err, DCB_E_INVAL, "path '%s': a key needs NAME=VALUE", text);
                break;
            }
            size_t klen = (size_t)(s - k);
            const char *v = ++s;
            while (*s && *s != ']') {
                if (*s == '\\' && s[1])
                    s++;
                s++;
            }
            if (*s != ']') {
                rc = dcb_err_set(err, DCB_E_INVAL, "path '%s': unterminated key", text);
                break;
            }
            if (add_key(e, k, klen, v, (size_t)(s - v)) < 0)
                rc = dcb_err_set(err, DCB_E_NOMEM, "out of memory");
            s++;
        }
        if (rc < 0)
            break;
        if (*s && *s != '/') {
            rc = dcb_err_set(err, DCB_E_INVAL, "path '%s': unexpected '%c'", text, *s);
            break;
        }
    }
    if (rc < 0) {
        gnmi_path_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

static int put(char *buf, size_t cap, size_t len, const char *s, size_t n, int escape)
{
    for (size_t i = 0; i < n; i++) {
        int esc = escape && (s[i] == ']' || s[i] == '\\');
        if (len + (size_t)esc + 1 >= cap)
            return -1;
        if (esc)
            buf[len++] = '\\';
        buf[len++] = s[i];
    }
    buf[len] = '\0';
    return (int)len;
}

int gnmi_path_append_elem(char *buf, size_t cap, size_t len, const char *name,
                          Gnmi__PathKey *const *keys, size_t nkeys)
{
    int l = put(buf, cap, len, "/", 1, 0);
    if (l >= 0)
        l = put(buf, cap, (size_t)l, name, strlen(name), 0);
    for (size_t k = 0; l >= 0 && k < nkeys; k++) {
        if (!keys[k] || !keys[k]->key || !keys[k]->value)
            continue;
        l = put(buf, cap, (size_t)l, "[", 1, 0);
        if (l >= 0)
            l = put(buf, cap, (size_t)l, keys[k]->key, strlen(keys[k]->key), 0);
        if (l >= 0)
            l = put(buf, cap, (size_t)l, "=", 1, 0);
        if (l >= 0)
            l = put(buf, cap, (size_t)l, keys[k]->value, strlen(keys[k]->value), 1);
        if (l >= 0)
            l = put(buf, cap, (size_t)l, "]", 1, 0);
    }
    if (l < 0 && len < cap)
        buf[len] = '\0';
    return l;
}

int gnmi_path_append(char *buf, size_t cap, size_t len, const Gnmi__Path *p)
{
    int l = (int)len;
    if (len < cap)
        buf[len] = '\0';
    if (!p)
        return l;
    for (size_t i = 0; l >= 0 && i < p->n_element; i++)
        if (p->element[i])
            l = gnmi_path_append_elem(buf, cap, (size_t)l, p->element[i], NULL, 0);
    for (size_t i = 0; l >= 0 && i < p->n_elem; i++)
        if (p->elem[i] && p->elem[i]->name)
            l = gnmi_path_append_elem(buf, cap, (size_t)l, p->elem[i]->name,
                                      (Gnmi__PathKey *const *)p->elem[i]->key, p->elem[i]->n_key);
    return l;
}
