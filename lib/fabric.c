/* The fabric file: loading, validation and the effective config of an interface. */
#include "fabric.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fabric_index.h"
#include "file_text.h"
#include "qos_json.h"
#include "topology_row.h"
#include "units.h"

void fabric_init(struct fabric *f)
{
    memset(f, 0, sizeof(*f));
}

void fabric_free(struct fabric *f)
{
    for (size_t i = 0; i < f->ndevices; i++)
        free(f->devices[i].ifaces);
    free(f->devices);
    free(f->links);
    fabric_index_free(f);
    memset(f, 0, sizeof(*f));
}

const char *fabric_role_name(enum fabric_role role)
{
    return role == FABRIC_SWITCH ? "switch" : "host";
}

char *fabric_topology_json(const struct fabric *f, const char *device, const char *ifname,
                           const char *peer_prefix)
{
    const struct fabric_device *d = fabric_find_device(f, device);
    const struct fabric_end *peer = NULL;
    const struct fabric_device *pd = NULL;
    if (fabric_find_link(f, device, ifname, &peer) && peer)
        pd = fabric_find_device(f, peer->device);
    char peer_device[2 * DCB_DEVICE_MAX];
    if (pd)
        snprintf(peer_device, sizeof(peer_device), "%s%s", peer_prefix ? peer_prefix : "",
                 peer->device);
    return topology_row_json(d ? fabric_role_name(d->role) : "host", pd ? peer_device : NULL,
                             pd ? peer->ifname : NULL, pd ? fabric_role_name(pd->role) : NULL,
                             NULL);
}

const char *fabric_reach_name(enum fabric_reach reach)
{
    switch (reach) {
    case REACH_LOCAL: return "local";
    case REACH_GNMI: return "gnmi";
    default: return "none";
    }
}

struct fabric_device *fabric_add_device(struct fabric *f, const char *name, enum fabric_role role,
                                        struct dcb_err *err)
{
    if (f->ndevices >= FABRIC_MAX_DEVICES) {
        dcb_err_set(err, DCB_E_RANGE, "more than %d devices", FABRIC_MAX_DEVICES);
        return NULL;
    }
    if (f->ndevices == f->devices_cap) {
        size_t cap = f->devices_cap ? f->devices_cap * 2 : 16;
        struct fabric_device *d = realloc(f->devices, cap * sizeof(*d));
        if (!d) {
            dcb_err_set(err, DCB_E_NOMEM, "out of memory for devices");
            return NULL;
        }
        f->devices = d;
        f->devices_cap = cap;
    }
    struct fabric_device *d = &f->devices[f->ndevices++];
    memset(d, 0, sizeof(*d));
    snprintf(d->name, sizeof(d->name), "%s", name);
    d->role = role;
    qos_config_init(&d->config);
    return d;
}

struct fabric_link *fabric_add_link(struct fabric *f, struct dcb_err *err)
{
    if (f->nlinks >= FABRIC_MAX_LINKS) {
        dcb_err_set(err, DCB_E_RANGE, "more than %d links", FABRIC_MAX_LINKS);
        return NULL;
    }
    if (f->nlinks == f->links_cap) {
        size_t cap = f->links_cap ? f->links_cap * 2 : 16;
        struct fabric_link *l = realloc(f->links, cap * sizeof(*l));
        if (!l) {
            dcb_err_set(err, DCB_E_NOMEM, "out of memory for links");
            return NULL;
        }
        f->links = l;
        f->links_cap = cap;
    }
    struct fabric_link *l = &f->links[f->nlinks++];
    memset(l, 0, sizeof(*l));
    return l;
}

const struct fabric_device *fabric_find_device(const struct fabric *f, const char *name)
{
    long at = fabric_index_device(f, name);
    if (at != -2)
        return at >= 0 ? &f->devices[at] : NULL;
    for (size_t i = 0; i < f->ndevices; i++) /* no memory for the index */
        if (strcmp(f->devices[i].name, name) == 0)
            return &f->devices[i];
    return NULL;
}

static struct fabric_iface *find_iface(struct fabric_device *d, const char *name)
{
    for (size_t i = 0; i < d->nifaces; i++)
        if (strcmp(d->ifaces[i].name, name) == 0)
            return &d->ifaces[i];
    return NULL;
}

