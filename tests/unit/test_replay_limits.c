/* Hostile replay scenarios (issue 32): every key that scales time or size at its bounds and one
 * step past each (the bounds load, the steps past are refused naming the key and its range);
 * replay_run()'s own checks for callers that do not load a scenario; the saturating conversion
 * of computed delays; pause storms at the slowest and fastest links; and the memory budget,
 * which names what would have grown past it. */
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fabric.h"
#include "scenario.h"
#include "sim.h"

/* A 4-host star with a slow receiver on host4 and an incast into it (host1..3). */
#define BASE                                                                           \
    "{\"fabric\":{\"generate\":{\"type\":\"star\",\"hosts\":4,\"speed\":\"40G\","      \
    "\"cable_m\":3},\"defaults\":{\"dscp2prio\":{\"26\":3},\"pfc\":{\"enabled\":8}}}," \
    "\"duration_ms\":1,\"workload\":{\"type\":\"incast\",\"bytes\":\"64KB\"},"         \
    "\"faults\":[{\"type\":\"slow-receiver\",\"host\":\"host4\",\"drain\":\"10G\"}]}"

struct key_case {
    const char *set[2]; /* --set overrides */
    const char *msg;    /* NULL: loads */
};

static void check_cases(const struct key_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct key_case *c = &cases[i];
        size_t nsets = c->set[1] ? 2 : 1;
        struct scenario sc;
        struct dcb_err err;
        int rc = scenario_load_text(&sc, BASE, strlen(BASE), "t", NULL, c->set, nsets, &err);
        if (!c->msg) {
            if (rc < 0)
                print_error("--set %s: %s\n", c->set[nsets - 1], err.msg);
            assert_int_equal(rc, 0);
            scenario_free(&sc);
        } else {
            if (rc == 0)
                print_error("--set %s: loaded, want: %s\n", c->set[nsets - 1], c->msg);
            assert_int_not_equal(rc, 0);
            assert_string_equal(err.msg, c->msg);
        }
    }
}

