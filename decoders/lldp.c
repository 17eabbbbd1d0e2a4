/* LLDP (802.1AB): the TLV walk, the basic TLVs, and org TLVs handed to the DCBX decoders. */
#include <stdio.h>
#include <string.h>

#include "decode.h"

enum lldp_tlv {
    TLV_END = 0,
    TLV_CHASSIS_ID = 1,
    TLV_PORT_ID = 2,
    TLV_TTL = 3,
    TLV_PORT_DESC = 4,
    TLV_SYSNAME = 5,
    TLV_MGMT_ADDR = 8,
    TLV_ORG = 127,
};

#define OUI_IEEE_8021 0x0080c2u
#define OUI_CEE 0x001b21u

static struct dcb_bytes take_rest(struct dcb_reader *body)
{
    struct dcb_bytes b;
    b.len = (uint16_t)rd_remaining(body);
    b.ptr = rd_bytes(body, b.len);
    return b;
}

static bool tlv_too_short(struct dcb_frame *f, const char *name, unsigned len)
{
    char why[64];
    snprintf(why, sizeof(why), "LLDP %s TLV length %u is too short", name, len);
    return dcb_malformed(f, why, NULL);
}

/* Chassis and port IDs: a subtype byte, then at least one byte of ID. */
static bool decode_id(struct dcb_reader *body, unsigned len, const char *name, uint8_t *subtype,
                      struct dcb_bytes *id, struct dcb_frame *f)
{
    if (len < 2)
        return tlv_too_short(f, name, len);
    *subtype = rd_u8(body);
    *id = take_rest(body);
    return true;
}

static bool decode_mgmt_addr(struct dcb_reader *body, unsigned len, struct dcb_lldp *l,
                             struct dcb_frame *f)
{
    uint8_t addr_len = rd_u8(body); /* counts the subtype byte */
    if (len < 2)
        return tlv_too_short(f, "management address", len);
    if (addr_len < 2 || addr_len > 32)
        return dcb_malformed_len(f, "LLDP management address", addr_len, "2 to 32");
    l->mgmt_subtype = rd_u8(body);
    l->mgmt_addr.len = (uint16_t)(addr_len - 1);
    l->mgmt_addr.ptr = rd_bytes(body, l->mgmt_addr.len);
    if (!rd_ok(body))
        return dcb_malformed(f, "LLDP management address past its TLV", body);
    return true;
}

static bool decode_org(struct dcb_reader *body, unsigned len, struct dcb_lldp *l,
                       struct dcb_frame *f)
{
    if (len < 4)
        return tlv_too_short(f, "organisation-specific", len);
    uint32_t oui = rd_be24(body);
    uint8_t subtype = rd_u8(body);
    if (oui == OUI_IEEE_8021)
        return dcb_decode_ieee_dcbx(body, subtype, l, f);
    if (oui == OUI_CEE)
        return dcb_decode_cee_dcbx(body, subtype, &l->cee, f);
    return true;
}

static bool decode_tlv(unsigned type, unsigned len, struct dcb_reader *body, struct dcb_frame *f)
{
    struct dcb_lldp *l = &f->lldp;
    switch (type) {
    case TLV_CHASSIS_ID:
        return decode_id(body, len, "chassis ID", &l->chassis_subtype, &l->chassis_id, f);
    case TLV_PORT_ID: return decode_id(body, len, "port ID", &l->port_subtype, &l->port_id, f);
    case TLV_TTL:
        if (len < 2)
            return tlv_too_short(f, "TTL", len);
        l->ttl = rd_be16(body);
        l->has_ttl = true;
        return true;
    case TLV_PORT_DESC: l->port_desc = take_rest(body); return true;
    case TLV_SYSNAME: l->sysname = take_rest(body); return true;
    case TLV_MGMT_ADDR: return decode_mgmt_addr(body, len, l, f);
    case TLV_ORG: return decode_org(body, len, l, f);
    default: return true;
    }
}

/* 802.1AB allows one Chassis ID, Port ID and TTL per LLDPDU, and 802.1Qaz one of each DCBX TLV
 * (CEE one DCBX TLV): a repeat makes the frame malformed and it is not decoded further, so a
 * spoofed trailing TLV never replaces the first (lldpd discards such a frame too). The bit of
 * a TLV that must not repeat: 0..2 the mandatory ones, 3..7 IEEE subtypes 8..12, 8 CEE; -1
 * for one that may repeat. */
static int single_tlv_bit(unsigned type, const struct dcb_reader *body, const char **name)
{
    static const char *const mandatory[] = { "Chassis ID", "Port ID", "TTL" };
    static const char *const ieee[] = { "IEEE Congestion Notification", "IEEE ETS Configuration",
                                        "IEEE ETS Recommendation", "IEEE PFC Configuration",
                                        "IEEE Application Priority" };
    if (type >= TLV_CHASSIS_ID && type <= TLV_TTL) {
        *name = mandatory[type - TLV_CHASSIS_ID];
        return (int)(type - TLV_CHASSIS_ID);
    }
    if (type != TLV_ORG || rd_remaining(body) < 4)
        return -1;
    struct dcb_reader peek = *body;
    uint32_t oui = rd_be24(&peek);
    uint8_t subtype = rd_u8(&peek);
    if (oui == OUI_IEEE_8021 && subtype >= 8 && subtype <= 12) {
        *name = ieee[subtype - 8];
        return 3 + (subtype - 8);
    }
    if (oui == OUI_CEE && (subtype == 1 || subtype == 2)) {
        *name = "CEE DCBX";
        return 8;
    }
    return -1;
}

bool dcb_decode_lldp(struct dcb_reader *r, struct dcb_frame *f)
{
    unsigned seen = 0;
    memset(&f->lldp, 0, sizeof(f->lldp));
    f->layers |= DCB_L_LLDP;
    struct dcb_reader body;
    unsigned type, index = 0;
    int more;
    while ((more = dcb_next_tlv(r, "LLDP TLV", &body, &type, f)) > 0) {
        if (type == TLV_END)
            break;
        /* 802.1AB: an LLDPDU starts with Chassis ID, Port ID and TTL, in that order. The
         * rest is still decoded; the frame is reported malformed at the end. */
        if (index < TLV_TTL && type != index + 1 && !f->malformed[0]) {
            static const char *const mandatory[] = { "Chassis ID", "Port ID", "TTL" };
            char why[64];
            snprintf(why, sizeof(why), "LLDPDU lacks the %s TLV in place", mandatory[index]);
            dcb_malformed(f, why, NULL);
        }
        index++;
        const char *name = NULL;
        int bit = single_tlv_bit(type, &body, &name);
        if (bit >= 0 && (seen >> bit & 1)) {
            char why[80];
            snprintf(why, sizeof(why), "LLDPDU repeats the %s TLV", name);
            return dcb_malformed(f, why, NULL);
        }
        if (bit >= 0)
            seen |= 1u << bit;
        if (!decode_tlv(type, (unsigned)rd_remaining(&body), &body, f))
            return false;
    }
    if (more < 0)
        return false;
    if (index < TLV_TTL && !f->malformed[0])
        dcb_malformed(f, "LLDPDU ends before Chassis ID, Port ID and TTL", NULL);
    return f->malformed[0] == '\0';
}