static struct fabric_iface *add_iface(struct fabric_device *d, const char *name,
                                      struct dcb_err *err)
{
    struct fabric_iface *i = find_iface(d, name);
    if (i)
        return i;
    if (d->nifaces == d->ifaces_cap) {
        size_t cap = d->ifaces_cap ? d->ifaces_cap * 2 : 4;
        struct fabric_iface *n = realloc(d->ifaces, cap * sizeof(*n));
        if (!n) {
            dcb_err_set(err, DCB_E_NOMEM, "out of memory for interfaces");
            return NULL;
        }
        d->ifaces = n;
        d->ifaces_cap = cap;
    }
    i = &d->ifaces[d->nifaces++];
    memset(i, 0, sizeof(*i));
    snprintf(i->name, sizeof(i->name), "%s", name);
    qos_config_init(&i->config);
    return i;
}

const struct fabric_link *fabric_find_link(const struct fabric *f, const char *device,
                                           const char *ifname, const struct fabric_end **peer)
{
    long at = fabric_index_end(f, device, ifname);
    if (at >= 0) {
        const struct fabric_link *l = &f->links[at / 2];
        if (peer)
            *peer = at % 2 ? &l->a : &l->b;
        return l;
    }
    if (at == -1)
        return NULL;
    for (size_t i = 0; i < f->nlinks; i++) { /* no memory for the index */
        const struct fabric_link *l = &f->links[i];
        if (!strcmp(l->a.device, device) && !strcmp(l->a.ifname, ifname)) {
            if (peer)
                *peer = &l->b;
            return l;
        }
        if (!strcmp(l->b.device, device) && !strcmp(l->b.ifname, ifname)) {
            if (peer)
                *peer = &l->a;
            return l;
        }
    }
    return NULL;
}

int fabric_effective_config(const struct fabric *f, const char *device, const char *ifname,
                            struct qos_config *out, struct dcb_err *err)
{
    const struct fabric_device *d = fabric_find_device(f, device);
    if (!d)
        return dcb_err_set(err, DCB_E_NOTFOUND, "no device \"%s\"", device);
    *out = f->defaults;
    qos_merge(out, &f->role_defaults[d->role]);
    qos_merge(out, &d->config);
    const struct fabric_iface *i = find_iface((struct fabric_device *)d, ifname);
    if (i)
        qos_merge(out, &i->config);
    const struct fabric_link *l = fabric_find_link(f, device, ifname, NULL);
    if (l && l->speed_bps) {
        out->speed_bps.v = (int64_t)l->speed_bps;
        out->speed_bps.set = true;
    }
    if (l && l->cable_set) {
        out->cable_mm.v = (int64_t)l->cable_mm;
        out->cable_mm.set = true;
    }
    return 0;
}

void fabric_each_iface(const struct fabric *f, const struct fabric_device *d,
                       void (*fn)(const char *ifname, void *arg), void *arg)
{
    const unsigned *ends;
    size_t n;
    if (fabric_index_device_ends(f, (size_t)(d - f->devices), &ends, &n)) {
        for (size_t i = 0; i < n; i++) {
            const struct fabric_link *l = &f->links[ends[i] / 2];
            fn(ends[i] % 2 ? l->b.ifname : l->a.ifname, arg);
        }
    } else {
        for (size_t i = 0; i < f->nlinks; i++) { /* no memory for the index */
            const struct fabric_link *l = &f->links[i];
            if (!strcmp(l->a.device, d->name))
                fn(l->a.ifname, arg);
            if (!strcmp(l->b.device, d->name))
                fn(l->b.ifname, arg);
        }
    }
    for (size_t i = 0; i < d->nifaces; i++)
        if (!fabric_find_link(f, d->name, d->ifaces[i].name, NULL))
            fn(d->ifaces[i].name, arg);
}

/* ---- loading -------------------------------------------------------------------------- */

static int check_keys(const cJSON *obj, const char *const *allowed, const char *where,
                      struct dcb_err *err)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, obj) {
        bool ok = false;
        for (const char *const *a = allowed; *a; a++)
            ok = ok || strcmp(item->string, *a) == 0;
        if (!ok)
            return dcb_err_set(err, DCB_E_INVAL, "%s%s%s: unknown key", where, *where ? "." : "",
                               item->string);
    }
    return 0;
}

/* A name usable as a device or interface: 1..max-1 printable characters, no ':' or spaces. */
static int check_name(const cJSON *item, size_t max, const char *where, const char *what,
                      struct dcb_err *err)
{
    if (!cJSON_IsString(item))
        return dcb_err_set(err, DCB_E_INVAL, "%s: %s must be a string", where, what);
    const char *s = item->valuestring;
    size_t n = strlen(s);
    if (n == 0 || n >= max)
        return dcb_err_set(err, DCB_E_INVAL, "%s: %s must be 1 to %zu characters", where, what,
                           max - 1);
    for (const char *c = s; *c; c++)
        if (*c == ':' || (unsigned char)*c <= ' ' || *c == 0x7f)
            return dcb_err_set(err, DCB_E_INVAL,
                               "%s: %s \"%s\" has a ':', a space or a control "
                               "character",
                               where, what, s);
    return 0;
}

