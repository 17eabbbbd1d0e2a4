/* Scenarios and workloads (rules/replay/scenario.h, workload.h): the workload generators, ring
 * all-reduce dependencies and iteration times, the link-down, pause-storm and slow-receiver
 * faults, --set overrides at every layer, repeated passes with monotonic counters, and the
 * built-in demo. */
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "scenario.h"

#define STAR                                                                         \
    "{\"generate\":{\"type\":\"star\",\"hosts\":4,\"speed\":\"40G\",\"cable_m\":3}," \
    "\"defaults\":{\"dscp2prio\":{\"26\":3},\"pfc\":{\"enabled\":8}},"               \
    "\"switch_defaults\":{\"switch\":{\"wred\":{\"3\":{\"min_bytes\":\"5KB\","       \
    "\"max_bytes\":\"200KB\",\"max_p\":1,\"ecn\":true}},"                            \
    "\"buffer\":{\"3\":{\"xoff\":\"200KB\",\"headroom\":\"50KB\"}}}}}"
#define LEAF_SPINE                                                                   \
    "{\"generate\":{\"type\":\"leaf-spine\",\"leaves\":2,\"spines\":2,"              \
    "\"hosts_per_leaf\":2,\"speed\":\"40G\"},\"defaults\":{\"pfc\":{\"enabled\":8}," \
    "\"dscp2prio\":{\"26\":3}}}"

static void load(struct scenario *sc, const char *text, const char *const *sets, size_t n)
{
    struct dcb_err err;
    if (scenario_load_text(sc, text, strlen(text), "test", NULL, sets, n, &err) < 0) {
        print_error("%s\n", err.msg);
        fail();
    }
}

static void load_fails(const char *text, const char *const *sets, size_t n, const char *msg)
{
    struct scenario sc;
    struct dcb_err err;
    assert_true(scenario_load_text(&sc, text, strlen(text), "t", NULL, sets, n, &err) < 0);
    assert_string_equal(err.msg, msg);
}

static void run(const struct scenario *sc, int64_t duration_ns, const struct replay_hooks *h,
                struct scenario_result *r)
{
    struct dcb_err err;
    struct scenario_run_options ro = { .duration_ns = duration_ns };
    if (scenario_run(sc, &ro, h, r, &err) < 0) {
        print_error("%s\n", err.msg);
        fail();
    }
}

static void generators(void **state)
{
    (void)state;
    struct scenario sc;
    load(&sc, "{\"fabric\":" STAR ",\"duration_ms\":1,\"workload\":{\"type\":\"all-to-all\"}}",
         NULL, 0);
    assert_int_equal(sc.workload.nflows, 12);
    scenario_free(&sc);
    load(&sc,
         "{\"fabric\":" STAR ",\"duration_ms\":1,\"seed\":9,"
         "\"workload\":{\"type\":\"permutation\",\"bytes\":\"1MB\"}}",
         NULL, 0);
    assert_int_equal(sc.workload.nflows, 4);
    int sent[4] = { 0 }, got[4] = { 0 };
    for (size_t i = 0; i < 4; i++) {
        const struct replay_flow *f = &sc.workload.flows[i];
        assert_string_not_equal(f->src, f->dst);
        sent[f->src[4] - '1']++;
        got[f->dst[4] - '1']++;
        assert_int_equal(f->bytes, 1000000);
    }
    for (int i = 0; i < 4; i++)
        assert_true(sent[i] == 1 && got[i] == 1);
    scenario_free(&sc);
    /* incast: receiver defaults to the last host, senders to the rest, count takes the first */
    load(&sc,
         "{\"fabric\":" STAR ",\"duration_ms\":1,\"workload\":{\"type\":\"incast\","
         "\"count\":2,\"stagger_us\":3}}",
         NULL, 0);
    assert_int_equal(sc.workload.nflows, 2);
    assert_string_equal(sc.workload.flows[1].dst, "host4");
    assert_string_equal(sc.workload.flows[1].src, "host2");
    assert_int_equal(sc.workload.flows[1].start_ns, 3000);
    assert_int_equal(sc.workload.flows[1].dscp, 26);
    scenario_free(&sc);
}

