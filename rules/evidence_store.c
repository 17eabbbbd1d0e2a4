/* The store as evidence; see evidence_store.h. */
#include "evidence_store.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qos_json.h"

struct store_port {
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX];
    struct qos_config cfg, peer;
    bool has_cfg, has_peer;
};

struct store_evidence {
    struct dcb_store *st;
    struct store_port *ports;
    size_t n, cap;
    size_t hint;
    bool nomem;
    struct dcb_err *err;
    int error;
};

static long find_port(struct store_evidence *se, const char *device, const char *ifname)
{
    if (se->hint < se->n && !strcmp(se->ports[se->hint].device, device) &&
        !strcmp(se->ports[se->hint].ifname, ifname))
        return (long)se->hint;
    for (size_t i = 0; i < se->n; i++)
        if (!strcmp(se->ports[i].device, device) && !strcmp(se->ports[i].ifname, ifname)) {
            se->hint = i;
            return (long)i;
        }
    return -1;
}

static struct store_port *port_of(struct store_evidence *se, const char *device,
                                  const char *ifname)
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
    struct store_port *p = &se->ports[se->n];
    memset(p, 0, sizeof(*p));
    snprintf(p->device, sizeof(p->device), "%s", device);
    snprintf(p->ifname, sizeof(p->ifname), "%s", ifname);
    qos_config_init(&p->cfg);
    qos_config_init(&p->peer);
    se->hint = se->n++;
    return p;
}

static int add_sample_port(const struct dcb_sample *s, void *arg)
{
    port_of(arg, s->device, s->ifname);
    return 0;
}

/* Rows come in (device, ifname, source) order: "fabric" sorts before the measured sources
 * ("dcbnl", "sysfs ...") only by luck, so intent is merged first explicitly. */
static int add_config(const struct store_config_row *row, void *arg)
{
    struct store_evidence *se = arg;
    struct store_port *p = port_of(se, row->device, row->ifname);
    if (!p)
        return 0;
    cJSON *j = cJSON_Parse(row->json);
    struct qos_config c;
    qos_config_init(&c);
    struct dcb_err err;
    bool ok = j && qos_from_json(&c, j, "", &err) == 0;
    cJSON_Delete(j);
    if (!ok)
        return 0;                   /* a snapshot this build cannot read is no evidence */
    bool peer = !strncmp(row->source, "peer:", 5);
    struct qos_config *dst = peer ? &p->peer : &p->cfg;
    if (!peer && !strcmp(row->source, "fabric")) {
        struct qos_config measured = *dst;
        *dst = c;                   /* intent under what was measured */
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

struct window_acc {
    enum evidence_agg agg;
    uint64_t n;
    double sum, min, max, last;
};

static int accumulate(const struct dcb_sample *s, void *arg)
{
    struct window_acc *w = arg;
    double v = metric_info(s->metric)->kind == METRIC_COUNTER ? (double)s->value.counter
                                                               : s->value.gauge;
    if (!w->n || v < w->min)
        w->min = v;
    if (!w->n || v > w->max)
        w->max = v;
    w->sum += v;
    w->last = v;
    w->n++;
    return 0;
}

static int metric(void *ctx, const char *device, const char *ifname, enum metric_id m, int prio,
                  int queue, enum evidence_agg agg, int64_t t0, int64_t t1, double *out,
                  struct dcb_err *err)
{
    struct store_evidence *se = ctx;
    struct store_filter f;
    store_filter_init(&f);
    f.device = device;
    f.ifname = ifname;
    f.metric = metric_info(m)->name;
    f.prio = prio;
    f.queue = queue;
    f.t0 = t0;
    f.t1 = t1;
    if (agg == AGG_RATE || agg == AGG_DELTA) {
        double delta, rate;
        uint64_t resets;
        int rc = store_delta(se->st, &f, 64, &delta, &rate, &resets, err);
        if (rc == DCB_E_NOTFOUND)
            return 0;
        if (rc < 0)
            return rc;
        *out = agg == AGG_RATE ? rate : delta;
        return isfinite(*out) ? 1 : 0;
    }
    struct window_acc w = { .agg = agg };
    int rc = agg == AGG_LAST ? store_latest(se->st, &f, accumulate, &w, err)
                             : store_range(se->st, &f, accumulate, &w, err);
    if (rc < 0)
        return rc;
    if (!w.n)
        return 0;
    *out = agg == AGG_AVG ? w.sum / (double)w.n : agg == AGG_MAX ? w.max :
           agg == AGG_MIN ? w.min : w.last;
    return 1;
}

static int count_event(const struct dcb_event *e, void *arg)
{
    (void)e;
    (*(uint64_t *)arg)++;
    return 0;
}

static int event_count(void *ctx, const char *device, const char *ifname,
                       enum dcb_event_kind kind, int prio, int64_t t0, int64_t t1, uint64_t *out,
                       struct dcb_err *err)
{
    struct store_evidence *se = ctx;
    struct store_filter f;
    store_filter_init(&f);
    f.device = device;
    f.ifname = ifname;
    if (prio >= 0)
        f.prio = prio;
    f.t0 = t0;
    f.t1 = t1;
    *out = 0;
    int rc = store_events(se->st, &f, dcb_event_kind_name(kind), count_event, out, err);
    return rc < 0 ? rc : 1;
}

static const struct evidence_ops store_ops = {
    .each_port = each_port,
    .config = config,
    .peer_config = peer_config,
    .metric = metric,
    .event_count = event_count,
};

int evidence_store_open(struct evidence *ev, struct dcb_store *st, int64_t t1,
                        struct dcb_err *err)
{
    struct store_evidence *se = calloc(1, sizeof(*se));
    if (!se)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    se->st = st;
    struct store_filter f;
    store_filter_init(&f);
    f.t1 = t1;
    int rc = store_latest(st, &f, add_sample_port, se, err);
    if (rc >= 0)
        rc = store_configs(st, NULL, NULL, t1, add_config, se, err);
    if (rc >= 0 && se->nomem)
        rc = dcb_err_set(err, DCB_E_NOMEM, "out of memory listing ports");
    if (rc < 0) {
        free(se->ports);
        free(se);
        return rc;
    }
    ev->ops = &store_ops;
    ev->ctx = se;
    return 0;
}

void evidence_store_close(struct evidence *ev)
{
    struct store_evidence *se = ev->ctx;
    if (se) {
        free(se->ports);
        free(se);
    }
    ev->ctx = NULL;
}
