#include "unit.h"

#include "headroom.h"

#define G 1000000000ULL

static struct headroom compute(uint64_t bps, uint64_t cable_m, uint64_t mtu,
                               enum cable_medium medium, enum headroom_formula formula)
{
    struct headroom_input in = {
        .link_bps = bps,
        .cable_mm = cable_m * 1000,
        .medium = medium,
        .mtu = mtu,
        .response_ns = HEADROOM_DEFAULT_RESPONSE_NS,
        .formula = formula,
    };
    struct headroom h;
    struct dcb_err err;
    assert_int_equal(headroom_required(&in, &h, &err), 0);
    return h;
}

static uint64_t full_total(uint64_t bps, uint64_t cable_m, uint64_t mtu)
{
    return compute(bps, cable_m, mtu, CABLE_FIBER, HEADROOM_FORMULA_FULL).total;
}

static void seed_example_is_84_kb(void **state)
{
    (void)state;
    /* background seed 004: (3 us cable RTT + 3 us pipeline + 0.72 us MTU) x 12.5 GB/s = 84 KB,
     * KB being 1000 bytes: 6.72 us x 100 Gb/s / 8 = 84000 B exactly */
    struct headroom h = compute(100 * G, 300, 9000, CABLE_FIBER, HEADROOM_FORMULA_SIMPLE);
    assert_int_equal(h.nterms, 3);
    assert_int_equal(h.term[HR_CABLE_RTT].bytes, 37500);
    assert_int_equal(h.term[HR_LOCAL_RESPONSE].bytes, 37500);
    assert_int_equal(h.term[HR_MTU].bytes, 9000);
    assert_int_equal(h.total, 84000);
}

static void full_is_simple_plus_stated_terms(void **state)
{
    (void)state;
    static const uint64_t speeds[] = { 10 * G, 25 * G, 100 * G, 400 * G, 800 * G };
    for (size_t i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++) {
        struct headroom s = compute(speeds[i], 100, 9216, CABLE_FIBER, HEADROOM_FORMULA_SIMPLE);
        struct headroom f = compute(speeds[i], 100, 9216, CABLE_FIBER, HEADROOM_FORMULA_FULL);
        assert_int_equal(f.nterms, HR_TERM_COUNT);
        for (size_t t = 0; t < s.nterms; t++) {
            assert_string_equal(f.term[t].name, s.term[t].name);
            assert_int_equal(f.term[t].bytes, s.term[t].bytes);
        }
        uint64_t quanta = pfc_peer_response_quanta(speeds[i]);
        assert_int_equal(f.term[HR_PFC_FRAME].bytes, 84); /* 672 bit times */
        assert_int_equal(f.term[HR_PEER_RESPONSE].bytes, quanta * 512 / 8);
        assert_int_equal(f.term[HR_MTU_PEER].bytes, 9216);
        assert_int_equal(f.total, s.total + 84 + quanta * 64 + 9216);
    }
    /* the 802.3 Annex 31B reaction times (rules.md §1.5): 25.2 KB at 100G, 57.9 KB at 400G */
    assert_int_equal(pfc_peer_response_quanta(100 * G), 394);
    assert_int_equal(pfc_peer_response_quanta(400 * G), 905);
    assert_int_equal(pfc_peer_response_quanta(800 * G), 905);
    assert_int_equal(pfc_peer_response_quanta(2500000000ULL), 67); /* next row up: 10G */
}

static void default_400g_100m_9216(void **state)
{
    (void)state;
    struct headroom h = compute(400 * G, 100, 9216, CABLE_FIBER, HEADROOM_FORMULA_FULL);
    assert_int_equal(h.term[HR_CABLE_RTT].bytes, 50000);       /* 1 us at 400G */
    assert_int_equal(h.term[HR_LOCAL_RESPONSE].bytes, 150000); /* 3 us at 400G */
    assert_int_equal(h.term[HR_PEER_RESPONSE].bytes, 57920);
    assert_int_equal(h.total, 50000 + 150000 + 9216 + 84 + 57920 + 9216);
    uint64_t sum = 0;
    for (size_t i = 0; i < h.nterms; i++)
        sum += h.term[i].bytes;
    assert_int_equal(sum, h.total);
}

static void monotonic_in_speed_cable_and_mtu(void **state)
{
    (void)state;
    static const uint64_t speeds[] = { 1 * G,   10 * G,  25 * G,  40 * G,  50 * G,
                                       100 * G, 200 * G, 400 * G, 800 * G, 1600 * G };
    for (size_t i = 1; i < sizeof(speeds) / sizeof(speeds[0]); i++)
        assert_true(full_total(speeds[i], 100, 9216) > full_total(speeds[i - 1], 100, 9216));
    for (uint64_t m = 1; m <= 2000; m *= 3)
        assert_true(full_total(400 * G, m, 9216) < full_total(400 * G, m * 3, 9216));
    for (uint64_t mtu = 1500; mtu < 9216; mtu += 1000)
        assert_true(full_total(400 * G, 100, mtu) < full_total(400 * G, 100, mtu + 1000));
    /* a longer response time needs more */
    struct headroom_input in = { .link_bps = 100 * G,
                                 .cable_mm = 5000,
                                 .mtu = 9216,
                                 .response_ns = 5000 };
    struct headroom longer;
    assert_int_equal(headroom_required(&in, &longer, NULL), 0);
    assert_true(longer.total > full_total(100 * G, 5, 9216));
}

