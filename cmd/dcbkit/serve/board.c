/* The board: the /metrics page a collection round built last. Publishing swaps a pointer under
 * the mutex; a scrape takes a reference and sends the page without copying it, so scrapes never
 * wait for a collection and never see half a page. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gzip.h"
#include "serve.h"

void serve_board_init(struct serve_board *b, int64_t stale_after_ns)
{
    memset(b, 0, sizeof(*b));
    pthread_mutex_init(&b->mu, NULL);
    b->stale_after_ns = stale_after_ns;
}

static void page_unref(struct serve_page *p)
{
    if (p && --p->refs == 0) {
        free(p->data);
        free(p->gz);
        free(p);
    }
}

void serve_board_free(struct serve_board *b)
{
    page_unref(b->metrics);
    b->metrics = NULL;
    pthread_mutex_destroy(&b->mu);
}

void serve_board_publish(struct serve_board *b, struct prom_buf *buf, bool ok, int64_t now_ns,
                         const char *problem)
{
    struct serve_page *p = calloc(1, sizeof(*p));
    if (p) {
        p->data = buf->data;
        p->len = buf->len;
        p->refs = 1;
        prom_buf_init(buf);
        /* once per round, outside the lock: a scrape never compresses */
        if (dcb_gzip(p->data, p->len, &p->gz, &p->gz_len, NULL) < 0)
            p->gz = NULL;
    }
    pthread_mutex_lock(&b->mu);
    struct serve_page *old = NULL;
    if (p) {
        old = b->metrics;
        b->metrics = p;
    }
    if (ok)
        b->last_ok_ns = now_ns;
    snprintf(b->problem, sizeof(b->problem), "%s", problem ? problem : "");
    page_unref(old);
    pthread_mutex_unlock(&b->mu);
}

struct serve_page *serve_board_acquire(struct serve_board *b)
{
    pthread_mutex_lock(&b->mu);
    struct serve_page *p = b->metrics;
    if (p)
        p->refs++;
    pthread_mutex_unlock(&b->mu);
    return p;
}

void serve_board_release(struct serve_board *b, struct serve_page *p)
{
    pthread_mutex_lock(&b->mu);
    page_unref(p);
    pthread_mutex_unlock(&b->mu);
}

int serve_board_health(struct serve_board *b, int64_t now_ns, char *text, size_t len)
{
    pthread_mutex_lock(&b->mu);
    int status = 200;
    if (!b->last_ok_ns) {
        status = 503;
        snprintf(text, len, "not ready: no collection has succeeded yet%s%s\n",
                 b->problem[0] ? ": " : "", b->problem);
    } else if (now_ns - b->last_ok_ns > b->stale_after_ns) {
        status = 503;
        snprintf(text, len, "stale: the last good collection was %.1f s ago%s%s\n",
                 (double)(now_ns - b->last_ok_ns) / 1e9, b->problem[0] ? ": " : "", b->problem);
    } else {
        snprintf(text, len, "ok: last collection %.1f s ago\n",
                 (double)(now_ns - b->last_ok_ns) / 1e9);
    }
    pthread_mutex_unlock(&b->mu);
    return status;
}
