/* pcap: a capture file's evidence as a source. The frames go through the decoders and the
 * trackers (dcbkit analyze and diagnose --pcap both read a capture through here); the trackers'
 * events, the capture.* counters, the per-QP series (source_pcap_qps.c), the capture's own port
 * config (with the lossless priorities as its PFC mask, and what its DCBX advertised as its
 * partner's) and each DCBX neighbour's advertised config (with the other end's as its
 * partner's) go to the sink.
 *
 * Fast: everything on the first tick, at the capture's own times (the counters at its first
 * frame, every minute of capture time, and at its end, so that a rule's window of the last
 * minutes of a long capture has readings), then the end. Paced: the
 * capture plays at its own timestamps, speed times faster, shifted so that its first frame is
 * at the first tick; each tick gives the frames its time reached. The file is read frame by
 * frame and never held, in one pass: paced, the reading runs on a thread of its own that stops
 * at the first frame beyond the tick's time and waits for the next tick. The two take turns
 * (the tick waits while the reader runs), so the sink is only ever called by one of them. */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_file.h"
#include "qos_config.h"
#include "source.h"
#include "source_pcap_qps.h"
#include "track_set.h"

#define DEFAULT_LINK_BPS 400000000000ULL
#define DEFAULT_STORM_NS 200000000LL       /* as dcbkit analyze --storm-ms */
#define FAST_SAMPLE_NS (60 * 1000000000LL) /* fast: the counters this often, capture time */
#define PROGRESS_EVERY_FRAMES 4096

struct pcap_ctx {
    struct dcb_source *src;
    struct source_pcap_options opt;
    char path[1024], device[DCB_DEVICE_MAX];
    struct track_set t;
    struct pcap_qps qps;
    struct dcb_frame frame;
    uint64_t malformed, other_linktype;
    int64_t first_ns, last_ns; /* capture times of the first and last frame given */
    int64_t next_sample_ns;    /* fast: the counters are given again after this */
    int64_t shift_ns;          /* added to capture times (paced) */
    int64_t first_tick_ns;
    int64_t until_ns;      /* this pass gives frames up to here (capture time) */
    int64_t next_ns;       /* the first frame not given yet (when more) */
    uint64_t given;        /* frames given so far */
    int64_t neighbours_ns; /* neighbours seen after this were not given yet */
    bool started, more, ended;
    /* paced: the reader thread and whose turn it is */
    pthread_t reader;
    pthread_mutex_t mu;
    pthread_cond_t turn;
    bool reader_started, reader_turn, reader_done, stopping;
    int read_rc;
    struct dcb_err read_err;
};

/* The reader, at a frame beyond the tick's time: the turn goes back to the tick until a later
 * one reaches the frame. False when the source is closing. */
static bool wait_for_tick(struct pcap_ctx *c, int64_t frame_ns)
{
    pthread_mutex_lock(&c->mu);
    while (frame_ns > c->until_ns && !c->stopping) {
        c->more = true;
        c->next_ns = frame_ns;
        c->reader_turn = false;
        pthread_cond_broadcast(&c->turn);
        while (!c->reader_turn && !c->stopping)
            pthread_cond_wait(&c->turn, &c->mu);
    }
    c->more = false;
    bool go_on = !c->stopping;
    pthread_mutex_unlock(&c->mu);
    return go_on;
}

static void on_event(void *arg, const struct dcb_event *e)
{
    struct pcap_ctx *c = arg;
    struct dcb_event shifted = *e;
    shifted.time_ns += c->shift_ns;
    c->src->sink.event(c->src->sink.arg, &shifted);
}

static void put_counter(struct pcap_ctx *c, int64_t ts, enum metric_id m, int prio, uint64_t v)
{
    struct dcb_sample s;
    dcb_sample_set(&s, ts + c->shift_ns, c->device, "", m, prio, -1);
    s.value.counter = v;
    c->src->sink.sample(c->src->sink.arg, &s, 0);
}

/* The capture.* counters as they stand (zero: their start, all 0) at capture time ts, and the
 * per-QP series. */
