/* dcbkit diagnose --pcap / --local: the evidence, gathered into an in-memory ring store so that
 * the rules read it exactly as they read the history.
 *
 * A capture gives the trackers' events (as analyze writes them), capture.* counters at the first
 * and last frame, and per DCBX neighbour its advertised config with the other end's as its
 * partner's. This host gives two readings of every interface, --interval apart, with the DCB
 * config and DCQCN knobs. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture_file.h"
#include "counter_map.h"
#include "dcqcn_knobs.h"
#include "diagnose.h"
#include "host.h"
#include "qos_json.h"
#include "track_set.h"

#define RING_SAMPLES (1u << 20)
#define RING_EVENTS (1u << 18)
#define LOCAL_IFACES_MAX 256

static int put_config(struct dcb_store *st, int64_t ts, const char *device, const char *ifname,
                      const char *source, const struct qos_config *c, struct dcb_err *err)
{
    cJSON *j = qos_to_json(c);
    char *text = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    if (!text)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    struct store_config_row row = { ts, device, ifname, source, text };
    int rc = store_put_config(st, &row, err);
    free(text);
    return rc;
}

/* ---- a capture ------------------------------------------------------------------------------- */

struct pcap_gather {
    struct dcb_store *st;
    struct track_set t;
    const char *device;
    int64_t first_ns, last_ns;
    uint64_t frames;
    int error;
    struct dcb_err *err;
};

static void on_event(void *arg, const struct dcb_event *e)
{
    struct pcap_gather *g = arg;
    if (!g->error)
        g->error = store_put_event(g->st, e, g->err);
}

static bool on_packet(void *arg, const struct capture_packet *p)
{
    static struct dcb_frame frame;
    struct pcap_gather *g = arg;
    if (!g->frames++)
        g->first_ns = p->ts_ns;
    g->last_ns = p->ts_ns;
    if (dcb_linktype_known(p->linktype)) {
        dcb_decode_link_frame(p->linktype, p->data, p->caplen, p->len, &frame);
        track_set_frame(&g->t, p->ts_ns, p->iface, &frame);
    }
    return !g->error;
}

static void config_from_dcbx(const struct dcbx_config *d, struct qos_config *c)
{
    qos_config_init(c);
    c->dcbx_mode = (struct qos_val){ d->protocol == DCBX_CEE ? QOS_DCBX_CEE : QOS_DCBX_IEEE,
                                     true };
    if (d->has_pfc) {
        c->pfc_enabled = (struct qos_val){ d->pfc_enable, true };
        c->pfc_willing = (struct qos_val){ d->willing, true };
    }
    if (d->has_ets)
        for (int i = 0; i < 8; i++) {
            c->prio2tc[i] = (struct qos_val){ d->prio_tc[i], d->prio_tc[i] < 8 };
            c->ets_bw[i] = (struct qos_val){ d->tc_bw[i], true };
            if (d->protocol == DCBX_IEEE)
                c->ets_tsa[i] = (struct qos_val){ d->tsa[i], true };
        }
    for (uint16_t i = 0; i < d->napp && c->napp < QOS_APP_MAX; i++) {
        c->app[c->napp++] = (struct qos_app){ d->app[i].sel, d->app[i].proto, d->app[i].prio };
        c->app_set = true;
        if (d->app[i].sel == 5 && d->app[i].proto < 64)
            c->dscp2prio[d->app[i].proto] = (struct qos_val){ d->app[i].prio, true };
    }
}

