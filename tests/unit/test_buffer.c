/* The switch's shared buffer (rules/replay/buffer.h) without an event loop: packets admitted,
 * counted and released by hand, and each decision (ingress admission, XOFF, XON, WRED's pick,
 * egress admission) checked at and either side of its threshold. */
#include "unit.h"

#include <math.h>
#include <stdio.h>

#include "buffer.h"

#define KB 1000u

static struct ingress_pg lossless_pg(uint64_t xoff, uint64_t xon, uint64_t headroom)
{
    return (
        struct ingress_pg){ .xoff = xoff, .xon = xon, .headroom = headroom, .limit = 512 * 1024 };
}

/* A static XOFF of 10 KB and 4 KB of headroom: admitted up to 14 KB, XOFF from 10 KB on. */
static void static_thresholds(void **state)
{
    (void)state;
    struct shared_buffer b = { .size = 1u << 20 };
    struct ingress_pg g = lossless_pg(10 * KB, 5 * KB, 4 * KB);
    assert_int_equal(buffer_pg_xoff_threshold(&b, &g), 10 * KB);
    assert_int_equal(buffer_pg_xon_threshold(&g, 10 * KB), 5 * KB);

    for (int i = 0; i < 9; i++) { /* 9 KB: below XOFF */
        assert_int_equal(buffer_ingress_admit(&b, &g, true, KB), INGRESS_ADMIT);
        assert_false(buffer_pg_should_xoff(&b, &g, KB));
        buffer_ingress_account(&b, &g, KB);
    }
    assert_int_equal(g.bytes, 9 * KB);
    assert_int_equal(b.used, 9 * KB);
    assert_int_equal(g.headroom_watermark, 0);
    /* the 10th KB reaches XOFF: admitted, and the group must pause its sender */
    assert_int_equal(buffer_ingress_admit(&b, &g, true, KB), INGRESS_ADMIT);
    assert_true(buffer_pg_should_xoff(&b, &g, KB));
    g.xoff_sent = true;
    assert_false(buffer_pg_should_xoff(&b, &g, KB)); /* once */
    buffer_ingress_account(&b, &g, KB);
    for (int i = 0; i < 4; i++) { /* the headroom fills to 14 KB */
        assert_int_equal(buffer_ingress_admit(&b, &g, true, KB), INGRESS_ADMIT);
        buffer_ingress_account(&b, &g, KB);
    }
    assert_int_equal(g.headroom_watermark, 4 * KB);
    assert_int_equal(g.watermark, 14 * KB);
    /* one byte more is past the headroom */
    assert_int_equal(buffer_ingress_admit(&b, &g, true, 1), INGRESS_HEADROOM);

    /* XON at 5 KB, not above */
    for (int i = 0; i < 8; i++) {
        buffer_ingress_release(&b, &g, KB);
        assert_false(buffer_pg_should_xon(&b, &g));
    }
    assert_int_equal(g.bytes, 6 * KB);
    buffer_ingress_release(&b, &g, KB);
    assert_true(buffer_pg_should_xon(&b, &g));
    g.xoff_sent = false;
    assert_false(buffer_pg_should_xon(&b, &g)); /* nothing to resume */
    assert_int_equal(b.used, 5 * KB);
    assert_int_equal(g.watermark, 14 * KB); /* a watermark stays */
}

/* Without an xon, XON at half the XOFF threshold; without an xoff, a PG pauses at an eighth of
 * the free buffer. */
static void default_thresholds(void **state)
{
    (void)state;
    struct shared_buffer b = { .size = 800 * KB };
    struct ingress_pg g = lossless_pg(UINT64_MAX, UINT64_MAX, 0);
    assert_int_equal(buffer_pg_xoff_threshold(&b, &g), 100 * KB);
    b.used = 400 * KB;
    assert_int_equal(buffer_pg_xoff_threshold(&b, &g), 50 * KB);
    g = lossless_pg(40 * KB, UINT64_MAX, 0);
    assert_int_equal(buffer_pg_xon_threshold(&g, buffer_pg_xoff_threshold(&b, &g)), 20 * KB);
}

