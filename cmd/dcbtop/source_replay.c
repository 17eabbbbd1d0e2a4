/* --replay SCENARIO and --demo: the embedded simulator (rules/replay scenario runner) paced to
 * the wall clock. The runner sleeps between sample rounds, so it runs in a child process
 * (source_child.h). The child forwards two sample rounds per refresh interval (counters are
 * cumulative, so rates lose nothing) and a bounded number of events per second. The scenario's
 * fabric gives every interface its intended config and its link partner's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "scenario.h"
#include "source.h"
#include "source_child.h"
#include "top.h"

#define EVENTS_PER_SECOND 2000
#define FIRST_DATA_WAIT_MS 2000

struct replay_ctx {
    struct scenario sc;
    double speed;
    int64_t every_ns;
    struct child_link cl;
};

/* ---- the child ---------------------------------------------------------------------------- */

struct pacer {
    int fd;
    int64_t every_ns, next_ns, round_ns;
    bool send_round;
    int64_t second_ns;
    unsigned events_this_second;
};

static void child_sample(void *arg, const struct dcb_sample *s)
{
    struct pacer *c = arg;
    if (s->time_ns != c->round_ns) {
        c->round_ns = s->time_ns;
        c->send_round = s->time_ns >= c->next_ns;
        if (c->send_round)
            c->next_ns = s->time_ns + c->every_ns;
    }
    if (c->send_round)
        child_send_sample(c->fd, s);
}

static void child_event(void *arg, const struct dcb_event *e)
{
    struct pacer *c = arg;
    if (e->time_ns - c->second_ns >= 1000000000LL) {
        c->second_ns = e->time_ns;
        c->events_this_second = 0;
    }
    if (c->events_this_second++ < EVENTS_PER_SECOND)
        child_send_event(c->fd, e);
}

static int run_child(void *arg, int fd)
{
    struct replay_ctx *r = arg;
    struct pacer c = { .fd = fd, .every_ns = r->every_ns, .round_ns = -1 };
    struct replay_hooks hooks = { child_sample, child_event, NULL, &c };
    struct scenario_run_options ro = { .duration_ns = SCENARIO_FOREVER, .realtime = true,
                                       .speed = r->speed, .stop = &child_stop };
    struct scenario_result res;
    struct dcb_err err;
    int rc = scenario_run(&r->sc, &ro, &hooks, &res, &err);
    scenario_result_free(&res);
    return rc;
}

/* ---- dcbtop's side ------------------------------------------------------------------------ */

static int replay_tick(struct top_source *src, int64_t now_ns, int64_t *data_ns,
                       struct dcb_err *err)
{
    (void)err;
    struct replay_ctx *r = src->ctx;
    *data_ns = now_ns;
    if (r->cl.ended)
        return 0;
    child_drain(&r->cl, src, r->cl.got_data ? 0 : FIRST_DATA_WAIT_MS);
    if (r->cl.ended)
        snprintf(src->status, sizeof(src->status), "the simulation stopped (%s)",
                 WIFEXITED(r->cl.status) && WEXITSTATUS(r->cl.status) == 0
                     ? "end of the scenario" : "it failed");
    return 0;
}

static void replay_close(struct top_source *src)
{
    struct replay_ctx *r = src->ctx;
    child_stop_and_wait(&r->cl);
    scenario_free(&r->sc);
    free(r);
    src->ctx = NULL;
}

static const struct top_source_ops replay_ops = { replay_tick, NULL, replay_close };

int top_source_replay_open(struct top_source *src, const char *scenario, double speed,
                           struct dcb_err *err)
{
    struct replay_ctx *r = calloc(1, sizeof(*r));
    if (!r)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    int rc = scenario ? scenario_load_file(&r->sc, scenario, NULL, 0, err)
                      : scenario_demo(&r->sc, NULL, 0, err);
    if (rc < 0) {
        free(r);
        return rc;
    }
    r->speed = speed;
    /* two rounds per refresh, so that every tick finds a fresh one whatever the phase */
    r->every_ns = src->interval_ns / 2 < 50000000LL ? 50000000LL : src->interval_ns / 2;
    if (child_start(&r->cl, run_child, r, err) < 0) {
        scenario_free(&r->sc);
        free(r);
        return -1;
    }
    src->ops = &replay_ops;
    src->ctx = r;
    snprintf(src->name, sizeof(src->name), "replay %s%s", scenario ? "" : "demo: ",
             scenario ? scenario : r->sc.name);
    if (speed > 0 && speed != 1)
        snprintf(src->name + strlen(src->name), sizeof(src->name) - strlen(src->name),
                 " at %gx", speed);
    child_fabric_intent(src, &r->sc.fabric, top_now_ns());
    return 0;
}
