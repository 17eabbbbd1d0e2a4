#include "unit.h"

#include <math.h>

#include "pause_time.h"

static void max_quanta_at_400g(void **state)
{
    (void)state;
    /* 65535 * 512 bit times / 400e9 b/s = 83.8848 us */
    assert_true(fabs(pfc_quanta_to_ns(65535, 400000000000ULL) - 83884.8) < 1e-6);
    assert_true(pause_quanta_to_ps(65535, 400000000000ULL) == 83884800ULL);
}

static void one_quantum_is_512_bit_times(void **state)
{
    (void)state;
    assert_true(fabs(pfc_quanta_to_ns(1, 100000000000ULL) - 5.12) < 1e-9); /* 100G */
    assert_true(fabs(pfc_quanta_to_ns(1, 10000000000ULL) - 51.2) < 1e-9);  /* 10G */
    assert_true(pause_quanta_to_ps(1, 25000000000ULL) == 20480);           /* 25G */
    assert_true(fabs(pfc_quanta_to_ns(0, 400000000000ULL)) < 1e-12);       /* XON */
    assert_true(isnan(pfc_quanta_to_ns(10, 0)));
    assert_true(pause_quanta_to_ps(10, 0) == 0);
}

static void time_to_quanta_rounds_up_and_caps(void **state)
{
    (void)state;
    assert_int_equal(pfc_ns_to_quanta(50000, 400000000000ULL), 39063); /* 39062.5 */
    assert_int_equal(pfc_ns_to_quanta(512, 1000000000ULL), 1);         /* exactly 1 */
    assert_int_equal(pfc_ns_to_quanta(513, 1000000000ULL), 2);
    assert_int_equal(pfc_ns_to_quanta(0, 400000000000ULL), 0);
    assert_int_equal(pfc_ns_to_quanta(1000000, 400000000000ULL), 65535); /* 1 ms: capped */
    for (uint32_t q = 0; q <= 65535; q += 4369)                          /* round trip */
        assert_int_equal(pfc_ns_to_quanta(pause_quanta_to_ps(q, 100000000000ULL) / 1000,
                                          100000000000ULL),
                         q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(max_quanta_at_400g),
        cmocka_unit_test(one_quantum_is_512_bit_times),
        cmocka_unit_test(time_to_quanta_rounds_up_and_caps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