/* A dynamic threshold: alpha x free buffer, never above the configured xoff. */
static void dynamic_threshold(void **state)
{
    (void)state;
    struct shared_buffer b = { .size = 1000 * KB };
    struct ingress_pg g = lossless_pg(200 * KB, UINT64_MAX, 50 * KB);
    g.dynamic = true;
    g.alpha = 1.0 / 8; /* dynamic_th -3 */
    assert_int_equal(buffer_pg_xoff_threshold(&b, &g), 125 * KB);
    b.used = 600 * KB; /* other groups hold most of it */
    assert_int_equal(buffer_pg_xoff_threshold(&b, &g), 50 * KB);
    g.alpha = 4;
    assert_int_equal(buffer_pg_xoff_threshold(&b, &g), 200 * KB); /* capped at xoff */
    /* the same packet: admitted into headroom while the buffer is empty enough, not after */
    g.alpha = 1.0 / 8;
    g.bytes = 90 * KB;
    b.used = 600 * KB; /* threshold 50 KB + 50 KB headroom */
    assert_int_equal(buffer_ingress_admit(&b, &g, true, 10 * KB), INGRESS_ADMIT);
    b.used = 700 * KB; /* threshold 37.5 KB */
    assert_int_equal(buffer_ingress_admit(&b, &g, true, 10 * KB), INGRESS_HEADROOM);
    assert_true(buffer_pg_should_xoff(&b, &g, 10 * KB));
}

/* A lossy group drops above its size; a full buffer drops any packet. */
static void lossy_and_full(void **state)
{
    (void)state;
    struct shared_buffer b = { .size = 100 * KB };
    struct ingress_pg g = lossless_pg(UINT64_MAX, UINT64_MAX, 0);
    g.limit = 20 * KB;
    g.bytes = 19 * KB;
    assert_int_equal(buffer_ingress_admit(&b, &g, false, KB), INGRESS_ADMIT);
    assert_int_equal(buffer_ingress_admit(&b, &g, false, KB + 1), INGRESS_LIMIT);
    buffer_ingress_account(&b, &g, KB);
    assert_int_equal(g.headroom_watermark, 0); /* a lossy group has no headroom */
    b.used = 100 * KB - 10;
    assert_int_equal(buffer_ingress_admit(&b, &g, false, 10), INGRESS_LIMIT);
    assert_int_equal(buffer_ingress_admit(&b, &g, true, 11), INGRESS_FULL);
    assert_int_equal(buffer_ingress_admit(&b, &g, false, 11), INGRESS_FULL);
}

/* WRED: nothing at or below min, everything above max; in between the share picked is the line
 * from 0 to max_p, over many draws. An ECT packet on a marking queue is marked, others dropped. */
static void wred_curve(void **state)
{
    (void)state;
    struct wred w = { true, true, 5000, 200000, 0.01 };
    uint64_t rng = 1, before = rng;
    assert_int_equal(buffer_should_mark(&w, 5000, true, &rng), WRED_PASS);
    assert_true(rng == before); /* no draw at or below min */
    assert_int_equal(buffer_should_mark(&w, 200000, true, &rng), WRED_MARK);
    assert_int_equal(buffer_should_mark(&w, 300000, false, &rng), WRED_DROP);
    assert_true(rng == before); /* nor at or above max */

    int picked = 0, n = 200000;
    for (int i = 0; i < n; i++)
        picked += buffer_should_mark(&w, 102500, true, &rng) == WRED_MARK;
    double want = 0.01 * (102500.0 - 5000) / (200000 - 5000); /* 0.5 % */
    printf("WRED at the midpoint: %.4f %% picked, the line says %.4f %%\n", 100.0 * picked / n,
           100 * want);
    assert_true(fabs((double)picked / n - want) < 4 * sqrt(want / n));

    w.ecn = false; /* a queue that drops instead */
    assert_int_equal(buffer_should_mark(&w, 300000, true, &rng), WRED_DROP);
    w.on = false;
    assert_int_equal(buffer_should_mark(&w, 300000, true, &rng), WRED_PASS);
}

/* WRED in drop mode (switch.wred.N.ecn false) picks on the same line: the same draws pick the
 * same packets, dropped instead of marked; and a packet that is not ECT is dropped where an ECT
 * one is marked. */
static void wred_drop_mode(void **state)
{
    (void)state;
    struct wred marking = { true, true, 5000, 200000, 0.01 }, dropping = marking;
    dropping.ecn = false;
    uint64_t rng_mark = 7, rng_drop = 7;
    int marked = 0, dropped = 0, n = 200000;
    for (int i = 0; i < n; i++) {
        uint64_t q = 5000 + (uint64_t)(i % 1950) * 100; /* Kmin to Kmax */
        enum wred_verdict m = buffer_should_mark(&marking, q, true, &rng_mark);
        enum wred_verdict d = buffer_should_mark(&dropping, q, true, &rng_drop);
        assert_int_equal(m == WRED_MARK, d == WRED_DROP);
        assert_true(m != WRED_DROP && d != WRED_MARK);
        marked += m == WRED_MARK;
        dropped += d == WRED_DROP;
    }
    assert_int_equal(marked, dropped);
    assert_true(rng_mark == rng_drop);
    /* the mean of the line over q from Kmin to Kmax in steps of 100 B: max_p x 0.4997 */
    double want = 0.01 * (1949.0 / 2) / 1950;
    printf("WRED drop mode: %.4f %% dropped, the line says %.4f %%\n", 100.0 * dropped / n,
           100 * want);
    assert_true(fabs((double)dropped / n - want) < 4 * sqrt(want / n));
    uint64_t rng = 1;
    assert_int_equal(buffer_should_mark(&marking, 200000, false, &rng), WRED_DROP);
    assert_int_equal(buffer_should_mark(&dropping, 200000, true, &rng), WRED_DROP);
    assert_int_equal(buffer_should_mark(&dropping, 5000, true, &rng), WRED_PASS);
}

