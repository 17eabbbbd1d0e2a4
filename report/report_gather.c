/* dcbkit report: the store window into the model. One pass per tracked counter metric (the
 * store hands each series out in time order), the increases credited to the port, to its chart
 * bucket and to its heatmap hour; then the latest table for which devices answered, the events
 * for QPs and LLDP neighbours, and the config snapshots. Memory grows with ports, not samples. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "counter.h"
#include "qos_json.h"
#include "report.h"
#include "report_map.h"

enum acc_kind { ACC_PAUSE_NS, ACC_PAUSE_FRAMES, ACC_MARKS, ACC_DROPS, ACC_KINDS };

static const char *const acc_names[ACC_KINDS] = { "pause_ns", "pause_frames", "marks", "drops" };

static const struct tracked {
    const char *metric;
    enum acc_kind kind;
    double scale; /* reading units -> the accumulator's */
    int rx;       /* pause time: 1 paused by the peer, 0 pausing the peer, -1 n/a */
} tracked[] = {
    { "pfc.rx_pause_us", ACC_PAUSE_NS, 1000, 1 },
    { "pfc.tx_pause_us", ACC_PAUSE_NS, 1000, 0 },
    { "pfc.rx_pause", ACC_PAUSE_FRAMES, 1, -1 },
    { "pfc.tx_pause", ACC_PAUSE_FRAMES, 1, -1 },
    { "pause.rx_global", ACC_PAUSE_FRAMES, 1, -1 },
    { "pause.tx_global", ACC_PAUSE_FRAMES, 1, -1 },
    { "queue.ecn_marked", ACC_MARKS, 1, -1 },
    { "ecn.marked", ACC_MARKS, 1, -1 },
    { "roce.ecn_marked_rx", ACC_MARKS, 1, -1 },
    { "queue.drops", ACC_DROPS, 1, -1 },
    { "queue.wred_drops", ACC_DROPS, 1, -1 },
    { "pg.drops", ACC_DROPS, 1, -1 },
    { "drop.rx_discards", ACC_DROPS, 1, -1 },
    { "drop.rx_buffer", ACC_DROPS, 1, -1 },
    { "drop.prio", ACC_DROPS, 1, -1 },
    { "drop.rx_oversize", ACC_DROPS, 1, -1 },
    { "drop.tx_oversize", ACC_DROPS, 1, -1 },
    { "pfcwd.tx_drop", ACC_DROPS, 1, -1 },
    { "pfcwd.rx_drop", ACC_DROPS, 1, -1 },
    /* what a capture saw on the wire (--pcap, collect --capture): who paused is not known */
    { "capture.pfc_frames", ACC_PAUSE_FRAMES, 1, -1 },
    { "capture.pause_frames", ACC_PAUSE_FRAMES, 1, -1 },
    { "capture.pfc_paused_us", ACC_PAUSE_NS, 1000, -1 },
    { "capture.ce_packets", ACC_MARKS, 1, -1 },
};

/* The QoS fields a device section shows, when a source knows them. */
static const char *const config_paths[] = {
    "trust",
    "pfc.enabled",
    "pfc.willing",
    "dcbx.mode",
    "mtu",
    "speed_bps",
    "cnp.dscp",
    "cnp.prio",
    "nic.dcqcn.np_enabled",
    "nic.dcqcn.rp_enabled",
    "switch.pfcwd.action",
};

struct port {
    size_t device;
    char ifname[DCB_IFNAME_MAX];
    double total[ACC_KINDS];
    bool has[ACC_KINDS];
    double rx_pause_ns, tx_pause_ns;
    float *buckets; /* ACC_KINDS x REPORT_CHART_BUCKETS; NaN: no increase seen */
    float *hours;   /* heatmap columns of pause (time, or frames) */
};

struct device {
    char name[DCB_DEVICE_MAX];
    const struct fabric_device *fab;
    uint64_t series;
    int64_t last_ns;
    cJSON *neighbours, *config;
};

struct qp {
    char device[DCB_DEVICE_MAX];
    char flow[128];
    double retransmits, psn_gaps, naks;
};