/* "transport" (roce, tcp, auto): the workload's for every flow, a flow's own over it; absent:
 * auto; anything else is refused with its path. */
static void transport(void **state)
{
    (void)state;
    struct scenario sc;
    load(&sc,
         "{\"fabric\":" STAR ",\"duration_ms\":1,\"workload\":{\"type\":\"incast\","
         "\"count\":2,\"transport\":\"tcp\"}}",
         NULL, 0);
    assert_int_equal(sc.workload.transport[0], REPLAY_TRANSPORT_TCP);
    assert_int_equal(sc.workload.transport[1], REPLAY_TRANSPORT_TCP);
    scenario_free(&sc);
    load(&sc,
         "{\"fabric\":" STAR ",\"duration_ms\":1,\"workload\":{\"type\":\"flows\","
         "\"transport\":\"roce\",\"flows\":[{\"src\":\"host1\",\"dst\":\"host2\"},"
         "{\"src\":\"host3\",\"dst\":\"host2\",\"transport\":\"tcp\"}]}}",
         NULL, 0);
    assert_int_equal(sc.workload.transport[0], REPLAY_TRANSPORT_ROCE);
    assert_int_equal(sc.workload.transport[1], REPLAY_TRANSPORT_TCP);
    scenario_free(&sc);
    load(&sc, "{\"fabric\":" STAR ",\"duration_ms\":1,\"workload\":{\"type\":\"all-to-all\"}}",
         NULL, 0);
    assert_int_equal(sc.workload.transport[11], REPLAY_TRANSPORT_AUTO);
    scenario_free(&sc);
    load_fails("{\"fabric\":" STAR ",\"duration_ms\":1,\"workload\":{\"type\":\"flows\","
               "\"flows\":[{\"src\":\"host1\",\"dst\":\"host2\",\"transport\":\"udp\"}]}}",
               NULL, 0, "t: workload.flows[0].transport: \"udp\" is not roce, tcp or auto");
}

/* 4 hosts, 3 iterations: 2(N-1) = 6 steps of N flows each, every step after the last; the
 * iteration time is at least the ring's lower bound 2(N-1)/N x M / C. */
static void ring_allreduce(void **state)
{
    (void)state;
    struct scenario sc;
    load(&sc,
         "{\"fabric\":" STAR ",\"duration_ms\":5,\"workload\":{\"type\":\"ring-allreduce\","
         "\"message_bytes\":\"400KB\",\"iterations\":3}}",
         NULL, 0);
    assert_int_equal(sc.workload.nflows, 72);
    assert_int_equal(sc.workload.after[4].n, 2);
    assert_int_equal(sc.workload.after[5].flow[0], 0); /* host2 waits for host1's chunk */
    assert_int_equal(sc.workload.after[5].flow[1], 1); /* and its own previous send */
    struct scenario_result r;
    run(&sc, 0, NULL, &r);
    assert_int_equal(r.iterations.complete, 3);
    double bound = 2.0 * 3 / 4 * 400000 * 8 / 40e9 * 1e9;
    assert_true(r.iterations.mean_ns > bound);
    assert_true(r.iterations.mean_ns < 4 * bound);
    assert_true(r.iterations.p99_ns >= r.iterations.mean_ns);
    /* steps never overlap on a sender: each starts after its previous one finished */
    for (size_t i = 4; i < 72; i++)
        assert_true(r.summary.flows[i].start_ns >= r.summary.flows[i - 4].finish_ns);
    scenario_result_free(&r);
    scenario_free(&sc);
}

struct counting {
    uint64_t down_samples, last_tx, monotonic_breaks;
    bool seen;
    uint64_t uplink_tx[2]; /* leaf1 Ethernet2, Ethernet3 */
    int64_t last_time;
};

