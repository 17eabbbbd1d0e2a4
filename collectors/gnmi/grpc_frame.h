/* gRPC length-prefixed messages (grpc/grpc doc/PROTOCOL-HTTP2.md): each message is a 1-byte
 * compressed flag, a 4-byte big-endian length and the protobuf bytes. HTTP/2 DATA frames cut
 * messages anywhere, so the deframer takes bytes as they come and hands out whole messages.
 * A message longer than the limit is refused from its prefix, before anything is buffered. */
#ifndef DCB_GRPC_FRAME_H
#define DCB_GRPC_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define GRPC_PREFIX_LEN 5
#define GRPC_DEFAULT_MAX_MESSAGE (16u << 20)

/* Called for each whole message; a negative return stops the deframer with that code. */
typedef int (*grpc_message_fn)(const uint8_t *msg, size_t len, void *arg);

struct grpc_deframer {
    uint8_t prefix[GRPC_PREFIX_LEN];
    size_t prefix_got;
    uint8_t *buf;
    size_t want, got, cap;
    size_t max_message;
    uint64_t messages;
    int failed; /* the first error code; the deframer refuses more input */
};

void grpc_deframer_init(struct grpc_deframer *d, size_t max_message);
void grpc_deframer_free(struct grpc_deframer *d);
/* Feeds bytes; returns 0 or the first negative error (err says why). */
int grpc_deframer_feed(struct grpc_deframer *d, const uint8_t *data, size_t len, grpc_message_fn fn,
                       void *arg, struct dcb_err *err);
/* True when no message is half received (a stream may end here cleanly). */
int grpc_deframer_idle(const struct grpc_deframer *d);

/* Appends prefix + msg to a growing buffer; returns 0 or DCB_E_NOMEM. */
int grpc_frame_append(uint8_t **buf, size_t *len, size_t *cap, const uint8_t *msg, size_t msg_len);

#endif
