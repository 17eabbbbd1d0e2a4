#include "unit.h"

#include <math.h>

#include "counter.h"

#define SEC 1000000000LL

static void first_reading_has_no_delta(void **state)
{
    (void)state;
    struct counter_state st;
    counter_state_init(&st);
    struct counter_delta d = counter_update(&st, 1234, 0, 64, 0);
    assert_int_equal(d.kind, COUNTER_FIRST);
    assert_int_equal(d.delta, 0);
    assert_true(isnan(counter_rate_per_sec(&d)));
}

static void plain_increase(void **state)
{
    (void)state;
    struct counter_state st;
    counter_state_init(&st);
    counter_update(&st, 100, 0, 64, 0);
    struct counter_delta d = counter_update(&st, 350, 2 * SEC, 64, 0);
    assert_int_equal(d.kind, COUNTER_OK);
    assert_int_equal(d.delta, 250);
    assert_int_equal(d.interval_ns, 2 * SEC);
    assert_true(fabs(counter_rate_per_sec(&d) - 125.0) < 1e-9);
    d = counter_update(&st, 350, 3 * SEC, 64, 0);
    assert_int_equal(d.kind, COUNTER_OK);
    assert_int_equal(d.delta, 0);
}

/* mlx5 Q-counters (out_of_sequence, packet_seq_err...) are 32-bit and wrap. */
static void wrap_32bit(void **state)
{
    (void)state;
    struct counter_state st;
    counter_state_init(&st);
    counter_update(&st, 4294967290u, 0, 32, 0); /* 2^32 - 6 */
    struct counter_delta d = counter_update(&st, 10, SEC, 32, 0);
    assert_int_equal(d.kind, COUNTER_WRAPPED);
    assert_int_equal(d.delta, 16); /* 6 to the top, then 0..10 */
    assert_true(fabs(counter_rate_per_sec(&d) - 16.0) < 1e-9);
}

static void wrap_32bit_exactly_to_zero(void **state)
{
    (void)state;
    struct counter_state st;
    counter_state_init(&st);
    counter_update(&st, 0xffffffffu, 0, 32, 0);
    struct counter_delta d = counter_update(&st, 0, SEC, 32, 0);
    assert_int_equal(d.kind, COUNTER_WRAPPED);
    assert_int_equal(d.delta, 1);
}

static void wrap_64bit(void **state)
{
    (void)state;
    struct counter_state st;
    counter_state_init(&st);
    counter_update(&st, UINT64_MAX - 99, 0, 64, 0);
    struct counter_delta d = counter_update(&st, 900, SEC, 64, 0);
    assert_int_equal(d.kind, COUNTER_WRAPPED);
    assert_true(d.delta == 1000); /* 100 to the top, then 0..900 */
}

/* A driver reload: the counter starts again from a smaller value. */
static void reset_to_smaller_value_64(void **state)
{
    (void)state;
    struct counter_state st;
    counter_state_init(&st);
    counter_update(&st, 5000000000000ULL, 0, 64, 0);
    struct counter_delta d = counter_update(&st, 42, SEC, 64, 0);
    assert_int_equal(d.kind, COUNTER_RESET);
    assert_true(d.delta == 42); /* counted since the reset */
    assert_true(d.previous == 5000000000000ULL);
    /* no rate spans a reset: the counter may have restarted from any value */
    assert_true(isnan(counter_rate_per_sec(&d)));
    /* after a reset the counter continues normally */
    d = counter_update(&st, 52, 2 * SEC, 64, 0);
    assert_int_equal(d.kind, COUNTER_OK);
    assert_int_equal(d.delta, 10);
}

static void reset_to_smaller_value_32(void **state)
{
    (void)state;
    struct counter_state st;
    counter_state_init(&st);
    counter_update(&st, 1000000, 0, 32, 0);
    struct counter_delta d = counter_update(&st, 7, SEC, 32, 0);
    assert_int_equal(d.kind, COUNTER_RESET);
    assert_int_equal(d.delta, 7);
}

/* A mid-range 32-bit counter that drops: through the top would be 1.3e9 in one second, which
 * the caller's bound (the link's packet rate) rules out. */
static void caller_bound_turns_wrap_into_reset(void **state)
{
    (void)state;
    struct counter_state st;
    counter_state_init(&st);
    counter_update(&st, 3000000000u, 0, 32, 0);
    struct counter_delta d = counter_update(&st, 5, SEC, 32, 0);
    assert_int_equal(d.kind, COUNTER_RESET); /* default bound: a quarter */
    counter_state_init(&st);
    counter_update(&st, 4294967000u, 0, 32, 1000);
    d = counter_update(&st, 5, SEC, 32, 1000);
    assert_int_equal(d.kind, COUNTER_WRAPPED);
    assert_int_equal(d.delta, 301);
    counter_state_init(&st);
    counter_update(&st, 4294967000u, 0, 32, 100);
    d = counter_update(&st, 5, SEC, 32, 100);
    assert_int_equal(d.kind, COUNTER_RESET);
}

