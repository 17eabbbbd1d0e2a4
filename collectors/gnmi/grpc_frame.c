#include "grpc_frame.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

void grpc_deframer_init(struct grpc_deframer *d, size_t max_message)
{
    memset(d, 0, sizeof(*d));
    d->max_message = max_message ? max_message : GRPC_DEFAULT_MAX_MESSAGE;
}

void grpc_deframer_free(struct grpc_deframer *d)
{
    free(d->buf);
    d->buf = NULL;
    d->cap = 0;
}

int grpc_deframer_idle(const struct grpc_deframer *d)
{
    return d->prefix_got == 0 && !d->failed;
}

static int deliver(struct grpc_deframer *d, const uint8_t *msg, size_t len, grpc_message_fn fn,
                   void *arg, struct dcb_err *err)
{
    d->messages++;
    int rc = fn ? fn(msg, len, arg) : 0;
    if (rc < 0) {
        d->failed = rc;
        return dcb_err_set(err, rc, "gRPC message %" PRIu64 " (%zu bytes) could not be used",
                           d->messages, len);
    }
    d->prefix_got = 0;
    d->got = d->want = 0;
    return 0;
}

int grpc_deframer_feed(struct grpc_deframer *d, const uint8_t *data, size_t len, grpc_message_fn fn,
                       void *arg, struct dcb_err *err)
{
    if (d->failed)
        return dcb_err_set(err, d->failed, "gRPC stream already failed");
    struct dcb_reader r;
    rd_init(&r, data, len);
    while (rd_remaining(&r)) {
        if (d->prefix_got < GRPC_PREFIX_LEN) {
            size_t n = GRPC_PREFIX_LEN - d->prefix_got;
            if (n > rd_remaining(&r))
                n = rd_remaining(&r);
            memcpy(d->prefix + d->prefix_got, rd_bytes(&r, n), n);
            d->prefix_got += n;
            if (d->prefix_got < GRPC_PREFIX_LEN)
                break;
            struct dcb_reader p;
            rd_init(&p, d->prefix, sizeof(d->prefix));
            uint8_t flag = rd_u8(&p);
            uint32_t mlen = rd_be32(&p);
            if (flag > 1) {
                d->failed = DCB_E_INVAL;
                return dcb_err_set(err, DCB_E_INVAL,
                                   "malformed gRPC message prefix (flag byte 0x%02x)", flag);
            }
            if (flag == 1) {
                d->failed = DCB_E_UNSUPP;
                return dcb_err_set(err, DCB_E_UNSUPP,
                                   "compressed gRPC message, but no compression was offered");
            }
            if (mlen > d->max_message) {
                d->failed = DCB_E_RANGE;
                return dcb_err_set(err, DCB_E_RANGE,
                                   "gRPC message of %u bytes is over the %zu-byte limit", mlen,
                                   d->max_message);
            }
            d->want = mlen;
            d->got = 0;
            /* The whole message is in this chunk: hand it out without copying. */
            if (rd_has(&r, mlen)) {
                int rc = deliver(d, rd_bytes(&r, mlen), mlen, fn, arg, err);
                if (rc < 0)
                    return rc;
                continue;
            }
            if (d->cap < mlen) {
                uint8_t *nb = realloc(d->buf, mlen);
                if (!nb) {
                    d->failed = DCB_E_NOMEM;
                    return dcb_err_set(err, DCB_E_NOMEM, "out of memory for a %u-byte message",
                                       mlen);
                }
                d->buf = nb;
                d->cap = mlen;
            }
        }
        size_t n = d->want - d->got;
        if (n > rd_remaining(&r))
            n = rd_remaining(&r);
        if (n)
            memcpy(d->buf + d->got, rd_bytes(&r, n), n);
        d->got += n;
        if (d->got == d->want) {
            int rc = deliver(d, d->buf, d->want, fn, arg, err);
            if (rc < 0)
                return rc;
        }
    }
    return 0;
}

int grpc_frame_append(uint8_t **buf, size_t *len, size_t *cap, const uint8_t *msg, size_t msg_len)
{
    if (msg_len > UINT32_MAX)
        return DCB_E_RANGE;
    size_t need = *len + GRPC_PREFIX_LEN + msg_len;
    if (need > *cap) {
        size_t ncap = *cap ? *cap * 2 : 256;
        while (ncap < need)
            ncap *= 2;
        uint8_t *nb = realloc(*buf, ncap);
        if (!nb)
            return DCB_E_NOMEM;
        *buf = nb;
        *cap = ncap;
    }
    uint8_t *p = *buf + *len;
    p[0] = 0;
    p[1] = (uint8_t)(msg_len >> 24);
    p[2] = (uint8_t)(msg_len >> 16);
    p[3] = (uint8_t)(msg_len >> 8);
    p[4] = (uint8_t)msg_len;
    if (msg_len)
        memcpy(p + GRPC_PREFIX_LEN, msg, msg_len);
    *len = need;
    return 0;
}