struct gather {
    struct dcb_store *st;
    const struct report_window *w;
    struct report_map port_map, device_map, qp_map;
    struct port *ports;
    size_t nports, ports_cap;
    struct device *devices;
    size_t ndevices, devices_cap;
    struct qp *qps;
    size_t nqps, qps_cap;
    int64_t hm_t0, hm_step;
    size_t hm_cols;
    uint64_t samples;
    bool nomem;
};

static void *grow(void *arr, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return arr;
    size_t ncap = *cap ? *cap * 2 : 64;
    void *p = realloc(arr, ncap * size);
    if (p)
        *cap = ncap;
    return p;
}

static struct device *device_get(struct gather *g, const char *name)
{
    int64_t i = report_map_get(&g->device_map, name, "");
    if (i >= 0)
        return &g->devices[i];
    struct device *d = grow(g->devices, &g->devices_cap, g->ndevices, sizeof(*d));
    if (!d || report_map_put(&g->device_map, name, "", (int64_t)g->ndevices) < 0) {
        g->nomem = true;
        return NULL;
    }
    g->devices = d;
    d = &g->devices[g->ndevices++];
    memset(d, 0, sizeof(*d));
    snprintf(d->name, sizeof(d->name), "%s", name);
    return d;
}

static struct port *port_get(struct gather *g, const char *device, const char *ifname)
{
    int64_t i = report_map_get(&g->port_map, device, ifname);
    if (i >= 0)
        return &g->ports[i];
    struct device *d = device_get(g, device);
    struct port *p = d ? grow(g->ports, &g->ports_cap, g->nports, sizeof(*p)) : NULL;
    if (!p || report_map_put(&g->port_map, device, ifname, (int64_t)g->nports) < 0) {
        g->nomem = true;
        return NULL;
    }
    g->ports = p;
    p = &g->ports[g->nports++];
    memset(p, 0, sizeof(*p));
    p->device = (size_t)(d - g->devices);
    snprintf(p->ifname, sizeof(p->ifname), "%s", ifname);
    p->buckets = malloc(ACC_KINDS * REPORT_CHART_BUCKETS * sizeof(float));
    p->hours = malloc(g->hm_cols * sizeof(float));
    if (!p->buckets || !p->hours) {
        g->nomem = true;
        return NULL;
    }
    for (size_t k = 0; k < ACC_KINDS * REPORT_CHART_BUCKETS; k++)
        p->buckets[k] = NAN;
    for (size_t k = 0; k < g->hm_cols; k++)
        p->hours[k] = NAN;
    return p;
}

static void add_nan(float *slot, double v)
{
    *slot = isnan(*slot) ? (float)v : *slot + (float)v;
}

/* ---- the counter walk ------------------------------------------------------------------- */

struct walk {
    struct gather *g;
    const struct tracked *t;
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX];
    int prio, queue;
    unsigned bits; /* the series' width, as the store keeps it */
    bool in_series, primed;
    uint64_t prev; /* the series' previous reading, once primed */
    struct port *port;
};

static int on_sample(const struct dcb_sample *s, void *arg)
{
    struct walk *k = arg;
    struct gather *g = k->g;
    g->samples++;
    if (!k->in_series || s->prio != k->prio || s->queue != k->queue ||
        strcmp(s->ifname, k->ifname) != 0 || strcmp(s->device, k->device) != 0) {
        memcpy(k->device, s->device, sizeof(k->device));
        memcpy(k->ifname, s->ifname, sizeof(k->ifname));
        k->prio = s->prio;
        k->queue = s->queue;
        k->in_series = true;
        k->bits = store_series_width(g->st, s->device, s->ifname, s->metric, s->prio, s->queue);
        k->primed = false;
        k->port = port_get(g, s->device, s->ifname);
        if (k->port)
            k->port->has[k->t->kind] = true;
    }
    uint64_t step;
    bool stepped = k->primed && counter_step(k->prev, s->value.counter, k->bits, &step);
    k->prev = s->value.counter;
    k->primed = true;
    /* a reset's interval has no known increase (the counter may restart from any value) */
    if (!k->port || !stepped)
        return 0;
    double v = (double)step * k->t->scale;
    struct port *p = k->port;
    enum acc_kind kind = k->t->kind;
    p->total[kind] += v;
    if (k->t->rx == 1)
        p->rx_pause_ns += v;
    else if (k->t->rx == 0)
        p->tx_pause_ns += v;
    const struct report_window *w = g->w;
    int64_t b = (int64_t)(((double)s->time_ns - (double)w->t0) * REPORT_CHART_BUCKETS /
                          ((double)w->t1 - (double)w->t0 + 1));
    if (b >= 0 && b < REPORT_CHART_BUCKETS)
        add_nan(&p->buckets[kind * REPORT_CHART_BUCKETS + b], v);
    if (kind == ACC_PAUSE_NS || kind == ACC_PAUSE_FRAMES) {
        int64_t c = (s->time_ns - g->hm_t0) / g->hm_step;
        if (c >= 0 && (size_t)c < g->hm_cols && kind == ACC_PAUSE_NS)
            add_nan(&p->hours[c], v);
    }
    return 0;
}

