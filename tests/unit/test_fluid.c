/* The DCQCN fluid model (rules/replay/fluid.h), the replay engine's oracle: its fixed point with
 * the fast-recovery factors against the figures solved independently for the issue and
 * ../shared/background/dcqcn-model.md (20.2 / 41.8 KB for 2 / 4 flows at 40G), and the same
 * model integrated in time, which must settle where the fixed point is. */
#include "unit.h"

#include <math.h>
#include <stdio.h>

#include "fluid.h"

static void near_kb(double got_bytes, double want_kb, double tol_kb)
{
    if (fabs(got_bytes / 1000 - want_kb) > tol_kb) {
        print_error("got %.3f KB, want %.3f +- %.3f KB\n", got_bytes / 1000, want_kb, tol_kb);
        fail();
    }
}

static double fixed_queue(double line_bps, unsigned n, unsigned fast_steps)
{
    struct fluid_model m;
    fluid_model_paper(&m, line_bps, n);
    m.dcqcn.fast_steps = fast_steps;
    struct fluid_point fp;
    assert_int_equal(fluid_fixed_point(&m, &fp), 0);
    assert_true(fabs(fp.rc_bps - line_bps / n) < 1e-6 * line_bps);
    assert_true(fp.rt_bps > fp.rc_bps);
    return fp.queue_bytes;
}

/* 1000-byte packets, the paper's parameters (RED 5 KB / 200 KB / 1 %, F 5). */
static void fixed_points(void **state)
{
    (void)state;
    near_kb(fixed_queue(40e9, 2, 5), 20.15, 0.01);
    near_kb(fixed_queue(40e9, 4, 5), 41.81, 0.01);
    near_kb(fixed_queue(40e9, 8, 5), 93.77, 0.01);
    near_kb(fixed_queue(40e9, 10, 5), 122.62, 0.01);
    near_kb(fixed_queue(100e9, 2, 5), 9.65, 0.01);
    /* p* depends on the per-flow rate only: 100G / 10 flows is 40G / 4 */
    near_kb(fixed_queue(100e9, 10, 5), fixed_queue(40e9, 4, 5) / 1000, 1e-6);
    /* without the fast-recovery factors (F = 0), the figures the old oracle gave */
    near_kb(fixed_queue(40e9, 2, 0), 23.1, 0.05);
    near_kb(fixed_queue(40e9, 4, 0), 50.9, 0.05);
}

/* Below about 2.7 G a flow, p* would pass pmax: no fixed point on the line, the queue sits at
 * Kmax. */
static void pinned_at_kmax(void **state)
{
    (void)state;
    struct fluid_model m;
    fluid_model_paper(&m, 40e9, 16);
    struct fluid_point fp;
    assert_int_equal(fluid_fixed_point(&m, &fp), -1);
    near_kb(fp.queue_bytes, 200, 1e-9);
}

/* The engine's frames: 1062 bytes queued and counted, 1082 on the wire for 1000-byte payloads.
 * Fewer, bigger packets at the same rate: a higher p* per packet. */
static void engine_frames(void **state)
{
    (void)state;
    struct fluid_model m;
    fluid_model_paper(&m, 40e9, 2);
    fluid_model_payload(&m, 1000);
    assert_true(m.frame_bytes == 1062 && m.wire_bytes == 1082);
    struct fluid_point fp;
    assert_int_equal(fluid_fixed_point(&m, &fp), 0);
    printf("40G, 2 flows, 1000-byte payloads: q* %.2f KB (1000-byte packets: 20.15)\n",
           fp.queue_bytes / 1000);
    near_kb(fp.queue_bytes, 21.4, 0.05);
}

struct settle {
    double from_s, queue_sum, last_rc;
    long points;
};

static void settle_step(void *arg, double t, const double *rc_bps, double queue_bytes)
{
    struct settle *s = arg;
    if (t >= s->from_s) {
        s->queue_sum += queue_bytes;
        s->points++;
    }
    s->last_rc = rc_bps[0];
}

/* From every flow at line rate, alpha 1, an empty queue, 4 us of feedback delay: after 300 ms
 * the queue and the rates stay at the fixed point. */
static void integration_settles(unsigned n)
{
    struct fluid_model m;
    fluid_model_paper(&m, 40e9, n);
    struct fluid_point fp;
    assert_int_equal(fluid_fixed_point(&m, &fp), 0);
    struct settle s = { 0.3, 0, 0, 0 };
    assert_int_equal(fluid_integrate(&m, NULL, 0.4, 1e-6, settle_step, &s), 0);
    double queue = s.queue_sum / (double)s.points;
    printf("%u flows at 40G: integrated queue %.3f KB from 300 to 400 ms, fixed point %.3f KB; "
           "Rc %.4f G\n",
           n, queue / 1000, fp.queue_bytes / 1000, s.last_rc / 1e9);
    assert_true(fabs(queue - fp.queue_bytes) < 0.005 * fp.queue_bytes);
    assert_true(fabs(s.last_rc - fp.rc_bps) < 0.005 * fp.rc_bps);
}

static void integration_two(void **state)
{
    (void)state;
    integration_settles(2);
}

static void integration_four(void **state)
{
    (void)state;
    integration_settles(4);
}

struct join {
    double join_s, fair_bps, last_apart_s;
};

static void join_step(void *arg, double t, const double *rc_bps, double queue_bytes)
{
    struct join *j = arg;
    (void)queue_bytes;
    if (t > j->join_s && fabs(rc_bps[0] - rc_bps[1]) >= 0.1 * j->fair_bps)
        j->last_apart_s = t;
}

/* A second flow joins one that has the link: the time until their rates stay within 10 % of
 * the fair share of each other, the figure the engine's convergence is judged by
 * (dcqcn-model.md: about 59 ms at 40G, 112 ms at 100G). */
static double join_time(double line_bps)
{
    struct fluid_model m;
    fluid_model_paper(&m, line_bps, 2);
    double start[2] = { 0, 0.1 };
    struct join j = { 0.1, line_bps / 2, 0 };
    assert_int_equal(fluid_integrate(&m, start, 0.4, 1e-6, join_step, &j), 0);
    return j.last_apart_s - j.join_s;
}

static void convergence_time(void **state)
{
    (void)state;
    double t40 = join_time(40e9), t100 = join_time(100e9);
    printf("a second flow joins: within 10 %% of fair share for good after %.1f ms at 40G, "
           "%.1f ms at 100G\n",
           t40 * 1e3, t100 * 1e3);
    assert_true(t40 > 0.050 && t40 < 0.070);
    assert_true(t100 > 0.095 && t100 < 0.130);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fixed_points),     cmocka_unit_test(pinned_at_kmax),
        cmocka_unit_test(engine_frames),    cmocka_unit_test(integration_two),
        cmocka_unit_test(integration_four), cmocka_unit_test(convergence_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
