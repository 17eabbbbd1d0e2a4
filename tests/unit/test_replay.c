/* The replay engine's model checks: DCQCN's queue against the fluid model's fixed point (a
 * reduced case of bench_replay_fluid), lossless operation at exactly the headroom lib/headroom.c
 * asks for, the scheduler's shares and the CNP's strict queue, the PFC watchdog, and bit-for-bit
 * determinism. Each runs in a few seconds. */
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fabric.h"
#include "fluid.h"
#include "headroom.h"
#include "replay.h"

#define DSCP2PRIO                                                                 \
    "\"dscp2prio\":[0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,2,2,2,2,2,2,2,2,3,3,3,3,3,3," \
    "3,3,4,4,4,4,4,4,4,4,5,5,5,5,5,5,5,5,6,6,6,6,6,6,6,6,7,7,7,7,7,7,7,7]"

static void load(struct fabric *f, const char *text)
{
    struct dcb_err err;
    fabric_init(f);
    if (fabric_load_text(f, text, strlen(text), "test", &err) < 0) {
        print_error("%s\n", err.msg);
        fail();
    }
}

/* ---- the fluid model's fixed point (rules/replay/fluid.h) ----------------------------------- */

/* The fixed point of DCQCN's fluid model with the fast-recovery factors, for packets as the
 * engine sends them (1000-byte payloads: 1062 bytes queued, 1082 on the wire), in bytes of
 * queue. bench_replay_fluid measures the other cases of the README's table. */
static double oracle_queue(int n)
{
    struct fluid_model m;
    fluid_model_paper(&m, 40e9, (unsigned)n);
    fluid_model_payload(&m, 1000);
    struct fluid_point fp;
    assert_int_equal(fluid_fixed_point(&m, &fp), 0);
    return fp.queue_bytes;
}

struct fixed_point_run {
    const char *bottleneck;
    int64_t from_ns, to_ns;
    double queue_sum;
    long queue_points;
    double tx_from[8], tx_to[8];
};

static void fp_series(void *arg, const struct replay_series_point *p)
{
    struct fixed_point_run *r = arg;
    if (p->kind == SERIES_QUEUE_BYTES && p->index == 3 && p->time_ns >= r->from_ns &&
        !strcmp(p->device, "switch1") && !strcmp(p->ifname, r->bottleneck)) {
        r->queue_sum += p->value;
        r->queue_points++;
    }
}

static void fp_sample(void *arg, const struct dcb_sample *s)
{
    struct fixed_point_run *r = arg;
    int host;
    if (s->metric != METRIC_PORT_TX_BYTES || sscanf(s->device, "host%d", &host) != 1 || host < 1 ||
        host > 8)
        return;
    if (s->time_ns == r->from_ns)
        r->tx_from[host - 1] = (double)s->value.counter;
    if (s->time_ns == r->to_ns)
        r->tx_to[host - 1] = (double)s->value.counter;
}

/* N long flows into one 40G port, the paper's DCQCN, marking at dequeue: the time-averaged
 * queue from 200 to 500 ms within 15 % of the fluid model's fixed point, each flow within 5 % of
 * C/N, no PFC. The NP answering none of the marks within 50 us of its last CNP (mlx5's, not the
 * paper's) leaves the queue a fifth or more above: the figure this test would catch. */