static int walk_counters(struct gather *g, struct dcb_err *err)
{
    for (size_t i = 0; i < sizeof(tracked) / sizeof(tracked[0]); i++) {
        struct walk k = { .g = g, .t = &tracked[i] };
        struct store_filter f;
        store_filter_init(&f);
        f.metric = tracked[i].metric;
        f.t0 = g->w->t0;
        f.t1 = g->w->t1;
        int rc = store_range(g->st, &f, on_sample, &k, err);
        if (rc < 0)
            return rc;
        if (g->nomem)
            return dcb_err_set(err, DCB_E_NOMEM, "out of memory gathering the window");
    }
    return 0;
}

/* ---- devices, events, configs ----------------------------------------------------------- */

static int on_latest(const struct dcb_sample *s, void *arg)
{
    struct gather *g = arg;
    struct device *d = device_get(g, s->device);
    if (d) {
        d->series++;
        if (s->time_ns > d->last_ns)
            d->last_ns = s->time_ns;
    }
    return 0;
}

static struct qp *qp_get(struct gather *g, const struct dcb_event *e)
{
    cJSON *j = cJSON_Parse(e->details);
    char flow[128];
    snprintf(flow, sizeof(flow), "%s -> %s QP 0x%06x", report_str(j, "src_ip"),
             report_str(j, "dst_ip"), (unsigned)report_num(j, "dqpn"));
    cJSON_Delete(j);
    int64_t i = report_map_get(&g->qp_map, e->device, flow);
    if (i >= 0)
        return &g->qps[i];
    struct qp *q = grow(g->qps, &g->qps_cap, g->nqps, sizeof(*q));
    if (!q || report_map_put(&g->qp_map, e->device, flow, (int64_t)g->nqps) < 0) {
        g->nomem = true;
        return NULL;
    }
    g->qps = q;
    q = &g->qps[g->nqps++];
    memset(q, 0, sizeof(*q));
    snprintf(q->device, sizeof(q->device), "%s", e->device);
    snprintf(q->flow, sizeof(q->flow), "%s", flow);
    return q;
}

static int on_qp_event(const struct dcb_event *e, void *arg)
{
    struct gather *g = arg;
    struct qp *q = qp_get(g, e);
    if (!q)
        return 0;
    if (e->kind == EVENT_RETRANSMIT)
        q->retransmits++;
    else if (e->kind == EVENT_PSN_GAP)
        q->psn_gaps++;
    else
        q->naks++;
    return 0;
}

static cJSON *find_by_ifname(cJSON *arr, const char *ifname)
{
    cJSON *x;
    cJSON_ArrayForEach(x, arr) {
        if (strcmp(report_str(x, "ifname"), ifname) == 0)
            return x;
    }
    return NULL;
}

/* The newest dcbx_seen of each port names its neighbour (the LLDP system name, verbatim). */
static int on_dcbx_seen(const struct dcb_event *e, void *arg)
{
    struct gather *g = arg;
    struct device *d = device_get(g, e->device);
    if (!d)
        return 0;
    if (!d->neighbours && !(d->neighbours = cJSON_CreateArray()))
        return 0;
    cJSON *j = cJSON_Parse(e->details);
    cJSON *n = find_by_ifname(d->neighbours, e->ifname);
    if (n)
        cJSON_Delete(
            cJSON_DetachItemViaPointer(d->neighbours, n)); /* a newer sighting replaces it */
    n = cJSON_CreateObject();
    cJSON_AddStringToObject(n, "ifname", e->ifname);
    cJSON_AddStringToObject(n, "peer", report_str(j, "peer"));
    cJSON_AddStringToObject(n, "port", report_str(j, "port"));
    cJSON_AddStringToObject(n, "dcbx", report_str(j, "dcbx"));
    cJSON_AddItemToObject(n, "seen_ns", report_json_int((double)e->time_ns));
    cJSON_AddItemToArray(d->neighbours, n);
    cJSON_Delete(j);
    return 0;
}

