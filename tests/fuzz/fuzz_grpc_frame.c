/* libFuzzer: gRPC length-prefixed framing as it arrives from a target, cut into DATA chunks
 * anywhere. The first byte chooses the chunk size. Every message handed out is within the
 * limit, and a stream fed in one piece or in chunks gives the same messages. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grpc_frame.h"

#define LIMIT 4096

struct seen {
    size_t n;
    uint64_t sum;
};

static int on_msg(const uint8_t *msg, size_t len, void *arg)
{
    struct seen *s = arg;
    if (len > LIMIT)
        abort();
    s->n++;
    for (size_t i = 0; i < len; i++)
        s->sum = s->sum * 31 + msg[i];
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t chunk = (size_t)data[0] + 1;
    data++;
    size--;
    struct grpc_deframer whole, parts;
    struct seen a = { 0 }, b = { 0 };
    struct dcb_err err;
    grpc_deframer_init(&whole, LIMIT);
    grpc_deframer_init(&parts, LIMIT);
    int ra = grpc_deframer_feed(&whole, data, size, on_msg, &a, &err);
    int rb = 0;
    for (size_t off = 0; off < size && rb == 0; off += chunk) {
        size_t n = size - off < chunk ? size - off : chunk;
        rb = grpc_deframer_feed(&parts, data + off, n, on_msg, &b, &err);
    }
    if ((ra < 0) != (rb < 0) || a.n != b.n || a.sum != b.sum)
        abort();
    if (ra == 0 && grpc_deframer_idle(&whole) != grpc_deframer_idle(&parts))
        abort();
    grpc_deframer_free(&whole);
    grpc_deframer_free(&parts);
    return 0;
}
