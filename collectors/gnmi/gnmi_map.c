#include "grow.h"
#include "gnmi_map.h"

#include <fcntl.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void gnmi_map_free(struct gnmi_map *m)
{
    counter_map_free(&m->counters);
    for (size_t i = 0; i < m->ncfg; i++)
        regfree(&m->cfg[i].re);
    match_cache_free(&m->cache);
    memset(m, 0, sizeof(*m));
}

static int group_num(const cJSON *rule, const char *key, int ngroups, int *out, const char *name,
                     int idx, struct dcb_err *err)
{
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(rule, key);
    *out = 0;
    if (!g)
        return 0;
    if (!cJSON_IsNumber(g) || g->valueint < 1 || g->valueint > ngroups)
        return dcb_err_set(err, DCB_E_INVAL, "%s: config[%d].%s: must name a capture group 1..%d",
                           name, idx, key, ngroups);
    *out = g->valueint + 1; /* group 1 is the whole anchored match */
    return 0;
}

static int load_config_rules(struct gnmi_map *m, const cJSON *arr, const char *name,
                             struct dcb_err *err)
{
    const cJSON *rule;
    int idx = 0;
    cJSON_ArrayForEach(rule, arr) {
        if (m->ncfg == GNMI_MAP_CONFIG_RULES)
            return dcb_err_set(err, DCB_E_RANGE, "%s: more than %d config rules", name,
                               GNMI_MAP_CONFIG_RULES);
        const cJSON *match = cJSON_GetObjectItemCaseSensitive(rule, "match");
        const cJSON *field = cJSON_GetObjectItemCaseSensitive(rule, "field");
        const cJSON *format = cJSON_GetObjectItemCaseSensitive(rule, "format");
        const cJSON *ref = cJSON_GetObjectItemCaseSensitive(rule, "ref");
        if (!cJSON_IsString(match) || !cJSON_IsString(field) ||
            strlen(field->valuestring) >= sizeof(m->cfg[0].field))
            return dcb_err_set(err, DCB_E_INVAL, "%s: config[%d]: needs \"match\" and \"field\"",
                               name, idx);
        struct gnmi_config_rule *r = &m->cfg[m->ncfg];
        memset(r, 0, sizeof(*r));
        char anchored[512];
        if ((size_t)snprintf(anchored, sizeof(anchored), "^(%s)$", match->valuestring) >=
            sizeof(anchored))
            return dcb_err_set(err, DCB_E_INVAL, "%s: config[%d].match: too long", name, idx);
        if (regcomp(&r->re, anchored, REG_EXTENDED))
            return dcb_err_set(err, DCB_E_INVAL, "%s: config[%d].match: not a valid regex", name,
                               idx);
        m->ncfg++;
        int ngroups = (int)r->re.re_nsub - 1;
        int rc;
        if ((rc = group_num(rule, "ifname", ngroups, &r->ifname_group, name, idx, err)) < 0 ||
            (rc = group_num(rule, "range_end", ngroups, &r->range_end_group, name, idx, err)) < 0)
            return rc;
        snprintf(r->field, sizeof(r->field), "%s", field->valuestring);
        r->format = GNMI_FMT_TEXT;
        if (cJSON_IsString(format)) {
            const char *f = format->valuestring;
            if (!strcmp(f, "prio_list"))
                r->format = GNMI_FMT_PRIO_LIST;
            else if (!strcmp(f, "sonic_ecn"))
                r->format = GNMI_FMT_SONIC_ECN;
            else if (!strcmp(f, "ref"))
                r->format = GNMI_FMT_REF;
            else if (strcmp(f, "text"))
                return dcb_err_set(err, DCB_E_INVAL,
                                   "%s: config[%d].format: text, prio_list, "
                                   "sonic_ecn or ref",
                                   name, idx);
        }
        if (r->format == GNMI_FMT_REF) {
            if (!cJSON_IsString(ref) || strlen(ref->valuestring) >= sizeof(r->ref) ||
                !strstr(ref->valuestring, "{value}"))
                return dcb_err_set(err, DCB_E_INVAL,
                                   "%s: config[%d]: a ref rule needs \"ref\" "
                                   "holding {value}",
                                   name, idx);
            snprintf(r->ref, sizeof(r->ref), "%s", ref->valuestring);
        }
        idx++;
    }
    return 0;
}

