/* dcbkit collect --capture: see collect_capture.h. */
#include "collect.h"
#include "collect_capture.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "capture_live.h"
#include "units.h"
#include "log.h"
#include "metrics.h"
#include "out_event.h"
#include "privs.h"
#include "track_set.h"

#define CAPTURE_STORM_NS 200000000LL

struct live_run {
    const struct collect_capture_opts *o;
    struct track_set t;
    struct capture_live cap;
    uint64_t frames, malformed, events;
    uint64_t last[METRIC_COUNT][8]; /* the previous interval's values, for rates */
    bool have_last;
};

static void on_event(void *arg, const struct dcb_event *tracked)
{
    struct live_run *r = arg;
    const struct collect_capture_opts *o = r->o;
    struct dcb_event e;
    dcb_event_set(&e, tracked->time_ns, tracked->kind, o->device, o->iface, tracked->prio,
                  tracked->details);
    r->events++;
    struct dcb_err err;
    if (o->store && store_put_event(o->store, &e, &err) < 0)
        dcb_warn("collect: %s", err.msg);
    static const struct out_event_form form = { .kind = "event %s ",
                                                .ifname = "%s ",
                                                .prio = "prio %" PRId64 " ",
                                                .details = "%s\n",
                                                .stream = true };
    out_event(o->out, &e, &form);
}

static bool on_frame(void *arg, const struct capture_packet *p)
{
    static struct dcb_frame frame;
    struct live_run *r = arg;
    r->frames++;
    if (!dcb_linktype_known(p->linktype))
        return true;
    if (!dcb_decode_link_frame(p->linktype, p->data, p->caplen, p->len, &frame))
        r->malformed++;
    dcb_verify_icrc(p->data, &frame); /* corrupt frames: capture.bad_icrc, not marks */
    track_set_frame(&r->t, p->ts_ns, 0, &frame);
    return true;
}

static void put_counter(struct live_run *r, int64_t now, enum metric_id m, int prio, uint64_t value)
{
    const struct collect_capture_opts *o = r->o;
    uint64_t *last = &r->last[m][prio < 0 ? 0 : prio];
    double rate = r->have_last ? (double)(value - *last) * 1e9 / (double)o->interval_ns : NAN;
    *last = value;
    if (o->store) {
        struct dcb_sample s;
        dcb_sample_set(&s, now, o->device, o->iface, m, prio, -1);
        s.value.counter = value;
        struct dcb_err err;
        if (store_put_sample(o->store, &s, &err) < 0)
            dcb_warn("collect: %s", err.msg);
    }
    struct dcb_out *out = o->out;
    if (out_is_json(out)) {
        out_obj_open(out, NULL);
        out_i64(out, "ts", NULL, now);
        out_str(out, "device", NULL, o->device);
        out_str(out, "ifname", NULL, o->iface);
        out_str(out, "source", NULL, "capture");
        out_str(out, "metric", NULL, metric_info(m)->name);
        out_i64(out, "prio", NULL, prio);
        out_i64(out, "queue", NULL, -1);
        out_u64(out, "value", NULL, value);
        out_dbl(out, "rate", NULL, rate);
        out_obj_close(out);
    } else {
        char label[16] = "";
        if (prio >= 0)
            snprintf(label, sizeof(label), "prio=%d", prio);
        out_term(out->fp, "%-12s %-26s %-8s %20" PRIu64, o->iface, metric_info(m)->name, label,
                 value);
        if (isfinite(rate))
            fprintf(out->fp, " %14.1f/s", rate);
        fprintf(out->fp, "   (capture)\n");
    }
}

static void put_interval(struct live_run *r, int64_t now)
{
    const struct pause_tracker *p = &r->t.pauses;
    uint64_t frames[8] = { 0 }, paused_ns[8] = { 0 };
    unsigned seen = 0;
    for (size_t i = 0; i < p->ncls; i++) {
        const struct pause_class *c = &p->cls[i];
        if (c->prio < 0)
            continue;
        frames[c->prio] += c->frames;
        paused_ns[c->prio] += c->paused_ns;
        seen |= 1u << c->prio;
    }
    for (int prio = 0; prio < 8; prio++)
        if (seen & (1u << prio)) {
            put_counter(r, now, METRIC_CAPTURE_PFC_FRAMES, prio, frames[prio]);
            put_counter(r, now, METRIC_CAPTURE_PFC_PAUSED_US, prio, paused_ns[prio] / 1000);
        }
    const struct qp_tracker *q = &r->t.qps;
    put_counter(r, now, METRIC_CAPTURE_PAUSE_FRAMES, -1, p->frames_pause);
    put_counter(r, now, METRIC_CAPTURE_ROCE_PACKETS, -1, q->roce_packets);
    put_counter(r, now, METRIC_CAPTURE_CE_PACKETS, -1, q->ce_packets);
    put_counter(r, now, METRIC_CAPTURE_CNP_PACKETS, -1, q->cnps);
    put_counter(r, now, METRIC_CAPTURE_PSN_GAPS, -1, q->psn_gaps);
    put_counter(r, now, METRIC_CAPTURE_NAKS, -1, q->naks);
    put_counter(r, now, METRIC_CAPTURE_RETRANSMITS, -1, q->retransmit_episodes);
    put_counter(r, now, METRIC_CAPTURE_DROPPED, -1, capture_live_dropped(&r->cap));
    put_counter(r, now, METRIC_CAPTURE_BAD_ICRC, -1, q->bad_icrc);
    r->have_last = true;
    struct dcb_err err;
    if (r->o->store && store_flush(r->o->store, &err) < 0)
        dcb_warn("collect: %s", err.msg);
    fflush(r->o->out->fp);
}