/* Speed as a number (bps) or text ("400G"); must be above zero. */
static int parse_speed_item(const cJSON *item, const char *where, uint64_t *bps,
                            struct dcb_err *err)
{
    struct dcb_err uerr;
    if (cJSON_IsNumber(item)) {
        if (item->valuedouble < 0)
            return dcb_err_set(err, DCB_E_RANGE, "%s: %.17g is negative", where, item->valuedouble);
        if (item->valuedouble >= 1.8e19)
            return dcb_err_set(err, DCB_E_RANGE, "%s: %.17g is too large", where,
                               item->valuedouble);
        *bps = (uint64_t)item->valuedouble;
    } else if (cJSON_IsString(item)) {
        if (dcb_parse_speed(item->valuestring, bps, &uerr) < 0)
            return dcb_err_set(err, uerr.code, "%s: %s", where, uerr.msg);
    } else {
        return dcb_err_set(err, DCB_E_INVAL, "%s: a speed such as \"400G\"", where);
    }
    if (*bps < (uint64_t)QOS_SPEED_MIN_BPS || *bps > (uint64_t)QOS_SPEED_MAX_BPS) {
        char v[64], lo[DCB_UNIT_BUF], hi[DCB_UNIT_BUF];
        if (cJSON_IsNumber(item))
            snprintf(v, sizeof(v), "%.17g", item->valuedouble);
        else
            snprintf(v, sizeof(v), "%s", item->valuestring);
        return dcb_err_set(err, DCB_E_RANGE, "%s: %s is out of range (%s to %s)", where, v,
                           dcb_fmt_speed(QOS_SPEED_MIN_BPS, lo, sizeof(lo)),
                           dcb_fmt_speed(QOS_SPEED_MAX_BPS, hi, sizeof(hi)));
    }
    return 0;
}

static int parse_length_item(const cJSON *item, const char *where, uint64_t *mm,
                             struct dcb_err *err)
{
    struct dcb_err uerr;
    if (cJSON_IsNumber(item)) {
        if (item->valuedouble < 0)
            return dcb_err_set(err, DCB_E_RANGE, "%s: %.17g is negative", where, item->valuedouble);
        if (item->valuedouble * 1000.0 > (double)QOS_CABLE_MAX_MM)
            return dcb_err_set(err, DCB_E_RANGE, "%s: %.17g m is out of range (0 to 100km)", where,
                               item->valuedouble);
        *mm = (uint64_t)llround(item->valuedouble * 1000.0);
        return 0;
    }
    if (!cJSON_IsString(item))
        return dcb_err_set(err, DCB_E_INVAL, "%s: a length in metres", where);
    if (dcb_parse_length(item->valuestring, mm, &uerr) < 0)
        return dcb_err_set(err, uerr.code, "%s: %s", where, uerr.msg);
    if (*mm > (uint64_t)QOS_CABLE_MAX_MM)
        return dcb_err_set(err, DCB_E_RANGE, "%s: %s is out of range (0 to 100km)", where,
                           item->valuestring);
    return 0;
}

static int copy_string(const cJSON *obj, const char *key, char *dst, size_t len, const char *where,
                       struct dcb_err *err)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item)
        return 0;
    if (!cJSON_IsString(item) || strlen(item->valuestring) >= len)
        return dcb_err_set(err, DCB_E_INVAL, "%s.%s: must be a string under %zu characters", where,
                           key, len);
    snprintf(dst, len, "%s", item->valuestring);
    return 0;
}

