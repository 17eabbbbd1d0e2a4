#include "counter_map.h"
#include "data_dir.h"
#include "file_text.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAP_FILE_MAX (1u << 20)

void counter_map_free(struct counter_map *m)
{
    for (size_t i = 0; i < m->nrules; i++)
        regfree(&m->rules[i].re);
    free(m->rules);
    memset(m, 0, sizeof(*m));
}

void counter_maps_free(struct counter_maps *maps)
{
    for (size_t i = 0; i < maps->n; i++)
        counter_map_free(&maps->maps[i]);
    free(maps->maps);
    memset(maps, 0, sizeof(*maps));
}

static int group_of(const cJSON *rule, const char *key, int ngroups, int *out, const char *where,
                    struct dcb_err *err)
{
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(rule, key);
    *out = 0;
    if (!g)
        return 0;
    if (!cJSON_IsNumber(g) || g->valuedouble < 1 || g->valuedouble > ngroups ||
        g->valuedouble != (int)g->valuedouble)
        return dcb_err_set(err, DCB_E_INVAL, "%s.%s: must name a capture group 1..%d", where, key,
                           ngroups);
    *out = (int)g->valuedouble;
    return 0;
}

int counter_map_load_text(struct counter_map *m, const char *text, const char *name,
                          struct dcb_err *err)
{
    memset(m, 0, sizeof(*m));
    cJSON *root = cJSON_Parse(text);
    if (!root)
        return dcb_err_set(err, DCB_E_INVAL, "%s: not valid JSON", name);
    int rc = 0;
    const cJSON *driver = cJSON_GetObjectItemCaseSensitive(root, "driver");
    const cJSON *source = cJSON_GetObjectItemCaseSensitive(root, "source");
    const cJSON *counters = cJSON_GetObjectItemCaseSensitive(root, "counters");
    if (!cJSON_IsString(driver) || strlen(driver->valuestring) >= sizeof(m->driver) ||
        !cJSON_IsString(source) || strlen(source->valuestring) >= sizeof(m->source) ||
        !cJSON_IsArray(counters)) {
        rc = dcb_err_set(err, DCB_E_INVAL, "%s: needs \"driver\", \"source\" and \"counters\"",
                         name);
        goto out;
    }
    snprintf(m->driver, sizeof(m->driver), "%s", driver->valuestring);
    snprintf(m->source, sizeof(m->source), "%s", source->valuestring);
    size_t n = (size_t)cJSON_GetArraySize(counters);
    m->rules = calloc(n + 1, sizeof(*m->rules));
    if (!m->rules) {
        rc = dcb_err_set(err, DCB_E_NOMEM, "%s: out of memory", name);
        goto out;
    }
    const cJSON *rule;
    int idx = 0;
    cJSON_ArrayForEach(rule, counters) {
        char where[64];
        snprintf(where, sizeof(where), "counters[%d]", idx++);
        const cJSON *match = cJSON_GetObjectItemCaseSensitive(rule, "match");
        const cJSON *metric = cJSON_GetObjectItemCaseSensitive(rule, "metric");
        const cJSON *bits = cJSON_GetObjectItemCaseSensitive(rule, "bits");
        if (!cJSON_IsString(match) || !cJSON_IsString(metric)) {
            rc = dcb_err_set(err, DCB_E_INVAL, "%s: %s: needs \"match\" and \"metric\"", name,
                             where);
            goto out;
        }
        struct counter_rule *r = &m->rules[m->nrules];
        r->metric = metric_lookup(metric->valuestring);
        if (r->metric == METRIC_NONE) {
            rc = dcb_err_set(err, DCB_E_INVAL, "%s: %s.metric: unknown metric \"%s\"", name, where,
                             metric->valuestring);
            goto out;
        }
        char anchored[512];
        if ((size_t)snprintf(anchored, sizeof(anchored), "^(%s)$", match->valuestring) >=
            sizeof(anchored)) {
            rc = dcb_err_set(err, DCB_E_INVAL, "%s: %s.match: too long", name, where);
            goto out;
        }
        int rerr = regcomp(&r->re, anchored, REG_EXTENDED);
        if (rerr) {
            char msg[128];
            regerror(rerr, &r->re, msg, sizeof(msg));
            rc = dcb_err_set(err, DCB_E_INVAL, "%s: %s.match: %s", name, where, msg);
            goto out;
        }
        m->nrules++;
        /* group 1 is the whole anchored match, so the user's groups start at 2 */
        int ngroups = (int)r->re.re_nsub - 1;
        int pg, qg, ig;
        if ((rc = group_of(rule, "prio", ngroups, &pg, where, err)) < 0 ||
            (rc = group_of(rule, "queue", ngroups, &qg, where, err)) < 0 ||
            (rc = group_of(rule, "ifname", ngroups, &ig, where, err)) < 0) {
            char inner[DCB_ERR_MSG_MAX];
            snprintf(inner, sizeof(inner), "%s", err ? err->msg : "");
            rc = dcb_err_set(err, rc, "%s: %s", name, inner);
            goto out;
        }
        r->prio_group = pg ? pg + 1 : 0;
        r->queue_group = qg ? qg + 1 : 0;
        r->ifname_group = ig ? ig + 1 : 0;
        r->bits = 64;
        if (bits) {
            if (!cJSON_IsNumber(bits) || (bits->valueint != 32 && bits->valueint != 64)) {
                rc = dcb_err_set(err, DCB_E_INVAL, "%s: %s.bits: 32 or 64", name, where);
                goto out;
            }
            r->bits = (unsigned)bits->valueint;
        }
        const struct metric_info *mi = metric_info(r->metric);
        if ((mi->labels == LABELS_PRIO && !r->prio_group) ||
            (mi->labels == LABELS_QUEUE && !r->queue_group)) {
            rc = dcb_err_set(err, DCB_E_INVAL, "%s: %s: %s needs a %s group", name, where, mi->name,
                             metric_labels_name(mi->labels));
            goto out;
        }
    }
out:
    cJSON_Delete(root);
    if (rc < 0)
        counter_map_free(m);
    return rc;
}

