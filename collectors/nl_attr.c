#include "nl_attr.h"

#include <linux/netlink.h>

int nl_attr_walk(struct dcb_reader *r, nl_attr_fn fn, void *arg)
{
    while (rd_remaining(r) >= 4) {
        size_t start = rd_offset(r);
        uint16_t len = rd_le16(r); /* netlink is host order; dcbkit builds for little-endian */
        uint16_t type = rd_le16(r) & NLA_TYPE_MASK;
        if (len < 4)
            return -1;
        struct dcb_reader payload;
        if (!rd_sub(r, (size_t)len - 4, &payload))
            return -1;
        int rc = fn(type, &payload, arg);
        if (rc)
            return rc;
        size_t aligned = NLA_ALIGN(len);
        size_t used = rd_offset(r) - start;
        if (aligned > used && !rd_skip(r, aligned - used))
            break; /* the last attribute may omit its padding */
    }
    return 0;
}
