/* prometheus: a window of what `dcbkit serve` exported and Prometheus kept, read back with
 * query_range into the sink on the first tick, so that the rules read it as they read a store.
 * Canonical metrics come back from their Prometheus names and base units (seconds to
 * microseconds, bytes/s to bits/s), dcbkit_qos_config series become config snapshots again,
 * dcbkit_topology_info series "topology" rows (role(), peer_role()), and each increase of a
 * dcbkit_events_total counter becomes that many events at the point it was seen (bounded: past
 * SOURCE_PROM_EVENTS_MAX one source_gap event says how many were left out). Every other series
 * is left alone. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_details.h"
#include "prom_client.h"
#include "qos_config.h"
#include "source.h"

#define SOURCE_PROM_EVENTS_MAX 100000
#define DEFAULT_WINDOW_NS (3600 * 1000000000LL)

struct prom_ctx {
    struct dcb_source *src;
    struct source_prometheus_options opt;
    char url[1024], match[1024];
    char names[METRIC_COUNT][128]; /* the Prometheus name of each canonical metric */
    uint64_t events, events_left_out;
    bool ended;
};

/* The canonical metric a Prometheus name stands for, or METRIC_NONE. */
static enum metric_id metric_of(const struct prom_ctx *c, const char *name)
{
    for (int i = 0; i < METRIC_COUNT; i++)
        if (!strcmp(c->names[i], name))
            return (enum metric_id)i;
    return METRIC_NONE;
}

static int index_label(const struct prom_series *s, const char *key)
{
    const char *v = prom_series_label(s, key);
    if (!v || !*v)
        return -1;
    char *end;
    long n = strtol(v, &end, 10);
    return *end || n < 0 || n > 32767 ? -2 : (int)n;
}

static void put_series(struct prom_ctx *c, const struct prom_matrix *m, size_t i,
                       const struct prom_series *s, enum metric_id id)
{
    const char *device = prom_series_label(s, "device"), *ifname = prom_series_label(s, "ifname");
    const struct metric_info *mi = metric_info(id);
    int prio = index_label(s, "prio");
    int queue = index_label(s, mi->labels == LABELS_QP ? "qp" : "queue");
    if (!device || prio < -1 || queue < -1)
        return; /* not one of ours: no device, or a prio that is no number */
    double scale = metric_prom_scale(id);
    for (size_t k = 0; k < s->npoints; k++) {
        int64_t t;
        double v;
        prom_matrix_point(m, i, k, &t, &v);
        if (!isfinite(v))
            continue; /* unknown is not zero */
        struct dcb_sample smp;
        dcb_sample_set(&smp, t, device, ifname ? ifname : "", id, prio, queue);
        if (mi->kind == METRIC_COUNTER) {
            double raw = v / scale;
            if (raw < 0 || raw >= 1.8446744073709552e19)
                continue;
            smp.value.counter = (uint64_t)llround(raw);
        } else {
            smp.value.gauge = v / scale;
        }
        c->src->sink.sample(c->src->sink.arg, &smp, 0);
    }
}

/* ---- dcbkit_qos_config: one snapshot per (device, ifname, source) ---------------------------- */

struct config_acc {
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX], source[64];
    struct qos_config q;
    int64_t t;
    bool open;
};

static int flush_config(struct prom_ctx *c, struct config_acc *a, struct dcb_err *err)
{
    if (!a->open)
        return 0;
    a->open = false;
    return dcb_sink_put_qos(&c->src->sink, a->t, a->device, a->ifname, a->source, &a->q, err);
}

static int cmp_config_series(const void *x, const void *y, void *arg)
{
    const struct prom_matrix *m = arg;
    struct prom_series a, b;
    prom_matrix_get(m, *(const size_t *)x, &a);
    prom_matrix_get(m, *(const size_t *)y, &b);
    static const char *const keys[] = { "device", "ifname", "source" };
    for (int k = 0; k < 3; k++) {
        const char *p = prom_series_label(&a, keys[k]), *q = prom_series_label(&b, keys[k]);
        int d = strcmp(p ? p : "", q ? q : "");
        if (d)
            return d;
    }
    return 0;
}

static void open_config(struct config_acc *a, const char *device, const char *ifname,
                        const char *source)
{
    snprintf(a->device, sizeof(a->device), "%s", device);
    snprintf(a->ifname, sizeof(a->ifname), "%s", ifname);
    snprintf(a->source, sizeof(a->source), "%s", source);
    qos_config_init(&a->q);
    a->t = 0;
    a->open = true;
}

