/* Packed sample blocks: how the SQLite store's main tier keeps a run of one series' samples in
 * one row (schema 3). One row per sample cost about a microsecond of SQLite work each time a
 * sample was written or moved; a block of up to SAMPLE_BLOCK_MAX costs about the same as one
 * row, and a read decodes it at memory speed.
 *
 * The bytes (a block's time t0 is its first sample's, kept in the row's key):
 *   per sample, a varint head, then the value.
 *     head = zigzag(dod) << 2 | kind, where dod is this sample's time step minus the previous
 *     step (the step before the first sample is 0, from t0: the first dod is 0);
 *     head = 3 (an escape, for a step no varint head can carry) is followed by the time as 8
 *     bytes little-endian, then a varint kind, then the value.
 *   kind 0, a counter: varint zigzag(reading - prev) in 64-bit two's complement;
 *   kind 1, a gauge holding an integer below 2^53: varint zigzag(value - prev);
 *   kind 2, any other gauge: its 8 IEEE-754 bytes, little-endian.
 *   prev starts at 0 and is the last kind 0 or kind 1 value.
 * Varints are LEB128 (7 bits a byte, low first, at most 10 bytes). Times strictly increase. */
#ifndef DCB_SAMPLE_BLOCK_H
#define DCB_SAMPLE_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader.h"

/* ~1 KB for 1 s counters: a block stays within a 4 KB page's local payload for most series */
#define SAMPLE_BLOCK_MAX 128
/* the most bytes one sample can take: an escape (1 + 8 + 1) and a 10-byte varint */
#define SAMPLE_BLOCK_BYTES_MAX 20

enum stored_kind { STORED_COUNTER = 0, STORED_GAUGE = 1 };

/* A sample as the store keeps it: a counter's raw reading, or a gauge's bits. */
struct stored_sample {
    int64_t ts;
    uint64_t raw;
    uint8_t kind; /* enum stored_kind */
};

/* The varints and zigzag of the bytes above, for sample_chunk.c too. sample_block_varint_get fails
 * the reader on a varint that runs past it or past 64 bits. */
size_t sample_block_varint_put(uint8_t *out, uint64_t v);
uint64_t sample_block_varint_get(struct dcb_reader *rd);
uint64_t sample_block_zigzag(uint64_t d); /* d: a two's complement difference */
uint64_t sample_block_unzigzag(uint64_t z);

/* Encodes n samples (times strictly increasing) into out, which holds at least
 * n * SAMPLE_BLOCK_BYTES_MAX bytes; returns the length. The block's t0 is v[0].ts. */
size_t sample_block_encode(const struct stored_sample *v, size_t n, uint8_t *out);

struct sample_block_reader {
    struct dcb_reader rd;
    int64_t ts;
    uint64_t step;
    uint64_t prev;
    size_t left;
    bool bad; /* malformed: too short, too long, time not increasing */
};

void sample_block_reader_init(struct sample_block_reader *r, int64_t t0, const void *data,
                              size_t len, size_t n);
/* The next sample; false at the end of the block or on malformed bytes (then r->bad). A block
 * that decodes to its n samples with bytes left over is malformed too. */
bool sample_block_next(struct sample_block_reader *r, struct stored_sample *out);

#endif
