/* MAC Control (EtherType 0x8808): 802.3x PAUSE (opcode 0x0001) and 802.1Qbb PFC (0x0101). */
#include <string.h>

#include "decode.h"

#define MACCTL_OP_PAUSE 0x0001
#define MACCTL_OP_PFC 0x0101

static const uint8_t macctl_dst[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };

bool dcb_decode_macctl(struct dcb_reader *r, struct dcb_frame *f)
{
    f->macctl_opcode = rd_be16(r);
    if (!rd_ok(r))
        return dcb_malformed(f, "MAC Control opcode truncated", r);
    /* A Linux cooked header carries no destination address: nothing to flag then. */
    bool bad_dst = (f->layers & DCB_L_ETH) &&
                   memcmp(f->eth.dst, macctl_dst, sizeof(macctl_dst)) != 0;
    if (f->macctl_opcode == MACCTL_OP_PAUSE) {
        f->pause.quanta = rd_be16(r);
        if (!rd_ok(r))
            return dcb_malformed(f, "PAUSE quanta truncated", r);
        f->pause.bad_dst = bad_dst;
        f->layers |= DCB_L_PAUSE;
    } else if (f->macctl_opcode == MACCTL_OP_PFC) {
        struct dcb_pfc *p = &f->pfc;
        p->enable_vector = rd_be16(r);
        for (int prio = 0; prio < 8; prio++)
            p->quanta[prio] = rd_be16(r);
        if (!rd_ok(r))
            return dcb_malformed(f, "PFC truncated", r);
        p->bad_dst = bad_dst;
        p->reserved_bits = (p->enable_vector & 0xff00) != 0;
        f->layers |= DCB_L_PFC;
    } else {
        f->layers |= DCB_L_MACCTL;
    }
    return true;
}
