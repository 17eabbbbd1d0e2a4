/* dcbtop's model and view: rates from counter readings (two readings needed, wraps at the
 * source's width, resets, repeated instants), the columns over the lossless set, history, the
 * sort, human units, and network strings made safe for a terminal. The dcbtop sources are
 * compiled in (they are not part of the library). */
#include "unit.h"

#include <math.h>

#include "../../cmd/dcbtop/model.c"
#include "../../cmd/dcbtop/view.c"

#define SEC 1000000000LL
#define T0 (1700000000LL * SEC)

static void put(struct dcb_sink *sink, const char *ifname, enum metric_id m, int prio,
                uint64_t value, int64_t t, unsigned bits)
{
    struct dcb_sample s;
    dcb_sample_set(&s, t, "h", ifname, m, prio, -1);
    s.value.counter = value;
    sink->sample(sink->arg, &s, bits);
}

static void rates_need_two_readings(void **state)
{
    (void)state;
    struct top_model m;
    struct dcb_err err;
    assert_int_equal(model_init(&m, &err), 0);
    struct dcb_sink sink = model_sink(&m);
    put(&sink, "eth0", METRIC_PORT_RX_BYTES, -1, 1000, T0, 64);
    put(&sink, "eth0", METRIC_PFC_RX_PAUSE, 3, 10, T0, 64);
    model_settle(&m);
    assert_int_equal(m.n, 1);
    struct top_iface *i = m.ifaces[0];
    assert_int_equal(i->col[COL_RX].state, VAL_PENDING);
    assert_int_equal(i->col[COL_PFC_RX].state, VAL_PENDING);
    assert_int_equal(i->col[COL_CNP_SENT].state, VAL_ABSENT);
    put(&sink, "eth0", METRIC_PORT_RX_BYTES, -1, 1000 + 125000000, T0 + SEC, 64);
    put(&sink, "eth0", METRIC_PFC_RX_PAUSE, 3, 510, T0 + SEC, 64);
    /* the same instant again (a replay pass boundary) keeps the rate */
    put(&sink, "eth0", METRIC_PFC_RX_PAUSE, 3, 510, T0 + SEC, 64);
    model_settle(&m);
    assert_int_equal(i->col[COL_RX].state, VAL_KNOWN);
    assert_true(fabs(i->col[COL_RX].v - 1e9) < 1e-3); /* bits per second */
    assert_true(fabs(i->col[COL_PFC_RX].v - 500) < 1e-9);
    assert_int_equal(i->hist_n, 2);
    model_free(&m);
}

/* Readings twice a refresh (the replay's rounds): the rate spans the whole refresh interval, from
 * the reading one interval back; readings once a refresh: between consecutive ones. */
static void rates_span_the_refresh_interval(void **state)
{
    (void)state;
    struct top_model m;
    struct dcb_err err;
    assert_int_equal(model_init(&m, &err), 0);
    m.rate_window_ns = SEC;
    struct dcb_sink sink = model_sink(&m);
    /* 100 bytes in the first half second, 300 in the second, 500 in the third half */
    const uint64_t at[] = { 0, 100, 400, 900 };
    for (int k = 0; k < 4; k++) {
        put(&sink, "eth0", METRIC_PORT_RX_BYTES, -1, at[k], T0 + k * SEC / 2, 64);
        model_settle(&m);
    }
    struct top_iface *i = m.ifaces[0];
    assert_true(fabs(model_rate(i, METRIC_PORT_RX_BYTES, 8) - 800) < 1e-9); /* 400 .. 1.5 s */
    assert_true(fabs(i->col[COL_RX].v - 6400) < 1e-9);
    /* at 0.5 s the only base was half a second old: the rate over that */
    assert_true(fabs(i->hist[COL_RX][1] - 1600) < 1e-3);
    /* a reading a whole interval later: from the newest one */
    put(&sink, "eth0", METRIC_PORT_RX_BYTES, -1, 1900, T0 + 5 * SEC / 2, 64);
    assert_true(fabs(model_rate(i, METRIC_PORT_RX_BYTES, 8) - 1000) < 1e-9);
    /* a reset starts over: no rate across it, then the rate from the reset's reading */
    put(&sink, "eth0", METRIC_PORT_RX_BYTES, -1, 10, T0 + 3 * SEC, 64);
    assert_true(isnan(model_rate(i, METRIC_PORT_RX_BYTES, 8)));
    put(&sink, "eth0", METRIC_PORT_RX_BYTES, -1, 60, T0 + 7 * SEC / 2, 64);
    assert_true(fabs(model_rate(i, METRIC_PORT_RX_BYTES, 8) - 100) < 1e-9);
    model_free(&m);
}

