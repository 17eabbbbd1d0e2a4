/* The main sample tier: packed blocks in sample_blocks (see store_blocks.h, sample_block.h). */
#include "store_blocks.h"
#include "grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void store_block_tier_init(struct block_tier *t, sqlite3 *db)
{
    memset(t, 0, sizeof(*t));
    t->db = db;
}

void store_block_tier_free(struct block_tier *t)
{
    sqlite3_stmt *stmts[] = { t->sel_before, t->sel_after, t->ins,      t->upd,
                              t->del,        t->del_after, t->sel_range };
    for (size_t i = 0; i < sizeof(stmts) / sizeof(stmts[0]); i++)
        sqlite3_finalize(stmts[i]);
    free(t->old.v);
    free(t->merged.v);
    free(t->run.v);
    memset(t, 0, sizeof(*t));
}

bool store_sample_run_push(struct sample_run *r, const struct stored_sample *s)
{
    if (r->n == r->cap && dcb_grow(&r->v, &r->cap, sizeof(*r->v), SAMPLE_BLOCK_MAX) < 0)
        return false;
    r->v[r->n++] = *s;
    return true;
}

struct stored_sample store_sample_from_columns(sqlite3_stmt *st, int ts_col)
{
    struct stored_sample smp = { .ts = sqlite3_column_int64(st, ts_col) };
    int col = ts_col + 1;
    if (sqlite3_column_type(st, col) == SQLITE_INTEGER) {
        smp.kind = STORED_COUNTER;
        smp.raw = (uint64_t)sqlite3_column_int64(st, col);
    } else {
        double d = sqlite3_column_double(st, col);
        smp.kind = STORED_GAUGE;
        memcpy(&smp.raw, &d, sizeof(d));
    }
    return smp;
}

int store_stmt_collect_int64(sqlite3_stmt *st, int ncols, int64_t **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n + (size_t)ncols > cap) {
            cap = cap ? cap * 2 : 64;
            int64_t *grown = realloc(*out, cap * sizeof(*grown));
            if (!grown) {
                rc = SQLITE_NOMEM;
                break;
            }
            *out = grown;
        }
        for (int i = 0; i < ncols; i++)
            (*out)[(*n)++] = sqlite3_column_int64(st, i);
    }
    sqlite3_reset(st);
    if (rc == SQLITE_DONE)
        return SQLITE_OK;
    free(*out);
    *out = NULL;
    *n = 0;
    return rc;
}

int store_window_stmt_open(sqlite3 *db, sqlite3_stmt **cached, const char *sql, int64_t series,
                           int64_t t0, int64_t t1, sqlite3_stmt **st, bool *owned)
{
    *owned = false;
    int rc = *cached ? SQLITE_OK
                     : sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, cached, NULL);
    *st = *cached;
    if (rc == SQLITE_OK && sqlite3_stmt_busy(*st)) {
        *owned = true;
        rc = sqlite3_prepare_v2(db, sql, -1, st, NULL);
    }
    if (rc != SQLITE_OK) {
        *st = NULL;
        return rc;
    }
    sqlite3_bind_int64(*st, 1, series);
    sqlite3_bind_int64(*st, 2, t0);
    sqlite3_bind_int64(*st, 3, t1);
    return SQLITE_OK;
}

void store_window_stmt_close(sqlite3_stmt *st, bool owned)
{
    if (owned)
        sqlite3_finalize(st);
    else if (st)
        sqlite3_reset(st);
}

int store_window_open(struct store_window *w, sqlite3 *db, sqlite3_stmt **cached, const char *sql,
                      int64_t series, int64_t t0, int64_t t1)
{
    *w = (struct store_window){ .series = series, .t0 = t0, .t1 = t1 };
    int rc = store_window_stmt_open(db, cached, sql, series, t0, t1, &w->st, &w->owned);
    w->rc = rc == SQLITE_OK ? SQLITE_ROW : rc;
    return rc;
}

void store_window_close(struct store_window *w)
{
    store_window_stmt_close(w->st, w->owned);
    w->st = NULL;
}

static int prepare(struct block_tier *t, sqlite3_stmt **st, const char *sql)
{
    if (*st)
        return SQLITE_OK;
    return sqlite3_prepare_v3(t->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL);
}

static int corrupt(struct block_tier *t, int64_t series, int64_t t0)
{
    snprintf(t->why, sizeof(t->why), "the sample block of series %lld at %lld ns is malformed",
             (long long)series, (long long)t0);
    return SQLITE_CORRUPT;
}

