/* The store as evidence; see evidence_store.h. */
#include "evidence_store.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counter.h"
#include "evidence_memo.h"
#include "evidence_qps.h"
#include "identity.h"
#include "path_gaps.h"
#include "qos_json.h"

struct store_port {
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX];
    struct qos_config cfg, peer;
    bool has_cfg, has_peer;
    char role[8], peer_role[8]; /* from "topology" rows; "" when unknown */
    char peer_device[DCB_DEVICE_MAX], peer_ifname[DCB_IFNAME_MAX]; /* the same; "" */
    char seen_device[DCB_DEVICE_MAX], seen_ifname[DCB_IFNAME_MAX]; /* "topology:lldp" rows */
    char back_device[DCB_DEVICE_MAX], back_ifname[DCB_IFNAME_MAX]; /* a port naming this one */
    char names[2][DCB_DEVICE_MAX + DCB_IFNAME_MAX + 1]; /* peer_port()'s answers: cabled, seen */
    bool peer_is_port; /* that partner is a port here, with its own config */
    /* the metrics the store had series of on the port when the evidence was opened, at any
     * time: a window of any other is unknown without asking */
    uint64_t has_metric[(METRIC_COUNT + 63) / 64];
    const char *device_role; /* what any port of its device's topology rows says, or NULL */
};

/* A preloaded series: its samples, in time order, in the flat arrays below. */
struct preload_series {
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX];
    enum metric_id metric;
    int16_t prio, queue;
    uint8_t bits; /* a counter's width, as the store keeps it */
    uint32_t start, count;
};

struct preload {
    struct dcb_store *st;
    int64_t t0, t1;
    struct preload_series *series;
    size_t nseries, series_cap;
    uint32_t *slots; /* open addressing over series, index + 1 */
    size_t nslots;
    int64_t *ts;
    uint64_t *raw; /* a counter's reading, a gauge's value as its bits */
    size_t n, cap;
    bool nomem;
    enum metric_id last_metric; /* the kind of the last sample's metric, remembered */
    bool last_counter;
};

struct store_evidence {
    struct dcb_store *st;
    struct preload *pre;
    int64_t preload_t1;
    int64_t limit_t0; /* evidence_store_limit; 0: none */
    struct store_port *ports;
    size_t n, cap;
    size_t hint;
    uint32_t *port_slots; /* open addressing over ports by (device, ifname), index + 1 */
    size_t nport_slots;
    struct evidence_memo memo; /* the metric windows answered */
    bool nomem;
    struct dcb_err *err;
    int error;
    struct path_gaps gaps;                  /* the paths the devices said they do not serve */
    uint32_t *order;                        /* the ports by (device, ifname), once all are known */
    uint32_t *rank;                         /* where each port is in order */
    struct evidence_qps qps;                /* the ports' QPs with per-QP series */
    struct identity *identity;              /* the names devices go by ("alias:*" rows) */
    char conflict[2 * DCB_DEVICE_MAX + 16]; /* alias_conflicts()'s first */
};

