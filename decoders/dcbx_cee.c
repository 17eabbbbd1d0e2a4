/* CEE DCBX v1.01 (OUI 00-1B-21 subtype 2) and its predecessor CIN (subtype 1), which Wireshark
 * reads with the same sub-TLV layout: Control, Priority Groups, PFC and Application, in any
 * order. */
#include <stdio.h>

#include "decode.h"

enum cee_subtlv {
    CEE_CONTROL = 1,
    CEE_PG = 2,
    CEE_PFC = 3,
    CEE_APP = 4,
};

#define CONTROL_LEN 10
#define FEATURE_HEADER_LEN 4
#define PG_LEN 17
#define PFC_LEN 6
#define APP_ENTRY_LEN 6

static void decode_feature_header(struct dcb_reader *r, struct dcb_cee_feature *h)
{
    h->oper_ver = rd_u8(r);
    h->max_ver = rd_u8(r);
    uint8_t flags = rd_u8(r);
    h->subtype = rd_u8(r);
    h->enabled = flags >> 7;
    h->willing = flags >> 6 & 1;
    h->error = flags >> 5 & 1;
    h->present = true;
}

static void decode_pg(struct dcb_reader *r, struct dcb_cee *c)
{
    decode_feature_header(r, &c->pg_hdr);
    dcb_read_nibbles8(r, c->pgid);
    dcb_read_bytes8(r, c->pg_bw);
    c->pg_num_tcs = rd_u8(r);
}

static void decode_app(struct dcb_reader *r, struct dcb_cee *c)
{
    decode_feature_header(r, &c->app_hdr);
    while (rd_remaining(r) >= APP_ENTRY_LEN) {
        uint16_t proto = rd_be16(r);
        uint8_t oui_sf = rd_u8(r);
        uint16_t oui_low = rd_be16(r);
        uint8_t prio_map = rd_u8(r);
        if (c->napp == DCB_MAX_CEE_APP)
            continue;
        struct dcb_cee_app *a = &c->app[c->napp++];
        a->proto = proto;
        a->sel = oui_sf & 3;
        a->oui = (uint32_t)(oui_sf & 0xfc) << 16 | oui_low;
        a->prio_map = prio_map;
    }
}

static bool decode_subtlv(unsigned type, struct dcb_reader *r, struct dcb_cee *c,
                          struct dcb_frame *f)
{
    size_t len = rd_remaining(r);
    switch (type) {
    case CEE_CONTROL:
        if (len != CONTROL_LEN)
            return dcb_malformed_len(f, "CEE Control sub-TLV", len, "10");
        c->oper_ver = rd_u8(r);
        c->max_ver = rd_u8(r);
        c->seq = rd_be32(r);
        c->ack = rd_be32(r);
        c->control = true;
        return true;
    case CEE_PG:
        if (len != PG_LEN)
            return dcb_malformed_len(f, "CEE Priority Groups sub-TLV", len, "17");
        decode_pg(r, c);
        return true;
    case CEE_PFC:
        if (len != PFC_LEN)
            return dcb_malformed_len(f, "CEE PFC sub-TLV", len, "6");
        decode_feature_header(r, &c->pfc_hdr);
        c->pfc_enable = rd_u8(r);
        c->pfc_num_tcs = rd_u8(r);
        return true;
    case CEE_APP:
        if (len < FEATURE_HEADER_LEN || (len - FEATURE_HEADER_LEN) % APP_ENTRY_LEN != 0)
            return dcb_malformed_len(f, "CEE Application sub-TLV", len, "4+6n");
        decode_app(r, c);
        return true;
    default: return true;
    }
}

bool dcb_decode_cee_dcbx(struct dcb_reader *body, uint8_t subtype, struct dcb_cee *c,
                         struct dcb_frame *f)
{
    if (subtype != 1 && subtype != 2)
        return true;
    c->present = true;
    c->flavour = subtype;
    struct dcb_reader sub;
    unsigned type;
    int more;
    while ((more = dcb_next_tlv(body, "CEE sub-TLV", &sub, &type, f)) > 0) {
        if (!decode_subtlv(type, &sub, c, f))
            return false;
    }
    return more == 0;
}