static void put_counters(struct pcap_ctx *c, int64_t ts, bool zero)
{
    const struct qp_tracker *q = &c->t.qps;
    const struct {
        enum metric_id m;
        uint64_t v;
    } counters[] = {
        { METRIC_CAPTURE_PAUSE_FRAMES, c->t.pauses.frames_pause },
        { METRIC_CAPTURE_ROCE_PACKETS, q->roce_packets },
        { METRIC_CAPTURE_CE_PACKETS, q->ce_packets },
        { METRIC_CAPTURE_CNP_PACKETS, q->cnps },
        { METRIC_CAPTURE_PSN_GAPS, q->psn_gaps },
        { METRIC_CAPTURE_NAKS, q->naks },
        { METRIC_CAPTURE_RETRANSMITS, q->retransmit_episodes },
        { METRIC_CAPTURE_BAD_ICRC, q->bad_icrc },
        { METRIC_CAPTURE_PFC_FRAMES_ANY, c->t.pauses.frames_pfc },
        { METRIC_CAPTURE_RNR_NAKS, q->rnr_naks },
        { METRIC_CAPTURE_UNTRACKED_PACKETS, q->untracked_packets },
        { METRIC_CAPTURE_MALFORMED_FRAMES, c->malformed },
    };
    for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++)
        put_counter(c, ts, counters[i].m, -1, zero ? 0 : counters[i].v);
    uint64_t frames[8] = { 0 };
    for (size_t i = 0; i < c->t.pauses.ncls; i++)
        if (c->t.pauses.cls[i].prio >= 0 && c->t.pauses.cls[i].prio < 8)
            frames[c->t.pauses.cls[i].prio] += c->t.pauses.cls[i].frames;
    for (int prio = 0; prio < 8; prio++) {
        put_counter(c, ts, METRIC_CAPTURE_PFC_FRAMES, prio, zero ? 0 : frames[prio]);
        /* the pause intervals as far as ts, so that a view shows the share of time paused */
        uint64_t paused_ns = zero ? 0 : pause_tracker_paused_ns(&c->t.pauses, prio, ts);
        put_counter(c, ts, METRIC_CAPTURE_PFC_PAUSED_US, prio, paused_ns / 1000);
    }
    if (!zero)
        pcap_qps_put(&c->qps, q, &c->src->sink, c->device, ts, c->first_ns, c->shift_ns);
}

static void put_gauge(struct pcap_ctx *c, int64_t ts, enum metric_id m, double v)
{
    struct dcb_sample s;
    dcb_sample_set(&s, ts + c->shift_ns, c->device, "", m, -1, -1);
    s.value.gauge = v;
    c->src->sink.sample(c->src->sink.arg, &s, 0);
}

static bool on_packet(void *arg, const struct capture_packet *p)
{
    struct pcap_ctx *c = arg;
    if (p->ts_ns > c->until_ns && !wait_for_tick(c, p->ts_ns))
        return false;
    if (c->opt.fast && c->given && p->ts_ns >= c->next_sample_ns && c->last_ns > c->first_ns) {
        put_counters(c, c->last_ns, false); /* the frames before this one */
        c->next_sample_ns = c->last_ns + FAST_SAMPLE_NS;
    }
    if (!c->given++) {
        c->first_ns = p->ts_ns;
        c->next_sample_ns = p->ts_ns + FAST_SAMPLE_NS;
        if (c->opt.fast)
            put_counters(c, p->ts_ns, true);
    }
    c->last_ns = p->ts_ns;
    if (c->opt.progress && c->given % PROGRESS_EVERY_FRAMES == 0)
        c->opt.progress(c->opt.progress_arg, c->given, c->t.qps.nflows);
    if (!dcb_linktype_known(p->linktype)) {
        c->other_linktype++;
        return true;
    }
    if (!dcb_decode_link_frame(p->linktype, p->data, p->caplen, p->len, &c->frame))
        c->malformed++;
    dcb_verify_icrc(p->data, &c->frame); /* corrupt frames: capture.bad_icrc */
    track_set_frame(&c->t, p->ts_ns, p->iface, &c->frame);
    return true;
}

