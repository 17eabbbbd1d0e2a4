/* The source layer's reset stage (collectors/reset_watch.h): a counter_reset event before the
 * sample that went back where its width does not explain it, everything passed on unchanged. */
#include "unit.h"

#include <stdio.h>

#include "reset_watch.h"

#define SEC 1000000000LL

struct seen {
    struct dcb_event events[16];
    int nevents, nsamples, nconfigs, nresets;
    int order[64]; /* 's' sample, 'e' event, in the order they came */
    int norder;
};

static void got_sample(void *arg, const struct dcb_sample *s, unsigned width_bits)
{
    (void)s;
    (void)width_bits;
    struct seen *x = arg;
    x->nsamples++;
    x->order[x->norder++] = 's';
}

static void got_event(void *arg, const struct dcb_event *e)
{
    struct seen *x = arg;
    x->events[x->nevents++] = *e;
    x->order[x->norder++] = 'e';
}

static void got_config(void *arg, const struct store_config_row *c)
{
    (void)c;
    ((struct seen *)arg)->nconfigs++;
}

static void got_reset(void *arg)
{
    ((struct seen *)arg)->nresets++;
}

static void put(struct dcb_sink *sink, int64_t t, const char *ifname, enum metric_id m, int prio,
                uint64_t v, unsigned width)
{
    struct dcb_sample s;
    dcb_sample_set(&s, t, "leaf1", ifname, m, prio, -1);
    s.value.counter = v;
    sink->sample(sink->arg, &s, width);
}

/* The gNMI test target's pfc.rx_pause{prio=3} (1300 + 50 a sample) through a restart: one
 * event, before the sample that went back, with the previous and new readings. */
static void restart_gives_one_event(void **state)
{
    (void)state;
    struct seen x = { 0 };
    struct reset_watch *w = reset_watch_new(
        (struct dcb_sink){ got_sample, got_event, got_config, NULL, got_reset, &x });
    assert_non_null(w);
    struct dcb_sink sink = reset_watch_sink(w);
    put(&sink, 0, "Ethernet0", METRIC_PFC_RX_PAUSE, 3, 1300, 0);
    put(&sink, SEC, "Ethernet0", METRIC_PFC_RX_PAUSE, 3, 1350, 0);
    put(&sink, SEC, "Ethernet4", METRIC_PFC_RX_PAUSE, 3, 2300, 0); /* another series */
    put(&sink, 2 * SEC, "Ethernet0", METRIC_PFC_RX_PAUSE, 3, 1400, 0);
    put(&sink, 7 * SEC, "Ethernet0", METRIC_PFC_RX_PAUSE, 3, 1300, 0); /* restarted */
    put(&sink, 8 * SEC, "Ethernet0", METRIC_PFC_RX_PAUSE, 3, 1350, 0);
    put(&sink, 8 * SEC, "Ethernet4", METRIC_PFC_RX_PAUSE, 3, 2350, 0);
    assert_int_equal(x.nsamples, 7);
    assert_int_equal(x.nevents, 1);
    assert_int_equal(reset_watch_resets(w), 1);
    assert_int_equal(x.order[4], 'e'); /* the event, then the sample that reset */
    assert_int_equal(x.order[5], 's');
    const struct dcb_event *e = &x.events[0];
    assert_int_equal(e->kind, EVENT_COUNTER_RESET);
    assert_int_equal(e->time_ns, 7 * SEC);
    assert_string_equal(e->device, "leaf1");
    assert_string_equal(e->ifname, "Ethernet0");
    assert_int_equal(e->prio, 3);
    assert_string_equal(e->details, "{\"metric\":\"pfc.rx_pause\",\"queue\":-1,"
                                    "\"previous\":1400,\"value\":1300}");
    reset_watch_free(w);
}

/* A 32-bit counter passing through its top is a wrap, no event; the same drop said to be 64
 * bits wide (or of unknown width) is a reset. Gauges going down are no reset. Config and the
 * source's own events pass through; the source starting over forgets every reading. */
static void wraps_gauges_and_passing_through(void **state)
{
    (void)state;
    struct seen x = { 0 };
    struct reset_watch *w = reset_watch_new(
        (struct dcb_sink){ got_sample, got_event, got_config, NULL, got_reset, &x });
    struct dcb_sink sink = reset_watch_sink(w);
    put(&sink, 0, "eth0", METRIC_ROCE_OUT_OF_SEQUENCE, -1, 4294967000u, 32);
    put(&sink, SEC, "eth0", METRIC_ROCE_OUT_OF_SEQUENCE, -1, 100, 32);
    assert_int_equal(x.nevents, 0);
    put(&sink, 0, "eth1", METRIC_ROCE_OUT_OF_SEQUENCE, -1, 4294967000u, 0);
    put(&sink, SEC, "eth1", METRIC_ROCE_OUT_OF_SEQUENCE, -1, 100, 0);
    assert_int_equal(x.nevents, 1);
    struct dcb_sample g;
    dcb_sample_set(&g, 0, "leaf1", "eth0", METRIC_QUEUE_DEPTH_BYTES, -1, 3);
    g.value.gauge = 5000;
    sink.sample(sink.arg, &g, 0);
    g.time_ns = SEC;
    g.value.gauge = 10;
    sink.sample(sink.arg, &g, 0);
    assert_int_equal(x.nevents, 1);
    struct dcb_event pause;
    dcb_event_set(&pause, SEC, EVENT_PAUSE_STORM, "leaf1", "eth0", 3, "{}");
    sink.event(sink.arg, &pause);
    struct store_config_row c = { SEC, "leaf1", "eth0", "gnmi", "{}" };
    sink.config(sink.arg, &c);
    assert_int_equal(x.nevents, 2);
    assert_int_equal(x.events[1].kind, EVENT_PAUSE_STORM);
    assert_int_equal(x.nconfigs, 1);
    sink.reset(sink.arg); /* a jump in time: nothing to compare */
    assert_int_equal(x.nresets, 1);
    put(&sink, 2 * SEC, "eth1", METRIC_ROCE_OUT_OF_SEQUENCE, -1, 5, 0);
    assert_int_equal(x.nevents, 2);
    assert_int_equal(x.nsamples, 7);
    reset_watch_free(w);
}

/* The source layer puts the stage in front of a source's sink once, and closing the source
 * frees it. */
static void source_watch_resets(void **state)
{
    (void)state;
    struct seen x = { 0 };
    struct dcb_source src;
    memset(&src, 0, sizeof(src));
    src.sink = (struct dcb_sink){ got_sample, got_event, got_config, NULL, NULL, &x };
    assert_int_equal(dcb_source_watch_resets(&src, NULL), 0);
    struct reset_watch *w = src.watch;
    assert_non_null(w);
    assert_int_equal(dcb_source_watch_resets(&src, NULL), 0);
    assert_ptr_equal(src.watch, w);
    put(&src.sink, 0, "Ethernet0", METRIC_PORT_RX_BYTES, -1, 1000000000u, 0);
    put(&src.sink, SEC, "Ethernet0", METRIC_PORT_RX_BYTES, -1, 1000, 0);
    assert_int_equal(x.nevents, 1);
    assert_int_equal(x.nsamples, 2);
    dcb_source_close(&src);
    assert_null(src.watch);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(restart_gives_one_event),
        cmocka_unit_test(wraps_gauges_and_passing_through),
        cmocka_unit_test(source_watch_resets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