static void fiber_and_dac(void **state)
{
    (void)state;
    /* The background sources give ~5 ns/m for both (seed 004) and SONiC uses one speed for
     * any cable; the medium only changes the cable term, never the others. */
    assert_int_equal(cable_propagation_ps_per_m(CABLE_FIBER), 5000);
    assert_int_equal(cable_propagation_ps_per_m(CABLE_DAC), 5000);
    struct headroom f = compute(400 * G, 3, 9216, CABLE_FIBER, HEADROOM_FORMULA_FULL);
    struct headroom d = compute(400 * G, 3, 9216, CABLE_DAC, HEADROOM_FORMULA_FULL);
    for (size_t t = HR_LOCAL_RESPONSE; t < HR_TERM_COUNT; t++)
        assert_int_equal(f.term[t].bytes, d.term[t].bytes);
    assert_int_equal(d.term[HR_CABLE_RTT].bytes, 1500); /* 2 x 3 m x 5 ns x 50 B/ns */
    assert_int_equal(f.total, d.total);
    assert_non_null(strstr(d.term[HR_CABLE_RTT].how, "(dac)"));
    assert_non_null(strstr(f.term[HR_CABLE_RTT].how, "(fiber)"));
}

static void bad_input_and_rounding(void **state)
{
    (void)state;
    struct headroom h;
    struct dcb_err err;
    struct headroom_input in = { .link_bps = 0, .mtu = 9216 };
    assert_int_equal(headroom_required(&in, &h, &err), DCB_E_INVAL);
    in = (struct headroom_input){ .link_bps = 100 * G, .mtu = 0 };
    assert_int_equal(headroom_required(&in, &h, &err), DCB_E_INVAL);
    /* 1 mm of cable at 1G is 0.00125 B: rounded up, never to zero */
    in = (struct headroom_input){ .link_bps = 1 * G,
                                  .cable_mm = 1,
                                  .mtu = 1500,
                                  .formula = HEADROOM_FORMULA_SIMPLE };
    assert_int_equal(headroom_required(&in, &h, &err), 0);
    assert_int_equal(h.term[HR_CABLE_RTT].bytes, 1);
    assert_int_equal(h.term[HR_LOCAL_RESPONSE].bytes, 0);
    /* beyond 64 bits is an error, not a wrapped number */
    in = (struct headroom_input){ .link_bps = UINT64_MAX, .cable_mm = UINT64_MAX / 2, .mtu = 9216 };
    assert_int_equal(headroom_required(&in, &h, &err), DCB_E_RANGE);
}

static void plan_in_order_at_common_speeds(void **state)
{
    (void)state;
    static const uint64_t speeds[] = { 25 * G, 100 * G, 400 * G, 800 * G };
    static const struct {
        uint64_t buffer;
        uint32_t ports, prios;
    } boxes[] = {
        { 64000000, 64, 1 },  { 64000000, 64, 2 },   { 32000000, 32, 1 },
        { 16000000, 128, 8 }, { 2000000000, 32, 1 },
    };
    for (size_t i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++) {
        for (size_t b = 0; b < sizeof(boxes) / sizeof(boxes[0]); b++) {
            struct threshold_plan_input in = { speeds[i], boxes[b].buffer, boxes[b].ports,
                                               boxes[b].prios, 0 };
            struct threshold_plan p;
            assert_int_equal(threshold_plan(&in, &p, NULL), 0);
            const char *why = "unset";
            assert_true(threshold_order_ok(&p.v, &why));
            assert_null(why);
            assert_int_equal(p.v.xoff, boxes[b].buffer / (boxes[b].ports * boxes[b].prios));
            assert_true(p.why_xon[0] && p.why_kmin[0] && p.why_kmax[0] && p.why_xoff[0]);
        }
    }
}

