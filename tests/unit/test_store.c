#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "store.h"

#define SEC 1000000000LL

static void put_counter(struct dcb_store *st, int64_t t, const char *ifname, int prio, uint64_t v)
{
    struct dcb_sample s;
    dcb_sample_set(&s, t, "h1", ifname, METRIC_PFC_RX_PAUSE, prio, DCB_NO_INDEX);
    s.value.counter = v;
    struct dcb_err err;
    assert_int_equal(store_put_sample(st, &s, &err), 0);
}

static void put_gauge(struct dcb_store *st, int64_t t, int queue, double v)
{
    struct dcb_sample s;
    dcb_sample_set(&s, t, "leaf1", "Ethernet0", METRIC_QUEUE_DEPTH_BYTES, DCB_NO_INDEX, queue);
    s.value.gauge = v;
    assert_int_equal(store_put_sample(st, &s, NULL), 0);
}

struct collected {
    int n;
    struct dcb_sample s[64];
};

static int collect(const struct dcb_sample *s, void *arg)
{
    struct collected *c = arg;
    if (c->n < 64)
        c->s[c->n] = *s;
    c->n++;
    return 0;
}

/* The same checks on both back ends. */
static void exercise(struct dcb_store *st, bool sqlite)
{
    struct dcb_err err;
    for (int t = 0; t < 5; t++) {
        put_counter(st, t * SEC, "eth0", 3, 100 + (uint64_t)t * 10);
        put_counter(st, t * SEC, "eth0", 4, 7);
        put_gauge(st, t * SEC, 3, 1000.5 * t);
    }
    if (sqlite)
        assert_int_equal(store_pending(st), 15);
    assert_true(store_flush(st, &err) >= 0);
    assert_int_equal(store_pending(st), 0);

    struct store_filter f;
    store_filter_init(&f);
    struct collected c = { 0 };
    assert_int_equal(store_latest(st, &f, collect, &c, &err), 0);
    assert_int_equal(c.n, 3);
    f.ifname = "eth0";
    f.prio = 3;
    c.n = 0;
    assert_int_equal(store_latest(st, &f, collect, &c, &err), 0);
    assert_int_equal(c.n, 1);
    assert_true(c.s[0].value.counter == 140);
    assert_true(c.s[0].time_ns == 4 * SEC);
    assert_string_equal(c.s[0].device, "h1");

    /* range: in time order, bounded by t0/t1 */
    f.t0 = 1 * SEC;
    f.t1 = 3 * SEC;
    c.n = 0;
    assert_int_equal(store_range(st, &f, collect, &c, &err), 0);
    assert_int_equal(c.n, 3);
    assert_true(c.s[0].value.counter == 110 && c.s[2].value.counter == 130);

    double delta, rate;
    uint64_t resets;
    store_filter_init(&f);
    f.ifname = "eth0";
    f.metric = "pfc.rx_pause";
    f.prio = 3;
    assert_int_equal(store_delta(st, &f, 64, &delta, &rate, &resets, &err), 0);
    assert_true(delta == 40.0);
    assert_true(fabs(rate - 10.0) < 1e-9);
    assert_int_equal(resets, 0);

    /* the filter must name one series */
    f.prio = STORE_ANY;
    assert_int_equal(store_delta(st, &f, 64, &delta, &rate, &resets, &err), DCB_E_INVAL);

    /* gauges come back as doubles */
    store_filter_init(&f);
    f.metric = "queue.depth_bytes";
    c.n = 0;
    assert_int_equal(store_latest(st, &f, collect, &c, &err), 0);
    assert_int_equal(c.n, 1);
    assert_true(c.s[0].value.gauge == 4002.0);
    assert_int_equal(c.s[0].queue, 3);

    /* events */
    struct dcb_event e;
    dcb_event_set(&e, 2 * SEC, EVENT_PFC_XOFF, "h1", "eth0", 3, "{\"quanta\":65535}");
    assert_int_equal(store_put_event(st, &e, &err), 0);
    dcb_event_set(&e, 3 * SEC, EVENT_COUNTER_RESET, "h1", "eth1", -1, NULL);
    assert_int_equal(store_put_event(st, &e, &err), 0);
    assert_true(store_flush(st, &err) >= 0);
    struct store_info info;
    assert_int_equal(store_info(st, &info, &err), 0);
    assert_int_equal(info.series, 3);
    assert_int_equal(info.samples, 15);
    assert_int_equal(info.events, 2);
    assert_true(info.first_ns == 0 && info.last_ns == 4 * SEC);
}

