/* Ethernet II, and the up to two 802.1Q / 802.1ad tags after it (or after a Linux cooked
 * header). */
#include <string.h>

#include "decode.h"

static bool is_vlan_tpid(uint16_t type)
{
    return type == DCB_ETHERTYPE_VLAN || type == DCB_ETHERTYPE_QINQ;
}

bool dcb_decode_eth(struct dcb_reader *r, struct dcb_frame *f)
{
    struct dcb_eth *e = &f->eth;
    const uint8_t *addrs = rd_bytes(r, 12);
    e->type = e->outer_type = rd_be16(r);
    if (!rd_ok(r))
        return dcb_malformed(f, "Ethernet header truncated", r);
    memcpy(e->dst, addrs, 6);
    memcpy(e->src, addrs + 6, 6);
    f->layers |= DCB_L_ETH;
    return dcb_decode_vlan_tags(r, f);
}

bool dcb_decode_vlan_tags(struct dcb_reader *r, struct dcb_frame *f)
{
    struct dcb_eth *e = &f->eth;
    while (is_vlan_tpid(e->type)) {
        if (f->nvlan == DCB_MAX_VLAN)
            return dcb_malformed(f, "more than two VLAN tags", NULL);
        uint16_t tci = rd_be16(r);
        uint16_t next = rd_be16(r);
        if (!rd_ok(r))
            return dcb_malformed(f, "VLAN tag truncated", r);
        struct dcb_vlan_tag *t = &f->vlan[f->nvlan++];
        t->tpid = e->type;
        t->pcp = (uint8_t)(tci >> 13);
        t->dei = (uint8_t)(tci >> 12 & 1);
        t->vid = tci & 0x0fff;
        e->type = next;
        f->layers |= DCB_L_VLAN;
    }
    return true;
}
