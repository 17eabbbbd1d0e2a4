/* libFuzzer: a packed sample block and a recent-tier chunk as the store reads them back from a
 * database file (which a user can hand over from anywhere). Input: t0 (8 bytes little-endian),
 * n (1 byte), then the bytes, read as a block of n samples from t0 and as a chunk from series
 * t0. Whatever decodes must have strictly increasing times (a block's from t0) and series, and
 * a block must survive a round trip through the encoder sample for sample. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sample_block.h"
#include "sample_chunk.h"

static void chunk(int64_t series0, const uint8_t *data, size_t size)
{
    struct chunk_reader r;
    sample_chunk_reader_init(&r, series0, data, size);
    int64_t last_series = 0;
    bool first = true;
    while (sample_chunk_next_series(&r)) {
        if ((first && r.series != series0) || (!first && r.series <= last_series) || r.n == 0)
            abort();
        first = false;
        last_series = r.series;
        struct stored_sample s;
        int64_t last_ts = 0;
        size_t got = 0;
        while (sample_chunk_next_sample(&r, &s)) {
            if ((got && s.ts <= last_ts) || ++got > r.n)
                abort();
            last_ts = s.ts;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 9)
        return 0;
    int64_t t0 = 0;
    for (int i = 0; i < 8; i++)
        t0 |= (int64_t)((uint64_t)data[i] << (8 * i));
    chunk(t0, data + 9, size - 9);
    size_t n = data[8] % SAMPLE_BLOCK_MAX + 1;
    struct stored_sample v[SAMPLE_BLOCK_MAX], w;
    struct sample_block_reader r;
    sample_block_reader_init(&r, t0, data + 9, size - 9, n);
    size_t got = 0;
    while (sample_block_next(&r, &v[got])) {
        if ((got == 0 && v[0].ts != t0) || (got > 0 && v[got].ts <= v[got - 1].ts))
            abort();
        if (++got > n)
            abort();
    }
    if (r.bad)
        return 0;
    if (got != n)
        abort();
    uint8_t buf[SAMPLE_BLOCK_MAX * SAMPLE_BLOCK_BYTES_MAX];
    size_t len = sample_block_encode(v, n, buf);
    sample_block_reader_init(&r, t0, buf, len, n);
    for (size_t i = 0; i < n; i++)
        if (!sample_block_next(&r, &w) || w.ts != v[i].ts || w.raw != v[i].raw ||
            w.kind != v[i].kind)
            abort();
    if (sample_block_next(&r, &w) || r.bad)
        abort();
    return 0;
}