static int load_reach(struct fabric_device *d, const cJSON *reach, const char *where,
                      struct dcb_err *err)
{
    if (cJSON_IsString(reach)) {
        if (!strcmp(reach->valuestring, "local"))
            d->reach = REACH_LOCAL;
        else if (!strcmp(reach->valuestring, "none"))
            d->reach = REACH_NONE;
        else
            return dcb_err_set(err, DCB_E_INVAL,
                               "%s: \"%s\" is not local, none or {\"gnmi\": {...}}", where,
                               reach->valuestring);
        return 0;
    }
    static const char *const reach_keys[] = { "gnmi", NULL };
    static const char *const gnmi_keys[] = {
        "target", "tls", "insecure", "credentials", "map", NULL
    };
    static const char *const tls_keys[] = { "ca", "cert", "key", NULL };
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(reach, "gnmi");
    int rc;
    if (!cJSON_IsObject(reach) || !cJSON_IsObject(g))
        return dcb_err_set(err, DCB_E_INVAL, "%s: \"local\", \"none\" or {\"gnmi\": {...}}", where);
    if ((rc = check_keys(reach, reach_keys, where, err)) < 0)
        return rc;
    char gwhere[96];
    snprintf(gwhere, sizeof(gwhere), "%s.gnmi", where);
    if ((rc = check_keys(g, gnmi_keys, gwhere, err)) < 0)
        return rc;
    d->reach = REACH_GNMI;
    struct fabric_gnmi *gn = &d->gnmi;
    if ((rc = copy_string(g, "target", gn->target, sizeof(gn->target), gwhere, err)) < 0 ||
        (rc = copy_string(g, "credentials", gn->credentials, sizeof(gn->credentials), gwhere,
                          err)) < 0 ||
        (rc = copy_string(g, "map", gn->map, sizeof(gn->map), gwhere, err)) < 0)
        return rc;
    if (!gn->target[0] || !strchr(gn->target, ':'))
        return dcb_err_set(err, DCB_E_INVAL, "%s.target: needs \"host:port\"", gwhere);
    const cJSON *insecure = cJSON_GetObjectItemCaseSensitive(g, "insecure");
    if (insecure && !cJSON_IsBool(insecure))
        return dcb_err_set(err, DCB_E_INVAL, "%s.insecure: must be true or false", gwhere);
    gn->insecure = cJSON_IsTrue(insecure);
    const cJSON *tls = cJSON_GetObjectItemCaseSensitive(g, "tls");
    if (tls) {
        char twhere[112];
        snprintf(twhere, sizeof(twhere), "%s.tls", gwhere);
        if (!cJSON_IsObject(tls))
            return dcb_err_set(err, DCB_E_INVAL, "%s: must be an object", twhere);
        if ((rc = check_keys(tls, tls_keys, twhere, err)) < 0 ||
            (rc = copy_string(tls, "ca", gn->tls_ca, sizeof(gn->tls_ca), twhere, err)) < 0 ||
            (rc = copy_string(tls, "cert", gn->tls_cert, sizeof(gn->tls_cert), twhere, err)) < 0 ||
            (rc = copy_string(tls, "key", gn->tls_key, sizeof(gn->tls_key), twhere, err)) < 0)
            return rc;
        if (gn->insecure)
            return dcb_err_set(err, DCB_E_INVAL, "%s: tls and insecure together", gwhere);
    }
    return 0;
}

/* "aliases": ["leaf1.lab", "aa:bb:cc:00:00:01"]: the names LLDP gives the device. */
static int load_aliases(struct fabric_device *d, const cJSON *aliases, const char *where,
                        struct dcb_err *err)
{
    if (!aliases)
        return 0;
    if (!cJSON_IsArray(aliases) || cJSON_GetArraySize(aliases) > FABRIC_ALIASES_MAX)
        return dcb_err_set(err, DCB_E_INVAL, "%s.aliases: must be a list of at most %d names",
                           where, FABRIC_ALIASES_MAX);
    const cJSON *a;
    int i = 0;
    cJSON_ArrayForEach(a, aliases) {
        char awhere[80];
        snprintf(awhere, sizeof(awhere), "%s.aliases[%d]", where, i++);
        size_t n = cJSON_IsString(a) ? strlen(a->valuestring) : 0;
        if (n == 0 || n >= DCB_DEVICE_MAX)
            return dcb_err_set(err, DCB_E_INVAL, "%s: must be a name of 1 to %d characters", awhere,
                               DCB_DEVICE_MAX - 1);
        for (const char *c = a->valuestring; *c; c++) /* a MAC chassis ID has colons */
            if ((unsigned char)*c < ' ' || *c == 0x7f)
                return dcb_err_set(err, DCB_E_INVAL, "%s: has a control character", awhere);
        snprintf(d->aliases[d->naliases++], DCB_DEVICE_MAX, "%s", a->valuestring);
    }
    return 0;
}