static void add_fields(cJSON *row, const struct qos_config *c)
{
    cJSON *fields = cJSON_AddObjectToObject(row, "fields");
    for (size_t i = 0; i < sizeof(config_paths) / sizeof(config_paths[0]); i++) {
        char text[128];
        if (qos_get(c, config_paths[i], text, sizeof(text), NULL) == 0)
            cJSON_AddStringToObject(fields, config_paths[i], text);
    }
}

static void add_config_row(struct device *d, const char *ifname, const char *source,
                           const struct qos_config *c, int64_t time_ns)
{
    if (!d->config && !(d->config = cJSON_CreateArray()))
        return;
    cJSON *row = cJSON_CreateObject();
    cJSON_AddStringToObject(row, "ifname", ifname);
    cJSON_AddStringToObject(row, "source", source);
    if (time_ns)
        cJSON_AddItemToObject(row, "time_ns", report_json_int((double)time_ns));
    else
        cJSON_AddNullToObject(row, "time_ns");
    add_fields(row, c);
    cJSON_AddItemToArray(d->config, row);
}

static int on_config(const struct store_config_row *r, void *arg)
{
    struct gather *g = arg;
    /* where ports sit and the names devices go by are no QoS config (an alias row may name a
     * device nothing collects: an LLDP partner's system name) */
    if (!strncmp(r->source, "topology", 8) || !strncmp(r->source, "alias:", 6))
        return 0;
    struct device *d = device_get(g, r->device);
    if (!d)
        return 0;
    struct qos_config c;
    qos_config_init(&c);
    cJSON *j = cJSON_Parse(r->json);
    if (j)
        qos_from_json(&c, j, "", NULL); /* what does not parse stays unknown */
    add_config_row(d, r->ifname, r->source, &c, r->time_ns);
    /* an LLDP snapshot that names its system names the neighbour too */
    const char *sysname = report_str(j, "system_name");
    if (!strncmp(r->source, "peer:", 5) && sysname[0]) {
        if (!d->neighbours)
            d->neighbours = cJSON_CreateArray();
        if (d->neighbours && !find_by_ifname(d->neighbours, r->ifname)) {
            cJSON *n = cJSON_CreateObject();
            cJSON_AddStringToObject(n, "ifname", r->ifname);
            cJSON_AddStringToObject(n, "peer", sysname);
            cJSON_AddStringToObject(n, "port", report_str(j, "port_id"));
            cJSON_AddStringToObject(n, "dcbx", r->source + 5);
            cJSON_AddItemToObject(n, "seen_ns", report_json_int((double)r->time_ns));
            cJSON_AddItemToArray(d->neighbours, n);
        }
    }
    cJSON_Delete(j);
    return 0;
}

struct intent_walk {
    const struct fabric *fab;
    struct device *d;
};

static void on_intent_iface(const char *ifname, void *arg)
{
    struct intent_walk *iw = arg;
    struct qos_config c;
    if (fabric_effective_config(iw->fab, iw->d->name, ifname, &c, NULL) == 0)
        add_config_row(iw->d, ifname, "fabric", &c, 0);
}

static int gather_store(struct gather *g, const struct fabric *fab, struct dcb_err *err)
{
    struct store_filter f;
    store_filter_init(&f);
    f.t0 = g->w->t0;
    int rc = store_latest(g->st, &f, on_latest, g, err);
    if (rc >= 0)
        rc = walk_counters(g, err);
    f.t1 = g->w->t1;
    static const char *const qp_kinds[] = { "retransmit", "psn_gap", "nak", "rnr_nak" };
    for (size_t i = 0; rc >= 0 && i < sizeof(qp_kinds) / sizeof(qp_kinds[0]); i++)
        rc = store_events(g->st, &f, qp_kinds[i], on_qp_event, g, err);
    /* collect records a neighbour when it changes: the newest sighting, however old, stands */
    f.t0 = 0;
    if (rc >= 0)
        rc = store_events(g->st, &f, "dcbx_seen", on_dcbx_seen, g, err);
    if (rc >= 0 && fab) {
        for (size_t i = 0; i < g->ndevices; i++) {
            if (g->devices[i].fab) {
                struct intent_walk iw = { fab, &g->devices[i] };
                fabric_each_iface(fab, g->devices[i].fab, on_intent_iface, &iw);
            }
        }
    }
    if (rc >= 0)
        rc = store_configs(g->st, NULL, NULL, g->w->t1, on_config, g, err);
    return rc < 0 ? rc : 0;
}