/* Reads frames until deadline (monotonic) or a stop. */
static int read_until(struct live_run *r, int64_t deadline)
{
    struct dcb_err err;
    for (int64_t now = dcb_monotonic_ns(); now < deadline && !*r->o->stop;
         now = dcb_monotonic_ns()) {
        struct pollfd pfd = { .fd = r->cap.fd, .events = POLLIN };
        int wait_ms = (int)((deadline - now + 999999) / 1000000);
        int rc = poll(&pfd, 1, wait_ms);
        if (rc < 0 && errno != EINTR)
            return cli_fail(1, r->o->iface, "poll: %s", strerror(errno));
        if (rc > 0 && capture_live_read(&r->cap, on_frame, r, &err) < 0)
            return cli_fail(1, r->o->iface, "%s", err.msg);
    }
    return 0;
}

int collect_capture_run(const struct collect_capture_opts *o)
{
    static struct live_run r;
    memset(&r, 0, sizeof(r));
    r.o = o;
    struct dcb_err err;
    int rc = capture_live_open(&r.cap, o->iface, o->filter, &err);
    if (rc < 0) /* a filter that does not compile is a usage error */
        return cli_fail(rc == DCB_E_INVAL ? EXIT_USAGE : 1, "collect --capture", "%s", err.msg);
    /* the capture socket and the store are open: parse the wire as nobody, with nothing kept */
    if (privs_drop(0, &err) < 0)
        dcb_log(DCB_LOG_WARN, "%s; capturing with the privileges it has", err.msg);
    struct track_events ev = { .fn = on_event, .arg = &r, .device = o->device };
    if (track_set_init(&r.t, o->link_bps, CAPTURE_STORM_NS, 0, &ev) < 0) {
        capture_live_close(&r.cap);
        return cli_fail(1, "collect --capture", "cannot allocate the QP table");
    }
    int status = 0;
    int64_t next = dcb_monotonic_ns() + o->interval_ns;
    for (long tick = 0; !*o->stop && (o->count == 0 || tick < o->count); tick++) {
        if ((status = read_until(&r, next)) != 0)
            break;
        put_interval(&r, dcb_realtime_ns());
        next += o->interval_ns;
    }
    capture_live_read(&r.cap, on_frame, &r, &err);
    track_set_finish(&r.t, dcb_realtime_ns());
    if (o->verbosity >= 0)
        out_term(stderr,
                 "dcbkit: %s: %" PRIu64 " frames captured (%" PRIu64 " malformed, %" PRIu64
                 " dropped by the kernel), %" PRIu64 " events\n",
                 o->iface, r.frames, r.malformed, capture_live_dropped(&r.cap), r.events);
    if (o->store && store_flush(o->store, &err) < 0)
        status = cli_fail(1, "collect", "%s", err.msg);
    capture_live_close(&r.cap);
    track_set_free(&r.t);
    return status;
}

int collect_capture(struct cli_ctx *ctx, const struct collect_opts *co)
{
    struct dcb_err err;
    struct dcb_store *store = NULL;
    if (co->store_path) {
        struct store_options opt = { .path = co->store_path };
        if (store_open_sqlite(&store, &opt, &err) < 0)
            return cli_fail(1, "collect", "%s", err.msg);
    }
    struct dcb_out out;
    out_init(&out, stdout, ctx->format);
    collect_catch_signals();
    struct collect_capture_opts o = {
        .iface = co->capture_iface,
        .filter = co->filter,
        .device = co->device,
        .interval_ns = co->interval_ns,
        .count = collect_ticks(co),
        .link_bps = co->src.pcap.link_bps,
        .store = store,
        .out = &out,
        .stop = &collect_stop,
        .verbosity = ctx->verbosity,
    };
    int status = cli_finish_output(&out, collect_capture_run(&o));
    if (store && store_close(store, &err) < 0)
        status = cli_fail(1, "collect", "%s", err.msg);
    return status;
}
