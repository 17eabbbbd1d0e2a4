/* The DCQCN reaction point driven through scripted CNPs and timers: Rc, Rt and alpha against
 * values worked out by hand here, step by step, to a relative error of 1e-9. */
#include "unit.h"

#include <math.h>

#include "dcqcn.h"

#define G40 40e9

static void near(double got, double want)
{
    double err = fabs(got - want) / (fabs(want) > 0 ? fabs(want) : 1.0);
    if (err > 1e-9) {
        print_error("got %.12g, want %.12g (relative error %g)\n", got, want, err);
        fail();
    }
}

/* Paper parameters: g 1/256, F 5, R_AI 40 Mb/s, R_HAI 200 Mb/s, B 10 MB. */
static void paper_sequence(void **state)
{
    (void)state;
    struct dcqcn_params p;
    dcqcn_params_paper(&p, G40);
    struct dcqcn_rp rp;
    dcqcn_rp_init(&rp, &p, 0);
    near(rp.rc, G40);
    near(rp.rt, G40);
    near(rp.alpha, 1.0);

    /* first CNP: Rt = Rc = 40G; Rc = 40G (1 - 1/2) = 20G; alpha = (1 - g) 1 + g = 1 */
    assert_true(dcqcn_rp_on_cnp(&rp, &p, 0));
    near(rp.rt, 40e9);
    near(rp.rc, 20e9);
    near(rp.alpha, 1.0);

    /* the alpha timer at 55 us, no CNP since 0 for a whole period: alpha = 255/256 */
    dcqcn_rp_on_alpha_timer(&rp, &p, 55000);
    near(rp.alpha, 255.0 / 256.0);
    /* at 80 us, a CNP came at 60 us: no decay then */
    assert_true(dcqcn_rp_on_cnp(&rp, &p, 60000));
    /* second CNP: Rt = 20G; Rc = 20G (1 - (255/256) / 2) = 10.0390625G;
     * alpha = (255/256)(255/256) + 1/256 */
    near(rp.rt, 20e9);
    near(rp.rc, 20e9 * (1.0 - (255.0 / 256.0) / 2.0));
    near(rp.rc, 10.0390625e9);
    double alpha = (255.0 / 256.0) * (255.0 / 256.0) + 1.0 / 256.0;
    near(rp.alpha, alpha);
    dcqcn_rp_on_alpha_timer(&rp, &p, 80000);
    near(rp.alpha, alpha);

    /* five timer events: fast recovery, Rc halves its distance to Rt = 20G */
    double rc = 10.0390625e9;
    for (int i = 0; i < 5; i++) {
        dcqcn_rp_on_timer(&rp, &p);
        rc = (20e9 + rc) / 2.0;
        near(rp.rc, rc);
        near(rp.rt, 20e9);
    }
    near(rp.rc, 19.6887207031e9); /* 20 - 9.9609375 / 32 */
    /* the sixth: additive increase, Rt = 20G + 40M, then Rc halfway */
    dcqcn_rp_on_timer(&rp, &p);
    double rt = 20.04e9;
    rc = (rt + rc) / 2.0;
    near(rp.rt, rt);
    near(rp.rc, rc);

    /* byte-counter events (10 MB each): BC 1..5 with T = 6: max > F, min <= F: additive */
    for (int i = 0; i < 5; i++) {
        dcqcn_rp_on_sent(&rp, &p, 10u * 1000 * 1000);
        rt += 40e6;
        rc = (rt + rc) / 2.0;
        near(rp.rt, rt);
        near(rp.rc, rc);
    }
    /* BC = 6, T = 6: both above F = 5: hyper increase by (6 - 5) R_HAI */
    dcqcn_rp_on_sent(&rp, &p, 10u * 1000 * 1000);
    rt += 1 * 200e6;
    rc = (rt + rc) / 2.0;
    near(rp.rt, rt);
    near(rp.rc, rc);
    /* the next timer: T = 7, BC = 6: min 6, hyper by (6 - 5) R_HAI */
    dcqcn_rp_on_timer(&rp, &p);
    rt += 1 * 200e6;
    rc = (rt + rc) / 2.0;
    near(rp.rt, rt);
    near(rp.rc, rc);
    /* and once more on bytes: T = 7, BC = 7, min 7: (7 - 5) R_HAI */
    dcqcn_rp_on_sent(&rp, &p, 10u * 1000 * 1000);
    rt += 2 * 200e6;
    rc = (rt + rc) / 2.0;
    near(rp.rt, rt);
    near(rp.rc, rc);

    /* half a byte counter does nothing; the other half completes one event */
    dcqcn_rp_on_sent(&rp, &p, 5u * 1000 * 1000);
    near(rp.rt, rt);
    dcqcn_rp_on_sent(&rp, &p, 5u * 1000 * 1000);
    rt += 2 * 200e6; /* BC = 8, T = 7: min 7 -> (7 - 5) R_HAI */
    rc = (rt + rc) / 2.0;
    near(rp.rt, rt);
    near(rp.rc, rc);

    /* a CNP at 1 ms resets the stages: the next timer is fast recovery again. alpha's timer
     * ran 17 whole periods since the CNP at 60 us: 17 decays first */
    double before = rp.rc;
    assert_true(dcqcn_rp_on_cnp(&rp, &p, 1000000));
    alpha = pow(255.0 / 256.0, 17) * alpha;
    near(rp.rc, before * (1.0 - alpha / 2.0));
    alpha = (1.0 - 1.0 / 256.0) * alpha + 1.0 / 256.0;
    near(rp.rt, before);
    near(rp.alpha, alpha);
    rc = rp.rc;
    dcqcn_rp_on_timer(&rp, &p);
    near(rp.rt, before);
    near(rp.rc, (before + rc) / 2.0);
}