static int count_event(const struct dcb_event *e, void *arg)
{
    int *n = arg;
    (*n)++;
    assert_true(e->kind == EVENT_PFC_XOFF);
    assert_string_equal(e->details, "{\"quanta\":65535}");
    return 0;
}

static void ring_backend(void **state)
{
    (void)state;
    struct dcb_store *st;
    assert_int_equal(store_open_ring(&st, 1000, 100, NULL), 0);
    exercise(st, false);
    struct store_filter f;
    store_filter_init(&f);
    int n = 0;
    assert_int_equal(store_events(st, &f, "pfc_xoff", count_event, &n, NULL), 0);
    assert_int_equal(n, 1);
    assert_int_equal(store_put_finding(st, &(struct store_finding_row){ 0 }, NULL), DCB_E_UNSUPP);
    store_close(st, NULL);
}

/* A ring forgets the oldest samples but keeps the latest value of each series. */
static void ring_overwrites_oldest(void **state)
{
    (void)state;
    struct dcb_store *st;
    assert_int_equal(store_open_ring(&st, 4, 4, NULL), 0);
    put_counter(st, 0, "eth9", 0, 1);
    for (int t = 1; t <= 10; t++)
        put_counter(st, t * SEC, "eth0", 3, (uint64_t)t);
    struct store_filter f;
    store_filter_init(&f);
    struct collected c = { 0 };
    store_range(st, &f, collect, &c, NULL);
    assert_int_equal(c.n, 4);
    assert_true(c.s[0].value.counter == 7 && c.s[3].value.counter == 10);
    c.n = 0;
    store_latest(st, &f, collect, &c, NULL);
    assert_int_equal(c.n, 2);
    store_close(st, NULL);
}

static void sqlite_backend(void **state)
{
    (void)state;
    struct dcb_store *st;
    struct store_options opt = { .path = ":memory:" };
    struct dcb_err err;
    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    exercise(st, true);
    struct store_filter f;
    store_filter_init(&f);
    int n = 0;
    assert_int_equal(store_events(st, &f, "pfc_xoff", count_event, &n, &err), 0);
    assert_int_equal(n, 1);

    int64_t run;
    assert_int_equal(store_begin_run(st, "analyze", "x.pcap", 10 * SEC, &run, &err), 0);
    assert_true(run > 0);
    struct store_finding_row fr = { run,    11 * SEC, "pause-storm",        "crit", "h1",
                                    "eth0", 3,        "{\"summary\":\"x\"}" };
    assert_int_equal(store_put_finding(st, &fr, &err), 0);
    assert_int_equal(store_end_run(st, run, 12 * SEC, &err), 0);
    /* the newest run of a command and source before a time: the previous report */
    int64_t later, found, started;
    assert_int_equal(store_begin_run(st, "analyze", "x.pcap", 20 * SEC, &later, &err), 0);
    assert_int_equal(store_begin_run(st, "analyze", "y.pcap", 15 * SEC, &found, &err), 0);
    assert_int_equal(store_last_run(st, "analyze", "x.pcap", 20 * SEC, &found, &started, &err), 1);
    assert_int_equal(found, run);
    assert_int_equal(started, 10 * SEC);
    assert_int_equal(store_last_run(st, "analyze", "x.pcap", 21 * SEC, &found, &started, &err), 1);
    assert_int_equal(found, later);
    assert_int_equal(store_last_run(st, "analyze", "x.pcap", 10 * SEC, &found, &started, &err), 0);
    assert_int_equal(store_last_run(st, "report", "x.pcap", 99 * SEC, &found, &started, &err), 0);
    struct store_config_row cr = { 10 * SEC, "h1", "eth0", "dcbx", "{\"pfc\":{\"enabled\":8}}" };
    assert_int_equal(store_put_config(st, &cr, &err), 0);
    struct store_info info;
    assert_int_equal(store_info(st, &info, &err), 0);
    assert_int_equal(info.runs, 3);
    assert_int_equal(info.findings, 1);
    assert_int_equal(info.config_snapshots, 1);

    /* prune drops samples and events before the cutoff, keeps the rest */
    int64_t deleted = store_prune(st, 2 * SEC, &err);
    assert_int_equal(deleted, 6);
    assert_int_equal(store_info(st, &info, &err), 0);
    assert_int_equal(info.samples, 9);
    assert_int_equal(info.events, 2);
    store_close(st, NULL);
}