int gnmi_map_load_text(struct gnmi_map *m, const char *text, const char *name, struct dcb_err *err)
{
    memset(m, 0, sizeof(*m));
    int rc = counter_map_load_text(&m->counters, text, name, err);
    if (rc < 0)
        return rc;
    snprintf(m->name, sizeof(m->name), "%s", m->counters.driver);
    cJSON *root = cJSON_Parse(text);
    if (!root) {
        gnmi_map_free(m);
        return dcb_err_set(err, DCB_E_INVAL, "%s: not valid JSON", name);
    }
    const cJSON *subs = cJSON_GetObjectItemCaseSensitive(root, "subscribe");
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(root, "config");
    if (strcmp(m->counters.source, "gnmi") || !cJSON_IsArray(subs)) {
        rc = dcb_err_set(err, DCB_E_INVAL,
                         "%s: a gNMI map needs \"source\": \"gnmi\" and "
                         "\"subscribe\"",
                         name);
        goto out;
    }
    const cJSON *s;
    cJSON_ArrayForEach(s, subs) {
        const cJSON *target = cJSON_GetObjectItemCaseSensitive(s, "target");
        const cJSON *path = cJSON_GetObjectItemCaseSensitive(s, "path");
        const cJSON *config = cJSON_GetObjectItemCaseSensitive(s, "config");
        if (m->nsubs == GNMI_MAP_SUBS || !cJSON_IsString(path) ||
            strlen(path->valuestring) >= sizeof(m->subs[0].path) ||
            (target && (!cJSON_IsString(target) ||
                        strlen(target->valuestring) >= sizeof(m->subs[0].target)))) {
            rc = dcb_err_set(err, DCB_E_INVAL,
                             "%s: subscribe[%zu]: needs \"path\" (and an "
                             "optional \"target\")",
                             name, m->nsubs);
            goto out;
        }
        struct gnmi_map_sub *d = &m->subs[m->nsubs++];
        snprintf(d->target, sizeof(d->target), "%s", target ? target->valuestring : "");
        snprintf(d->path, sizeof(d->path), "%s", path->valuestring);
        d->config = cJSON_IsTrue(config);
    }
    if (cfg && !cJSON_IsArray(cfg)) {
        rc = dcb_err_set(err, DCB_E_INVAL, "%s: \"config\" must be an array", name);
        goto out;
    }
    if (cfg)
        rc = load_config_rules(m, cfg, name, err);
    if (rc == 0)
        gnmi_map_fill_gives(m, root);
out:
    cJSON_Delete(root);
    if (rc < 0)
        gnmi_map_free(m);
    return rc;
}

int gnmi_map_load(struct gnmi_map *m, const char *dir, const char *name, struct dcb_err *err)
{
    memset(m, 0, sizeof(*m));
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
            return dcb_err_set(err, DCB_E_INVAL, "map name '%s': letters, digits, '-' and '_' only",
                               name);
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s_gnmi.json", dir, name);
    if (faccessat(AT_FDCWD, path, R_OK, AT_EACCESS) != 0)
        return dcb_err_set(err, DCB_E_NOTFOUND, "gNMI map %s: %s", path, strerror(errno));
    char *buf = counter_map_read_file(path, err);
    if (!buf)
        return err ? err->code : DCB_E_IO;
    int rc = gnmi_map_load_text(m, buf, path, err);
    free(buf);
    return rc;
}

const char *gnmi_map_key(char *buf, size_t len, const char *target, const char *path)
{
    if (target && *target)
        snprintf(buf, len, "%s:%s", target, path);
    else
        snprintf(buf, len, "%s", path);
    return buf;
}

bool gnmi_map_counter(struct gnmi_map *m, const char *key, struct counter_match *out)
{
    return match_cache_lookup(&m->cache, &m->counters, key, out);
}

bool gnmi_cfg_round_add(const struct gnmi_map *m, struct gnmi_cfg_round *r, const char *key,
                        const char *value)
{
    bool any = false;
    for (size_t i = 0; i < m->ncfg && !any; i++)
        any = regexec(&m->cfg[i].re, key, 0, NULL, 0) == 0;
    if (!any)
        return false;
    if (r->n == r->cap && dcb_grow(&r->leaves, &r->cap, sizeof(*r->leaves), 64) < 0)
        return false;
    r->leaves[r->n].key = strdup(key);
    r->leaves[r->n].value = strdup(value);
    if (!r->leaves[r->n].key || !r->leaves[r->n].value) {
        free(r->leaves[r->n].key);
        free(r->leaves[r->n].value);
        return false;
    }
    r->n++;
    return true;
}

void gnmi_cfg_round_clear(struct gnmi_cfg_round *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->leaves[i].key);
        free(r->leaves[i].value);
    }
    free(r->leaves);
    memset(r, 0, sizeof(*r));
}

static void group_text(const char *s, const regmatch_t *g, char *buf, size_t len)
{
    buf[0] = '\0';
    if (g->rm_so < 0)
        return;
    size_t n = (size_t)(g->rm_eo - g->rm_so);
    if (n >= len)
        n = len - 1;
    memcpy(buf, s + g->rm_so, n);
    buf[n] = '\0';
}