/* When alpha's timer starts: the paper's runs from the flow's start, so a flow first cut 110 us
 * after it started cuts with alpha decayed twice; mlx5 takes initial_alpha at the first CNP,
 * however late, and starts its timer there. */
static void alpha_timer_start(void **state)
{
    (void)state;
    struct dcqcn_params p;
    dcqcn_params_paper(&p, G40);
    struct dcqcn_rp rp;
    dcqcn_rp_init(&rp, &p, 1000);
    assert_true(dcqcn_rp_on_cnp(&rp, &p, 1000 + 110000));
    double alpha = (255.0 / 256.0) * (255.0 / 256.0);
    near(rp.rc, G40 * (1.0 - alpha / 2.0));
    near(rp.alpha, (255.0 / 256.0) * alpha + 1.0 / 256.0);

    dcqcn_params_mlx5(&p, G40);
    dcqcn_rp_init(&rp, &p, 0);
    rp.alpha = 0.25; /* whatever it was: the first CNP sets it */
    assert_true(dcqcn_rp_on_cnp(&rp, &p, 1000000));
    near(rp.rc, G40 * (1.0 - (1023.0 / 1024.0) / 2.0));
    alpha = (1019.0 / 1024.0) * (1023.0 / 1024.0) + 5.0 / 1024.0;
    near(rp.alpha, alpha);
    dcqcn_rp_on_alpha_timer(&rp, &p, 1000000 + 2500); /* two whole 1 us periods since */
    near(rp.alpha, alpha * (1019.0 / 1024.0) * (1019.0 / 1024.0));
}

/* Rates never pass the line rate, nor go under the minimum. */
static void caps(void **state)
{
    (void)state;
    struct dcqcn_params p;
    dcqcn_params_paper(&p, G40);
    struct dcqcn_rp rp;
    dcqcn_rp_init(&rp, &p, 0);
    for (int i = 0; i < 200; i++)
        assert_true(dcqcn_rp_on_cnp(&rp, &p, (int64_t)i * 60000));
    near(rp.rc, p.min_bps);
    for (int i = 0; i < 100000; i++)
        dcqcn_rp_on_timer(&rp, &p);
    near(rp.rc, G40);
    near(rp.rt, G40);
    /* at the line rate the timer has nothing to do */
    unsigned events = (unsigned)rp.increases;
    dcqcn_rp_on_timer(&rp, &p);
    assert_int_equal(rp.increases, events);
}

/* mlx5: one cut per rate_reduce_monitor_period (4 us), a cut of at most min_dec_fac (50 %),
 * g = 5/1024, initial alpha 1023/1024. */
