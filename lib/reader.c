#include "reader.h"

#include <stdio.h>

char *rd_describe_failure(const struct dcb_reader *r, char *buf, size_t len)
{
    if (!len)
        return buf;
    if (!r->failed)
        buf[0] = '\0';
    else if (r->fail_off > r->len)
        snprintf(buf, len, "needed %zu bytes at offset %zu, past the end (%zu)", r->fail_want,
                 r->fail_off, r->len);
    else
        snprintf(buf, len, "needed %zu byte%s at offset %zu, %zu left", r->fail_want,
                 r->fail_want == 1 ? "" : "s", r->fail_off, r->len - r->fail_off);
    return buf;
}
