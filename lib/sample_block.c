/* Packed sample blocks (see sample_block.h for the bytes). */
#include "sample_block.h"

#include <math.h>
#include <string.h>

#define KIND_COUNTER 0
#define KIND_GAUGE_INT 1
#define KIND_GAUGE_BITS 2
#define HEAD_ESCAPE 3
#define GAUGE_INT_LIMIT 9007199254740992.0 /* 2^53 */

uint64_t sample_block_zigzag(uint64_t d)
{
    return (d << 1) ^ (uint64_t) - (int64_t)(d >> 63);
}

uint64_t sample_block_unzigzag(uint64_t z)
{
    return (z >> 1) ^ (uint64_t) - (int64_t)(z & 1);
}

size_t sample_block_varint_put(uint8_t *out, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        out[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    return n;
}

static size_t put_le64(uint8_t *out, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(v >> (8 * i));
    return 8;
}

/* 1 for a gauge that round-trips through an int64 below 2^53 (not -0.0, not NaN) */
static bool gauge_is_small_int(double d, int64_t *out)
{
    if (!(d > -GAUGE_INT_LIMIT && d < GAUGE_INT_LIMIT) || d != floor(d) || (d == 0 && signbit(d)))
        return false;
    *out = (int64_t)d;
    return true;
}

size_t sample_block_encode(const struct stored_sample *v, size_t n, uint8_t *out)
{
    size_t len = 0;
    int64_t ts = n ? v[0].ts : 0;
    uint64_t step = 0, prev = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t new_step = (uint64_t)v[i].ts - (uint64_t)ts;
        uint64_t dod = sample_block_zigzag(new_step - step);
        int64_t gi = 0;
        double g = 0;
        unsigned kind = KIND_COUNTER;
        if (v[i].kind != STORED_COUNTER) {
            memcpy(&g, &v[i].raw, sizeof(g));
            kind = gauge_is_small_int(g, &gi) ? KIND_GAUGE_INT : KIND_GAUGE_BITS;
        }
        if (dod < (1ULL << 62)) {
            len += sample_block_varint_put(out + len, dod << 2 | kind);
        } else {
            len += sample_block_varint_put(out + len, HEAD_ESCAPE);
            len += put_le64(out + len, (uint64_t)v[i].ts);
            len += sample_block_varint_put(out + len, kind);
        }
        step = new_step;
        ts = v[i].ts;
        if (kind == KIND_COUNTER) {
            len += sample_block_varint_put(out + len, sample_block_zigzag(v[i].raw - prev));
            prev = v[i].raw;
        } else if (kind == KIND_GAUGE_INT) {
            len += sample_block_varint_put(out + len, sample_block_zigzag((uint64_t)gi - prev));
            prev = (uint64_t)gi;
        } else {
            len += put_le64(out + len, v[i].raw);
        }
    }
    return len;
}

void sample_block_reader_init(struct sample_block_reader *r, int64_t t0, const void *data,
                              size_t len, size_t n)
{
    rd_init(&r->rd, data, len);
    r->ts = t0;
    r->step = 0;
    r->prev = 0;
    r->left = n;
    r->bad = false;
}

uint64_t sample_block_varint_get(struct dcb_reader *rd)
{
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        uint8_t b = rd_u8(rd);
        if (!rd_ok(rd))
            return 0;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return shift == 63 && b > 1 ? (rd_fail(rd, 0), 0) : v;
    }
    rd_fail(rd, 0); /* more than 10 bytes */
    return 0;
}

static bool fail(struct sample_block_reader *r)
{
    r->bad = true;
    r->left = 0;
    return false;
}

bool sample_block_next(struct sample_block_reader *r, struct stored_sample *out)
{
    if (!r->left) {
        if (!r->bad && rd_remaining(&r->rd) != 0)
            fail(r); /* bytes after the last sample */
        return false;
    }
    bool first = r->rd.off == 0;
    uint64_t head = sample_block_varint_get(&r->rd);
    unsigned kind;
    int64_t ts;
    if (head == HEAD_ESCAPE) {
        ts = (int64_t)rd_le64(&r->rd);
        uint64_t k = sample_block_varint_get(&r->rd);
        if (k > KIND_GAUGE_BITS)
            return fail(r);
        kind = (unsigned)k;
        if (first ? ts != r->ts : ts <= r->ts)
            return fail(r);
        r->step = (uint64_t)ts - (uint64_t)r->ts;
    } else {
        kind = (unsigned)(head & 3);
        if (kind > KIND_GAUGE_BITS)
            return fail(r);
        uint64_t step = r->step + sample_block_unzigzag(head >> 2);
        /* room to INT64_MAX, as an unsigned difference (exact for any ts) */
        uint64_t room = (uint64_t)INT64_MAX - (uint64_t)r->ts;
        if (first ? step != 0 : (step == 0 || step > room))
            return fail(r);
        ts = (int64_t)((uint64_t)r->ts + step);
        r->step = step;
    }
    out->ts = r->ts = ts;
    if (kind == KIND_COUNTER) {
        out->kind = STORED_COUNTER;
        out->raw = r->prev + sample_block_unzigzag(sample_block_varint_get(&r->rd));
        r->prev = out->raw;
    } else if (kind == KIND_GAUGE_INT) {
        r->prev += sample_block_unzigzag(sample_block_varint_get(&r->rd));
        double g = (double)(int64_t)r->prev;
        out->kind = STORED_GAUGE;
        memcpy(&out->raw, &g, sizeof(g));
    } else {
        out->kind = STORED_GAUGE;
        out->raw = rd_le64(&r->rd);
    }
    if (!rd_ok(&r->rd))
        return fail(r);
    r->left--;
    return true;
}
