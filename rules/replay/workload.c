/* Workloads: the JSON "workload" object of a scenario turned into the simulator's flows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario_json.h"
#include "workload.h"

#define SPORT_BASE 49152u
#define MAX_HOSTS 16384
#define MAX_ITERATIONS 100000

static const char *const type_names[] = {
    [WORKLOAD_INCAST] = "incast",
    [WORKLOAD_ALL_TO_ALL] = "all-to-all",
    [WORKLOAD_RING_ALLREDUCE] = "ring-allreduce",
    [WORKLOAD_PERMUTATION] = "permutation",
    [WORKLOAD_FLOWS] = "flows",
};

const char *workload_type_name(enum workload_type t)
{
    return (unsigned)t < sizeof(type_names) / sizeof(type_names[0]) ? type_names[t] : "?";
}

void workload_init(struct workload *w)
{
    memset(w, 0, sizeof(*w));
}

void workload_free(struct workload *w)
{
    for (size_t i = 0; i < w->nnames; i++)
        free(w->names[i]);
    free(w->names);
    free(w->name_slots);
    free(w->flows);
    free(w->after);
    free(w->transport);
    workload_init(w);
}

static size_t name_hash(const char *name)
{
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        h = (h ^ *c) * 0x100000001b3ULL;
    return (size_t)(h ^ h >> 32);
}

static bool name_slots_grow(struct workload *w)
{
    size_t cap = w->nslots ? w->nslots * 2 : 64;
    uint32_t *v = calloc(cap, sizeof(*v));
    if (!v)
        return false;
    for (size_t i = 0; i < w->nnames; i++) {
        size_t k = name_hash(w->names[i]) & (cap - 1);
        while (v[k])
            k = (k + 1) & (cap - 1);
        v[k] = (uint32_t)i + 1;
    }
    free(w->name_slots);
    w->name_slots = v;
    w->nslots = cap;
    return true;
}

/* One copy per distinct name: flows point at it. A hash finds it: an all-to-all of 1,024 hosts
 * asks two million times. */
static const char *intern(struct workload *w, const char *name)
{
    if (2 * (w->nnames + 1) > w->nslots && !name_slots_grow(w))
        return NULL;
    size_t k = name_hash(name) & (w->nslots - 1);
    for (; w->name_slots[k]; k = (k + 1) & (w->nslots - 1))
        if (!strcmp(w->names[w->name_slots[k] - 1], name))
            return w->names[w->name_slots[k] - 1];
    if (w->nnames == w->names_cap) {
        size_t cap = w->names_cap ? w->names_cap * 2 : 16;
        char **grown = realloc(w->names, cap * sizeof(*grown));
        if (!grown)
            return NULL;
        w->names = grown;
        w->names_cap = cap;
    }
    char *copy = strdup(name);
    if (!copy)
        return NULL;
    w->names[w->nnames++] = copy;
    w->name_slots[k] = (uint32_t)w->nnames;
    return copy;
}

int workload_add(struct workload *w, const char *src, const char *dst, uint64_t bytes,
                 int64_t start_ns, uint8_t dscp, uint16_t sport, uint32_t payload,
                 struct dcb_err *err)
{
    if (w->nflows >= WORKLOAD_MAX_FLOWS)
        return dcb_err_set(err, DCB_E_RANGE, "more than %d flows", WORKLOAD_MAX_FLOWS);
    if (w->nflows == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 16;
        struct replay_flow *grown = realloc(w->flows, cap * sizeof(*grown));
        if (grown)
            w->flows = grown;
        struct replay_after *agrown = grown ? realloc(w->after, cap * sizeof(*agrown)) : NULL;
        if (agrown)
            w->after = agrown;
        uint8_t *tgrown = agrown ? realloc(w->transport, cap) : NULL;
        if (!tgrown)
            return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
        w->transport = tgrown;
        w->cap = cap;
    }
    const char *s = intern(w, src), *d = intern(w, dst);
    if (!s || !d)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    memset(&w->after[w->nflows], 0, sizeof(w->after[0]));
    w->transport[w->nflows] = REPLAY_TRANSPORT_AUTO;
    struct replay_flow *f = &w->flows[w->nflows++];
    memset(f, 0, sizeof(*f));
    f->src = s;
    f->dst = d;
    f->bytes = bytes;
    f->start_ns = start_ns;
    f->dscp = dscp;
    f->sport = sport;
    f->payload = payload;
    return 0;
}