/* ---- into the model --------------------------------------------------------------------- */

static cJSON *num_or_null(double v)
{
    return report_json_int(round(v));
}

static const struct gather *sort_g;
static enum acc_kind sort_kind;

static int cmp_place(const struct port *a, const struct port *b)
{
    int c = strcmp(sort_g->devices[a->device].name, sort_g->devices[b->device].name);
    return c ? c : strcmp(a->ifname, b->ifname);
}

static int cmp_desc(double a, double b)
{
    return a < b ? 1 : a > b ? -1 : 0;
}

static int by_pause(const void *x, const void *y)
{
    const struct port *a = *(const struct port *const *)x, *b = *(const struct port *const *)y;
    int c = cmp_desc(a->total[ACC_PAUSE_NS], b->total[ACC_PAUSE_NS]);
    if (!c)
        c = cmp_desc(a->total[ACC_PAUSE_FRAMES], b->total[ACC_PAUSE_FRAMES]);
    return c ? c : cmp_place(a, b);
}

static int by_drops_marks(const void *x, const void *y)
{
    const struct port *a = *(const struct port *const *)x, *b = *(const struct port *const *)y;
    int c = cmp_desc(a->total[ACC_DROPS], b->total[ACC_DROPS]);
    if (!c)
        c = cmp_desc(a->total[ACC_MARKS], b->total[ACC_MARKS]);
    return c ? c : cmp_place(a, b);
}

static int by_kind(const void *x, const void *y)
{
    const struct port *a = *(const struct port *const *)x, *b = *(const struct port *const *)y;
    int c = cmp_desc(a->total[sort_kind], b->total[sort_kind]);
    return c ? c : cmp_place(a, b);
}

static int by_qp(const void *x, const void *y)
{
    const struct qp *a = x, *b = y;
    int c = cmp_desc(a->retransmits, b->retransmits);
    if (!c)
        c = cmp_desc(a->psn_gaps, b->psn_gaps);
    if (!c)
        c = cmp_desc(a->naks, b->naks);
    if (!c)
        c = strcmp(a->device, b->device);
    return c ? c : strcmp(a->flow, b->flow);
}

static double known(const struct port *p, enum acc_kind k)
{
    return p->has[k] ? p->total[k] : NAN;
}

