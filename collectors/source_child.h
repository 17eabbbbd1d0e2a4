/* A source whose producer blocks (the replay runner sleeps to pace simulated time; the gNMI
 * client waits on its sockets) runs in a child process and sends what it produces down a pipe
 * as records; dcbtop stays single-threaded and drains the pipe on each tick. */
#ifndef DCB_SOURCE_CHILD_H
#define DCB_SOURCE_CHILD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "fabric.h"
#include "qos_config.h"
#include "source.h"

struct source_child {
    pid_t pid;
    int fd;
    char buf[1 << 16];
    size_t used;
    bool got_data, ended;
    int64_t newest_ns; /* the newest sample's time so far (0: none yet) */
    int status;        /* the child's exit status once ended */
    /* Set after source_child_start for a child that ends each round of samples with
     * source_child_send_round_end (the replay's): samples wait for their round's end, so that
     * a drain in the middle of a round hands over none of it. */
    bool rounds;
    struct dcb_sample *held; /* rounds: the samples of the round not ended yet */
    size_t nheld, held_cap;
};

/* ---- in the child ------------------------------------------------------------------------ */

/* Set by SIGTERM (no SA_RESTART, so a blocked write returns) or a closed pipe. */
extern volatile sig_atomic_t source_child_stop;

void source_child_send_sample(int fd, const struct dcb_sample *s);
void source_child_send_event(int fd, const struct dcb_event *e);
/* The samples sent since the last round's end are all there are of their instant. */
void source_child_send_round_end(int fd);
void source_child_send_config(int fd, int64_t time_ns, const char *device, const char *ifname,
                              const char *source, const struct qos_config *c);
/* A config row as it is (topology, aliases). */
void source_child_send_row(int fd, const struct store_config_row *row);
/* A line for the status bar ("gnmi leaf1 (10.0.0.1:8080): connection refused; retrying"). */
void source_child_send_status(int fd, const char *text);

/* ---- in dcbtop ---------------------------------------------------------------------------- */

/* Forks; the child calls run(arg, fd) with the terminal closed to it, and exits with its
 * return value. */
int source_child_start(struct source_child *cl, int (*run)(void *arg, int fd), void *arg,
                       struct dcb_err *err);
/* Hands what arrived to the source's sink; waits up to wait_ms for the first data. */
void source_child_drain(struct source_child *cl, struct dcb_source *src, int wait_ms);
/* Also frees what the drains held. */
void source_child_stop_and_wait(struct source_child *cl);

/* A fabric's intent as config (each interface's, its link partner's, "peer:fabric", where it
 * sits, "topology") and links, into src's sink (source_fabric.c). */
void source_fabric_intent(struct dcb_source *src, const struct fabric *f, int64_t now_ns);

#endif