static void wraps_at_the_source_width_and_resets(void **state)
{
    (void)state;
    struct top_model m;
    struct dcb_err err;
    assert_int_equal(model_init(&m, &err), 0);
    struct dcb_sink sink = model_sink(&m);
    /* a 32-bit Q-counter wraps: +16 */
    put(&sink, "eth0", METRIC_ROCE_OUT_OF_SEQUENCE, -1, 4294967290ULL, T0, 32);
    put(&sink, "eth0", METRIC_ROCE_OUT_OF_SEQUENCE, -1, 10, T0 + SEC, 32);
    /* a 64-bit counter that goes back was reset: no rate spans it (it may have restarted from
     * any value), until the next reading */
    put(&sink, "eth0", METRIC_CNP_SENT, -1, 900000, T0, 64);
    put(&sink, "eth0", METRIC_CNP_SENT, -1, 12, T0 + SEC, 64);
    model_settle(&m);
    struct top_iface *i = m.ifaces[0];
    assert_true(fabs(i->col[COL_OOS].v - 16) < 1e-9);
    assert_int_equal(i->col[COL_CNP_SENT].state, VAL_PENDING);
    put(&sink, "eth0", METRIC_CNP_SENT, -1, 32, T0 + 2 * SEC, 64);
    model_settle(&m);
    assert_int_equal(i->col[COL_CNP_SENT].state, VAL_KNOWN);
    assert_true(fabs(i->col[COL_CNP_SENT].v - 20) < 1e-9);
    model_free(&m);
}

/* Readings that stop (a switch out of reach): after two intervals and a second the interface
 * is stale, its rates unknown rather than the last ones; a reading makes it fresh again. */
static void stale_when_readings_stop(void **state)
{
    (void)state;
    struct top_model m;
    struct dcb_err err;
    assert_int_equal(model_init(&m, &err), 0);
    struct dcb_sink sink = model_sink(&m);
    m.wall_ns = T0;
    put(&sink, "eth0", METRIC_PFC_RX_PAUSE, 3, 10, T0, 64);
    m.wall_ns = T0 + SEC;
    put(&sink, "eth0", METRIC_PFC_RX_PAUSE, 3, 60, T0 + SEC, 64);
    model_settle(&m);
    struct top_iface *i = m.ifaces[0];
    model_mark_stale(&m, T0 + 4 * SEC, SEC); /* 3 s: not yet (2 x 1 s + 1 s) */
    assert_int_equal(i->stale_ns, 0);
    assert_true(fabs(i->col[COL_PFC_RX].v - 50) < 1e-9);
    model_mark_stale(&m, T0 + 5 * SEC, SEC); /* 4 s */
    assert_int_equal(i->stale_ns, 4 * SEC);
    assert_int_equal(i->col[COL_PFC_RX].state, VAL_PENDING);
    struct top_val pc[TOP_NCOLS];
    model_prio_cols(i, 3, pc);
    assert_int_equal(pc[COL_PFC_RX].state, VAL_PENDING);
    m.wall_ns = T0 + 6 * SEC;
    put(&sink, "eth0", METRIC_PFC_RX_PAUSE, 3, 310, T0 + 6 * SEC, 64);
    model_settle(&m);
    model_mark_stale(&m, T0 + 6 * SEC, SEC);
    assert_int_equal(i->stale_ns, 0);
    assert_true(fabs(i->col[COL_PFC_RX].v - 50) < 1e-9); /* 250 over the 5 s */
    model_free(&m);
}

static void columns_cover_the_lossless_set(void **state)
{
    (void)state;
    struct top_model m;
    struct dcb_err err;
    assert_int_equal(model_init(&m, &err), 0);
    struct dcb_sink sink = model_sink(&m);
    for (int k = 0; k < 2; k++)
        for (int p = 0; p < 8; p++)
            put(&sink, "eth0", METRIC_PFC_RX_PAUSE, p, (uint64_t)(k * (p + 1) * 100), T0 + k * SEC,
                64);
    struct store_config_row row = { T0, "h", "eth0", "dcbnl", "{\"pfc\":{\"enabled\":24}}" };
    sink.config(sink.arg, &row);
    model_settle(&m);
    struct top_iface *i = m.ifaces[0];
    assert_int_equal(model_prio_mask(&m, i), 0x18);
    model_set_prio(&m, TOP_PRIO_LOSSLESS);
    assert_true(fabs(i->col[COL_PFC_RX].v - (400 + 500)) < 1e-9); /* prios 3 and 4 */
    model_set_prio(&m, 7);
    assert_true(fabs(i->col[COL_PFC_RX].v - 800) < 1e-9);
    struct top_val pc[TOP_NCOLS];
    model_prio_cols(i, 0, pc);
    assert_true(fabs(pc[COL_PFC_RX].v - 100) < 1e-9);
    assert_int_equal(pc[COL_OOS].state, VAL_ABSENT);
    model_free(&m);
}