size_t workload_hosts(const struct fabric *f, const char **names, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < f->ndevices; i++)
        if (f->devices[i].role == FABRIC_HOST) {
            if (n < max)
                names[n] = f->devices[i].name;
            n++;
        }
    return n;
}

static int check_host(const struct fabric *f, const char *name, const char *path,
                      struct dcb_err *err)
{
    const struct fabric_device *d = fabric_find_device(f, name);
    if (!d)
        return dcb_err_set(err, DCB_E_NOTFOUND, "%s: no host \"%s\" in the fabric", path, name);
    if (d->role != FABRIC_HOST)
        return dcb_err_set(err, DCB_E_INVAL, "%s: \"%s\" is a switch, not a host", path, name);
    return 0;
}

/* A list of host names at obj.key (default: every host of the fabric but except). */
static int host_list(const cJSON *obj, const char *key, const struct fabric *f, const char *except,
                     const char ***out, size_t *n, const char *path, struct dcb_err *err)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key);
    char where[160];
    size_t cap = arr ? (size_t)cJSON_GetArraySize(arr) : workload_hosts(f, NULL, 0);
    const char **v = calloc(cap ? cap : 1, sizeof(*v));
    if (!v)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    *n = 0;
    if (!arr) {
        const char **all = calloc(cap ? cap : 1, sizeof(*all));
        if (!all) {
            free(v);
            return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
        }
        workload_hosts(f, all, cap);
        for (size_t i = 0; i < cap; i++)
            if (!except || strcmp(all[i], except))
                v[(*n)++] = all[i];
        free(all);
        *out = v;
        return 0;
    }
    if (!cJSON_IsArray(arr)) {
        free(v);
        return dcb_err_set(err, DCB_E_INVAL, "%s.%s: must be a list of host names", path, key);
    }
    const cJSON *it;
    cJSON_ArrayForEach(it, arr) {
        snprintf(where, sizeof(where), "%s.%s[%zu]", path, key, *n);
        int rc = 0;
        if (!cJSON_IsString(it))
            rc = dcb_err_set(err, DCB_E_INVAL, "%s: must be a host name", where);
        else
            rc = check_host(f, it->valuestring, where, err);
        for (size_t k = 0; rc == 0 && k < *n; k++)
            if (!strcmp(v[k], it->valuestring))
                rc = dcb_err_set(err, DCB_E_INVAL, "%s: \"%s\" is listed twice", where,
                                 it->valuestring);
        if (rc < 0) {
            free(v);
            return rc;
        }
        v[(*n)++] = it->valuestring;
    }
    *out = v;
    return 0;
}

struct common {
    uint64_t bytes;
    int64_t start_ns, stagger_ns;
    int64_t dscp, payload, sport;
    bool sport_set;
    enum replay_transport transport;
};

static const struct scenario_json_span any_time = { 0, REPLAY_TIME_MAX_NS, false };

/* "transport": "roce", "tcp" or "auto" (replay.h); absent leaves *out alone. */
static int read_transport(const cJSON *obj, enum replay_transport *out, const char *path,
                          struct dcb_err *err)
{
    static const char *const names[] = { "auto", "roce", "tcp" };
    const char *name = NULL;
    int rc = scenario_json_string(obj, "transport", 8, &name, path, err);
    if (rc < 0 || !name)
        return rc;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (!strcmp(name, names[i])) {
            *out = (enum replay_transport)i;
            return 0;
        }
    return dcb_err_set(err, DCB_E_INVAL, "%s.transport: \"%s\" is not roce, tcp or auto", path,
                       name);
}

