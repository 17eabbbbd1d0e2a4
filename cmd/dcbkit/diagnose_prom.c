/* dcbkit diagnose --prometheus: a fleet's window read from Prometheus (what dcbkit serve
 * exported and Prometheus kept) into an in-memory ring, so that the rules read it exactly as
 * they read a store. Canonical metrics come back from their Prometheus names and base units
 * (seconds to microseconds, bytes/s to bits/s), dcbkit_qos_config series become config
 * snapshots again, dcbkit_topology_info series "topology" rows (role(), peer_role()) and
 * dcbkit_events_total answers the rules' event counts; every other series is left alone. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose.h"
#include "prom_client.h"
#include "qos_json.h"

struct prom_name {
    char name[128];
};

/* The canonical metric a Prometheus name stands for, or METRIC_NONE. */
static enum metric_id metric_of(const struct prom_name *names, const char *name)
{
    for (int i = 0; i < METRIC_COUNT; i++)
        if (!strcmp(names[i].name, name))
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

static int put_series(struct dcb_store *st, const struct prom_matrix *m, size_t i,
                      const struct prom_series *s, enum metric_id id, struct dcb_err *err)
{
    const char *device = prom_series_label(s, "device"), *ifname = prom_series_label(s, "ifname");
    int prio = index_label(s, "prio"), queue = index_label(s, "queue");
    if (!device || prio < -1 || queue < -1)
        return 0;                 /* not one of ours: no device, or a prio that is no number */
    const struct metric_info *mi = metric_info(id);
    double scale = metric_prom_scale(id);
    for (size_t k = 0; k < s->npoints; k++) {
        int64_t t;
        double v;
        prom_matrix_point(m, i, k, &t, &v);
        if (!isfinite(v))
            continue;             /* unknown is not zero */
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
        if (store_put_sample(st, &smp, err) < 0)
            return -1;
    }
    return 0;
}

/* dcbkit_qos_config series of one (device, ifname, source), adjacent when sorted. */
struct config_acc {
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX], source[64];
    struct qos_config c;
    int64_t t;
    bool open;
};

static int flush_config(struct dcb_store *st, struct config_acc *a, struct dcb_err *err)
{
    if (!a->open)
        return 0;
    a->open = false;
    cJSON *j = qos_to_json(&a->c);
    char *text = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    if (!text)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    struct store_config_row row = { a->t, a->device, a->ifname, a->source, text };
    int rc = store_put_config(st, &row, err);
    free(text);
    return rc;
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
        int c = strcmp(p ? p : "", q ? q : "");
        if (c)
            return c;
    }
    return 0;
}

static int put_configs(struct dcb_store *st, const struct prom_matrix *m, size_t *idx, size_t n,
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
        if (a.open && (strcmp(a.device, device) || strcmp(a.ifname, ifname) ||
                       strcmp(a.source, source)) && flush_config(st, &a, err) < 0)
            return -1;
        if (!a.open) {
            snprintf(a.device, sizeof(a.device), "%s", device);
            snprintf(a.ifname, sizeof(a.ifname), "%s", ifname);
            snprintf(a.source, sizeof(a.source), "%s", source);
            qos_config_init(&a.c);
            a.t = 0;
            a.open = true;
        }
        int64_t t;
        double v;
        prom_matrix_point(m, idx[j], s.npoints - 1, &t, &v);   /* the newest value */
        if (isfinite(v) && fabs(v) < 9e18)
            qos_set_raw(&a.c, field, (int64_t)llround(v), NULL);   /* a field we do not know
                                                                    * stays unknown */
        if (t > a.t)
            a.t = t;
    }
    return flush_config(st, &a, err);
}

/* A dcbkit_topology_info series: the "topology" row it was exported from. */
static int put_topology(struct dcb_store *st, const struct prom_matrix *m, size_t i,
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
    int rc = store_put_config(st, &row, err);
    free(text);
    return rc;
}

/* ---- events: dcbkit_events_total counters answer the rules' event counts --------------------- */

struct event_series {
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX];
    int prio;
    enum dcb_event_kind kind;
    size_t start, n;              /* into the point arrays */
};

