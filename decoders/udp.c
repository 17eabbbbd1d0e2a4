/* UDP: ports and length; the reader is left at the UDP payload, cut to the stated length. */
#include "decode.h"

#define UDP_HEADER_LEN 8

bool dcb_decode_udp(struct dcb_reader *r, struct dcb_frame *f)
{
    struct dcb_udp *u = &f->udp;
    u->sport = rd_be16(r);
    u->dport = rd_be16(r);
    u->len = rd_be16(r);
    u->csum = rd_be16(r);
    if (!rd_ok(r))
        return dcb_malformed(f, "UDP header truncated", r);
    f->layers |= DCB_L_UDP;
    if (u->len < UDP_HEADER_LEN)
        return dcb_malformed(f, "UDP length below 8", NULL);
    if (u->len > f->ip.payload_len)
        return dcb_malformed(f, "UDP length past the end of the IP payload", NULL);
    size_t stated = u->len - UDP_HEADER_LEN;
    size_t have = rd_remaining(r);
    struct dcb_reader payload;
    rd_sub(r, stated < have ? stated : have, &payload);
    *r = payload;
    return true;
}