/* An entry naming a generated device refines it (the caller has ruled out duplicates). */
static int load_device(struct fabric *f, const cJSON *dj, int idx, struct dcb_err *err)
{
    static const char *const keys[] = { "name",   "aliases",    "role", "reach",
                                        "config", "interfaces", NULL };
    char where[48];
    snprintf(where, sizeof(where), "devices[%d]", idx);
    if (!cJSON_IsObject(dj))
        return dcb_err_set(err, DCB_E_INVAL, "%s: must be an object", where);
    int rc = check_keys(dj, keys, where, err);
    if (rc < 0)
        return rc;
    char nwhere[64];
    snprintf(nwhere, sizeof(nwhere), "%s.name", where);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(dj, "name");
    if (!name)
        return dcb_err_set(err, DCB_E_INVAL, "%s: a device needs a name", where);
    if ((rc = check_name(name, DCB_DEVICE_MAX, nwhere, "name", err)) < 0)
        return rc;
    const cJSON *role = cJSON_GetObjectItemCaseSensitive(dj, "role");
    int role_value = -1;
    if (role) {
        if (cJSON_IsString(role) && !strcmp(role->valuestring, "host"))
            role_value = FABRIC_HOST;
        else if (cJSON_IsString(role) && !strcmp(role->valuestring, "switch"))
            role_value = FABRIC_SWITCH;
        else
            return dcb_err_set(err, DCB_E_INVAL, "%s.role: must be \"host\" or \"switch\"", where);
    }
    struct fabric_device *d = (struct fabric_device *)fabric_find_device(f, name->valuestring);
    if (d) {
        if (role_value >= 0 && (enum fabric_role)role_value != d->role)
            return dcb_err_set(err, DCB_E_INVAL, "%s.role: \"%s\" is generated as a %s", where,
                               d->name, fabric_role_name(d->role));
    } else {
        if (role_value < 0)
            return dcb_err_set(err, DCB_E_INVAL, "%s.role: missing (\"host\" or \"switch\")",
                               where);
        d = fabric_add_device(f, name->valuestring, (enum fabric_role)role_value, err);
        if (!d)
            return DCB_E_NOMEM;
    }
    if ((rc = load_aliases(d, cJSON_GetObjectItemCaseSensitive(dj, "aliases"), where, err)) < 0)
        return rc;
    const cJSON *reach = cJSON_GetObjectItemCaseSensitive(dj, "reach");
    char rwhere[64];
    snprintf(rwhere, sizeof(rwhere), "%s.reach", where);
    if (reach && (rc = load_reach(d, reach, rwhere, err)) < 0)
        return rc;
    const cJSON *config = cJSON_GetObjectItemCaseSensitive(dj, "config");
    char cwhere[64];
    snprintf(cwhere, sizeof(cwhere), "%s.config.", where);
    if (config && (rc = qos_from_json(&d->config, config, cwhere, err)) < 0)
        return rc;
    const cJSON *ifs = cJSON_GetObjectItemCaseSensitive(dj, "interfaces");
    if (ifs) {
        if (!cJSON_IsObject(ifs))
            return dcb_err_set(err, DCB_E_INVAL,
                               "%s.interfaces: must be an object of "
                               "interface name -> config",
                               where);
        const cJSON *ic;
        cJSON_ArrayForEach(ic, ifs) {
            char iwhere[160];
            snprintf(iwhere, sizeof(iwhere), "%s.interfaces.%.60s", where, ic->string);
            cJSON key = { 0 };
            key.type = cJSON_String;
            key.valuestring = ic->string;
            if ((rc = check_name(&key, DCB_IFNAME_MAX, iwhere, "interface name", err)) < 0)
                return rc;
            struct fabric_iface *fi = add_iface(d, ic->string, err);
            if (!fi)
                return DCB_E_NOMEM;
            char pwhere[168];
            snprintf(pwhere, sizeof(pwhere), "%s.", iwhere);
            if ((rc = qos_from_json(&fi->config, ic, pwhere, err)) < 0)
                return rc;
            if ((rc = qos_validate(&fi->config, pwhere, err)) < 0)
                return rc;
        }
    }
    return qos_validate(&d->config, cwhere, err);
}

static int parse_end(const cJSON *item, const char *where, struct fabric_end *end,
                     struct dcb_err *err)
{
    if (!cJSON_IsString(item))
        return dcb_err_set(err, DCB_E_INVAL, "%s: expected \"device:interface\"", where);
    const char *s = item->valuestring;
    const char *colon = strchr(s, ':');
    if (!colon || colon == s || !colon[1] || strchr(colon + 1, ':'))
        return dcb_err_set(err, DCB_E_INVAL, "%s: \"%s\" is not \"device:interface\"", where, s);
    size_t dn = (size_t)(colon - s);
    if (dn >= sizeof(end->device) || strlen(colon + 1) >= sizeof(end->ifname))
        return dcb_err_set(err, DCB_E_INVAL, "%s: \"%s\": name too long", where, s);
    memcpy(end->device, s, dn);
    end->device[dn] = '\0';
    snprintf(end->ifname, sizeof(end->ifname), "%s", colon + 1);
    return 0;
}

