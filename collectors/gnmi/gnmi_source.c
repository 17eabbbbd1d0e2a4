#include "grow.h"
#include "gnmi_source.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_details.h"
#include "gnmi_creds.h"
#include "gnmi_path.h"
#include "metrics.h"

#define MAX_MAPS 16

/* what the switch's LLDP table says is on the port */
struct if_neighbor {
    char system_name[DCB_DEVICE_MAX], port_id[DCB_IFNAME_MAX], chassis_id[DCB_DEVICE_MAX];
};

struct if_config {
    char ifname[DCB_IFNAME_MAX];
    struct qos_config cfg;
    bool reported;
    struct if_neighbor lldp;
};

struct device {
    char name[DCB_DEVICE_MAX];
    struct gnmi_map *map;
    struct gnmi_cfg_round round;
    struct if_config *ifs;
    size_t nifs, capifs;
    struct qos_config *next; /* scratch while a round is applied */
};

struct call {
    struct device *dev;
    bool config;
    char target[64]; /* the prefix target (COUNTERS_DB), "" none */
};

struct missing {
    char device[DCB_DEVICE_MAX];
    char path[GNMI_PATH_MAX];
};

struct gnmi_source {
    struct gnmi_source_opts o;
    struct gnmi_source_cb cb;
    char maps_dir[4096];
    struct gnmi_map *maps[MAX_MAPS];
    size_t nmaps;
    struct device **devs;
    size_t ndevs, capdevs;
    struct call **calls;
    size_t ncalls, capcalls;
    struct gnmi_client *client;
    struct gnmi_source_stats stats;
    struct missing *missing;
    size_t nmissing, capmissing;
};

const struct gnmi_source_stats *gnmi_source_stats(const struct gnmi_source *s)
{
    return &s->stats;
}
struct gnmi_client *gnmi_source_client(struct gnmi_source *s)
{
    return s->client;
}

static int64_t sane_time(int64_t ts)
{
    int64_t now = dcb_realtime_ns();
    /* a target clock a day off (or a zero timestamp) is not trusted */
    if (ts <= 0 || ts > now + 86400000000000LL || ts < now - 86400000000000LL)
        return now;
    return ts;
}

static int on_leaf(struct gnmi_target *t, const struct gnmi_leaf *leaf, void *arg)
{
    struct gnmi_source *s = arg;
    struct call *c = gnmi_target_user(t);
    char key[GNMI_PATH_MAX + 64];
    gnmi_map_key(key, sizeof(key), leaf->target, leaf->path);
    s->stats.leaves++;
    if (c->config) {
        char text[256];
        gnmi_leaf_text(leaf, text, sizeof(text));
        gnmi_cfg_round_add(c->dev->map, &c->dev->round, key, text);
        return 0;
    }
    struct counter_match m;
    if (leaf->kind == GNMI_VAL_DELETE || !gnmi_map_counter(c->dev->map, key, &m)) {
        s->stats.unmapped++;
        return 0;
    }
    double d;
    uint64_t u;
    bool is_uint;
    if (!gnmi_leaf_number(leaf, &d, &u, &is_uint)) {
        s->stats.not_numeric++;
        return 0;
    }
    struct dcb_sample smp;
    dcb_sample_set(&smp, sane_time(leaf->time_ns), c->dev->name, m.ifname, m.metric, m.prio,
                   m.queue);
    if (metric_info(m.metric)->kind == METRIC_COUNTER) {
        if (!is_uint) {
            if (d < 0 || d >= 18446744073709551616.0) {
                s->stats.not_numeric++;
                return 0;
            }
            u = (uint64_t)d;
        }
        smp.value.counter = u;
    } else {
        smp.value.gauge = d;
    }
    s->stats.samples++;
    if (s->cb.on_sample)
        s->cb.on_sample(&smp, key, s->cb.arg);
    return 0;
}