static void plan_scales_with_speed(void **state)
{
    (void)state;
    /* with room to spare, Kmin is one BDP at 2 us and Kmax 15 of them: the published starting
     * values are min_th 100 KB / max_th 1.5 MB at 400G, 200 KB / 3 MB at 800G */
    struct threshold_plan_input in = { 400 * G, 2000000000ULL, 32, 1, 0 };
    struct threshold_plan p;
    assert_int_equal(threshold_plan(&in, &p, NULL), 0);
    assert_false(p.clamped);
    assert_int_equal(p.v.kmin, 100000);
    assert_int_equal(p.v.kmax, 1500000);
    assert_int_equal(p.v.xon, 50000);
    in.link_bps = 800 * G;
    assert_int_equal(threshold_plan(&in, &p, NULL), 0);
    assert_int_equal(p.v.kmin, 200000);
    assert_int_equal(p.v.kmax, 3000000);
    in.link_bps = 100 * G;
    in.base_rtt_ns = 4000; /* a longer round trip, a larger BDP */
    assert_int_equal(threshold_plan(&in, &p, NULL), 0);
    assert_int_equal(p.bdp_bytes, 50000);
    assert_int_equal(p.v.kmin, 50000);
    /* 64MB over 64 ports: Kmax is capped under the 1 MB XOFF, and Kmin stays one BDP at every
     * speed instead of shrinking with the cap (it was 18.75 KB at both 400G and 800G) */
    in = (struct threshold_plan_input){ 400 * G, 64000000, 64, 1, 0 };
    assert_int_equal(threshold_plan(&in, &p, NULL), 0);
    assert_true(p.clamped);
    assert_false(p.kmin_below_bdp);
    assert_int_equal(p.v.xoff, 1000000);
    assert_int_equal(p.v.kmax, 750000);
    assert_int_equal(p.v.kmin, 100000);
    assert_int_equal(p.v.xon, 50000);
    in.link_bps = 800 * G;
    assert_int_equal(threshold_plan(&in, &p, NULL), 0);
    assert_int_equal(p.v.kmin, 200000);
    assert_int_equal(p.v.kmax, 750000);
    /* 16MB over 128 ports x 8 PGs at 800G: 15.6 KB per PG cannot hold one BDP (200 KB) */
    in = (struct threshold_plan_input){ 800 * G, 16000000, 128, 8, 0 };
    assert_int_equal(threshold_plan(&in, &p, NULL), 0);
    assert_true(p.kmin_below_bdp);
    assert_int_equal(p.v.xoff, 15625);
    assert_int_equal(p.v.kmax, 15625 - 15625 / 4);
    assert_int_equal(p.v.kmin, (15625 - 15625 / 4) / 2);
}

static void plan_rejects_bad_input(void **state)
{
    (void)state;
    struct threshold_plan p;
    struct dcb_err err;
    struct threshold_plan_input in = { 400 * G, 64000000, 0, 1, 0 };
    assert_int_equal(threshold_plan(&in, &p, &err), DCB_E_INVAL);
    in = (struct threshold_plan_input){ 400 * G, 64000000, 64, 9, 0 };
    assert_int_equal(threshold_plan(&in, &p, &err), DCB_E_INVAL);
    in = (struct threshold_plan_input){ 400 * G, 100, 64, 8, 0 }; /* 0 bytes per PG */
    assert_int_equal(threshold_plan(&in, &p, &err), DCB_E_RANGE);
}

static void order_check_rejects_each_wrong_order(void **state)
{
    (void)state;
    const char *why = NULL;
    struct threshold_values ok = { .xon = 10, .kmin = 20, .kmax = 30, .xoff = 40 };
    assert_true(threshold_order_ok(&ok, &why));
    assert_null(why);
    assert_true(threshold_order_ok(&ok, NULL));

    static const struct {
        struct threshold_values v;
        const char *why;
    } bad[] = {
        { { 20, 20, 30, 40 }, "XON >= Kmin" }, /* equal is not below */
        { { 25, 20, 30, 40 }, "XON >= Kmin" },
        { { 10, 30, 30, 40 }, "Kmin >= Kmax" },
        { { 10, 35, 30, 40 }, "Kmin >= Kmax" },
        { { 10, 20, 40, 40 }, "Kmax >= XOFF" },
        { { 10, 20, 50, 40 }, "Kmax >= XOFF" },
        { { 40, 30, 20, 10 }, "XON >= Kmin" }, /* reversed: the first pair is named */
        { { 0, 0, 0, 0 }, "XON >= Kmin" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        why = NULL;
        assert_false(threshold_order_ok(&bad[i].v, &why));
        assert_string_equal(why, bad[i].why);
        assert_false(threshold_order_ok(&bad[i].v, NULL));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seed_example_is_84_kb),
        cmocka_unit_test(full_is_simple_plus_stated_terms),
        cmocka_unit_test(default_400g_100m_9216),
        cmocka_unit_test(monotonic_in_speed_cable_and_mtu),
        cmocka_unit_test(fiber_and_dac),
        cmocka_unit_test(bad_input_and_rounding),
        cmocka_unit_test(plan_in_order_at_common_speeds),
        cmocka_unit_test(plan_scales_with_speed),
        cmocka_unit_test(plan_rejects_bad_input),
        cmocka_unit_test(order_check_rejects_each_wrong_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
