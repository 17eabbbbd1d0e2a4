/* The capture source in its two modes, on a capture written here: five PFC XOFF frames on
 * priority 3 at capture times T0 + 0, 100, 200, 300 and 1000 ms. The capture.pfc_frames{prio=3}
 * counter the source gives after each tick says how many frames it has given.
 *   fast: one tick gives all five (0 at T0, 5 at T0 + 1 s, the capture's own times) and ends;
 *         over a capture of minutes, the counters also every minute of capture time;
 *   paced: the first frame lands on the first tick (wall time W), and a tick at W + d gives
 *          the frames up to T0 + d * speed, stamped W + (t - T0); the end after the last.
 * A truncated capture is one error, not a crash, after the frames before the break. The per-QP
 * series go to the flows with something to judge, numbered in the order they get it. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "source.h"
#include "source_pcap_qps.h"

#define MS 1000000LL
#define SEC_NS 1000000000LL
#define T0 (1700000000LL * 1000000000LL)
#define W (1800000000LL * 1000000000LL)

static const int64_t short_ms[] = { 0, 100, 200, 300, 1000 };
#define NFRAMES (sizeof(short_ms) / sizeof(short_ms[0]))
static const int64_t *frame_ms = short_ms;
static size_t nframes = NFRAMES;

struct seen {
    uint64_t pfc3; /* the last capture.pfc_frames{prio=3} */
    int64_t pfc3_ns;
    uint64_t pfc3_mid; /* the one before it */
    int64_t pfc3_mid_ns;
    unsigned pfc3_samples;
    unsigned configs;
};

static void on_sample(void *arg, const struct dcb_sample *s, unsigned width_bits)
{
    (void)width_bits;
    struct seen *k = arg;
    if (s->metric == METRIC_CAPTURE_PFC_FRAMES && s->prio == 3) {
        k->pfc3_mid = k->pfc3;
        k->pfc3_mid_ns = k->pfc3_ns;
        k->pfc3 = s->value.counter;
        k->pfc3_ns = s->time_ns;
        k->pfc3_samples++;
    }
}

static void on_event(void *arg, const struct dcb_event *e)
{
    (void)arg;
    (void)e;
}

static void on_config(void *arg, const struct store_config_row *c)
{
    struct seen *k = arg;
    k->configs++;
    assert_string_equal(c->device, "capture.pcap");
}

static void put32(FILE *fp, uint32_t v)
{
    fwrite(&v, 4, 1, fp);
}

/* A nanosecond pcap of the PFC frames; cut bytes off the end when cut > 0. */
static void write_capture(const char *path, size_t cut)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    put32(fp, 0xa1b23c4d); /* nanosecond magic */
    uint16_t version[2] = { 2, 4 };
    fwrite(version, 2, 2, fp);
    put32(fp, 0);
    put32(fp, 0);
    put32(fp, 65535);
    put32(fp, 1); /* Ethernet */
    for (size_t i = 0; i < nframes; i++) {
        uint8_t f[60] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01, 0x02, 0,    0,
                          0,    0,    1,    0x88, 0x08, 0x01, 0x01, 0x00, 0x08 };
        f[18 + 2 * 3] = 0x03; /* prio 3: 1000 quanta */
        f[18 + 2 * 3 + 1] = 0xe8;
        int64_t ts = T0 + frame_ms[i] * MS;
        put32(fp, (uint32_t)(ts / 1000000000LL));
        put32(fp, (uint32_t)(ts % 1000000000LL));
        put32(fp, sizeof(f));
        put32(fp, sizeof(f));
        fwrite(f, 1, sizeof(f), fp);
    }
    long size = ftell(fp);
    fclose(fp);
    if (cut)
        assert_int_equal(truncate(path, size - (long)cut), 0);
}

struct fixture {
    char dir[64], path[128];
    struct seen k;
    struct dcb_source src;
};

static int open_source(struct fixture *fx, bool fast, double speed, size_t cut)
{
    snprintf(fx->dir, sizeof(fx->dir), "/tmp/test_source_pcap.XXXXXX");
    assert_non_null(mkdtemp(fx->dir));
    snprintf(fx->path, sizeof(fx->path), "%s/capture.pcap", fx->dir);
    write_capture(fx->path, cut);
    memset(&fx->k, 0, sizeof(fx->k));
    memset(&fx->src, 0, sizeof(fx->src));
    fx->src.sink = (struct dcb_sink){ on_sample, on_event, on_config, NULL, NULL, &fx->k };
    struct source_pcap_options o = { .path = fx->path,
                                     .link_bps = 100000000000ULL,
                                     .lossless_mask = 0x08,
                                     .speed = speed,
                                     .fast = fast };
    struct dcb_err err;
    return dcb_source_pcap_open(&fx->src, &o, &err);
}

