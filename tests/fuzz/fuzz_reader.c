/* libFuzzer: the bounded reader driven by the input itself. The first bytes pick the reads
 * (a TLV walker, the shape every decoder has); the rest is the buffer. The reader must never
 * read outside it (ASan checks) and its offset must never pass its length. */
#include <stdint.h>
#include <stdlib.h>

#include "reader.h"

static void check(const struct dcb_reader *r)
{
    if (r->off > r->len)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t nops = data[0] % 32;
    if (nops + 1 > size)
        return 0;
    const uint8_t *ops = data + 1;
    struct dcb_reader r;
    rd_init(&r, data + 1 + nops, size - 1 - nops);
    for (size_t i = 0; i < nops; i++) {
        switch (ops[i] & 15) {
        case 0: (void)rd_u8(&r); break;
        case 1: (void)rd_be16(&r); break;
        case 2: (void)rd_be24(&r); break;
        case 3: (void)rd_be32(&r); break;
        case 4: (void)rd_be64(&r); break;
        case 5: (void)rd_le32(&r); break;
        case 6: (void)rd_skip(&r, ops[i] >> 4); break;
        case 7: {
            const uint8_t *p = rd_bytes(&r, ops[i] >> 4);
            if (p)
                (void)p[(ops[i] >> 4) ? (ops[i] >> 4) - 1 : 0];
            break;
        }
        case 8: { /* LLDP-style TLV: 7-bit type, 9-bit length, then a body */
            uint16_t hdr = rd_be16(&r);
            struct dcb_reader body;
            if (rd_sub(&r, hdr & 0x1ff, &body)) {
                while (rd_remaining(&body))
                    (void)rd_u8(&body);
                check(&body);
            }
            break;
        }
        case 9: {
            uint8_t tmp[8];
            (void)rd_copy(&r, tmp, ops[i] >> 5);
            break;
        }
        case 10: (void)rd_peek_u8(&r, ops[i] >> 4); break;
        case 11: {
            struct dcb_reader rest;
            rd_rest(&r, &rest);
            check(&rest);
            break;
        }
        case 12: {
            char why[64];
            rd_describe_failure(&r, why, sizeof(why));
            break;
        }
        default: (void)rd_le64(&r); break;
        }
        check(&r);
    }
    return 0;
}
