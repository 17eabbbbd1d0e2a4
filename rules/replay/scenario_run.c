/* Running a scenario: passes of the simulator back to back (a repeating workload), counters
 * carried across passes so they stay monotonic, optional real-time pacing with wall-clock
 * timestamps, and the digest the scenario signatures are judged on. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "scenario.h"
#include "units.h"

#define SLOTS_MIN 1024

struct slot {
    bool used;
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX];
    enum metric_id metric;
    int16_t prio, queue;
    uint64_t base, last; /* counters: carried from earlier passes, the latest */
    uint64_t warm;       /* counters: at the first sample after the warm-up */
    int64_t last_ns;
    int64_t run_ns; /* pfc.rx_pause_us: the unbroken pause so far */
    bool seen;
};

struct runner {
    const struct scenario *sc;
    const struct scenario_run_options *ro;
    const struct replay_hooks *user;
    struct scenario_digest *dg;
    struct slot *slots;
    size_t nslots, used;
    int64_t offset_ns; /* simulated time before this pass */
    int64_t interval_ns;
    bool realtime;
    double speed;
    int64_t mono_start_ns;
    int64_t wall_start_ns;
    int64_t round_ns;      /* the sample round in progress */
    int64_t warm_round_ns; /* the first round at or after the warm-up, -1: not yet */
    uint64_t marks_total;
    bool marks_fixed, oom;
    int64_t lag_warned;
    int64_t lag_ns; /* realtime: how far the wall clock is ahead of the pace */
};

static uint64_t hash_str(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return h;
}

static struct slot *find_slot(struct runner *r, const struct dcb_sample *s)
{
    if ((r->used + 1) * 2 > r->nslots) {
        size_t n = r->nslots ? r->nslots * 2 : SLOTS_MIN;
        struct slot *grown = calloc(n, sizeof(*grown));
        if (!grown) {
            r->oom = true;
            return NULL;
        }
        struct slot *old = r->slots;
        size_t oldn = r->nslots;
        r->slots = grown;
        r->nslots = n;
        r->used = 0;
        for (size_t i = 0; i < oldn; i++) {
            if (!old[i].used)
                continue;
            struct dcb_sample k;
            dcb_sample_set(&k, 0, old[i].device, old[i].ifname, old[i].metric, old[i].prio,
                           old[i].queue);
            struct slot *ns = find_slot(r, &k);
            *ns = old[i];
        }
        free(old);
    }
    uint64_t h = hash_str(hash_str(0xcbf29ce484222325ULL, s->device), s->ifname);
    h = (h ^ (uint64_t)s->metric) * 0x100000001b3ULL;
    h = (h ^ (uint64_t)(uint16_t)s->prio << 16 ^ (uint64_t)(uint16_t)s->queue) * 0x100000001b3ULL;
    for (size_t i = h & (r->nslots - 1);; i = (i + 1) & (r->nslots - 1)) {
        struct slot *sl = &r->slots[i];
        if (!sl->used) {
            sl->used = true;
            snprintf(sl->device, sizeof(sl->device), "%s", s->device);
            snprintf(sl->ifname, sizeof(sl->ifname), "%s", s->ifname);
            sl->metric = s->metric;
            sl->prio = s->prio;
            sl->queue = s->queue;
            r->used++;
            return sl;
        }
        if (sl->metric == s->metric && sl->prio == s->prio && sl->queue == s->queue &&
            !strcmp(sl->device, s->device) && !strcmp(sl->ifname, s->ifname))
            return sl;
    }
}

/* Run time (simulated, from the start) to what the hooks see. In real time that is the moment
 * the sample is handed over: the paced time, or later when the simulation could not keep up
 * (the timestamps follow the wall clock either way). */
static int64_t stamp(const struct runner *r, int64_t run_ns)
{
    if (!r->realtime && !r->ro->wall_start_ns)
        return run_ns;
    if (r->ro->simulated_stamps)
        return r->wall_start_ns + run_ns;
    return r->wall_start_ns + (int64_t)((double)run_ns / r->speed) + r->lag_ns;
}

