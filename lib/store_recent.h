/* The SQLite store's recent tier (schema 3): each flush is one batch (a row of recent_batches:
 * its id, time span and samples) whose samples are chunks in recent_chunks, keyed (batch,
 * series0), each a run of series (sample_chunk.h). Batch ids only grow, so every flush writes
 * at the table's right edge, and any one series' samples are in time order batch by batch:
 * only samples newer than everything stored for their series come here. A merge
 * (store_recent_tier_merge) moves the oldest batches into the main tier's blocks. Internal to
 * store_sqlite.c; returns SQLite codes as store_blocks.h does. */
#ifndef DCB_STORE_RECENT_H
#define DCB_STORE_RECENT_H

#include <sqlite3.h>
#include <stdint.h>

#include "sample_chunk.h"
#include "store_blocks.h"

struct recent_tier {
    sqlite3 *db;
    sqlite3_stmt *ins_batch, *ins_chunk, *del_chunk, *sel_series, *sel_holder;
    struct chunk_writer w;
    int64_t batch;         /* the batch being written */
    struct sample_run all; /* a chunk decoded whole (rewrites) */
    int64_t *group_series; /* and where each of its series starts in all */
    size_t *group_start;
    size_t groups_cap;
    char why[160];
};

void store_recent_tier_init(struct recent_tier *r, sqlite3 *db);
void store_recent_tier_free(struct recent_tier *r);

/* One batch: begin, then each series' samples in increasing series order, then end. */
int store_recent_batch_begin(struct recent_tier *r, int64_t ts_min, int64_t ts_max,
                             int64_t samples);
int store_recent_batch_add(struct recent_tier *r, int64_t series, const struct stored_sample *v,
                           size_t n);
int store_recent_batch_end(struct recent_tier *r);

/* Removes the series' samples at these times (sorted), from every batch they may be in. */
int store_recent_tier_remove(struct recent_tier *r, int64_t series, const int64_t *ts, size_t n);

/* Moves the oldest batches (up to a bound) into t, by series, and deletes them. */
int store_recent_tier_merge(struct recent_tier *r, struct block_tier *t, int64_t *moved);

int store_recent_tier_prune(struct recent_tier *r, int64_t cutoff, int64_t *deleted);

/* Schema 2 -> 3: the rows of samples_recent into chunks (its batches stay). */
int store_recent_tier_convert_rows(struct recent_tier *r);

/* The recent samples with t0 <= time <= t1 of the series whose ids are set in want (a bitmap
 * of want_ids bits), read batch by batch: one pass over the window's chunks instead of a lookup
 * per series per batch. Series id's samples, in time order, are v[start[id]..start[id + 1])
 * for id < want_ids. SQLITE_TOOBIG, with nothing gathered, when the window's batches hold more
 * than max_samples (the caller reads series by series instead). */
struct recent_gather {
    struct stored_sample *v;
    size_t n;
    uint32_t *start; /* want_ids + 1 entries */
};

int store_recent_tier_gather(struct recent_tier *r, const uint8_t *want, int64_t want_ids,
                             int64_t t0, int64_t t1, int64_t max_samples, struct recent_gather *g);
void store_recent_gather_free(struct recent_gather *g);

/* One series' recent samples with t0 <= time <= t1, in time order (nested cursors as in
 * store_blocks.h). */
struct recent_cursor {
    struct recent_tier *r;
    struct store_window w;
    struct chunk_reader cr;
    bool in_series;
};

int store_recent_cursor_open(struct recent_cursor *c, struct recent_tier *r, int64_t series,
                             int64_t t0, int64_t t1);
bool store_recent_cursor_next(struct recent_cursor *c, struct stored_sample *out);
void store_recent_cursor_close(struct recent_cursor *c);

#endif