static int read_common(const cJSON *obj, struct common *c, const char *path, struct dcb_err *err)
{
    int rc;
    c->dscp = 26;
    c->payload = REPLAY_PAYLOAD_DEFAULT;
    c->sport = -1;
    if ((rc = scenario_json_bytes(obj, "bytes", 0, SJ_BYTES_MAX, &c->bytes, path, err)) < 0 ||
        (rc = scenario_json_time(obj, "start_us", 1000, &any_time, &c->start_ns, path, err)) < 0 ||
        (rc = scenario_json_time(obj, "stagger_us", 1000, &any_time, &c->stagger_ns, path, err)) <
            0 ||
        (rc = scenario_json_int(obj, "dscp", 0, 63, &c->dscp, path, err)) < 0 ||
        (rc = scenario_json_int(obj, "payload", 64, 9000, &c->payload, path, err)) < 0 ||
        (rc = scenario_json_int(obj, "sport", 0, 65535, &c->sport, path, err)) < 0 ||
        (rc = read_transport(obj, &c->transport, path, err)) < 0)
        return rc;
    c->sport_set = c->sport >= 0;
    return 0;
}

static uint16_t sport_of(const struct common *c, size_t i)
{
    return c->sport_set ? (uint16_t)c->sport : (uint16_t)(SPORT_BASE + i % 16384);
}

/* Flow i starts at start + i x stagger, refused past the longest pass. */
static int add_common(struct workload *w, const struct common *c, const char *src, const char *dst,
                      uint64_t bytes, size_t i, const char *path, struct dcb_err *err)
{
    int64_t start;
    if (__builtin_mul_overflow((int64_t)i, c->stagger_ns, &start) ||
        __builtin_add_overflow(start, c->start_ns, &start) || start > REPLAY_TIME_MAX_NS)
        return dcb_err_set(err, DCB_E_RANGE,
                           "%s.stagger_us: %.15g puts flow %zu past the "
                           "longest pass (%.15g us)",
                           path, (double)c->stagger_ns / 1000, i,
                           (double)REPLAY_TIME_MAX_NS / 1000);
    return workload_add(w, src, dst, bytes, start, (uint8_t)c->dscp, sport_of(c, w->nflows),
                        (uint32_t)c->payload, err);
}

static int incast(struct workload *w, const cJSON *obj, const struct fabric *f,
                  const struct common *c, const char *path, struct dcb_err *err)
{
    const char *receiver = NULL;
    char where[160];
    int rc = scenario_json_string(obj, "receiver", DCB_DEVICE_MAX, &receiver, path, err);
    if (rc < 0)
        return rc;
    const char *hosts[MAX_HOSTS];
    size_t nh = workload_hosts(f, hosts, MAX_HOSTS);
    if (!receiver) {
        if (!nh)
            return dcb_err_set(err, DCB_E_INVAL, "%s: the fabric has no hosts", path);
        receiver = hosts[nh > MAX_HOSTS ? MAX_HOSTS - 1 : nh - 1];
    }
    snprintf(where, sizeof(where), "%s.receiver", path);
    if ((rc = check_host(f, receiver, where, err)) < 0)
        return rc;
    const char **senders;
    size_t ns;
    if ((rc = host_list(obj, "senders", f, receiver, &senders, &ns, path, err)) < 0)
        return rc;
    int64_t count = (int64_t)ns;
    if ((rc = scenario_json_int(obj, "count", 1, (int64_t)(ns ? ns : 1), &count, path, err)) < 0) {
        free(senders);
        return rc;
    }
    for (size_t i = 0; i < ns && rc == 0; i++) {
        if (!strcmp(senders[i], receiver))
            rc = dcb_err_set(err, DCB_E_INVAL, "%s.senders[%zu]: \"%s\" is the receiver", path, i,
                             receiver);
    }
    for (size_t i = 0; i < (size_t)count && rc == 0; i++)
        rc = add_common(w, c, senders[i], receiver, c->bytes, i, path, err);
    free(senders);
    if (rc == 0 && w->nflows == 0)
        rc = dcb_err_set(err, DCB_E_INVAL, "%s: no senders", path);
    return rc;
}