/* Real time: wait until the wall clock reaches this point of simulated time. */
static void pace(struct runner *r, int64_t run_ns)
{
    if (!r->realtime)
        return;
    int64_t target = r->mono_start_ns + (int64_t)((double)run_ns / r->speed);
    int64_t now = dcb_monotonic_ns();
    r->lag_ns = now > target ? now - target : 0;
    if (now > target + 100000000LL && run_ns - r->lag_warned > 10000000000LL) {
        r->lag_warned = run_ns;
        fprintf(stderr,
                "dcbkit: replay: the simulation runs behind real time by %.1f s "
                "(try --replay-speed below 1 or a smaller scenario)\n",
                (double)(now - target) / 1e9);
    }
    dcb_sleep_until(target, r->ro->stop);
}

/* A sample round (all samples of one instant) is over: what the digest takes per round. */
static void end_round(struct runner *r)
{
    struct scenario_digest *dg = r->dg;
    if (!r->marks_fixed && dg->first_pause_ns >= 0 && r->round_ns >= dg->first_pause_ns) {
        dg->marks_by_first_pause = r->marks_total;
        r->marks_fixed = true;
    }
}

static void on_sample(void *arg, const struct dcb_sample *s)
{
    struct runner *r = arg;
    int64_t run_ns = r->offset_ns + s->time_ns;
    if (run_ns != r->round_ns) {
        end_round(r);
        r->round_ns = run_ns;
        if (r->warm_round_ns < 0 && run_ns >= r->ro->warmup_ns)
            r->warm_round_ns = run_ns;
        pace(r, run_ns);
    }
    /* a later pass starts at the instant the previous one ended, which was sampled already */
    if (s->time_ns == 0 && r->offset_ns > 0)
        return;
    struct slot *sl = find_slot(r, s);
    if (!sl)
        return;
    struct dcb_sample out = *s;
    out.time_ns = stamp(r, run_ns);
    if (metric_info(s->metric)->kind == METRIC_COUNTER) {
        out.value.counter = s->value.counter + sl->base;
        uint64_t delta = sl->seen && out.value.counter > sl->last ? out.value.counter - sl->last
                                                                  : 0;
        bool measured = r->warm_round_ns >= 0 && run_ns > r->warm_round_ns;
        if (r->ro->warmup_ns > 0 && run_ns == r->warm_round_ns)
            sl->warm = out.value.counter;
        if (s->metric == METRIC_QUEUE_ECN_MARKED && measured)
            r->marks_total += delta;
        if (s->metric == METRIC_PFC_RX_PAUSE_US && sl->seen && measured) {
            /* paused for the whole interval (to the microsecond): the pause goes on */
            int64_t step = run_ns - sl->last_ns;
            if (step > 0 && (int64_t)delta * 1000 + 1000 >= step) {
                sl->run_ns += step;
                if (sl->run_ns > r->dg->longest_pause_ns) {
                    r->dg->longest_pause_ns = sl->run_ns;
                    snprintf(r->dg->longest_pause_port, sizeof(r->dg->longest_pause_port), "%s:%s",
                             s->device, s->ifname);
                    r->dg->longest_pause_prio = s->prio;
                }
            } else {
                sl->run_ns = 0;
            }
        }
        sl->last = out.value.counter;
    }
    sl->last_ns = run_ns;
    sl->seen = true;
    if (r->user && r->user->sample)
        r->user->sample(r->user->arg, &out);
}

static void on_round_end(void *arg, int64_t time_ns)
{
    struct runner *r = arg;
    if (time_ns == 0 && r->offset_ns > 0)
        return; /* its samples were skipped too (on_sample) */
    r->ro->round_end(r->user ? r->user->arg : NULL, stamp(r, r->offset_ns + time_ns));
}

static void on_event(void *arg, const struct dcb_event *e)
{
    struct runner *r = arg;
    int64_t run_ns = r->offset_ns + e->time_ns;
    if (e->kind == EVENT_PFC_XOFF && r->dg->first_pause_ns < 0 && run_ns >= r->ro->warmup_ns)
        r->dg->first_pause_ns = run_ns;
    if (e->kind == EVENT_WATCHDOG && strstr(e->details, "\"storm\"") && run_ns >= r->ro->warmup_ns)
        r->dg->watchdog_storms++;
    if (r->user && r->user->event) {
        struct dcb_event out = *e;
        out.time_ns = stamp(r, run_ns);
        r->user->event(r->user->arg, &out);
    }
}