/* field with {N} replaced by group N (N 1..9, the user's numbering) and {value}. */
static bool expand(const char *tmpl, const char *key, const regmatch_t *groups, size_t ngroups,
                   const char *value, int range_group, int range_value, char *out, size_t len)
{
    size_t o = 0;
    for (const char *p = tmpl; *p; p++) {
        char piece[256];
        if (p[0] == '{' && p[1] >= '1' && p[1] <= '9' && p[2] == '}') {
            size_t g = (size_t)(p[1] - '0') + 1;
            if (g >= ngroups)
                return false;
            if (range_value >= 0 && (int)g == range_group)
                snprintf(piece, sizeof(piece), "%d", range_value);
            else
                group_text(key, &groups[g], piece, sizeof(piece));
            p += 2;
        } else if (!strncmp(p, "{value}", 7)) {
            snprintf(piece, sizeof(piece), "%s", value);
            p += 6;
        } else {
            piece[0] = *p;
            piece[1] = '\0';
        }
        size_t n = strlen(piece);
        if (o + n + 1 > len)
            return false;
        memcpy(out + o, piece, n);
        o += n;
    }
    out[o] = '\0';
    return true;
}

static bool convert(enum gnmi_cfg_format f, const char *value, char *out, size_t len)
{
    switch (f) {
    case GNMI_FMT_PRIO_LIST: {
        unsigned mask = 0;
        const char *p = value;
        while (*p) {
            if (*p < '0' || *p > '7')
                return false;
            unsigned a = (unsigned)(*p++ - '0'), b = a;
            if (*p == '-' && p[1] >= '0' && p[1] <= '7') {
                b = (unsigned)(p[1] - '0');
                p += 2;
            }
            for (unsigned i = a; i <= b; i++)
                mask |= 1u << i;
            if (*p == ',')
                p++;
            else if (*p)
                return false;
        }
        snprintf(out, len, "0x%02x", mask);
        return true;
    }
    case GNMI_FMT_SONIC_ECN:
        if (strncmp(value, "ecn_", 4))
            return false;
        snprintf(out, len, "%s", strcmp(value, "ecn_none") ? "on" : "off");
        return true;
    default: snprintf(out, len, "%s", value); return true;
    }
}

/* The relative fields of the entry under prefix, applied under base (switch.buffer.3). */
static void apply_ref(const struct gnmi_map *m, const struct gnmi_cfg_round *r, const char *ifname,
                      const char *base, const char *prefix, gnmi_cfg_fn fn, void *arg)
{
    size_t plen = strlen(prefix);
    for (size_t i = 0; i < r->n; i++) {
        const struct gnmi_cfg_leaf *l = &r->leaves[i];
        if (strncmp(l->key, prefix, plen) || strchr(l->key + plen, '/'))
            continue;
        for (size_t k = 0; k < m->ncfg; k++) {
            const struct gnmi_config_rule *rule = &m->cfg[k];
            if (strchr(rule->field, '.') || rule->format == GNMI_FMT_REF ||
                regexec(&rule->re, l->key, 0, NULL, 0))
                continue;
            char field[160], val[128];
            if ((size_t)snprintf(field, sizeof(field), "%s.%s", base, rule->field) <
                    sizeof(field) &&
                convert(rule->format, l->value, val, sizeof(val)))
                fn(ifname, field, val, arg);
            break;
        }
    }
}

void gnmi_cfg_round_apply(const struct gnmi_map *m, const struct gnmi_cfg_round *r, gnmi_cfg_fn fn,
                          void *arg)
{
    regmatch_t g[10];
    for (size_t i = 0; i < r->n; i++) {
        const struct gnmi_cfg_leaf *l = &r->leaves[i];
        for (size_t k = 0; k < m->ncfg; k++) {
            const struct gnmi_config_rule *rule = &m->cfg[k];
            if (!strchr(rule->field, '.') && rule->format != GNMI_FMT_REF)
                continue; /* relative: only through a ref */
            if (regexec(&rule->re, l->key, 10, g, 0))
                continue;
            char ifname[64] = "";
            if (rule->ifname_group)
                group_text(l->key, &g[rule->ifname_group], ifname, sizeof(ifname));
            size_t ngroups = rule->re.re_nsub + 1;
            int lo = -1, hi = -1;
            int start = rule->range_end_group - 1; /* the group before the "-M" */
            if (rule->range_end_group && g[rule->range_end_group].rm_so >= 0 && start >= 2 &&
                g[start].rm_so >= 0) {
                char a[8], b[8];
                group_text(l->key, &g[start], a, sizeof(a));
                group_text(l->key, &g[rule->range_end_group], b, sizeof(b));
                lo = atoi(a);
                hi = atoi(b[0] == '-' ? b + 1 : b);
                if (hi < lo || hi - lo > 7)
                    hi = lo;
            }
            for (int v = lo; v <= hi; v++) {
                char field[160];
                if (!expand(rule->field, l->key, g, ngroups, l->value, start, lo >= 0 ? v : -1,
                            field, sizeof(field)))
                    break;
                if (rule->format == GNMI_FMT_REF) {
                    char prefix[256];
                    if (expand(rule->ref, l->key, g, ngroups, l->value, -1, -1, prefix,
                               sizeof(prefix)))
                        apply_ref(m, r, ifname, field, prefix, fn, arg);
                } else {
                    char val[128];
                    if (convert(rule->format, l->value, val, sizeof(val)))
                        fn(ifname, field, val, arg);
                }
                if (lo < 0)
                    break;
            }
            break;
        }
    }
}
