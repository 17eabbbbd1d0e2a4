/* The packed sample block and chunk codecs (lib/sample_block.h, lib/sample_chunk.h): round
 * trips of every kind of value and time step, bytes checked by hand, malformed bytes refused. */
#include "unit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sample_block.h"
#include "sample_chunk.h"

static struct stored_sample counter(int64_t ts, uint64_t raw)
{
    return (struct stored_sample){ .ts = ts, .raw = raw, .kind = STORED_COUNTER };
}

static struct stored_sample gauge(int64_t ts, double d)
{
    struct stored_sample s = { .ts = ts, .kind = STORED_GAUGE };
    memcpy(&s.raw, &d, sizeof(d));
    return s;
}

static void round_trip(const struct stored_sample *v, size_t n)
{
    uint8_t *buf = malloc(n * SAMPLE_BLOCK_BYTES_MAX + 1);
    assert_non_null(buf);
    size_t len = sample_block_encode(v, n, buf);
    assert_true(len <= n * SAMPLE_BLOCK_BYTES_MAX);
    struct sample_block_reader r;
    sample_block_reader_init(&r, v[0].ts, buf, len, n);
    struct stored_sample got;
    for (size_t i = 0; i < n; i++) {
        assert_true(sample_block_next(&r, &got));
        assert_true(got.ts == v[i].ts);
        assert_int_equal(got.kind, v[i].kind);
        assert_true(got.raw == v[i].raw); /* gauges bit for bit: -0.0, NaN payloads */
    }
    assert_false(sample_block_next(&r, &got));
    assert_false(r.bad);
    free(buf);
}

/* 1 s counters: the first sample is 2 bytes, the next ones dod 0 and a small delta. */
static void bytes_by_hand(void **state)
{
    (void)state;
    struct stored_sample v[] = { counter(5000000000, 100), counter(6000000000, 103),
                                 counter(7000000000, 106), gauge(7000000001, 2.0) };
    uint8_t buf[4 * SAMPLE_BLOCK_BYTES_MAX];
    size_t len = sample_block_encode(v, 4, buf);
    /* head 0 (dod 0, counter), value zigzag(100) = 200 = c8 01;
     * head zigzag(1e9) << 2 = 8e9 = 0x1dcd65000 -> 80 a0 d9 e6 1d, value zigzag(3) = 6;
     * head 0 (same step), value 6;
     * head zigzag(1 - 1e9) << 2 | 1 = (2e9 - 3) << 2 | 1 = 0x1dcd64ff5 -> f5 9f d9 e6 1d,
     * value zigzag(2 - 106) = 207 = cf 01 */
    const uint8_t want[] = { 0x00, 0xc8, 0x01, 0x80, 0xa0, 0xd9, 0xe6, 0x1d, 0x06,
                             0x00, 0x06, 0xf5, 0x9f, 0xd9, 0xe6, 0x1d, 0xcf, 0x01 };
    assert_int_equal(len, sizeof(want));
    assert_memory_equal(buf, want, sizeof(want));
    round_trip(v, 4);
}

static void every_kind_round_trips(void **state)
{
    (void)state;
    double nan_payload;
    uint64_t bits = 0x7ff8000000001234ULL;
    memcpy(&nan_payload, &bits, sizeof(bits));
    struct stored_sample v[] = {
        counter(INT64_MIN, 0),
        counter(INT64_MIN + 1, UINT64_MAX), /* a wrap */
        counter(-5, 1),
        gauge(0, -0.0),
        gauge(1, 0.5),
        gauge(2, 1e300),
        gauge(3, -9007199254740991.0), /* the largest integer kept as one */
        gauge(4, 9007199254740992.0),  /* 2^53: kept as bits */
        gauge(5, nan_payload),
        gauge(6, INFINITY),
        counter(INT64_MAX - 1, 1ULL << 63),
        counter(INT64_MAX, 7),
    };
    round_trip(v, sizeof(v) / sizeof(v[0]));
    struct stored_sample one = gauge(42, 3.25);
    round_trip(&one, 1);
}