static double fixed_point_run(int n, bool per_window, double *shares, uint64_t *pfc)
{
    char text[2048];
    snprintf(text, sizeof(text),
             "{\"generate\":{\"type\":\"star\",\"hosts\":%d,\"speed\":\"40G\",\"cable_m\":2},"
             "\"defaults\":{\"trust\":\"dscp\"," DSCP2PRIO ",\"pfc\":{\"enabled\":8},"
             "\"ets\":{\"tsa\":[\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"strict\",\"ets\"]"
             ","
             "\"bw\":[50,0,0,50,0,0,0,0]}},"
             "\"switch_defaults\":{\"switch\":{\"wred\":{\"3\":{\"min_bytes\":\"5KB\","
             "\"max_bytes\":\"200KB\",\"max_p\":1,\"ecn\":true}},"
             "\"buffer\":{\"3\":{\"xoff\":\"2MB\",\"xon\":\"1MB\",\"headroom\":\"1MB\"}}}}}",
             n + 1);
    struct fabric f;
    load(&f, text);
    struct replay_flow flows[8];
    char names[9][16];
    for (int i = 0; i <= n; i++)
        snprintf(names[i], sizeof(names[i]), "host%d", i + 1);
    for (int i = 0; i < n; i++)
        flows[i] = (struct replay_flow){ names[i], names[n], 0, 0, 26, (uint16_t)(1000 + i), 1000 };
    struct replay_options o;
    replay_options_init(&o);
    o.duration_ns = 500000000;
    o.warmup_ns = 200000000;
    o.sample_interval_ns = 100000000;
    o.series_interval_ns = 10000;
    struct dcqcn_params dp;
    dcqcn_params_paper(&dp, 40e9);
    dp.cnp_per_window = per_window;
    o.dcqcn = &dp;
    char bottleneck[16];
    snprintf(bottleneck, sizeof(bottleneck), "Ethernet%d", n);
    struct fixed_point_run r = { .bottleneck = bottleneck,
                                 .from_ns = 200000000,
                                 .to_ns = 500000000 };
    struct replay_hooks h = { fp_sample, NULL, fp_series, &r };
    struct replay_summary sum;
    struct dcb_err err;
    assert_int_equal(replay_run(&f, flows, (size_t)n, &o, &h, &sum, &err), 0);
    /* the summary's own figure for the queue is the same mean */
    double queue = r.queue_sum / (double)r.queue_points;
    for (size_t i = 0; i < sum.nqueues; i++)
        if (!strcmp(sum.queues[i].ifname, bottleneck) && sum.queues[i].tc == 3)
            assert_true(fabs(sum.queues[i].mean_bytes - queue) < 1e-6 * queue);
    double secs = (double)(r.to_ns - r.from_ns) / 1e9;
    for (int i = 0; i < n && shares; i++)
        shares[i] = (r.tx_to[i] - r.tx_from[i]) * 8 / secs * 1000.0 / 1062.0;
    *pfc = sum.pfc_frames;
    assert_int_equal(sum.drops, 0);
    replay_summary_free(&sum);
    fabric_free(&f);
    return queue;
}

static void fixed_point(int n)
{
    double shares[8];
    uint64_t pfc;
    double queue = fixed_point_run(n, true, shares, &pfc);
    double fixed = oracle_queue(n);
    printf("N=%d: time-averaged queue %.1f KB; fluid fixed point %.1f KB (%+.0f%%)\n", n,
           queue / 1000, fixed / 1000, (queue / fixed - 1) * 100);
    assert_true(fabs(queue - fixed) <= 0.15 * fixed);

    /* each flow gets C/N of the bottleneck's goodput, over the steady state */
    double sum_rates = 0, sum_sq = 0;
    double share = 40e9 * 1000.0 / 1082.0 / n; /* payload of a 1082-byte frame on the wire */
    for (int i = 0; i < n; i++) {
        printf("  flow %d: %.3f Gb/s goodput (C/N %.3f, %+.1f%%)\n", i, shares[i] / 1e9,
               share / 1e9, (shares[i] / share - 1) * 100);
        assert_true(fabs(shares[i] - share) <= 0.05 * share);
        sum_rates += shares[i];
        sum_sq += shares[i] * shares[i];
    }
    double jain = sum_rates * sum_rates / (n * sum_sq);
    printf("  Jain fairness %.4f, PFC frames %llu\n", jain, (unsigned long long)pfc);
    assert_true(jain >= 0.99);
    assert_int_equal(pfc, 0);

    double holdoff = fixed_point_run(n, false, NULL, &pfc);
    printf("  with mlx5's NP instead: %.1f KB (%+.0f%%)\n", holdoff / 1000,
           (holdoff / fixed - 1) * 100);
    assert_true(holdoff > 1.15 * fixed && holdoff > 1.1 * queue);
}

static void fixed_point_two(void **state)
{
    (void)state;
    fixed_point(2);
}

static void fixed_point_four(void **state)
{
    (void)state;
    fixed_point(4);
}

