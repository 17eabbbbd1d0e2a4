#include "unit.h"

#include "units.h"

static void speeds(void **state)
{
    (void)state;
    uint64_t v;
    assert_int_equal(dcb_parse_speed("400G", &v, NULL), 0);
    assert_true(v == 400000000000ULL);
    assert_int_equal(dcb_parse_speed("400Gbps", &v, NULL), 0);
    assert_true(v == 400000000000ULL);
    assert_int_equal(dcb_parse_speed("100g", &v, NULL), 0);
    assert_true(v == 100000000000ULL);
    assert_int_equal(dcb_parse_speed("2.5G", &v, NULL), 0);
    assert_true(v == 2500000000ULL);
    assert_int_equal(dcb_parse_speed("25000000000", &v, NULL), 0);
    assert_true(v == 25000000000ULL);
    assert_int_equal(dcb_parse_speed(" 1.6T ", &v, NULL), 0);
    assert_true(v == 1600000000000ULL);
    assert_int_equal(dcb_parse_speed("800 Gb/s", &v, NULL), 0);
    assert_true(v == 800000000000ULL);
}

static void bad_speeds_say_why(void **state)
{
    (void)state;
    uint64_t v;
    struct dcb_err err;
    assert_int_equal(dcb_parse_speed("400X", &v, &err), DCB_E_INVAL);
    assert_string_equal(err.msg, "'400X': unknown link speed unit 'X'");
    assert_int_equal(dcb_parse_speed("-1G", &v, &err), DCB_E_INVAL);
    assert_int_equal(dcb_parse_speed("G", &v, &err), DCB_E_INVAL);
    assert_int_equal(dcb_parse_speed("", &v, &err), DCB_E_INVAL);
    assert_int_equal(dcb_parse_speed(NULL, &v, &err), DCB_E_INVAL);
    assert_int_equal(dcb_parse_speed("99999999999999999999", &v, &err), DCB_E_RANGE);
    assert_int_equal(dcb_parse_speed("99999999999T", &v, &err), DCB_E_RANGE);
}

static void bytes(void **state)
{
    (void)state;
    uint64_t v;
    assert_int_equal(dcb_parse_bytes("150KB", &v, NULL), 0);
    assert_int_equal(v, 150000);
    assert_int_equal(dcb_parse_bytes("150K", &v, NULL), 0);
    assert_int_equal(v, 150000);
    assert_int_equal(dcb_parse_bytes("9KiB", &v, NULL), 0);
    assert_int_equal(v, 9216);
    assert_int_equal(dcb_parse_bytes("9216", &v, NULL), 0);
    assert_int_equal(v, 9216);
    assert_int_equal(dcb_parse_bytes("1.5MB", &v, NULL), 0);
    assert_int_equal(v, 1500000);
    assert_int_equal(dcb_parse_bytes("32MiB", &v, NULL), 0);
    assert_int_equal(v, 32 << 20);
    assert_int_equal(dcb_parse_bytes("12 B", &v, NULL), 0);
    assert_int_equal(v, 12);
    assert_int_equal(dcb_parse_bytes("12 bits", &v, NULL), DCB_E_INVAL);
}

static void durations(void **state)
{
    (void)state;
    int64_t ns;
    struct dcb_err err;
    assert_int_equal(dcb_parse_duration("5us", &ns, NULL), 0);
    assert_int_equal(ns, 5000);
    assert_int_equal(dcb_parse_duration("5\xc2\xb5s", &ns, NULL), 0);
    assert_int_equal(ns, 5000);
    assert_int_equal(dcb_parse_duration("83.885 \xc2\xb5s", &ns, NULL), 0);
    assert_int_equal(ns, 83885);
    assert_int_equal(dcb_parse_duration("200ms", &ns, NULL), 0);
    assert_int_equal(ns, 200000000);
    assert_int_equal(dcb_parse_duration("10m", &ns, NULL), 0); /* minutes, as Prometheus */
    assert_true(ns == 600LL * 1000000000LL);
    assert_int_equal(dcb_parse_duration("24h", &ns, NULL), 0);
    assert_true(ns == 86400LL * 1000000000LL);
    assert_int_equal(dcb_parse_duration("100ns", &ns, NULL), 0);
    assert_int_equal(ns, 100);
    assert_int_equal(dcb_parse_duration("0", &ns, NULL), 0);
    assert_int_equal(ns, 0);
    assert_int_equal(dcb_parse_duration("5", &ns, &err), DCB_E_INVAL);
    assert_string_equal(err.msg, "'5': duration needs a unit (ns, us, ms, s, m, h, d)");
    assert_int_equal(dcb_parse_duration("5 fortnights", &ns, &err), DCB_E_INVAL);
    assert_int_equal(dcb_parse_duration("999999999999d", &ns, &err), DCB_E_RANGE);
}

