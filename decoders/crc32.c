/* CRC-32 as in IEEE 802.3 and zlib (reflected polynomial 0xEDB88320): carry-less multiply
 * folding where the CPU has PCLMULQDQ, slicing by eight bytes elsewhere and for the tails. */
#include "decode.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

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

/* The CRC register (not inverted) carried over len bytes. */
static uint32_t crc32_slice8(uint32_t c, const uint8_t *p, size_t len)
{
    while (len >= 8) {
        uint32_t lo = c ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                           (uint32_t)p[3] << 24);
        c = crc_table[7][lo & 0xff] ^ crc_table[6][lo >> 8 & 0xff] ^ crc_table[5][lo >> 16 & 0xff] ^
            crc_table[4][lo >> 24] ^ crc_table[3][p[4]] ^ crc_table[2][p[5]] ^ crc_table[1][p[6]] ^
            crc_table[0][p[7]];
        p += 8;
        len -= 8;
    }
    while (len--)
        c = crc_table[0][(c ^ *p++) & 0xff] ^ (c >> 8);
    return c;
}

#if defined(__x86_64__)
/* Folding (Gopal et al., "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ"): four
 * 128-bit lanes are each carried 512 bits forward per step by multiplying their halves with
 * x^(512+32) and x^(512-32) mod P (bit-reflected), then folded into one lane 128 bits at a time.
 * The last lane is a 16-byte message with the same remainder as everything folded into it, so
 * the table finishes it together with the tail. The constants were checked against the table
 * over every length in tests/unit/test_crc32.c. */
#define FOLD(x, k, next)                                           \
    _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00),  \
                                _mm_clmulepi64_si128(x, k, 0x11)), \
                  next)

__attribute__((target("pclmul,sse2"))) static uint32_t crc32_clmul(uint32_t c, const uint8_t *p,
                                                                   size_t len)
{
    const __m128i by512 = _mm_set_epi64x(0x1c6e41596LL, 0x154442bd4LL);
    const __m128i by128 = _mm_set_epi64x(0x0ccaa009eLL, 0x1751997d0LL);
    __m128i x3 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p), _mm_cvtsi32_si128((int)c));
    if (len < 64) { /* short: one lane, 128 bits at a time */
        p += 16;
        len -= 16;
        goto one_lane;
    }
    __m128i x0 = x3;
    __m128i x1 = _mm_loadu_si128((const __m128i *)(p + 16));
    __m128i x2 = _mm_loadu_si128((const __m128i *)(p + 32));
    x3 = _mm_loadu_si128((const __m128i *)(p + 48));
    p += 64;
    len -= 64;
    while (len >= 64) {
        x0 = FOLD(x0, by512, _mm_loadu_si128((const __m128i *)p));
        x1 = FOLD(x1, by512, _mm_loadu_si128((const __m128i *)(p + 16)));
        x2 = FOLD(x2, by512, _mm_loadu_si128((const __m128i *)(p + 32)));
        x3 = FOLD(x3, by512, _mm_loadu_si128((const __m128i *)(p + 48)));
        p += 64;
        len -= 64;
    }
    x1 = FOLD(x0, by128, x1);
    x2 = FOLD(x1, by128, x2);
    x3 = FOLD(x2, by128, x3);
one_lane:
    while (len >= 16) {
        x3 = FOLD(x3, by128, _mm_loadu_si128((const __m128i *)p));
        p += 16;
        len -= 16;
    }
    uint8_t last[16];
    _mm_storeu_si128((__m128i *)last, x3);
    return crc32_slice8(crc32_slice8(0, last, sizeof(last)), p, len);
}

static int have_clmul = -1;
#endif

uint32_t dcb_crc32(uint32_t crc, const void *data, size_t len)
{
    const uint8_t *p = data;
#if defined(__x86_64__)
    if (have_clmul < 0)
        have_clmul = __builtin_cpu_supports("pclmul") ? 1 : 0;
    if (len >= 32 && have_clmul)
        return ~crc32_clmul(~crc, p, len);
#endif
    return ~crc32_slice8(~crc, p, len);
}

void dcb_crc32_force_portable(int portable)
{
#if defined(__x86_64__)
    have_clmul = portable ? 0 : -1;
#else
    (void)portable;
#endif
}
