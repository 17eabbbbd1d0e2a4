/* gzip (RFC 1952) of a buffer in memory, on zlib: /metrics pages for scrapers that send
 * Accept-Encoding: gzip. */
#ifndef DCB_GZIP_H
#define DCB_GZIP_H

#include <stddef.h>

#include "err.h"

/* *out (malloc'd, the caller frees it) and *outlen: the gzip stream of in[0..n). 0, or
 * DCB_E_NOMEM / DCB_E_IO with err set. */
int dcb_gzip(const void *in, size_t n, void **out, size_t *outlen, struct dcb_err *err);

#endif