static void sorted_largest_first_unknown_last(void **state)
{
    (void)state;
    struct top_model m;
    struct dcb_err err;
    assert_int_equal(model_init(&m, &err), 0);
    struct dcb_sink sink = model_sink(&m);
    const char *names[] = { "a", "b", "c", "d" };
    uint64_t rate[] = { 5, 50, 0, 7 };
    for (int k = 0; k < 4; k++) {
        put(&sink, names[k], METRIC_PFC_RX_PAUSE, 3, 0, T0, 64);
        if (k != 3) /* d has one reading only: unknown */
            put(&sink, names[k], METRIC_PFC_RX_PAUSE, 3, rate[k], T0 + SEC, 64);
    }
    model_settle(&m);
    struct top_view v = { .sort = COL_PFC_RX };
    struct top_iface *rows[8] = { NULL };
    assert_int_equal(view_rows(&m, &v, rows, 8), 4);
    assert_string_equal(rows[0]->ifname, "b");
    assert_string_equal(rows[1]->ifname, "a");
    assert_string_equal(rows[2]->ifname, "c");
    assert_string_equal(rows[3]->ifname, "d");
    snprintf(v.filter, sizeof(v.filter), "b");
    assert_int_equal(view_rows(&m, &v, rows, 8), 1);
    model_free(&m);
}

static void human_units(void **state)
{
    (void)state;
    char b[32];
    view_format(b, sizeof(b), (struct top_val){ NAN, VAL_PENDING }, UNIT_PER_S, true);
    assert_string_equal(b, "\xe2\x80\xa6");
    view_format(b, sizeof(b), (struct top_val){ NAN, VAL_PENDING }, UNIT_PER_S, false);
    assert_string_equal(b, "...");
    view_format(b, sizeof(b), (struct top_val){ NAN, VAL_ABSENT }, UNIT_PER_S, true);
    assert_string_equal(b, "-");
    view_format(b, sizeof(b), (struct top_val){ 93.1e9, VAL_KNOWN }, UNIT_BPS, true);
    assert_string_equal(b, "93G");
    view_format(b, sizeof(b), (struct top_val){ 1234, VAL_KNOWN }, UNIT_PER_S, true);
    assert_string_equal(b, "1.2k");
    view_format(b, sizeof(b), (struct top_val){ 0.5, VAL_KNOWN }, UNIT_PER_S, true);
    assert_string_equal(b, "0.5");
    view_format(b, sizeof(b), (struct top_val){ 0, VAL_KNOWN }, UNIT_PER_S, true);
    assert_string_equal(b, "0");
    view_format(b, sizeof(b), (struct top_val){ 12.5, VAL_KNOWN }, UNIT_PCT, true);
    assert_string_equal(b, "12%");
    view_format(b, sizeof(b), (struct top_val){ 5, VAL_KNOWN }, UNIT_PCT, true);
    assert_string_equal(b, "5.0%");
}

static void network_strings_cannot_reach_the_terminal(void **state)
{
    (void)state;
    char b[256];
    view_sanitize("evil\x1b]0;t\x07sw\x1b[31mRED", b, sizeof(b), true);
    assert_string_equal(b, "evil\\x1b]0;t\\x07sw\\x1b[31mRED");
    view_sanitize("a\xc2\x9b"
                  "31mb",
                  b, sizeof(b), true); /* C1 CSI */
    assert_string_equal(b, "a\\xc2\\x9b31mb");
    view_sanitize("x\xe2\x80\xaey", b, sizeof(b), true); /* RLO */
    assert_string_equal(b, "x\\xe2\\x80\\xaey");
    view_sanitize("caf\xc3\xa9 \xff", b, sizeof(b), true); /* é kept, bad byte not */
    assert_string_equal(b, "caf\xc3\xa9 \\xff");
    view_sanitize("caf\xc3\xa9", b, sizeof(b), false); /* no UTF-8: escaped */
    assert_string_equal(b, "caf\\xc3\\xa9");
    view_sanitize("\x7f\x01", b, sizeof(b), true);
    assert_string_equal(b, "\\x7f\\x01");
    view_sanitize("abcdef", b, 4, true); /* cut, terminated */
    assert_string_equal(b, "abc");
    view_sanitize("\x1b\x1b", b, 6, true); /* never half an escape */
    assert_string_equal(b, "\\x1b");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rates_need_two_readings),
        cmocka_unit_test(rates_span_the_refresh_interval),
        cmocka_unit_test(wraps_at_the_source_width_and_resets),
        cmocka_unit_test(stale_when_readings_stop),
        cmocka_unit_test(columns_cover_the_lossless_set),
        cmocka_unit_test(sorted_largest_first_unknown_last),
        cmocka_unit_test(human_units),
        cmocka_unit_test(network_strings_cannot_reach_the_terminal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