static struct if_config *if_config_of(struct device *d, const char *ifname)
{
    for (size_t i = 0; i < d->nifs; i++)
        if (!strcmp(d->ifs[i].ifname, ifname))
            return &d->ifs[i];
    if (d->nifs == d->capifs && dcb_grow(&d->ifs, &d->capifs, sizeof(*d->ifs), 16) < 0)
        return NULL;
    struct if_config *c = &d->ifs[d->nifs++];
    memset(c, 0, sizeof(*c));
    snprintf(c->ifname, sizeof(c->ifname), "%s", ifname);
    qos_config_init(&c->cfg);
    return c;
}

struct apply_ctx {
    struct device *dev;
    struct if_config *fresh; /* the new configs, one per ifname, parallel to names */
    char (*names)[DCB_IFNAME_MAX];
    size_t n, cap;
};

static void apply_setting(const char *ifname, const char *field, const char *value, void *arg)
{
    struct apply_ctx *a = arg;
    size_t i;
    for (i = 0; i < a->n; i++)
        if (!strcmp(a->fresh[i].ifname, ifname))
            break;
    if (i == a->n) {
        if (a->n == a->cap && dcb_grow(&a->fresh, &a->cap, sizeof(*a->fresh), 16) < 0)
            return;
        memset(&a->fresh[i], 0, sizeof(a->fresh[i]));
        snprintf(a->fresh[i].ifname, sizeof(a->fresh[i].ifname), "%s", ifname);
        qos_config_init(&a->fresh[i].cfg);
        a->n++;
    }
    struct if_neighbor *n = &a->fresh[i].lldp;
    if (!strcmp(field, "lldp.system_name"))
        snprintf(n->system_name, sizeof(n->system_name), "%s", value);
    else if (!strcmp(field, "lldp.port_id"))
        snprintf(n->port_id, sizeof(n->port_id), "%s", value);
    else if (!strcmp(field, "lldp.chassis_id"))
        snprintf(n->chassis_id, sizeof(n->chassis_id), "%s", value);
    else {
        struct dcb_err err;
        qos_set(&a->fresh[i].cfg, field, value, &err); /* a refused value stays unknown */
    }
}

static void neighbor_round(struct gnmi_source *s, struct device *d, struct if_config *cur,
                           const struct if_neighbor *fresh, int64_t now)
{
    const char *peer = fresh->system_name[0] ? fresh->system_name : fresh->chassis_id;
    if (!peer[0] || !memcmp(&cur->lldp, fresh, sizeof(*fresh)))
        return;
    cur->lldp = *fresh;
    if (s->cb.on_neighbor)
        s->cb.on_neighbor(now, d->name, cur->ifname, peer, fresh->port_id, fresh->chassis_id,
                          s->cb.arg);
}

static void count_diff(const char *path, const char *o, const char *n, void *arg)
{
    (void)path;
    (void)o;
    (void)n;
    (*(int *)arg)++;
}

static void config_round(struct gnmi_source *s, struct device *d)
{
    struct apply_ctx a = { .dev = d };
    gnmi_cfg_round_apply(d->map, &d->round, apply_setting, &a);
    gnmi_cfg_round_clear(&d->round);
    int64_t now = dcb_realtime_ns();
    for (size_t i = 0; i < a.n; i++) {
        struct if_config *cur = if_config_of(d, a.fresh[i].ifname);
        if (!cur)
            break;
        neighbor_round(s, d, cur, &a.fresh[i].lldp, now);
        int diffs = 0, fields = 0;
        qos_diff(&cur->cfg, &a.fresh[i].cfg, count_diff, &diffs);
        struct qos_config none;
        qos_config_init(&none);
        qos_diff(&none, &a.fresh[i].cfg, count_diff, &fields);
        if (fields && (!cur->reported || diffs)) { /* an LLDP-only port has no QoS config */
            cur->cfg = a.fresh[i].cfg;
            cur->reported = true;
            s->stats.configs++;
            if (s->cb.on_config)
                s->cb.on_config(now, d->name, cur->ifname, &cur->cfg, s->cb.arg);
        }
    }
    free(a.fresh);
}

static void on_sync(struct gnmi_target *t, void *arg)
{
    struct gnmi_source *s = arg;
    struct call *c = gnmi_target_user(t);
    if (c->config)
        config_round(s, c->dev);
    else if (s->cb.on_round)
        s->cb.on_round(c->dev->name, s->cb.arg);
}