static void close_source(struct fixture *fx)
{
    dcb_source_close(&fx->src);
    unlink(fx->path);
    rmdir(fx->dir);
}

static void test_fast(void **state)
{
    (void)state;
    struct fixture fx = { 0 };
    assert_int_equal(open_source(&fx, true, 0, 0), 0);
    assert_true(fx.src.finite);
    int64_t data_ns;
    struct dcb_err err;
    assert_int_equal(dcb_source_tick(&fx.src, W, &data_ns, &err), DCB_SOURCE_END);
    assert_int_equal(data_ns, T0 + 1000 * MS); /* the last frame, unshifted */
    assert_int_equal(fx.k.pfc3, NFRAMES);
    assert_int_equal(fx.k.pfc3_ns, T0 + 1000 * MS);
    assert_int_equal(fx.k.pfc3_samples, 2); /* 0 at the first frame, 5 at the last */
    assert_int_equal(fx.k.configs, 1);      /* the capture's own port */
    assert_int_equal(dcb_source_tick(&fx.src, W + MS, &data_ns, &err), DCB_SOURCE_END);
    assert_int_equal(fx.k.pfc3_samples, 2); /* nothing more after the end */
    close_source(&fx);
}

/* Ticks at W + d ms give the frames up to T0 + d * speed ms. */
static void check_paced(double speed, const int64_t *tick_ms, const uint64_t *want, size_t nticks)
{
    struct fixture fx = { 0 };
    assert_int_equal(open_source(&fx, false, speed, 0), 0);
    struct dcb_err err;
    for (size_t i = 0; i < nticks; i++) {
        int64_t data_ns;
        int rc = dcb_source_tick(&fx.src, W + tick_ms[i] * MS, &data_ns, &err);
        assert_int_equal(fx.k.pfc3, want[i]);
        if (want[i] < NFRAMES) {
            assert_int_equal(rc, 0);
            int64_t reached = (int64_t)((double)tick_ms[i] * speed) * MS;
            assert_int_equal(data_ns, W + reached);
            assert_int_equal(fx.k.pfc3_ns, W + reached);
        } else {
            assert_int_equal(rc, DCB_SOURCE_END);
            assert_int_equal(data_ns, W + 1000 * MS); /* the last frame, shifted */
            assert_int_equal(fx.k.pfc3_ns, W + 1000 * MS);
        }
    }
    close_source(&fx);
}

static void test_paced(void **state)
{
    (void)state;
    static const int64_t ticks[] = { 0, 150, 299, 300, 999, 2000 };
    static const uint64_t want[] = { 1, 2, 3, 4, 4, 5 };
    check_paced(1, ticks, want, 6);
}

static void test_paced_faster(void **state)
{
    (void)state;
    static const int64_t ticks[] = { 0, 100, 149, 500 };
    static const uint64_t want[] = { 1, 3, 3, 5 };
    check_paced(2, ticks, want, 4);
}

static void test_truncated(void **state)
{
    (void)state;
    struct fixture fx = { 0 };
    assert_int_equal(open_source(&fx, true, 0, 30), 0); /* the first frame is whole */
    int64_t data_ns;
    struct dcb_err err;
    int rc = dcb_source_tick(&fx.src, W, &data_ns, &err);
    assert_true(rc < 0);
    assert_non_null(strstr(err.msg, fx.path));
    assert_null(strchr(err.msg, '\n'));
    assert_int_equal(fx.k.pfc3, NFRAMES - 1); /* the four whole frames were given */
    assert_int_equal(data_ns, T0 + 300 * MS);
    close_source(&fx);
}

/* Frames at 0, 70 s and 140 s: the counters at the first frame (0), at 70 s (2: given when the
 * frame at 140 s comes) and at the end (3). */
static void test_fast_minutes(void **state)
{
    (void)state;
    static const int64_t long_ms[] = { 0, 70000, 140000 };
    frame_ms = long_ms;
    nframes = 3;
    struct fixture fx = { 0 };
    assert_int_equal(open_source(&fx, true, 0, 0), 0);
    int64_t data_ns;
    struct dcb_err err;
    assert_int_equal(dcb_source_tick(&fx.src, W, &data_ns, &err), DCB_SOURCE_END);
    assert_int_equal(fx.k.pfc3_samples, 3);
    assert_int_equal(fx.k.pfc3, 3);
    assert_int_equal(fx.k.pfc3_ns, T0 + 140000 * MS);
    assert_int_equal(fx.k.pfc3_mid, 2);
    assert_int_equal(fx.k.pfc3_mid_ns, T0 + 70000 * MS);
    close_source(&fx);
    frame_ms = short_ms;
    nframes = NFRAMES;
}