static int put_configs(struct prom_ctx *c, const struct prom_matrix *m, size_t *idx, size_t n,
                       struct dcb_err *err)
{
    qsort_r(idx, n, sizeof(*idx), cmp_config_series, (void *)m);
    static struct config_acc a;
    memset(&a, 0, sizeof(a));
    for (size_t j = 0; j < n; j++) {
        struct prom_series s;
        prom_matrix_get(m, idx[j], &s);
        const char *device = prom_series_label(&s, "device");
        const char *ifname = prom_series_label(&s, "ifname");
        const char *source = prom_series_label(&s, "source");
        const char *field = prom_series_label(&s, "field");
        if (!device || !source || !field || !s.npoints)
            continue;
        if (!ifname)
            ifname = "";
        if (a.open &&
            (strcmp(a.device, device) || strcmp(a.ifname, ifname) || strcmp(a.source, source)) &&
            flush_config(c, &a, err) < 0)
            return -1;
        if (!a.open)
            open_config(&a, device, ifname, source);
        int64_t t;
        double v;
        prom_matrix_point(m, idx[j], s.npoints - 1, &t, &v); /* the newest value */
        if (isfinite(v) && fabs(v) < 9e18)
            qos_set_raw(&a.q, field, (int64_t)llround(v), NULL); /* a field we do not know
                                                                  * stays unknown */
        if (t > a.t)
            a.t = t;
    }
    return flush_config(c, &a, err);
}

/* A dcbkit_topology_info series: the "topology" row it was exported from. */
static int put_topology(struct prom_ctx *c, const struct prom_matrix *m, size_t i,
                        const struct prom_series *s, struct dcb_err *err)
{
    const char *device = prom_series_label(s, "device"), *ifname = prom_series_label(s, "ifname");
    const char *role = prom_series_label(s, "role");
    const char *peer_device = prom_series_label(s, "peer_device");
    const char *peer_ifname = prom_series_label(s, "peer_ifname");
    const char *peer_role = prom_series_label(s, "peer_role");
    if (!device || !s->npoints)
        return 0;
    int64_t t;
    double v;
    prom_matrix_point(m, i, s->npoints - 1, &t, &v);
    cJSON *j = cJSON_CreateObject();
    bool ok = j && (!role || cJSON_AddStringToObject(j, "role", role));
    if (ok && (peer_device || peer_role)) {
        cJSON *q = cJSON_AddObjectToObject(j, "peer");
        ok = q && (!peer_device || cJSON_AddStringToObject(q, "device", peer_device)) &&
             (!peer_ifname || cJSON_AddStringToObject(q, "ifname", peer_ifname)) &&
             (!peer_role || cJSON_AddStringToObject(q, "role", peer_role));
    }
    char *text = ok ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    if (!text)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    struct store_config_row row = { t, device, ifname ? ifname : "", "topology", text };
    c->src->sink.config(c->src->sink.arg, &row);
    free(text);
    return 0;
}

/* ---- dcbkit_events_total: each increase becomes events ----------------------------------- */

static void put_events(struct prom_ctx *c, const struct prom_matrix *m, size_t i,
                       const struct prom_series *s)
{
    const char *device = prom_series_label(s, "device"), *ifname = prom_series_label(s, "ifname");
    const char *kind = prom_series_label(s, "kind");
    int prio = index_label(s, "prio");
    enum dcb_event_kind k = kind ? dcb_event_kind_lookup(kind) : EVENT_KIND_NONE;
    if (!device || k == EVENT_KIND_NONE || prio < -1)
        return;
    struct dcb_event e;
    memset(&e, 0, sizeof(e));
    e.kind = k;
    e.prio = (int16_t)prio;
    snprintf(e.device, sizeof(e.device), "%s", device);
    snprintf(e.ifname, sizeof(e.ifname), "%s", ifname ? ifname : "");
    snprintf(e.details, sizeof(e.details), "{}");
    double prev = NAN;
    for (size_t p = 0; p < s->npoints; p++) {
        double v;
        prom_matrix_point(m, i, p, &e.time_ns, &v);
        if (!isfinite(v))
            continue;
        /* the increase since the point before (a drop is a restart from 0); the counter's
         * value at the window's first point says nothing of the window */
        double inc = isnan(prev) ? 0 : v >= prev ? v - prev : v;
        prev = v;
        uint64_t n = inc > 0 && inc < 1e15 ? (uint64_t)llround(inc) : 0;
        for (; n && c->events < SOURCE_PROM_EVENTS_MAX; n--, c->events++)
            c->src->sink.event(c->src->sink.arg, &e);
        c->events_left_out += n;
    }
}

