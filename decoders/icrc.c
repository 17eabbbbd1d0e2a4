/* The RoCEv2 invariant CRC: CRC-32 over eight 0xFF bytes (standing in for the InfiniBand LRH),
 * the IP, UDP and BTH headers with the fields routers may change forced to ones, then the rest
 * of the packet up to the ICRC (IBTA annex A17.3.3; decoders.md 2.5). */
#include <string.h>

#include "decode.h"

#define ICRC_LEN 4
#define UDP_LEN 8
#define BTH_LEN 12
#define MAX_IP_HEADER 60

static void mask_ip_header(uint8_t *h, uint8_t version)
{
    if (version == 4) {
        h[1] = 0xff;          /* TOS */
        h[8] = 0xff;          /* TTL */
        h[10] = h[11] = 0xff; /* header checksum */
    } else {
        h[0] |= 0x0f; /* traffic class and flow label */
        h[1] = h[2] = h[3] = 0xff;
        h[7] = 0xff; /* hop limit */
    }
}

bool dcb_icrc_compute(struct dcb_reader *packet, uint8_t ip_version, uint16_t ip_header_len,
                      uint32_t *crc)
{
    /* CRC-32 of the eight 0xFF bytes that stand in for the LRH: the same for every packet. */
    static const uint32_t lrh_stand_in_crc = 0x2144df1c;
    uint8_t headers[MAX_IP_HEADER + UDP_LEN + BTH_LEN];
    size_t headers_len = (size_t)ip_header_len + UDP_LEN + BTH_LEN;
    *crc = 0;
    const uint8_t *wire_headers = ip_header_len <= MAX_IP_HEADER ? rd_bytes(packet, headers_len)
                                                                 : NULL;
    if (!wire_headers)
        return false;
    memcpy(headers, wire_headers, headers_len);
    size_t rest = rd_remaining(packet);
    if (rest < ICRC_LEN)
        return false;
    const uint8_t *body = rd_bytes(packet, rest - ICRC_LEN);
    if (!body && rest > ICRC_LEN)
        return false;
    mask_ip_header(headers, ip_version);
    headers[ip_header_len + 6] = headers[ip_header_len + 7] = 0xff; /* UDP checksum */
    headers[ip_header_len + UDP_LEN + 4] = 0xff;                    /* FECN, BECN, resv6 */
    uint32_t c = dcb_crc32(lrh_stand_in_crc, headers, headers_len);
    *crc = dcb_crc32(c, body, rest - ICRC_LEN);
    return true;
}