/* The scenario's own keys: min, max, below min, above max. */
static void scenario_keys(void **state)
{
    (void)state;
    static const struct key_case cases[] = {
        { { "duration_ms=0.001" }, NULL },
        { { "duration_ms=1000000000" }, NULL },
        { { "duration_ms=0.0009" },
          "t: duration_ms: 0.0009 is out of range (0.001 to 1000000000)" },
        { { "duration_ms=1000000000.001" },
          "t: duration_ms: 1000000000.001 is out of range (0.001 to 1000000000)" },
        { { "sample_interval_us=0" }, NULL },
        { { "sample_interval_us=1" }, NULL },
        { { "sample_interval_us=1000000000000" }, NULL },
        { { "sample_interval_us=0.999" },
          "t: sample_interval_us: 0.999 is out of range (0, or 1 to 1000000000000)" },
        { { "sample_interval_us=1000000000001" },
          "t: sample_interval_us: 1000000000001 is out of range (0, or 1 to 1000000000000)" },
        { { "series_interval_us=0.1" }, NULL },
        { { "series_interval_us=\"1000000s\"" }, NULL },
        { { "series_interval_us=0.099" },
          "t: series_interval_us: 0.099 is out of range (0, or 0.1 to 1000000000000)" },
        { { "series_interval_us=1000001s" },
          "t: series_interval_us: 1000001000000 is out of range (0, or 0.1 to 1000000000000)" },
        { { "retransmit_timeout_us=1" }, NULL },
        { { "retransmit_timeout_us=1000000000000" }, NULL },
        { { "retransmit_timeout_us=0" },
          "t: retransmit_timeout_us: 0 is out of range (1 to 1000000000000)" },
        { { "retransmit_timeout_us=1000000000001" },
          "t: retransmit_timeout_us: 1000000000001 is out of range (1 to 1000000000000)" },
        { { "ack_every=1" }, NULL },
        { { "ack_every=1024" }, NULL },
        { { "ack_every=0" }, "t: ack_every: must be a whole number from 1 to 1024" },
        { { "ack_every=1025" }, "t: ack_every: must be a whole number from 1 to 1024" },
        { { "max_memory_bytes=16MB" }, NULL },
        { { "max_memory_bytes=1TB" }, NULL },
        { { "max_memory_bytes=15999999" },
          "t: max_memory_bytes: 15999999 is out of range (16MB to 1TB)" },
        { { "max_memory_bytes=1000000000001" },
          "t: max_memory_bytes: 1000000000001 is out of range (16MB to 1TB)" },
    };
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

static void fault_keys(void **state)
{
    (void)state;
    static const struct key_case cases[] = {
        { { "faults[0].at_ms=0" }, NULL },
        { { "faults[0].at_ms=1000000000" }, NULL },
        { { "faults[0].at_ms=-0.000001" },
          "t: faults[0].at_ms: -1e-06 is out of range (0 to 1000000000)" },
        { { "faults[0].at_ms=1000000000.001" },
          "t: faults[0].at_ms: 1000000000.001 is out of range (0 to 1000000000)" },
        { { "faults[0].until_ms=1000000000" }, NULL },
        { { "faults[0].until_ms=1000000000.001" },
          "t: faults[0].until_ms: 1000000000.001 is out of range (0 to 1000000000)" },
        { { "faults[0].drain=1M" }, NULL },
        { { "faults[0].drain=1600000000000" }, NULL },
        { { "faults[0].drain=999999" }, "t: faults[0].drain: 999999 is out of range (1M to 1.6T)" },
        { { "faults[0].drain=1600000000001bps" },
          "t: faults[0].drain: 1600000000001bps is out of range (1M to 1.6T)" },
        { { "faults[0].xoff_bytes=0" }, NULL },
        { { "faults[0].xoff_bytes=1GB" }, NULL },
        { { "faults[0].xoff_bytes=-1" }, "t: faults[0].xoff_bytes: -1 is out of range (0 to 1GB)" },
        { { "faults[0].xoff_bytes=1000000001" },
          "t: faults[0].xoff_bytes: 1000000001 is out of range (0 to 1GB)" },
    };
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

static void workload_keys(void **state)
{
    (void)state;
    static const struct key_case cases[] = {
        { { "workload.bytes=0" }, NULL },
        { { "workload.bytes=100GB" }, NULL },
        { { "workload.bytes=-1" }, "t: workload.bytes: -1 is out of range (0 to 100GB)" },
        { { "workload.bytes=100000000001" },
          "t: workload.bytes: 100000000001 is out of range (0 to 100GB)" },
        { { "workload.payload=64" }, NULL },
        { { "workload.payload=9000" }, NULL },
        { { "workload.payload=63" },
          "t: workload.payload: must be a whole number from 64 to 9000" },
        { { "workload.payload=9001" },
          "t: workload.payload: must be a whole number from 64 to 9000" },
        { { "workload.start_us=0" }, NULL },
        { { "workload.start_us=1000000000000" }, NULL },
        { { "workload.start_us=-1" },
          "t: workload.start_us: -1 is out of range (0 to 1000000000000)" },
        { { "workload.start_us=1000000000001" },
          "t: workload.start_us: 1000000000001 is out of range (0 to 1000000000000)" },
        /* three senders: the third starts at 2 x stagger */
        { { "workload.stagger_us=0" }, NULL },
        { { "workload.stagger_us=500000000000" }, NULL },
        { { "workload.stagger_us=-1" },
          "t: workload.stagger_us: -1 is out of range (0 to 1000000000000)" },
        { { "workload.stagger_us=500000000000.001" },
          "t: workload.stagger_us: 500000000000.001 puts flow 2 past the longest pass "
          "(1000000000000 us)" },
        { { "workload.stagger_us=1000000000001" },
          "t: workload.stagger_us: 1000000000001 is out of range (0 to 1000000000000)" },
        { { "workload.type=ring-allreduce", "workload.message_bytes=4" }, NULL },
        { { "workload.type=ring-allreduce", "workload.message_bytes=100GB" }, NULL },
        { { "workload.type=ring-allreduce", "workload.message_bytes=0" },
          "t: workload.message_bytes: 0 is out of range (1B to 100GB)" },
        { { "workload.type=ring-allreduce", "workload.message_bytes=3" },
          "t: workload.message_bytes: 3 is less than a byte per host" },
        { { "workload.type=ring-allreduce", "workload.message_bytes=100000000001" },
          "t: workload.message_bytes: 100000000001 is out of range (1B to 100GB)" },
    };
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Speeds and cables wherever they are given; the 1bps case of the issue first. */
static void fabric_keys(void **state)
{
    (void)state;
    static const struct key_case cases[] = {
        { { "fabric.generate.speed=1bps" },
          "t: fabric.generate.speed: 1bps is out of range (1M to 1.6T)" },
        { { "fabric.generate.speed=1M" }, NULL },
        { { "fabric.generate.speed=1.6T" }, NULL },
        { { "fabric.generate.speed=999999" },
          "t: fabric.generate.speed: 999999 is out of range (1M to 1.6T)" },
        { { "fabric.generate.speed=1600000000001" },
          "t: fabric.generate.speed: 1600000000001 is out of range (1M to 1.6T)" },
        { { "fabric.generate.cable_m=0" }, NULL },
        { { "fabric.generate.cable_m=100km" }, NULL },
        { { "fabric.generate.cable_m=-1" }, "t: fabric.generate.cable_m: -1 is negative" },
        { { "fabric.generate.cable_m=100000.001" },
          "t: fabric.generate.cable_m: 100000.001 m is out of range (0 to 100km)" },
        { { "speed_bps=1M" }, NULL },
        { { "speed_bps=1.6T" }, NULL },
        { { "speed_bps=999999" },
          "t: --set speed_bps: speed_bps: 999999 is out of range (1000000 to 1600000000000)" },
        { { "host4:eth0/speed_bps=1600000000001" },
          "t: --set host4:eth0/speed_bps: speed_bps: 1600000000001 is out of range "
          "(1000000 to 1600000000000)" },
        { { "cable_m=100km" }, NULL },
        { { "cable_m=100.001km" },
          "t: --set cable_m: cable_m: 100.001km is out of range (0 to 100000000)" },
    };
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

static void star(struct fabric *f, uint64_t bps)
{
    struct dcb_err err;
    struct fabric_gen g = { .type = GEN_STAR, .hosts = 3, .host_speed_bps = bps };
    fabric_init(f);
    assert_int_equal(fabric_generate(f, &g, &err), 0);
}

static int run(const struct fabric *f, const struct replay_flow *flows, size_t n,
               const struct replay_options *o, struct replay_summary *sum, struct dcb_err *err)
{
    int rc = replay_run(f, flows, n, o, NULL, sum, err);
    if (rc == 0)
        replay_summary_free(sum);
    return rc;
}

/* A caller that builds its fabric and options without the loaders meets the same limits. */
static void run_checks(void **state)
{
    (void)state;
    struct fabric f;
    struct replay_flow flow = { .src = "host1", .dst = "host3", .bytes = 100000 };
    struct replay_options o;
    struct replay_summary sum;
    struct dcb_err err;
    star(&f, 1);
    replay_options_init(&o);
    assert_int_equal(run(&f, &flow, 1, &o, &sum, &err), DCB_E_RANGE);
    assert_string_equal(err.msg, "switch1:Ethernet0: speed 1 b/s is out of range (1000000 to "
                                 "1600000000000)");
    fabric_free(&f);
    star(&f, 40000000000ULL);
    o.duration_ns = REPLAY_TIME_MAX_NS + 1;
    assert_int_equal(run(&f, &flow, 1, &o, &sum, &err), DCB_E_RANGE);
    assert_string_equal(err.msg, "duration: 1000000000000001 ns is out of range (1 to "
                                 "1000000000000000)");
    o.duration_ns = 1000000;
    o.sample_interval_ns = REPLAY_TIME_MAX_NS + 1;
    assert_int_equal(run(&f, &flow, 1, &o, &sum, &err), DCB_E_RANGE);
    assert_string_equal(err.msg, "sample interval: 1000000000000001 ns is out of range (0 to "
                                 "1000000000000000)");
    o.sample_interval_ns = 0;
    flow.start_ns = -1;
    assert_int_equal(run(&f, &flow, 1, &o, &sum, &err), DCB_E_RANGE);
    assert_string_equal(err.msg, "flow 0: start: -1 ns is out of range (0 to 1000000000000000)");
    flow.start_ns = 0;
    flow.payload = 1;
    flow.bytes = UINT32_MAX;
    assert_int_equal(run(&f, &flow, 1, &o, &sum, &err), DCB_E_RANGE);
    assert_string_equal(err.msg, "flow 0: 4294967295 bytes at 1 a packet are 2^32 packets or "
                                 "more (its PSN is 32-bit)");
    flow.bytes = UINT32_MAX - 1; /* the most packets a flow may have: accepted */
    o.duration_ns = 1000;
    assert_int_equal(run(&f, &flow, 1, &o, &sum, &err), 0);
    /* sending for the whole run: 2^32 packets of 146 bytes at 40G take 125.4 s */
    flow.bytes = 0;
    flow.payload = 64;
    o.duration_ns = 126000000000LL;
    assert_int_equal(run(&f, &flow, 1, &o, &sum, &err), DCB_E_RANGE);
    assert_string_equal(err.msg, "flow 0 sends for the whole run: 126000.000 ms at line rate is "
                                 "2^32 packets or more (its PSN is 32-bit)");
    fabric_free(&f);
}

/* A delay computed from a rate is the cast's truncation while it fits, and far past any run's
 * end (but still addable to one) when it does not. */
static void saturating_delays(void **state)
{
    (void)state;
    assert_int_equal(ps_sat(216400.9), 216400);
    assert_int_equal(ps_sat(0), 0);
    assert_int_equal(ps_sat(3.9e18), 3900000000000000000LL);
    assert_int_equal(ps_sat(4e18), PS_FAR);
    assert_int_equal(ps_sat(1e300), PS_FAR);
    assert_int_equal(ps_sat(INFINITY), PS_FAR);
    assert_int_equal(ps_sat(NAN), PS_FAR);
    assert_true(REPLAY_TIME_MAX_NS * REPLAY_PS_PER_NS < INT64_MAX - PS_FAR);
}

/* A host that never stops sending XOFF, at both ends of the speed range: at 1 Mb/s one PAUSE
 * lasts 33.55 s (refreshed every 16.78 s), at 1.6 Tb/s 20.97 us (every 10.49 us). The run ends
 * on time with the refreshes it should have and no other PFC frame: at 1 b/s (issue 32) the
 * refresh overflowed to a time before its XOFF and came again at once, forever. */
static void pause_storm_at_the_bounds(void **state)
{
    (void)state;
    static const struct {
        const char *speed;
        double ms;
        uint64_t xoffs;
    } cases[] = {
        { "1M", 40000, 3 }, /* at 0, 16.78 s and 33.55 s */
        { "1.6T", 1, 96 },  /* 1 ms / 10.486 us, and the first */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char speed[64], dur[64];
        snprintf(speed, sizeof(speed), "fabric.generate.speed=%s", cases[i].speed);
        snprintf(dur, sizeof(dur), "duration_ms=%g", cases[i].ms);
        /* no retransmission while paused: at 1 Mb/s a frame outlasts the 1 ms default */
        const char *sets[] = { speed,
                               dur,
                               "faults[0]={\"type\":\"pause-storm\",\"host\":\"host4\"}",
                               "sample_interval_us=0",
                               "series_interval_us=0",
                               "retransmit_timeout_us=100000000" };
        struct scenario sc;
        struct dcb_err err;
        if (scenario_load_text(&sc, BASE, strlen(BASE), "t", NULL, sets, 6, &err) < 0) {
            print_error("%s\n", err.msg);
            fail();
        }
        struct scenario_result r;
        struct scenario_run_options ro = { 0 };
        if (scenario_run(&sc, &ro, NULL, &r, &err) < 0) {
            print_error("%s: %s\n", cases[i].speed, err.msg);
            fail();
        }
        assert_int_equal(r.simulated_ns, (int64_t)(cases[i].ms * 1e6));
        assert_int_equal(r.summary.pfc_frames, cases[i].xoffs);
        assert_true(r.events < 100000);
        for (size_t f = 0; cases[i].xoffs == 3 && f < r.summary.nflows; f++)
            assert_int_equal(r.summary.flows[f].bytes_acked, 0); /* held from the start */
        scenario_result_free(&r);
        scenario_free(&sc);
    }
}

/* The budget at every size from too small to build anything to enough: each refusal names
 * what would have grown past it, build-time structures first, then what the traffic grows;
 * enough runs to the end with the same figures as no limit at all. */
static void memory_budget(void **state)
{
    (void)state;
    struct fabric f;
    star(&f, 40000000000ULL);
    struct replay_flow flows[2] = { { .src = "host1", .dst = "host3", .bytes = 2000000 },
                                    { .src = "host2", .dst = "host3", .bytes = 2000000 } };
    struct replay_options o;
    replay_options_init(&o);
    o.duration_ns = 2000000;
    o.series_interval_ns = 100;
    struct replay_summary free_run, sum;
    struct dcb_err err;
    assert_int_equal(replay_run(&f, flows, 2, &o, NULL, &free_run, &err), 0);
    static const char *const order[] = { "the simulator",     "the nodes",
                                         "the ports",         "the routes",
                                         "the flows",         "the summary",
                                         "the event queue",   "the packets",
                                         "the packet queues", "the NICs' ready lists",
                                         "the queue depths" };
    bool seen[sizeof(order) / sizeof(order[0])] = { false };
    size_t last = 0;
    uint64_t limit;
    for (limit = 4096;; limit += limit / 16) {
        o.max_memory_bytes = limit;
        if (replay_run(&f, flows, 2, &o, NULL, &sum, &err) == 0)
            break;
        size_t k = 0;
        while (k < sizeof(order) / sizeof(order[0]) && strncmp(err.msg, order[k], strlen(order[k])))
            k++;
        if (k == sizeof(order) / sizeof(order[0]) || !strstr(err.msg, "would take the run past "
                                                                      "max_memory_bytes (")) {
            print_error("%llu: %s\n", (unsigned long long)limit, err.msg);
            fail();
        }
        if (k < 6 && k < last) { /* what the build takes comes in the order it is built */
            print_error("%s after %s\n", order[k], order[last]);
            fail();
        }
        last = k > last ? k : last;
        seen[k] = true;
    }
    /* the small ones (nodes, routes, flows of this fabric, the rings of 64) fall between two
     * steps; the large ones are each refused at some size */
    assert_true(seen[0] && seen[2] && seen[7] && seen[10]);
    assert_true(limit < 64000000);
    assert_int_equal(sum.events, free_run.events);
    assert_int_equal(sum.packets, free_run.packets);
    assert_true(sum.queue_max_bytes == free_run.queue_max_bytes);
    replay_summary_free(&sum);
    replay_summary_free(&free_run);
    fabric_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scenario_keys),
        cmocka_unit_test(fault_keys),
        cmocka_unit_test(workload_keys),
        cmocka_unit_test(fabric_keys),
        cmocka_unit_test(run_checks),
        cmocka_unit_test(saturating_delays),
        cmocka_unit_test(pause_storm_at_the_bounds),
        cmocka_unit_test(memory_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
