#include "unit.h"

#include <stdlib.h>

#include "clock.h"

/* A ticker on time keeps its cadence: each deadline is one interval after the one before. */
static void ticker_on_time(void **state)
{
    (void)state;
    struct dcb_ticker t = { .next_ns = 1000, .interval_ns = 100 };
    assert_int_equal(dcb_ticker_next(&t, 950), 1000);
    assert_int_equal(dcb_ticker_next(&t, 1001), 1100);
    assert_int_equal(dcb_ticker_next(&t, 1100), 1200);
    assert_int_equal(t.next_ns, 1300);
}

/* A round that overran skips the deadlines it missed, and the cadence goes on one interval
 * after it: no burst, and no tick at once after a late one (dcbtop drew two frames of the same
 * data 10 ms apart when the phase was kept). */
static void ticker_skips_missed_ticks(void **state)
{
    (void)state;
    struct dcb_ticker t = { .next_ns = 1000, .interval_ns = 100 };
    assert_int_equal(dcb_ticker_next(&t, 1390), 1490);
    assert_int_equal(dcb_ticker_next(&t, 1491), 1590);
    /* exactly on the deadline is on time */
    assert_int_equal(dcb_ticker_next(&t, 1690), 1690);
    assert_int_equal(dcb_ticker_next(&t, 2000), 2100);
}

static void ticker_starts_one_interval_out(void **state)
{
    (void)state;
    struct dcb_ticker t;
    int64_t before = dcb_monotonic_ns();
    dcb_ticker_start(&t, 5000000);
    assert_true(t.next_ns >= before + 5000000);
    assert_true(t.next_ns <= dcb_monotonic_ns() + 5000000);
    dcb_ticker_start(&t, 0);
    assert_int_equal(t.interval_ns, 1000000000LL);
}

static void sleeps_until_the_deadline(void **state)
{
    (void)state;
    int64_t t0 = dcb_monotonic_ns();
    dcb_sleep_until(t0 + 2000000, NULL);
    assert_true(dcb_monotonic_ns() >= t0 + 2000000);
    int64_t t1 = dcb_monotonic_ns();
    dcb_sleep_ns(1000000, NULL);
    assert_true(dcb_monotonic_ns() >= t1 + 1000000);
    /* a deadline in the past returns at once */
    int64_t t2 = dcb_monotonic_ns();
    dcb_sleep_until(t2 - 1000000000LL, NULL);
    dcb_sleep_ns(-5, NULL);
    assert_true(dcb_monotonic_ns() - t2 < 500000000LL);
}

static void wall_clock_is_unix_time(void **state)
{
    (void)state;
    int64_t now = dcb_realtime_ns();
    assert_true(now > 1500000000LL * 1000000000LL); /* after 2017 */
    assert_true(llabs(now / 1000000000LL - (int64_t)time(NULL)) <= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ticker_on_time),
        cmocka_unit_test(ticker_skips_missed_ticks),
        cmocka_unit_test(ticker_starts_one_interval_out),
        cmocka_unit_test(sleeps_until_the_deadline),
        cmocka_unit_test(wall_clock_is_unix_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
