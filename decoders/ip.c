/* IPv4 and IPv6: addresses, DSCP and ECN, and the payload as its own reader (bounded by the
 * length the header states, so Ethernet padding is not taken for payload). */
#include <string.h>

#include "decode.h"

#define IPV6_HEADER_LEN 40

/* The payload: the stated length, or what was captured of it. */
static void split_payload(struct dcb_reader *r, uint32_t stated, struct dcb_reader *payload)
{
    size_t have = rd_remaining(r);
    rd_sub(r, stated < have ? stated : have, payload);
}

static bool decode_ipv4(struct dcb_reader *r, struct dcb_frame *f, struct dcb_reader *payload)
{
    struct dcb_ip *ip = &f->ip;
    uint8_t ver_ihl = rd_u8(r);
    uint8_t tos = rd_u8(r);
    uint16_t total_len = rd_be16(r);
    rd_skip(r, 2); /* identification */
    uint16_t frag = rd_be16(r);
    rd_skip(r, 1); /* TTL */
    ip->proto = rd_u8(r);
    rd_skip(r, 2); /* header checksum */
    const uint8_t *addrs = rd_bytes(r, 8);
    if (!rd_ok(r))
        return dcb_malformed(f, "IPv4 header truncated", r);
    memset(ip->src, 0, sizeof(ip->src));
    memset(ip->dst, 0, sizeof(ip->dst));
    memcpy(ip->src, addrs, 4);
    memcpy(ip->dst, addrs + 4, 4);
    ip->version = 4;
    ip->dscp = tos >> 2;
    ip->ecn = tos & 3;
    ip->header_len = (uint16_t)((ver_ihl & 0x0f) * 4);
    if (ip->header_len < 20)
        return dcb_malformed(f, "IPv4 header length below 20", NULL);
    f->layers |= DCB_L_IP;
    if (!rd_skip(r, ip->header_len - 20u))
        return dcb_malformed(f, "IPv4 options truncated", r);
    if (total_len < ip->header_len)
        return dcb_malformed(f, "IPv4 total length shorter than its header", NULL);
    ip->payload_len = total_len - ip->header_len;
    if ((frag & 0x1fff) != 0)
        ip->proto = 0; /* a later fragment: no transport header in it */
    split_payload(r, ip->payload_len, payload);
    return true;
}

static bool decode_ipv6(struct dcb_reader *r, struct dcb_frame *f, struct dcb_reader *payload)
{
    struct dcb_ip *ip = &f->ip;
    uint32_t first = rd_be32(r);
    uint16_t payload_len = rd_be16(r);
    ip->proto = rd_u8(r);
    rd_skip(r, 1); /* hop limit */
    const uint8_t *addrs = rd_bytes(r, 32);
    if (!rd_ok(r))
        return dcb_malformed(f, "IPv6 header truncated", r);
    memcpy(ip->src, addrs, 16);
    memcpy(ip->dst, addrs + 16, 16);
    uint8_t tclass = (uint8_t)(first >> 20);
    ip->version = 6;
    ip->dscp = tclass >> 2;
    ip->ecn = tclass & 3;
    ip->header_len = IPV6_HEADER_LEN;
    ip->payload_len = payload_len;
    f->layers |= DCB_L_IP;
    split_payload(r, ip->payload_len, payload);
    return true;
}

bool dcb_decode_ip(struct dcb_reader *r, struct dcb_frame *f, struct dcb_reader *payload)
{
    rd_init(payload, NULL, 0);
    uint8_t version = rd_peek_u8(r, 0) >> 4;
    if (!rd_has(r, 1))
        return dcb_malformed(f, "IP header truncated", NULL);
    if (version == 4 && f->eth.type == DCB_ETHERTYPE_IPV4)
        return decode_ipv4(r, f, payload);
    if (version == 6 && f->eth.type == DCB_ETHERTYPE_IPV6)
        return decode_ipv6(r, f, payload);
    return dcb_malformed(f, "IP version does not match the EtherType", NULL);
}
