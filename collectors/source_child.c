#include "source_child.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grow.h"
#include "qos_json.h"
#include "units.h"

#define READ_MAX_PER_TICK (16u << 20)
#define TEXT_MAX 4096

/* A record: kind, payload length, payload. */
enum rec_kind { REC_SAMPLE = 1, REC_EVENT, REC_CONFIG, REC_STATUS, REC_ROUND_END };

struct rec_config {
    int64_t time_ns;
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX], source[32];
    /* the config's JSON text follows */
};

volatile sig_atomic_t source_child_stop;

static void on_term(int sig)
{
    (void)sig;
    source_child_stop = 1;
}

static void send_rec(int fd, uint32_t kind, const void *a, size_t alen, const void *b, size_t blen)
{
    char frame[2 * sizeof(uint32_t) + sizeof(struct dcb_event) + sizeof(struct rec_config) +
               TEXT_MAX];
    uint32_t len = (uint32_t)(alen + blen);
    if (len > sizeof(frame) - 2 * sizeof(uint32_t))
        return; /* a config beyond TEXT_MAX: not worth a screen */
    memcpy(frame, &kind, sizeof(kind));
    memcpy(frame + sizeof(kind), &len, sizeof(len));
    memcpy(frame + 2 * sizeof(uint32_t), a, alen);
    if (blen)
        memcpy(frame + 2 * sizeof(uint32_t) + alen, b, blen);
    const char *p = frame;
    size_t left = 2 * sizeof(uint32_t) + len;
    while (left && !source_child_stop) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            source_child_stop = 1; /* dcbtop is gone */
            return;
        }
        p += w;
        left -= (size_t)w;
    }
}

void source_child_send_sample(int fd, const struct dcb_sample *s)
{
    send_rec(fd, REC_SAMPLE, s, sizeof(*s), NULL, 0);
}

void source_child_send_event(int fd, const struct dcb_event *e)
{
    send_rec(fd, REC_EVENT, e, sizeof(*e), NULL, 0);
}

void source_child_send_round_end(int fd)
{
    uint32_t none = 0;
    send_rec(fd, REC_ROUND_END, &none, sizeof(none), NULL, 0);
}

void source_child_send_row(int fd, const struct store_config_row *row)
{
    struct rec_config rc;
    memset(&rc, 0, sizeof(rc));
    rc.time_ns = row->time_ns;
    snprintf(rc.device, sizeof(rc.device), "%s", row->device);
    snprintf(rc.ifname, sizeof(rc.ifname), "%s", row->ifname);
    snprintf(rc.source, sizeof(rc.source), "%s", row->source);
    send_rec(fd, REC_CONFIG, &rc, sizeof(rc), row->json, strlen(row->json) + 1);
}

void source_child_send_config(int fd, int64_t time_ns, const char *device, const char *ifname,
                              const char *source, const struct qos_config *c)
{
    cJSON *j = qos_to_json(c);
    char *text = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    if (!text)
        return;
    struct store_config_row row = { time_ns, device, ifname, source, text };
    source_child_send_row(fd, &row);
    free(text);
}

void source_child_send_status(int fd, const char *text)
{
    char t[DCB_SOURCE_STATUS_MAX];
    snprintf(t, sizeof(t), "%s", text);
    send_rec(fd, REC_STATUS, t, strlen(t) + 1, NULL, 0);
}

int source_child_start(struct source_child *cl, int (*run)(void *arg, int fd), void *arg,
                       struct dcb_err *err)
{
    memset(cl, 0, sizeof(*cl));
    cl->pid = -1;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0)
        return dcb_err_set(err, DCB_E_IO, "pipe: %s", strerror(errno));
    fcntl(fds[0], F_SETPIPE_SZ, 1 << 20); /* a few rounds of samples; best effort */
    fflush(NULL);
    cl->pid = fork();
    if (cl->pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return dcb_err_set(err, DCB_E_IO, "fork: %s", strerror(errno));
    }
    if (cl->pid == 0) {
        close(fds[0]);
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_term; /* no SA_RESTART: a blocked write returns */
        sigaction(SIGTERM, &sa, NULL);
        signal(SIGINT, SIG_IGN);
        signal(SIGPIPE, SIG_IGN);
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) { /* the terminal belongs to the screen */
            dup2(null, STDIN_FILENO);
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
            close(null);
        }
        _exit(run(arg, fds[1]) < 0 ? 1 : 0);
    }
    close(fds[1]);
    cl->fd = fds[0];
    fcntl(cl->fd, F_SETFL, fcntl(cl->fd, F_GETFL) | O_NONBLOCK);
    return 0;
}

