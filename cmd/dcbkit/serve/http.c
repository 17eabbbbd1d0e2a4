/* The exporter's HTTP side on libmicrohttpd: one internal epoll thread serves every connection
 * (a slow client holds a socket, never a thread), with a cap on open connections (the oldest
 * one not being answered makes room for a newcomer), an absolute deadline for each request's
 * head and body (http_guard.c), an idle timeout, a per-connection memory limit that caps the
 * request line and headers (431 beyond it), GET and HEAD only (405 otherwise), and pages sent
 * from the board without a copy: gzipped when the client accepts it (the board compressed the
 * page once when it was published). */
#include <microhttpd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "http_guard.h"
#include "serve.h"
#include "units.h"

struct serve_http {
    struct MHD_Daemon *d;
    struct serve_board *board;
    struct http_guard *guard;
    unsigned port;
};

static const char index_page[] =
    "<html><head><title>dcbkit exporter</title></head><body><h1>dcbkit exporter</h1>"
    "<p><a href=\"/metrics\">/metrics</a> (Prometheus text format) "
    "&middot; <a href=\"/healthz\">/healthz</a></p></body></html>\n";

struct page_ref {
    struct serve_board *board;
    struct serve_page *page;
};

static void page_done(void *cls)
{
    struct page_ref *ref = cls;
    serve_board_release(ref->board, ref->page);
    free(ref);
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *type,
                             struct MHD_Response *r)
{
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
    enum MHD_Result ok = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result reply_text(struct MHD_Connection *c, unsigned status, const char *text)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)text,
                                                             MHD_RESPMEM_MUST_COPY);
    return reply(c, status, "text/plain; charset=utf-8", r);
}

static enum MHD_Result reply_metrics(struct serve_http *h, struct MHD_Connection *c)
{
    struct serve_page *p = serve_board_acquire(h->board);
    if (!p)
        return reply_text(c, MHD_HTTP_SERVICE_UNAVAILABLE,
                          "no metrics yet: the first collection has not finished\n");
    struct page_ref *ref = malloc(sizeof(*ref));
    if (!ref) {
        serve_board_release(h->board, p);
        return MHD_NO;
    }
    ref->board = h->board;
    ref->page = p;
    bool gz = p->gz &&
              prom_accepts_gzip(
                  MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING));
    struct MHD_Response *r = MHD_create_response_from_buffer_with_free_callback_cls(
        gz ? p->gz_len : p->len, gz ? p->gz : p->data, page_done, ref);
    if (!r) {
        page_done(ref);
        return MHD_NO;
    }
    if (gz)
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
    MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, MHD_HTTP_HEADER_ACCEPT_ENCODING);
    return reply(c, MHD_HTTP_OK, PROM_CONTENT_TYPE, r);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls)
{
    (void)version;
    (void)upload_data;
    static int headers_seen, body_seen;
    struct serve_http *h = cls;
    enum prom_route route = prom_route(method, url);
    if (route == PROM_ROUTE_BAD_METHOD) /* at once: its body is never read */
        return reply_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD\n");
    if (!*con_cls) {              /* the headers: answer on the last call, once the */
        *con_cls = &headers_seen; /* request is complete, so the connection stays open */
        return MHD_YES;
    }
    if (*upload_data_size) { /* a body on a GET: dropped, and refused at its end */
        *upload_data_size = 0;
        *con_cls = &body_seen;
        return MHD_YES;
    }
    http_guard_answering(h->guard, c); /* whole: the deadline is met */
    if (*con_cls == &body_seen)
        return reply_text(c, MHD_HTTP_BAD_REQUEST, "a request body is not accepted\n");
    switch (route) {
    case PROM_ROUTE_METRICS: return reply_metrics(h, c);
    case PROM_ROUTE_HEALTH: {
        char text[512];
        int status = serve_board_health(h->board, dcb_realtime_ns(), text, sizeof(text));
        return reply_text(c, (unsigned)status, text);
    }
    case PROM_ROUTE_INDEX: {
        struct MHD_Response *r = MHD_create_response_from_buffer(sizeof(index_page) - 1,
                                                                 (void *)index_page,
                                                                 MHD_RESPMEM_PERSISTENT);
        return reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", r);
    }
    case PROM_ROUTE_BAD_METHOD:
    case PROM_ROUTE_NOT_FOUND: break;
    }
    return reply_text(c, MHD_HTTP_NOT_FOUND, "not found: try /metrics or /healthz\n");
}

static void mhd_log(void *cls, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
    if (!cls)
        return;
    fputs("dcbkit: serve: ", stderr);
    vfprintf(stderr, fmt, ap);
}

int serve_http_start(struct serve_http **out, const struct serve_http_options *opt,
                     struct serve_board *board, struct dcb_err *err)
{
    *out = NULL;
    struct serve_http *h = calloc(1, sizeof(*h));
    if (!h)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    h->board = board;
    h->guard = http_guard_new(opt->max_connections, (int64_t)opt->deadline_s * NS_PER_SEC);
    if (!h->guard) {
        free(h);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    }
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG;
    if (opt->listen.addr.ss_family == AF_INET6)
        flags |= MHD_USE_IPv6;
    h->d = MHD_start_daemon(
        flags, 0, NULL, NULL, on_request, h, MHD_OPTION_EXTERNAL_LOGGER, mhd_log,
        opt->verbose ? (void *)h : NULL, MHD_OPTION_SOCK_ADDR,
        (const struct sockaddr *)&opt->listen.addr,
        /* a few over the cap: the newcomer is accepted, and the guard closes the oldest */
        MHD_OPTION_CONNECTION_LIMIT, opt->max_connections + 8, MHD_OPTION_NOTIFY_CONNECTION,
        http_guard_notify, h->guard, MHD_OPTION_NOTIFY_COMPLETED, http_guard_completed, h->guard,
        MHD_OPTION_CONNECTION_TIMEOUT, opt->timeout_s, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        opt->max_request_bytes, MHD_OPTION_LISTEN_BACKLOG_SIZE, opt->max_connections,
        MHD_OPTION_STRICT_FOR_CLIENT, 1, MHD_OPTION_END);
    if (!h->d) {
        http_guard_free(h->guard);
        free(h);
        return dcb_err_set(err, DCB_E_IO,
                           "cannot listen on %s (address in use, or not an "
                           "address of this host?)",
                           opt->listen.text);
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);
    h->port = info ? info->port : 0;
    *out = h;
    return 0;
}

unsigned serve_http_port(const struct serve_http *h)
{
    return h->port;
}

void serve_http_stop(struct serve_http *h)
{
    if (!h)
        return;
    MHD_stop_daemon(h->d);
    http_guard_free(h->guard);
    free(h);
}