struct diagnose_prom_events {
    struct event_series *series;
    size_t nseries;
    int64_t *t;
    double *v;
    size_t npoints;
    struct evidence inner;        /* the ring's evidence, which answers everything else */
    struct evidence_ops ops;
};

static int add_event_series(struct diagnose_prom_events *pe, const struct prom_matrix *m,
                            size_t i, const struct prom_series *s)
{
    const char *device = prom_series_label(s, "device"), *ifname = prom_series_label(s, "ifname");
    const char *kind = prom_series_label(s, "kind");
    int prio = index_label(s, "prio");
    enum dcb_event_kind k = kind ? dcb_event_kind_lookup(kind) : EVENT_KIND_NONE;
    if (!device || k == EVENT_KIND_NONE || prio < -1)
        return 0;
    struct event_series *es = &pe->series[pe->nseries++];
    snprintf(es->device, sizeof(es->device), "%s", device);
    snprintf(es->ifname, sizeof(es->ifname), "%s", ifname ? ifname : "");
    es->prio = prio;
    es->kind = k;
    es->start = pe->npoints;
    for (size_t p = 0; p < s->npoints; p++) {
        prom_matrix_point(m, i, p, &pe->t[pe->npoints], &pe->v[pe->npoints]);
        if (isfinite(pe->v[pe->npoints]))
            pe->npoints++;
    }
    es->n = pe->npoints - es->start;
    return 0;
}

/* The increase of one counter over the points inside [t0, t1]; a drop is a restart. */
static double increase(const struct diagnose_prom_events *pe, const struct event_series *es,
                       int64_t t0, int64_t t1)
{
    double sum = 0, prev = NAN;
    for (size_t k = es->start; k < es->start + es->n; k++) {
        if (pe->t[k] < t0 || pe->t[k] > t1)
            continue;
        double v = pe->v[k];
        if (!isnan(prev))
            sum += v >= prev ? v - prev : v;
        prev = v;
    }
    return sum;
}

static int prom_event_count(void *ctx, const char *device, const char *ifname,
                            enum dcb_event_kind kind, int prio, int64_t t0, int64_t t1,
                            uint64_t *out, struct dcb_err *err)
{
    (void)err;
    struct diagnose_prom_events *pe = ctx;
    if (!pe->nseries)
        return 0;                 /* the exporter published no events: unknown */
    double n = 0;
    for (size_t i = 0; i < pe->nseries; i++) {
        const struct event_series *es = &pe->series[i];
        if (es->kind != kind || (device && strcmp(device, es->device)) ||
            (ifname && strcmp(ifname, es->ifname)) || (prio >= 0 && es->prio != prio))
            continue;
        n += increase(pe, es, t0, t1);
    }
    *out = (uint64_t)llround(n);
    return 1;
}

static int fwd_each_port(void *ctx, evidence_port_fn fn, void *arg, struct dcb_err *err)
{
    struct diagnose_prom_events *pe = ctx;
    return pe->inner.ops->each_port(pe->inner.ctx, fn, arg, err);
}

static const struct qos_config *fwd_config(void *ctx, const char *device, const char *ifname)
{
    struct diagnose_prom_events *pe = ctx;
    return pe->inner.ops->config(pe->inner.ctx, device, ifname);
}

static const struct qos_config *fwd_peer_config(void *ctx, const char *device,
                                                const char *ifname)
{
    struct diagnose_prom_events *pe = ctx;
    return pe->inner.ops->peer_config(pe->inner.ctx, device, ifname);
}

static const char *fwd_role(void *ctx, const char *device)
{
    struct diagnose_prom_events *pe = ctx;
    return pe->inner.ops->role ? pe->inner.ops->role(pe->inner.ctx, device) : NULL;
}

static const char *fwd_peer_role(void *ctx, const char *device, const char *ifname)
{
    struct diagnose_prom_events *pe = ctx;
    return pe->inner.ops->peer_role ? pe->inner.ops->peer_role(pe->inner.ctx, device, ifname)
                                    : NULL;
}