static void lengths(void **state)
{
    (void)state;
    uint64_t mm;
    assert_int_equal(dcb_parse_length("100m", &mm, NULL), 0);
    assert_int_equal(mm, 100000);
    assert_int_equal(dcb_parse_length("2.5m", &mm, NULL), 0);
    assert_int_equal(mm, 2500);
    assert_int_equal(dcb_parse_length("3", &mm, NULL), 0);
    assert_int_equal(mm, 3000);
    assert_int_equal(dcb_parse_length("50cm", &mm, NULL), 0);
    assert_int_equal(mm, 500);
    assert_int_equal(dcb_parse_length("1km", &mm, NULL), 0);
    assert_int_equal(mm, 1000000);
}

static void printing(void **state)
{
    (void)state;
    char b[DCB_UNIT_BUF];
    assert_string_equal(dcb_fmt_speed(400000000000ULL, b, sizeof(b)), "400G");
    assert_string_equal(dcb_fmt_speed(2500000000ULL, b, sizeof(b)), "2.5G");
    assert_string_equal(dcb_fmt_speed(1600000000000ULL, b, sizeof(b)), "1.6T");
    assert_string_equal(dcb_fmt_speed(999, b, sizeof(b)), "999bps");
    assert_string_equal(dcb_fmt_rate(0, b, sizeof(b)), "0b/s"); /* was "0bpsb/s" */
    assert_string_equal(dcb_fmt_rate(999, b, sizeof(b)), "999b/s");
    assert_string_equal(dcb_fmt_rate(8192000000ULL, b, sizeof(b)), "8.192Gb/s");
    assert_string_equal(dcb_fmt_bytes(150000, b, sizeof(b)), "150KB");
    assert_string_equal(dcb_fmt_bytes(9216, b, sizeof(b)), "9.216KB");
    assert_string_equal(dcb_fmt_bytes(12, b, sizeof(b)), "12B");
    assert_string_equal(dcb_fmt_duration_ns(83884.8, b, sizeof(b)), "83.885 \xc2\xb5s");
    assert_string_equal(dcb_fmt_duration_ns(5000, b, sizeof(b)), "5 \xc2\xb5s");
    assert_string_equal(dcb_fmt_duration_ns(200e6, b, sizeof(b)), "200 ms");
    assert_string_equal(dcb_fmt_duration_ns(12, b, sizeof(b)), "12 ns");
    assert_string_equal(dcb_fmt_duration_ns(0, b, sizeof(b)), "0 ns");
    assert_string_equal(dcb_fmt_length(100000, b, sizeof(b)), "100m");
    assert_string_equal(dcb_fmt_length(500, b, sizeof(b)), "0.5m");
    assert_string_equal(dcb_fmt_length(2500, b, sizeof(b)), "2.5m");
}

/* Whatever is printed parses back to the same value. */
static void round_trips(void **state)
{
    (void)state;
    static const uint64_t speeds[] = { 10000000000ULL,  25000000000ULL,  100000000000ULL,
                                       400000000000ULL, 800000000000ULL, 1000 };
    char b[DCB_UNIT_BUF];
    for (size_t i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++) {
        uint64_t v;
        assert_int_equal(dcb_parse_speed(dcb_fmt_speed(speeds[i], b, sizeof(b)), &v, NULL), 0);
        assert_true(v == speeds[i]);
    }
    static const uint64_t sizes[] = { 150000, 9216, 12, 32000000 };
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        uint64_t v;
        assert_int_equal(dcb_parse_bytes(dcb_fmt_bytes(sizes[i], b, sizeof(b)), &v, NULL), 0);
        assert_true(v == sizes[i]);
    }
    static const double durs[] = { 5000, 83885, 200e6, 12 };
    for (size_t i = 0; i < sizeof(durs) / sizeof(durs[0]); i++) {
        int64_t v;
        assert_int_equal(dcb_parse_duration(dcb_fmt_duration_ns(durs[i], b, sizeof(b)), &v, NULL),
                         0);
        assert_true(v == (int64_t)durs[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(speeds),      cmocka_unit_test(bad_speeds_say_why),
        cmocka_unit_test(bytes),       cmocka_unit_test(durations),
        cmocka_unit_test(lengths),     cmocka_unit_test(printing),
        cmocka_unit_test(round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
