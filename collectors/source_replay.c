/* replay: the embedded simulator (rules/replay scenario runner) on a scenario or the demo.
 *
 * As fast as possible (fast), the first tick runs the whole scenario and hands every sample and
 * event to the sink, with the scenario's config ("replay") and where each port sits
 * ("topology"), as `dcbkit replay --store` records them; then the source ends.
 *
 * In real time, the runner sleeps between sample rounds, so it runs in a child process
 * (source_child.h). Its samples carry simulated time from the start (scenario.h's
 * simulated_stamps): a simulation that falls behind the wall clock (a busy machine) gives later
 * data, never data stretched over wall time, so rates stay those of `dcbkit replay --stream` for
 * the same simulated seconds; how far it trails is behind_ns. The child forwards the first
 * sample round at or after each half refresh interval of simulated time (counters are
 * cumulative, so rates lose nothing; the interval is shared with the child, so that 'd' changes
 * it), each with its end, and the use gets a round only once it has all of it: a tick in the
 * middle of one (the child preempted on a busy machine) would stand the data at the round's
 * time with the ports not read yet still half a refresh back. It forwards events while the
 * pipe is less than half full, at most EVENTS_PER_SECOND a simulated second: a flood of them
 * must not block the simulation. The scenario's fabric gives every interface its intended
 * config and its link partner's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <fcntl.h>

#include <cjson/cJSON.h>

#include "qos_json.h"
#include "scenario.h"
#include "source.h"
#include "source_child.h"
#include "units.h"

#define EVENTS_PER_SECOND 2000
#define FIRST_DATA_WAIT_MS 2000
#define BEHIND_SLACK_NS 250000000LL /* wall time a round may come late before it is said */

/* What the child reads and dcbtop writes while both run: simulated time between forwarded
 * rounds (half a refresh interval). */
struct replay_shared {
    int64_t every_ns;
};

struct replay_ctx {
    struct scenario sc;
    double speed;
    int64_t duration_ns;
    int64_t start_ns; /* simulated time 0 on the wall clock (fast, 0: the tick's) */
    bool fast, ran;
    struct source_child cl;
    struct replay_shared *shared; /* real time: mapped shared with the child */
    struct dcb_source *src;
};

/* Half a refresh interval of simulated time. */
static int64_t every_of(const struct dcb_source *src, double speed)
{
    int64_t every = (int64_t)((double)src->interval_ns * speed / 2);
    return every > 1000000 ? every : 1000000;
}

/* ---- the child ---------------------------------------------------------------------------- */

struct pacer {
    int fd;
    const struct replay_shared *shared;
    int64_t start_ns, round_ns, cell;
    bool send_round;
    int pipe_bytes; /* the pipe's capacity */
    int64_t second_ns;
    unsigned events_this_second;
};

static void child_sample(void *arg, const struct dcb_sample *s)
{
    struct pacer *c = arg;
    if (s->time_ns != c->round_ns) {
        c->round_ns = s->time_ns;
        int64_t every = __atomic_load_n(&c->shared->every_ns, __ATOMIC_RELAXED);
        int64_t cell = (s->time_ns - c->start_ns) / (every > 0 ? every : 1);
        c->send_round = cell != c->cell;
        c->cell = cell;
    }
    if (c->send_round)
        source_child_send_sample(c->fd, s);
}

static void child_round_end(void *arg, int64_t time_ns)
{
    struct pacer *c = arg;
    if (c->send_round && time_ns == c->round_ns)
        source_child_send_round_end(c->fd);
}

static void child_event(void *arg, const struct dcb_event *e)
{
    struct pacer *c = arg;
    if (e->time_ns - c->second_ns >= 1000000000LL) {
        c->second_ns = e->time_ns;
        c->events_this_second = 0;
    }
    int queued = 0;
    if (ioctl(c->fd, FIONREAD, &queued) == 0 && queued > c->pipe_bytes / 2)
        return; /* dcbtop has not read for a while: the samples go first */
    if (c->events_this_second++ < EVENTS_PER_SECOND)
        source_child_send_event(c->fd, e);
}