/* ---- lossless at the headroom the formula asks for ------------------------------------------- */

struct drops_seen {
    uint64_t pg_drops;
};

static void pg_drops(void *arg, const struct dcb_sample *s)
{
    struct drops_seen *d = arg;
    if (s->metric == METRIC_PG_DROPS && s->value.counter > d->pg_drops)
        d->pg_drops = s->value.counter;
}

static uint64_t incast(double headroom_factor, uint64_t *pg)
{
    struct headroom_input in = {
        100000000000ULL,      100000, CABLE_FIBER, 1062, HEADROOM_DEFAULT_RESPONSE_NS,
        HEADROOM_FORMULA_FULL
    };
    struct headroom h;
    assert_int_equal(headroom_required(&in, &h, NULL), 0);
    char text[2048];
    snprintf(text, sizeof(text),
             "{\"generate\":{\"type\":\"star\",\"hosts\":17,\"speed\":\"100G\",\"cable_m\":100},"
             "\"defaults\":{\"trust\":\"dscp\"," DSCP2PRIO ",\"pfc\":{\"enabled\":8}},"
             "\"switch_defaults\":{\"switch\":{\"buffer\":{\"3\":{\"xoff\":\"40KB\","
             "\"xon\":\"20KB\",\"headroom\":%llu}}}}}",
             (unsigned long long)((double)h.total * headroom_factor));
    struct fabric f;
    load(&f, text);
    struct replay_flow flows[16];
    char names[16][16];
    for (int i = 0; i < 16; i++) {
        snprintf(names[i], sizeof(names[i]), "host%d", i + 1);
        flows[i] = (struct replay_flow){ names[i], "host17", 0, 0, 26, (uint16_t)(1000 + i), 1000 };
    }
    struct replay_options o;
    replay_options_init(&o);
    o.duration_ns = 5000000;
    o.sample_interval_ns = 1000000;
    o.dcqcn_off = true; /* PFC alone holds a 16:1 incast */
    struct drops_seen d = { 0 };
    struct replay_hooks hooks = { pg_drops, NULL, NULL, &d };
    struct replay_summary sum;
    struct dcb_err err;
    assert_int_equal(replay_run(&f, flows, 16, &o, &hooks, &sum, &err), 0);
    uint64_t drops = sum.drops;
    assert_true(sum.pfc_frames > 0);
    printf("16:1 incast, headroom %.1fx of %llu B: %llu drops, %llu PFC frames\n", headroom_factor,
           (unsigned long long)h.total, (unsigned long long)drops,
           (unsigned long long)sum.pfc_frames);
    *pg = d.pg_drops;
    replay_summary_free(&sum);
    fabric_free(&f);
    return drops;
}

static void lossless_at_headroom(void **state)
{
    (void)state;
    uint64_t pg;
    assert_int_equal(incast(1.0, &pg), 0);
    assert_int_equal(pg, 0);
    assert_true(incast(0.8, &pg) > 0);
    assert_true(pg > 0); /* and the drops show as pg.drops */
}

/* ---- the scheduler ------------------------------------------------------------------------ */

struct tc_bytes {
    double from[8], to[8];
};

static void tc_tx(void *arg, const struct dcb_sample *s)
{
    struct tc_bytes *t = arg;
    if (strcmp(s->device, "switch1") || strcmp(s->ifname, "Ethernet2") ||
        s->metric != METRIC_QUEUE_TX_BYTES)
        return;
    if (s->time_ns == 5000000)
        t->from[s->queue] = (double)s->value.counter;
    if (s->time_ns == 15000000)
        t->to[s->queue] = (double)s->value.counter;
}