static void add_top(const struct gather *g, struct port **order, cJSON *top)
{
    sort_g = g;
    cJSON *pause = cJSON_AddArrayToObject(top, "pause");
    qsort(order, g->nports, sizeof(*order), by_pause);
    for (size_t i = 0; i < g->nports && cJSON_GetArraySize(pause) < REPORT_TOP; i++) {
        const struct port *p = order[i];
        if (!(p->total[ACC_PAUSE_NS] > 0) && !(p->total[ACC_PAUSE_FRAMES] > 0))
            break;
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "device", g->devices[p->device].name);
        cJSON_AddStringToObject(row, "ifname", p->ifname);
        cJSON_AddItemToObject(row, "pause_ns", num_or_null(known(p, ACC_PAUSE_NS)));
        cJSON_AddItemToObject(row, "paused_ns",
                              num_or_null(p->has[ACC_PAUSE_NS] ? p->rx_pause_ns : NAN));
        cJSON_AddItemToObject(row, "pausing_ns",
                              num_or_null(p->has[ACC_PAUSE_NS] ? p->tx_pause_ns : NAN));
        cJSON_AddItemToObject(row, "pause_frames", num_or_null(known(p, ACC_PAUSE_FRAMES)));
        cJSON_AddItemToArray(pause, row);
    }
    cJSON *md = cJSON_AddArrayToObject(top, "marks_drops");
    qsort(order, g->nports, sizeof(*order), by_drops_marks);
    for (size_t i = 0; i < g->nports && cJSON_GetArraySize(md) < REPORT_TOP; i++) {
        const struct port *p = order[i];
        if (!(p->total[ACC_DROPS] > 0) && !(p->total[ACC_MARKS] > 0))
            break;
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "device", g->devices[p->device].name);
        cJSON_AddStringToObject(row, "ifname", p->ifname);
        cJSON_AddItemToObject(row, "drops", num_or_null(known(p, ACC_DROPS)));
        cJSON_AddItemToObject(row, "marks", num_or_null(known(p, ACC_MARKS)));
        cJSON_AddItemToArray(md, row);
    }
    cJSON *qps = cJSON_AddArrayToObject(top, "retransmits");
    if (g->nqps)
        qsort(g->qps, g->nqps, sizeof(*g->qps), by_qp);
    for (size_t i = 0; i < g->nqps && i < REPORT_TOP; i++) {
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "device", g->qps[i].device);
        cJSON_AddStringToObject(row, "qp", g->qps[i].flow);
        cJSON_AddNumberToObject(row, "retransmits", g->qps[i].retransmits);
        cJSON_AddNumberToObject(row, "psn_gaps", g->qps[i].psn_gaps);
        cJSON_AddNumberToObject(row, "naks", g->qps[i].naks);
        cJSON_AddItemToArray(qps, row);
    }
    cJSON_AddNumberToObject(top, "qps_seen", (double)g->nqps);
}

static void add_heatmap(const struct gather *g, struct port **order, cJSON *model)
{
    cJSON *hm = cJSON_AddObjectToObject(model, "heatmap");
    cJSON_AddStringToObject(hm, "metric", "PFC pause time (paused + pausing, all priorities)");
    cJSON_AddStringToObject(hm, "unit", "ns");
    cJSON_AddItemToObject(hm, "start_ns", report_json_int((double)g->hm_t0));
    cJSON_AddItemToObject(hm, "step_ns", report_json_int((double)g->hm_step));
    cJSON *cols = cJSON_AddArrayToObject(hm, "columns");
    for (size_t c = 0; c < g->hm_cols; c++) {
        char label[64], col[72];
        int64_t t = g->hm_t0 + (int64_t)c * g->hm_step;
        if (g->hm_step >= 60 * 1000000000LL) {
            /* "2026-11-23 16:00:00 UTC" -> "16:00" */
            report_fmt_time(t, label, sizeof(label));
            char *sp = strchr(label, ' ');
            snprintf(col, sizeof(col), "%.5s", sp ? sp + 1 : label);
        } else {
            /* short windows (a replay, a --collect minute): the offset into the window */
            svg_fmt_value((double)(t - g->w->t0), SVG_UNIT_NS, label, sizeof(label));
            snprintf(col, sizeof(col), "+%s", label);
        }
        cJSON_AddItemToArray(cols, cJSON_CreateString(col));
    }
    qsort(order, g->nports, sizeof(*order), by_pause);
    size_t with = 0;
    for (size_t i = 0; i < g->nports; i++)
        with += order[i]->total[ACC_PAUSE_NS] > 0;
    cJSON_AddNumberToObject(hm, "ports_with_pause_time", (double)with);
    cJSON *rows = cJSON_AddArrayToObject(hm, "rows");
    for (size_t i = 0; i < g->nports && i < REPORT_HEATMAP_ROWS; i++) {
        const struct port *p = order[i];
        if (!(p->total[ACC_PAUSE_NS] > 0))
            break;
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "device", g->devices[p->device].name);
        cJSON_AddStringToObject(row, "ifname", p->ifname);
        cJSON *vals = cJSON_AddArrayToObject(row, "values");
        for (size_t c = 0; c < g->hm_cols; c++)
            cJSON_AddItemToArray(vals, num_or_null(p->hours[c]));
        cJSON_AddItemToArray(rows, row);
    }
}

static cJSON *bucket_values(const float *b)
{
    cJSON *vals = cJSON_CreateArray();
    for (int i = 0; i < REPORT_CHART_BUCKETS; i++)
        cJSON_AddItemToArray(vals, num_or_null(b[i]));
    return vals;
}