static int fwd_metric(void *ctx, const char *device, const char *ifname, enum metric_id m,
                      int prio, int queue, enum evidence_agg agg, int64_t t0, int64_t t1,
                      double *out, struct dcb_err *err)
{
    struct diagnose_prom_events *pe = ctx;
    return pe->inner.ops->metric(pe->inner.ctx, device, ifname, m, prio, queue, agg, t0, t1,
                                 out, err);
}

void diagnose_prom_evidence(struct evidence *ev, struct diagnose_prom_events *pe)
{
    pe->inner = *ev;
    pe->ops = *ev->ops;
    pe->ops.each_port = fwd_each_port;
    pe->ops.config = fwd_config;
    pe->ops.peer_config = fwd_peer_config;
    pe->ops.role = ev->ops->role ? fwd_role : NULL;
    pe->ops.peer_role = ev->ops->peer_role ? fwd_peer_role : NULL;
    pe->ops.metric = fwd_metric;
    pe->ops.event_count = prom_event_count;
    ev->ops = &pe->ops;
    ev->ctx = pe;
}

void diagnose_prom_unwrap(struct evidence *ev, struct diagnose_prom_events *pe)
{
    if (pe && ev->ctx == pe)
        *ev = pe->inner;
}

void diagnose_prom_events_free(struct diagnose_prom_events *pe)
{
    if (!pe)
        return;
    free(pe->series);
    free(pe->t);
    free(pe->v);
    free(pe);
}

int diagnose_gather_prometheus(const struct diagnose_prometheus *p, struct dcb_store **st,
                               struct diagnose_prom_events **events, int64_t *now_ns,
                               struct dcb_err *err)
{
    *st = NULL;
    *events = NULL;
    char query[1024];
    snprintf(query, sizeof(query), "{__name__=~\"dcbkit_.+\"%s%s}", p->match && *p->match ? "," : "",
             p->match ? p->match : "");
    struct prom_query q = { p->url, query, p->end_ns - p->window_ns, p->end_ns, p->step_ns,
                            p->timeout_ms, 0 };
    struct prom_matrix *m;
    if (prom_query_range(&q, &m, err) < 0)
        return -1;
    static struct prom_name names[METRIC_COUNT];
    for (int i = 0; i < METRIC_COUNT; i++)
        metric_prom_name((enum metric_id)i, names[i].name, sizeof(names[i].name));
    size_t n = prom_matrix_series(m), npoints = prom_matrix_points(m), nconfig = 0;
    size_t *config = calloc(n ? n : 1, sizeof(*config));
    struct diagnose_prom_events *pe = calloc(1, sizeof(*pe));
    if (pe) {
        pe->series = calloc(n ? n : 1, sizeof(*pe->series));
        pe->t = malloc((npoints ? npoints : 1) * sizeof(*pe->t));
        pe->v = malloc((npoints ? npoints : 1) * sizeof(*pe->v));
    }
    int rc = config && pe && pe->series && pe->t && pe->v
                 ? store_open_ring(st, npoints + 1024, 1024, err)
                 : dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    *now_ns = p->end_ns;
    size_t used = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        struct prom_series s;
        prom_matrix_get(m, i, &s);
        if (!strcmp(s.name, "dcbkit_qos_config")) {
            config[nconfig++] = i;
            continue;
        }
        if (!strcmp(s.name, "dcbkit_events_total")) {
            rc = add_event_series(pe, m, i, &s);
            continue;
        }
        if (!strcmp(s.name, "dcbkit_topology_info")) {
            rc = put_topology(*st, m, i, &s, err);
            continue;
        }
        enum metric_id id = metric_of(names, s.name);
        if (id == METRIC_NONE)
            continue;
        used++;
        rc = put_series(*st, m, i, &s, id, err);
    }
    if (rc == 0)
        rc = put_configs(*st, m, config, nconfig, err);
    if (rc == 0 && !used && !nconfig)
        rc = dcb_err_set(err, DCB_E_NOTFOUND, "no dcbkit series%s%s in the window (is dcbkit "
                         "serve being scraped?)", p->match ? " matching " : "",
                         p->match ? p->match : "");
    free(config);
    prom_matrix_free(m);
    if (rc < 0) {
        if (*st)
            store_close(*st, NULL);
        *st = NULL;
        diagnose_prom_events_free(pe);
        return rc;
    }
    *events = pe;
    return 0;
}