static int load_link(struct fabric *f, const cJSON *lj, int idx, struct dcb_err *err)
{
    static const char *const keys[] = { "a", "b", "speed", "cable_m", NULL };
    char where[48], sub[64];
    snprintf(where, sizeof(where), "links[%d]", idx);
    if (!cJSON_IsObject(lj))
        return dcb_err_set(err, DCB_E_INVAL, "%s: must be an object", where);
    int rc = check_keys(lj, keys, where, err);
    if (rc < 0)
        return rc;
    struct fabric_link l;
    memset(&l, 0, sizeof(l));
    const char *ends[2] = { "a", "b" };
    struct fabric_end *pe[2] = { &l.a, &l.b };
    for (int e = 0; e < 2; e++) {
        snprintf(sub, sizeof(sub), "%s.%s", where, ends[e]);
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(lj, ends[e]);
        if (!item)
            return dcb_err_set(err, DCB_E_INVAL, "%s: missing", sub);
        if ((rc = parse_end(item, sub, pe[e], err)) < 0)
            return rc;
        if (!fabric_find_device(f, pe[e]->device))
            return dcb_err_set(err, DCB_E_NOTFOUND, "%s: no device \"%s\"", sub, pe[e]->device);
    }
    if (!strcmp(l.a.device, l.b.device) && !strcmp(l.a.ifname, l.b.ifname))
        return dcb_err_set(err, DCB_E_INVAL, "%s: %s:%s is linked to itself", where, l.a.device,
                           l.a.ifname);
    for (int e = 0; e < 2; e++) {
        const struct fabric_link *o = fabric_find_link(f, pe[e]->device, pe[e]->ifname, NULL);
        if (o)
            return dcb_err_set(err, DCB_E_INVAL, "%s.%s: %s:%s is already in links[%zu]", where,
                               ends[e], pe[e]->device, pe[e]->ifname, (size_t)(o - f->links));
    }
    const cJSON *speed = cJSON_GetObjectItemCaseSensitive(lj, "speed");
    snprintf(sub, sizeof(sub), "%s.speed", where);
    if (speed && (rc = parse_speed_item(speed, sub, &l.speed_bps, err)) < 0)
        return rc;
    const cJSON *cable = cJSON_GetObjectItemCaseSensitive(lj, "cable_m");
    snprintf(sub, sizeof(sub), "%s.cable_m", where);
    if (cable) {
        if ((rc = parse_length_item(cable, sub, &l.cable_mm, err)) < 0)
            return rc;
        l.cable_set = true;
    }
    struct fabric_link *slot = fabric_add_link(f, err);
    if (!slot)
        return DCB_E_NOMEM;
    *slot = l;
    return 0;
}

static int get_int(const cJSON *obj, const char *key, int lo, int hi, int *out, const char *where,
                   struct dcb_err *err)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item)
        return dcb_err_set(err, DCB_E_INVAL, "%s.%s: missing", where, key);
    if (!cJSON_IsNumber(item) || item->valuedouble != floor(item->valuedouble) ||
        item->valuedouble < lo || item->valuedouble > hi)
        return dcb_err_set(err, DCB_E_RANGE, "%s.%s: must be a whole number from %d to %d", where,
                           key, lo, hi);
    *out = (int)item->valuedouble;
    return 0;
}

/* The fat-tree's counts: pods of leaves and spines, and the super-spines over them. */
static int load_fat_tree(const cJSON *gj, struct fabric_gen *g, struct dcb_err *err)
{
    static const char *const keys[] = { "type",
                                        "pods",
                                        "leaves_per_pod",
                                        "spines_per_pod",
                                        "super_spines",
                                        "hosts_per_leaf",
                                        "speed",
                                        "uplink_speed",
                                        "cable_m",
                                        "uplink_cable_m",
                                        NULL };
    const char *where = "generate";
    int rc;
    if ((rc = check_keys(gj, keys, where, err)) < 0 ||
        (rc = get_int(gj, "pods", 1, 256, &g->pods, where, err)) < 0 ||
        (rc = get_int(gj, "leaves_per_pod", 1, 256, &g->leaves, where, err)) < 0 ||
        (rc = get_int(gj, "spines_per_pod", 1, 64, &g->spines, where, err)) < 0 ||
        (rc = get_int(gj, "super_spines", 1, 1024, &g->super_spines, where, err)) < 0 ||
        (rc = get_int(gj, "hosts_per_leaf", 0, 512, &g->hosts_per_leaf, where, err)) < 0)
        return rc;
    if (g->super_spines % g->spines)
        return dcb_err_set(err, DCB_E_RANGE,
                           "generate.super_spines: %d is not a multiple of spines_per_pod %d",
                           g->super_spines, g->spines);
    if ((long)g->pods * g->leaves * g->hosts_per_leaf > 16384)
        return dcb_err_set(err, DCB_E_RANGE,
                           "generate: %d pods x %d leaves x %d hosts is more than 16384 hosts",
                           g->pods, g->leaves, g->hosts_per_leaf);
    return 0;
}

