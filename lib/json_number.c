/* Exact integers from JSON text: a small walk over one object's top level. */
#include "json_number.h"

#include <stdbool.h>
#include <string.h>

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

/* p at the opening quote; returns past the closing one (NULL if the text ends first) */
static const char *skip_string(const char *p)
{
    for (p++; *p; p++) {
        if (*p == '\\') {
            if (!*++p)
                return NULL;
        } else if (*p == '"') {
            return p + 1;
        }
    }
    return NULL;
}

/* p at a value; returns past it. Objects and arrays by depth, minding strings. */
static const char *skip_value(const char *p)
{
    if (*p == '"')
        return skip_string(p);
    if (*p != '{' && *p != '[') { /* a number or a literal */
        while (*p && !strchr(",}] \t\n\r", *p))
            p++;
        return p;
    }
    int depth = 0;
    while (*p) {
        if (*p == '"') {
            if (!(p = skip_string(p)))
                return NULL;
            continue;
        }
        if (*p == '{' || *p == '[')
            depth++;
        else if ((*p == '}' || *p == ']') && --depth == 0)
            return p + 1;
        p++;
    }
    return NULL;
}

static enum json_uint read_uint(const char *p, uint64_t *out)
{
    uint64_t v = 0;
    const char *start = p;
    for (; *p >= '0' && *p <= '9'; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            return JSON_UINT_OTHER;
        v = v * 10 + d;
    }
    if (p == start || *p == '.' || *p == 'e' || *p == 'E')
        return JSON_UINT_OTHER;
    *out = v;
    return JSON_UINT_EXACT;
}

enum json_uint json_top_uint(const char *text, const char *key, uint64_t *out)
{
    size_t keylen = strlen(key);
    const char *p = skip_ws(text);
    if (*p != '{')
        return JSON_UINT_OTHER;
    p = skip_ws(p + 1);
    while (*p == '"') {
        const char *name = p + 1;
        if (!(p = skip_string(p)))
            return JSON_UINT_OTHER;
        bool match = (size_t)(p - 1 - name) == keylen && !memcmp(name, key, keylen);
        p = skip_ws(p);
        if (*p != ':')
            return JSON_UINT_OTHER;
        p = skip_ws(p + 1);
        if (match)
            return read_uint(p, out);
        if (!(p = skip_value(p)))
            return JSON_UINT_OTHER;
        p = skip_ws(p);
        if (*p != ',')
            return JSON_UINT_OTHER;
        p = skip_ws(p + 1);
    }
    return JSON_UINT_OTHER;
}