static void dwrr_shares(void **state)
{
    (void)state;
    struct fabric f;
    load(&f,
         "{\"generate\":{\"type\":\"star\",\"hosts\":3,\"speed\":\"100G\",\"cable_m\":2},"
         "\"defaults\":{\"trust\":\"dscp\"," DSCP2PRIO ",\"pfc\":{\"enabled\":6},"
         "\"ets\":{\"tsa\":[\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"strict\",\"ets\"],"
         "\"bw\":[0,70,30,0,0,0,0,0]}},"
         "\"switch_defaults\":{\"switch\":{\"buffer\":{"
         "\"1\":{\"xoff\":\"400KB\",\"xon\":\"300KB\",\"headroom\":\"200KB\"},"
         "\"2\":{\"xoff\":\"400KB\",\"xon\":\"300KB\",\"headroom\":\"200KB\"}}}}}");
    struct replay_flow flows[2] = { { "host1", "host3", 0, 0, 8, 1000, 1000 },
                                    { "host2", "host3", 0, 0, 16, 1001, 1000 } };
    struct replay_options o;
    replay_options_init(&o);
    o.duration_ns = 15000000;
    o.sample_interval_ns = 1000000;
    o.dcqcn_off = true;
    struct tc_bytes t;
    memset(&t, 0, sizeof(t));
    struct replay_hooks h = { tc_tx, NULL, NULL, &t };
    struct replay_summary sum;
    struct dcb_err err;
    assert_int_equal(replay_run(&f, flows, 2, &o, &h, &sum, &err), 0);
    double a = t.to[1] - t.from[1], b = t.to[2] - t.from[2];
    printf("DWRR 70/30 over 10 ms: TC1 %.4f, TC2 %.4f of the bytes\n", a / (a + b), b / (a + b));
    assert_true(fabs(a / (a + b) - 0.70) <= 0.02 * 0.70);
    assert_true(fabs(b / (a + b) - 0.30) <= 0.02 * 0.30);
    assert_int_equal(sum.drops, 0);
    replay_summary_free(&sum);
    fabric_free(&f);
}

/* CNPs ride the strict queue: behind a saturating data flow to the same host they wait at most
 * the frame already on the wire. */
static void cnp_strict(void **state)
{
    (void)state;
    struct fabric f;
    load(&f,
         "{\"generate\":{\"type\":\"star\",\"hosts\":4,\"speed\":\"40G\",\"cable_m\":2},"
         "\"defaults\":{\"trust\":\"dscp\"," DSCP2PRIO ",\"pfc\":{\"enabled\":8},"
         "\"ets\":{\"tsa\":[\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"strict\",\"ets\"],"
         "\"bw\":[50,0,0,50,0,0,0,0]}},"
         "\"switch_defaults\":{\"switch\":{\"wred\":{\"3\":{\"min_bytes\":\"5KB\","
         "\"max_bytes\":\"200KB\",\"max_p\":1,\"ecn\":true}},"
         "\"buffer\":{\"3\":{\"xoff\":\"2MB\",\"xon\":\"1MB\",\"headroom\":\"1MB\"}}}}}");
    /* host1 and host2 congest host3 (CNPs go back to them); host4 fills the port to host1 */
    struct replay_flow flows[3] = { { "host1", "host3", 0, 0, 26, 1000, 1000 },
                                    { "host2", "host3", 0, 0, 26, 1001, 1000 },
                                    { "host4", "host1", 0, 0, 26, 1002, 1000 } };
    struct replay_options o;
    replay_options_init(&o);
    o.duration_ns = 20000000;
    o.sample_interval_ns = 0;
    struct replay_summary sum;
    struct dcb_err err;
    assert_int_equal(replay_run(&f, flows, 3, &o, NULL, &sum, &err), 0);
    double frame_ns = (1062.0 + 20) * 8 / 40e9 * 1e9;
    printf("CNPs: %llu, longest wait in a switch queue %.1f ns (one frame at 40G: %.1f ns)\n",
           (unsigned long long)sum.cnps, sum.cnp_max_wait_ns, frame_ns);
    assert_true(sum.cnps > 10);
    assert_true(sum.cnp_max_wait_ns > 0); /* they did meet a busy port */
    assert_true(sum.cnp_max_wait_ns <= frame_ns + 1e-6);
    replay_summary_free(&sum);
    fabric_free(&f);
}

/* ---- the PFC watchdog and the slow receiver ---------------------------------------------------
 */

struct events_seen {
    int storms, xoffs;
    uint64_t wd_drops;       /* pfcwd.tx_drop, the last reading of the one series there is */
    int wd_series_elsewhere; /* pfcwd.tx_drop samples off the switch's lossless TC, or drops
                              * off the stormed port */
};