static void put_gap(struct prom_ctx *c, int64_t end_ns)
{
    if (!c->events_left_out)
        return;
    struct event_details details;
    event_details_init(&details);
    event_details_u64(&details, "events_left_out", c->events_left_out);
    event_details_u64(&details, "events_kept", c->events);
    struct dcb_event e;
    dcb_event_set(&e, end_ns, EVENT_SOURCE_GAP, "prometheus", "", -1, event_details_json(&details));
    c->src->sink.event(c->src->sink.arg, &e);
}

/* ---- the window ---------------------------------------------------------------------------- */

static int put_matrix(struct prom_ctx *c, const struct prom_matrix *m, struct dcb_err *err)
{
    size_t n = prom_matrix_series(m), nconfig = 0, used = 0;
    size_t *config = calloc(n ? n : 1, sizeof(*config));
    if (!config)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        struct prom_series s;
        prom_matrix_get(m, i, &s);
        enum metric_id id;
        if (!strcmp(s.name, "dcbkit_qos_config"))
            config[nconfig++] = i;
        else if (!strcmp(s.name, "dcbkit_events_total"))
            put_events(c, m, i, &s);
        else if (!strcmp(s.name, "dcbkit_topology_info"))
            rc = put_topology(c, m, i, &s, err);
        else if ((id = metric_of(c, s.name)) != METRIC_NONE) {
            used++;
            put_series(c, m, i, &s, id);
        }
    }
    if (rc == 0)
        rc = put_configs(c, m, config, nconfig, err);
    free(config);
    if (rc == 0 && !used && !nconfig)
        rc = dcb_err_set(err, DCB_E_NOTFOUND,
                         "no dcbkit series%s%s in the window (is dcbkit "
                         "serve being scraped?)",
                         c->opt.match ? " matching " : "", c->opt.match ? c->opt.match : "");
    return rc;
}

static int prom_tick(struct dcb_source *src, int64_t now_ns, int64_t *data_ns, struct dcb_err *err)
{
    struct prom_ctx *c = src->ctx;
    const struct source_prometheus_options *o = &c->opt;
    int64_t end = o->end_ns ? o->end_ns : now_ns;
    int64_t window = o->window_ns > 0 ? o->window_ns : DEFAULT_WINDOW_NS;
    int64_t step = o->step_ns > 0 ? o->step_ns : window / 240;
    *data_ns = end;
    if (c->ended)
        return DCB_SOURCE_END;
    c->ended = true;
    char query[1200];
    snprintf(query, sizeof(query), "{__name__=~\"dcbkit_.+\"%s%s}",
             o->match && *o->match ? "," : "", o->match ? o->match : "");
    struct prom_query q = { c->url,
                            query,
                            end - window,
                            end,
                            step > 0 ? step : 1000000,
                            o->timeout_ms ? o->timeout_ms : 10000,
                            0 };
    struct prom_matrix *m;
    int rc = prom_query_range(&q, &m, err);
    if (rc == 0) {
        rc = put_matrix(c, m, err);
        prom_matrix_free(m);
    }
    if (rc < 0) {
        char why[sizeof(err->msg)];
        snprintf(why, sizeof(why), "%s", err->msg);
        return dcb_err_set(err, rc, "%s: %s", c->url, why);
    }
    put_gap(c, end);
    return DCB_SOURCE_END;
}

static void prom_close(struct dcb_source *src)
{
    free(src->ctx);
    src->ctx = NULL;
}

static const struct dcb_source_ops prom_ops = { prom_tick, NULL, prom_close };

int dcb_source_prometheus_open(struct dcb_source *src, const struct source_prometheus_options *opt,
                               struct dcb_err *err)
{
    if (!opt->url || (strncmp(opt->url, "http://", 7) && strncmp(opt->url, "https://", 8)))
        return dcb_err_set(err, DCB_E_INVAL,
                           "--prometheus takes an http:// or https:// URL, "
                           "not '%s'",
                           opt->url ? opt->url : "");
    struct prom_ctx *c = calloc(1, sizeof(*c));
    if (!c)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    c->src = src;
    c->opt = *opt;
    snprintf(c->url, sizeof(c->url), "%s", opt->url);
    c->opt.url = c->url;
    if (opt->match) {
        snprintf(c->match, sizeof(c->match), "%s", opt->match);
        c->opt.match = c->match;
    }
    for (int i = 0; i < METRIC_COUNT; i++)
        metric_prom_name((enum metric_id)i, c->names[i], sizeof(c->names[i]));
    src->ops = &prom_ops;
    src->ctx = c;
    src->kind = SOURCE_PROMETHEUS;
    src->finite = true;
    snprintf(src->name, sizeof(src->name), "prometheus %s", opt->url);
    return 0;
}