static void count_sample(void *arg, const struct dcb_sample *s)
{
    struct counting *c = arg;
    if (s->metric == METRIC_LINK_DOWN_EVENTS && s->value.counter > 0)
        c->down_samples++;
    if (s->metric == METRIC_PORT_TX_BYTES && !strcmp(s->device, "leaf1") &&
        (!strcmp(s->ifname, "Ethernet2") || !strcmp(s->ifname, "Ethernet3")))
        c->uplink_tx[s->ifname[8] - '2'] = s->value.counter;
    if (s->metric == METRIC_PORT_TX_BYTES && !strcmp(s->device, "host1")) {
        /* counters never go back, and an instant is never sampled twice (pass boundaries) */
        if (c->seen && (s->value.counter < c->last_tx || s->time_ns <= c->last_time))
            c->monotonic_breaks++;
        c->seen = true;
        c->last_tx = s->value.counter;
        c->last_time = s->time_ns;
    }
}

/* Down from 100 us: the flow's uplink leaves the ECMP group and the flow moves to the other
 * spine; what was queued for it is lost and recovered by go-back-N. */
static void link_down(void **state)
{
    (void)state;
    struct scenario sc;
    const char *sets[] = { "faults[0].link=leaf1:Ethernet2" };
    const char *text =
        "{\"fabric\":" LEAF_SPINE ",\"duration_ms\":3,\"workload\":{\"type\":"
        "\"flows\",\"flows\":[{\"src\":\"host1\",\"dst\":\"host3\",\"bytes\":"
        "\"2MB\"}]},\"faults\":[{\"type\":\"link-down\",\"link\":\"leaf1:Ethernet3\","
        "\"at_ms\":0.1}]}";
    struct scenario_result r1, r2;
    struct counting c1 = { 0 }, c2 = { 0 };
    struct replay_hooks h1 = { count_sample, NULL, NULL, &c1 },
                        h2 = { count_sample, NULL, NULL, &c2 };
    load(&sc, text, NULL, 0);
    run(&sc, 0, &h1, &r1);
    scenario_free(&sc);
    load(&sc, text, sets, 1);
    run(&sc, 0, &h2, &r2);
    scenario_free(&sc);
    /* one of the two runs took down the uplink the flow used: it moved to the other, so both
     * uplinks carried data there; the other run never touched the flow. Both deliver all. */
    assert_int_equal(r1.summary.flows[0].bytes_acked, 2000000);
    assert_int_equal(r2.summary.flows[0].bytes_acked, 2000000);
    assert_true(c1.down_samples > 0 && c2.down_samples > 0);
    bool moved1 = c1.uplink_tx[0] > 100000 && c1.uplink_tx[1] > 100000;
    bool moved2 = c2.uplink_tx[0] > 100000 && c2.uplink_tx[1] > 100000;
    assert_true(moved1 != moved2);
    /* the run that moved sent about 100 us of line rate on the first uplink */
    const struct counting *m = moved1 ? &c1 : &c2;
    uint64_t before = moved1 ? m->uplink_tx[1] : m->uplink_tx[0];
    assert_true(before > 400000 && before < 600000);
    scenario_result_free(&r1);
    scenario_result_free(&r2);
}

static void storm_and_slow_receiver(void **state)
{
    (void)state;
    struct scenario sc;
    struct scenario_result r;
    load(&sc,
         "{\"fabric\":" STAR ",\"duration_ms\":2,\"workload\":{\"type\":\"incast\","
         "\"count\":1,\"receiver\":\"host4\"},\"faults\":[{\"type\":\"pause-storm\","
         "\"host\":\"host4\",\"prio\":3,\"at_ms\":0.5,\"until_ms\":1.5}]}",
         NULL, 0);
    run(&sc, 0, NULL, &r);
    assert_true(r.digest.pfc_tx_host[3] > 0);
    assert_int_equal(r.digest.first_pause_ns, 500000);
    /* paused from 0.5 to 1.5 ms: the sampled unbroken pause is most of that */
    assert_true(r.digest.longest_pause_ns >= 900000 && r.digest.longest_pause_ns <= 1100000);
    scenario_result_free(&r);
    scenario_free(&sc);
    load(&sc,
         "{\"fabric\":" STAR ",\"duration_ms\":2,\"workload\":{\"type\":\"incast\","
         "\"count\":1,\"receiver\":\"host4\"},\"faults\":[{\"type\":\"slow-receiver\","
         "\"host\":\"host4\",\"drain\":\"10G\"}]}",
         NULL, 0);
    run(&sc, 0, NULL, &r);
    assert_true(r.digest.pfc_tx_host[3] > 0);
    for (size_t i = 0; i < r.digest.nhosts; i++)
        if (!strcmp(r.digest.hosts[i].device, "host4"))
            assert_true(fabs(r.digest.hosts[i].rx_util - 0.25) < 0.05); /* 10G of 40G */
    scenario_result_free(&r);
    scenario_free(&sc);
}