static void mlx5_monitor_period(void **state)
{
    (void)state;
    struct dcqcn_params p;
    dcqcn_params_mlx5(&p, 100e9);
    struct dcqcn_rp rp;
    dcqcn_rp_init(&rp, &p, 0);
    near(rp.alpha, 1023.0 / 1024.0);
    assert_true(dcqcn_rp_on_cnp(&rp, &p, 0));
    /* Rc (1 - alpha/2) = 100G (1 - 1023/2048) is above 50 %: that cut stands */
    near(rp.rc, 100e9 * (1.0 - (1023.0 / 1024.0) / 2.0));
    double alpha = (1019.0 / 1024.0) * (1023.0 / 1024.0) + 5.0 / 1024.0;
    near(rp.alpha, alpha);
    double rc = rp.rc;
    assert_false(dcqcn_rp_on_cnp(&rp, &p, 3999)); /* inside the 4 us period */
    near(rp.rc, rc);
    assert_true(dcqcn_rp_on_cnp(&rp, &p, 4000));
    alpha *= pow(1019.0 / 1024.0, 4); /* four 1 us alpha periods without a cut */
    near(rp.rc, rc * (1.0 - alpha / 2.0));
    /* min_dec: with alpha near 2 a cut would go below half; it stops at half */
    rp.alpha = 1.9;
    rc = rp.rc;
    assert_true(dcqcn_rp_on_cnp(&rp, &p, 8000));
    near(rp.rc, rc * 0.5);
    /* F = 1: the first timer is fast recovery, the second additive (5 Mb/s) */
    double rt = rp.rt;
    rc = rp.rc;
    dcqcn_rp_on_timer(&rp, &p);
    near(rp.rc, (rt + rc) / 2.0);
    rc = rp.rc;
    dcqcn_rp_on_timer(&rp, &p);
    near(rp.rt, rt + 5e6);
    near(rp.rc, (rt + 5e6 + rc) / 2.0);
}

/* mlx5's rpg_gd: a cut takes alpha / 2^(gd - 10) of Rc (alpha in 1/1024 of the firmware's
 * fixed point, the cut's divisor 2^gd), so gd 11 is the paper's alpha / 2; gd 12 cuts half as
 * deep. 40G, alpha 1: gd 11 -> 40G (1 - 1/2) = 20G; gd 12 -> 40G (1 - 1/4) = 30G. */
static void gd_scales_the_cut(void **state)
{
    (void)state;
    struct dcqcn_params p;
    dcqcn_params_paper(&p, G40);
    near(p.alpha_cut, 0.5);
    struct dcqcn_rp rp;
    dcqcn_rp_init(&rp, &p, 0);
    assert_true(dcqcn_rp_on_cnp(&rp, &p, 0));
    near(rp.rc, 20e9);
    p.alpha_cut = ldexp(1.0, 10 - 12);
    dcqcn_rp_init(&rp, &p, 0);
    assert_true(dcqcn_rp_on_cnp(&rp, &p, 0));
    near(rp.rc, 30e9);
    /* the second cut at alpha (255/256) 1 + 1/256 = 1: 30G (1 - 1/4) = 22.5G */
    assert_true(dcqcn_rp_on_cnp(&rp, &p, 10000));
    near(rp.rc, 22.5e9);
}

/* clamp_tgt_rate: 1 (the paper's Algorithm 1, both presets) sets Rt = Rc at every cut; 0 only
 * at a cut after an increase, so two cuts in a row leave Rt at the rate before the first, and
 * fast recovery climbs back towards it. Paper, 40G, alpha 1, CNPs at 0 and 10 us:
 *   clamp 1: Rt 40G, Rc 20G; then Rt 20G, Rc 10G; five fast-recovery steps: 20 - 10/32 G
 *   clamp 0: Rt 40G, Rc 20G; then Rt 40G, Rc 10G; five steps: 40 - 30/32 G */
static void clamp_target_rate(void **state)
{
    (void)state;
    struct dcqcn_params p;
    dcqcn_params_paper(&p, G40);
    assert_true(p.clamp_target);
    for (int clamp = 1; clamp >= 0; clamp--) {
        p.clamp_target = clamp;
        struct dcqcn_rp rp;
        dcqcn_rp_init(&rp, &p, 0);
        assert_true(dcqcn_rp_on_cnp(&rp, &p, 0));
        near(rp.rt, 40e9);
        near(rp.rc, 20e9);
        assert_true(dcqcn_rp_on_cnp(&rp, &p, 10000));
        near(rp.rc, 10e9);
        near(rp.rt, clamp ? 20e9 : 40e9);
        for (int i = 0; i < 5; i++)
            dcqcn_rp_on_timer(&rp, &p);
        near(rp.rc, clamp ? 20e9 - 10e9 / 32 : 40e9 - 30e9 / 32);
        /* after an increase even clamp 0 takes the rate it has reached: Rt = Rc, then the cut */
        double rc = rp.rc;
        assert_true(dcqcn_rp_on_cnp(&rp, &p, 20000));
        near(rp.rt, rc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(paper_sequence),
        cmocka_unit_test(alpha_timer_start),
        cmocka_unit_test(caps),
        cmocka_unit_test(mlx5_monitor_period),
        cmocka_unit_test(gd_scales_the_cut),
        cmocka_unit_test(clamp_target_rate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
