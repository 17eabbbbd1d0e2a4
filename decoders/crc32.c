/* CRC-32 as in IEEE 802.3 and zlib (reflected polynomial 0xEDB88320), slicing by eight bytes. */
#include "decode.h"

static uint32_t crc_table[8][256];

__attribute__((constructor)) static void crc32_build_tables(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[0][n] = c;
    }
    for (uint32_t n = 0; n < 256; n++)
        for (int t = 1; t < 8; t++)
            crc_table[t][n] = crc_table[0][crc_table[t - 1][n] & 0xff] ^ (crc_table[t - 1][n] >> 8);
}

uint32_t dcb_crc32(uint32_t crc, const void *data, size_t len)
{
    const uint8_t *p = data;
    uint32_t c = ~crc;
    while (len >= 8) {
        uint32_t lo = c ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                           (uint32_t)p[3] << 24);
        c = crc_table[7][lo & 0xff] ^ crc_table[6][lo >> 8 & 0xff] ^
            crc_table[5][lo >> 16 & 0xff] ^ crc_table[4][lo >> 24] ^
            crc_table[3][p[4]] ^ crc_table[2][p[5]] ^ crc_table[1][p[6]] ^ crc_table[0][p[7]];
        p += 8;
        len -= 8;
    }
    while (len--)
        c = crc_table[0][(c ^ *p++) & 0xff] ^ (c >> 8);
    return ~c;
}
