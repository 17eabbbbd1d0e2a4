/* Absolute request deadlines and a connection cap for the exporter's libmicrohttpd daemon
 * (http_guard.c says why and how). */
#ifndef DCB_SERVE_HTTP_GUARD_H
#define DCB_SERVE_HTTP_GUARD_H

#include <microhttpd.h>
#include <stdint.h>

struct http_guard;

/* At most limit connections (the oldest not being answered is closed for a newcomer), and a
 * request's head and body must arrive within deadline_ns of its start. NULL: out of memory. */
struct http_guard *http_guard_new(unsigned limit, int64_t deadline_ns);
void http_guard_free(struct http_guard *g);
/* MHD_OPTION_NOTIFY_CONNECTION and MHD_OPTION_NOTIFY_COMPLETED, with the guard as cls. */
void http_guard_notify(void *cls, struct MHD_Connection *connection, void **socket_context,
                       enum MHD_ConnectionNotificationCode toe);
void http_guard_completed(void *cls, struct MHD_Connection *connection, void **con_cls,
                          enum MHD_RequestTerminationCode toe);
/* The request is whole and is being answered: no deadline while the answer goes out. */
void http_guard_answering(struct http_guard *g, struct MHD_Connection *connection);
void http_guard_counts(struct http_guard *g, uint64_t *deadline_closed, uint64_t *evicted);

#endif