struct qp_seen {
    int n;
    struct dcb_sample s[64];
};

static void keep_sample(void *arg, const struct dcb_sample *s, unsigned width_bits)
{
    (void)width_bits;
    struct qp_seen *k = arg;
    if (k->n < 64)
        k->s[k->n++] = *s;
}

static const struct dcb_sample *qp_sample(const struct qp_seen *k, enum metric_id m, int qp,
                                          int64_t t)
{
    for (int i = 0; i < k->n; i++)
        if (k->s[i].metric == m && k->s[i].queue == qp && k->s[i].time_ns == t)
            return &k->s[i];
    return NULL;
}

/* Three flows: the first clean, the second CE-marked, the third carrying CNPs (DSCP 46 and 48,
 * PCP 6 and untagged). The second and third get QPs 0 and 1, each with its zeros at the first
 * frame; the CNPs' DSCPs and PCP as gauges; with room for one QP only, the other is counted. */
static void test_qp_series(void **state)
{
    (void)state;
    struct qp_flow flows[4];
    memset(flows, 0, sizeof(flows));
    flows[1].ecn[3] = 4;
    flows[2].cnps = 2;
    flows[2].cnp_dscp_seen = 1ull << 46 | 1ull << 48;
    flows[2].cnp_pcp_seen = 1u << 6 | 1u << 8;
    flows[3].dscp_seen = 1ull << 0 | 1ull << 26; /* RoCE in the default class too */
    struct qp_tracker t = { .flows = flows, .nflows = 4 };
    static struct qp_seen k;
    memset(&k, 0, sizeof(k));
    struct dcb_sink sink = { keep_sample, on_event, on_config, NULL, NULL, &k };
    static struct pcap_qps p;
    memset(&p, 0, sizeof(p));
    pcap_qps_put(&p, &t, &sink, "cap", T0 + SEC_NS, T0, 0);
    assert_int_equal(p.n, 3);
    assert_int_equal(pcap_qps_label(&p, 3), 2);
    assert_true(qp_sample(&k, METRIC_CAPTURE_QP_DSCP_MIN, 2, T0 + SEC_NS)->value.gauge == 0);
    assert_null(qp_sample(&k, METRIC_CAPTURE_QP_DSCP_MIN, 2, T0)); /* no gauge among the zeros */
    assert_int_equal(pcap_qps_label(&p, 0), -1);
    assert_int_equal(pcap_qps_label(&p, 1), 0);
    assert_int_equal(pcap_qps_flow(&p, 1), 2);
    assert_int_equal(qp_sample(&k, METRIC_CAPTURE_QP_CE_PACKETS, 0, T0)->value.counter, 0);
    assert_int_equal(qp_sample(&k, METRIC_CAPTURE_QP_CE_PACKETS, 0, T0 + SEC_NS)->value.counter, 4);
    assert_int_equal(qp_sample(&k, METRIC_CAPTURE_QP_CNP_PACKETS, 1, T0 + SEC_NS)->value.counter,
                     2);
    assert_true(qp_sample(&k, METRIC_CAPTURE_QP_CNP_DSCP_MIN, 1, T0 + SEC_NS)->value.gauge == 46);
    assert_true(qp_sample(&k, METRIC_CAPTURE_QP_CNP_DSCP_MAX, 1, T0 + SEC_NS)->value.gauge == 48);
    assert_true(qp_sample(&k, METRIC_CAPTURE_QP_CNP_PCP_MAX, 1, T0 + SEC_NS)->value.gauge == 6);
    assert_null(qp_sample(&k, METRIC_CAPTURE_QP_CNP_DSCP_MIN, 0, T0 + SEC_NS));
    int before = k.n;
    pcap_qps_put(&p, &t, &sink, "cap", T0 + 2 * SEC_NS, T0, 0);
    assert_int_equal(k.n - before, 6 + 6 + 4 + 6 + 1); /* no zeros again: counters, gauges */
    pcap_qps_free(&p);
}

static void test_missing(void **state)
{
    (void)state;
    struct dcb_source src = { 0 };
    struct source_pcap_options o = { .path = "/nonexistent/x.pcap", .fast = true };
    struct dcb_err err;
    assert_true(dcb_source_pcap_open(&src, &o, &err) < 0);
    assert_null(src.ops);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast),         cmocka_unit_test(test_paced),
        cmocka_unit_test(test_paced_faster), cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_fast_minutes), cmocka_unit_test(test_qp_series),
        cmocka_unit_test(test_missing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