static int run_child(void *arg, int fd)
{
    struct replay_ctx *r = arg;
    struct pacer c = { .fd = fd,
                       .shared = r->shared,
                       .start_ns = r->start_ns,
                       .round_ns = -1,
                       .cell = -1 };
    c.pipe_bytes = fcntl(fd, F_GETPIPE_SZ);
    if (c.pipe_bytes <= 0)
        c.pipe_bytes = 65536;
    struct replay_hooks hooks = { child_sample, child_event, NULL, &c };
    struct scenario_run_options ro = { .duration_ns = r->duration_ns ? r->duration_ns
                                                                     : SCENARIO_FOREVER,
                                       .realtime = true,
                                       .speed = r->speed,
                                       .stop = &source_child_stop,
                                       .wall_start_ns = r->start_ns,
                                       .simulated_stamps = true,
                                       .round_end = child_round_end };
    struct scenario_result res;
    struct dcb_err err;
    int rc = scenario_run(&r->sc, &ro, &hooks, &res, &err);
    scenario_result_free(&res);
    return rc;
}

/* ---- as fast as possible -------------------------------------------------------------------- */

static void fast_sample(void *arg, const struct dcb_sample *s)
{
    struct dcb_source *src = arg;
    src->sink.sample(src->sink.arg, s, 0);
}

static void fast_event(void *arg, const struct dcb_event *e)
{
    struct dcb_source *src = arg;
    src->sink.event(src->sink.arg, e);
}

struct config_of {
    const struct dcb_sink *sink;
    const struct fabric *f;
    const char *device; /* as in the fabric */
    const char *prefix; /* before every device name put out, or NULL */
    int64_t time_ns;
};

static void put_text(struct config_of *c, const char *ifname, const char *source, char *text)
{
    if (!text)
        return;
    char device[DCB_DEVICE_MAX];
    snprintf(device, sizeof(device), "%s%s", c->prefix ? c->prefix : "", c->device);
    struct store_config_row row = { c->time_ns, device, ifname, source, text };
    c->sink->config(c->sink->arg, &row);
    free(text);
}

/* The port's config as the scenario runs it, where it sits (its role, its partner's), and the
 * link. */
static void iface_config(const char *ifname, void *arg)
{
    struct config_of *c = arg;
    struct qos_config q;
    if (fabric_effective_config(c->f, c->device, ifname, &q, NULL) < 0)
        return;
    cJSON *j = qos_to_json(&q);
    put_text(c, ifname, "replay", j ? cJSON_PrintUnformatted(j) : NULL);
    cJSON_Delete(j);
    put_text(c, ifname, "topology", fabric_topology_json(c->f, c->device, ifname, c->prefix));
    const struct fabric_end *other = NULL;
    if (!c->sink->link || !fabric_find_link(c->f, c->device, ifname, &other) || !other)
        return;
    char device[DCB_DEVICE_MAX], peer[DCB_DEVICE_MAX];
    snprintf(device, sizeof(device), "%s%s", c->prefix ? c->prefix : "", c->device);
    snprintf(peer, sizeof(peer), "%s%s", c->prefix ? c->prefix : "", other->device);
    c->sink->link(c->sink->arg, device, ifname, peer, other->ifname, "replay");
}

void source_replay_put_config(const struct fabric *f, const char *prefix, int64_t time_ns,
                              const struct dcb_sink *sink)
{
    for (size_t d = 0; d < f->ndevices; d++) {
        struct config_of c = { sink, f, f->devices[d].name, prefix, time_ns };
        fabric_each_iface(f, &f->devices[d], iface_config, &c);
    }
}

static int run_fast(struct dcb_source *src, struct replay_ctx *r, int64_t now_ns, int64_t *data_ns,
                    struct dcb_err *err)
{
    if (r->start_ns)
        now_ns = r->start_ns;
    source_replay_put_config(&r->sc.fabric, NULL, now_ns, &src->sink);
    struct replay_hooks hooks = { fast_sample, fast_event, NULL, src };
    /* as fast as possible ends: one pass of a workload that repeats (the demo's does) */
    int64_t duration = r->duration_ns ? r->duration_ns : r->sc.options.duration_ns;
    struct scenario_run_options ro = { .duration_ns = duration, .wall_start_ns = now_ns };
    struct scenario_result res;
    memset(&res, 0, sizeof(res));
    int rc = scenario_run(&r->sc, &ro, &hooks, &res, err);
    *data_ns = now_ns + res.simulated_ns;
    scenario_result_free(&res);
    r->ran = true;
    return rc < 0 ? rc : DCB_SOURCE_END;
}

/* ---- the use's side ------------------------------------------------------------------------- */

/* Real time: how far the newest round trails where the simulation should stand by now (wall
 * time), once that is more than a forwarding step and some slack; 0 otherwise. */
