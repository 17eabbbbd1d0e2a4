/* --replay SCENARIO and --demo: the embedded simulator (rules/replay scenario runner) paced to
 * the wall clock. The runner is a blocking loop that sleeps between sample rounds, so it runs in
 * a child process and sends its samples and events down a pipe; dcbtop stays single-threaded
 * and drains the pipe on each tick. The child forwards one sample round per refresh interval
 * (counters are cumulative, so rates lose nothing) and a bounded number of events per second.
 * The scenario's fabric gives every interface its intended config and its link partner's. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "qos_json.h"
#include "scenario.h"
#include "source.h"
#include "top.h"

#define EVENTS_PER_SECOND 2000
#define READ_MAX_PER_TICK (16u << 20)
#define FIRST_DATA_WAIT_MS 2000

enum rec_kind { REC_SAMPLE = 1, REC_EVENT = 2 };

struct rec {
    uint32_t kind;
    union {
        struct dcb_sample s;
        struct dcb_event e;
    } u;
};

struct replay_ctx {
    struct top_source *src;
    struct scenario sc;
    pid_t pid;
    int fd;
    char buf[1 << 16];
    size_t used;
    bool got_data, ended;
};

/* ---- the child ---------------------------------------------------------------------------- */

static volatile sig_atomic_t child_stop;

static void on_term(int sig)
{
    (void)sig;
    child_stop = 1;
}

struct child {
    int fd;
    int64_t every_ns, next_ns, round_ns;
    bool send_round;
    int64_t second_ns;
    unsigned events_this_second;
};

static void send_rec(struct child *c, uint32_t kind, const void *payload, size_t len)
{
    char frame[sizeof(uint32_t) + sizeof(struct dcb_event) + sizeof(struct dcb_sample)];
    memcpy(frame, &kind, sizeof(kind));
    memcpy(frame + sizeof(kind), payload, len);
    const char *p = frame;
    size_t left = sizeof(kind) + len;
    while (left && !child_stop) {
        ssize_t w = write(c->fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            child_stop = 1;          /* dcbtop is gone */
            return;
        }
        p += w;
        left -= (size_t)w;
    }
}

static void child_sample(void *arg, const struct dcb_sample *s)
{
    struct child *c = arg;
    if (s->time_ns != c->round_ns) {
        c->round_ns = s->time_ns;
        c->send_round = s->time_ns >= c->next_ns;
        if (c->send_round)
            c->next_ns = s->time_ns + c->every_ns;
    }
    if (c->send_round)
        send_rec(c, REC_SAMPLE, s, sizeof(*s));
}

static void child_event(void *arg, const struct dcb_event *e)
{
    struct child *c = arg;
    if (e->time_ns - c->second_ns >= 1000000000LL) {
        c->second_ns = e->time_ns;
        c->events_this_second = 0;
    }
    if (c->events_this_second++ < EVENTS_PER_SECOND)
        send_rec(c, REC_EVENT, e, sizeof(*e));
}

static void run_child(const struct scenario *sc, int fd, int64_t every_ns, double speed)
{
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_term;         /* no SA_RESTART: a blocked write returns */
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGINT, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {                 /* the terminal belongs to the screen */
        dup2(null, STDIN_FILENO);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        close(null);
    }
    struct child c = { .fd = fd, .every_ns = every_ns, .round_ns = -1 };
    struct replay_hooks hooks = { child_sample, child_event, NULL, &c };
    struct scenario_run_options ro = { .duration_ns = SCENARIO_FOREVER, .realtime = true,
                                       .speed = speed, .stop = &child_stop };
    struct scenario_result res;
    struct dcb_err err;
    int rc = scenario_run(sc, &ro, &hooks, &res, &err);
    scenario_result_free(&res);
    _exit(rc < 0 ? 1 : 0);
}

/* ---- dcbtop's side ------------------------------------------------------------------------ */

static void put_config(struct top_source *src, const char *device, const char *ifname,
                       const char *source, const struct qos_config *c)
{
    cJSON *j = qos_to_json(c);
    char *text = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    if (!text)
        return;
    struct store_config_row row = { top_now_ns(), device, ifname, source, text };
    src->sink.config(src->sink.arg, &row);
    free(text);
}

struct each_iface {
    struct top_source *src;
    const struct fabric *f;
    const struct fabric_device *d;
};

static void intent_of(const char *ifname, void *arg)
{
    struct each_iface *e = arg;
    struct qos_config c, peer;
    struct dcb_err err;
    if (fabric_effective_config(e->f, e->d->name, ifname, &c, &err) < 0)
        return;
    put_config(e->src, e->d->name, ifname, "fabric", &c);
    const struct fabric_end *other = NULL;
    if (!fabric_find_link(e->f, e->d->name, ifname, &other) || !other)
        return;
    if (fabric_effective_config(e->f, other->device, other->ifname, &peer, &err) == 0)
        put_config(e->src, e->d->name, ifname, "peer:fabric", &peer);
    if (e->src->sink.link)
        e->src->sink.link(e->src->sink.arg, e->d->name, ifname, other->device, other->ifname,
                          "fabric");
}