static void count_watchdog_drops(void *arg, const struct dcb_sample *s)
{
    struct events_seen *es = arg;
    if (s->metric != METRIC_PFCWD_TX_DROP)
        return;
    if (strcmp(s->device, "switch1") || s->queue != 3)
        es->wd_series_elsewhere++; /* only the switch's ports guard the lossless TC */
    else if (!strcmp(s->ifname, "Ethernet1"))
        es->wd_drops = s->value.counter;
    else if (s->value.counter)
        es->wd_series_elsewhere++; /* the port toward the sender saw no storm */
}

static void count_events(void *arg, const struct dcb_event *e)
{
    struct events_seen *es = arg;
    if (e->kind == EVENT_WATCHDOG && strstr(e->details, "storm"))
        es->storms++;
    if (e->kind == EVENT_PFC_XOFF && strstr(e->details, "slow receiver"))
        es->xoffs++;
}

static void watchdog_on_slow_receiver(void **state)
{
    (void)state;
    struct fabric f;
    load(&f, "{\"generate\":{\"type\":\"star\",\"hosts\":2,\"speed\":\"100G\",\"cable_m\":2},"
             "\"defaults\":{\"trust\":\"dscp\"," DSCP2PRIO ",\"pfc\":{\"enabled\":8}},"
             "\"switch_defaults\":{\"switch\":{\"buffer\":{\"3\":{\"xoff\":\"100KB\","
             "\"xon\":\"50KB\",\"headroom\":\"200KB\"}},"
             "\"pfcwd\":{\"detect_ms\":20,\"restore_ms\":40,\"action\":\"drop\"}}}}");
    struct replay_flow flows[1] = { { "host1", "host2", 0, 0, 26, 1000, 1000 } };
    struct replay_options o;
    replay_options_init(&o);
    o.duration_ns = 100000000;
    o.sample_interval_ns = 10000000;
    o.dcqcn_off = true;
    o.host_drain_bps = 1e6; /* a receiver that has all but stopped */
    o.host_rx_xoff_bytes = 64 * 1024;
    struct events_seen es = { 0 };
    struct replay_hooks h = { count_watchdog_drops, count_events, NULL, &es };
    struct replay_summary sum;
    struct dcb_err err;
    assert_int_equal(replay_run(&f, flows, 1, &o, &h, &sum, &err), 0);
    printf("slow receiver: %d host XOFFs, %d watchdog storms, pause fraction %.2f\n", es.xoffs,
           es.storms, sum.pause_fraction_max);
    assert_true(es.xoffs >= 1);
    assert_true(es.storms >= 1);
    assert_true(sum.pause_fraction_max > 0.5);
    /* the storm's drops are the watchdog's, counted where SONiC counts them: on the lossless
     * queues of the switch's ports, all of them on the stormed port toward the stuck host */
    printf("watchdog drops %llu of %llu\n", (unsigned long long)es.wd_drops,
           (unsigned long long)sum.drops);
    assert_true(es.wd_drops > 0 && es.wd_drops <= sum.drops);
    assert_int_equal(es.wd_series_elsewhere, 0);
    replay_summary_free(&sum);
    fabric_free(&f);
}

/* ---- determinism -------------------------------------------------------------------------- */

static void digest(uint64_t *h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        *h = (*h ^ b[i]) * 1099511628211ULL;
}

static void digest_sample(void *arg, const struct dcb_sample *s)
{
    digest(arg, &s->time_ns, sizeof(s->time_ns));
    digest(arg, s->device, strlen(s->device));
    digest(arg, s->ifname, strlen(s->ifname));
    digest(arg, &s->metric, sizeof(s->metric));
    digest(arg, &s->prio, sizeof(s->prio));
    digest(arg, &s->queue, sizeof(s->queue));
    digest(arg, &s->value, sizeof(s->value));
}

static void digest_event(void *arg, const struct dcb_event *e)
{
    digest(arg, &e->time_ns, sizeof(e->time_ns));
    digest(arg, e->details, strlen(e->details));
}