static int all_to_all(struct workload *w, const cJSON *obj, const struct fabric *f,
                      const struct common *c, const char *path, struct dcb_err *err)
{
    const char **hosts;
    size_t n;
    int rc = host_list(obj, "hosts", f, NULL, &hosts, &n, path, err);
    if (rc < 0)
        return rc;
    if (n < 2)
        rc = dcb_err_set(err, DCB_E_INVAL, "%s.hosts: needs at least 2 hosts", path);
    else if ((uint64_t)n * (n - 1) > WORKLOAD_MAX_FLOWS - w->nflows)
        rc = dcb_err_set(err, DCB_E_RANGE, "%s: %zu hosts are %llu flows, more than %d", path, n,
                         (unsigned long long)n * (n - 1), WORKLOAD_MAX_FLOWS);
    size_t k = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        for (size_t j = 0; j < n && rc == 0; j++)
            if (i != j)
                rc = add_common(w, c, hosts[i], hosts[j], c->bytes, k++, path, err);
    free(hosts);
    return rc;
}

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int permutation(struct workload *w, const cJSON *obj, const struct fabric *f,
                       const struct common *c, uint64_t seed, const char *path, struct dcb_err *err)
{
    const char **hosts;
    size_t n;
    int rc = host_list(obj, "hosts", f, NULL, &hosts, &n, path, err);
    if (rc < 0)
        return rc;
    size_t *to = calloc(n ? n : 1, sizeof(*to));
    if (!to) {
        free(hosts);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    }
    if (n < 2)
        rc = dcb_err_set(err, DCB_E_INVAL, "%s.hosts: needs at least 2 hosts", path);
    /* Sattolo's shuffle: one cycle through every host, so nobody sends to itself */
    for (size_t i = 0; i < n; i++)
        to[i] = i;
    uint64_t x = seed ^ 0x5eed;
    for (size_t i = n; i-- > 1;) {
        size_t j = (size_t)(splitmix(&x) % i);
        size_t t = to[i];
        to[i] = to[j];
        to[j] = t;
    }
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = add_common(w, c, hosts[i], hosts[to[i]], c->bytes, i, path, err);
    free(to);
    free(hosts);
    return rc;
}

/* Each iteration: 2(N-1) steps (reduce-scatter, then all-gather); in step k host i sends a
 * 1/N chunk to host i+1 once it has received step k-1's chunk from host i-1 and its own
 * step k-1 send is done. */
static int ring_allreduce(struct workload *w, const cJSON *obj, const struct fabric *f,
                          const struct common *c, const char *path, struct dcb_err *err)
{
    const char **hosts;
    size_t n;
    int64_t iterations = 1;
    uint64_t message = 0;
    int rc = host_list(obj, "hosts", f, NULL, &hosts, &n, path, err);
    if (rc < 0)
        return rc;
    if ((rc = scenario_json_int(obj, "iterations", 1, MAX_ITERATIONS, &iterations, path, err)) <
            0 ||
        (rc = scenario_json_need(obj, "message_bytes", path, err)) < 0 ||
        (rc = scenario_json_bytes(obj, "message_bytes", 1, SJ_BYTES_MAX, &message, path, err)) <
            0) {
        free(hosts);
        return rc;
    }
    if (n < 2)
        rc = dcb_err_set(err, DCB_E_INVAL, "%s.hosts: needs at least 2 hosts", path);
    else if (message < n)
        rc = dcb_err_set(err, DCB_E_RANGE, "%s.message_bytes: %llu is less than a byte per host",
                         path, (unsigned long long)message);
    else if ((uint64_t)iterations * 2 * (n - 1) * n > WORKLOAD_MAX_FLOWS)
        rc = dcb_err_set(err, DCB_E_RANGE,
                         "%s: %lld iterations on %zu hosts are more than %d "
                         "flows",
                         path, (long long)iterations, n, WORKLOAD_MAX_FLOWS);
    uint64_t chunk = (message + n - 1) / n;
    size_t steps = 2 * (n - 1);
    size_t first = w->nflows;
    for (int64_t it = 0; it < iterations && rc == 0; it++) {
        for (size_t k = 0; k < steps && rc == 0; k++) {
            for (size_t i = 0; i < n && rc == 0; i++) {
                size_t idx = w->nflows;
                rc = workload_add(w, hosts[i], hosts[(i + 1) % n], chunk,
                                  idx == first + i ? c->start_ns : 0, (uint8_t)c->dscp,
                                  sport_of(c, idx), (uint32_t)c->payload, err);
                if (rc < 0 || idx < first + n)
                    continue;
                struct replay_after *af = &w->after[idx];
                size_t prev_self = idx - n, prev_left = idx - n + (i + n - 1) % n - i;
                af->n = 2;
                af->flow[0] = (uint32_t)prev_left;
                af->flow[1] = (uint32_t)prev_self;
            }
        }
    }
    free(hosts);
    if (rc == 0) {
        w->iterations = (unsigned)iterations;
        w->flows_per_iteration = steps * n;
        w->message_bytes = message;
    }
    return rc;
}