static int64_t behind_of(const struct replay_ctx *r, int64_t now_ns)
{
    if (!r->cl.newest_ns || r->cl.ended)
        return 0;
    double due = (double)(now_ns - r->start_ns) * r->speed; /* simulated time by now */
    double lag = (due - (double)(r->cl.newest_ns - r->start_ns)) / r->speed;
    double step = (double)__atomic_load_n(&r->shared->every_ns, __ATOMIC_RELAXED) / r->speed;
    return lag > step + (double)BEHIND_SLACK_NS ? (int64_t)lag : 0;
}

static int replay_tick(struct dcb_source *src, int64_t now_ns, int64_t *data_ns,
                       struct dcb_err *err)
{
    struct replay_ctx *r = src->ctx;
    *data_ns = now_ns;
    if (r->fast)
        return r->ran ? DCB_SOURCE_END : run_fast(src, r, now_ns, data_ns, err);
    __atomic_store_n(&r->shared->every_ns, every_of(src, r->speed), __ATOMIC_RELAXED);
    if (!r->cl.ended) {
        source_child_drain(&r->cl, src, r->cl.got_data ? 0 : FIRST_DATA_WAIT_MS);
        if (r->cl.ended)
            snprintf(src->status, sizeof(src->status), "the simulation stopped (%s)",
                     WIFEXITED(r->cl.status) && WEXITSTATUS(r->cl.status) == 0
                         ? "end of the scenario"
                         : "it failed");
    }
    /* the data stands at the newest round, however late it is */
    if (r->cl.newest_ns)
        *data_ns = r->cl.newest_ns;
    src->behind_ns = behind_of(r, now_ns);
    return r->cl.ended ? DCB_SOURCE_END : 0;
}

static void replay_close(struct dcb_source *src)
{
    struct replay_ctx *r = src->ctx;
    if (!r->fast)
        source_child_stop_and_wait(&r->cl);
    if (r->shared)
        munmap(r->shared, sizeof(*r->shared));
    scenario_free(&r->sc);
    free(r);
    src->ctx = NULL;
}

static const struct dcb_source_ops replay_ops = { replay_tick, NULL, replay_close };

/* Real time: simulated time 0 is now; two rounds a refresh (every tick finds a fresh one
 * whatever the phase), the interval shared with the child. */
static int start_child(struct dcb_source *src, struct replay_ctx *r, struct dcb_err *err)
{
    r->shared = mmap(NULL, sizeof(*r->shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                     -1, 0);
    if (r->shared == MAP_FAILED) {
        r->shared = NULL;
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory for the replay's shared page");
    }
    r->shared->every_ns = every_of(src, r->speed);
    r->start_ns = dcb_realtime_ns();
    if (source_child_start(&r->cl, run_child, r, err) < 0) {
        munmap(r->shared, sizeof(*r->shared));
        r->shared = NULL;
        return -1;
    }
    r->cl.rounds = true;
    return 0;
}

static void name_it(struct dcb_source *src, const struct source_replay_options *opt,
                    const struct replay_ctx *r)
{
    snprintf(src->name, sizeof(src->name), "replay %s%s",
             opt->scenario ? "" : "demo: ", opt->scenario ? opt->scenario : r->sc.name);
    size_t len = strlen(src->name);
    if (!opt->fast && opt->speed > 0 && opt->speed != 1)
        snprintf(src->name + len, sizeof(src->name) - len, " at %gx", opt->speed);
}

int dcb_source_replay_open(struct dcb_source *src, const struct source_replay_options *opt,
                           struct dcb_err *err)
{
    struct replay_ctx *r = calloc(1, sizeof(*r));
    if (!r)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    int rc = opt->scenario ? scenario_load_file(&r->sc, opt->scenario, opt->sets, opt->nsets, err)
                           : scenario_demo(&r->sc, opt->sets, opt->nsets, err);
    if (rc < 0) {
        free(r);
        return rc;
    }
    r->speed = opt->speed > 0 ? opt->speed : 1;
    r->fast = opt->fast;
    r->duration_ns = opt->duration_ns;
    r->start_ns = opt->start_ns;
    r->src = src;
    if (!r->fast && start_child(src, r, err) < 0) {
        scenario_free(&r->sc);
        free(r);
        return -1;
    }
    src->ops = &replay_ops;
    src->ctx = r;
    src->kind = SOURCE_REPLAY;
    src->finite = r->fast;
    if (!r->fast) {
        src->data_speed = r->speed;
        src->origin_ns = r->start_ns;
    }
    name_it(src, opt, r);
    if (!r->fast)
        source_fabric_intent(src, &r->sc.fabric, r->start_ns);
    return 0;
}