/* Counter wraps and resets inside a window, through the stored values. */
static void delta_over_wrap_and_reset(void **state)
{
    (void)state;
    struct dcb_store *st;
    struct store_options opt = { .path = ":memory:" };
    assert_int_equal(store_open_sqlite(&st, &opt, NULL), 0);
    put_counter(st, 0, "eth0", 3, UINT64_MAX - 4);
    put_counter(st, 1 * SEC, "eth0", 3, 5);  /* wrap: +10 */
    put_counter(st, 2 * SEC, "eth0", 3, 25); /* +20 */
    put_counter(st, 3 * SEC, "eth0", 3, 3);  /* reset: its second counts
                                              * for nothing */
    assert_true(store_flush(st, NULL) == 4);
    struct store_filter f;
    store_filter_init(&f);
    double delta, rate;
    uint64_t resets;
    assert_int_equal(store_delta(st, &f, 64, &delta, &rate, &resets, NULL), 0);
    assert_true(delta == 30.0);
    assert_true(fabs(rate - 15.0) < 1e-9); /* 30 over the 2 s without one */
    assert_int_equal(resets, 1);
    /* one sample: no delta */
    f.t1 = 0;
    assert_int_equal(store_delta(st, &f, 64, &delta, &rate, &resets, NULL), 0);
    assert_true(isnan(delta));
    store_close(st, NULL);
}

static void batches_flush_by_count(void **state)
{
    (void)state;
    struct dcb_store *st;
    struct store_options opt = { .path = ":memory:",
                                 .batch_max_samples = 10,
                                 .batch_max_age_ns = 3600 * SEC };
    assert_int_equal(store_open_sqlite(&st, &opt, NULL), 0);
    for (int i = 0; i < 9; i++)
        put_counter(st, i * SEC, "eth0", 3, (uint64_t)i);
    assert_int_equal(store_pending(st), 9);
    put_counter(st, 9 * SEC, "eth0", 3, 9);
    assert_int_equal(store_pending(st), 0);
    store_close(st, NULL);
}

/* Samples of one series that arrive out of order are stored in time order. */
/* One series' aggregates, by both back ends: a counter 0, 10, 20, 5 (a reset), 15 at 1..5 s,
 * and a gauge 4, 2, 6, 8 at 1..4 s; the window is [2 s, 5 s]. */
