/* IEEE 802.1Qaz DCBX TLVs (OUI 00-80-C2): ETS Configuration and Recommendation, PFC
 * Configuration, Application Priority, and the 802.1Qau Congestion Notification TLV.
 * IEEE 802.1Q clause 38 (DCBX) and Annex D; docs/rules-references.md#qaz #lldp.
 *
 * Each is an LLDP organizationally specific TLV; the lengths below count the OUI and subtype:
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | type 127    |   length (9)    |         OUI 00-80-C2          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  OUI (cont.)  |    subtype    |  information ...
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 */
#include <stdio.h>

#include "decode.h"

enum ieee_subtype {
    IEEE_CN = 8,
    IEEE_ETS_CFG = 9,
    IEEE_ETS_REC = 10,
    IEEE_PFC = 11,
    IEEE_APP = 12,
};

/* TLV info length, OUI and subtype included. */
#define ETS_TLV_LEN 25
#define PFC_TLV_LEN 6
#define CN_TLV_LEN 6
#define APP_TLV_MIN 5
#define ORG_HEADER_LEN 4

/* ETS Configuration (subtype 9) and ETS Recommendation (subtype 10), length 25:
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |W|C| res |MaxTC|prio 0 |prio 1 |prio 2 |prio 3 |prio 4 |prio 5 |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |prio 6 |prio 7 |  bandwidth % of TC 0, TC 1, TC 2 ...
 * +-+-+-+-+-+-+-+-+  ... 8 bytes, then the TSA of TC 0 .. TC 7, 8 bytes:
 *                    0 strict priority, 1 credit-based shaper, 2 ETS, 255 vendor specific
 *
 * prio n: the traffic class of priority n, 4 bits. W willing, C credit-based shaper supported,
 * MaxTC the number of traffic classes (0 means 8); in the Recommendation that byte is reserved.
 * The ETS shares sum to 100. */
static bool decode_ets(struct dcb_reader *body, bool config, struct dcb_ets *e, struct dcb_frame *f)
{
    size_t len = rd_remaining(body) + ORG_HEADER_LEN;
    if (len != ETS_TLV_LEN)
        return dcb_malformed_len(f,
                                 config ? "IEEE ETS Configuration TLV"
                                        : "IEEE ETS Recommendation TLV",
                                 len, "25");
    uint8_t flags = rd_u8(body);
    e->willing = config ? flags >> 7 : 0;
    e->cbs = config ? flags >> 6 & 1 : 0;
    e->max_tcs = config ? ((flags & 7) ? flags & 7 : 8) : 0;
    dcb_read_nibbles8(body, e->prio_tc);
    dcb_read_bytes8(body, e->tc_bw);
    dcb_read_bytes8(body, e->tsa);
    e->present = true;
    return true;
}

/* Application Priority (subtype 12), length 5 + 3n: one reserved byte, then n entries:
 *
 *  0                   1                   2
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Prio|res| Sel |          Protocol ID          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * Sel 1 EtherType, 2 TCP/SCTP port, 3 UDP/DCCP port, 4 any of those ports, 5 DSCP (802.1Qcd).
 * RoCEv2 is usually Sel 3, UDP 4791, or Sel 5 with its DSCP. */
static bool decode_app(struct dcb_reader *body, struct dcb_lldp *l, struct dcb_frame *f)
{
    size_t len = rd_remaining(body) + ORG_HEADER_LEN;
    if (len < APP_TLV_MIN || (len - APP_TLV_MIN) % 3 != 0)
        return dcb_malformed_len(f, "IEEE Application Priority TLV", len, "5+3n");
    rd_skip(body, 1);
    l->has_app = true;
    while (rd_remaining(body) >= 3) {
        uint8_t first = rd_u8(body);
        uint16_t proto = rd_be16(body);
        if (l->napp == DCB_MAX_IEEE_APP)
            continue;
        struct dcb_ieee_app *a = &l->app[l->napp++];
        a->prio = first >> 5;
        a->sel = first & 7;
        a->proto = proto;
    }
    return true;
}

/* PFC Configuration (subtype 11), length 6:
 *
 *  0                   1
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |W|M|res|  cap  |e7 e6 ... e1 e0|
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * W willing, M MACsec bypass capable, cap the number of priorities that can have PFC at once,
 * e[n] PFC enabled on priority n. */
bool dcb_decode_ieee_dcbx(struct dcb_reader *body, uint8_t subtype, struct dcb_lldp *l,
                          struct dcb_frame *f)
{
    size_t len = rd_remaining(body) + ORG_HEADER_LEN;
    switch (subtype) {
    case IEEE_ETS_CFG: return decode_ets(body, true, &l->ets_cfg, f);
    case IEEE_ETS_REC: return decode_ets(body, false, &l->ets_rec, f);
    case IEEE_PFC: {
        if (len != PFC_TLV_LEN)
            return dcb_malformed_len(f, "IEEE PFC Configuration TLV", len, "6");
        uint8_t flags = rd_u8(body);
        l->pfc.willing = flags >> 7;
        l->pfc.mbc = flags >> 6 & 1;
        l->pfc.cap = flags & 0x0f;
        l->pfc.enable = rd_u8(body);
        l->pfc.present = true;
        return true;
    }
    case IEEE_APP: return decode_app(body, l, f);
    case IEEE_CN:
        if (len != CN_TLV_LEN)
            return dcb_malformed_len(f, "IEEE Congestion Notification TLV", len, "6");
        l->cn.cnpv = rd_u8(body);
        l->cn.ready = rd_u8(body);
        l->cn.present = true;
        return true;
    default: return true;
    }
}
