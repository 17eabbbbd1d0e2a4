/* Recent-tier chunks: how the SQLite store keeps one flush's samples (schema 3). A flush of
 * 96,000 series, one sample each, was 96,000 rows of about a microsecond of SQLite work each to
 * write and again to read back at the merge; as chunks it is a few hundred rows.
 *
 * A chunk holds the samples of a run of series of one batch, series in increasing order, each
 * once. Its bytes, per series:
 *   varint  series - the previous series (the first: 0, the chunk's series0 itself)
 *   varint  n, the series' samples in the chunk (at least 1)
 *   varint  zigzag(t0 - the previous series' t0) (the first: t0 - 0), t0 its first time
 *   varint  length of the block that follows
 *   a sample block (sample_block.h) of those n samples, from t0.
 * Varints as in sample_block.h. */
#ifndef DCB_SAMPLE_CHUNK_H
#define DCB_SAMPLE_CHUNK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader.h"
#include "sample_block.h"

/* a chunk closes once its bytes reach this: within a 4 KB page's local payload (~1 KB) */
#define SAMPLE_CHUNK_BYTES 900

struct chunk_writer {
    uint8_t *buf;
    size_t len, cap;
    int64_t series0, last_series, last_t0;
    size_t samples; /* in the chunk */
    bool empty;
};

void sample_chunk_writer_init(struct chunk_writer *w);
void sample_chunk_writer_free(struct chunk_writer *w);
void sample_chunk_writer_reset(struct chunk_writer *w);
/* Appends one series' samples (times strictly increasing; series above the last one added).
 * false when out of memory. */
bool sample_chunk_writer_add(struct chunk_writer *w, int64_t series, const struct stored_sample *v,
                             size_t n);

struct chunk_reader {
    struct dcb_reader rd;
    int64_t series, t0;
    size_t n; /* the current series' samples */
    struct sample_block_reader block;
    bool started, bad;
};

void sample_chunk_reader_init(struct chunk_reader *r, int64_t series0, const void *data,
                              size_t len);
/* Moves to the next series (skipping what is left of the current one): true with r->series
 * and r->n set; false at the end or on malformed bytes (then r->bad). */
bool sample_chunk_next_series(struct chunk_reader *r);
/* The current series' next sample; false at its end or on malformed bytes (then r->bad). */
bool sample_chunk_next_sample(struct chunk_reader *r, struct stored_sample *out);

#endif