static void on_series(void *arg, const struct replay_series_point *p)
{
    struct runner *r = arg;
    if (r->user && r->user->series) {
        struct replay_series_point out = *p;
        out.time_ns = stamp(r, r->offset_ns + p->time_ns);
        r->user->series(r->user->arg, &out);
    }
}

/* Next pass: counters go on from where this one left them. */
static void carry_over(struct runner *r)
{
    for (size_t i = 0; i < r->nslots; i++) {
        struct slot *sl = &r->slots[i];
        if (sl->used && metric_info(sl->metric)->kind == METRIC_COUNTER)
            sl->base = sl->last;
        sl->run_ns = 0;
    }
}

static bool is_switch(const struct scenario *sc, const char *device)
{
    const struct fabric_device *d = fabric_find_device(&sc->fabric, device);
    return d && d->role == FABRIC_SWITCH;
}

static double port_bps(const struct scenario *sc, const char *device, const char *ifname)
{
    struct qos_config c;
    if (fabric_effective_config(&sc->fabric, device, ifname, &c, NULL) == 0 && c.speed_bps.set &&
        c.speed_bps.v > 0)
        return (double)c.speed_bps.v;
    return 100e9; /* the simulator's default */
}

/* A counter's count after the warm-up. */
static uint64_t counted(const struct slot *sl)
{
    return sl->last > sl->warm ? sl->last - sl->warm : 0;
}

static uint64_t last_of(struct runner *r, const char *device, const char *ifname, enum metric_id m)
{
    struct dcb_sample k;
    dcb_sample_set(&k, 0, device, ifname, m, -1, -1);
    struct slot *sl = find_slot(r, &k);
    return sl ? counted(sl) : 0;
}

