#include "unit.h"

#include "reader.h"

static const uint8_t frame[] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01, 0x88, 0x08, 0x01, 0x01 };

static void reads_network_order(void **state)
{
    (void)state;
    struct dcb_reader r;
    rd_init(&r, frame, sizeof(frame));
    assert_int_equal(rd_u8(&r), 0x01);
    assert_int_equal(rd_be16(&r), 0x80c2);
    assert_int_equal(rd_be24(&r), 0x000001);
    assert_int_equal(rd_be32(&r), 0x88080101u);
    assert_true(rd_ok(&r));
    assert_int_equal(rd_remaining(&r), 0);
}

static void reads_little_endian_and_64(void **state)
{
    (void)state;
    static const uint8_t b[] = { 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 0x34, 0x12 };
    struct dcb_reader r;
    rd_init(&r, b, sizeof(b));
    assert_true(rd_be64(&r) == 0x0102030405060708ULL);
    assert_true(rd_le64(&r) == 0x0807060504030201ULL);
    assert_int_equal(rd_le16(&r), 0x1234);
    assert_true(rd_ok(&r));
}

static void truncation_is_a_result(void **state)
{
    (void)state;
    struct dcb_reader r;
    rd_init(&r, frame, 3);
    assert_int_equal(rd_be16(&r), 0x0180);
    assert_int_equal(rd_be32(&r), 0); /* only one byte left */
    assert_false(rd_ok(&r));
    assert_int_equal(rd_offset(&r), 2); /* nothing consumed by the failed read */
    assert_int_equal(rd_u8(&r), 0);     /* sticky: later reads fail too */
    assert_int_equal(rd_remaining(&r), 0);
    char why[96];
    rd_describe_failure(&r, why, sizeof(why));
    assert_string_equal(why, "needed 4 bytes at offset 2, 1 left");
}

static void zero_copy_bytes_and_skip(void **state)
{
    (void)state;
    struct dcb_reader r;
    rd_init(&r, frame, sizeof(frame));
    const uint8_t *mac = rd_bytes(&r, 6);
    assert_ptr_equal(mac, frame);
    assert_true(rd_skip(&r, 2));
    assert_int_equal(rd_be16(&r), 0x0101);
    assert_null(rd_bytes(&r, 1));
    assert_false(rd_ok(&r));
    assert_false(rd_skip(&r, 0));
}

static void sub_reader_bounds_a_tlv(void **state)
{
    (void)state;
    /* TLV: type 1 len 2 "ab", then one more byte */
    static const uint8_t tlv[] = { 0x02, 0x02, 'a', 'b', 0xff };
    struct dcb_reader r, body;
    rd_init(&r, tlv, sizeof(tlv));
    uint16_t hdr = rd_be16(&r);
    assert_true(rd_sub(&r, hdr & 0x1ff, &body));
    assert_int_equal(rd_u8(&body), 'a');
    assert_int_equal(rd_u8(&body), 'b');
    assert_int_equal(rd_u8(&body), 0); /* cannot read past the TLV */
    assert_false(rd_ok(&body));
    assert_true(rd_ok(&r)); /* the parent is fine */
    assert_int_equal(rd_u8(&r), 0xff);

    rd_init(&r, tlv, sizeof(tlv));
    assert_false(rd_sub(&r, 100, &body)); /* a length that lies */
    assert_false(rd_ok(&r));
    assert_false(rd_ok(&body));
    assert_int_equal(rd_u8(&body), 0);
}

static void peek_and_copy(void **state)
{
    (void)state;
    struct dcb_reader r;
    rd_init(&r, frame, sizeof(frame));
    assert_int_equal(rd_peek_u8(&r, 1), 0x80);
    assert_int_equal(rd_peek_u8(&r, 100), 0);
    assert_true(rd_ok(&r));
    uint8_t mac[6];
    assert_true(rd_copy(&r, mac, 6));
    assert_memory_equal(mac, frame, 6);
    uint8_t big[8] = { 9, 9, 9, 9, 9, 9, 9, 9 };
    assert_false(rd_copy(&r, big, 8));
    for (int i = 0; i < 8; i++)
        assert_int_equal(big[i], 0);
}

static void null_and_empty_buffers(void **state)
{
    (void)state;
    struct dcb_reader r;
    rd_init(&r, NULL, 100);
    assert_int_equal(rd_remaining(&r), 0);
    assert_int_equal(rd_u8(&r), 0);
    assert_false(rd_ok(&r));
    rd_init(&r, frame, 0);
    assert_true(rd_has(&r, 0));
    assert_false(rd_has(&r, 1));
    char why[8];
    rd_init(&r, frame, 1);
    rd_be16(&r);
    rd_describe_failure(&r, why, sizeof(why)); /* bounded output */
    assert_int_equal(strlen(why), sizeof(why) - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_network_order),     cmocka_unit_test(reads_little_endian_and_64),
        cmocka_unit_test(truncation_is_a_result),  cmocka_unit_test(zero_copy_bytes_and_skip),
        cmocka_unit_test(sub_reader_bounds_a_tlv), cmocka_unit_test(peek_and_copy),
        cmocka_unit_test(null_and_empty_buffers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
