#include "gzip.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <zlib.h>

int dcb_gzip(const void *in, size_t n, void **out, size_t *outlen, struct dcb_err *err)
{
    *out = NULL;
    *outlen = 0;
    if (n > UINT_MAX)
        return dcb_err_set(err, DCB_E_RANGE, "gzip: %zu bytes is more than one call takes", n);
    z_stream z = { 0 };
    /* 15 + 16: a gzip header and trailer around the deflate stream */
    if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return dcb_err_set(err, DCB_E_NOMEM, "gzip: %s", z.msg ? z.msg : "cannot start");
    uLong cap = deflateBound(&z, (uLong)n);
    unsigned char *buf = malloc(cap ? cap : 1);
    if (!buf) {
        deflateEnd(&z);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    }
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)n;
    z.next_out = buf;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, Z_FINISH); /* deflateBound: one call always finishes */
    size_t len = z.total_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END) {
        free(buf);
        return dcb_err_set(err, DCB_E_IO, "gzip: deflate ended with %d", rc);
    }
    *out = buf;
    *outlen = len;
    return 0;
}
