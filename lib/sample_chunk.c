/* Recent-tier chunks (see sample_chunk.h for the bytes). */
#include "sample_chunk.h"

#include <stdlib.h>
#include <string.h>

void sample_chunk_writer_init(struct chunk_writer *w)
{
    memset(w, 0, sizeof(*w));
    w->empty = true;
}

void sample_chunk_writer_free(struct chunk_writer *w)
{
    free(w->buf);
    sample_chunk_writer_init(w);
}

void sample_chunk_writer_reset(struct chunk_writer *w)
{
    w->len = 0;
    w->samples = 0;
    w->empty = true;
}

bool sample_chunk_writer_add(struct chunk_writer *w, int64_t series, const struct stored_sample *v,
                             size_t n)
{
    size_t need = w->len + 4 * 10 + n * SAMPLE_BLOCK_BYTES_MAX;
    if (need > w->cap) {
        size_t cap = w->cap ? w->cap : 4096;
        while (cap < need)
            cap *= 2;
        uint8_t *buf = realloc(w->buf, cap);
        if (!buf)
            return false;
        w->buf = buf;
        w->cap = cap;
    }
    if (w->empty) {
        w->series0 = w->last_series = series;
        w->last_t0 = 0;
        w->empty = false;
    }
    /* the block goes after its length: encode it at the most room a head can take, then
     * move it down behind the real head */
    uint8_t head[40];
    size_t hl = sample_block_varint_put(head, (uint64_t)(series - w->last_series));
    hl += sample_block_varint_put(head + hl, n);
    uint64_t dt0 = (uint64_t)v[0].ts - (uint64_t)w->last_t0;
    hl += sample_block_varint_put(head + hl, sample_block_zigzag(dt0));
    size_t block_at = w->len + sizeof(head);
    size_t blen = sample_block_encode(v, n, w->buf + block_at);
    hl += sample_block_varint_put(head + hl, blen);
    memcpy(w->buf + w->len, head, hl);
    memmove(w->buf + w->len + hl, w->buf + block_at, blen);
    w->len += hl + blen;
    w->last_series = series;
    w->last_t0 = v[0].ts;
    w->samples += n;
    return true;
}

void sample_chunk_reader_init(struct chunk_reader *r, int64_t series0, const void *data, size_t len)
{
    memset(r, 0, sizeof(*r));
    rd_init(&r->rd, data, len);
    r->series = series0;
}

static bool chunk_bad(struct chunk_reader *r)
{
    r->bad = true;
    r->n = 0;
    return false;
}

bool sample_chunk_next_series(struct chunk_reader *r)
{
    if (r->bad || rd_remaining(&r->rd) == 0)
        return false;
    uint64_t dseries = sample_block_varint_get(&r->rd);
    uint64_t n = sample_block_varint_get(&r->rd);
    uint64_t zt0 = sample_block_varint_get(&r->rd);
    uint64_t blen = sample_block_varint_get(&r->rd);
    if (!rd_ok(&r->rd) || n == 0 || n > rd_remaining(&r->rd) || (r->started != (dseries != 0)) ||
        dseries > (uint64_t)INT64_MAX - (uint64_t)r->series)
        return chunk_bad(r);
    const uint8_t *block = rd_bytes(&r->rd, blen);
    if (!block)
        return chunk_bad(r);
    r->series = (int64_t)((uint64_t)r->series + dseries);
    r->t0 = (int64_t)((uint64_t)r->t0 + sample_block_unzigzag(zt0));
    r->n = (size_t)n;
    r->started = true;
    sample_block_reader_init(&r->block, r->t0, block, blen, r->n);
    return true;
}

bool sample_chunk_next_sample(struct chunk_reader *r, struct stored_sample *out)
{
    if (!r->started || r->bad)
        return false;
    if (sample_block_next(&r->block, out))
        return true;
    if (r->block.bad)
        r->bad = true;
    return false;
}