static void config_from_dcbx(const struct dcbx_config *d, struct qos_config *c)
{
    qos_config_init(c);
    c->dcbx_mode = (struct qos_val){ d->protocol == DCBX_CEE ? QOS_DCBX_CEE : QOS_DCBX_IEEE, true };
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

/* The lossless priorities: --lossless, else the union of the PFC masks the DCBX advertised
 * (when it names any), else unknown (-1). */
static int lossless_of(const struct pcap_ctx *c, const char **from)
{
    uint8_t dcbx = dcbx_tracker_pfc_union(&c->t.dcbx);
    *from = c->opt.lossless_given ? "option" : c->t.dcbx.nnb && dcbx ? "dcbx" : "unknown";
    return c->opt.lossless_given ? (int)c->opt.lossless_mask : c->t.dcbx.nnb && dcbx ? dcbx : -1;
}

/* What the DCBX heard on the capture advertised, as its port's partner: the union of the PFC
 * masks and the DSCP App entries (the first neighbour's where they differ). */
static int put_capture_peer(struct pcap_ctx *c, int64_t ts, struct dcb_err *err)
{
    struct qos_config q;
    qos_config_init(&q);
    bool any = false;
    uint8_t mask = dcbx_tracker_pfc_union(&c->t.dcbx);
    if (mask) {
        q.pfc_enabled = (struct qos_val){ mask, true };
        any = true;
    }
    for (unsigned dscp = 0; dscp < 64 && dcbx_tracker_has_dscp_app(&c->t.dcbx); dscp++) {
        int prio = dcbx_tracker_dscp_prio(&c->t.dcbx, (uint8_t)dscp);
        if (prio >= 0) {
            q.dscp2prio[dscp] = (struct qos_val){ prio, true };
            any = true;
        }
    }
    return any ? dcb_sink_put_qos(&c->src->sink, ts + c->shift_ns, c->device, "", "peer:dcbx", &q,
                                  err)
               : 0;
}

/* Each neighbour heard since the last call: its config, and its link partner's as "peer:";
 * then the capture port's partner, when anything was heard. */
static int put_neighbours(struct pcap_ctx *c, struct dcb_err *err)
{
    const struct dcbx_tracker *d = &c->t.dcbx;
    int64_t newest = c->neighbours_ns;
    for (size_t i = 0; i < d->nnb; i++) {
        const struct dcbx_neighbour *n = &d->nb[i];
        if (n->last_ns <= c->neighbours_ns)
            continue;
        if (n->last_ns > newest)
            newest = n->last_ns;
        char chassis[2 * DCBX_ID_MAX + 1], port[2 * DCBX_ID_MAX + 1];
        dcbx_id_str(n->chassis_subtype, false, n->chassis, n->chassis_len, chassis);
        dcbx_id_str(n->port_subtype, true, n->port, n->port_len, port);
        struct qos_config q;
        config_from_dcbx(&n->cfg, &q);
        int64_t ts = n->last_ns + c->shift_ns;
        int rc = dcb_sink_put_qos(&c->src->sink, ts, chassis, port, "dcbx", &q, err);
        for (size_t l = 0; l < d->nlinks && rc == 0; l++) {
            const struct dcbx_link *lk = &d->links[l];
            if (lk->a != i && lk->b != i)
                continue;
            config_from_dcbx(&d->nb[lk->a == i ? lk->b : lk->a].cfg, &q);
            rc = dcb_sink_put_qos(&c->src->sink, ts, chassis, port, "peer:dcbx", &q, err);
        }
        if (rc < 0)
            return rc;
    }
    bool heard = newest != c->neighbours_ns;
    c->neighbours_ns = newest;
    return heard ? put_capture_peer(c, newest - c->shift_ns, err) : 0;
}

/* The capture itself is a port (its events and counters live there); --lossless is the PFC
 * mask meant on it. */
static int put_capture_port(struct pcap_ctx *c, int64_t ts, struct dcb_err *err)
{
    struct qos_config q;
    qos_config_init(&q);
    if (c->opt.lossless_given)
        q.pfc_enabled = (struct qos_val){ (int64_t)c->opt.lossless_mask, true };
    return dcb_sink_put_qos(&c->src->sink, ts + c->shift_ns, c->device, "", "capture", &q, err);
}

static int read_error(struct pcap_ctx *c, int rc, const struct dcb_err *inner, struct dcb_err *err)
{
    char why[sizeof(err->msg)];
    snprintf(why, sizeof(why), "%s", inner->msg);
    return dcb_err_set(err, rc, "%s: %s", c->path, why);
}

static void *reader_main(void *arg)
{
    struct pcap_ctx *c = arg;
    struct dcb_err err;
    int rc = capture_file_read(c->path, NULL, on_packet, c, &err);
    pthread_mutex_lock(&c->mu);
    c->read_rc = rc;
    if (rc < 0)
        c->read_err = err;
    c->reader_done = true;
    c->more = false;
    c->reader_turn = false;
    pthread_cond_broadcast(&c->turn);
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

/* Paced: the reader gives the frames up to capture time until, then hands the turn back. */
static int read_until(struct pcap_ctx *c, int64_t until, struct dcb_err *err)
{
    pthread_mutex_lock(&c->mu);
    c->until_ns = until;
    c->reader_turn = true;
    if (!c->reader_started) {
        if (pthread_create(&c->reader, NULL, reader_main, c) != 0) {
            pthread_mutex_unlock(&c->mu);
            return dcb_err_set(err, DCB_E_NOMEM, "%s: cannot start its reader", c->path);
        }
        c->reader_started = true;
    }
    pthread_cond_broadcast(&c->turn);
    while (c->reader_turn)
        pthread_cond_wait(&c->turn, &c->mu);
    int rc = c->read_rc;
    pthread_mutex_unlock(&c->mu);
    if (rc < 0)
        return read_error(c, rc, &c->read_err, err);
    if (track_set_nomem(&c->t))
        return dcb_err_set(err, DCB_E_NOMEM, "%s: out of memory for the trackers", c->path);
    return 0;
}

/* Fast: one pass over the whole file, here. */
static int read_all(struct pcap_ctx *c, struct dcb_err *err)
{
    struct dcb_err inner;
    c->until_ns = INT64_MAX;
    int rc = capture_file_read(c->path, NULL, on_packet, c, &inner);
    if (rc < 0)
        return read_error(c, rc, &inner, err);
    if (track_set_nomem(&c->t))
        return dcb_err_set(err, DCB_E_NOMEM, "%s: out of memory for the trackers", c->path);
    return 0;
}

/* The IEEE neighbours whose ETS table gives some priority a traffic class above 7 (reserved;
 * in CEE, PGID 15 is the strict group and valid): the config they put drops that entry, so
 * only this count says it was there. */
static size_t reserved_tc_neighbours(const struct dcbx_tracker *d)
{
    size_t n = 0;
    for (size_t i = 0; i < d->nnb; i++)
        for (int p = 0; d->nb[i].cfg.has_ets && d->nb[i].cfg.protocol == DCBX_IEEE && p < 8; p++)
            if (d->nb[i].cfg.prio_tc[p] > 7) {
                n++;
                break;
            }
    return n;
}

static int finish(struct pcap_ctx *c, struct dcb_err *err)
{
    c->ended = true;
    if (!c->given)
        return DCB_SOURCE_END;
    track_set_finish(&c->t, c->last_ns);
    put_counters(c, c->last_ns, false);
    put_gauge(c, c->last_ns, METRIC_CAPTURE_DCBX_UNPAIRED, (double)c->t.dcbx.crowded_ifaces);
    put_gauge(c, c->last_ns, METRIC_CAPTURE_DCBX_RESERVED_TC,
              (double)reserved_tc_neighbours(&c->t.dcbx));
    put_gauge(c, c->last_ns, METRIC_CAPTURE_QP_UNLISTED, (double)c->qps.unlisted);
    if (c->qps.nomem)
        return dcb_err_set(err, DCB_E_NOMEM, "%s: out of memory for the QP series", c->path);
    int rc = put_neighbours(c, err);
    return rc < 0 ? rc : DCB_SOURCE_END;
}

/* A read that breaks part-way still gives what came before it, then says why. */
static int pcap_tick_fast(struct pcap_ctx *c, int64_t *data_ns, struct dcb_err *err)
{
    int read_rc = read_all(c, err);
    struct dcb_err later = { 0 };
    struct dcb_err *rest = read_rc < 0 ? &later : err;
    *data_ns = c->given ? c->last_ns : *data_ns;
    int rc = c->given ? put_capture_port(c, c->last_ns, rest) : 0;
    if (rc >= 0)
        rc = finish(c, rest);
    return read_rc < 0 ? read_rc : rc;
}

static int pcap_tick_paced(struct pcap_ctx *c, int64_t now_ns, int64_t *data_ns,
                           struct dcb_err *err)
{
    int rc;
    if (!c->started) {
        c->first_tick_ns = now_ns;
        c->shift_ns = now_ns - c->first_ns;
        if ((rc = put_capture_port(c, c->first_ns, err)) < 0)
            return rc;
        put_counters(c, c->first_ns, true);
    }
    double speed = c->opt.speed > 0 ? c->opt.speed : 1;
    int64_t reached = c->first_ns + (int64_t)((double)(now_ns - c->first_tick_ns) * speed);
    /* the reader waits at the next frame: wake it only when that frame is due */
    if ((!c->started || reached >= c->next_ns) && (rc = read_until(c, reached, err)) < 0)
        return rc;
    *data_ns = reached + c->shift_ns;
    if (!c->more) {
        *data_ns = c->last_ns + c->shift_ns;
        return finish(c, err);
    }
    put_counters(c, reached, false);
    return put_neighbours(c, err);
}

static int pcap_tick(struct dcb_source *src, int64_t now_ns, int64_t *data_ns, struct dcb_err *err)
{
    struct pcap_ctx *c = src->ctx;
    *data_ns = c->ended && c->given ? c->last_ns + c->shift_ns : now_ns;
    if (c->ended)
        return DCB_SOURCE_END;
    int rc = c->opt.fast ? pcap_tick_fast(c, data_ns, err)
                         : pcap_tick_paced(c, now_ns, data_ns, err);
    c->started = true;
    return rc;
}

static void pcap_close(struct dcb_source *src)
{
    struct pcap_ctx *c = src->ctx;
    if (c->reader_started) {
        pthread_mutex_lock(&c->mu);
        c->stopping = true;
        pthread_cond_broadcast(&c->turn);
        pthread_mutex_unlock(&c->mu);
        pthread_join(c->reader, NULL);
    }
    pthread_mutex_destroy(&c->mu);
    pthread_cond_destroy(&c->turn);
    track_set_free(&c->t);
    pcap_qps_free(&c->qps);
    free(c);
    src->ctx = NULL;
}

static const struct dcb_source_ops pcap_ops = { pcap_tick, NULL, pcap_close };

static struct pcap_ctx *pcap_of(const struct dcb_source *src)
{
    return src->ops == &pcap_ops ? src->ctx : NULL;
}

int dcb_source_pcap_view(const struct dcb_source *src, struct source_pcap_view *v)
{
    struct pcap_ctx *c = pcap_of(src);
    if (!c)
        return -1;
    *v = (struct source_pcap_view){
        .tracks = &c->t,
        .frames = c->given,
        .malformed = c->malformed,
        .other_linktype = c->other_linktype,
        .first_ns = c->given ? c->first_ns : 0,
        .last_ns = c->given ? c->last_ns : 0,
        .storm_ns = c->opt.storm_ns ? c->opt.storm_ns : DEFAULT_STORM_NS,
        .device = c->device,
    };
    v->lossless_mask = lossless_of(c, &v->lossless_source);
    return 0;
}

long dcb_source_pcap_qp_flow(const struct dcb_source *src, int qp)
{
    const struct pcap_ctx *c = pcap_of(src);
    return c ? pcap_qps_flow(&c->qps, qp) : -1;
}

int dcb_source_pcap_flow_qp(const struct dcb_source *src, uint32_t flow)
{
    const struct pcap_ctx *c = pcap_of(src);
    return c ? pcap_qps_label(&c->qps, flow) : -1;
}

static bool first_frame(void *arg, const struct capture_packet *p)
{
    *(int64_t *)arg = p->ts_ns;
    return false;
}

int dcb_source_pcap_open(struct dcb_source *src, const struct source_pcap_options *opt,
                         struct dcb_err *err)
{
    if (!opt->path)
        return dcb_err_set(err, DCB_E_INVAL, "no capture file named");
    struct pcap_ctx *c = calloc(1, sizeof(*c));
    if (!c)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    c->src = src;
    c->opt = *opt;
    snprintf(c->path, sizeof(c->path), "%s", opt->path);
    c->opt.path = c->path;
    const char *slash = strrchr(opt->path, '/');
    snprintf(c->device, sizeof(c->device), "%s",
             opt->device ? opt->device
             : slash     ? slash + 1
                         : opt->path);
    /* the file is opened once here, so that a missing or unreadable one fails at open; a paced
     * play needs its first frame's time. Standard input can be read only once. */
    bool is_stdin = !strcmp(c->path, "-");
    c->first_ns = INT64_MIN;
    if (is_stdin && !opt->fast) {
        free(c);
        return dcb_err_set(err, DCB_E_INVAL,
                           "standard input is read as fast as it goes, not "
                           "at its own pace");
    }
    if (!is_stdin && capture_file_read(c->path, NULL, first_frame, &c->first_ns, err) < 0) {
        free(c);
        return -1;
    }
    struct track_events ev = { .fn = on_event, .arg = c, .device = c->device };
    if (track_set_init(&c->t, opt->link_bps ? opt->link_bps : DEFAULT_LINK_BPS,
                       opt->storm_ns ? opt->storm_ns : DEFAULT_STORM_NS, opt->max_qps, &ev) < 0) {
        free(c);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory for the QP table");
    }
    c->neighbours_ns = INT64_MIN;
    if (c->first_ns == INT64_MIN && !is_stdin)
        c->ended = true; /* no frame at all: nothing to give */
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->turn, NULL);
    src->ops = &pcap_ops;
    src->ctx = c;
    src->kind = SOURCE_PCAP;
    src->finite = true;
    if (!opt->fast)
        src->data_speed = opt->speed > 0 ? opt->speed : 1;
    snprintf(src->name, sizeof(src->name), "pcap %s", opt->path);
    return 0;
}