static void deliver_sample(struct source_child *cl, struct dcb_source *src,
                           const struct dcb_sample *s)
{
    cl->got_data = true;
    if (s->time_ns > cl->newest_ns)
        cl->newest_ns = s->time_ns;
    src->sink.sample(src->sink.arg, s, 0);
}

static void deliver(struct source_child *cl, struct dcb_source *src, uint32_t kind, const char *p,
                    uint32_t len)
{
    if (kind == REC_SAMPLE && len == sizeof(struct dcb_sample)) {
        struct dcb_sample s;
        memcpy(&s, p, sizeof(s));
        if (!cl->rounds || (cl->nheld == cl->held_cap &&
                            dcb_grow(&cl->held, &cl->held_cap, sizeof(*cl->held), 1024) < 0))
            deliver_sample(cl, src, &s); /* out of memory: as it comes */
        else
            cl->held[cl->nheld++] = s;
    } else if (kind == REC_ROUND_END) {
        for (size_t k = 0; k < cl->nheld; k++)
            deliver_sample(cl, src, &cl->held[k]);
        cl->nheld = 0;
    } else if (kind == REC_EVENT && len == sizeof(struct dcb_event)) {
        struct dcb_event e;
        memcpy(&e, p, sizeof(e));
        e.details[sizeof(e.details) - 1] = '\0';
        src->sink.event(src->sink.arg, &e);
    } else if (kind == REC_CONFIG && len > sizeof(struct rec_config)) {
        struct rec_config rc;
        memcpy(&rc, p, sizeof(rc));
        rc.device[sizeof(rc.device) - 1] = rc.ifname[sizeof(rc.ifname) - 1] = '\0';
        rc.source[sizeof(rc.source) - 1] = '\0';
        char *text = malloc(len - sizeof(rc) + 1);
        if (!text)
            return;
        memcpy(text, p + sizeof(rc), len - sizeof(rc));
        text[len - sizeof(rc)] = '\0';
        struct store_config_row row = { rc.time_ns, rc.device, rc.ifname, rc.source, text };
        src->sink.config(src->sink.arg, &row);
        free(text);
    } else if (kind == REC_STATUS && len > 0) {
        snprintf(src->status, sizeof(src->status), "%.*s", (int)len - 1, p);
    }
}

void source_child_drain(struct source_child *cl, struct dcb_source *src, int wait_ms)
{
    size_t total = 0;
    if (cl->ended)
        return;
    /* the wait is for the whole call: status records (a target that does not answer) must not
     * restart it, or a tick would take as long as the child keeps saying it retries */
    int64_t deadline = dcb_monotonic_ns() + (int64_t)wait_ms * 1000000LL;
    for (;;) {
        if (wait_ms > 0 && !cl->got_data) {
            int64_t left_ms = (deadline - dcb_monotonic_ns()) / 1000000LL;
            struct pollfd p = { cl->fd, POLLIN, 0 };
            if (left_ms <= 0 || poll(&p, 1, (int)left_ms) <= 0)
                return;
        }
        ssize_t n = read(cl->fd, cl->buf + cl->used, sizeof(cl->buf) - cl->used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0) {
            cl->ended = true;
            waitpid(cl->pid, &cl->status, 0);
            cl->pid = -1;
            return;
        }
        if (n < 0)
            return; /* EAGAIN: all read */
        cl->used += (size_t)n;
        total += (size_t)n;
        size_t off = 0;
        while (cl->used - off >= 2 * sizeof(uint32_t)) {
            uint32_t kind, len;
            memcpy(&kind, cl->buf + off, sizeof(kind));
            memcpy(&len, cl->buf + off + sizeof(kind), sizeof(len));
            if (len > sizeof(cl->buf) - 2 * sizeof(uint32_t)) {
                cl->ended = true; /* cannot happen with our own child: stop reading */
                return;
            }
            if (cl->used - off < 2 * sizeof(uint32_t) + len)
                break;
            deliver(cl, src, kind, cl->buf + off + 2 * sizeof(uint32_t), len);
            off += 2 * sizeof(uint32_t) + len;
        }
        memmove(cl->buf, cl->buf + off, cl->used - off);
        cl->used -= off;
        if (total >= READ_MAX_PER_TICK)
            return;
    }
}

void source_child_stop_and_wait(struct source_child *cl)
{
    close(cl->fd); /* a child blocked writing gets EPIPE */
    if (cl->pid > 0) {
        kill(cl->pid, SIGTERM);
        waitpid(cl->pid, &cl->status, 0);
        cl->pid = -1;
    }
    free(cl->held);
    cl->held = NULL;
    cl->nheld = cl->held_cap = 0;
}