static void check_aggregates(struct dcb_store *st)
{
    for (int i = 1; i <= 5; i++) {
        static const uint64_t counter[] = { 0, 10, 20, 5, 15 };
        struct dcb_sample c;
        dcb_sample_set(&c, i * SEC, "h1", "eth0", METRIC_PFC_RX_PAUSE, 3, -1);
        c.value.counter = counter[i - 1];
        assert_int_equal(store_put_sample(st, &c, NULL), 0);
        if (i <= 4) {
            static const double gauge[] = { 4, 2, 6, 8 };
            struct dcb_sample g;
            dcb_sample_set(&g, i * SEC, "h1", "eth0", METRIC_QUEUE_DEPTH_BYTES, -1, 3);
            g.value.gauge = gauge[i - 1];
            assert_int_equal(store_put_sample(st, &g, NULL), 0);
        }
    }
    assert_true(store_flush(st, NULL) >= 0);
    struct store_filter f;
    store_filter_init(&f);
    f.device = "h1";
    f.ifname = "eth0";
    f.metric = "pfc.rx_pause";
    f.prio = 3;
    f.queue = -1;
    f.t0 = 2 * SEC;
    f.t1 = 5 * SEC;
    double v;
    /* 10 -> 20: +10; 20 -> 5: a reset, whose second counts for nothing; 5 -> 15: +10 */
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_DELTA, &v, NULL), 1);
    assert_true(v == 20);
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_RATE, &v, NULL), 1);
    assert_true(fabs(v - 10.0) < 1e-9); /* 20 over 2 s, not 3 */
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_BUSY_RATE, &v, NULL), 1);
    assert_true(fabs(v - 10.0) < 1e-9);
    f.metric = "queue.depth_bytes";
    f.prio = -1;
    f.queue = 3;
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_AVG, &v, NULL), 1);
    assert_true(fabs(v - 16.0 / 3.0) < 1e-9);
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_MAX, &v, NULL), 1);
    assert_true(v == 8);
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_MIN, &v, NULL), 1);
    assert_true(v == 2);
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_LAST, &v, NULL), 1);
    assert_true(v == 8);
    f.t0 = f.t1 = 10 * SEC; /* nothing in the window */
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_AVG, &v, NULL), 0);
    f.ifname = "eth9"; /* no such series */
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_AVG, &v, NULL), 0);
}

static void aggregates(void **state)
{
    (void)state;
    struct dcb_store *st;
    struct store_options opt = { .path = ":memory:" };
    assert_int_equal(store_open_sqlite(&st, &opt, NULL), 0);
    check_aggregates(st);
    assert_int_equal(store_close(st, NULL), 0);
    assert_int_equal(store_open_ring(&st, 1000, 10, NULL), 0);
    check_aggregates(st);
    store_close(st, NULL);
    /* the ring's chains survive being overwritten: only what it still holds counts */
    assert_int_equal(store_open_ring(&st, 4, 10, NULL), 0);
    for (int i = 1; i <= 6; i++)
        put_counter(st, i * SEC, "eth0", 3, (uint64_t)(i * 10));
    struct store_filter f;
    store_filter_init(&f);
    f.device = "h1";
    f.ifname = "eth0";
    f.metric = "pfc.rx_pause";
    f.prio = 3;
    f.queue = -1;
    double v;
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_DELTA, &v, NULL), 1);
    assert_true(v == 30); /* 30 .. 60: the last four */
    store_close(st, NULL);
    /* two series written in turn, so each chain steps back two slots, across the ring's end:
     * it holds writes 8..12, the gauge's 40, 50, 60 and the counter's 500, 600 */
    assert_int_equal(store_open_ring(&st, 5, 10, NULL), 0);
    for (int i = 1; i <= 6; i++) {
        put_counter(st, i * SEC, "eth0", 3, (uint64_t)(i * 100));
        struct dcb_sample g;
        dcb_sample_set(&g, i * SEC, "h1", "eth0", METRIC_QUEUE_DEPTH_BYTES, -1, 3);
        g.value.gauge = i * 10;
        assert_int_equal(store_put_sample(st, &g, NULL), 0);
    }
    f.t0 = 0;
    f.t1 = 10 * SEC;
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_DELTA, &v, NULL), 1);
    assert_true(v == 100);
    f.metric = "queue.depth_bytes";
    f.prio = -1;
    f.queue = 3;
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_AVG, &v, NULL), 1);
    assert_true(v == 50);
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_MIN, &v, NULL), 1);
    assert_true(v == 40);
    store_close(st, NULL);
}

