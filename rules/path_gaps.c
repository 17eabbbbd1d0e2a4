#include "path_gaps.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

static const char *str_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

void path_gaps_take(struct path_gaps *g, const struct dcb_event *e)
{
    if (e->kind != EVENT_SOURCE_GAP || !strstr(e->details, "\"path\""))
        return;
    cJSON *d = cJSON_Parse(e->details);
    const char *path = str_of(d, "path");
    if (!*path) {
        cJSON_Delete(d);
        return;
    }
    bool served = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "served"));
    size_t i = 0;
    while (i < g->n && (strcmp(g->v[i].device, e->device) || strcmp(g->v[i].path, path)))
        i++;
    if (served && i < g->n)
        g->v[i] = g->v[--g->n];
    if (!served && i == g->n &&
        (g->n < g->cap || dcb_grow(&g->v, &g->cap, sizeof(*g->v), 8) == 0)) {
        struct path_gap *p = &g->v[g->n++];
        snprintf(p->device, sizeof(p->device), "%s", e->device);
        snprintf(p->path, sizeof(p->path), "%s", path);
        snprintf(p->gives, sizeof(p->gives), "%s", str_of(d, "gives"));
        snprintf(p->reason, sizeof(p->reason), "%s", str_of(d, "reason"));
    }
    cJSON_Delete(d);
}

static bool name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.';
}

/* name appears in text as a whole name (pfc.enabled in "delta(pfc.enabled[5m])", but not in
 * "peer.pfc.enabled", which is the partner's) */
static bool names(const char *text, const char *name, size_t len)
{
    for (const char *p = text; (p = strstr(p, name)); p++)
        if ((p == text || !name_char(p[-1])) && !name_char(p[len]) &&
            !(p[len] == '.' && p[len + 1] == '$'))
            return true;
    return false;
}

static bool lacks_one_of(const char *missing, const char *gives)
{
    for (const char *p = gives; *p;) {
        size_t len = strcspn(p, ",");
        char name[96];
        snprintf(name, sizeof(name), "%.*s", (int)len, p);
        if (len && names(missing, name, len))
            return true;
        p += len + (p[len] == ',');
    }
    return false;
}

void path_gaps_explain(const struct path_gaps *g, struct rule_undecided *u)
{
    size_t used = 0;
    u->not_served[0] = '\0';
    for (size_t i = 0; i < g->n; i++) {
        const struct path_gap *p = &g->v[i];
        if ((u->device[0] && strcmp(p->device, u->device)) || !lacks_one_of(u->missing, p->gives))
            continue;
        int n = snprintf(u->not_served + used, sizeof(u->not_served) - used,
                         "%spath %s not served by %s", used ? "; " : "", p->path, p->device);
        if (n < 0 || (size_t)n >= sizeof(u->not_served) - used)
            break;
        used += (size_t)n;
    }
}

/* gives lists name itself, or a field group above it ("switch.buffer" gives
 * "switch.buffer.#.xoff") */
static bool gives_name(const char *gives, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = gives; *p;) {
        size_t n = strcspn(p, ",");
        if (n && n <= len && !strncmp(p, name, n) && (n == len || name[n] == '.'))
            return true;
        p += n + (p[n] == ',');
    }
    return false;
}

bool path_gaps_lacks(const struct path_gaps *g, const char *device, const char *name)
{
    for (size_t i = 0; i < g->n; i++)
        if (!strcmp(g->v[i].device, device) && gives_name(g->v[i].gives, name))
            return true;
    return false;
}

static int take(const struct dcb_event *e, void *arg)
{
    path_gaps_take(arg, e);
    return 0;
}

int path_gaps_load(struct path_gaps *g, struct dcb_store *st, int64_t t1_ns, struct dcb_err *err)
{
    struct store_filter f;
    store_filter_init(&f);
    f.t1 = t1_ns;
    return store_events(st, &f, "source_gap", take, g, err);
}

void path_gaps_free(struct path_gaps *g)
{
    free(g->v);
    *g = (struct path_gaps){ 0 };
}