static void random_runs_round_trip(void **state)
{
    (void)state;
    srand(7);
    struct stored_sample v[SAMPLE_BLOCK_MAX];
    for (int run = 0; run < 2000; run++) {
        int64_t ts = ((int64_t)rand() << 20) - ((int64_t)1 << 40);
        uint64_t c = (uint64_t)rand() << 33 | (uint64_t)rand();
        size_t n = 1 + (size_t)rand() % SAMPLE_BLOCK_MAX;
        for (size_t i = 0; i < n; i++) {
            int r = rand() % 5;
            int64_t step = r == 0   ? 1
                           : r == 1 ? 1000000000 + rand() % 2000 - 1000
                           : r == 2 ? (int64_t)rand() * 1000
                                    : 1000000000;
            ts += i ? step : 0;
            if (rand() % 3) {
                c += (uint64_t)(rand() % 1000);
                if (rand() % 50 == 0)
                    c = (uint64_t)rand(); /* a reset */
                v[i] = counter(ts, c);
            } else {
                double d = rand() % 2 ? (double)(rand() % 100000) : rand() / 7.0 - 1e6;
                v[i] = gauge(ts, d);
            }
        }
        round_trip(v, n);
    }
}

/* Every way a block can be wrong: cut short at each length, bytes left over, a count that
 * does not match, a time that does not increase, a time past INT64_MAX, a bad kind, a varint
 * too long. */
static void malformed_blocks_refused(void **state)
{
    (void)state;
    struct stored_sample v[] = { counter(1000, 1), counter(2000, 2), gauge(3000, 0.1) };
    uint8_t buf[3 * SAMPLE_BLOCK_BYTES_MAX + 1];
    size_t len = sample_block_encode(v, 3, buf);
    struct sample_block_reader r;
    struct stored_sample got;
    for (size_t cut = 0; cut < len; cut++) {
        sample_block_reader_init(&r, 1000, buf, cut, 3);
        while (sample_block_next(&r, &got))
            ;
        assert_true(r.bad);
    }
    buf[len] = 0;
    sample_block_reader_init(&r, 1000, buf, len + 1, 3); /* one byte left over */
    while (sample_block_next(&r, &got))
        ;
    assert_true(r.bad);
    sample_block_reader_init(&r, 1000, buf, len, 2); /* fewer than stored */
    while (sample_block_next(&r, &got))
        ;
    assert_true(r.bad);

    /* a step of 0 after the first sample: head 0 twice is two samples at one time */
    const uint8_t same_time[] = { 0x00, 0x02, 0x00, 0x02 };
    sample_block_reader_init(&r, 10, same_time, sizeof(same_time), 2);
    assert_true(sample_block_next(&r, &got));
    assert_false(sample_block_next(&r, &got));
    assert_true(r.bad);
    /* kind 3 in an escape */
    const uint8_t bad_kind[] = { 0x03, 10, 0, 0, 0, 0, 0, 0, 0, 0x03, 0x00 };
    sample_block_reader_init(&r, 10, bad_kind, sizeof(bad_kind), 1);
    assert_false(sample_block_next(&r, &got));
    assert_true(r.bad);
    /* a step that runs past INT64_MAX */
    struct stored_sample edge[] = { counter(INT64_MAX - 10, 0), counter(INT64_MAX - 5, 0) };
    len = sample_block_encode(edge, 2, buf);
    assert_int_equal(buf[2], 0x28); /* head: zigzag(5) << 2 */
    buf[2] = 0x50;                  /* a step of 10: INT64_MAX itself, still a time */
    sample_block_reader_init(&r, INT64_MAX - 10, buf, len, 2);
    assert_true(sample_block_next(&r, &got));
    assert_true(sample_block_next(&r, &got) && got.ts == INT64_MAX);
    buf[2] = 0x58; /* 11: one past the end of time */
    sample_block_reader_init(&r, INT64_MAX - 10, buf, len, 2);
    assert_true(sample_block_next(&r, &got));
    assert_false(sample_block_next(&r, &got));
    assert_true(r.bad);
    /* an 11-byte varint */
    const uint8_t long_varint[] = {
        0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01
    };
    sample_block_reader_init(&r, 0, long_varint, sizeof(long_varint), 1);
    assert_false(sample_block_next(&r, &got));
    assert_true(r.bad);
}