static void digest_series(void *arg, const struct replay_series_point *p)
{
    digest(arg, &p->time_ns, sizeof(p->time_ns));
    digest(arg, &p->value, sizeof(p->value));
}

static uint64_t run_digest(uint64_t seed, int64_t warmup_ns)
{
    struct fabric f;
    load(&f, "{\"generate\":{\"type\":\"leaf-spine\",\"leaves\":2,\"spines\":2,"
             "\"hosts_per_leaf\":4,\"speed\":\"100G\",\"cable_m\":3,\"uplink_cable_m\":10},"
             "\"defaults\":{\"trust\":\"dscp\"," DSCP2PRIO ",\"pfc\":{\"enabled\":8}},"
             "\"switch_defaults\":{\"switch\":{\"wred\":{\"3\":{\"min_bytes\":\"50KB\","
             "\"max_bytes\":\"150KB\",\"max_p\":5,\"ecn\":true}},"
             "\"buffer\":{\"3\":{\"xoff\":\"180KB\",\"xon\":\"20KB\",\"headroom\":\"240KB\"}}}}}");
    struct replay_flow flows[8];
    char src[8][16], dst[8][16];
    for (int i = 0; i < 8; i++) {
        snprintf(src[i], sizeof(src[i]), "host%d", i + 1);
        snprintf(dst[i], sizeof(dst[i]), "host%d", (i + 5) % 8 + 1);
        flows[i] = (struct replay_flow){
            src[i], dst[i], 2000000, (int64_t)i * 1000, 26, (uint16_t)(4000 + 7 * i), 1000
        };
    }
    struct replay_options o;
    replay_options_init(&o);
    o.seed = seed;
    o.warmup_ns = warmup_ns;
    o.duration_ns = 2000000;
    o.sample_interval_ns = 100000;
    o.series_interval_ns = 50000;
    uint64_t h = 1469598103934665603ULL;
    struct replay_hooks hooks = { digest_sample, digest_event, digest_series, &h };
    struct replay_summary sum;
    struct dcb_err err;
    assert_int_equal(replay_run(&f, flows, 8, &o, &hooks, &sum, &err), 0);
    digest(&h, &sum.events, sizeof(sum.events));
    replay_summary_free(&sum);
    fabric_free(&f);
    return h;
}

static void same_seed_same_output(void **state)
{
    (void)state;
    uint64_t a = run_digest(7, 0), b = run_digest(7, 0), c = run_digest(8, 0);
    assert_true(a == b);
    assert_true(a != c);                     /* the seed does reach the output */
    assert_true(run_digest(7, 500000) == a); /* measuring after a warm-up changes no event */
}

/* ---- bad input ------------------------------------------------------------------------------ */

static void bad_flows(void **state)
{
    (void)state;
    struct fabric f;
    load(&f, "{\"generate\":{\"type\":\"star\",\"hosts\":2,\"speed\":\"100G\",\"cable_m\":2}}");
    struct replay_options o;
    replay_options_init(&o);
    struct dcb_err err;
    struct replay_summary sum;
    struct replay_flow nohost = { "host9", "host1", 0, 0, 26, 1, 1000 };
    assert_int_equal(replay_run(&f, &nohost, 1, &o, NULL, &sum, &err), DCB_E_INVAL);
    assert_non_null(strstr(err.msg, "host9"));
    struct replay_flow toswitch = { "host1", "switch1", 0, 0, 26, 1, 1000 };
    assert_int_equal(replay_run(&f, &toswitch, 1, &o, NULL, &sum, &err), DCB_E_INVAL);
    struct replay_flow self = { "host1", "host1", 0, 0, 26, 1, 1000 };
    assert_int_equal(replay_run(&f, &self, 1, &o, NULL, &sum, &err), DCB_E_INVAL);
    fabric_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fixed_point_two),
        cmocka_unit_test(fixed_point_four),
        cmocka_unit_test(lossless_at_headroom),
        cmocka_unit_test(dwrr_shares),
        cmocka_unit_test(cnp_strict),
        cmocka_unit_test(watchdog_on_slow_receiver),
        cmocka_unit_test(same_seed_same_output),
        cmocka_unit_test(bad_flows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