/* A batch holding events and no samples (dcbkit analyze writes those) commits. */
static void events_only_batch(void **state)
{
    (void)state;
    struct dcb_store *st;
    struct store_options opt = { .path = ":memory:" };
    struct dcb_err err;
    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    struct dcb_event e;
    dcb_event_set(&e, SEC, EVENT_PFC_XOFF, "cap.pcap", "", 3, "{\"quanta\":65535}");
    assert_int_equal(store_put_event(st, &e, &err), 0);
    assert_true(store_flush(st, &err) == 0);
    struct store_filter f;
    store_filter_init(&f);
    int n = 0;
    assert_int_equal(store_events(st, &f, NULL, count_event, &n, &err), 0);
    assert_int_equal(n, 1);
    assert_int_equal(store_close(st, &err), 0);
}

static void out_of_order_batch(void **state)
{
    (void)state;
    struct dcb_store *st;
    struct store_options opt = { .path = ":memory:" };
    assert_int_equal(store_open_sqlite(&st, &opt, NULL), 0);
    static const int order[] = { 3, 1, 4, 0, 2 };
    for (int i = 0; i < 5; i++) {
        put_counter(st, order[i] * SEC, "eth1", 0, (uint64_t)order[i]);
        put_counter(st, order[i] * SEC, "eth0", 0, (uint64_t)order[i] * 10);
    }
    assert_true(store_flush(st, NULL) == 10);
    struct store_filter f;
    store_filter_init(&f);
    struct collected c = { 0 };
    assert_int_equal(store_range(st, &f, collect, &c, NULL), 0);
    assert_int_equal(c.n, 10);
    for (int i = 0; i < 10; i++) {
        assert_string_equal(c.s[i].ifname, i < 5 ? "eth1" : "eth0"); /* creation order */
        assert_true(c.s[i].time_ns == (i % 5) * SEC);
    }
    c.n = 0;
    assert_int_equal(store_latest(st, &f, collect, &c, NULL), 0);
    assert_true(c.s[0].time_ns == 4 * SEC && c.s[1].time_ns == 4 * SEC);
    store_close(st, NULL);
}

/* Counter widths. An mlx5 Q-counter is 32 bits wide: 4294967000, 4294967200, 100, 300 a second
 * apart is +200, then through the top (2^32 - 1 - 4294967200) + 100 + 1 = 196, then +200: 596
 * in 3 s, no reset. Read as 64 bits, 4294967200 -> 100 is a reset whose second counts nothing:
 * 400 in 2 s. 2999999800, 3000000000, 5, 205 at 32 bits is a true reset: forward through the
 * top from 3000000000 to 5 is 1294967301, more than a quarter of 2^32 (1073741824). */
static const uint64_t wrapping[4] = { 4294967000u, 4294967200u, 100, 300 };
static const uint64_t resetting[4] = { 2999999800u, 3000000000u, 5, 205 };

static void put_width_series(struct dcb_store *st, const char *ifname, const uint64_t v[4],
                             unsigned bits)
{
    struct dcb_sample s;
    dcb_sample_set(&s, 0, "h1", ifname, METRIC_ROCE_OUT_OF_SEQUENCE, -1, -1);
    struct dcb_err err;
    if (bits)
        assert_int_equal(store_set_series_width(st, &s, bits, &err), 0);
    for (int i = 0; i < 4; i++) {
        s.time_ns = (i + 1) * SEC;
        s.value.counter = v[i];
        assert_int_equal(store_put_sample(st, &s, &err), 0);
    }
}

static void width_filter(struct store_filter *f, const char *ifname)
{
    store_filter_init(f);
    f->device = "h1";
    f->ifname = ifname;
    f->metric = "roce.out_of_sequence";
    f->prio = -1;
    f->queue = -1;
}

/* What every reader says of one series: aggregate DELTA, RATE and BUSY_RATE, store_delta at the
 * series' own width, and the width itself. */