/* The figures the digest keeps from the last value of every counter. */
static void finish_digest(struct runner *r, int64_t simulated_ns)
{
    int64_t measured_ns = simulated_ns - (r->warm_round_ns > 0 ? r->warm_round_ns : 0);
    struct scenario_digest *dg = r->dg;
    const struct scenario *sc = r->sc;
    end_round(r);
    for (size_t i = 0; i < r->nslots; i++) {
        const struct slot *sl = &r->slots[i];
        if (!sl->used)
            continue;
        bool sw = is_switch(sc, sl->device);
        unsigned p = (unsigned)sl->prio & 7, q = (unsigned)sl->queue & 7;
        switch (sl->metric) {
        case METRIC_PG_DROPS: dg->pg_drops[p] += counted(sl); break;
        case METRIC_QUEUE_DROPS: dg->queue_drops[q] += counted(sl); break;
        case METRIC_PFC_TX_PAUSE:
            if (sw)
                dg->pfc_tx_switch[p] += counted(sl);
            else
                dg->pfc_tx_host[p] += counted(sl);
            break;
        case METRIC_QUEUE_ECN_MARKED: dg->ecn_marked += counted(sl); break;
        case METRIC_CNP_SENT: dg->cnp_sent += counted(sl); break;
        case METRIC_CNP_HANDLED: dg->cnp_handled += counted(sl); break;
        case METRIC_ROCE_ECN_MARKED_RX: dg->ce_received += counted(sl); break;
        case METRIC_CNP_IGNORED: dg->cnp_ignored += counted(sl); break;
        case METRIC_ROCE_OUT_OF_SEQUENCE: dg->out_of_sequence += counted(sl); break;
        case METRIC_ROCE_PACKET_SEQ_ERR: dg->naks_received += counted(sl); break;
        case METRIC_ROCE_LOCAL_ACK_TIMEOUT_ERR: dg->ack_timeouts += counted(sl); break;
        case METRIC_QUEUE_WRED_DROPS: dg->wred_drops += counted(sl); break;
        case METRIC_PFCWD_TX_DROP: dg->watchdog_drops += counted(sl); break;
        case METRIC_DROP_RX_OVERSIZE:
        case METRIC_DROP_TX_OVERSIZE: dg->oversize_drops += counted(sl); break;
        case METRIC_LINK_FCS_ERRORS: dg->fcs_errors += counted(sl); break;
        case METRIC_PAUSE_TX_GLOBAL: dg->pause_global_tx += counted(sl); break;
        case METRIC_PAUSE_RX_GLOBAL: dg->pause_global_rx += counted(sl); break;
        default: break;
        }
    }
    if (!r->marks_fixed)
        dg->marks_by_first_pause = dg->first_pause_ns >= 0 ? r->marks_total : 0;
    /* hosts: utilisation of their links, PFC they sent */
    const struct fabric *f = &sc->fabric;
    size_t nh = 0;
    for (size_t i = 0; i < f->ndevices; i++)
        nh += f->devices[i].role == FABRIC_HOST;
    dg->hosts = calloc(nh ? nh : 1, sizeof(*dg->hosts));
    for (size_t i = 0; dg->hosts && i < f->nlinks; i++) {
        const struct fabric_link *l = &f->links[i];
        for (int e = 0; e < 2; e++) {
            const struct fabric_end *end = e ? &l->b : &l->a;
            const struct fabric_device *d = fabric_find_device(f, end->device);
            if (!d || d->role != FABRIC_HOST || dg->nhosts >= nh)
                continue;
            struct scenario_host *h = &dg->hosts[dg->nhosts++];
            snprintf(h->device, sizeof(h->device), "%s", end->device);
            snprintf(h->ifname, sizeof(h->ifname), "%s", end->ifname);
            double cap = port_bps(sc, end->device, end->ifname) / 8.0 * (double)measured_ns / 1e9;
            h->rx_util = cap > 0
                             ? (double)last_of(r, end->device, end->ifname, METRIC_PORT_RX_BYTES) /
                                   cap
                             : 0;
            h->tx_util = cap > 0
                             ? (double)last_of(r, end->device, end->ifname, METRIC_PORT_TX_BYTES) /
                                   cap
                             : 0;
            for (int prio = 0; prio < 8; prio++) {
                struct dcb_sample k;
                dcb_sample_set(&k, 0, end->device, end->ifname, METRIC_PFC_TX_PAUSE, prio, -1);
                struct slot *sl = find_slot(r, &k);
                h->pfc_tx += sl ? counted(sl) : 0;
            }
            if (h->rx_util > dg->bottleneck_util)
                dg->bottleneck_util = h->rx_util;
        }
    }
    /* leaves (switches with hosts): the load of each uplink against its siblings */
    for (size_t d = 0; d < f->ndevices; d++) {
        const struct fabric_device *dev = &f->devices[d];
        if (dev->role != FABRIC_SWITCH)
            continue;
        double loads[256];
        size_t n = 0;
        bool has_hosts = false;
        for (size_t i = 0; i < f->nlinks; i++) {
            const struct fabric_link *l = &f->links[i];
            for (int e = 0; e < 2; e++) {
                const struct fabric_end *me = e ? &l->b : &l->a, *peer = e ? &l->a : &l->b;
                if (strcmp(me->device, dev->name))
                    continue;
                if (!is_switch(sc, peer->device))
                    has_hosts = true;
                else if (n < 256)
                    loads[n++] = (double)last_of(r, me->device, me->ifname, METRIC_PORT_TX_BYTES);
            }
        }
        if (!has_hosts || n < 2)
            continue;
        for (size_t i = 0; i < n; i++) {
            double others = 0;
            for (size_t k = 0; k < n; k++)
                others += k == i ? 0 : loads[k];
            others /= (double)(n - 1);
            double ratio = others > 0 ? loads[i] / others : loads[i] > 0 ? INFINITY : 0;
            if (ratio > dg->uplink_ratio) {
                dg->uplink_ratio = ratio;
                dg->uplink_max_bytes = (uint64_t)loads[i];
                dg->uplink_siblings_bytes = others;
                snprintf(dg->uplink_device, sizeof(dg->uplink_device), "%s", dev->name);
            }
        }
    }
}

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