/* Two lossless PGs, each XOFF 10 KB and headroom 8 KB, sharing a 10 KB headroom pool: the first
 * takes 6 KB of headroom, the second is stopped at 4 KB with 4 KB of its own left, and goes on
 * once the first gives some back. Without a pool (0) it would have had its 8 KB. */
static void headroom_pool(void **state)
{
    (void)state;
    struct shared_buffer b = { .size = 1u << 20, .headroom_pool = 10 * KB };
    struct ingress_pg a = lossless_pg(10 * KB, 5 * KB, 8 * KB);
    struct ingress_pg c = lossless_pg(10 * KB, 5 * KB, 8 * KB);
    struct ingress_pg *pgs[2] = { &a, &c };
    for (int k = 0; k < 2; k++) { /* each to XOFF: no headroom yet */
        for (int i = 0; i < 10; i++) {
            assert_int_equal(buffer_ingress_admit(&b, pgs[k], true, KB), INGRESS_ADMIT);
            if (buffer_pg_should_xoff(&b, pgs[k], KB))
                pgs[k]->xoff_sent = true;
            buffer_ingress_account(&b, pgs[k], KB);
        }
        assert_true(pgs[k]->xoff_sent);
    }
    assert_int_equal(b.headroom_used, 0);
    for (int i = 0; i < 6; i++) {
        assert_int_equal(buffer_ingress_admit(&b, &a, true, KB), INGRESS_ADMIT);
        buffer_ingress_account(&b, &a, KB);
    }
    assert_int_equal(a.headroom_charged, 6 * KB);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(buffer_ingress_admit(&b, &c, true, KB), INGRESS_ADMIT);
        buffer_ingress_account(&b, &c, KB);
    }
    assert_int_equal(b.headroom_used, 10 * KB);
    assert_int_equal(buffer_ingress_admit(&b, &c, true, 1), INGRESS_HEADROOM_POOL);
    assert_int_equal(buffer_ingress_admit(&b, &a, true, 1), INGRESS_HEADROOM_POOL);
    buffer_ingress_release(&b, &a, KB); /* a gives 1 KB back */
    assert_int_equal(b.headroom_used, 9 * KB);
    assert_int_equal(buffer_ingress_admit(&b, &c, true, KB), INGRESS_ADMIT);
    assert_int_equal(buffer_ingress_admit(&b, &c, true, KB + 1), INGRESS_HEADROOM_POOL);
    buffer_ingress_account(&b, &c, KB);
    /* a falls back to XOFF and below: its share goes to 0, the pool keeps c's 5 KB */
    for (int i = 0; i < 7; i++)
        buffer_ingress_release(&b, &a, KB);
    assert_int_equal(a.headroom_charged, 0);
    assert_int_equal(b.headroom_used, 5 * KB);
    assert_int_equal(b.used, 8 * KB + 15 * KB); /* a 16 - 8, c 15 */

    b.headroom_pool = 0; /* no pool: c's own 8 KB */
    for (int i = 0; i < 3; i++) {
        assert_int_equal(buffer_ingress_admit(&b, &c, true, KB), INGRESS_ADMIT);
        buffer_ingress_account(&b, &c, KB);
    }
    assert_int_equal(buffer_ingress_admit(&b, &c, true, 1), INGRESS_HEADROOM);
}

static void egress_admission(void **state)
{
    (void)state;
    assert_true(buffer_egress_admit(WRED_PASS, false));
    assert_true(buffer_egress_admit(WRED_MARK, false));
    assert_false(buffer_egress_admit(WRED_DROP, false));
    assert_false(buffer_egress_admit(WRED_PASS, true)); /* a storm with the drop action */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(static_thresholds), cmocka_unit_test(default_thresholds),
        cmocka_unit_test(dynamic_threshold), cmocka_unit_test(lossy_and_full),
        cmocka_unit_test(wred_curve),        cmocka_unit_test(wred_drop_mode),
        cmocka_unit_test(headroom_pool),     cmocka_unit_test(egress_admission),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