static void on_gap(struct gnmi_target *t, int64_t from, int64_t to, const char *why, void *arg)
{
    struct gnmi_source *s = arg;
    struct call *c = gnmi_target_user(t);
    s->stats.gaps++;
    char reason[300]; /* a long reason is cut, so that the other keys still fit */
    snprintf(reason, sizeof(reason), "%.*s", (int)sizeof(reason) - 1, why);
    struct event_details details;
    event_details_init(&details);
    event_details_i64(&details, "from_ns", from);
    event_details_i64(&details, "to_ns", to);
    event_details_fixed(&details, "seconds", (double)(to - from) / 1e9, 3);
    event_details_str(&details, "address", gnmi_target_address(t));
    event_details_str(&details, "subscription", c->config ? "config" : "counters");
    event_details_str(&details, "reason", reason);
    struct dcb_event e;
    dcb_event_set(&e, from, EVENT_SOURCE_GAP, c->dev->name, "", -1, event_details_json(&details));
    if (s->cb.on_event)
        s->cb.on_event(&e, s->cb.arg);
}

static void on_error(struct gnmi_target *t, const char *msg, int64_t retry_ns, void *arg)
{
    struct gnmi_source *s = arg;
    struct call *c = gnmi_target_user(t);
    if (s->cb.on_error)
        s->cb.on_error(c->dev->name, gnmi_target_address(t), msg, retry_ns, s->cb.arg);
}

static void missing_set(struct gnmi_source *s, const char *device, const char *path, bool on)
{
    for (size_t i = 0; i < s->nmissing; i++) {
        if (strcmp(s->missing[i].device, device) || strcmp(s->missing[i].path, path))
            continue;
        if (!on)
            s->missing[i] = s->missing[--s->nmissing];
        return;
    }
    if (!on || (s->nmissing == s->capmissing &&
                dcb_grow(&s->missing, &s->capmissing, sizeof(*s->missing), 8) < 0))
        return;
    struct missing *m = &s->missing[s->nmissing++];
    snprintf(m->device, sizeof(m->device), "%s", device);
    snprintf(m->path, sizeof(m->path), "%s", path);
}

void gnmi_source_missing_text(const struct gnmi_source *s, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < s->nmissing && at < len; i++) {
        const struct missing *m = &s->missing[i];
        bool same = i > 0 && !strcmp(s->missing[i - 1].device, m->device);
        int n = same ? snprintf(buf + at, len - at, ", %s", m->path)
                     : snprintf(buf + at, len - at, "%s%s lacks %s", i ? "; " : "", m->device,
                                m->path);
        if (n < 0)
            break;
        at += (size_t)n;
    }
}

/* A path not served (or served again) as a source_gap event with "path": what the stores,
 * serve and the rules' undecided list learn it from; "gives" names the canonical metrics and
 * config fields it would have given. */
static void path_event(struct gnmi_source *s, const struct call *c, const char *path, bool missing,
                       const char *why)
{
    if (!s->cb.on_event)
        return;
    const struct gnmi_map_sub *sub = gnmi_map_sub_of(c->dev->map, path);
    /* cut so that it fits DCB_DETAILS_MAX: 120 + GNMI_MAP_GIVES + 80 + the keys */
    char reason[80], p[121];
    snprintf(reason, sizeof(reason), "%.*s", (int)sizeof(reason) - 1, missing && why ? why : "");
    snprintf(p, sizeof(p), "%.*s", (int)sizeof(p) - 1, path);
    struct event_details details;
    event_details_init(&details);
    event_details_str(&details, "path", p);
    event_details_bool(&details, "served", !missing);
    event_details_str(&details, "gives", sub ? sub->gives : "");
    event_details_str(&details, "reason", reason);
    struct dcb_event e;
    dcb_event_set(&e, dcb_realtime_ns(), EVENT_SOURCE_GAP, c->dev->name, "", -1,
                  event_details_json(&details));
    s->cb.on_event(&e, s->cb.arg);
}