static void drain(struct replay_ctx *r, int wait_ms)
{
    size_t total = 0;
    for (;;) {
        if (wait_ms > 0 && !r->got_data) {
            struct pollfd p = { r->fd, POLLIN, 0 };
            if (poll(&p, 1, wait_ms) <= 0)
                return;
        }
        ssize_t n = read(r->fd, r->buf + r->used, sizeof(r->buf) - r->used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0) {
            r->ended = true;
            return;
        }
        if (n < 0)
            return;                  /* EAGAIN: all read */
        r->used += (size_t)n;
        total += (size_t)n;
        size_t off = 0;
        while (r->used - off >= sizeof(uint32_t)) {
            struct rec rec;
            memcpy(&rec.kind, r->buf + off, sizeof(rec.kind));
            size_t len = rec.kind == REC_SAMPLE ? sizeof(rec.u.s) : sizeof(rec.u.e);
            if (r->used - off < sizeof(rec.kind) + len)
                break;
            memcpy(&rec.u, r->buf + off + sizeof(rec.kind), len);
            off += sizeof(rec.kind) + len;
            if (rec.kind == REC_SAMPLE) {
                r->got_data = true;
                r->src->sink.sample(r->src->sink.arg, &rec.u.s, 0);
            } else if (rec.kind == REC_EVENT) {
                r->src->sink.event(r->src->sink.arg, &rec.u.e);
            }
        }
        memmove(r->buf, r->buf + off, r->used - off);
        r->used -= off;
        if (total >= READ_MAX_PER_TICK)
            return;
    }
}

static int replay_tick(struct top_source *src, int64_t now_ns, int64_t *data_ns,
                       struct dcb_err *err)
{
    (void)err;
    struct replay_ctx *r = src->ctx;
    *data_ns = now_ns;
    if (r->ended)
        return 0;
    drain(r, r->got_data ? 0 : FIRST_DATA_WAIT_MS);
    if (r->ended) {
        int status = 0;
        waitpid(r->pid, &status, 0);
        r->pid = -1;
        snprintf(src->status, sizeof(src->status), "the simulation stopped (%s)",
                 WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "end of the scenario"
                                                               : "it failed");
    }
    return 0;
}

static void replay_close(struct top_source *src)
{
    struct replay_ctx *r = src->ctx;
    close(r->fd);                    /* a child blocked writing gets EPIPE */
    if (r->pid > 0) {
        kill(r->pid, SIGTERM);
        waitpid(r->pid, NULL, 0);
    }
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
    r->src = src;
    int rc = scenario ? scenario_load_file(&r->sc, scenario, NULL, 0, err)
                      : scenario_demo(&r->sc, NULL, 0, err);
    if (rc < 0) {
        free(r);
        return rc;
    }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0) {
        scenario_free(&r->sc);
        free(r);
        return dcb_err_set(err, DCB_E_IO, "pipe: %s", strerror(errno));
    }
    fcntl(fds[0], F_SETPIPE_SZ, 1 << 20);     /* a few rounds of samples; best effort */
    /* two rounds per refresh, so that every tick finds a fresh one whatever the phase */
    int64_t every = src->interval_ns / 2 < 50000000LL ? 50000000LL : src->interval_ns / 2;
    fflush(NULL);
    r->pid = fork();
    if (r->pid < 0) {
        close(fds[0]);
        close(fds[1]);
        scenario_free(&r->sc);
        free(r);
        return dcb_err_set(err, DCB_E_IO, "fork: %s", strerror(errno));
    }
    if (r->pid == 0) {
        close(fds[0]);
        run_child(&r->sc, fds[1], every, speed);
    }
    close(fds[1]);
    r->fd = fds[0];
    fcntl(r->fd, F_SETFL, fcntl(r->fd, F_GETFL) | O_NONBLOCK);
    src->ops = &replay_ops;
    src->ctx = r;
    snprintf(src->name, sizeof(src->name), "replay %s%s", scenario ? "" : "demo: ",
             scenario ? scenario : r->sc.name);
    if (speed > 0 && speed != 1)
        snprintf(src->name + strlen(src->name), sizeof(src->name) - strlen(src->name),
                 " at %gx", speed);
    for (size_t d = 0; d < r->sc.fabric.ndevices; d++) {
        struct each_iface e = { src, &r->sc.fabric, &r->sc.fabric.devices[d] };
        fabric_each_iface(&r->sc.fabric, e.d, intent_of, &e);
    }
    return 0;
}