static void expect_series(struct dcb_store *st, const char *ifname, unsigned bits, double delta,
                          double rate, uint64_t resets)
{
    struct store_filter f;
    width_filter(&f, ifname);
    struct dcb_err err;
    double v, d, r;
    uint64_t n;
    assert_int_equal(store_series_width(st, "h1", ifname, METRIC_ROCE_OUT_OF_SEQUENCE, -1, -1),
                     bits);
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_DELTA, &v, &err), 1);
    assert_true(v == delta);
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_RATE, &v, &err), 1);
    assert_true(fabs(v - rate) < 1e-9);
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_BUSY_RATE, &v, &err), 1);
    assert_true(fabs(v - rate) < 1e-9); /* every interval that counts moved */
    assert_int_equal(store_delta(st, &f, 0, &d, &r, &n, &err), 0);
    assert_true(d == delta);
    assert_true(fabs(r - rate) < 1e-9);
    assert_int_equal(n, resets);
}

static void check_widths(struct dcb_store *st)
{
    expect_series(st, "eth0", 32, 596, 596.0 / 3, 0); /* a wrap, at its width */
    expect_series(st, "eth1", 64, 400, 200, 1);       /* unsaid: 64, a reset */
    expect_series(st, "eth2", 32, 400, 200, 1);       /* a true reset at 32 bits */
    expect_series(st, "eth3", 64, 400, 200, 1);       /* said 64 */
    expect_series(st, "eth4", 32, 596, 596.0 / 3, 0); /* said after its samples */
    /* a width the caller gives wins over the series' */
    struct store_filter f;
    width_filter(&f, "eth0");
    double d, r;
    uint64_t n;
    assert_int_equal(store_delta(st, &f, 64, &d, &r, &n, NULL), 0);
    assert_true(d == 400 && n == 1);
    width_filter(&f, "eth1");
    assert_int_equal(store_delta(st, &f, 32, &d, &r, &n, NULL), 0);
    assert_true(d == 596 && n == 0);
    /* no such series: 64 */
    assert_int_equal(store_series_width(st, "h1", "eth9", METRIC_ROCE_OUT_OF_SEQUENCE, -1, -1), 64);
}

static void put_widths(struct dcb_store *st)
{
    put_width_series(st, "eth0", wrapping, 32);
    put_width_series(st, "eth1", wrapping, 0);
    put_width_series(st, "eth2", resetting, 32);
    put_width_series(st, "eth3", wrapping, 64);
    put_width_series(st, "eth4", wrapping, 0);
    struct dcb_sample s;
    dcb_sample_set(&s, 0, "h1", "eth4", METRIC_ROCE_OUT_OF_SEQUENCE, -1, -1);
    assert_int_equal(store_set_series_width(st, &s, 32, NULL), 0);
    assert_int_equal(store_set_series_width(st, &s, 65, NULL), DCB_E_INVAL);
}

static void widths_ring(void **state)
{
    (void)state;
    struct dcb_store *st;
    assert_int_equal(store_open_ring(&st, 1000, 10, NULL), 0);
    put_widths(st);
    check_widths(st);
    store_close(st, NULL);
}

struct runs_seen {
    int n;
    char ifname[4][DCB_IFNAME_MAX];
    unsigned bits[4];
    int64_t ts[4][8];
    uint64_t raw[4][8];
    size_t count[4], start[4];
};

static int collect_run(const struct store_run *run, void *arg)
{
    struct runs_seen *r = arg;
    if (r->n < 4 && run->n <= 8) {
        snprintf(r->ifname[r->n], DCB_IFNAME_MAX, "%s", run->key->ifname);
        r->bits[r->n] = run->bits;
        r->count[r->n] = run->n;
        r->start[r->n] = run->start;
        memcpy(r->ts[r->n], run->ts, run->n * sizeof(*run->ts));
        memcpy(r->raw[r->n], run->raw, run->n * sizeof(*run->raw));
    }
    r->n++;
    return 0;
}

/* The ring a series at a time: two series written out of order across the ring's end, the
 * oldest two overwritten; each comes back in time order with its width, as store_range. */