int scenario_run(const struct scenario *sc, const struct scenario_run_options *ro,
                 const struct replay_hooks *hooks, struct scenario_result *res, struct dcb_err *err)
{
    static const struct scenario_run_options defaults;
    if (!ro)
        ro = &defaults;
    memset(res, 0, sizeof(*res));
    res->digest.first_pause_ns = -1;
    res->digest.longest_pause_prio = -1;
    struct runner r;
    memset(&r, 0, sizeof(r));
    r.sc = sc;
    r.ro = ro;
    r.user = hooks;
    r.dg = &res->digest;
    r.realtime = ro->realtime;
    r.speed = ro->speed > 0 ? ro->speed : 1.0;
    r.round_ns = -1;
    r.warm_round_ns = -1;
    r.mono_start_ns = dcb_monotonic_ns();
    r.wall_start_ns = ro->wall_start_ns ? ro->wall_start_ns : dcb_realtime_ns();
    int64_t pass_ns = sc->options.duration_ns;
    int64_t total_ns = ro->duration_ns;
    bool repeat = sc->workload.repeat;
    if (total_ns == 0)
        total_ns = repeat ? SCENARIO_FOREVER : pass_ns;
    else if (!repeat && total_ns != SCENARIO_FOREVER)
        pass_ns = total_ns; /* one pass of the length asked for */
    if (pass_ns > REPLAY_TIME_MAX_NS)
        return dcb_err_set(err, DCB_E_RANGE,
                           "duration: %.15g ms in one pass is out of range "
                           "(0.001 to %.15g)",
                           (double)pass_ns / 1e6, (double)REPLAY_TIME_MAX_NS / 1e6);
    struct replay_options opt = sc->options;
    opt.faults = sc->faults;
    opt.nfaults = sc->nfaults;
    opt.after = sc->workload.after;
    opt.transport = sc->workload.transport;
    opt.stop = ro->stop;
    opt.round_end = ro->round_end ? on_round_end : NULL;
    if (r.realtime && opt.sample_interval_ns <= 0)
        opt.sample_interval_ns = 1000000; /* pacing happens at samples */
    r.interval_ns = opt.sample_interval_ns;
    /* the series are only made for a caller that takes them (they can outnumber the events) */
    struct replay_hooks mine = { on_sample, on_event, hooks && hooks->series ? on_series : NULL,
                                 &r };
    double cpu0 = cpu_seconds();
    int64_t wall0 = dcb_monotonic_ns();
    int rc = 0;
    while (rc == 0 && r.offset_ns < total_ns && !(ro->stop && *ro->stop) && !r.oom) {
        opt.duration_ns = total_ns - r.offset_ns < pass_ns ? total_ns - r.offset_ns : pass_ns;
        /* a new seed each pass, so that repeated passes are not copies of each other */
        opt.seed = sc->options.seed + res->passes;
        opt.warmup_ns = ro->warmup_ns > r.offset_ns ? ro->warmup_ns - r.offset_ns : 0;
        if (opt.warmup_ns > REPLAY_TIME_MAX_NS)
            opt.warmup_ns = REPLAY_TIME_MAX_NS; /* past this pass's end either way */
        replay_summary_free(&res->summary);
        rc = replay_run(&sc->fabric, sc->workload.flows, sc->workload.nflows, &opt, &mine,
                        &res->summary, err);
        if (rc < 0)
            break;
        res->passes++;
        res->events += res->summary.events;
        res->packet_hops += res->summary.packet_hops;
        bool stopped = ro->stop && *ro->stop;
        int64_t ran = opt.duration_ns;
        if (stopped && r.round_ns >= r.offset_ns)
            ran = r.round_ns - r.offset_ns;
        r.offset_ns += ran;
        res->last_pass_ns = ran;
        carry_over(&r);
    }
    res->wall_s = (double)(dcb_monotonic_ns() - wall0) / 1e9;
    res->cpu_s = cpu_seconds() - cpu0;
    res->simulated_ns = r.offset_ns;
    res->stopped = ro->stop && *ro->stop;
    if (rc == 0 && r.oom)
        rc = dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    if (rc == 0) {
        finish_digest(&r, r.offset_ns);
        res->measured_from_ns = r.warm_round_ns > 0 ? r.warm_round_ns : 0;
        res->warmup_ns = ro->warmup_ns;
        workload_iterations(&sc->workload, &res->summary, &res->iterations);
    }
    free(r.slots);
    return rc;
}

void scenario_result_free(struct scenario_result *r)
{
    replay_summary_free(&r->summary);
    free(r->digest.hosts);
    r->digest.hosts = NULL;
    r->digest.nhosts = 0;
}

int scenario_parse_duration(const char *text, int64_t *ns, struct dcb_err *err)
{
    if (!strcmp(text, "forever")) {
        *ns = SCENARIO_FOREVER;
        return 0;
    }
    struct dcb_err inner;
    if (dcb_parse_duration(text, ns, &inner) < 0)
        return dcb_err_set(err, inner.code, "%s", inner.msg);
    if (*ns <= 0)
        return dcb_err_set(err, DCB_E_RANGE, "'%s': must be above zero", text);
    return 0;
}
