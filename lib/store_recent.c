/* The recent tier: batches of chunks (see store_recent.h, sample_chunk.h). */
#include "store_recent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a merge holds one statement per batch open: 1,024 batches are 17 minutes of 1 s flushes */
#define MERGE_MAX_BATCHES 1024

void store_recent_tier_init(struct recent_tier *r, sqlite3 *db)
{
    memset(r, 0, sizeof(*r));
    r->db = db;
    sample_chunk_writer_init(&r->w);
}

void store_recent_tier_free(struct recent_tier *r)
{
    sqlite3_stmt *stmts[] = { r->ins_batch, r->ins_chunk, r->del_chunk, r->sel_series,
                              r->sel_holder };
    for (size_t i = 0; i < sizeof(stmts) / sizeof(stmts[0]); i++)
        sqlite3_finalize(stmts[i]);
    sample_chunk_writer_free(&r->w);
    free(r->all.v);
    free(r->group_series);
    free(r->group_start);
    memset(r, 0, sizeof(*r));
}

static int prepare(struct recent_tier *r, sqlite3_stmt **st, const char *sql)
{
    if (*st)
        return SQLITE_OK;
    return sqlite3_prepare_v3(r->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL);
}

static int step_done(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Run the cached statement *st (prepared from sql the first time) with these int64
 * parameters, ?1 on, to its end. */
static int run_cached(struct recent_tier *r, sqlite3_stmt **st, const char *sql,
                      const int64_t *params, int nparams)
{
    int rc = prepare(r, st, sql);
    if (rc != SQLITE_OK)
        return rc;
    for (int i = 0; i < nparams; i++)
        sqlite3_bind_int64(*st, i + 1, params[i]);
    return step_done(*st);
}

static int corrupt(struct recent_tier *r, int64_t batch, int64_t series0)
{
    snprintf(r->why, sizeof(r->why), "the recent chunk of batch %lld from series %lld is malformed",
             (long long)batch, (long long)series0);
    return SQLITE_CORRUPT;
}

int store_recent_batch_begin(struct recent_tier *r, int64_t ts_min, int64_t ts_max, int64_t samples)
{
    const int64_t params[] = { ts_min, ts_max, samples };
    int rc = run_cached(r, &r->ins_batch,
                        "INSERT INTO recent_batches (ts_min, ts_max, rows) VALUES (?1, ?2, ?3)",
                        params, 3);
    if (rc != SQLITE_OK)
        return rc;
    r->batch = sqlite3_last_insert_rowid(r->db);
    sample_chunk_writer_reset(&r->w);
    return SQLITE_OK;
}

/* Writes the chunk being built as a row of batch. */
static int put_chunk(struct recent_tier *r, int64_t batch)
{
    struct chunk_writer *w = &r->w;
    if (w->empty)
        return SQLITE_OK;
    int rc = prepare(r, &r->ins_chunk,
                     "INSERT INTO recent_chunks (batch, series0, series1, n, data) "
                     "VALUES (?1, ?2, ?3, ?4, ?5)");
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_bind_int64(r->ins_chunk, 1, batch);
    sqlite3_bind_int64(r->ins_chunk, 2, w->series0);
    sqlite3_bind_int64(r->ins_chunk, 3, w->last_series);
    sqlite3_bind_int64(r->ins_chunk, 4, (int64_t)w->samples);
    sqlite3_bind_blob(r->ins_chunk, 5, w->buf, (int)w->len, SQLITE_STATIC);
    rc = step_done(r->ins_chunk);
    sample_chunk_writer_reset(w);
    return rc;
}

int store_recent_batch_add(struct recent_tier *r, int64_t series, const struct stored_sample *v,
                           size_t n)
{
    if (!sample_chunk_writer_add(&r->w, series, v, n))
        return SQLITE_NOMEM;
    return r->w.len >= SAMPLE_CHUNK_BYTES ? put_chunk(r, r->batch) : SQLITE_OK;
}

int store_recent_batch_end(struct recent_tier *r)
{
    return put_chunk(r, r->batch);
}

/* --- reading one series --- */

/* The chunk holding series ?1 in each batch that overlaps [?2, ?3], batch by batch: the one
 * with the greatest series0 at or below it (which may end before it). */
#define SERIES_CHUNKS_SQL                                                              \
    "SELECT b.id, c.series0, c.data FROM recent_batches b CROSS JOIN recent_chunks c " \
    "ON c.batch = b.id AND c.series0 = (SELECT max(series0) FROM recent_chunks "       \
    "WHERE batch = b.id AND series0 <= ?1) AND c.series1 >= ?1 "                       \
    "WHERE b.ts_max >= ?2 AND b.ts_min <= ?3 ORDER BY b.id"

int store_recent_cursor_open(struct recent_cursor *c, struct recent_tier *r, int64_t series,
                             int64_t t0, int64_t t1)
{
    memset(c, 0, sizeof(*c));
    c->r = r;
    return store_window_open(&c->w, r->db, &r->sel_series, SERIES_CHUNKS_SQL, series, t0, t1);
}

/* Positions cr on series in the chunk it was opened on: true when the chunk holds it. */
static bool seek_series(struct chunk_reader *cr, int64_t series)
{
    while (sample_chunk_next_series(cr)) {
        if (cr->series == series)
            return true;
        if (cr->series > series)
            return false;
    }
    return false;
}

bool store_recent_cursor_next(struct recent_cursor *c, struct stored_sample *out)
{
    while (c->w.rc == SQLITE_ROW) {
        if (c->in_series) {
            while (sample_chunk_next_sample(&c->cr, out)) {
                if (out->ts >= c->w.t0 && out->ts <= c->w.t1)
                    return true;
            }
            c->in_series = false;
            if (c->cr.bad) {
                c->w.rc = corrupt(c->r, sqlite3_column_int64(c->w.st, 0),
                                  sqlite3_column_int64(c->w.st, 1));
                return false;
            }
        }
        c->w.rc = sqlite3_step(c->w.st);
        if (c->w.rc != SQLITE_ROW)
            break;
        sample_chunk_reader_init(&c->cr, sqlite3_column_int64(c->w.st, 1),
                                 sqlite3_column_blob(c->w.st, 2),
                                 (size_t)sqlite3_column_bytes(c->w.st, 2));
        c->in_series = seek_series(&c->cr, c->w.series);
        if (c->cr.bad) {
            c->w.rc = corrupt(c->r, sqlite3_column_int64(c->w.st, 0),
                              sqlite3_column_int64(c->w.st, 1));
            return false;
        }
    }
    return false;
}

void store_recent_cursor_close(struct recent_cursor *c)
{
    store_window_close(&c->w);
}

/* --- rewriting chunks: twins replaced by older-sample writes, and prune --- */

/* Decodes a whole chunk into r->all, each series' start in group_start; *ngroups set. */
static int decode_chunk(struct recent_tier *r, int64_t batch, int64_t series0, const void *data,
                        size_t len, size_t *ngroups)
{
    struct chunk_reader cr;
    sample_chunk_reader_init(&cr, series0, data, len);
    r->all.n = 0;
    *ngroups = 0;
    while (sample_chunk_next_series(&cr)) {
        if (*ngroups == r->groups_cap) {
            size_t cap = r->groups_cap ? r->groups_cap * 2 : 256;
            int64_t *gs = realloc(r->group_series, cap * sizeof(*gs));
            if (gs)
                r->group_series = gs;
            size_t *st = realloc(r->group_start, (cap + 1) * sizeof(*st));
            if (st)
                r->group_start = st;
            if (!gs || !st)
                return SQLITE_NOMEM;
            r->groups_cap = cap;
        }
        r->group_series[*ngroups] = cr.series;
        r->group_start[(*ngroups)++] = r->all.n;
        struct stored_sample smp;
        while (sample_chunk_next_sample(&cr, &smp))
            if (!store_sample_run_push(&r->all, &smp))
                return SQLITE_NOMEM;
        if (cr.bad)
            break;
    }
    if (cr.bad)
        return corrupt(r, batch, series0);
    if (*ngroups)
        r->group_start[*ngroups] = r->all.n;
    return SQLITE_OK;
}

/* Replaces chunk (batch, series0) with r->all's groups, keeping only the samples keep() says
 * to; *dropped counts the others. A chunk that loses nothing is left as it is. */
static int rewrite_chunk(struct recent_tier *r, int64_t batch, int64_t series0, size_t ngroups,
                         bool (*keep)(const struct stored_sample *, int64_t, void *), void *arg,
                         int64_t *dropped)
{
    /* each group's kept samples moved down in place; group_start[g] becomes its new start,
     * the old one's end read before it is overwritten */
    if (!ngroups)
        return SQLITE_OK;
    size_t out = 0, before = r->all.n;
    for (size_t g = 0; g < ngroups; g++) {
        size_t from = r->group_start[g], to = r->group_start[g + 1];
        r->group_start[g] = out;
        for (size_t i = from; i < to; i++) {
            if (keep(&r->all.v[i], r->group_series[g], arg))
                r->all.v[out++] = r->all.v[i];
        }
    }
    r->group_start[ngroups] = out;
    r->all.n = out;
    if (out == before)
        return SQLITE_OK;
    *dropped += (int64_t)(before - out);
    const int64_t params[] = { batch, series0 };
    int rc = run_cached(r, &r->del_chunk,
                        "DELETE FROM recent_chunks WHERE batch = ?1 AND series0 = ?2", params, 2);
    if (rc != SQLITE_OK)
        return rc;
    sample_chunk_writer_reset(&r->w);
    for (size_t g = 0; g < ngroups && rc == SQLITE_OK; g++) {
        size_t from = r->group_start[g], to = r->group_start[g + 1];
        if (to > from &&
            !sample_chunk_writer_add(&r->w, r->group_series[g], r->all.v + from, to - from))
            rc = SQLITE_NOMEM;
    }
    /* one row again, however long (a sample gone can lengthen the next one's deltas) */
    return rc == SQLITE_OK ? put_chunk(r, batch) : rc;
}

struct twin_set {
    const int64_t *ts;
    size_t n;
    int64_t series;
};

static bool not_a_twin(const struct stored_sample *s, int64_t series, void *arg)
{
    const struct twin_set *t = arg;
    if (series != t->series)
        return true;
    size_t lo = 0, hi = t->n; /* binary search of the sorted times */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->ts[mid] < s->ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo == t->n || t->ts[lo] != s->ts;
}

int store_recent_tier_remove(struct recent_tier *r, int64_t series, const int64_t *ts, size_t n)
{
    if (!n)
        return SQLITE_OK;
    /* the chunks' keys (batch, series0) first: a rewrite inside the walk would move its rows */
    sqlite3_stmt *st;
    bool owned;
    int64_t *keys = NULL;
    size_t nkeys = 0;
    int rc = store_window_stmt_open(r->db, &r->sel_holder, SERIES_CHUNKS_SQL, series, ts[0],
                                    ts[n - 1], &st, &owned);
    if (rc == SQLITE_OK)
        rc = store_stmt_collect_int64(st, 2, &keys, &nkeys);
    store_window_stmt_close(st, owned);
    struct twin_set twins = { ts, n, series };
    sqlite3_stmt *one = NULL;
    if (rc == SQLITE_OK && nkeys)
        rc = sqlite3_prepare_v2(r->db,
                                "SELECT data FROM recent_chunks WHERE batch = ?1 AND "
                                "series0 = ?2",
                                -1, &one, NULL);
    for (size_t k = 0; rc == SQLITE_OK && k < nkeys; k += 2) {
        sqlite3_bind_int64(one, 1, keys[k]);
        sqlite3_bind_int64(one, 2, keys[k + 1]);
        size_t ngroups = 0;
        rc = sqlite3_step(one);
        if (rc == SQLITE_ROW)
            rc = decode_chunk(r, keys[k], keys[k + 1], sqlite3_column_blob(one, 0),
                              (size_t)sqlite3_column_bytes(one, 0), &ngroups);
        sqlite3_reset(one);
        int64_t dropped = 0;
        if (rc == SQLITE_OK)
            rc = rewrite_chunk(r, keys[k], keys[k + 1], ngroups, not_a_twin, &twins, &dropped);
    }
    sqlite3_finalize(one);
    free(keys);
    return rc;
}

struct prune_front {
    int64_t cutoff;
    int64_t first_kept; /* the batch's new ts_min */
};

static bool not_before(const struct stored_sample *s, int64_t series, void *arg)
{
    (void)series;
    struct prune_front *p = arg;
    if (s->ts < p->cutoff)
        return false;
    if (s->ts < p->first_kept)
        p->first_kept = s->ts;
    return true;
}

int store_recent_tier_prune(struct recent_tier *r, int64_t cutoff, int64_t *deleted)
{
    *deleted = 0;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(r->db, "SELECT id, ts_max FROM recent_batches WHERE ts_min < ?1",
                                -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_bind_int64(st, 1, cutoff);
    int64_t *ids; /* (id, ts_max) pairs */
    size_t n;
    rc = store_stmt_collect_int64(st, 2, &ids, &n);
    sqlite3_finalize(st);
    sqlite3_stmt *count = NULL, *drop = NULL, *chunks = NULL, *fix = NULL;
    if (rc == SQLITE_OK && n &&
        ((rc = sqlite3_prepare_v2(r->db, "SELECT total(n) FROM recent_chunks WHERE batch = ?1", -1,
                                  &count, NULL)) != SQLITE_OK ||
         (rc = sqlite3_prepare_v2(r->db, "DELETE FROM recent_chunks WHERE batch = ?1;", -1, &drop,
                                  NULL)) != SQLITE_OK ||
         (rc = sqlite3_prepare_v2(r->db,
                                  "SELECT series0 FROM recent_chunks WHERE batch = ?1 "
                                  "ORDER BY series0",
                                  -1, &chunks, NULL)) != SQLITE_OK ||
         (rc = sqlite3_prepare_v2(r->db,
                                  "UPDATE recent_batches SET ts_min = ?2, rows = "
                                  "(SELECT total(n) FROM recent_chunks WHERE batch = ?1) "
                                  "WHERE id = ?1",
                                  -1, &fix, NULL)) != SQLITE_OK))
        n = 0;
    for (size_t i = 0; rc == SQLITE_OK && i < n; i += 2) {
        int64_t batch = ids[i];
        if (ids[i + 1] < cutoff) { /* the whole batch goes */
            sqlite3_bind_int64(count, 1, batch);
            if ((rc = sqlite3_step(count)) == SQLITE_ROW)
                *deleted += (int64_t)sqlite3_column_double(count, 0);
            sqlite3_reset(count);
            if (rc != SQLITE_ROW)
                break;
            sqlite3_bind_int64(drop, 1, batch);
            rc = step_done(drop);
            continue;
        }
        /* it straddles the cutoff: each chunk loses its front */
        int64_t *series0;
        size_t nchunks;
        sqlite3_bind_int64(chunks, 1, batch);
        rc = store_stmt_collect_int64(chunks, 1, &series0, &nchunks);
        sqlite3_stmt *one = NULL;
        struct prune_front front = { cutoff, INT64_MAX };
        if (rc == SQLITE_OK)
            rc = sqlite3_prepare_v2(r->db,
                                    "SELECT data FROM recent_chunks WHERE batch = ?1 "
                                    "AND series0 = ?2",
                                    -1, &one, NULL);
        for (size_t k = 0; rc == SQLITE_OK && k < nchunks; k++) {
            sqlite3_bind_int64(one, 1, batch);
            sqlite3_bind_int64(one, 2, series0[k]);
            size_t ngroups = 0;
            rc = sqlite3_step(one);
            if (rc == SQLITE_ROW)
                rc = decode_chunk(r, batch, series0[k], sqlite3_column_blob(one, 0),
                                  (size_t)sqlite3_column_bytes(one, 0), &ngroups);
            sqlite3_reset(one);
            if (rc == SQLITE_OK)
                rc = rewrite_chunk(r, batch, series0[k], ngroups, not_before, &front, deleted);
        }
        sqlite3_finalize(one);
        free(series0);
        if (rc == SQLITE_OK) {
            sqlite3_bind_int64(fix, 1, batch);
            sqlite3_bind_int64(fix, 2, front.first_kept);
            rc = step_done(fix);
        }
    }
    sqlite3_finalize(count);
    sqlite3_finalize(drop);
    sqlite3_finalize(chunks);
    sqlite3_finalize(fix);
    free(ids);
    if (rc != SQLITE_OK)
        return rc;
    /* batches left with no chunks (all their samples were older) go too */
    return sqlite3_exec(r->db,
                        "DELETE FROM recent_batches WHERE NOT EXISTS (SELECT 1 FROM "
                        "recent_chunks c WHERE c.batch = recent_batches.id)",
                        NULL, NULL, NULL);
}

int store_recent_tier_convert_rows(struct recent_tier *r)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(r->db,
                                "SELECT batch, series, ts, value FROM samples_recent "
                                "ORDER BY batch, series, ts",
                                -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    sample_chunk_writer_reset(&r->w);
    r->all.n = 0;
    int64_t batch = 0, series = 0;
    for (;;) {
        rc = sqlite3_step(st);
        bool row = rc == SQLITE_ROW;
        int64_t b = row ? sqlite3_column_int64(st, 0) : 0,
                id = row ? sqlite3_column_int64(st, 1) : 0;
        if (r->all.n && (!row || b != batch || id != series)) {
            int wrc = sample_chunk_writer_add(&r->w, series, r->all.v, r->all.n) ? SQLITE_OK
                                                                                 : SQLITE_NOMEM;
            r->all.n = 0;
            if (wrc == SQLITE_OK && (r->w.len >= SAMPLE_CHUNK_BYTES || !row || b != batch))
                wrc = put_chunk(r, batch);
            if (wrc != SQLITE_OK) {
                rc = wrc;
                break;
            }
        }
        if (!row)
            break;
        batch = b;
        series = id;
        struct stored_sample smp = store_sample_from_columns(st, 2);
        if (!store_sample_run_push(&r->all, &smp)) {
            rc = SQLITE_NOMEM;
            break;
        }
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* --- the merge: a k-way merge of the oldest batches by series --- */

struct batch_cursor {
    sqlite3_stmt *st; /* the batch's chunks in series order */
    struct chunk_reader cr;
    int64_t batch;
    int k; /* batch position: ties go to the older batch */
};

static bool cursor_less(const struct batch_cursor *x, const struct batch_cursor *y)
{
    return x->cr.series < y->cr.series || (x->cr.series == y->cr.series && x->k < y->k);
}

static void heap_down(struct batch_cursor *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && cursor_less(&h[l], &h[m]))
            m = l;
        if (l + 1 < n && cursor_less(&h[l + 1], &h[m]))
            m = l + 1;
        if (m == i)
            return;
        struct batch_cursor tmp = h[i];
        h[i] = h[m];
        h[m] = tmp;
        i = m;
    }
}

/* The cursor's next series, from its chunk or the next one: SQLITE_ROW, SQLITE_DONE at the
 * batch's end, or an error. */
static int cursor_advance(struct recent_tier *r, struct batch_cursor *c)
{
    for (;;) {
        if (c->cr.rd.base && sample_chunk_next_series(&c->cr))
            return SQLITE_ROW;
        if (c->cr.bad)
            return corrupt(r, c->batch, sqlite3_column_int64(c->st, 0));
        int rc = sqlite3_step(c->st);
        if (rc != SQLITE_ROW)
            return rc;
        sample_chunk_reader_init(&c->cr, sqlite3_column_int64(c->st, 0),
                                 sqlite3_column_blob(c->st, 1),
                                 (size_t)sqlite3_column_bytes(c->st, 1));
        if (!c->cr.rd.base) /* an empty blob: nothing in it */
            return corrupt(r, c->batch, sqlite3_column_int64(c->st, 0));
    }
}

struct ranked_sample {
    struct stored_sample s;
    size_t pos;
};

static int cmp_ranked(const void *x, const void *y)
{
    const struct ranked_sample *a = x, *b = y;
    if (a->s.ts != b->s.ts)
        return (a->s.ts > b->s.ts) - (a->s.ts < b->s.ts);
    return (a->pos > b->pos) - (a->pos < b->pos);
}

/* A series' run is in time order unless two writers interleaved; then it is sorted, and of
 * samples at one time the newest batch's (the last pushed) is kept. */
static int settle_run(struct sample_run *run)
{
    size_t n = run->n;
    bool ordered = true;
    for (size_t i = 1; i < n && ordered; i++)
        ordered = run->v[i].ts > run->v[i - 1].ts;
    if (ordered)
        return SQLITE_OK;
    struct ranked_sample *tmp = malloc(n * sizeof(*tmp));
    if (!tmp)
        return SQLITE_NOMEM;
    for (size_t i = 0; i < n; i++)
        tmp[i] = (struct ranked_sample){ .s = run->v[i], .pos = i };
    qsort(tmp, n, sizeof(*tmp), cmp_ranked);
    size_t out = 0;
    for (size_t i = 0; i < n; i++)
        if (i + 1 == n || tmp[i + 1].s.ts != tmp[i].s.ts)
            run->v[out++] = tmp[i].s;
    run->n = out;
    free(tmp);
    return SQLITE_OK;
}

int store_recent_tier_merge(struct recent_tier *r, struct block_tier *t, int64_t *moved)
{
    *moved = 0;
    sqlite3_stmt *ids;
    int rc = sqlite3_prepare_v2(r->db,
                                "SELECT id, (SELECT count(*) FROM recent_batches) "
                                "FROM recent_batches ORDER BY id LIMIT ?1",
                                -1, &ids, NULL);
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_bind_int(ids, 1, MERGE_MAX_BATCHES);
    struct batch_cursor *heap = calloc(MERGE_MAX_BATCHES, sizeof(*heap));
    size_t nheap = 0, nopen = 0;
    int64_t last_batch = 0, total_batches = 0;
    if (!heap) {
        sqlite3_finalize(ids);
        return SQLITE_NOMEM;
    }
    while ((rc = sqlite3_step(ids)) == SQLITE_ROW) {
        last_batch = sqlite3_column_int64(ids, 0);
        total_batches = sqlite3_column_int64(ids, 1);
        struct batch_cursor *c = &heap[nopen];
        rc = sqlite3_prepare_v2(r->db,
                                "SELECT series0, data FROM recent_chunks "
                                "WHERE batch = ?1 ORDER BY series0",
                                -1, &c->st, NULL);
        if (rc != SQLITE_OK)
            break;
        sqlite3_bind_int64(c->st, 1, last_batch);
        c->batch = last_batch;
        c->k = (int)nopen++;
    }
    sqlite3_finalize(ids);
    if (rc == SQLITE_DONE) {
        rc = SQLITE_OK;
        /* the cursors that have a first series go on the heap; the rest are done */
        for (size_t i = 0; i < nopen; i++) {
            int s = rc == SQLITE_OK ? cursor_advance(r, &heap[i]) : SQLITE_DONE;
            if (s == SQLITE_ROW) {
                heap[nheap++] = heap[i];
            } else {
                sqlite3_finalize(heap[i].st);
                if (s != SQLITE_DONE)
                    rc = s;
            }
        }
        for (size_t i = nheap; i-- > 0;)
            heap_down(heap, nheap, i);
    } else {
        nheap = nopen; /* finalized below */
    }
    struct sample_run *run = &t->run;
    run->n = 0;
    int64_t series = 0;
    while (rc == SQLITE_OK && nheap) {
        struct batch_cursor *c = &heap[0];
        if (c->cr.series != series && run->n) {
            if ((rc = settle_run(run)) != SQLITE_OK ||
                (rc = store_block_tier_put(t, series, run->v, run->n)) != SQLITE_OK)
                break;
            run->n = 0;
        }
        series = c->cr.series;
        struct stored_sample smp;
        while (sample_chunk_next_sample(&c->cr, &smp)) {
            if (!store_sample_run_push(run, &smp)) {
                rc = SQLITE_NOMEM;
                break;
            }
            (*moved)++;
        }
        if (rc != SQLITE_OK)
            break;
        if (c->cr.bad) {
            rc = corrupt(r, c->batch, sqlite3_column_int64(c->st, 0));
            break;
        }
        int s = cursor_advance(r, c);
        if (s != SQLITE_ROW) {
            if (s != SQLITE_DONE)
                rc = s;
            sqlite3_finalize(c->st);
            heap[0] = heap[--nheap];
        }
        heap_down(heap, nheap, 0);
    }
    if (rc == SQLITE_OK && run->n) {
        rc = settle_run(run);
        if (rc == SQLITE_OK)
            rc = store_block_tier_put(t, series, run->v, run->n);
    }
    run->n = 0;
    for (size_t i = 0; i < nheap; i++)
        sqlite3_finalize(heap[i].st);
    free(heap);
    if (rc != SQLITE_OK || !total_batches)
        return rc;
    /* without a WHERE, SQLite drops the tier's pages instead of deleting row by row */
    bool all = total_batches <= MERGE_MAX_BATCHES;
    char sql[160];
    snprintf(sql, sizeof(sql),
             all ? "DELETE FROM recent_chunks; DELETE FROM recent_batches;"
                 : "DELETE FROM recent_chunks WHERE batch <= %lld; "
                   "DELETE FROM recent_batches WHERE id <= %lld;",
             (long long)last_batch, (long long)last_batch);
    return sqlite3_exec(r->db, sql, NULL, NULL, NULL);
}

/* --- reading many series: batch by batch --- */

struct tagged_sample {
    struct stored_sample s;
    uint32_t series;
};

void store_recent_gather_free(struct recent_gather *g)
{
    free(g->v);
    free(g->start);
    memset(g, 0, sizeof(*g));
}

int store_recent_tier_gather(struct recent_tier *r, const uint8_t *want, int64_t want_ids,
                             int64_t t0, int64_t t1, int64_t max_samples, struct recent_gather *g)
{
    memset(g, 0, sizeof(*g));
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(r->db,
                                "SELECT total(rows) FROM recent_batches "
                                "WHERE ts_max >= ?1 AND ts_min <= ?2",
                                -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_bind_int64(st, 1, t0);
    sqlite3_bind_int64(st, 2, t1);
    double rows = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_double(st, 0) : 0;
    sqlite3_finalize(st);
    if (rows > (double)max_samples)
        return SQLITE_TOOBIG;
    g->start = calloc((size_t)want_ids + 1, sizeof(*g->start));
    size_t cap = (size_t)rows + 1;
    struct tagged_sample *tmp = malloc(cap * sizeof(*tmp));
    if (!g->start || !tmp) {
        free(tmp);
        store_recent_gather_free(g);
        return SQLITE_NOMEM;
    }
    rc = sqlite3_prepare_v2(r->db,
                            "SELECT c.batch, c.series0, c.data FROM recent_batches b "
                            "CROSS JOIN recent_chunks c ON c.batch = b.id "
                            "WHERE b.ts_max >= ?1 AND b.ts_min <= ?2 ORDER BY b.id, c.series0",
                            -1, &st, NULL);
    size_t n = 0;
    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, t0);
        sqlite3_bind_int64(st, 2, t1);
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            struct chunk_reader cr;
            sample_chunk_reader_init(&cr, sqlite3_column_int64(st, 1), sqlite3_column_blob(st, 2),
                                     (size_t)sqlite3_column_bytes(st, 2));
            while (sample_chunk_next_series(&cr)) {
                int64_t id = cr.series;
                if (id < 0 || id >= want_ids || !(want[id >> 3] & (1u << (id & 7))))
                    continue;
                struct stored_sample smp;
                while (sample_chunk_next_sample(&cr, &smp)) {
                    if (smp.ts < t0 || smp.ts > t1)
                        continue;
                    if (n == cap) { /* rows undercounted (a hand-edited store) */
                        struct tagged_sample *grown = realloc(tmp, 2 * cap * sizeof(*tmp));
                        if (!grown) {
                            rc = SQLITE_NOMEM;
                            break;
                        }
                        tmp = grown;
                        cap *= 2;
                    }
                    tmp[n++] = (struct tagged_sample){ smp, (uint32_t)id };
                    g->start[id]++;
                }
                if (rc == SQLITE_NOMEM)
                    break;
            }
            if (cr.bad)
                rc = corrupt(r, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1));
            if (rc != SQLITE_ROW)
                break;
        }
        sqlite3_finalize(st);
        rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
    }
    if (rc == SQLITE_OK && !(g->v = malloc((n ? n : 1) * sizeof(*g->v))))
        rc = SQLITE_NOMEM;
    if (rc != SQLITE_OK) {
        free(tmp);
        store_recent_gather_free(g);
        return rc;
    }
    /* a stable counting sort by series: batch order, which is time order for a series, kept */
    uint32_t sum = 0;
    for (int64_t id = 0; id < want_ids; id++) {
        uint32_t count = g->start[id];
        g->start[id] = sum;
        sum += count;
    }
    g->start[want_ids] = sum;
    uint32_t *fill = malloc(((size_t)want_ids + 1) * sizeof(*fill));
    if (!fill) {
        free(tmp);
        store_recent_gather_free(g);
        return SQLITE_NOMEM;
    }
    memcpy(fill, g->start, ((size_t)want_ids + 1) * sizeof(*fill));
    for (size_t i = 0; i < n; i++)
        g->v[fill[tmp[i].series]++] = tmp[i].s;
    g->n = n;
    free(fill);
    free(tmp);
    return SQLITE_OK;
}