/* A device's chart lines of one kind: all its ports together, then its top ports. */
static void add_device_chart(const struct gather *g, size_t dev, struct port **order, size_t n,
                             enum acc_kind kind, cJSON *charts)
{
    float total[REPORT_CHART_BUCKETS];
    bool any = false;
    for (int i = 0; i < REPORT_CHART_BUCKETS; i++)
        total[i] = NAN;
    size_t nports = 0;
    for (size_t i = 0; i < n; i++) {
        if (!order[i]->has[kind])
            continue;
        nports++;
        any = true;
        for (int b = 0; b < REPORT_CHART_BUCKETS; b++) {
            float v = order[i]->buckets[kind * REPORT_CHART_BUCKETS + b];
            if (!isnan(v))
                add_nan(&total[b], v);
        }
    }
    if (!any)
        return;
    cJSON *lines = cJSON_AddArrayToObject(charts, acc_names[kind]);
    cJSON *line = cJSON_CreateObject();
    char label[64];
    snprintf(label, sizeof(label), "all %zu ports", nports);
    cJSON_AddStringToObject(line, "label", label);
    cJSON_AddItemToObject(line, "values", bucket_values(total));
    cJSON_AddItemToArray(lines, line);
    sort_kind = kind;
    qsort(order, n, sizeof(*order), by_kind);
    for (size_t i = 0, shown = 0; i < n && shown < REPORT_CHART_PORTS && nports > 1; i++) {
        if (!(order[i]->total[kind] > 0))
            break;
        line = cJSON_CreateObject();
        cJSON_AddStringToObject(line, "label", order[i]->ifname);
        cJSON_AddItemToObject(line, "values",
                              bucket_values(order[i]->buckets + kind * REPORT_CHART_BUCKETS));
        cJSON_AddItemToArray(lines, line);
        shown++;
    }
    (void)g;
    (void)dev;
}

