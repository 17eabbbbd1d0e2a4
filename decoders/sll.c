/* Linux cooked capture headers, as `tcpdump -i any` writes them: SLL (link type 113, 16 bytes)
 * and SLL2 (link type 276, 20 bytes). They stand in for the Ethernet header: the sender's
 * address and the protocol (an EtherType), after which VLAN tags and the rest decode as usual. */
#include <string.h>

#include "decode.h"

static void set_sender(struct dcb_sll *s, uint16_t halen, const uint8_t *addr)
{
    s->has_src = halen == 6;
    if (s->has_src)
        memcpy(s->src, addr, 6);
}

bool dcb_decode_sll(struct dcb_reader *r, bool v2, struct dcb_frame *f)
{
    struct dcb_sll *s = &f->sll;
    uint16_t protocol, halen;
    const uint8_t *addr;
    if (v2) {
        protocol = rd_be16(r);
        rd_skip(r, 2); /* reserved */
        s->ifindex = rd_be32(r);
        s->hatype = rd_be16(r);
        s->pkttype = rd_u8(r);
        halen = rd_u8(r);
        addr = rd_bytes(r, 8);
    } else {
        s->ifindex = 0;
        s->pkttype = (uint8_t)rd_be16(r);
        s->hatype = rd_be16(r);
        halen = rd_be16(r);
        addr = rd_bytes(r, 8);
        protocol = rd_be16(r);
    }
    if (!rd_ok(r))
        return dcb_malformed(f, v2 ? "SLL2 header truncated" : "SLL header truncated", r);
    set_sender(s, halen, addr);
    s->v2 = v2;
    memset(&f->eth, 0, sizeof(f->eth));
    f->eth.type = f->eth.outer_type = protocol;
    f->layers |= DCB_L_SLL;
    return dcb_decode_vlan_tags(r, f);
}
