/* Which canonical metrics and config fields each subscription of a gNMI map gives: a rule's
 * "match" regex is laid beside each subscription path, segment by segment, and the rule belongs
 * to the most specific subscription that leads to it. A subscription segment with '*' matches a
 * regex segment that starts with its text before the '*' (Ethernet* and (Ethernet[0-9]+)). */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "gnmi_map.h"

#define SEG_MAX 128

/* The next segment of p (after '/'s) into seg, unescaped and without group parentheses when
 * regex; a '/' inside brackets does not end it. Returns the rest, or NULL at the end. */
static const char *next_seg(const char *p, char *seg, size_t len, bool regex)
{
    while (*p == '/')
        p++;
    if (!*p)
        return NULL;
    size_t o = 0;
    int depth = 0;
    for (; *p && (*p != '/' || depth); p++) {
        char ch = *p;
        if (regex && ch == '\\' && p[1]) {
            ch = *++p;
        } else if (ch == '[') {
            depth++;
            if (regex && p[1] == '^')
                p++;
            if (regex && p[1] == ']')
                p++;
        } else if (ch == ']' && depth) {
            depth--;
        } else if (regex && (ch == '(' || ch == ')')) {
            continue;
        }
        if (o + 1 < len)
            seg[o++] = ch;
    }
    seg[o] = '\0';
    return p;
}

static bool seg_leads(const char *sub, const char *re)
{
    const char *star = strchr(sub, '*');
    if (!star)
        return !strcmp(sub, re);
    return !strncmp(sub, re, (size_t)(star - sub));
}

/* How many segments of sub lead to the rule's match (both past their "TARGET:"), 0: none. */
static int leads(const struct gnmi_map_sub *sub, const char *match)
{
    const char *colon = strstr(match, ":/");
    size_t tlen = colon ? (size_t)(colon - match) : 0;
    if (strlen(sub->target) != tlen || strncmp(sub->target, match, tlen))
        return 0;
    const char *s = sub->path, *r = colon ? colon + 1 : match;
    char a[SEG_MAX], b[SEG_MAX];
    int n = 0;
    while ((s = next_seg(s, a, sizeof(a), false))) {
        if (!(r = next_seg(r, b, sizeof(b), true)) || !seg_leads(a, b))
            return 0;
        n++;
    }
    return n;
}

/* A field as a rule names it: switch.buffer.{2} -> switch.buffer; a relative field (no dot,
 * applied through a ref rule) is not one. */
static bool field_name(const char *field, char *out, size_t len)
{
    if (!strchr(field, '.'))
        return false;
    snprintf(out, len, "%s", field);
    char *brace = strstr(out, ".{");
    if (brace)
        *brace = '\0';
    return true;
}

static void give(struct gnmi_map *m, const char *match, const char *name)
{
    struct gnmi_map_sub *best = NULL;
    int best_n = 0;
    for (size_t i = 0; i < m->nsubs; i++) {
        int n = leads(&m->subs[i], match);
        if (n > best_n) {
            best = &m->subs[i];
            best_n = n;
        }
    }
    if (!best)
        return;
    size_t used = strlen(best->gives), nlen = strlen(name);
    for (const char *p = best->gives; (p = strstr(p, name)); p += nlen)
        if ((p == best->gives || p[-1] == ',') && (p[nlen] == ',' || !p[nlen]))
            return;
    if (used + nlen + 2 < sizeof(best->gives))
        snprintf(best->gives + used, sizeof(best->gives) - used, "%s%s", used ? "," : "", name);
}

static void give_all(struct gnmi_map *m, const cJSON *rules, const char *what)
{
    const cJSON *rule;
    cJSON_ArrayForEach(rule, rules) {
        const cJSON *match = cJSON_GetObjectItemCaseSensitive(rule, "match");
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(rule, what);
        char field[GNMI_MAP_GIVES];
        if (cJSON_IsString(match) && cJSON_IsString(name) &&
            field_name(name->valuestring, field, sizeof(field)))
            give(m, match->valuestring, field);
    }
}

void gnmi_map_fill_gives(struct gnmi_map *m, const void *root)
{
    give_all(m, cJSON_GetObjectItemCaseSensitive(root, "counters"), "metric");
    give_all(m, cJSON_GetObjectItemCaseSensitive(root, "config"), "field");
}

const struct gnmi_map_sub *gnmi_map_sub_of(const struct gnmi_map *m, const char *key)
{
    char k[512];
    for (size_t i = 0; i < m->nsubs; i++)
        if (!strcmp(gnmi_map_key(k, sizeof(k), m->subs[i].target, m->subs[i].path), key))
            return &m->subs[i];
    return NULL;
}
