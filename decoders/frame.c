/* The frame decoder: Ethernet first, then whatever the EtherType and ports say. */
#include <stdio.h>
#include <string.h>

#include "decode.h"

bool dcb_malformed(struct dcb_frame *f, const char *what, const struct dcb_reader *r)
{
    if (f->malformed[0])
        return false;
    if (r && r->failed)
        snprintf(f->malformed, sizeof(f->malformed), "%s: needed %zu bytes at offset %zu, %zu left",
                 what, r->fail_want, r->fail_off, r->len - r->fail_off);
    else
        snprintf(f->malformed, sizeof(f->malformed), "%s", what);
    return false;
}

static bool decode_ip_and_above(struct dcb_reader *r, struct dcb_frame *f)
{
    f->ip_offset = (uint32_t)rd_offset(r);
    struct dcb_reader l4;
    if (!dcb_decode_ip(r, f, &l4))
        return false;
    if (f->ip.proto != 17)
        return true;
    if (!dcb_decode_udp(&l4, f))
        return false;
    if (f->udp.dport != DCB_UDP_PORT_ROCEV2)
        return true;
    return dcb_decode_roce(&l4, f);
}

bool dcb_verify_icrc(const uint8_t *data, struct dcb_frame *f)
{
    if (!(f->layers & DCB_L_ICRC))
        return false;
    struct dcb_reader frame, packet;
    rd_init(&frame, data, f->caplen);
    rd_skip(&frame, f->ip_offset);
    rd_sub(&frame, (size_t)f->ip.header_len + f->udp.len, &packet);
    f->icrc.ok = dcb_icrc_compute(&packet, f->ip.version, f->ip.header_len, &f->icrc.computed) &&
                 f->icrc.computed == f->icrc.wire;
    f->icrc.checked = true;
    return f->icrc.ok;
}

bool dcb_decode_link_frame(int linktype, const uint8_t *data, uint32_t caplen, uint32_t wire_len,
                           struct dcb_frame *f)
{
    f->layers = 0;
    f->nvlan = 0;
    f->malformed[0] = '\0';
    f->icrc.checked = false;
    f->caplen = caplen;
    f->len = wire_len;
    struct dcb_reader r;
    rd_init(&r, data, caplen);
    bool link_ok;
    if (linktype == DCB_LINKTYPE_ETHERNET)
        link_ok = dcb_decode_eth(&r, f);
    else if (linktype == DCB_LINKTYPE_LINUX_SLL || linktype == DCB_LINKTYPE_LINUX_SLL2)
        link_ok = dcb_decode_sll(&r, linktype == DCB_LINKTYPE_LINUX_SLL2, f);
    else
        return dcb_malformed(f, "link type not decoded", NULL);
    if (!link_ok)
        return false;
    switch (f->eth.type) {
    case DCB_ETHERTYPE_MACCTL: return dcb_decode_macctl(&r, f);
    case DCB_ETHERTYPE_LLDP: return dcb_decode_lldp(&r, f);
    case DCB_ETHERTYPE_IPV4:
    case DCB_ETHERTYPE_IPV6: return decode_ip_and_above(&r, f);
    default: return true;
    }
}

bool dcb_decode_frame(const uint8_t *data, uint32_t caplen, uint32_t wire_len, struct dcb_frame *f)
{
    return dcb_decode_link_frame(DCB_LINKTYPE_ETHERNET, data, caplen, wire_len, f);
}