/* FNV-1a over a port's names: what the port index and the preloaded series hash. */
static uint64_t names_hash(const char *device, const char *ifname)
{
    uint64_t h = 1469598103934665603ULL;
    for (const char *p = device; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    h = (h ^ 0xff) * 1099511628211ULL;
    for (const char *p = ifname; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    return h;
}

static size_t port_hash(const char *device, const char *ifname)
{
    uint64_t h = names_hash(device, ifname) * 0x9e3779b97f4a7c15ULL;
    return (size_t)(h ^ (h >> 29));
}

static bool port_is(const struct store_port *p, const char *device, const char *ifname)
{
    return !strcmp(p->device, device) && !strcmp(p->ifname, ifname);
}

static long find_port(struct store_evidence *se, const char *device, const char *ifname)
{
    /* rules walk the ports in order: the last one asked for, or the next (by name, once the
     * ports are all known; as they came before) */
    if (se->hint < se->n) {
        size_t next = se->hint + 1;
        if (se->rank)
            next = se->rank[se->hint] + 1 < se->n ? se->order[se->rank[se->hint] + 1] : se->n;
        if (port_is(&se->ports[se->hint], device, ifname))
            return (long)se->hint;
        if (next < se->n && port_is(&se->ports[next], device, ifname)) {
            se->hint = next;
            return (long)next;
        }
    }
    size_t mask = se->nport_slots - 1;
    for (size_t k = se->nport_slots ? port_hash(device, ifname) & mask : 0;
         se->nport_slots && se->port_slots[k]; k = (k + 1) & mask) {
        size_t i = se->port_slots[k] - 1;
        if (port_is(&se->ports[i], device, ifname)) {
            se->hint = i;
            return (long)i;
        }
    }
    return -1;
}

/* Makes the index of the ports room for one more; false when out of memory. */
static bool port_slots_grow(struct store_evidence *se)
{
    if ((se->n + 1) * 2 <= se->nport_slots)
        return true;
    size_t nslots = se->nport_slots ? se->nport_slots * 2 : 256, mask = nslots - 1;
    uint32_t *slots = calloc(nslots, sizeof(*slots));
    if (!slots)
        return false;
    for (size_t i = 0; i < se->n; i++) {
        size_t k = port_hash(se->ports[i].device, se->ports[i].ifname) & mask;
        while (slots[k])
            k = (k + 1) & mask;
        slots[k] = (uint32_t)i + 1;
    }
    free(se->port_slots);
    se->port_slots = slots;
    se->nport_slots = nslots;
    return true;
}

static struct store_port *port_of(struct store_evidence *se, const char *device, const char *ifname)
{
    long i = find_port(se, device, ifname);
    if (i >= 0)
        return &se->ports[i];
    if (se->n == se->cap) {
        size_t cap = se->cap ? se->cap * 2 : 64;
        struct store_port *grown = realloc(se->ports, cap * sizeof(*grown));
        if (!grown) {
            se->nomem = true;
            return NULL;
        }
        se->ports = grown;
        se->cap = cap;
    }
    if (!port_slots_grow(se)) {
        se->nomem = true;
        return NULL;
    }
    struct store_port *p = &se->ports[se->n];
    memset(p, 0, sizeof(*p));
    snprintf(p->device, sizeof(p->device), "%s", device);
    snprintf(p->ifname, sizeof(p->ifname), "%s", ifname);
    qos_config_init(&p->cfg);
    qos_config_init(&p->peer);
    size_t mask = se->nport_slots - 1, k = port_hash(p->device, p->ifname) & mask;
    while (se->port_slots[k])
        k = (k + 1) & mask;
    se->port_slots[k] = (uint32_t)se->n + 1;
    se->hint = se->n++;
    return p;
}

static void mark_metric(struct store_port *p, enum metric_id m)
{
    if (m >= 0 && m < METRIC_COUNT)
        p->has_metric[m / 64] |= 1ULL << (m % 64);
}

static int add_sample_port(const struct dcb_sample *s, void *arg)
{
    struct store_evidence *se = arg;
    struct store_port *p = port_of(se, s->device, s->ifname);
    if (p) {
        evidence_qps_take(&se->qps, (uint32_t)(p - se->ports), s);
        mark_metric(p, s->metric);
    }
    return 0;
}

/* A series whose newest sample is after the evidence's end: its port is not one for that, but
 * its older samples answer windows. */
static int add_later_series(const struct dcb_sample *s, void *arg)
{
    struct store_evidence *se = arg;
    long i = find_port(se, s->device, s->ifname);
    if (i >= 0)
        mark_metric(&se->ports[i], s->metric);
    return 0;
}

static bool port_has_metric(const struct store_port *p, enum metric_id m)
{
    return m < 0 || m >= METRIC_COUNT || (p->has_metric[m / 64] >> (m % 64) & 1);
}

static void copy_role(char *dst, const cJSON *role)
{
    if (cJSON_IsString(role) &&
        (!strcmp(role->valuestring, "host") || !strcmp(role->valuestring, "switch")))
        snprintf(dst, 8, "%s", role->valuestring);
}

/* A "topology" row: {"role": "switch", "peer": {"device", "ifname", "role"}}, where a fabric file
 * or a replay cables the port; a "topology:lldp" row, where LLDP on the port says it is
 * (lib/topology_row.h). */
static void add_topology(struct store_port *p, const char *json, bool seen)
{
    cJSON *j = cJSON_Parse(json);
    const cJSON *peer = cJSON_GetObjectItemCaseSensitive(j, "peer");
    copy_role(p->role, cJSON_GetObjectItemCaseSensitive(j, "role"));
    copy_role(p->peer_role, cJSON_GetObjectItemCaseSensitive(peer, "role"));
    const cJSON *device = cJSON_GetObjectItemCaseSensitive(peer, "device");
    const cJSON *ifname = cJSON_GetObjectItemCaseSensitive(peer, "ifname");
    if (cJSON_IsString(device) && cJSON_IsString(ifname)) {
        snprintf(seen ? p->seen_device : p->peer_device, DCB_DEVICE_MAX, "%s", device->valuestring);
        snprintf(seen ? p->seen_ifname : p->peer_ifname, DCB_IFNAME_MAX, "%s", ifname->valuestring);
    }
    cJSON_Delete(j);
}

static int cmp_port_at(const void *a, const void *b, void *arg)
{
    const struct store_port *ports = arg;
    const struct store_port *x = &ports[*(const uint32_t *)a], *y = &ports[*(const uint32_t *)b];
    int c = strcmp(x->device, y->device);
    return c ? c : strcmp(x->ifname, y->ifname);
}

static const struct store_port *sorted_find(const struct store_evidence *se, const uint32_t *order,
                                            const char *device, const char *ifname)
{
    size_t lo = 0, hi = se->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const struct store_port *p = &se->ports[order[mid]];
        int c = strcmp(p->device, device);
        c = c ? c : strcmp(p->ifname, ifname);
        if (!c)
            return p;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* The partner as LLDP sees it, else as the fabric file or replay cables it, else the port that
 * names this one (a switch's LLDP table names the host; the host's port says nothing). */
static const char *partner_name(const struct store_port *p, const char **ifname)
{
    if (p->seen_device[0]) {
        *ifname = p->seen_ifname;
        return p->seen_device;
    }
    *ifname = p->peer_device[0] ? p->peer_ifname : p->back_ifname;
    return p->peer_device[0] ? p->peer_device : p->back_device;
}

static const struct store_port *partner_of(const struct store_evidence *se, const uint32_t *order,
                                           const struct store_port *p)
{
    const char *ifname, *device = partner_name(p, &ifname);
    return device[0] ? sorted_find(se, order, device, ifname) : NULL;
}

static bool names_back(const struct store_port *q, const struct store_port *p)
{
    const char *ifname, *device = partner_name(q, &ifname);
    return !strcmp(device, p->device) && !strcmp(ifname, p->ifname);
}

/* A link seen from one end is known at both. */
static void link_back(struct store_evidence *se, const uint32_t *order)
{
    for (size_t i = 0; i < se->n; i++) {
        const struct store_port *p = &se->ports[i];
        struct store_port *q = (struct store_port *)partner_of(se, order, p);
        if (!q || q->seen_device[0] || q->peer_device[0] || q->back_device[0])
            continue;
        snprintf(q->back_device, sizeof(q->back_device), "%s", p->device);
        snprintf(q->back_ifname, sizeof(q->back_ifname), "%s", p->ifname);
    }
}

/* peer.* is the partner port's own config where the topology names a partner the store has
 * config for, over what the partner advertised (LLDP/DCBX) where it has none of a field. Each
 * pass reads what the other writes not, so the order ports are resolved in does not matter. */
/* A partner named by an alias (an LLDP system name or chassis ID) is named as its device. */
static void canonical_name(const struct identity *id, char *name, size_t len)
{
    const char *device = name[0] ? identity_resolve(id, name) : NULL;
    if (device && strcmp(device, name))
        snprintf(name, len, "%s", device);
}

static int resolve_names(struct store_evidence *se)
{
    for (size_t i = 0; i < se->n; i++)
        if (identity_add_device(se->identity, se->ports[i].device) < 0)
            return -1;
    identity_build(se->identity);
    for (size_t i = 0; i < se->n; i++) {
        struct store_port *p = &se->ports[i];
        canonical_name(se->identity, p->peer_device, sizeof(p->peer_device));
        canonical_name(se->identity, p->seen_device, sizeof(p->seen_device));
    }
    return 0;
}

static int resolve_peers(struct store_evidence *se)
{
    if (resolve_names(se) < 0)
        return -1;
    uint32_t *order = malloc((se->n ? se->n : 1) * sizeof(*order));
    if (!order)
        return -1;
    for (size_t i = 0; i < se->n; i++)
        order[i] = (uint32_t)i;
    qsort_r(order, se->n, sizeof(*order), cmp_port_at, se->ports);
    for (size_t i = 0, j; i < se->n; i = j) { /* each device's role, once */
        const char *role = NULL;
        for (j = i; j < se->n && !strcmp(se->ports[order[j]].device, se->ports[order[i]].device);
             j++)
            if (!role && se->ports[order[j]].role[0])
                role = se->ports[order[j]].role;
        for (size_t k = i; k < j; k++)
            se->ports[order[k]].device_role = role;
    }
    link_back(se, order);
    /* what the partner heard this port advertise is this port's config where it has none of
     * its own (a host whose NIC config was not read, but whose LLDP the switch keeps): read
     * from the partners' advertised configs only, written to the ports' own */
    for (size_t i = 0; i < se->n; i++) {
        struct store_port *p = &se->ports[i];
        const struct store_port *q = partner_of(se, order, p);
        if (q && q->has_peer && names_back(q, p)) {
            struct qos_config own = p->cfg;
            p->cfg = q->peer;
            if (p->has_cfg)
                qos_merge(&p->cfg, &own);
            p->has_cfg = true;
        }
    }
    /* then peer.*: the partner's own config over what it advertised here */
    for (size_t i = 0; i < se->n; i++) {
        struct store_port *p = &se->ports[i];
        const struct store_port *q = partner_of(se, order, p);
        if (!q || !q->has_cfg)
            continue;
        if (p->has_peer)
            qos_merge(&p->peer, &q->cfg);
        else
            p->peer = q->cfg;
        p->has_peer = true;
        p->peer_is_port = true;
    }
    se->rank = malloc((se->n ? se->n : 1) * sizeof(*se->rank));
    if (!se->rank) {
        free(order);
        return -1;
    }
    for (size_t i = 0; i < se->n; i++)
        se->rank[order[i]] = (uint32_t)i;
    se->order = order;
    return 0;
}

/* Rows come in (device, ifname, source) order: "fabric" sorts before the measured sources
 * ("dcbnl", "sysfs ...") only by luck, so intent is merged first explicitly. */
/* An "alias:BY" row: {"names": [...]}, the names row->device goes by, as BY knows them. */
static void add_aliases(struct store_evidence *se, const struct store_config_row *row)
{
    cJSON *j = cJSON_Parse(row->json);
    const cJSON *name;
    cJSON_ArrayForEach(name, cJSON_GetObjectItemCaseSensitive(j, "names"))
        if (cJSON_IsString(name) &&
            identity_add_alias(se->identity, row->device, name->valuestring) < 0)
            se->nomem = true;
    cJSON_Delete(j);
}

static int add_config(const struct store_config_row *row, void *arg)
{
    struct store_evidence *se = arg;
    if (!strncmp(row->source, "alias:", 6)) {
        add_aliases(se, row);
        return 0;
    }
    struct store_port *p = port_of(se, row->device, row->ifname);
    if (!p)
        return 0;
    if (!strcmp(row->source, "topology") || !strcmp(row->source, "topology:lldp")) {
        add_topology(p, row->json, row->source[8] == ':');
        return 0;
    }
    cJSON *j = cJSON_Parse(row->json);
    struct qos_config c;
    qos_config_init(&c);
    struct dcb_err err;
    bool ok = j && qos_from_json(&c, j, "", &err) == 0;
    cJSON_Delete(j);
    if (!ok)
        return 0; /* a snapshot this build cannot read is no evidence */
    bool peer = !strncmp(row->source, "peer:", 5);
    struct qos_config *dst = peer ? &p->peer : &p->cfg;
    if (!peer && !strcmp(row->source, "fabric")) {
        struct qos_config measured = *dst;
        *dst = c; /* intent under what was measured */
        qos_merge(dst, &measured);
    } else {
        qos_merge(dst, &c);
    }
    *(peer ? &p->has_peer : &p->has_cfg) = true;
    return 0;
}

static int each_port(void *ctx, evidence_port_fn fn, void *arg, struct dcb_err *err)
{
    (void)err;
    struct store_evidence *se = ctx;
    for (size_t i = 0; i < se->n; i++)
        fn(arg, se->ports[i].device, se->ports[i].ifname);
    return 0;
}

static void each_qp(void *ctx, const char *device, const char *ifname, evidence_qp_fn fn, void *arg)
{
    struct store_evidence *se = ctx;
    long i = find_port(se, device, ifname);
    if (i >= 0)
        evidence_qps_each(&se->qps, (uint32_t)i, fn, arg);
}

static const struct qos_config *config(void *ctx, const char *device, const char *ifname)
{
    struct store_evidence *se = ctx;
    long i = find_port(se, device, ifname);
    return i >= 0 && se->ports[i].has_cfg ? &se->ports[i].cfg : NULL;
}

static const struct qos_config *peer_config(void *ctx, const char *device, const char *ifname)
{
    struct store_evidence *se = ctx;
    long i = find_port(se, device, ifname);
    return i >= 0 && se->ports[i].has_peer ? &se->ports[i].peer : NULL;
}

static const char *peer_port(void *ctx, const char *device, const char *ifname, bool observed)
{
    struct store_evidence *se = ctx;
    long i = find_port(se, device, ifname);
    if (i < 0)
        return NULL;
    struct store_port *p = &se->ports[i];
    const char *d = observed ? p->seen_device : p->peer_device;
    if (!d[0])
        return NULL;
    char *name = p->names[observed];
    snprintf(name, sizeof(p->names[0]), "%s:%s", d, observed ? p->seen_ifname : p->peer_ifname);
    return name;
}

static size_t alias_conflicts(void *ctx, const char *device, const char **first)
{
    struct store_evidence *se = ctx;
    const char *alias, *other;
    size_t n = identity_conflicts(se->identity, device, &alias, &other);
    if (n)
        snprintf(se->conflict, sizeof(se->conflict), "%s (also %s)", alias, other);
    *first = n ? se->conflict : NULL;
    return n;
}

static bool peer_judged(void *ctx, const char *device, const char *ifname)
{
    struct store_evidence *se = ctx;
    long i = find_port(se, device, ifname);
    return i >= 0 && se->ports[i].peer_is_port;
}

/* A device's role: what any of its ports' topology rows says. Rules ask for the device of the
 * port they are at, mostly. */
static const char *role(void *ctx, const char *device)
{
    struct store_evidence *se = ctx;
    if (se->hint < se->n && !strcmp(se->ports[se->hint].device, device))
        return se->ports[se->hint].device_role;
    size_t lo = 0, hi = se->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(se->ports[se->order[mid]].device, device) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < se->n && !strcmp(se->ports[se->order[lo]].device, device)
               ? se->ports[se->order[lo]].device_role
               : NULL;
}

static const char *peer_role(void *ctx, const char *device, const char *ifname)
{
    struct store_evidence *se = ctx;
    long i = find_port(se, device, ifname);
    return i >= 0 && se->ports[i].peer_role[0] ? se->ports[i].peer_role : NULL;
}

static uint64_t series_hash(const char *device, const char *ifname, int metric, int prio, int queue)
{
    uint64_t h = names_hash(device, ifname);
    h ^= (uint64_t)(unsigned)metric << 40 ^ (uint64_t)(uint16_t)prio << 20 ^ (uint16_t)queue;
    return h * 0x9e3779b97f4a7c15ULL;
}

static struct preload_series *preload_find(const struct preload *pl, const char *device,
                                           const char *ifname, enum metric_id m, int prio,
                                           int queue)
{
    if (!pl->nslots)
        return NULL;
    size_t mask = pl->nslots - 1;
    for (size_t i = series_hash(device, ifname, m, prio, queue) & mask;; i = (i + 1) & mask) {
        uint32_t v = pl->slots[i];
        if (!v)
            return NULL;
        struct preload_series *ps = &pl->series[v - 1];
        if (ps->metric == m && ps->prio == prio && ps->queue == queue &&
            !strcmp(ps->device, device) && !strcmp(ps->ifname, ifname))
            return ps;
    }
}

/* Room for cap samples; false (nomem set) when out of memory. */
static bool preload_reserve(struct preload *pl, size_t cap)
{
    int64_t *ts = realloc(pl->ts, cap * sizeof(*ts));
    if (ts)
        pl->ts = ts;
    uint64_t *raw = realloc(pl->raw, cap * sizeof(*raw));
    if (raw)
        pl->raw = raw;
    if (!ts || !raw) {
        pl->nomem = true;
        return false;
    }
    pl->cap = cap;
    return true;
}

/* A new series of key starting at the next sample; NULL (nomem set) when out of memory. */
static struct preload_series *preload_add_series(struct preload *pl, const struct dcb_sample *key,
                                                 unsigned bits)
{
    if (pl->nseries == pl->series_cap) {
        size_t cap = pl->series_cap ? pl->series_cap * 2 : 1024;
        struct preload_series *grown = realloc(pl->series, cap * sizeof(*grown));
        if (!grown) {
            pl->nomem = true;
            return NULL;
        }
        pl->series = grown;
        pl->series_cap = cap;
    }
    struct preload_series *ps = &pl->series[pl->nseries++];
    snprintf(ps->device, sizeof(ps->device), "%s", key->device);
    snprintf(ps->ifname, sizeof(ps->ifname), "%s", key->ifname);
    ps->metric = key->metric;
    ps->prio = key->prio;
    ps->queue = key->queue;
    ps->bits = metric_info(key->metric)->kind != METRIC_COUNTER ? 64 : (uint8_t)bits;
    ps->start = (uint32_t)pl->n;
    ps->count = 0;
    return ps;
}

static int preload_sample(const struct dcb_sample *s, void *arg)
{
    struct preload *pl = arg;
    if (pl->n == pl->cap && !preload_reserve(pl, pl->cap ? pl->cap * 2 : 65536))
        return 1;
    /* store_range hands samples out series by series, each in time order: a series ends when
     * its key changes (checked cheapest first) */
    struct preload_series *last = pl->nseries ? &pl->series[pl->nseries - 1] : NULL;
    if (!last || last->metric != s->metric || last->prio != s->prio || last->queue != s->queue ||
        s->time_ns < pl->ts[pl->n - 1] || strcmp(last->ifname, s->ifname) ||
        strcmp(last->device, s->device)) {
        unsigned bits = metric_info(s->metric)->kind != METRIC_COUNTER
                            ? 64
                            : store_series_width(pl->st, s->device, s->ifname, s->metric, s->prio,
                                                 s->queue);
        last = preload_add_series(pl, s, bits);
        if (!last)
            return 1;
    }
    bool counter = pl->last_metric == s->metric ? pl->last_counter
                                                : metric_info(s->metric)->kind == METRIC_COUNTER;
    pl->last_metric = s->metric;
    pl->last_counter = counter;
    pl->ts[pl->n] = s->time_ns;
    if (counter)
        pl->raw[pl->n] = s->value.counter;
    else
        memcpy(&pl->raw[pl->n], &s->value.gauge, sizeof(pl->raw[0]));
    pl->n++;
    last->count++;
    return 0;
}

/* A series at a time (store_range_runs): its samples copied whole, its key's strings once. */
/* A series at a time (store_range_runs): its key's strings once; its samples stay where the
 * ring's walk put them, whose arrays the preload then keeps. */
static int preload_run(const struct store_run *run, void *arg)
{
    struct preload *pl = arg;
    struct preload_series *ps = preload_add_series(pl, run->key, run->bits);
    if (!ps)
        return 1;
    ps->start = (uint32_t)run->start;
    ps->count = (uint32_t)run->n;
    return 0;
}

static void preload_free(struct preload *pl)
{
    if (!pl)
        return;
    free(pl->series);
    free(pl->slots);
    free(pl->ts);
    free(pl->raw);
    free(pl);
}

int evidence_store_preload(struct evidence *ev, int64_t t0, struct dcb_err *err)
{
    struct store_evidence *se = ev->ctx;
    struct preload *pl = calloc(1, sizeof(*pl));
    if (!pl)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    pl->last_metric = METRIC_NONE;
    pl->st = se->st;
    struct store_filter f;
    store_filter_init(&f);
    f.t0 = t0;
    f.t1 = se->preload_t1;
    pl->t0 = t0;
    pl->t1 = se->preload_t1;
    int rc;
    if (store_has_range_runs(se->st)) {
        struct store_samples all;
        rc = store_range_runs(se->st, &f, preload_run, pl, &all, err);
        pl->ts = all.ts;
        pl->raw = all.raw;
        pl->n = pl->cap = all.n;
    } else {
        rc = store_range(se->st, &f, preload_sample, pl, err);
    }
    if (rc == 0 && !pl->nomem) {
        pl->nslots = 64;
        while (pl->nslots < 2 * pl->nseries)
            pl->nslots *= 2;
        pl->slots = calloc(pl->nslots, sizeof(*pl->slots));
        for (size_t i = 0; pl->slots && i < pl->nseries; i++) {
            const struct preload_series *ps = &pl->series[i];
            size_t mask = pl->nslots - 1,
                   k = series_hash(ps->device, ps->ifname, ps->metric, ps->prio, ps->queue) & mask;
            while (pl->slots[k])
                k = (k + 1) & mask;
            pl->slots[k] = (uint32_t)i + 1;
        }
        pl->nomem = !pl->slots;
    }
    if (rc < 0 || pl->nomem) {
        preload_free(pl);
        return rc < 0 ? rc : dcb_err_set(err, DCB_E_NOMEM, "out of memory preloading samples");
    }
    preload_free(se->pre);
    se->pre = pl;
    evidence_memo_free(&se->memo); /* answers from the preloaded samples from here on */
    return 0;
}

/* A window from the preloaded samples: the same answers as the store's own queries. */
static int preloaded_metric(const struct preload_series *ps, const struct preload *pl,
                            enum evidence_agg agg, int64_t t0, int64_t t1, double *out)
{
    const int64_t *ts = pl->ts + ps->start;
    uint32_t lo = 0, hi = ps->count;
    while (lo < hi) { /* the first sample at or after t0 */
        uint32_t mid = (lo + hi) / 2;
        if (ts[mid] < t0)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint32_t first = lo;
    hi = ps->count;
    while (lo < hi) { /* the first after t1 */
        uint32_t mid = (lo + hi) / 2;
        if (ts[mid] <= t1)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint32_t end = lo;
    if (first >= end)
        return 0;
    const uint64_t *raw = pl->raw + ps->start;
    if (agg == AGG_BUSY_RATE) {
        struct counter_window w; /* increases over the intervals that had one */
        counter_window_init(&w, ps->bits);
        for (uint32_t i = first; i < end; i++)
            counter_window_add(&w, pl->raw[ps->start + i], ts[i]);
        if (w.busy_ns <= 0)
            return 0;
        *out = w.total * 1e9 / (double)w.busy_ns;
        return 1;
    }
    if (agg == AGG_RATE || agg == AGG_DELTA) {
        if (end - first < 2)
            return 0;
        struct counter_window w; /* no rate spans a reset */
        counter_window_init(&w, ps->bits);
        for (uint32_t i = first; i < end; i++)
            counter_window_add(&w, pl->raw[ps->start + i], ts[i]);
        if (agg == AGG_RATE && w.covered_ns <= 0)
            return 0;
        *out = agg == AGG_DELTA ? w.total : counter_window_rate(&w);
        return 1;
    }
    bool counter = metric_info(ps->metric)->kind == METRIC_COUNTER;
    double sum = 0, mn = 0, mx = 0, v = 0;
    for (uint32_t i = first; i < end; i++) {
        if (counter) /* as a double: exact below 2^53 */
            v = (double)raw[i];
        else
            memcpy(&v, &raw[i], sizeof(v));
        sum += v;
        mn = i == first || v < mn ? v : mn;
        mx = i == first || v > mx ? v : mx;
    }
    *out = agg == AGG_AVG   ? sum / (double)(end - first)
           : agg == AGG_MAX ? mx
           : agg == AGG_MIN ? mn
                            : v;
    return 1;
}

/* A window from the preloaded samples if they cover it, else from the store. */
static int window_answer(struct store_evidence *se, const char *device, const char *ifname,
                         enum metric_id m, int prio, int queue, enum evidence_agg agg, int64_t t0,
                         int64_t t1, double *out, struct dcb_err *err)
{
    const struct preload *pl = se->pre;
    if (pl && t0 >= pl->t0 && t1 <= pl->t1) {
        const struct preload_series *ps = preload_find(pl, device, ifname, m, prio, queue);
        return ps ? preloaded_metric(ps, pl, agg, t0, t1, out) : 0;
    }
    /* a last value from before the preloaded span (a selector with no window): the newest
     * sample at or before t1 is preloaded if the series has one in the span */
    if (pl && agg == AGG_LAST && t1 <= pl->t1 && t1 >= pl->t0) {
        const struct preload_series *ps = preload_find(pl, device, ifname, m, prio, queue);
        if (ps && preloaded_metric(ps, pl, agg, pl->t0, t1, out) == 1)
            return 1;
    }
    struct store_filter f;
    store_filter_init(&f);
    f.device = device;
    f.ifname = ifname;
    f.metric = metric_info(m)->name;
    f.prio = prio;
    f.queue = queue;
    f.t0 = t0;
    f.t1 = t1;
    static const enum store_agg to_store[] = {
        [AGG_RATE] = STORE_AGG_RATE,
        [AGG_DELTA] = STORE_AGG_DELTA,
        [AGG_AVG] = STORE_AGG_AVG,
        [AGG_MAX] = STORE_AGG_MAX,
        [AGG_MIN] = STORE_AGG_MIN,
        [AGG_LAST] = STORE_AGG_LAST,
        [AGG_BUSY_RATE] = STORE_AGG_BUSY_RATE,
    };
    return store_aggregate(se->st, &f, to_store[agg], out, err);
}

/* Each window once: the same question gets the answer it got (evidence_memo.h). */
static int metric(void *ctx, const char *device, const char *ifname, enum metric_id m, int prio,
                  int queue, enum evidence_agg agg, int64_t t0, int64_t t1, double *out,
                  struct dcb_err *err)
{
    struct store_evidence *se = ctx;
    if (t0 < se->limit_t0)
        t0 = se->limit_t0;
    long port = find_port(se, device, ifname);
    if (port >= 0 && !port_has_metric(&se->ports[port], m))
        return 0;
    struct window_key k;
    memset(&k, 0, sizeof(k)); /* compared bytewise */
    k.port = (uint32_t)port;
    k.metric = m;
    k.prio = (int16_t)prio;
    k.queue = (int16_t)queue;
    k.agg = agg;
    k.t0 = t0;
    k.t1 = t1;
    int rc;
    double v;
    if (port >= 0 && evidence_memo_get(&se->memo, &k, &rc, &v)) {
        if (rc == 1)
            *out = v;
        return rc;
    }
    rc = window_answer(se, device, ifname, m, prio, queue, agg, t0, t1, &v, err);
    if (port >= 0 && rc >= 0)
        evidence_memo_put(&se->memo, &k, rc, v);
    if (rc == 1)
        *out = v;
    return rc;
}

static bool unserved(void *ctx, const char *device, const char *name)
{
    return path_gaps_lacks(&((struct store_evidence *)ctx)->gaps, device, name);
}

static int count_event(const struct dcb_event *e, void *arg)
{
    (void)e;
    (*(uint64_t *)arg)++;
    return 0;
}

static void event_filter(const struct store_evidence *se, const char *device, const char *ifname,
                         int prio, int64_t t0, int64_t t1, struct store_filter *f)
{
    store_filter_init(f);
    f->device = device;
    f->ifname = ifname;
    if (prio >= 0)
        f->prio = prio;
    f->t0 = t0 < se->limit_t0 ? se->limit_t0 : t0;
    f->t1 = t1;
}

static int event_count(void *ctx, const char *device, const char *ifname, enum dcb_event_kind kind,
                       int prio, int64_t t0, int64_t t1, uint64_t *out, struct dcb_err *err)
{
    struct store_evidence *se = ctx;
    struct store_filter f;
    event_filter(se, device, ifname, prio, t0, t1, &f);
    *out = 0;
    int rc = store_events(se->st, &f, dcb_event_kind_name(kind), count_event, out, err);
    return rc < 0 ? rc : 1;
}

struct first_ts {
    int64_t ts;
    bool seen;
};

static int earliest_event(const struct dcb_event *e, void *arg)
{
    struct first_ts *ft = arg;
    if (!ft->seen || e->time_ns < ft->ts)
        ft->ts = e->time_ns;
    ft->seen = true;
    return 0;
}

static int first_event(void *ctx, const char *device, const char *ifname, enum dcb_event_kind kind,
                       int prio, int64_t t0, int64_t t1, int64_t *ts, struct dcb_err *err)
{
    struct store_evidence *se = ctx;
    struct store_filter f;
    event_filter(se, device, ifname, prio, t0, t1, &f);
    struct first_ts ft = { 0 };
    int rc = store_events(se->st, &f, dcb_event_kind_name(kind), earliest_event, &ft, err);
    if (rc < 0)
        return rc;
    *ts = ft.ts;
    return ft.seen ? 1 : 0;
}

static const struct evidence_ops store_ops = {
    .each_port = each_port,
    .each_qp = each_qp,
    .config = config,
    .peer_config = peer_config,
    .peer_judged = peer_judged,
    .peer_port = peer_port,
    .alias_conflicts = alias_conflicts,
    .role = role,
    .peer_role = peer_role,
    .metric = metric,
    .unserved = unserved,
    .event_count = event_count,
    .first_event = first_event,
};

int evidence_store_open(struct evidence *ev, struct dcb_store *st, int64_t t1, struct dcb_err *err)
{
    struct store_evidence *se = calloc(1, sizeof(*se));
    if (!se || !(se->identity = identity_new())) {
        free(se);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    }
    se->st = st;
    se->preload_t1 = t1;
    struct store_filter f;
    store_filter_init(&f);
    f.t1 = t1;
    int rc = store_latest(st, &f, add_sample_port, se, err);
    if (rc >= 0)
        rc = store_configs(st, NULL, NULL, t1, add_config, se, err);
    if (rc >= 0 && t1 < INT64_MAX) {
        f.t0 = t1 + 1;
        f.t1 = INT64_MAX;
        rc = store_latest(st, &f, add_later_series, se, err);
    }
    if (rc >= 0)
        rc = path_gaps_load(&se->gaps, st, t1, err);
    if (rc >= 0 && !se->nomem && resolve_peers(se) < 0)
        se->nomem = true;
    se->nomem = se->nomem || se->qps.nomem;
    if (rc >= 0 && se->nomem)
        rc = dcb_err_set(err, DCB_E_NOMEM, "out of memory listing ports");
    if (rc < 0) {
        path_gaps_free(&se->gaps);
        evidence_qps_free(&se->qps);
        identity_free(se->identity);
        free(se->order);
        free(se->rank);
        free(se->port_slots);
        free(se->ports);
        free(se);
        return rc;
    }
    ev->ops = &store_ops;
    ev->ctx = se;
    return 0;
}

void evidence_store_limit(struct evidence *ev, int64_t t0)
{
    ((struct store_evidence *)ev->ctx)->limit_t0 = t0;
}

void evidence_store_close(struct evidence *ev)
{
    struct store_evidence *se = ev->ctx;
    if (se) {
        preload_free(se->pre);
        evidence_memo_free(&se->memo);
        free(se->port_slots);
        identity_free(se->identity);
        free(se->order);
        free(se->rank);
        path_gaps_free(&se->gaps);
        evidence_qps_free(&se->qps);
        free(se->ports);
        free(se);
    }
    ev->ctx = NULL;
}
