/* Helpers shared by the LLDP and DCBX decoders: the 7-bit type / 9-bit length TLV header, packed
 * nibble tables, and the "wrong length" reason. */
#include <stdio.h>

#include "decode.h"

int dcb_next_tlv(struct dcb_reader *r, const char *what, struct dcb_reader *body, unsigned *type,
                 struct dcb_frame *f)
{
    if (rd_remaining(r) == 0)
        return 0;
    uint16_t hdr = rd_be16(r);
    if (!rd_ok(r)) {
        char why[64];
        snprintf(why, sizeof(why), "%s header truncated", what);
        dcb_malformed(f, why, r);
        return -1;
    }
    *type = hdr >> 9;
    unsigned len = hdr & 0x1ff;
    if (!rd_sub(r, len, body)) {
        char why[80];
        snprintf(why, sizeof(why), "%s type %u length %u runs past the end", what, *type, len);
        dcb_malformed(f, why, r);
        return -1;
    }
    return 1;
}

void dcb_read_nibbles8(struct dcb_reader *r, uint8_t out[8])
{
    for (int i = 0; i < 8; i += 2) {
        uint8_t pair = rd_u8(r);
        out[i] = pair >> 4;
        out[i + 1] = pair & 0x0f;
    }
}

void dcb_read_bytes8(struct dcb_reader *r, uint8_t out[8])
{
    for (int i = 0; i < 8; i++)
        out[i] = rd_u8(r);
}

bool dcb_malformed_len(struct dcb_frame *f, const char *what, size_t len, const char *want)
{
    char why[96];
    snprintf(why, sizeof(why), "%s length %zu, expected %s", what, len, want);
    return dcb_malformed(f, why, NULL);
}
