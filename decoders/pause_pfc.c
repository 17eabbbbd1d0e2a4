/* MAC Control (EtherType 0x8808): PAUSE (IEEE 802.3 Annex 31B, opcode 0x0001) and PFC
 * (Annex 31D and IEEE 802.1Q clause 36, opcode 0x0101); docs/rules-references.md#pause #qbb.
 *
 * The MAC Control payload after the EtherType, 46 bytes before the FCS:
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     opcode 0x0001 (PAUSE)     |       pause time (quanta)     |  42 bytes of zero follow
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |      opcode 0x0101 (PFC)      |  reserved (0) |e7 e6 ... e1 e0|
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |        time[0] (quanta)       |        time[1] (quanta)       |
 * |        time[2]                |        time[3]                |
 * |        time[4]                |        time[5]                |
 * |        time[6]                |        time[7]                |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+  26 bytes of zero follow
 *
 * One quantum is 512 bit times at the link's speed. e[n] set makes time[n] apply to priority
 * n; e[n] set with time[n] 0 resumes it (XON). The destination is normally 01-80-C2-00-00-01. */
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