static void add_devices(struct gather *g, const struct fabric *fab, cJSON *model)
{
    cJSON *devs = cJSON_AddArrayToObject(model, "devices");
    struct port **mine = malloc((g->nports ? g->nports : 1) * sizeof(*mine));
    if (!mine) {
        g->nomem = true;
        return;
    }
    /* fabric devices in the file's order, then the store's others by name */
    size_t *order = malloc((g->ndevices ? g->ndevices : 1) * sizeof(*order));
    size_t n = 0;
    if (!order) {
        free(mine);
        g->nomem = true;
        return;
    }
    for (size_t i = 0; fab && i < fab->ndevices; i++) {
        int64_t k = report_map_get(&g->device_map, fab->devices[i].name, "");
        if (k >= 0)
            order[n++] = (size_t)k;
    }
    size_t first_other = n;
    for (size_t i = 0; i < g->ndevices; i++)
        if (!g->devices[i].fab)
            order[n++] = i;
    for (size_t i = first_other + 1; i < n; i++) /* insertion sort by name: few of them */
        for (size_t j = i; j > first_other &&
                           strcmp(g->devices[order[j - 1]].name, g->devices[order[j]].name) > 0;
             j--) {
            size_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (size_t oi = 0; oi < n; oi++) {
        size_t di = order[oi];
        struct device *d = &g->devices[di];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", d->name);
        cJSON_AddStringToObject(o, "role", d->fab ? fabric_role_name(d->fab->role) : "unknown");
        cJSON_AddStringToObject(o, "reach", d->fab ? fabric_reach_name(d->fab->reach) : "unlisted");
        if (d->fab && d->fab->reach == REACH_GNMI)
            cJSON_AddStringToObject(o, "target", d->fab->gnmi.target);
        cJSON_AddStringToObject(o, "status", d->series ? "ok" : "no-data");
        cJSON_AddNumberToObject(o, "series", (double)d->series);
        cJSON_AddItemToObject(o, "last_seen_ns",
                              d->last_ns ? report_json_int((double)d->last_ns)
                                         : cJSON_CreateNull());
        size_t np = 0;
        for (size_t i = 0; i < g->nports; i++)
            if (g->ports[i].device == di)
                mine[np++] = &g->ports[i];
        cJSON_AddNumberToObject(o, "ports", (double)np);
        cJSON *tot = cJSON_AddObjectToObject(o, "totals");
        for (int k = 0; k < ACC_KINDS; k++) {
            double sum = 0;
            bool has = false;
            for (size_t i = 0; i < np; i++) {
                has |= mine[i]->has[k];
                sum += mine[i]->total[k];
            }
            cJSON_AddItemToObject(tot, acc_names[k], num_or_null(has ? sum : NAN));
        }
        cJSON *charts = cJSON_AddObjectToObject(o, "charts");
        cJSON_AddItemToObject(charts, "start_ns", report_json_int((double)g->w->t0));
        cJSON_AddItemToObject(charts, "bucket_ns",
                              report_json_int(
                                  (double)((g->w->t1 - g->w->t0) / REPORT_CHART_BUCKETS)));
        for (int k = 0; k < ACC_KINDS; k++)
            add_device_chart(g, di, mine, np, (enum acc_kind)k, charts);
        cJSON_AddItemToObject(o, "neighbours", d->neighbours ? d->neighbours : cJSON_CreateArray());
        cJSON_AddItemToObject(o, "config", d->config ? d->config : cJSON_CreateArray());
        d->neighbours = d->config = NULL;
        cJSON_AddItemToArray(devs, o);
    }
    free(order);
    free(mine);
}

static void heatmap_grid(struct gather *g)
{
    const int64_t hour = 3600LL * 1000000000LL;
    int64_t span = g->w->t1 - g->w->t0;
    if (span >= 2 * hour) {
        g->hm_step = hour;
        while ((span + g->hm_step - 1) / g->hm_step > 168)
            g->hm_step += hour;
        g->hm_t0 = g->w->t0 - g->w->t0 % hour;
    } else {
        g->hm_step = span / 12 > 0 ? span / 12 : 1;
        g->hm_t0 = g->w->t0;
    }
    g->hm_cols = (size_t)((g->w->t1 - g->hm_t0) / g->hm_step + 1);
}

int report_gather(struct dcb_store *st, const struct fabric *fab, const struct report_window *w,
                  cJSON *model, struct dcb_err *err)
{
    struct gather g = { .st = st, .w = w };
    report_map_init(&g.port_map);
    report_map_init(&g.device_map);
    report_map_init(&g.qp_map);
    heatmap_grid(&g);
    for (size_t i = 0; fab && i < fab->ndevices; i++) {
        struct device *d = device_get(&g, fab->devices[i].name);
        if (d)
            d->fab = &fab->devices[i];
    }
    int rc = st ? gather_store(&g, fab, err) : 0;
    if (!st && fab) {
        for (size_t i = 0; i < g.ndevices; i++) {
            struct intent_walk iw = { fab, &g.devices[i] };
            if (g.devices[i].fab)
                fabric_each_iface(fab, g.devices[i].fab, on_intent_iface, &iw);
        }
    }
    if (rc == 0) {
        struct port **order = malloc((g.nports ? g.nports : 1) * sizeof(*order));
        if (!order) {
            rc = dcb_err_set(err, DCB_E_NOMEM, "out of memory");
        } else {
            for (size_t i = 0; i < g.nports; i++)
                order[i] = &g.ports[i];
            cJSON *traffic = cJSON_AddObjectToObject(model, "traffic");
            cJSON_AddNumberToObject(traffic, "samples", (double)g.samples);
            cJSON_AddNumberToObject(traffic, "ports", (double)g.nports);
            cJSON *top = cJSON_AddObjectToObject(model, "top");
            add_top(&g, order, top);
            add_heatmap(&g, order, model);
            add_devices(&g, fab, model);
            free(order);
            if (g.nomem)
                rc = dcb_err_set(err, DCB_E_NOMEM, "out of memory building the report");
        }
    }
    for (size_t i = 0; i < g.nports; i++) {
        free(g.ports[i].buckets);
        free(g.ports[i].hours);
    }
    for (size_t i = 0; i < g.ndevices; i++) {
        cJSON_Delete(g.devices[i].neighbours);
        cJSON_Delete(g.devices[i].config);
    }
    free(g.ports);
    free(g.devices);
    free(g.qps);
    report_map_free(&g.port_map);
    report_map_free(&g.device_map);
    report_map_free(&g.qp_map);
    return rc;
}
