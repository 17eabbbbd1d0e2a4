/* The replay engine's NIC against cases worked out by hand: the DCQCN knobs the host config
 * carries (rpg_max_rate, rpg_gd, clamp_tgt_rate) reach the reaction point and move its rate. */
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fabric.h"
#include "replay.h"

#define DSCP2PRIO "\"dscp2prio\":{\"0\":0,\"26\":3,\"40\":5,\"48\":6}"
#define ETS "\"ets\":{\"tsa\":[\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"strict\",\"ets\"]," \
            "\"bw\":[50,0,0,50,0,0,0,0]}"
#define WRED3 "\"wred\":{\"3\":{\"min_bytes\":\"5KB\",\"max_bytes\":\"200KB\",\"max_p\":1," \
              "\"ecn\":true}}"
#define BUFFER3 "\"buffer\":{\"3\":{\"xoff\":\"2MB\",\"xon\":\"1MB\",\"headroom\":\"1MB\"}}"

/* A star of n hosts at 40G over 2 m (10 ns), RoCE (DSCP 26) lossless on priority 3 with
 * WRED/ECN at the paper's 5 KB / 200 KB / 1 %; host_extra and switch_extra are more keys for
 * host_defaults and switch_defaults (each ending in a comma, or empty). */
static void star(struct fabric *f, int n, const char *host_extra, const char *switch_extra)
{
    char text[4096];
    snprintf(text, sizeof(text),
             "{\"generate\":{\"type\":\"star\",\"hosts\":%d,\"speed\":\"40G\",\"cable_m\":2},"
             "\"defaults\":{\"trust\":\"dscp\"," DSCP2PRIO ",\"pfc\":{\"enabled\":8}," ETS ","
             "\"cnp\":{\"dscp\":48,\"prio\":6}},"
             "\"host_defaults\":{%s\"mtu\":1100},"
             "\"switch_defaults\":{%s\"switch\":{" WRED3 "," BUFFER3 "}}}",
             n, host_extra, switch_extra);
    struct dcb_err err;
    fabric_init(f);
    if (fabric_load_text(f, text, strlen(text), "test", &err) < 0) {
        print_error("%s\n", err.msg);
        fail();
    }
}

static struct replay_flow flow(const char *src, const char *dst, uint64_t bytes, uint8_t dscp,
                               uint16_t sport)
{
    return (struct replay_flow){ src, dst, bytes, 0, dscp, sport, 1000 };
}

/* ---- the DCQCN knobs ------------------------------------------------------------------------- */

/* Flow 0's first Rc under the line rate, from the series. */
struct rates_seen {
    double first_cut;
};

static void rates_series(void *arg, const struct replay_series_point *p)
{
    struct rates_seen *r = arg;
    if (p->index != 0)
        return;
    if (p->kind == SERIES_FLOW_RC && p->value < 40e9 && r->first_cut == 0)
        r->first_cut = p->value;
}

/* Two long flows into host3 (the queue passes Kmax 200 KB within 41 us, so the first CNP comes
 * before alpha's first 55 us period ends: alpha is 1 at the first cut). */
static void incast_rates(const char *host_extra, int64_t duration_ns, struct rates_seen *r,
                         struct replay_summary *sum)
{
    struct fabric f;
    star(&f, 3, host_extra, "");
    struct replay_flow flows[2] = { flow("host1", "host3", 0, 26, 1000),
                                    flow("host2", "host3", 0, 26, 1001) };
    struct replay_options o;
    replay_options_init(&o);
    o.duration_ns = duration_ns;
    o.sample_interval_ns = 0;
    o.series_interval_ns = 1000;
    memset(r, 0, sizeof(*r));
    struct replay_hooks h = { NULL, NULL, rates_series, r };
    struct dcb_err err;
    assert_int_equal(replay_run(&f, flows, 2, &o, &h, sum, &err), 0);
    fabric_free(&f);
}

/* nic.dcqcn.gd: the first cut at alpha 1 is 40G (1 - 1/2) = 20G by default (gd 11), and
 * 40G (1 - 2^(10-12)) = 30G at gd 12. */
