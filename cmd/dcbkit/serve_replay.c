/* dcbkit serve --replay SCENARIO / --demo: the replay engine runs the scenario in real time on
 * its own thread; its samples arrive far more often than serve collects (every simulated
 * millisecond), so the thread keeps only the newest sample of each series and the events, and
 * each round moves them into the ring that the page and the rules read. The scenario's fabric is
 * the source's intent (serve_intent.c). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "serve.h"
#include "store_impl.h"
#include "units.h"

#define PENDING_EVENTS_MAX 65536

struct replay_source {
    struct scenario sc;
    struct scenario_run_options ro;
    pthread_t thread;
    bool started;
    volatile sig_atomic_t stop;
    pthread_mutex_t mu;
    /* under mu: the newest sample of each series, which changed since the last round, and
     * the events not yet moved */
    struct series_map map;
    struct dcb_sample *latest;
    bool *dirty;
    size_t latest_cap;
    struct dcb_event *events;
    size_t nevents;
    uint64_t events_dropped;
    bool nomem, finished;
    int run_rc;
    struct dcb_err run_err;
};

static void on_sample(void *arg, const struct dcb_sample *s)
{
    struct replay_source *r = arg;
    pthread_mutex_lock(&r->mu);
    bool added;
    int64_t i = series_map_intern(&r->map, s, &added);
    if (i >= 0 && (size_t)i >= r->latest_cap) {
        size_t cap = r->latest_cap ? r->latest_cap * 2 : 1024;
        while (cap <= (size_t)i)
            cap *= 2;
        struct dcb_sample *v = realloc(r->latest, cap * sizeof(*v));
        bool *d = v ? realloc(r->dirty, cap * sizeof(*d)) : NULL;
        if (v)
            r->latest = v;
        if (d)
            r->dirty = d;
        if (v && d)
            r->latest_cap = cap;
        else
            i = -1;
    }
    if (i < 0) {
        r->nomem = true;
    } else {
        r->latest[i] = *s;
        r->dirty[i] = true;
    }
    pthread_mutex_unlock(&r->mu);
}

static void on_event(void *arg, const struct dcb_event *e)
{
    struct replay_source *r = arg;
    pthread_mutex_lock(&r->mu);
    if (r->nevents < PENDING_EVENTS_MAX)
        r->events[r->nevents++] = *e;
    else
        r->events_dropped++;
    pthread_mutex_unlock(&r->mu);
}

static void *run_thread(void *arg)
{
    struct replay_source *r = arg;
    struct replay_hooks hooks = { on_sample, on_event, NULL, r };
    struct scenario_result res;
    memset(&res, 0, sizeof(res));
    struct dcb_err err;
    int rc = scenario_run(&r->sc, &r->ro, &hooks, &res, &err);
    scenario_result_free(&res);
    pthread_mutex_lock(&r->mu);
    r->finished = true;
    r->run_rc = rc;
    if (rc < 0)
        r->run_err = err;
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

static int replay_collect(struct serve_source *src, struct dcb_err *err)
{
    struct replay_source *r = src->ctx;
    int rc = 0;
    pthread_mutex_lock(&r->mu);
    for (size_t i = 0; i < r->map.count && rc == 0; i++)
        if (r->dirty[i]) {
            rc = serve_put_sample(src, &r->latest[i], err);
            r->dirty[i] = false;
        }
    for (size_t i = 0; i < r->nevents && rc == 0; i++)
        rc = serve_put_event(src, &r->events[i], err);
    r->nevents = 0;
    if (rc == 0 && r->events_dropped) {
        /* a burst of more events in one round than the round keeps: say so where the events
         * are read, rather than lose them without a trace */
        char details[160];
        snprintf(details, sizeof(details), "{\"reason\":\"replay events over the %d a round "
                 "keeps\",\"dropped\":%llu}", PENDING_EVENTS_MAX,
                 (unsigned long long)r->events_dropped);
        struct dcb_event gap;
        dcb_event_set(&gap, dcb_realtime_ns(), EVENT_SOURCE_GAP, r->sc.name, "", -1, details);
        rc = serve_put_event(src, &gap, err);
        r->events_dropped = 0;
    }
    if (rc == 0 && r->nomem)
        rc = dcb_err_set(err, DCB_E_NOMEM, "out of memory for the replay's series");
    if (rc == 0 && r->finished && r->run_rc < 0)
        rc = dcb_err_set(err, r->run_rc, "the replay stopped: %s", r->run_err.msg);
    pthread_mutex_unlock(&r->mu);
    return rc;
}

static int64_t replay_now(struct serve_source *src)
{
    (void)src;
    return dcb_realtime_ns();
}

static void replay_close(struct serve_source *src)
{
    struct replay_source *r = src->ctx;
    if (r->started) {
        r->stop = 1;
        pthread_join(r->thread, NULL);
    }
    scenario_free(&r->sc);
    series_map_free(&r->map);
    free(r->latest);
    free(r->dirty);
    free(r->events);
    pthread_mutex_destroy(&r->mu);
    free(r);
}

int serve_source_replay_open(struct serve_source *src, const struct serve_replay_options *opt,
                             struct dcb_err *err)
{
    memset(src, 0, sizeof(*src));
    struct replay_source *r = calloc(1, sizeof(*r));
    if (r)
        r->events = malloc(PENDING_EVENTS_MAX * sizeof(*r->events));
    if (!r || !r->events) {
        if (r)
            free(r);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    }
    pthread_mutex_init(&r->mu, NULL);
    series_map_init(&r->map);
    src->name = "replay";
    src->ctx = r;
    src->collect = replay_collect;
    src->now = replay_now;
    src->close = replay_close;
    src->is_ring = true;
    int rc = opt->scenario ? scenario_load_file(&r->sc, opt->scenario, opt->sets, opt->nsets, err)
                           : scenario_demo(&r->sc, opt->sets, opt->nsets, err);
    if (rc == 0)
        rc = store_open_ring(&src->st, opt->ring_samples, opt->ring_samples / 16 + 1, err);
    if (rc == 0) {
        r->ro.duration_ns = opt->duration_ns ? opt->duration_ns : SCENARIO_FOREVER;
        r->ro.realtime = true;
        r->ro.wall_start_ns = dcb_realtime_ns();   /* also the time of the config snapshots */
        src->intent = &r->sc.fabric;
        src->intent_ns = r->ro.wall_start_ns;
        r->ro.speed = opt->speed;
        r->ro.stop = &r->stop;
        if (pthread_create(&r->thread, NULL, run_thread, r) != 0)
            rc = dcb_err_set(err, DCB_E_NOMEM, "cannot start the replay thread");
        else
            r->started = true;
    }
    if (rc < 0) {
        serve_source_close(src);
        return rc;
    }
    return 0;
}