static void ring_range_runs(void **state)
{
    (void)state;
    struct dcb_store *st;
    assert_int_equal(store_open_ring(&st, 8, 10, NULL), 0);
    assert_true(store_has_range_runs(st));
    struct dcb_sample w;
    dcb_sample_set(&w, 0, "h1", "eth1", METRIC_PFC_RX_PAUSE, 0, DCB_NO_INDEX);
    assert_int_equal(store_set_series_width(st, &w, 32, NULL), 0);
    /* 12 writes into 8 slots: eth1's 9, 8, 3 and eth0's 3 are forgotten */
    static const int order[] = { 9, 8, 3, 1, 4, 0, 2 };
    for (int i = 0; i < 7; i++) {
        put_counter(st, order[i] * SEC, "eth1", 0, (uint64_t)order[i]);
        if (i >= 2)
            put_counter(st, order[i] * SEC, "eth0", 0, (uint64_t)order[i] * 10);
    }
    struct store_filter f;
    store_filter_init(&f);
    f.t0 = 1 * SEC; /* 0 s is outside */
    struct runs_seen r = { 0 };
    struct store_samples all;
    assert_int_equal(store_range_runs(st, &f, collect_run, &r, &all, NULL), 0);
    assert_int_equal(r.n, 2);
    assert_int_equal(all.n, 6); /* the runs one after the other, in arrays the caller keeps */
    assert_int_equal(r.start[0], 0);
    assert_int_equal(r.start[1], 3);
    for (int i = 0; i < 6; i++)
        assert_true(all.ts[i] == r.ts[i / 3][i % 3] && all.raw[i] == r.raw[i / 3][i % 3]);
    free(all.ts);
    free(all.raw);
    assert_string_equal(r.ifname[0], "eth1"); /* the series' creation order */
    assert_string_equal(r.ifname[1], "eth0");
    assert_int_equal(r.bits[0], 32);
    assert_int_equal(r.bits[1], 64);
    static const int want[] = { 1, 2, 4 };
    for (int run = 0; run < 2; run++) {
        assert_int_equal(r.count[run], 3);
        for (int i = 0; i < 3; i++) {
            assert_true(r.ts[run][i] == want[i] * SEC);
            assert_true(r.raw[run][i] == (uint64_t)want[i] * (run ? 10 : 1));
        }
    }
    struct collected c = { 0 };
    assert_int_equal(store_range(st, &f, collect, &c, NULL), 0);
    assert_int_equal(c.n, 6);
    for (int i = 0; i < 6; i++) {
        int run = i / 3, k = i % 3;
        assert_string_equal(c.s[i].ifname, r.ifname[run]);
        assert_true(c.s[i].time_ns == r.ts[run][k] && c.s[i].value.counter == r.raw[run][k]);
    }
    store_close(st, NULL);
}

/* The widths are in the file: a reader in another connection sees them, and a width said for a
 * series another handle created changes its row. */