static void knob_gd(void **state)
{
    (void)state;
    struct rates_seen r;
    struct replay_summary sum;
    incast_rates("", 200000, &r, &sum);
    printf("first cut: default %.3f Gb/s", r.first_cut / 1e9);
    assert_true(fabs(r.first_cut - 20e9) < 1);
    replay_summary_free(&sum);
    incast_rates("\"nic\":{\"dcqcn\":{\"gd\":12}},", 200000, &r, &sum);
    printf(", gd 12 %.3f Gb/s\n", r.first_cut / 1e9);
    assert_true(fabs(r.first_cut - 30e9) < 1);
    replay_summary_free(&sum);
}

/* nic.dcqcn.clamp_tgt_rate 0: a cut right after a cut keeps the target rate, so fast recovery
 * climbs back towards the rate before both and overshoots: over 20 ms the two flows take more
 * cuts (CNPs) and hold a deeper queue than when every cut clamps the target. */
static void knob_clamp(void **state)
{
    (void)state;
    struct rates_seen r;
    struct replay_summary sum;
    incast_rates("\"nic\":{\"dcqcn\":{\"clamp_tgt_rate\":true}},", 20000000, &r, &sum);
    uint64_t clamped = sum.cnps;
    double clamped_queue = sum.queue_mean_bytes;
    replay_summary_free(&sum);
    incast_rates("\"nic\":{\"dcqcn\":{\"clamp_tgt_rate\":false}},", 20000000, &r, &sum);
    uint64_t kept = sum.cnps;
    double kept_queue = sum.queue_mean_bytes;
    replay_summary_free(&sum);
    incast_rates("", 20000000, &r, &sum);
    uint64_t preset = sum.cnps;
    replay_summary_free(&sum);
    printf("CNPs in 20 ms: clamp 1 %llu (queue %.1f KB), clamp 0 %llu (%.1f KB), unset %llu\n",
           (unsigned long long)clamped, clamped_queue / 1000, (unsigned long long)kept,
           kept_queue / 1000, (unsigned long long)preset);
    assert_true(preset == clamped);               /* the presets clamp, as the paper does */
    assert_true((double)kept > 1.15 * (double)clamped);
    assert_true(kept_queue > 1.1 * clamped_queue);
}

/* nic.dcqcn.max_rate_mbps (rpg_max_rate) caps the QP's rate from its start: alone on its path a
 * flow capped at 10G paces 1082-byte frames 865.6 ns apart, 1000 bytes of payload each:
 * 9.2421 Gb/s of goodput; uncapped it runs at 40G x 1000 / 1082 = 36.969 Gb/s. */
static double alone_goodput(const char *host_extra)
{
    struct fabric f;
    star(&f, 2, host_extra, "");
    struct replay_flow fl = flow("host1", "host2", 0, 26, 1000);
    struct replay_options o;
    replay_options_init(&o);
    o.duration_ns = 2000000;
    o.warmup_ns = 100000;
    o.sample_interval_ns = 0;
    struct replay_summary sum;
    struct dcb_err err;
    assert_int_equal(replay_run(&f, &fl, 1, &o, NULL, &sum, &err), 0);
    double bps = sum.flows[0].throughput_bps;
    replay_summary_free(&sum);
    fabric_free(&f);
    return bps;
}

static void knob_max_rate(void **state)
{
    (void)state;
    double line = alone_goodput(""), capped =
        alone_goodput("\"nic\":{\"dcqcn\":{\"max_rate_mbps\":10000}},");
    double zero = alone_goodput("\"nic\":{\"dcqcn\":{\"max_rate_mbps\":0}},");
    printf("alone: %.4f Gb/s, max_rate 10G %.4f Gb/s, max_rate 0 %.4f Gb/s\n", line / 1e9,
           capped / 1e9, zero / 1e9);
    assert_true(fabs(capped - 10e9 * 1000 / 1082) <= 0.01 * 10e9 * 1000 / 1082);
    assert_true(fabs(line - 40e9 * 1000 / 1082) <= 0.01 * 40e9 * 1000 / 1082);
    assert_true(zero == line);                    /* 0: the line rate */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(knob_gd),
        cmocka_unit_test(knob_clamp),
        cmocka_unit_test(knob_max_rate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