char *counter_map_read_file(const char *path, struct dcb_err *err)
{
    char *buf;
    size_t len;
    return dcb_read_text_file(path, MAP_FILE_MAX, &buf, &len, err) < 0 ? NULL : buf;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int counter_maps_load_dir(struct counter_maps *maps, const char *dir, struct dcb_err *err)
{
    memset(maps, 0, sizeof(*maps));
    DIR *d = opendir(dir);
    if (!d)
        return dcb_err_set(err, DCB_E_NOTFOUND, "counter maps %s: %s", dir, strerror(errno));
    char *names[256] = { 0 };
    size_t nnames = 0;
    struct dirent *e;
    while ((e = readdir(d)) && nnames < 256) {
        size_t len = strlen(e->d_name);
        if (len > 5 && !strcmp(e->d_name + len - 5, ".json"))
            names[nnames++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, nnames, sizeof(names[0]), by_name);
    int rc = 0;
    maps->maps = calloc(nnames + 1, sizeof(*maps->maps));
    for (size_t i = 0; i < nnames; i++) {
        if (rc == 0 && maps->maps && names[i]) {
            char path[4096];
            snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
            char *text = counter_map_read_file(path, err);
            if (!text)
                rc = DCB_E_IO;
            else if ((rc = counter_map_load_text(&maps->maps[maps->n], text, path, err)) == 0)
                maps->n++;
            free(text);
        }
        free(names[i]);
    }
    if (!maps->maps && rc == 0)
        rc = dcb_err_set(err, DCB_E_NOMEM, "out of memory loading counter maps");
    if (rc < 0)
        counter_maps_free(maps);
    return rc;
}

const struct counter_map *counter_maps_find(const struct counter_maps *maps, const char *driver,
                                            const char *source)
{
    for (size_t i = 0; i < maps->n; i++)
        if (!strcmp(maps->maps[i].driver, driver) && !strcmp(maps->maps[i].source, source))
            return &maps->maps[i];
    return NULL;
}

static int group_number(const char *name, const regmatch_t *g)
{
    if (g->rm_so < 0)
        return -1;
    int v = 0;
    for (regoff_t i = g->rm_so; i < g->rm_eo; i++) {
        if (name[i] < '0' || name[i] > '9' || v > 100000)
            return -1;
        v = v * 10 + (name[i] - '0');
    }
    return v;
}

bool counter_map_match(const struct counter_map *m, const char *name, struct counter_match *out)
{
    regmatch_t groups[10];
    for (size_t i = 0; m && i < m->nrules; i++) {
        const struct counter_rule *r = &m->rules[i];
        if (regexec(&r->re, name, 10, groups, 0) != 0)
            continue;
        out->metric = r->metric;
        out->bits = r->bits;
        out->prio = r->prio_group ? group_number(name, &groups[r->prio_group]) : -1;
        out->queue = r->queue_group ? group_number(name, &groups[r->queue_group]) : -1;
        if ((r->prio_group && (out->prio < 0 || out->prio > 7)) ||
            (r->queue_group && out->queue < 0))
            continue;
        out->ifname[0] = '\0';
        if (r->ifname_group && groups[r->ifname_group].rm_so >= 0) {
            const regmatch_t *g = &groups[r->ifname_group];
            size_t n = (size_t)(g->rm_eo - g->rm_so);
            if (n == 0 || n >= sizeof(out->ifname))
                continue;
            memcpy(out->ifname, name + g->rm_so, n);
            out->ifname[n] = '\0';
        }
        return true;
    }
    return false;
}

const struct counter_map *counter_maps_guess(const struct counter_maps *maps, const char *source,
                                             const char *const *names, size_t n, size_t *matched)
{
    const struct counter_map *best = NULL;
    *matched = 0;
    for (size_t i = 0; i < maps->n; i++) {
        const struct counter_map *m = &maps->maps[i];
        if (strcmp(m->source, source) != 0)
            continue;
        size_t hits = 0;
        struct counter_match out;
        for (size_t k = 0; k < n; k++)
            hits += counter_map_match(m, names[k], &out);
        if (hits > *matched) {
            best = m;
            *matched = hits;
        }
    }
    return best;
}

int counter_maps_default_dir(char *buf, size_t len)
{
    return dcb_data_dir("DCBKIT_MAPS", "maps", DCBKIT_SOURCE_MAPS, buf, len);
}
