/* The SQLite store's main sample tier (schema 3): table sample_blocks, one row per run of up
 * to SAMPLE_BLOCK_MAX samples of one series, keyed (series, t0). A series' blocks never
 * overlap in time, so its blocks in t0 order are its samples in time order. Internal to
 * store_sqlite.c; functions return SQLITE_OK (or SQLITE_DONE where a walk ends) or an SQLite
 * error code, SQLITE_CORRUPT with why set for a block whose bytes do not decode. */
#ifndef DCB_STORE_BLOCKS_H
#define DCB_STORE_BLOCKS_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample_block.h"

struct sample_run {
    struct stored_sample *v;
    size_t n, cap;
};

struct block_tier {
    sqlite3 *db;
    sqlite3_stmt *sel_before, *sel_after, *ins, *upd, *del, *del_after, *sel_range;
    struct sample_run old, merged, run;
    uint8_t bytes[SAMPLE_BLOCK_MAX * SAMPLE_BLOCK_BYTES_MAX];
    char why[160];
};

void store_block_tier_init(struct block_tier *t, sqlite3 *db);
void store_block_tier_free(struct block_tier *t);

/* The sample of a row whose timestamp is column ts_col and whose value the next column: an
 * INTEGER value is a counter's reading, anything else a gauge. */
struct stored_sample store_sample_from_columns(sqlite3_stmt *st, int ts_col);

/* false when out of memory */
bool store_sample_run_push(struct sample_run *r, const struct stored_sample *s);

/* Steps st to its end, appending the first ncols columns of every row, as int64, to *out
 * (malloc'd, *n values; freed and NULL on an error); resets st. */
int store_stmt_collect_int64(sqlite3_stmt *st, int ncols, int64_t **out, size_t *n);

/* A cursor's statement for sql, bound (?1 series, ?2 t0, ?3 t1): *cached (prepared once), or
 * one of the cursor's own (*owned) when *cached is still walking for an enclosing read (a
 * read in another's callback). */
int store_window_stmt_open(sqlite3 *db, sqlite3_stmt **cached, const char *sql, int64_t series,
                           int64_t t0, int64_t t1, sqlite3_stmt **st, bool *owned);
void store_window_stmt_close(sqlite3_stmt *st, bool owned);

/* The rows of one series' window a cursor walks (both tiers' cursors). */
struct store_window {
    sqlite3_stmt *st;
    int64_t series, t0, t1;
    bool owned; /* st is the cursor's own, not the tier's */
    int rc;     /* SQLITE_ROW while samples may follow, else the end or error */
};

/* store_window_stmt_open into w; w->rc is SQLITE_ROW when it opened. */
int store_window_open(struct store_window *w, sqlite3 *db, sqlite3_stmt **cached, const char *sql,
                      int64_t series, int64_t t0, int64_t t1);
void store_window_close(struct store_window *w);

/* Stores one series' samples (times strictly increasing), replacing any stored sample at the
 * same time: appended to the series' newest block while it has room, else new blocks; a run
 * that overlaps stored blocks is merged with them and they are rewritten. */
int store_block_tier_put(struct block_tier *t, int64_t series, const struct stored_sample *v,
                         size_t n);

/* Deletes samples older than cutoff (whole blocks, and the front of blocks that straddle it);
 * *deleted counts samples. */
int store_block_tier_prune(struct block_tier *t, int64_t cutoff, int64_t *deleted);

/* Schema 2 -> 3: the rows of the old (series, ts) samples table into blocks. */
int store_block_tier_convert_rows(struct block_tier *t);

/* One series' stored samples with t0 <= time <= t1, in time order. The first cursor open
 * uses the tier's statement; one opened while it is busy (a read inside a read's callback)
 * prepares its own. */
struct block_cursor {
    struct block_tier *t;
    struct store_window w;
    struct sample_block_reader br;
    bool in_block;
};

int store_block_cursor_open(struct block_cursor *c, struct block_tier *t, int64_t series,
                            int64_t t0, int64_t t1);
/* false at the end (c->rc SQLITE_DONE) or on an error (c->rc the code) */
bool store_block_cursor_next(struct block_cursor *c, struct stored_sample *out);
void store_block_cursor_close(struct block_cursor *c);

#endif