/* Appends the block in st's current row (columns 0, 1, 2: t0, n, data) to run. */
static int decode_row(struct block_tier *t, sqlite3_stmt *st, int64_t series,
                      struct sample_run *run)
{
    int64_t t0 = sqlite3_column_int64(st, 0);
    int64_t n = sqlite3_column_int64(st, 1);
    const void *data = sqlite3_column_blob(st, 2);
    int len = sqlite3_column_bytes(st, 2);
    if (n <= 0 || n > SAMPLE_BLOCK_MAX)
        return corrupt(t, series, t0);
    struct sample_block_reader br;
    sample_block_reader_init(&br, t0, data, (size_t)len, (size_t)n);
    struct stored_sample smp;
    while (sample_block_next(&br, &smp))
        if (!store_sample_run_push(run, &smp))
            return SQLITE_NOMEM;
    if (br.bad) /* the last call checked for bytes left over */
        return corrupt(t, series, t0);
    return SQLITE_OK;
}

static int step_done(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Writes v[0..n) as blocks of at most SAMPLE_BLOCK_MAX, each a new row. */
static int insert_blocks(struct block_tier *t, int64_t series, const struct stored_sample *v,
                         size_t n)
{
    int rc = prepare(t, &t->ins,
                     "INSERT INTO sample_blocks (series, t0, t1, n, data) "
                     "VALUES (?1, ?2, ?3, ?4, ?5)");
    for (size_t i = 0; rc == SQLITE_OK && i < n; i += SAMPLE_BLOCK_MAX) {
        size_t k = n - i < SAMPLE_BLOCK_MAX ? n - i : SAMPLE_BLOCK_MAX;
        size_t len = sample_block_encode(v + i, k, t->bytes);
        sqlite3_bind_int64(t->ins, 1, series);
        sqlite3_bind_int64(t->ins, 2, v[i].ts);
        sqlite3_bind_int64(t->ins, 3, v[i + k - 1].ts);
        sqlite3_bind_int64(t->ins, 4, (int64_t)k);
        sqlite3_bind_blob(t->ins, 5, t->bytes, (int)len, SQLITE_STATIC);
        rc = step_done(t->ins);
    }
    return rc;
}

static int delete_block(struct block_tier *t, int64_t series, int64_t t0)
{
    int rc = prepare(t, &t->del, "DELETE FROM sample_blocks WHERE series = ?1 AND t0 = ?2");
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_bind_int64(t->del, 1, series);
    sqlite3_bind_int64(t->del, 2, t0);
    return step_done(t->del);
}

/* merged = a and b (each in time order) in time order; b's sample wins a tie */
static int merge_runs(struct sample_run *merged, const struct stored_sample *a, size_t na,
                      const struct stored_sample *b, size_t nb)
{
    merged->n = 0;
    size_t i = 0, j = 0;
    while (i < na || j < nb) {
        const struct stored_sample *next;
        if (j == nb || (i < na && a[i].ts < b[j].ts)) {
            next = &a[i++];
        } else {
            if (i < na && a[i].ts == b[j].ts)
                i++;
            next = &b[j++];
        }
        if (!store_sample_run_push(merged, next))
            return SQLITE_NOMEM;
    }
    return SQLITE_OK;
}

int store_block_tier_put(struct block_tier *t, int64_t series, const struct stored_sample *v,
                         size_t n)
{
    if (!n)
        return SQLITE_OK;
    int rc;
    if ((rc = prepare(t, &t->sel_before,
                      "SELECT t0, n, data, t1 FROM sample_blocks WHERE series = ?1 AND t0 <= ?2 "
                      "ORDER BY t0 DESC LIMIT 1")) != SQLITE_OK ||
        (rc = prepare(t, &t->sel_after,
                      "SELECT t0, n, data, t1 FROM sample_blocks WHERE series = ?1 AND t0 > ?2 "
                      "AND t0 <= ?3 ORDER BY t0")) != SQLITE_OK)
        return rc;
    int64_t a = v[0].ts, b = v[n - 1].ts;
    /* the blocks that overlap [a, b]: the one before a if it reaches a, and any starting in
     * (a, b]; the one before a that ends earlier may take the run on its end instead */
    t->old.n = 0;
    bool before_overlaps = false, extend = false;
    int64_t before_t0 = 0;
    sqlite3_bind_int64(t->sel_before, 1, series);
    sqlite3_bind_int64(t->sel_before, 2, a);
    rc = sqlite3_step(t->sel_before);
    if (rc == SQLITE_ROW) {
        before_t0 = sqlite3_column_int64(t->sel_before, 0);
        before_overlaps = sqlite3_column_int64(t->sel_before, 3) >= a;
        int64_t stored_n = sqlite3_column_int64(t->sel_before, 1);
        extend = !before_overlaps && n <= SAMPLE_BLOCK_MAX && stored_n >= 1 &&
                 stored_n <= SAMPLE_BLOCK_MAX - (int64_t)n;
        rc = before_overlaps || extend ? decode_row(t, t->sel_before, series, &t->old) : SQLITE_OK;
    } else if (rc == SQLITE_DONE) {
        rc = SQLITE_OK;
    }
    sqlite3_reset(t->sel_before);
    if (rc != SQLITE_OK)
        return rc;
    size_t from_before = t->old.n;
    sqlite3_bind_int64(t->sel_after, 1, series);
    sqlite3_bind_int64(t->sel_after, 2, a);
    sqlite3_bind_int64(t->sel_after, 3, b);
    while ((rc = sqlite3_step(t->sel_after)) == SQLITE_ROW &&
           (rc = decode_row(t, t->sel_after, series, &t->old)) == SQLITE_OK)
        ;
    sqlite3_reset(t->sel_after);
    if (rc != SQLITE_DONE && rc != SQLITE_OK)
        return rc;
    bool after_overlaps = t->old.n > from_before;

    if (!before_overlaps && !after_overlaps) {
        if (!extend)
            return insert_blocks(t, series, v, n);
        /* the common case at steady state: the series' newest block has room */
        if ((rc = merge_runs(&t->merged, t->old.v, t->old.n, v, n)) != SQLITE_OK ||
            (rc = prepare(t, &t->upd,
                          "UPDATE sample_blocks SET t1 = ?3, n = ?4, data = ?5 "
                          "WHERE series = ?1 AND t0 = ?2")) != SQLITE_OK)
            return rc;
        size_t len = sample_block_encode(t->merged.v, t->merged.n, t->bytes);
        sqlite3_bind_int64(t->upd, 1, series);
        sqlite3_bind_int64(t->upd, 2, before_t0);
        sqlite3_bind_int64(t->upd, 3, b);
        sqlite3_bind_int64(t->upd, 4, (int64_t)t->merged.n);
        sqlite3_bind_blob(t->upd, 5, t->bytes, (int)len, SQLITE_STATIC);
        return step_done(t->upd);
    }
    /* overlap: rewrite the blocks it touches with the run merged in (the run wins ties) */
    if (!before_overlaps && extend) {
        memmove(t->old.v, t->old.v + from_before, (t->old.n - from_before) * sizeof(*t->old.v));
        t->old.n -= from_before;
    }
    if ((rc = merge_runs(&t->merged, t->old.v, t->old.n, v, n)) != SQLITE_OK)
        return rc;
    if (before_overlaps && (rc = delete_block(t, series, before_t0)) != SQLITE_OK)
        return rc;
    if (after_overlaps) {
        if ((rc = prepare(t, &t->del_after,
                          "DELETE FROM sample_blocks WHERE series = ?1 "
                          "AND t0 > ?2 AND t0 <= ?3")) != SQLITE_OK)
            return rc;
        sqlite3_bind_int64(t->del_after, 1, series);
        sqlite3_bind_int64(t->del_after, 2, a);
        sqlite3_bind_int64(t->del_after, 3, b);
        if ((rc = step_done(t->del_after)) != SQLITE_OK)
            return rc;
    }
    return insert_blocks(t, series, t->merged.v, t->merged.n);
}

int store_block_tier_convert_rows(struct block_tier *t)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(t->db, "SELECT series, ts, value FROM samples ORDER BY series, ts",
                                -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    t->run.n = 0;
    int64_t series = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(st, 0);
        if ((id != series || t->run.n == SAMPLE_BLOCK_MAX) && t->run.n) {
            if ((rc = insert_blocks(t, series, t->run.v, t->run.n)) != SQLITE_OK)
                break;
            t->run.n = 0;
        }
        series = id;
        struct stored_sample smp = store_sample_from_columns(st, 1);
        if (!store_sample_run_push(&t->run, &smp)) {
            rc = SQLITE_NOMEM;
            break;
        }
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_DONE)
        rc = t->run.n ? insert_blocks(t, series, t->run.v, t->run.n) : SQLITE_OK;
    t->run.n = 0;
    return rc;
}

