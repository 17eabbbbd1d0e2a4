/* Slow clients cannot hold the exporter. libmicrohttpd 0.9.75 has an idle timeout, restarted by
 * every byte, and a connection limit past which new clients wait unanswered: 500 connections
 * each dripping a header byte every few seconds kept /metrics from answering. It does tell us
 * when a connection opens, when a request completes and when it closes, with the socket; so
 * this keeps, per connection, when its current request began, and
 *   - a watcher thread shuts down (shutdown(2), which libmicrohttpd then sees and closes) any
 *     connection whose request head and body have not arrived within the absolute deadline;
 *   - a connection arriving at the cap shuts down the oldest one that is not being answered,
 *     so a scraper gets in within one round of the watcher, whatever the attackers do.
 * A small accept loop of our own in front would do the same with more code and a second copy
 * of every byte; the notifications need neither. */
#include <microhttpd.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "http_guard.h"
#include "units.h"

struct guarded_conn {
    int fd;
    int64_t since_ns; /* when its current request began (or the previous ended) */
    bool used, answering, shut;
};

struct http_guard {
    pthread_mutex_t mu;
    pthread_t watcher;
    bool running, stop;
    struct guarded_conn *conns;
    size_t cap, active;
    unsigned limit;
    int64_t deadline_ns;
    uint64_t deadline_closed, evicted;
};

static void shut(struct guarded_conn *c)
{
    if (!c->shut)
        shutdown(c->fd, SHUT_RDWR);
    c->shut = true;
}

static void *watch(void *arg)
{
    struct http_guard *g = arg;
    for (;;) {
        dcb_sleep_ns(100 * NS_PER_MS, NULL);
        pthread_mutex_lock(&g->mu);
        if (g->stop) {
            pthread_mutex_unlock(&g->mu);
            return NULL;
        }
        int64_t now = dcb_monotonic_ns();
        for (size_t i = 0; i < g->cap; i++) {
            struct guarded_conn *c = &g->conns[i];
            if (c->used && !c->answering && !c->shut && now - c->since_ns > g->deadline_ns) {
                shut(c);
                g->deadline_closed++;
            }
        }
        pthread_mutex_unlock(&g->mu);
    }
}

struct http_guard *http_guard_new(unsigned limit, int64_t deadline_ns)
{
    struct http_guard *g = calloc(1, sizeof(*g));
    if (!g)
        return NULL;
    g->cap = (size_t)limit + 64; /* libmicrohttpd may accept a few more before it tells us */
    g->conns = calloc(g->cap, sizeof(*g->conns));
    g->limit = limit;
    g->deadline_ns = deadline_ns;
    pthread_mutex_init(&g->mu, NULL);
    if (!g->conns || pthread_create(&g->watcher, NULL, watch, g) != 0) {
        free(g->conns);
        pthread_mutex_destroy(&g->mu);
        free(g);
        return NULL;
    }
    g->running = true;
    return g;
}

void http_guard_free(struct http_guard *g)
{
    if (!g)
        return;
    pthread_mutex_lock(&g->mu);
    g->stop = true;
    pthread_mutex_unlock(&g->mu);
    if (g->running)
        pthread_join(g->watcher, NULL);
    pthread_mutex_destroy(&g->mu);
    free(g->conns);
    free(g);
}

/* The oldest connection not being answered, at the cap: closed so the newcomer is served. */
static void evict_oldest(struct http_guard *g, const struct guarded_conn *keep)
{
    struct guarded_conn *oldest = NULL;
    for (size_t i = 0; i < g->cap; i++) {
        struct guarded_conn *c = &g->conns[i];
        if (c->used && c != keep && !c->answering && !c->shut &&
            (!oldest || c->since_ns < oldest->since_ns))
            oldest = c;
    }
    if (oldest) {
        shut(oldest);
        g->evicted++;
    }
}

void http_guard_notify(void *cls, struct MHD_Connection *connection, void **socket_context,
                       enum MHD_ConnectionNotificationCode toe)
{
    struct http_guard *g = cls;
    pthread_mutex_lock(&g->mu);
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info =
            MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        struct guarded_conn *slot = NULL;
        for (size_t i = 0; i < g->cap && !slot; i++)
            if (!g->conns[i].used)
                slot = &g->conns[i];
        if (slot && info) {
            *slot = (struct guarded_conn){ .fd = info->connect_fd,
                                           .since_ns = dcb_monotonic_ns(),
                                           .used = true };
            g->active++;
            if (g->active > g->limit)
                evict_oldest(g, slot);
        }
        *socket_context = slot;
    } else if (toe == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context) {
        struct guarded_conn *c = *socket_context;
        c->used = false;
        g->active--;
        *socket_context = NULL;
    }
    pthread_mutex_unlock(&g->mu);
}

static struct guarded_conn *conn_of(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

void http_guard_answering(struct http_guard *g, struct MHD_Connection *connection)
{
    struct guarded_conn *c = conn_of(connection);
    if (!c)
        return;
    pthread_mutex_lock(&g->mu);
    c->answering = true;
    pthread_mutex_unlock(&g->mu);
}

void http_guard_completed(void *cls, struct MHD_Connection *connection, void **con_cls,
                          enum MHD_RequestTerminationCode toe)
{
    (void)con_cls;
    (void)toe;
    struct http_guard *g = cls;
    struct guarded_conn *c = conn_of(connection);
    if (!c)
        return;
    pthread_mutex_lock(&g->mu);
    c->answering = false; /* kept alive: the next request has its own deadline */
    c->since_ns = dcb_monotonic_ns();
    pthread_mutex_unlock(&g->mu);
}

void http_guard_counts(struct http_guard *g, uint64_t *deadline_closed, uint64_t *evicted)
{
    pthread_mutex_lock(&g->mu);
    *deadline_closed = g->deadline_closed;
    *evicted = g->evicted;
    pthread_mutex_unlock(&g->mu);
}
