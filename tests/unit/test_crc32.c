#include "unit.h"

#include <stdlib.h>

#include "decode.h"

/* Bit by bit, straight from the definition: the reference for both fast paths. */
static uint32_t crc32_bitwise(const uint8_t *p, size_t len)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < len; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    }
    return ~c;
}

static void known_value(void **state)
{
    (void)state;
    assert_int_equal(dcb_crc32(0, "123456789", 9), 0xcbf43926u); /* the CRC-32 check value */
}

/* Every length from 0 to 2100 and every alignment, both paths, and chaining in two parts. */
static void fast_paths_match_the_definition(void **state)
{
    (void)state;
    static uint8_t data[2200];
    srand(4791);
    for (size_t i = 0; i < sizeof(data); i++)
        data[i] = (uint8_t)rand();
    for (int portable = 0; portable <= 1; portable++) {
        dcb_crc32_force_portable(portable);
        for (size_t off = 0; off < 8; off++) {
            for (size_t len = 0; len <= 2100; len += off ? 61 : 1) {
                uint32_t want = crc32_bitwise(data + off, len);
                if (dcb_crc32(0, data + off, len) != want)
                    fail_msg("portable=%d off=%zu len=%zu", portable, off, len);
                size_t half = len / 3;
                uint32_t part = dcb_crc32(dcb_crc32(0, data + off, half), data + off + half,
                                          len - half);
                if (part != want)
                    fail_msg("chained: portable=%d off=%zu len=%zu", portable, off, len);
            }
        }
    }
    dcb_crc32_force_portable(0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(known_value),
        cmocka_unit_test(fast_paths_match_the_definition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