int store_block_tier_prune(struct block_tier *t, int64_t cutoff, int64_t *deleted)
{
    *deleted = 0;
    /* whole blocks first ("series IN" walks each series' key range up to the cutoff) */
    static const char *const whole[] = {
        "SELECT total(n) FROM sample_blocks WHERE series IN (SELECT id FROM series) "
        "AND t0 < ?1 AND t1 < ?1",
        "DELETE FROM sample_blocks WHERE series IN (SELECT id FROM series) "
        "AND t0 < ?1 AND t1 < ?1",
    };
    int rc = SQLITE_OK;
    for (int i = 0; i < 2 && rc == SQLITE_OK; i++) {
        sqlite3_stmt *st;
        rc = sqlite3_prepare_v2(t->db, whole[i], -1, &st, NULL);
        if (rc != SQLITE_OK)
            return rc;
        sqlite3_bind_int64(st, 1, cutoff);
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW)
            *deleted += (int64_t)sqlite3_column_double(st, 0);
        sqlite3_finalize(st);
        rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
    }
    if (rc != SQLITE_OK)
        return rc;
    /* then the one block per series that may straddle the cutoff: its front goes */
    sqlite3_stmt *series_st, *block;
    if ((rc = sqlite3_prepare_v2(t->db, "SELECT id FROM series ORDER BY id", -1, &series_st,
                                 NULL)) != SQLITE_OK)
        return rc;
    if ((rc = sqlite3_prepare_v2(t->db,
                                 "SELECT t0, n, data FROM sample_blocks "
                                 "WHERE series = ?1 AND t0 < ?2",
                                 -1, &block, NULL)) != SQLITE_OK) {
        sqlite3_finalize(series_st);
        return rc;
    }
    while (rc == SQLITE_OK && (rc = sqlite3_step(series_st)) == SQLITE_ROW) {
        int64_t series = sqlite3_column_int64(series_st, 0);
        sqlite3_bind_int64(block, 1, series);
        sqlite3_bind_int64(block, 2, cutoff);
        t->old.n = 0;
        int64_t t0 = 0;
        rc = sqlite3_step(block);
        if (rc == SQLITE_ROW) {
            t0 = sqlite3_column_int64(block, 0);
            rc = decode_row(t, block, series, &t->old);
            rc = rc == SQLITE_OK ? SQLITE_ROW : rc;
        }
        sqlite3_reset(block);
        if (rc == SQLITE_DONE) {
            rc = SQLITE_OK;
            continue;
        }
        if (rc != SQLITE_ROW)
            break;
        size_t keep = 0;
        while (keep < t->old.n && t->old.v[keep].ts < cutoff)
            keep++;
        *deleted += (int64_t)keep;
        if ((rc = delete_block(t, series, t0)) == SQLITE_OK)
            rc = insert_blocks(t, series, t->old.v + keep, t->old.n - keep);
    }
    sqlite3_finalize(series_st);
    sqlite3_finalize(block);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_block_cursor_open(struct block_cursor *c, struct block_tier *t, int64_t series,
                            int64_t t0, int64_t t1)
{
    memset(c, 0, sizeof(*c));
    c->t = t;
    /* the block before t0 may reach into the window; later ones start inside it */
    static const char sql[] =
        "SELECT t0, n, data FROM sample_blocks WHERE series = ?1 AND t0 >= "
        "coalesce((SELECT max(t0) FROM sample_blocks WHERE series = ?1 AND t0 <= ?2), ?2) "
        "AND t0 <= ?3 ORDER BY t0";
    return store_window_open(&c->w, t->db, &t->sel_range, sql, series, t0, t1);
}