static int load_generate(struct fabric *f, const cJSON *gj, struct dcb_err *err)
{
    static const char *const star_keys[] = { "type", "hosts", "speed", "cable_m", NULL };
    static const char *const ls_keys[] = { "type",           "leaves",         "spines",
                                           "hosts_per_leaf", "speed",          "uplink_speed",
                                           "cable_m",        "uplink_cable_m", NULL };
    const char *where = "generate";
    if (!cJSON_IsObject(gj))
        return dcb_err_set(err, DCB_E_INVAL, "generate: must be an object");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(gj, "type");
    struct fabric_gen g;
    memset(&g, 0, sizeof(g));
    int rc;
    if (cJSON_IsString(type) && !strcmp(type->valuestring, "star")) {
        g.type = GEN_STAR;
        if ((rc = check_keys(gj, star_keys, where, err)) < 0 ||
            (rc = get_int(gj, "hosts", 1, 4096, &g.hosts, where, err)) < 0)
            return rc;
    } else if (cJSON_IsString(type) && !strcmp(type->valuestring, "leaf-spine")) {
        g.type = GEN_LEAF_SPINE;
        if ((rc = check_keys(gj, ls_keys, where, err)) < 0 ||
            (rc = get_int(gj, "leaves", 1, 1024, &g.leaves, where, err)) < 0 ||
            (rc = get_int(gj, "spines", 1, 256, &g.spines, where, err)) < 0 ||
            (rc = get_int(gj, "hosts_per_leaf", 0, 512, &g.hosts_per_leaf, where, err)) < 0)
            return rc;
        /* a generated fabric stays a size that rules and reports go through in seconds */
        if (g.leaves * g.hosts_per_leaf > 16384)
            return dcb_err_set(err, DCB_E_RANGE,
                               "generate: %d leaves x %d hosts is more than 16384 hosts", g.leaves,
                               g.hosts_per_leaf);
    } else if (cJSON_IsString(type) && !strcmp(type->valuestring, "fat-tree")) {
        g.type = GEN_FAT_TREE;
        if ((rc = load_fat_tree(gj, &g, err)) < 0)
            return rc;
    } else {
        return dcb_err_set(err, DCB_E_INVAL,
                           "generate.type: must be \"star\", \"leaf-spine\" or \"fat-tree\"");
    }
    const cJSON *item;
    if ((item = cJSON_GetObjectItemCaseSensitive(gj, "speed")) &&
        (rc = parse_speed_item(item, "generate.speed", &g.host_speed_bps, err)) < 0)
        return rc;
    if ((item = cJSON_GetObjectItemCaseSensitive(gj, "uplink_speed")) &&
        (rc = parse_speed_item(item, "generate.uplink_speed", &g.uplink_speed_bps, err)) < 0)
        return rc;
    if ((item = cJSON_GetObjectItemCaseSensitive(gj, "cable_m"))) {
        if ((rc = parse_length_item(item, "generate.cable_m", &g.host_cable_mm, err)) < 0)
            return rc;
        g.host_cable_set = true;
    }
    if ((item = cJSON_GetObjectItemCaseSensitive(gj, "uplink_cable_m"))) {
        if ((rc = parse_length_item(item, "generate.uplink_cable_m", &g.uplink_cable_mm, err)) < 0)
            return rc;
        g.uplink_cable_set = true;
    }
    if (!g.uplink_speed_bps)
        g.uplink_speed_bps = g.host_speed_bps;
    if (!g.uplink_cable_set) {
        g.uplink_cable_mm = g.host_cable_mm;
        g.uplink_cable_set = g.host_cable_set;
    }
    return fabric_generate(f, &g, err);
}