static int explicit_flows(struct workload *w, const cJSON *obj, const struct fabric *f,
                          const struct common *c, const char *path, struct dcb_err *err)
{
    static const char *const keys[] = { "src",   "dst",     "bytes",     "start_us", "dscp",
                                        "sport", "payload", "transport", "comment",  NULL };
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, "flows");
    int rc = scenario_json_need(obj, "flows", path, err);
    if (rc < 0)
        return rc;
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0)
        return dcb_err_set(err, DCB_E_INVAL, "%s.flows: must be a list of flows", path);
    if ((size_t)cJSON_GetArraySize(arr) > WORKLOAD_MAX_FLOWS - w->nflows)
        return dcb_err_set(err, DCB_E_RANGE, "%s.flows: %d flows, more than %d", path,
                           cJSON_GetArraySize(arr), WORKLOAD_MAX_FLOWS);
    const cJSON *fj;
    size_t i = 0;
    cJSON_ArrayForEach(fj, arr) {
        char where[160], sub[200];
        snprintf(where, sizeof(where), "%s.flows[%zu]", path, i);
        const char *src = NULL, *dst = NULL;
        struct common fc = *c;
        if ((rc = scenario_json_object(fj, where, err)) < 0 ||
            (rc = scenario_json_keys(fj, keys, where, err)) < 0 ||
            (rc = scenario_json_need(fj, "src", where, err)) < 0 ||
            (rc = scenario_json_need(fj, "dst", where, err)) < 0 ||
            (rc = scenario_json_string(fj, "src", DCB_DEVICE_MAX, &src, where, err)) < 0 ||
            (rc = scenario_json_string(fj, "dst", DCB_DEVICE_MAX, &dst, where, err)) < 0 ||
            (rc = read_common(fj, &fc, where, err)) < 0)
            return rc;
        if (!cJSON_GetObjectItemCaseSensitive(fj, "bytes"))
            fc.bytes = c->bytes;
        if (!cJSON_GetObjectItemCaseSensitive(fj, "start_us"))
            fc.start_ns = c->start_ns;
        if (!cJSON_GetObjectItemCaseSensitive(fj, "dscp"))
            fc.dscp = c->dscp;
        if (!cJSON_GetObjectItemCaseSensitive(fj, "payload"))
            fc.payload = c->payload;
        if (!fc.sport_set && c->sport_set) {
            fc.sport = c->sport;
            fc.sport_set = true;
        }
        snprintf(sub, sizeof(sub), "%s.src", where);
        if ((rc = check_host(f, src, sub, err)) < 0)
            return rc;
        snprintf(sub, sizeof(sub), "%s.dst", where);
        if ((rc = check_host(f, dst, sub, err)) < 0)
            return rc;
        if (!strcmp(src, dst))
            return dcb_err_set(err, DCB_E_INVAL, "%s: src and dst are both \"%s\"", where, src);
        if ((rc = workload_add(w, src, dst, fc.bytes, fc.start_ns, (uint8_t)fc.dscp,
                               sport_of(&fc, w->nflows), (uint32_t)fc.payload, err)) < 0)
            return rc;
        w->transport[w->nflows - 1] = (uint8_t)fc.transport;
        i++;
    }
    return 0;
}