static int put_capture_counters(struct pcap_gather *g, int64_t ts, bool zero,
                                struct dcb_err *err)
{
    const struct qp_tracker *q = &g->t.qps;
    const struct { enum metric_id m; uint64_t v; } counters[] = {
        { METRIC_CAPTURE_PAUSE_FRAMES, g->t.pauses.frames_pause },
        { METRIC_CAPTURE_ROCE_PACKETS, q->roce_packets },
        { METRIC_CAPTURE_CE_PACKETS, q->ce_packets },
        { METRIC_CAPTURE_CNP_PACKETS, q->cnps },
        { METRIC_CAPTURE_PSN_GAPS, q->psn_gaps },
        { METRIC_CAPTURE_NAKS, q->naks },
        { METRIC_CAPTURE_RETRANSMITS, q->retransmit_episodes },
    };
    for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
        struct dcb_sample s;
        dcb_sample_set(&s, ts, g->device, "", counters[i].m, -1, -1);
        s.value.counter = zero ? 0 : counters[i].v;
        int rc = store_put_sample(g->st, &s, err);
        if (rc < 0)
            return rc;
    }
    uint64_t frames[8] = { 0 };
    for (size_t i = 0; i < g->t.pauses.ncls; i++)
        if (g->t.pauses.cls[i].prio >= 0)
            frames[g->t.pauses.cls[i].prio] += g->t.pauses.cls[i].frames;
    for (int prio = 0; prio < 8; prio++) {
        struct dcb_sample s;
        dcb_sample_set(&s, ts, g->device, "", METRIC_CAPTURE_PFC_FRAMES, prio, -1);
        s.value.counter = zero ? 0 : frames[prio];
        int rc = store_put_sample(g->st, &s, err);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static int put_neighbours(struct pcap_gather *g, struct dcb_err *err)
{
    const struct dcbx_tracker *d = &g->t.dcbx;
    for (size_t i = 0; i < d->nnb; i++) {
        const struct dcbx_neighbour *n = &d->nb[i];
        char chassis[2 * DCBX_ID_MAX + 1], port[2 * DCBX_ID_MAX + 1];
        dcbx_id_str(n->chassis_subtype, false, n->chassis, n->chassis_len, chassis);
        dcbx_id_str(n->port_subtype, true, n->port, n->port_len, port);
        struct qos_config c;
        config_from_dcbx(&n->cfg, &c);
        int rc = put_config(g->st, n->last_ns, chassis, port, "dcbx", &c, err);
        for (size_t l = 0; l < d->nlinks && rc == 0; l++) {
            const struct dcbx_link *lk = &d->links[l];
            if (lk->a != i && lk->b != i)
                continue;
            config_from_dcbx(&d->nb[lk->a == i ? lk->b : lk->a].cfg, &c);
            rc = put_config(g->st, n->last_ns, chassis, port, "peer:dcbx", &c, err);
        }
        if (rc < 0)
            return rc;
    }
    return 0;
}

static int gather_pcap(const struct diagnose_gather *dg, struct dcb_store *st, int64_t *now,
                       struct dcb_err *err)
{
    static struct pcap_gather g;
    memset(&g, 0, sizeof(g));
    g.st = st;
    g.err = err;
    const char *slash = strrchr(dg->pcap, '/');
    g.device = slash ? slash + 1 : dg->pcap;
    struct track_events ev = { .fn = on_event, .arg = &g, .device = g.device };
    if (track_set_init(&g.t, dg->link_bps, 200000000LL, 0, &ev) < 0)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory for the QP table");
    int rc = capture_file_read(dg->pcap, NULL, on_packet, &g, err);
    if (rc == 0 && g.error)
        rc = g.error;
    if (rc == 0) {
        track_set_finish(&g.t, g.last_ns);
        rc = g.error;
    }
    struct qos_config empty;
    qos_config_init(&empty);
    if (rc == 0)                      /* the capture itself is a port: its events live there */
        rc = put_config(st, g.last_ns, g.device, "", "capture", &empty, err);
    if (rc == 0)
        rc = put_capture_counters(&g, g.first_ns, true, err);
    if (rc == 0)
        rc = put_capture_counters(&g, g.last_ns, false, err);
    if (rc == 0)
        rc = put_neighbours(&g, err);
    track_set_free(&g.t);
    *now = g.last_ns;
    return rc;
}

/* ---- this host ------------------------------------------------------------------------------- */

static int read_host_once(struct host_reader *r, char (*names)[IFNAMSIZ], size_t n,
                          struct dcb_store *st, const char *device, bool configs,
                          struct dcb_err *err)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int64_t now = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
    for (size_t i = 0; i < n; i++) {
        struct host_iface_reading reading = { 0 };
        struct dcb_err ierr;
        if (host_read_iface(r, names[i], &reading, &ierr) < 0)
            continue;                 /* gone between the listing and the reading */
        for (size_t k = 0; k < reading.n; k++) {
            const struct host_counter *c = &reading.counters[k];
            if (!c->mapped)
                continue;
            struct dcb_sample s;
            dcb_sample_set(&s, now, device, names[i], c->match.metric, c->match.prio,
                           c->match.queue);
            s.value.counter = c->value;
            if (store_put_sample(st, &s, err) < 0) {
                host_reading_free(&reading);
                return -1;
            }
        }
        if (configs) {
            struct qos_config c;
            qos_config_init(&c);
            if (reading.dcb_status == 0)
                qos_merge(&c, &reading.dcb);
            if (reading.speed_bps)
                c.speed_bps = (struct qos_val){ (int64_t)reading.speed_bps, true };
            char source[64];
            dcqcn_read(r->sysfs_root, names[i], &c, source, sizeof(source), &ierr);
            if (put_config(st, now, device, names[i], "local", &c, err) < 0) {
                host_reading_free(&reading);
                return -1;
            }
        }
        host_reading_free(&reading);
    }
    return 0;
}

static int gather_local(const struct diagnose_gather *dg, struct dcb_store *st, int64_t *now,
                        struct dcb_err *err)
{
    char maps_dir[4096], device[256] = "localhost";
    if (counter_maps_default_dir(maps_dir, sizeof(maps_dir)) < 0)
        return dcb_err_set(err, DCB_E_NOTFOUND, "no counter maps found; set DCBKIT_MAPS");
    gethostname(device, sizeof(device) - 1);
    struct counter_maps maps;
    if (counter_maps_load_dir(&maps, maps_dir, err) < 0)
        return -1;
    struct host_reader r;
    int rc = host_reader_open(&r, "/sys", &maps, err);
    if (rc < 0) {
        counter_maps_free(&maps);
        return rc;
    }
    static char names[LOCAL_IFACES_MAX][IFNAMSIZ];
    size_t n = 0;
    rc = host_list_ifaces(&r, NULL, names, LOCAL_IFACES_MAX, &n, err);
    if (rc == 0)
        rc = read_host_once(&r, names, n, st, device, false, err);
    if (rc == 0) {
        struct timespec pause = { dg->interval_ns / 1000000000LL, dg->interval_ns % 1000000000LL };
        nanosleep(&pause, NULL);
        rc = read_host_once(&r, names, n, st, device, true, err);
    }
    host_reader_close(&r);
    counter_maps_free(&maps);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    *now = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
    return rc;
}

int diagnose_gather_ring(const struct diagnose_gather *g, struct dcb_store **st, int64_t *now_ns,
                         struct dcb_err *err)
{
    int rc = store_open_ring(st, RING_SAMPLES, RING_EVENTS, err);
    if (rc < 0)
        return rc;
    rc = g->pcap ? gather_pcap(g, *st, now_ns, err) : gather_local(g, *st, now_ns, err);
    if (rc < 0) {
        store_close(*st, NULL);
        *st = NULL;
    }
    return rc;
}