int fabric_load_json(struct fabric *f, const cJSON *root, struct dcb_err *err)
{
    static const char *const keys[] = { "name",     "defaults", "host_defaults", "switch_defaults",
                                        "generate", "devices",  "links",         "workload",
                                        "comment",  NULL };
    fabric_init(f);
    if (!cJSON_IsObject(root))
        return dcb_err_set(err, DCB_E_INVAL, "the fabric must be a JSON object");
    int rc = check_keys(root, keys, "", err);
    if (rc < 0)
        return rc;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
    if (name) {
        if (!cJSON_IsString(name) || strlen(name->valuestring) >= sizeof(f->name))
            return dcb_err_set(err, DCB_E_INVAL, "name: must be a string under %zu characters",
                               sizeof(f->name));
        snprintf(f->name, sizeof(f->name), "%s", name->valuestring);
    }
    const cJSON *defaults = cJSON_GetObjectItemCaseSensitive(root, "defaults");
    if (defaults && ((rc = qos_from_json(&f->defaults, defaults, "defaults.", err)) < 0 ||
                     (rc = qos_validate(&f->defaults, "defaults.", err)) < 0))
        return rc;
    static const char *const role_keys[2] = { "host_defaults", "switch_defaults" };
    for (int r = 0; r < 2; r++) {
        const cJSON *rd = cJSON_GetObjectItemCaseSensitive(root, role_keys[r]);
        char prefix[32];
        snprintf(prefix, sizeof(prefix), "%s.", role_keys[r]);
        if (rd && ((rc = qos_from_json(&f->role_defaults[r], rd, prefix, err)) < 0 ||
                   (rc = qos_validate(&f->role_defaults[r], prefix, err)) < 0))
            return rc;
    }
    const cJSON *gen = cJSON_GetObjectItemCaseSensitive(root, "generate");
    if (gen && (rc = load_generate(f, gen, err)) < 0)
        return rc;
    size_t generated = f->ndevices;
    const cJSON *devices = cJSON_GetObjectItemCaseSensitive(root, "devices");
    if (devices && !cJSON_IsArray(devices))
        return dcb_err_set(err, DCB_E_INVAL, "devices: must be an array");
    /* the entry that refined each generated device, -1 for none */
    int *refined_by = malloc((generated ? generated : 1) * sizeof(*refined_by));
    if (!refined_by)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory for devices");
    for (size_t i = 0; i < generated; i++)
        refined_by[i] = -1;
    const cJSON *dj;
    int idx = 0;
    rc = 0;
    cJSON_ArrayForEach(dj, devices) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(dj, "name");
        /* an explicit entry may refine a generated device once, never repeat an explicit one */
        if (cJSON_IsString(n)) {
            const struct fabric_device *d = fabric_find_device(f, n->valuestring);
            size_t at = d ? (size_t)(d - f->devices) : 0;
            if (d && at >= generated) {
                rc = dcb_err_set(err, DCB_E_INVAL, "devices[%d].name: duplicate device \"%s\"", idx,
                                 n->valuestring);
                break;
            }
            if (d && refined_by[at] >= 0) {
                rc = dcb_err_set(err, DCB_E_INVAL,
                                 "devices[%d].name: duplicate device \"%s\" "
                                 "(also devices[%d])",
                                 idx, n->valuestring, refined_by[at]);
                break;
            }
            if (d)
                refined_by[at] = idx;
        }
        if ((rc = load_device(f, dj, idx, err)) < 0)
            break;
        idx++;
    }
    free(refined_by);
    if (rc < 0)
        return rc;
    const cJSON *links = cJSON_GetObjectItemCaseSensitive(root, "links");
    if (links && !cJSON_IsArray(links))
        return dcb_err_set(err, DCB_E_INVAL, "links: must be an array");
    const cJSON *lj;
    idx = 0;
    cJSON_ArrayForEach(lj, links) {
        if ((rc = load_link(f, lj, idx++, err)) < 0)
            return rc;
    }
    if (f->ndevices == 0)
        return dcb_err_set(err, DCB_E_INVAL,
                           "devices: the fabric has no devices (list some or "
                           "\"generate\" them)");
    return 0;
}

int fabric_load_text(struct fabric *f, const char *text, size_t len, const char *source,
                     struct dcb_err *err)
{
    fabric_init(f);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!root) {
        int line, col;
        size_t off = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
        dcb_text_position(text, off, &line, &col);
        return dcb_err_set(err, DCB_E_INVAL, "%s:%d:%d: not valid JSON", source ? source : "fabric",
                           line, col);
    }
    struct dcb_err inner;
    int rc = fabric_load_json(f, root, &inner);
    cJSON_Delete(root);
    if (rc < 0) {
        fabric_free(f);
        return dcb_err_set(err, rc, "%s: %s", source ? source : "fabric", inner.msg);
    }
    return 0;
}

int fabric_load_file(struct fabric *f, const char *path, struct dcb_err *err)
{
    fabric_init(f);
    char *buf;
    size_t size;
    int rc = dcb_read_text_file(path, FABRIC_FILE_MAX, &buf, &size, err);
    if (rc < 0)
        return rc;
    rc = fabric_load_text(f, buf, size, path, err);
    free(buf);
    return rc;
}