static void on_path(struct gnmi_target *t, const char *path, bool missing, const char *why,
                    void *arg)
{
    struct gnmi_source *s = arg;
    struct call *c = gnmi_target_user(t);
    char full[GNMI_PATH_MAX];
    snprintf(full, sizeof(full), "%s%s%s", c->target, c->target[0] ? ":" : "", path);
    missing_set(s, c->dev->name, full, missing);
    if (s->cb.on_missing)
        s->cb.on_missing(c->dev->name, gnmi_target_address(t), full, missing, why, s->cb.arg);
    path_event(s, c, full, missing, why);
}

int gnmi_source_new(struct gnmi_source **out, const char *maps_dir,
                    const struct gnmi_source_opts *opts, const struct gnmi_source_cb *cb,
                    struct dcb_err *err)
{
    *out = NULL;
    struct gnmi_source *s = calloc(1, sizeof(*s));
    if (!s)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    s->o = *opts;
    if (s->o.sample_interval_ns <= 0)
        s->o.sample_interval_ns = 1000000000LL;
    s->cb = *cb;
    snprintf(s->maps_dir, sizeof(s->maps_dir), "%s", maps_dir);
    struct gnmi_client_cb ccb = { .on_leaf = on_leaf,
                                  .on_sync = on_sync,
                                  .on_gap = on_gap,
                                  .on_error = on_error,
                                  .on_path = on_path,
                                  .arg = s };
    struct gnmi_client_opts co = s->o.client;
    if (co.path_retry_ns == 0)
        co.path_retry_ns = GNMI_PATH_RETRY_NS;
    if (co.interval_ns <= 0)
        co.interval_ns = s->o.sample_interval_ns;
    int rc = gnmi_client_new(&s->client, &co, &ccb, err);
    if (rc < 0) {
        free(s);
        return rc;
    }
    *out = s;
    return 0;
}

static struct gnmi_map *map_named(struct gnmi_source *s, const char *name, struct dcb_err *err)
{
    for (size_t i = 0; i < s->nmaps; i++)
        if (!strcmp(s->maps[i]->name, name))
            return s->maps[i];
    if (s->nmaps == MAX_MAPS) {
        dcb_err_set(err, DCB_E_RANGE, "more than %d gNMI maps", MAX_MAPS);
        return NULL;
    }
    struct gnmi_map *m = calloc(1, sizeof(*m));
    if (!m) {
        dcb_err_set(err, DCB_E_NOMEM, "out of memory");
        return NULL;
    }
    if (gnmi_map_load(m, s->maps_dir, name, err) < 0) {
        free(m);
        return NULL;
    }
    snprintf(m->name, sizeof(m->name), "%s", name);
    s->maps[s->nmaps++] = m;
    return m;
}

static int add_call(struct gnmi_source *s, struct device *d, const struct grpc_endpoint *ep,
                    const char *target, bool config, struct dcb_err *err)
{
    struct gnmi_target_conf tc;
    memset(&tc, 0, sizeof(tc));
    tc.name = d->name;
    tc.ep = *ep;
    tc.req.target = target[0] ? target : NULL;
    tc.req.encoding = s->o.encoding;
    for (size_t i = 0; i < d->map->nsubs; i++) {
        const struct gnmi_map_sub *sub = &d->map->subs[i];
        if (sub->config == config && !strcmp(sub->target, target) && tc.req.npaths < GNMI_MAX_PATHS)
            tc.req.paths[tc.req.npaths++] = sub->path;
    }
    if (config) {
        tc.use_get = true;
        tc.req.get_type = 0;
    } else {
        tc.req.mode = s->o.mode;
        tc.req.stream_mode = GNMI_SAMPLE;
        tc.req.sample_interval_ns = (uint64_t)s->o.sample_interval_ns;
    }
    if (s->ncalls == s->capcalls) {
        size_t cap = s->capcalls ? s->capcalls * 2 : 16;
        struct call **n = realloc(s->calls, cap * sizeof(*n));
        if (!n)
            return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
        s->calls = n;
        s->capcalls = cap;
    }
    struct call *c = calloc(1, sizeof(*c));
    if (!c)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    c->dev = d;
    c->config = config;
    snprintf(c->target, sizeof(c->target), "%s", target);
    s->calls[s->ncalls++] = c;
    int rc = gnmi_client_add(s->client, &tc, err);
    if (rc < 0)
        return rc;
    struct gnmi_target *t = gnmi_client_target(s->client, gnmi_client_ntargets(s->client) - 1);
    gnmi_target_set_user(t, c);
    if (config)
        gnmi_target_config_interval(t, s->o.config_interval_ns);
    return 0;
}