int workload_from_json(struct workload *w, const cJSON *obj, const struct fabric *f, uint64_t seed,
                       const char *prefix, struct dcb_err *err)
{
    static const char *const keys[] = {
        "type",  "bytes",         "start_us",   "stagger_us", "dscp",    "payload",
        "sport", "transport",     "repeat",     "receiver",   "senders", "count",
        "hosts", "message_bytes", "iterations", "flows",      "comment", NULL
    };
    const char *path = prefix ? prefix : "workload";
    workload_init(w);
    int rc;
    const char *type = NULL;
    if ((rc = scenario_json_object(obj, path, err)) < 0 ||
        (rc = scenario_json_keys(obj, keys, path, err)) < 0 ||
        (rc = scenario_json_need(obj, "type", path, err)) < 0 ||
        (rc = scenario_json_string(obj, "type", 32, &type, path, err)) < 0)
        return rc;
    struct common c;
    memset(&c, 0, sizeof(c));
    if ((rc = read_common(obj, &c, path, err)) < 0 ||
        (rc = scenario_json_bool(obj, "repeat", &w->repeat, path, err)) < 0)
        return rc;
    /* keys that only some types take */
    static const struct {
        const char *key;
        int types;
    } only[] = {
        { "receiver", 1 << WORKLOAD_INCAST },
        { "senders", 1 << WORKLOAD_INCAST },
        { "count", 1 << WORKLOAD_INCAST },
        { "hosts",
          1 << WORKLOAD_ALL_TO_ALL | 1 << WORKLOAD_RING_ALLREDUCE | 1 << WORKLOAD_PERMUTATION },
        { "message_bytes", 1 << WORKLOAD_RING_ALLREDUCE },
        { "iterations", 1 << WORKLOAD_RING_ALLREDUCE },
        { "flows", 1 << WORKLOAD_FLOWS },
    };
    int t = -1;
    for (int k = 0; k < (int)(sizeof(type_names) / sizeof(type_names[0])); k++)
        if (!strcmp(type, type_names[k]))
            t = k;
    if (t < 0)
        return dcb_err_set(err, DCB_E_INVAL,
                           "%s.type: \"%s\" is not incast, all-to-all, "
                           "ring-allreduce, permutation or flows",
                           path, type);
    for (size_t k = 0; k < sizeof(only) / sizeof(only[0]); k++)
        if (cJSON_GetObjectItemCaseSensitive(obj, only[k].key) && !(only[k].types >> t & 1))
            return dcb_err_set(err, DCB_E_INVAL, "%s.%s: not a key of a %s workload", path,
                               only[k].key, type);
    w->type = (enum workload_type)t;
    switch (w->type) {
    case WORKLOAD_INCAST: rc = incast(w, obj, f, &c, path, err); break;
    case WORKLOAD_ALL_TO_ALL: rc = all_to_all(w, obj, f, &c, path, err); break;
    case WORKLOAD_RING_ALLREDUCE: rc = ring_allreduce(w, obj, f, &c, path, err); break;
    case WORKLOAD_PERMUTATION: rc = permutation(w, obj, f, &c, seed, path, err); break;
    case WORKLOAD_FLOWS: rc = explicit_flows(w, obj, f, &c, path, err); break;
    }
    for (size_t i = 0; rc == 0 && w->type != WORKLOAD_FLOWS && i < w->nflows; i++)
        w->transport[i] = (uint8_t)c.transport;
    if (rc < 0) {
        bool repeat = w->repeat;
        workload_free(w);
        w->repeat = repeat;
    }
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void workload_iterations(const struct workload *w, const struct replay_summary *s,
                         struct workload_iterations *out)
{
    memset(out, 0, sizeof(*out));
    if (w->type != WORKLOAD_RING_ALLREDUCE || !w->flows_per_iteration || s->nflows != w->nflows)
        return;
    double *t = calloc(w->iterations ? w->iterations : 1, sizeof(*t));
    if (!t)
        return;
    int64_t prev_end = s->nflows ? s->flows[0].start_ns : 0;
    for (unsigned it = 0; it < w->iterations; it++) {
        int64_t end = 0;
        bool done = true;
        for (size_t k = 0; k < w->flows_per_iteration && done; k++) {
            const struct replay_flow_result *r = &s->flows[it * w->flows_per_iteration + k];
            done = r->finish_ns > 0;
            if (r->finish_ns > end)
                end = r->finish_ns;
        }
        if (!done)
            break;
        t[out->complete++] = (double)(end - prev_end);
        prev_end = end;
    }
    if (out->complete) {
        double sum = 0;
        for (unsigned i = 0; i < out->complete; i++)
            sum += t[i];
        out->mean_ns = sum / out->complete;
        qsort(t, out->complete, sizeof(*t), cmp_double);
        size_t p = (size_t)ceil(0.99 * out->complete) - 1;
        out->p99_ns = t[p];
        out->max_ns = t[out->complete - 1];
    }
    free(t);
}