static void reading_wider_than_counter_is_invalid(void **state)
{
    (void)state;
    struct counter_state st;
    counter_state_init(&st);
    counter_update(&st, 10, 0, 32, 0);
    struct counter_delta d = counter_update(&st, 1ULL << 32, SEC, 32, 0);
    assert_int_equal(d.kind, COUNTER_INVALID);
    d = counter_update(&st, 20, 2 * SEC, 32, 0); /* state untouched */
    assert_int_equal(d.kind, COUNTER_OK);
    assert_int_equal(d.delta, 10);
}

/* A switch restarted with its counters from their initial values (1300, as the gNMI test
 * target's pfc.rx_pause{prio=3}), after a 5 s outage: the interval with the reset counts for
 * nothing, so the window's rate is the true 50/s, not (150 + 1300 + 100) / 10 s. A 32-bit
 * wrap inside a window still counts through the top. */
static void window_leaves_a_reset_out(void **state)
{
    (void)state;
    struct counter_window w;
    counter_window_init(&w, 0);
    static const uint64_t before[] = { 1300, 1350, 1400, 1450 }, after[] = { 1300, 1350, 1400 };
    for (int i = 0; i < 4; i++)
        assert_int_not_equal(counter_window_add(&w, before[i], i * SEC), COUNTER_RESET);
    assert_int_equal(counter_window_add(&w, after[0], 8 * SEC), COUNTER_RESET);
    for (int i = 1; i < 3; i++)
        counter_window_add(&w, after[i], (8 + i) * SEC);
    assert_true(w.total == 250);
    assert_int_equal(w.covered_ns, 5 * SEC);
    assert_int_equal(w.resets, 1);
    assert_int_equal(w.readings, 7);
    assert_true(fabs(counter_window_rate(&w) - 50.0) < 1e-9);

    counter_window_init(&w, 32);
    counter_window_add(&w, 4294967290u, 0);
    assert_int_equal(counter_window_add(&w, 4, SEC), COUNTER_WRAPPED);
    counter_window_add(&w, 4, 2 * SEC);
    assert_true(w.total == 10);
    assert_int_equal(w.covered_ns, 2 * SEC);
    assert_int_equal(w.busy_ns, SEC);
    assert_true(fabs(counter_window_rate(&w) - 5.0) < 1e-9);

    counter_window_init(&w, 64); /* one reading, or only a reset: no rate */
    counter_window_add(&w, 10, 0);
    assert_true(isnan(counter_window_rate(&w)));
    counter_window_add(&w, 3, SEC);
    assert_true(isnan(counter_window_rate(&w)));
}

/* counter_step, the rule of every store reader, agrees with counter_update on each kind. At 32
 * bits 4294967200 -> 100 is 95 to the top, then 0..100: 196. 3000000000 -> 5 would be
 * 1294967301 through the top, more than a quarter of 2^32 (1073741824): a reset. The boundary:
 * a quarter of the range exactly (1073741824) is a wrap, one more a reset. */
static void step_judges_as_update(void **state)
{
    (void)state;
    uint64_t step = 99;
    assert_true(counter_step(100, 350, 32, &step) && step == 250);
    assert_true(counter_step(350, 350, 32, &step) && step == 0);
    assert_true(counter_step(4294967200u, 100, 32, &step) && step == 196);
    assert_false(counter_step(4294967200u, 100, 64, &step)); /* at 64 bits: a reset */
    assert_int_equal(step, 0);
    assert_false(counter_step(4294967200u, 100, 0, &step)); /* 0: 64 */
    assert_false(counter_step(3000000000u, 5, 32, &step));
    assert_true(counter_step(UINT64_MAX - 4, 5, 64, &step) && step == 10);
    assert_true(counter_step(3221225472u, 0, 32, &step) && step == 1073741824u);
    assert_false(counter_step(3221225471u, 0, 32, &step));
    /* a reading the width cannot hold: the width was said wrong, judged at 64 */
    assert_true(counter_step(4294967200u, 4294967400u, 32, &step) && step == 200);
    assert_false(counter_step(4294967400u, 100, 32, &step));
    for (uint64_t prev = 4294967000u; prev < 4294967296u; prev += 37) {
        struct counter_state st;
        counter_state_init(&st);
        counter_update(&st, prev, 0, 32, 0);
        struct counter_delta d = counter_update(&st, 150, SEC, 32, 0);
        assert_int_equal(counter_step(prev, 150, 32, &step), d.kind != COUNTER_RESET);
        assert_int_equal(step, d.kind == COUNTER_RESET ? 0 : d.delta);
    }
}

static void kind_names(void **state)
{
    (void)state;
    assert_string_equal(counter_delta_kind_name(COUNTER_RESET), "reset");
    assert_string_equal(counter_delta_kind_name(COUNTER_WRAPPED), "wrapped");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(first_reading_has_no_delta),
        cmocka_unit_test(plain_increase),
        cmocka_unit_test(wrap_32bit),
        cmocka_unit_test(wrap_32bit_exactly_to_zero),
        cmocka_unit_test(wrap_64bit),
        cmocka_unit_test(reset_to_smaller_value_64),
        cmocka_unit_test(reset_to_smaller_value_32),
        cmocka_unit_test(caller_bound_turns_wrap_into_reset),
        cmocka_unit_test(reading_wider_than_counter_is_invalid),
        cmocka_unit_test(window_leaves_a_reset_out),
        cmocka_unit_test(step_judges_as_update),
        cmocka_unit_test(kind_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