int gnmi_source_add(struct gnmi_source *s, const struct gnmi_source_target *t, struct dcb_err *err)
{
    struct gnmi_map *m = map_named(s, t->map && *t->map ? t->map : "openconfig", err);
    if (!m)
        return err ? err->code : DCB_E_NOTFOUND;
    if (s->ndevs == s->capdevs) {
        size_t cap = s->capdevs ? s->capdevs * 2 : 16;
        struct device **n = realloc(s->devs, cap * sizeof(*n));
        if (!n)
            return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
        s->devs = n;
        s->capdevs = cap;
    }
    struct device *d = calloc(1, sizeof(*d));
    if (!d)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    s->devs[s->ndevs++] = d;
    snprintf(d->name, sizeof(d->name), "%s", t->device && *t->device ? t->device : t->ep.address);
    d->map = m;
    /* one call per distinct (prefix target, counters|config) */
    for (size_t i = 0; i < m->nsubs; i++) {
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = m->subs[k].config == m->subs[i].config &&
                   !strcmp(m->subs[k].target, m->subs[i].target);
        if (seen || (m->subs[i].config && s->o.config_interval_ns < 0))
            continue;
        int rc = add_call(s, d, &t->ep, m->subs[i].target, m->subs[i].config, err);
        if (rc < 0)
            return rc;
    }
    return 0;
}

int gnmi_source_run(struct gnmi_source *s, volatile sig_atomic_t *stop, int64_t duration_ns)
{
    return gnmi_client_run(s->client, stop, duration_ns);
}

void gnmi_source_free(struct gnmi_source *s)
{
    if (!s)
        return;
    gnmi_client_free(s->client);
    for (size_t i = 0; i < s->ndevs; i++) {
        gnmi_cfg_round_clear(&s->devs[i]->round);
        free(s->devs[i]->ifs);
        free(s->devs[i]);
    }
    free(s->devs);
    for (size_t i = 0; i < s->ncalls; i++)
        free(s->calls[i]);
    free(s->calls);
    free(s->missing);
    for (size_t i = 0; i < s->nmaps; i++) {
        gnmi_map_free(s->maps[i]);
        free(s->maps[i]);
    }
    free(s);
}

int gnmi_source_add_fabric(struct gnmi_source *s, const struct fabric *f,
                           const struct grpc_endpoint *base, const char *default_map, size_t *added,
                           struct dcb_err *err)
{
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < f->ndevices; i++) {
        const struct fabric_device *d = &f->devices[i];
        if (d->reach != REACH_GNMI)
            continue;
        struct gnmi_source_target t = { .device = d->name,
                                        .map = d->gnmi.map[0] ? d->gnmi.map : default_map };
        t.ep = *base;
        t.ep.address = d->gnmi.target;
        t.ep.tls = !d->gnmi.insecure;
        if (d->gnmi.tls_ca[0])
            t.ep.ca_file = d->gnmi.tls_ca;
        if (d->gnmi.tls_cert[0])
            t.ep.cert_file = d->gnmi.tls_cert;
        if (d->gnmi.tls_key[0])
            t.ep.key_file = d->gnmi.tls_key;
        struct gnmi_creds creds;
        memset(&creds, 0, sizeof(creds));
        if (d->gnmi.credentials[0]) {
            rc = gnmi_creds_from_file(&creds, d->gnmi.credentials, err);
            if (rc < 0)
                break;
            t.ep.username = creds.username;
            t.ep.password = creds.password;
        }
        rc = gnmi_source_add(s, &t, err);
        gnmi_creds_wipe(&creds);
        if (rc == 0)
            (*added)++;
    }
    return rc;
}