static void remove_store_files(const char *path)
{
    unlink(path);
    char side[64];
    snprintf(side, sizeof(side), "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof(side), "%s-shm", path);
    unlink(side);
}

static void widths_sqlite(void **state)
{
    (void)state;
    char path[] = "/tmp/dcbkit-store-width-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    struct dcb_store *st, *rd;
    struct store_options opt = { .path = path };
    struct dcb_err err;
    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    put_widths(st);
    /* said, not flushed yet: this handle knows */
    assert_int_equal(store_series_width(st, "h1", "eth0", METRIC_ROCE_OUT_OF_SEQUENCE, -1, -1), 32);
    assert_true(store_flush(st, &err) >= 0);
    check_widths(st);
    struct store_options ro = { .path = path, .readonly = true };
    assert_int_equal(store_open_sqlite(&rd, &ro, &err), 0);
    check_widths(rd);
    store_close(rd, NULL);
    assert_int_equal(store_close(st, &err), 0);

    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    struct dcb_sample s;
    dcb_sample_set(&s, 0, "h1", "eth1", METRIC_ROCE_OUT_OF_SEQUENCE, -1, -1);
    assert_int_equal(store_set_series_width(st, &s, 32, &err), 0);
    assert_int_equal(store_close(st, &err), 0); /* a width alone is written too */
    assert_int_equal(store_open_sqlite(&rd, &ro, &err), 0);
    expect_series(rd, "eth1", 32, 596, 596.0 / 3, 0);
    expect_series(rd, "eth0", 32, 596, 596.0 / 3, 0);
    assert_int_equal(store_set_series_width(rd, &s, 32, &err), DCB_E_PERM);
    store_close(rd, NULL);
    remove_store_files(path);
}

static uint64_t events_seen(struct dcb_store *st)
{
    struct store_info info;
    assert_int_equal(store_info(st, &info, NULL), 0);
    return info.events;
}

static void put_link_down(struct dcb_store *st, int64_t ts)
{
    struct dcb_event e;
    dcb_event_set(&e, ts, EVENT_COUNTER_RESET, "h1", "eth0", -1, NULL);
    assert_int_equal(store_put_event(st, &e, NULL), 0);
    assert_true(store_flush(st, NULL) >= 0);
}

/* A reader's snapshot does not see what a writer commits meanwhile; after it, the reader does. */
static void snapshot_isolates_reads(void **state)
{
    (void)state;
    char path[] = "/tmp/dcbkit-store-snapshot-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    struct dcb_store *st, *rd;
    struct store_options opt = { .path = path }, ro = { .path = path, .readonly = true };
    assert_int_equal(store_open_sqlite(&st, &opt, NULL), 0);
    put_link_down(st, 1000);
    assert_int_equal(store_open_sqlite(&rd, &ro, NULL), 0);
    assert_int_equal(store_snapshot_begin(rd, NULL), 0);
    assert_int_equal(store_snapshot_begin(rd, NULL), 0); /* nested: the same snapshot */
    put_link_down(st, 2000);
    assert_int_equal(events_seen(rd), 1);
    store_snapshot_end(rd);
    assert_int_equal(events_seen(rd), 2);
    store_close(rd, NULL);
    assert_int_equal(store_close(st, NULL), 0);
    remove_store_files(path);
}

static void schema_guards(void **state)
{
    (void)state;
    char path[] = "/tmp/dcbkit-store-test-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    struct dcb_store *st;
    struct store_options opt = { .path = path };
    struct dcb_err err;
    /* an empty file becomes a store; reopening it works */
    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    put_counter(st, 1, "eth0", 3, 1);
    assert_int_equal(store_close(st, &err), 0);
    opt.readonly = true;
    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    assert_int_equal(store_put_sample(st, &(struct dcb_sample){ .metric = METRIC_PFC_RX_PAUSE },
                                      &err),
                     DCB_E_PERM);
    store_close(st, NULL);
    /* a file that is not SQLite */
    FILE *fp = fopen(path, "w");
    fputs("this is not a database, it is a shopping list. eggs. milk. more eggs.............", fp);
    fclose(fp);
    opt.readonly = false;
    assert_int_not_equal(store_open_sqlite(&st, &opt, &err), 0);
    assert_non_null(strstr(err.msg, "not a readable dcbkit store"));
    unlink(path);
    char wal[64];
    snprintf(wal, sizeof(wal), "%s-wal", path);
    unlink(wal);
    snprintf(wal, sizeof(wal), "%s-shm", path);
    unlink(wal);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ring_backend),
        cmocka_unit_test(ring_overwrites_oldest),
        cmocka_unit_test(sqlite_backend),
        cmocka_unit_test(delta_over_wrap_and_reset),
        cmocka_unit_test(batches_flush_by_count),
        cmocka_unit_test(out_of_order_batch),
        cmocka_unit_test(events_only_batch),
        cmocka_unit_test(aggregates),
        cmocka_unit_test(schema_guards),
        cmocka_unit_test(widths_ring),
        cmocka_unit_test(ring_range_runs),
        cmocka_unit_test(widths_sqlite),
        cmocka_unit_test(snapshot_isolates_reads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