static void overrides(void **state)
{
    (void)state;
    struct scenario sc;
    const char *sets[] = { "switch.wred.3.min_bytes=7KB",
                           "host2/nic.dcqcn.rai_mbps=11",
                           "switch1:Ethernet1/pfc.enabled=0x18",
                           "workload.bytes=3MB",
                           "fabric.generate.hosts=6",
                           "speed_bps=25G" };
    load(&sc, "{\"fabric\":" STAR ",\"duration_ms\":1,\"workload\":{\"type\":\"incast\"}}", sets,
         6);
    struct qos_config c;
    assert_int_equal(fabric_effective_config(&sc.fabric, "switch1", "Ethernet0", &c, NULL), 0);
    assert_int_equal(c.wred[3].min_bytes.v, 7000);
    assert_int_equal(c.wred[3].max_bytes.v, 200000); /* the rest is left as it was */
    assert_int_equal(c.pfc_enabled.v, 8);
    assert_int_equal(c.speed_bps.v, 25000000000LL);
    assert_int_equal(fabric_effective_config(&sc.fabric, "switch1", "Ethernet1", &c, NULL), 0);
    assert_int_equal(c.pfc_enabled.v, 0x18);
    assert_int_equal(fabric_effective_config(&sc.fabric, "host2", "eth0", &c, NULL), 0);
    assert_int_equal(c.dcqcn.rai_mbps.v, 11);
    assert_false(c.wred[3].min_bytes.set); /* switch knobs stay off hosts */
    assert_int_equal(fabric_effective_config(&sc.fabric, "host1", "eth0", &c, NULL), 0);
    assert_false(c.dcqcn.rai_mbps.set);
    assert_int_equal(sc.workload.nflows, 5);
    assert_int_equal(sc.workload.flows[0].bytes, 3000000);
    scenario_free(&sc);
    const char *bad[] = { "workload.nosuch.x=1" };
    load_fails("{\"fabric\":" STAR ",\"duration_ms\":1,\"workload\":{\"type\":\"incast\"}}", bad, 1,
               "t: --set workload.nosuch.x: workload.nosuch does not exist");
    load_fails("{\"fabric\":" STAR ",\"duration_ms\":1,\"workload\":{\"type\":\"ring-allreduce\","
               "\"receiver\":\"host1\",\"message_bytes\":1000}}",
               NULL, 0, "t: workload.receiver: not a key of a ring-allreduce workload");
}

/* The demo repeats: passes follow each other, counters carry on, time keeps running. */
static void demo_repeats(void **state)
{
    (void)state;
    struct scenario sc;
    struct dcb_err err;
    assert_int_equal(scenario_demo(&sc, NULL, 0, &err), 0);
    assert_true(sc.workload.repeat);
    struct counting c = { 0 };
    struct replay_hooks h = { count_sample, NULL, NULL, &c };
    struct scenario_result r;
    run(&sc, 50000000, &h, &r);
    assert_int_equal(r.passes, 3);
    assert_int_equal(r.simulated_ns, 50000000);
    assert_int_equal(c.monotonic_breaks, 0);
    assert_int_equal(c.last_time, 50000000);
    assert_true(c.last_tx > 0);
    scenario_result_free(&r);
    scenario_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(generators),
        cmocka_unit_test(transport),
        cmocka_unit_test(ring_allreduce),
        cmocka_unit_test(link_down),
        cmocka_unit_test(storm_and_slow_receiver),
        cmocka_unit_test(overrides),
        cmocka_unit_test(demo_repeats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