bool store_block_cursor_next(struct block_cursor *c, struct stored_sample *out)
{
    while (c->w.rc == SQLITE_ROW) {
        if (c->in_block) {
            if (sample_block_next(&c->br, out)) {
                if (out->ts < c->w.t0)
                    continue;
                if (out->ts <= c->w.t1)
                    return true;
                c->w.rc = SQLITE_DONE; /* past the window: later blocks are too */
                return false;
            }
            c->in_block = false;
            if (c->br.bad) {
                c->w.rc = corrupt(c->t, c->w.series, sqlite3_column_int64(c->w.st, 0));
                return false;
            }
        }
        c->w.rc = sqlite3_step(c->w.st);
        if (c->w.rc != SQLITE_ROW)
            break;
        int64_t n = sqlite3_column_int64(c->w.st, 1);
        if (n <= 0 || n > SAMPLE_BLOCK_MAX) {
            c->w.rc = corrupt(c->t, c->w.series, sqlite3_column_int64(c->w.st, 0));
            return false;
        }
        sample_block_reader_init(&c->br, sqlite3_column_int64(c->w.st, 0),
                                 sqlite3_column_blob(c->w.st, 2),
                                 (size_t)sqlite3_column_bytes(c->w.st, 2), (size_t)n);
        c->in_block = true;
    }
    return false;
}

void store_block_cursor_close(struct block_cursor *c)
{
    store_window_close(&c->w);
}