/* A chunk of series 10, 11 and 500 (one, three and one samples), read back whole, then with a
 * series skipped; its bytes by hand. */
static void chunk_round_trip(void **state)
{
    (void)state;
    struct chunk_writer w;
    sample_chunk_writer_init(&w);
    struct stored_sample a[] = { counter(1000, 5) };
    struct stored_sample b[] = { counter(1000, 7), counter(2000, 8), counter(3000, 9) };
    struct stored_sample c[] = { gauge(1500, 0.25) };
    assert_true(sample_chunk_writer_add(&w, 10, a, 1));
    assert_true(sample_chunk_writer_add(&w, 11, b, 3));
    assert_true(sample_chunk_writer_add(&w, 500, c, 1));
    assert_true(w.series0 == 10 && w.last_series == 500 && w.samples == 5);
    /* series 10: dseries 0, n 1, zigzag(1000) = 2000 = d0 0f, block length 2, block 00 0a */
    const uint8_t start[] = { 0x00, 0x01, 0xd0, 0x0f, 0x02, 0x00, 0x0a };
    assert_memory_equal(w.buf, start, sizeof(start));

    struct chunk_reader r;
    struct stored_sample got;
    sample_chunk_reader_init(&r, 10, w.buf, w.len);
    assert_true(sample_chunk_next_series(&r) && r.series == 10 && r.n == 1);
    assert_true(sample_chunk_next_sample(&r, &got) && got.ts == 1000 && got.raw == 5);
    assert_false(sample_chunk_next_sample(&r, &got));
    assert_true(sample_chunk_next_series(&r) && r.series == 11 && r.n == 3);
    for (int i = 0; i < 3; i++)
        assert_true(sample_chunk_next_sample(&r, &got) && got.ts == b[i].ts && got.raw == b[i].raw);
    assert_true(sample_chunk_next_series(&r) && r.series == 500);
    assert_true(sample_chunk_next_sample(&r, &got) && got.raw == c[0].raw &&
                got.kind == STORED_GAUGE);
    assert_false(sample_chunk_next_series(&r));
    assert_false(r.bad);

    sample_chunk_reader_init(&r, 10, w.buf, w.len); /* skipping series 10 and 11 unread */
    assert_true(sample_chunk_next_series(&r) && sample_chunk_next_series(&r) &&
                sample_chunk_next_series(&r));
    assert_true(r.series == 500 && sample_chunk_next_sample(&r, &got) && got.ts == 1500);

    for (size_t cut = 1; cut < w.len; cut++) { /* cut short anywhere: never a clean end */
        sample_chunk_reader_init(&r, 10, w.buf, cut);
        size_t samples = 0;
        while (sample_chunk_next_series(&r))
            while (sample_chunk_next_sample(&r, &got))
                samples++;
        assert_true(r.bad || samples < 5);
    }
    /* the same series twice is malformed */
    sample_chunk_writer_reset(&w);
    assert_true(sample_chunk_writer_add(&w, 10, a, 1));
    size_t one = w.len;
    memcpy(w.buf + one, w.buf, one);
    sample_chunk_reader_init(&r, 10, w.buf, 2 * one);
    assert_true(sample_chunk_next_series(&r));
    assert_false(sample_chunk_next_series(&r));
    assert_true(r.bad);
    sample_chunk_writer_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bytes_by_hand),          cmocka_unit_test(every_kind_round_trips),
        cmocka_unit_test(random_runs_round_trip), cmocka_unit_test(malformed_blocks_refused),
        cmocka_unit_test(chunk_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
