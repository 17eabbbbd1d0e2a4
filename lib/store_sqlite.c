/* The SQLite back end of the store: history on disk. See store.h and store_schema.c. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "counter.h"
#include "grow.h"
#include "store_blocks.h"
#include "store_impl.h"
#include "store_recent.h"
#include "store_schema.h"
#include "version.h"

#define DEFAULT_BATCH_SAMPLES 500000
#define DEFAULT_BATCH_AGE_NS 1000000000LL
#define DEFAULT_MERGE_AGE_NS 60000000000LL
/* 96,000 series (50 switches x 64 ports x 30 counters) fill it in ~42 s; a merge's sort and a
 * one-series read's seeks (one per batch) stay bounded */
#define DEFAULT_MERGE_ROWS 4000000
/* the WAL shrinks back to this after a merge's checkpoint */
#define JOURNAL_SIZE_LIMIT "67108864"

struct pending_sample {
    uint32_t series_idx; /* index in the series map */
    int64_t ts;
    uint64_t raw; /* counter reading, or the bits of the gauge */
    bool counter;
};

struct sqlite_store {
    struct dcb_store base;
    sqlite3 *db;
    char path[4096];
    bool readonly;
    bool in_snapshot;   /* store_snapshot_begin's transaction is open */
    int schema_version; /* the database's, as opened (a read-only one may be older) */
    struct series_map map;
    int64_t *db_ids; /* by map index; 0 = not in the database yet */
    /* by map index, valid where db_ids is set: the newest ts stored for the series (INT64_MIN:
     * none). A sample newer than it cannot be in either tier and goes to the recent one. */
    int64_t *last_ts;
    size_t db_ids_cap;
    struct pending_sample *pending;
    size_t npending, pending_cap;
    struct pending_sample *sorted; /* the batch in key order, built at flush */
    uint32_t *latest_rows;         /* where in sorted each series' newest sample is */
    uint32_t *new_rows, *old_rows; /* sorted's rows for the recent tier, for samples */
    size_t sorted_cap;
    size_t *order_start; /* sort_batch's work: by map index, order_cap each */
    struct series_order *order;
    size_t order_cap;
    int64_t *ids_before; /* db_ids as a flush found them, ids_cap */
    size_t ids_before_cap;
    struct dcb_event *pending_events;
    size_t nevents, events_cap;
    uint32_t *widths_said; /* map indices whose width the next flush writes */
    size_t nwidths_said, widths_said_cap;
    int64_t oldest_pending_mono_ns;
    size_t batch_max;
    int64_t batch_age_ns;
    int64_t merge_age_ns;
    int64_t merge_rows;
    bool wrote_samples;     /* a batch of samples committed through this handle */
    struct block_tier tier; /* the main tier */
    struct recent_tier recent;
    struct sample_run old_run; /* a batch's samples of one series */
    int64_t *old_ts;           /* their times, sorted_cap of them */
    sqlite3_stmt *upsert_latest, *upsert_latest_n, *ins_series, *sel_series, *ins_event;
    sqlite3_stmt *upd_bits, *sel_bits;
};

static const struct store_ops sqlite_ops;

static int sq_fail(struct sqlite_store *s, struct dcb_err *err, int rc, const char *what)
{
    int code = DCB_E_IO;
    int primary = rc & 0xff;
    if (primary == SQLITE_READONLY || primary == SQLITE_PERM || primary == SQLITE_AUTH)
        code = DCB_E_PERM;
    else if (primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT)
        code = DCB_E_INVAL;
    else if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED)
        code = DCB_E_TIMEOUT;
    else if (primary == SQLITE_CANTOPEN)
        code = DCB_E_NOTFOUND;
    const char *msg = s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);
    if (primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT)
        return dcb_err_set(err, code, "%s: %s: not a readable dcbkit store (%s)", s->path, what,
                           msg);
    if (primary == SQLITE_CANTOPEN && s->readonly)
        return dcb_err_set(err, code, "%s: no store there (%s)", s->path, msg);
    return dcb_err_set(err, code, "%s: %s: %s", s->path, what, msg);
}

/* An error of the block tier: its own words for a block that does not decode. */
static int tier_fail(struct sqlite_store *s, struct dcb_err *err, int rc, const char *what)
{
    if (rc == SQLITE_NOMEM)
        return dcb_err_set(err, DCB_E_NOMEM, "%s: %s: out of memory", s->path, what);
    char *why = s->tier.why[0] ? s->tier.why : s->recent.why;
    if (rc == SQLITE_CORRUPT && why[0]) {
        int ret = dcb_err_set(err, DCB_E_INVAL, "%s: %s: not a readable dcbkit store (%s)", s->path,
                              what, why);
        why[0] = '\0';
        return ret;
    }
    return sq_fail(s, err, rc, what);
}

static int exec_sql(struct sqlite_store *s, const char *sql, const char *what, struct dcb_err *err)
{
    int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? 0 : sq_fail(s, err, rc, what);
}

/* Switching to WAL takes an exclusive lock, and SQLite gives up at once rather than wait when
 * another process is switching the same new file too (two collectors starting together):
 * retry for as long as the busy timeout would have waited. */
static int set_wal(struct sqlite_store *s, struct dcb_err *err)
{
    int rc = SQLITE_OK;
    for (int tries = 0; tries < 100; tries++) {
        rc = sqlite3_exec(s->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
        if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
            break;
        dcb_sleep_ns(50 * 1000 * 1000, NULL);
    }
    return rc == SQLITE_OK ? 0 : sq_fail(s, err, rc, "setting WAL mode");
}

/* A one-shot statement (the caller finalizes it), unlike prepare's cached ones; a failure says
 * what was being read. */
static int prepare_query(struct sqlite_store *s, const char *sql, sqlite3_stmt **st,
                         const char *what, struct dcb_err *err)
{
    int rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);
    return rc == SQLITE_OK ? 0 : sq_fail(s, err, rc, what);
}

/* The end of a row loop: ret is the callback's verdict, rc the last step's code. */
static int sq_rows_done(struct sqlite_store *s, sqlite3_stmt *st, int rc, int ret, const char *what,
                        struct dcb_err *err)
{
    if (ret == 0 && rc != SQLITE_DONE && rc != SQLITE_ROW)
        ret = sq_fail(s, err, rc, what);
    sqlite3_finalize(st);
    return ret;
}

/* The first column of the first row of sql (a PRAGMA or a count). */
static int pragma_int(struct sqlite_store *s, const char *sql, int64_t *value, struct dcb_err *err)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return sq_fail(s, err, rc, "reading the schema");
    rc = sqlite3_step(st);
    *value = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sq_fail(s, err, rc, "reading the schema");
    return 0;
}

static int prepare(struct sqlite_store *s, sqlite3_stmt **st, const char *sql, struct dcb_err *err)
{
    if (*st)
        return 0;
    int rc = sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL);
    return rc == SQLITE_OK ? 0 : sq_fail(s, err, rc, "preparing a statement");
}

/* Brings the schema to the latest version, or refuses a database this dcbkit cannot read. */
static int migrate(struct sqlite_store *s, struct dcb_err *err)
{
    int64_t version, app_id, tables;
    int rc;
    if ((rc = pragma_int(s, "PRAGMA user_version", &version, err)) < 0 ||
        (rc = pragma_int(s, "PRAGMA application_id", &app_id, err)) < 0 ||
        (rc = pragma_int(s, "SELECT count(*) FROM sqlite_master", &tables, err)) < 0)
        return rc;
    int latest = store_schema_latest();
    if ((app_id != 0 && app_id != STORE_APPLICATION_ID) || (app_id == 0 && tables > 0))
        return dcb_err_set(err, DCB_E_INVAL, "%s: an SQLite database, but not a dcbkit store",
                           s->path);
    if (version > latest)
        return dcb_err_set(err, DCB_E_UNSUPP,
                           "%s: store schema version %lld is newer than this dcbkit (%s) knows "
                           "(%d); upgrade dcbkit",
                           s->path, (long long)version, DCBKIT_VERSION, latest);
    s->schema_version = (int)version;
    if (version == latest || (s->readonly && version >= STORE_SCHEMA_READABLE))
        return 0;
    if (s->readonly)
        return dcb_err_set(err, DCB_E_UNSUPP,
                           "%s: store schema version %lld needs upgrading to %d; open it once "
                           "for writing",
                           s->path, (long long)version, latest);
    if ((rc = exec_sql(s, "BEGIN IMMEDIATE", "upgrading the schema", err)) < 0)
        return rc;
    /* another process may have created or upgraded it while this one waited for the lock */
    if ((rc = pragma_int(s, "PRAGMA user_version", &version, err)) < 0) {
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return rc;
    }
    for (int v = (int)version; v < latest; v++) {
        char bump[64];
        snprintf(bump, sizeof(bump), "PRAGMA user_version = %d", v + 1);
        if ((rc = exec_sql(s, store_schema_migration(v), "upgrading the schema", err)) == 0 &&
            v + 1 == 3) {
            /* the rows of both tiers into blocks and chunks: C makes the bytes */
            int brc = store_block_tier_convert_rows(&s->tier);
            if (brc == SQLITE_OK)
                brc = store_recent_tier_convert_rows(&s->recent);
            rc = brc == SQLITE_OK ? exec_sql(s, "DROP TABLE samples; DROP TABLE samples_recent",
                                             "upgrading the schema", err)
                                  : tier_fail(s, err, brc, "upgrading the schema");
        }
        if (rc < 0 || (rc = exec_sql(s, bump, "upgrading the schema", err)) < 0) {
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
            return rc;
        }
    }
    if ((rc = exec_sql(s, "COMMIT", "upgrading the schema", err)) < 0)
        return rc;
    s->schema_version = latest;
    return 0;
}

int store_open_sqlite(struct dcb_store **out, const struct store_options *opt, struct dcb_err *err)
{
    *out = NULL;
    struct sqlite_store *s = calloc(1, sizeof(*s));
    if (!s)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory opening the store");
    s->base.ops = &sqlite_ops;
    snprintf(s->path, sizeof(s->path), "%s", opt->path ? opt->path : ":memory:");
    s->readonly = opt->readonly;
    s->batch_max = opt->batch_max_samples ? opt->batch_max_samples : DEFAULT_BATCH_SAMPLES;
    s->batch_age_ns = opt->batch_max_age_ns ? opt->batch_max_age_ns : DEFAULT_BATCH_AGE_NS;
    s->merge_age_ns = opt->merge_age_ns > 0 ? opt->merge_age_ns : DEFAULT_MERGE_AGE_NS;
    s->merge_rows = opt->merge_max_rows ? (int64_t)opt->merge_max_rows : DEFAULT_MERGE_ROWS;
    series_map_init(&s->map);

    /* Memory statistics cost a global mutex per allocation; dcbkit never reads them. Only
     * possible before SQLite initialises, so later calls fail harmlessly. */
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    int flags = SQLITE_OPEN_NOMUTEX |
                (s->readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    int rc = sqlite3_open_v2(s->path, &s->db, flags, NULL);
    int ret = 0;
    if (rc != SQLITE_OK) {
        ret = sq_fail(s, err, rc, "opening");
        goto fail;
    }
    sqlite3_extended_result_codes(s->db, 1);
    store_block_tier_init(&s->tier, s->db);
    store_recent_tier_init(&s->recent, s->db);
    sqlite3_busy_timeout(s->db, 5000);
    if (!s->readonly) {
        /* WAL: readers never block the writer and see whole commits only. */
        if ((ret = set_wal(s, err)) < 0)
            goto fail;
        if ((ret = exec_sql(s,
                            opt->durable ? "PRAGMA synchronous = FULL"
                                         : "PRAGMA synchronous = NORMAL",
                            "setting durability", err)) < 0)
            goto fail;
        if ((ret = exec_sql(s, "PRAGMA journal_size_limit = " JOURNAL_SIZE_LIMIT,
                            "limiting the WAL", err)) < 0)
            goto fail;
    }
    if ((ret = exec_sql(s, "PRAGMA cache_size = -65536", "sizing the cache", err)) < 0)
        goto fail;
    if ((ret = migrate(s, err)) < 0)
        goto fail;
    *out = &s->base;
    return 0;
fail:
    store_block_tier_free(&s->tier);
    store_recent_tier_free(&s->recent);
    sqlite3_close(s->db);
    series_map_free(&s->map);
    free(s);
    return ret;
}

static int64_t flush_batch(struct sqlite_store *s, bool merge, struct dcb_err *err);
static int64_t sqlite_flush(struct dcb_store *base, struct dcb_err *err);

static int sqlite_close(struct dcb_store *base, struct dcb_err *err)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    int rc = 0;
    if (!s->readonly && (s->npending || s->nevents || s->nwidths_said || s->wrote_samples)) {
        /* A writer's closed store has an empty recent tier. A handle that wrote no samples
         * (a report's findings, a prune) leaves a running collector's tier alone. */
        int64_t f = flush_batch(s, s->npending || s->wrote_samples, err);
        rc = f < 0 ? (int)f : 0;
    }
    sqlite3_stmt *stmts[] = { s->upsert_latest, s->upsert_latest_n, s->ins_series, s->sel_series,
                              s->ins_event,     s->upd_bits,        s->sel_bits };
    for (size_t i = 0; i < sizeof(stmts) / sizeof(stmts[0]); i++)
        sqlite3_finalize(stmts[i]);
    store_block_tier_free(&s->tier);
    store_recent_tier_free(&s->recent);
    free(s->old_run.v);
    free(s->old_ts);
    sqlite3_close(s->db);
    series_map_free(&s->map);
    free(s->db_ids);
    free(s->last_ts);
    free(s->pending);
    free(s->sorted);
    free(s->latest_rows);
    free(s->new_rows);
    free(s->old_rows);
    free(s->order_start);
    free(s->order);
    free(s->ids_before);
    free(s->pending_events);
    free(s->widths_said);
    free(s);
    return rc;
}

static bool due_for_flush(struct sqlite_store *s)
{
    size_t n = s->npending + s->nevents;
    if (n >= s->batch_max)
        return true;
    /* the clock is read every 64 puts: at collector rates that is well under a millisecond */
    return (n & 63) == 0 && dcb_monotonic_ns() - s->oldest_pending_mono_ns >= s->batch_age_ns;
}

/* After a put: the pending rows written when there are enough of them, or they are old enough. */
static int flush_if_due(struct dcb_store *base, struct dcb_err *err)
{
    if (!due_for_flush((struct sqlite_store *)base))
        return 0;
    int64_t flushed = sqlite_flush(base, err);
    return flushed < 0 ? (int)flushed : 0;
}

static void note_first_pending(struct sqlite_store *s)
{
    if (s->npending == 0 && s->nevents == 0 && s->nwidths_said == 0)
        s->oldest_pending_mono_ns = dcb_monotonic_ns();
}

/* The database id of a series, creating the row if needed (inside the flush transaction). */
static int64_t series_db_id(struct sqlite_store *s, size_t idx, struct dcb_err *err)
{
    if (s->db_ids[idx])
        return s->db_ids[idx];
    const struct series_key *k = &s->map.keys[idx];
    int rc;
    if ((rc = prepare(s, &s->ins_series,
                      "INSERT OR IGNORE INTO series (device, ifname, metric, prio, queue, bits) "
                      "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                      err)) < 0 ||
        (rc = prepare(s, &s->sel_series,
                      "SELECT s.id, l.ts FROM series s LEFT JOIN latest l ON l.series = s.id "
                      "WHERE s.device = ?1 AND s.ifname = ?2 AND s.metric = ?3 "
                      "AND s.prio = ?4 AND s.queue = ?5",
                      err)) < 0)
        return rc;
    sqlite3_stmt *both[] = { s->ins_series, s->sel_series };
    int64_t id = 0, last = INT64_MIN;
    for (int i = 0; i < 2; i++) {
        sqlite3_stmt *st = both[i];
        sqlite3_bind_text(st, 1, k->device, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, k->ifname, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, metric_info(k->metric)->name, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 4, k->prio);
        sqlite3_bind_int(st, 5, k->queue);
        if (st == s->ins_series)
            sqlite3_bind_int(st, 6, k->bits ? k->bits : 64);
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            id = sqlite3_column_int64(st, 0);
            /* latest holds the newest ts of the series in either tier */
            if (sqlite3_column_type(st, 1) != SQLITE_NULL)
                last = sqlite3_column_int64(st, 1);
        }
        sqlite3_reset(st);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return sq_fail(s, err, rc, "adding a series");
    }
    if (id <= 0)
        return dcb_err_set(err, DCB_E_IO, "%s: series row vanished", s->path);
    s->db_ids[idx] = id;
    s->last_ts[idx] = last;
    return id;
}

/* The map index of smp's series, with room for its database id; -1 when out of memory. */
static int64_t series_index(struct sqlite_store *s, const struct dcb_sample *smp)
{
    bool added;
    int64_t idx = series_map_intern(&s->map, smp, &added);
    if (idx < 0)
        return -1;
    if ((size_t)idx >= s->db_ids_cap) {
        size_t cap = s->map.key_cap;
        int64_t *ids = realloc(s->db_ids, cap * sizeof(*ids));
        if (ids)
            s->db_ids = ids;
        int64_t *last = realloc(s->last_ts, cap * sizeof(*last));
        if (last)
            s->last_ts = last;
        if (!ids || !last)
            return -1;
        memset(ids + s->db_ids_cap, 0, (cap - s->db_ids_cap) * sizeof(*ids));
        s->db_ids_cap = cap;
    }
    return idx;
}

/* smp's series in the map (added when new), for a write: an error when the store is read-only
 * or memory ran out. */
static int series_for_write(struct sqlite_store *s, const struct dcb_sample *smp, int64_t *idx,
                            struct dcb_err *err)
{
    if (s->readonly)
        return dcb_err_set(err, DCB_E_PERM, "%s: store opened read-only", s->path);
    *idx = series_index(s, smp);
    if (*idx < 0)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory adding a series");
    return 0;
}

/* Kept in the map at once (this handle's readers see it) and written with the next flush. */
static int sqlite_set_series_width(struct dcb_store *base, const struct dcb_sample *smp,
                                   unsigned bits, struct dcb_err *err)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    int64_t idx;
    int rc = series_for_write(s, smp, &idx, err);
    if (rc)
        return rc;
    struct series_key *k = &s->map.keys[idx];
    if (k->bits == bits)
        return 0;
    if (s->nwidths_said == s->widths_said_cap &&
        dcb_grow(&s->widths_said, &s->widths_said_cap, sizeof(*s->widths_said), 64) < 0)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory keeping a counter's width");
    note_first_pending(s);
    k->bits = (uint8_t)bits;
    s->widths_said[s->nwidths_said++] = (uint32_t)idx;
    return 0;
}

/* The widths said since the last flush into the series rows (created if need be), inside the
 * flush's transaction. */
static int write_widths(struct sqlite_store *s, struct dcb_err *err)
{
    int rc;
    if (s->nwidths_said &&
        (rc = prepare(s, &s->upd_bits, "UPDATE series SET bits = ?1 WHERE id = ?2 AND bits <> ?1",
                      err)) < 0)
        return rc;
    for (size_t i = 0; i < s->nwidths_said; i++) {
        uint32_t idx = s->widths_said[i];
        int64_t id = series_db_id(s, idx, err);
        if (id < 0)
            return (int)id;
        sqlite3_bind_int(s->upd_bits, 1, s->map.keys[idx].bits);
        sqlite3_bind_int64(s->upd_bits, 2, id);
        rc = sqlite3_step(s->upd_bits);
        sqlite3_reset(s->upd_bits);
        if (rc != SQLITE_DONE)
            return sq_fail(s, err, rc, "keeping a counter's width");
    }
    return 0;
}

static int sqlite_put_sample(struct dcb_store *base, const struct dcb_sample *smp,
                             struct dcb_err *err)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    int64_t idx;
    int rc = series_for_write(s, smp, &idx, err);
    if (rc)
        return rc;
    if (s->npending == s->pending_cap &&
        dcb_grow(&s->pending, &s->pending_cap, sizeof(*s->pending), 4096) < 0)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory queueing samples");
    note_first_pending(s);
    struct pending_sample *p = &s->pending[s->npending++];
    p->series_idx = (uint32_t)idx;
    p->ts = smp->time_ns;
    p->counter = metric_info(smp->metric)->kind == METRIC_COUNTER;
    if (p->counter)
        p->raw = smp->value.counter;
    else
        memcpy(&p->raw, &smp->value.gauge, sizeof(p->raw));
    return flush_if_due(base, err);
}

static int sqlite_put_event(struct dcb_store *base, const struct dcb_event *e, struct dcb_err *err)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    if (s->readonly)
        return dcb_err_set(err, DCB_E_PERM, "%s: store opened read-only", s->path);
    if (s->nevents == s->events_cap &&
        dcb_grow(&s->pending_events, &s->events_cap, sizeof(*s->pending_events), 256) < 0)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory queueing events");
    note_first_pending(s);
    s->pending_events[s->nevents++] = *e;
    return flush_if_due(base, err);
}

static int cmp_ts(const void *a, const void *b)
{
    const struct pending_sample *x = a, *y = b;
    return (x->ts > y->ts) - (x->ts < y->ts);
}

struct series_order {
    uint32_t idx;
    int64_t db_id;
};

static int cmp_db_id(const void *a, const void *b)
{
    const struct series_order *x = a, *y = b;
    return (x->db_id > y->db_id) - (x->db_id < y->db_id);
}

/* Puts the batch in (series id, time) order in s->sorted, the order of the samples key, so
 * every B-tree page is visited once, left to right. A stable counting sort by series: samples
 * of one series arrive in time order from collectors, so groups rarely need sorting. */
static int sort_batch(struct sqlite_store *s, struct dcb_err *err)
{
    if (!s->npending)
        return 0; /* a batch of events only */
    size_t nseries = s->map.count;
    if (s->order_cap < nseries + 1) {
        /* kept from batch to batch: 96,000 series made these megabytes of fresh pages a flush */
        size_t cap = s->map.key_cap + 1;
        free(s->order_start);
        free(s->order);
        s->order_start = malloc(cap * sizeof(*s->order_start));
        s->order = malloc(cap * sizeof(*s->order));
        s->order_cap = s->order_start && s->order ? cap : 0;
    }
    size_t *start = s->order_start;
    struct series_order *order = s->order;
    if (s->sorted_cap < s->npending) {
        free(s->sorted);
        free(s->latest_rows);
        free(s->new_rows);
        free(s->old_rows);
        free(s->old_ts);
        s->old_ts = malloc(s->npending * sizeof(*s->old_ts));
        s->sorted = malloc(s->npending * sizeof(*s->sorted));
        s->latest_rows = malloc(s->npending * sizeof(*s->latest_rows));
        s->new_rows = malloc(s->npending * sizeof(*s->new_rows));
        s->old_rows = malloc(s->npending * sizeof(*s->old_rows));
        s->sorted_cap = s->sorted && s->latest_rows && s->new_rows && s->old_rows && s->old_ts
                            ? s->npending
                            : 0;
    }
    if (!s->order_cap || !s->sorted_cap)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory sorting a batch");
    memset(start, 0, (nseries + 1) * sizeof(*start));
    for (size_t i = 0; i < s->npending; i++)
        start[s->pending[i].series_idx]++;
    size_t present = 0;
    bool in_id_order = true;
    for (size_t idx = 0; idx < nseries; idx++) {
        if (!start[idx])
            continue;
        int64_t id = series_db_id(s, idx, err);
        if (id < 0)
            return (int)id;
        order[present].idx = (uint32_t)idx;
        order[present++].db_id = id;
        in_id_order = in_id_order && (present < 2 || order[present - 2].db_id < id);
    }
    /* series get their ids in map order, so this is rare: another writer added some first */
    if (!in_id_order)
        qsort(order, present, sizeof(*order), cmp_db_id);
    size_t offset = 0;
    for (size_t k = 0; k < present; k++) {
        size_t count = start[order[k].idx];
        start[order[k].idx] = offset;
        offset += count;
    }
    for (size_t i = 0; i < s->npending; i++)
        s->sorted[start[s->pending[i].series_idx]++] = s->pending[i];
    for (size_t k = 0, first = 0; k < present; k++) {
        size_t end = start[order[k].idx];
        for (size_t i = first + 1; i < end; i++) {
            if (s->sorted[i].ts < s->sorted[i - 1].ts) {
                qsort(s->sorted + first, end - first, sizeof(*s->sorted), cmp_ts);
                break;
            }
        }
        first = end;
    }
    return 0;
}

static void bind_value(sqlite3_stmt *st, int col, const struct pending_sample *p)
{
    if (p->counter) {
        sqlite3_bind_int64(st, col, (sqlite3_int64)p->raw);
    } else {
        double d;
        memcpy(&d, &p->raw, sizeof(d));
        sqlite3_bind_double(st, col, d);
    }
}

/* The latest table's rows go in ROWS_PER_STEP to a statement: with 96,000 series a batch is
 * 96,000 upserts, and a step's fixed cost (bind, run, halt, reset) was as much as the row's own
 * B-tree work. The rest of a batch goes one row to a statement. */
#define ROWS_PER_STEP 64
#define LATEST_SQL "INSERT INTO latest (series, ts, value) VALUES "
#define LATEST_CONFLICT_SQL                                                         \
    " ON CONFLICT (series) DO UPDATE SET ts = excluded.ts, value = excluded.value " \
    "WHERE excluded.ts >= latest.ts"

/* The latest upsert for rows rows. */
static int prepare_latest(struct sqlite_store *s, sqlite3_stmt **st, int rows, struct dcb_err *err)
{
    if (*st)
        return 0;
    char sql[sizeof(LATEST_SQL LATEST_CONFLICT_SQL) + ROWS_PER_STEP * 12];
    size_t n = (size_t)snprintf(sql, sizeof(sql), "%s", LATEST_SQL);
    for (int i = 0; i < rows; i++)
        n += (size_t)snprintf(sql + n, sizeof(sql) - n, "%s(?, ?, ?)", i ? ", " : "");
    snprintf(sql + n, sizeof(sql) - n, "%s", LATEST_CONFLICT_SQL);
    return prepare(s, st, sql, err);
}

/* Steps st once for the n samples of the sorted batch at rows[first..first+n), binding
 * (series id, ts, value) each. */
static int step_rows(struct sqlite_store *s, sqlite3_stmt *st, const uint32_t *rows, size_t first,
                     size_t n, struct dcb_err *err)
{
    for (size_t i = 0; i < n; i++) {
        const struct pending_sample *p = &s->sorted[rows[first + i]];
        int col = (int)i * 3;
        sqlite3_bind_int64(st, col + 1, s->db_ids[p->series_idx]);
        sqlite3_bind_int64(st, col + 2, p->ts);
        bind_value(st, col + 3, p);
    }
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : sq_fail(s, err, rc, "writing samples");
}

/* Upserts the latest rows of n samples: ROWS_PER_STEP at a time, then one by one. */
static int write_latest(struct sqlite_store *s, const uint32_t *rows, size_t n, struct dcb_err *err)
{
    int rc;
    if ((rc = prepare_latest(s, &s->upsert_latest, 1, err)) < 0 ||
        (rc = prepare_latest(s, &s->upsert_latest_n, ROWS_PER_STEP, err)) < 0)
        return rc;
    size_t i = 0;
    for (; rc == 0 && i + ROWS_PER_STEP <= n; i += ROWS_PER_STEP)
        rc = step_rows(s, s->upsert_latest_n, rows, i, ROWS_PER_STEP, err);
    for (; rc == 0 && i < n; i++)
        rc = step_rows(s, s->upsert_latest, rows, i, 1, err);
    return rc;
}

/* A batch with this many samples per series goes straight into blocks: as full as a merge
 * would make them (a bulk import, a long batch age). */
#define DIRECT_SAMPLES_PER_SERIES 32

/* The samples at rows[*i..n) of the series of rows[*i] into run, in time order (a twin inside
 * the batch: the later put wins, as a replace would); *i moves past them. */
static bool take_run(struct sqlite_store *s, const uint32_t *rows, size_t n, size_t *i,
                     struct sample_run *run)
{
    uint32_t idx = s->sorted[rows[*i]].series_idx;
    run->n = 0;
    for (; *i < n && s->sorted[rows[*i]].series_idx == idx; (*i)++) {
        const struct pending_sample *p = &s->sorted[rows[*i]];
        struct stored_sample smp = { .ts = p->ts,
                                     .raw = p->raw,
                                     .kind = p->counter ? STORED_COUNTER : STORED_GAUGE };
        if (run->n && run->v[run->n - 1].ts == p->ts)
            run->n--;
        if (!store_sample_run_push(run, &smp))
            return false;
    }
    return true;
}

/* The batch's samples newer than everything stored for their series go to the recent tier as
 * one new batch (the common path: an append at the tier's right edge, already in (series, ts)
 * order); the rest (a re-import, a device clock that stepped back) may have a twin in either
 * tier and replace it in the main tier's blocks. nseries: the series in the batch. */
static int write_samples(struct sqlite_store *s, size_t nseries, struct dcb_err *err)
{
    size_t nnew = 0, nold = 0;
    int64_t ts_min = INT64_MAX, ts_max = INT64_MIN;
    bool direct = s->npending >= DIRECT_SAMPLES_PER_SERIES * nseries;
    for (size_t i = 0; i < s->npending; i++) {
        const struct pending_sample *p = &s->sorted[i];
        if (!direct && p->ts > s->last_ts[p->series_idx]) {
            s->new_rows[nnew++] = (uint32_t)i;
            ts_min = p->ts < ts_min ? p->ts : ts_min;
            ts_max = p->ts > ts_max ? p->ts : ts_max;
        } else {
            s->old_rows[nold++] = (uint32_t)i;
        }
    }
    int rc = SQLITE_OK;
    if (nnew)
        rc = store_recent_batch_begin(&s->recent, ts_min, ts_max, (int64_t)nnew);
    for (size_t i = 0; rc == SQLITE_OK && i < nnew;) {
        int64_t id = s->db_ids[s->sorted[s->new_rows[i]].series_idx];
        rc = take_run(s, s->new_rows, nnew, &i, &s->old_run)
                 ? store_recent_batch_add(&s->recent, id, s->old_run.v, s->old_run.n)
                 : SQLITE_NOMEM;
    }
    if (rc == SQLITE_OK && nnew)
        rc = store_recent_batch_end(&s->recent);
    /* old_rows is in (series, ts) order: one run per series; a twin in the recent tier
     * (newer than the series' stored samples cannot have one) goes, the run replaces any in
     * the blocks */
    for (size_t i = 0; rc == SQLITE_OK && i < nold;) {
        uint32_t idx = s->sorted[s->old_rows[i]].series_idx;
        if (!take_run(s, s->old_rows, nold, &i, &s->old_run)) {
            rc = SQLITE_NOMEM;
            break;
        }
        int64_t *ts = s->old_ts;
        size_t nts = 0;
        for (size_t k = 0; k < s->old_run.n && s->old_run.v[k].ts <= s->last_ts[idx]; k++)
            ts[nts++] = s->old_run.v[k].ts;
        rc = store_recent_tier_remove(&s->recent, s->db_ids[idx], ts, nts);
        if (rc == SQLITE_OK)
            rc = store_block_tier_put(&s->tier, s->db_ids[idx], s->old_run.v, s->old_run.n);
    }
    return rc == SQLITE_OK ? 0 : tier_fail(s, err, rc, "writing samples");
}

static int write_batch(struct sqlite_store *s, struct dcb_err *err)
{
    int rc;
    if ((rc = prepare(s, &s->ins_event,
                      "INSERT INTO events (ts, kind, device, ifname, prio, details) "
                      "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                      err)) < 0)
        return rc;
    if ((rc = sort_batch(s, err)) < 0)
        return rc;
    /* every sample in order, then the newest of each series (the last of its run) */
    size_t nlatest = 0;
    for (size_t i = 0; i < s->npending; i++) {
        if (i + 1 == s->npending || s->sorted[i + 1].series_idx != s->sorted[i].series_idx)
            s->latest_rows[nlatest++] = (uint32_t)i;
    }
    if ((rc = write_samples(s, nlatest, err)) < 0 ||
        (rc = write_latest(s, s->latest_rows, nlatest, err)) < 0 || (rc = write_widths(s, err)) < 0)
        return rc;
    for (size_t i = 0; i < s->nevents; i++) {
        const struct dcb_event *e = &s->pending_events[i];
        sqlite3_stmt *st = s->ins_event;
        sqlite3_bind_int64(st, 1, e->time_ns);
        sqlite3_bind_text(st, 2, dcb_event_kind_name(e->kind), -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, e->device, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, e->ifname, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 5, e->prio);
        sqlite3_bind_text(st, 6, e->details, -1, SQLITE_STATIC);
        rc = sqlite3_step(st);
        sqlite3_reset(st);
        if (rc != SQLITE_DONE)
            return sq_fail(s, err, rc, "writing events");
    }
    return 0;
}

/* Moves the recent tier into the main tier's blocks when it spans the merge age or holds the row
 * cap (or always, with force), inside the caller's transaction. The tier's size is read from
 * recent_batches (a row a batch), so it is right after a crash, a prune or another writer. */
static int maybe_merge(struct sqlite_store *s, bool force, struct dcb_err *err)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
                                "SELECT count(*), total(rows), min(ts_min), max(ts_max) "
                                "FROM recent_batches",
                                -1, &st, NULL);
    if (rc != SQLITE_OK)
        return sq_fail(s, err, rc, "merging the recent samples");
    rc = sqlite3_step(st);
    int64_t batches = 0, rows = 0, span = 0;
    if (rc == SQLITE_ROW) {
        batches = sqlite3_column_int64(st, 0);
        rows = (int64_t)sqlite3_column_double(st, 1);
        /* the same clock's nanoseconds: no overflow short of the ends of int64 */
        double d = (double)sqlite3_column_int64(st, 3) - (double)sqlite3_column_int64(st, 2);
        span = d > 9e18 ? INT64_MAX : (int64_t)d;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        return sq_fail(s, err, rc, "merging the recent samples");
    if (!batches || (!force && rows < s->merge_rows && span < s->merge_age_ns))
        return 0;
    int64_t moved;
    rc = store_recent_tier_merge(&s->recent, &s->tier, &moved);
    return rc == SQLITE_OK ? 0 : tier_fail(s, err, rc, "merging the recent samples");
}

static int64_t flush_batch(struct sqlite_store *s, bool force_merge, struct dcb_err *err)
{
    if (s->npending == 0 && s->nevents == 0 && s->nwidths_said == 0 && !force_merge)
        return 0;
    int rc = exec_sql(s, "BEGIN IMMEDIATE", "starting a batch", err);
    if (rc < 0)
        return rc;
    /* Series rows created in a batch that rolls back are forgotten with it. */
    size_t known_series = s->map.count;
    if (s->ids_before_cap < known_series + 1) {
        free(s->ids_before);
        s->ids_before = malloc((s->map.key_cap + 1) * sizeof(int64_t));
        s->ids_before_cap = s->ids_before ? s->map.key_cap + 1 : 0;
    }
    int64_t *ids_before = s->ids_before;
    if (!ids_before) {
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory writing a batch");
    }
    if (known_series) /* db_ids is NULL before the first series */
        memcpy(ids_before, s->db_ids, known_series * sizeof(int64_t));
    rc = write_batch(s, err);
    if (rc == 0)
        rc = maybe_merge(s, force_merge, err);
    if (rc == 0)
        rc = exec_sql(s, "COMMIT", "committing a batch", err);
    if (rc < 0) {
        /* Nothing is lost: the batch stays pending, untouched, for a later flush. */
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        if (known_series)
            memcpy(s->db_ids, ids_before, known_series * sizeof(int64_t));
        return rc;
    }
    for (size_t i = 0; i < s->npending; i++) {
        const struct pending_sample *p = &s->sorted[i];
        if (p->ts > s->last_ts[p->series_idx])
            s->last_ts[p->series_idx] = p->ts;
    }
    int64_t committed = (int64_t)s->npending;
    s->wrote_samples = s->wrote_samples || committed > 0;
    s->npending = 0;
    s->nevents = 0;
    s->nwidths_said = 0;
    return committed;
}

static int64_t sqlite_flush(struct dcb_store *base, struct dcb_err *err)
{
    return flush_batch((struct sqlite_store *)base, false, err);
}

static int64_t sqlite_pending(const struct dcb_store *base)
{
    const struct sqlite_store *s = (const struct sqlite_store *)base;
    return (int64_t)(s->npending + s->nevents);
}

/* One-shot write: prepare, bind from an array of text/int values, step, finalize. */
struct bind_value {
    const char *text; /* used when non-NULL */
    int64_t num;
    bool null;
};

static int exec_bound(struct sqlite_store *s, const char *sql, const struct bind_value *v, int n,
                      const char *what, int64_t *rowid, struct dcb_err *err)
{
    if (s->readonly)
        return dcb_err_set(err, DCB_E_PERM, "%s: store opened read-only", s->path);
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return sq_fail(s, err, rc, what);
    for (int i = 0; i < n; i++) {
        if (v[i].null)
            sqlite3_bind_null(st, i + 1);
        else if (v[i].text)
            sqlite3_bind_text(st, i + 1, v[i].text, -1, SQLITE_STATIC);
        else
            sqlite3_bind_int64(st, i + 1, v[i].num);
    }
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return sq_fail(s, err, rc, what);
    if (rowid)
        *rowid = sqlite3_last_insert_rowid(s->db);
    return 0;
}

static int sqlite_put_config(struct dcb_store *base, const struct store_config_row *c,
                             struct dcb_err *err)
{
    struct bind_value v[] = {
        { NULL, c->time_ns, false },
        { c->device ? c->device : "", 0, false },
        { c->ifname ? c->ifname : "", 0, false },
        { c->source ? c->source : "", 0, false },
        { c->json ? c->json : "{}", 0, false },
    };
    return exec_bound((struct sqlite_store *)base,
                      "INSERT INTO config_snapshots (ts, device, ifname, source, config) "
                      "VALUES (?1, ?2, ?3, ?4, ?5)",
                      v, 5, "writing a config snapshot", NULL, err);
}

static int sqlite_begin_run(struct dcb_store *base, const char *command, const char *source,
                            int64_t time_ns, int64_t *run_id, struct dcb_err *err)
{
    char host[256] = "";
    gethostname(host, sizeof(host) - 1);
    struct bind_value v[] = {
        { NULL, time_ns, false },
        { command ? command : "", 0, false },
        { source ? source : "", 0, false },
        { DCBKIT_VERSION, 0, false },
        { host, 0, false },
    };
    return exec_bound((struct sqlite_store *)base,
                      "INSERT INTO runs (started_ns, command, source, version, host) "
                      "VALUES (?1, ?2, ?3, ?4, ?5)",
                      v, 5, "recording a run", run_id, err);
}

static int sqlite_end_run(struct dcb_store *base, int64_t run_id, int64_t time_ns,
                          struct dcb_err *err)
{
    struct bind_value v[] = { { NULL, time_ns, false }, { NULL, run_id, false } };
    return exec_bound((struct sqlite_store *)base, "UPDATE runs SET ended_ns = ?1 WHERE id = ?2", v,
                      2, "recording a run", NULL, err);
}

static int sqlite_put_finding(struct dcb_store *base, const struct store_finding_row *f,
                              struct dcb_err *err)
{
    struct bind_value v[] = {
        { NULL, f->run_id, f->run_id <= 0 },
        { NULL, f->time_ns, false },
        { f->rule ? f->rule : "", 0, false },
        { f->severity ? f->severity : "", 0, false },
        { f->device ? f->device : "", 0, false },
        { f->ifname ? f->ifname : "", 0, false },
        { NULL, f->prio, false },
        { f->json ? f->json : "{}", 0, false },
    };
    return exec_bound((struct sqlite_store *)base,
                      "INSERT INTO findings (run, ts, rule, severity, device, ifname, prio, "
                      "finding) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                      v, 8, "writing a finding", NULL, err);
}

/* ---- reads ---------------------------------------------------------------------------- */

#define SERIES_FILTER_SQL                                                  \
    "(?1 IS NULL OR s.device = ?1) AND (?2 IS NULL OR s.ifname = ?2) AND " \
    "(?3 IS NULL OR s.metric = ?3) AND (?4 = -2 OR s.prio = ?4) AND (?5 = -2 OR s.queue = ?5)"

static void bind_filter(sqlite3_stmt *st, const struct store_filter *f)
{
    sqlite3_bind_text(st, 1, f->device, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, f->ifname, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, f->metric, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, f->prio);
    sqlite3_bind_int(st, 5, f->queue);
}

/* A stored sample as the metric reads it: counters' raw readings, gauges' values; a gauge
 * stored as an integer (by an older writer or by hand) is converted. */
static void stored_to_value(const struct stored_sample *smp, bool gauge, struct dcb_sample *out)
{
    out->time_ns = smp->ts;
    if (smp->kind == STORED_COUNTER && gauge)
        out->value.gauge = (double)(int64_t)smp->raw;
    else if (smp->kind == STORED_COUNTER)
        out->value.counter = smp->raw;
    else
        memcpy(&out->value.gauge, &smp->raw, sizeof(double));
}

/* The latest table's rows as samples. Columns: device, ifname, metric, prio, queue, ts,
 * value. The metric name is looked up once per run of rows; a metric this dcbkit does not know
 * (written by a newer one) is skipped: not ours to interpret. Finalizes st. */
static int walk_latest_rows(struct sqlite_store *s, sqlite3_stmt *st, store_sample_cb cb, void *arg,
                            struct dcb_err *err)
{
    char last_metric[64] = "";
    enum metric_id metric = METRIC_NONE;
    int rc, ret = 0;
    while (ret == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *mname = (const char *)sqlite3_column_text(st, 2);
        if (!mname)
            continue;
        if (strcmp(mname, last_metric) != 0) {
            snprintf(last_metric, sizeof(last_metric), "%s", mname);
            metric = metric_lookup(mname);
        }
        if (metric == METRIC_NONE)
            continue;
        struct dcb_sample smp;
        dcb_sample_set(&smp, 0, (const char *)sqlite3_column_text(st, 0),
                       (const char *)sqlite3_column_text(st, 1), metric, sqlite3_column_int(st, 3),
                       sqlite3_column_int(st, 4));
        struct stored_sample v = store_sample_from_columns(st, 5);
        stored_to_value(&v, metric_info(metric)->kind == METRIC_GAUGE, &smp);
        ret = cb(&smp, arg);
    }
    if (ret == 0 && rc != SQLITE_DONE)
        ret = sq_fail(s, err, rc, "reading latest values");
    sqlite3_finalize(st);
    return ret;
}

/* Reads of both tiers run in one read transaction, so a merge committed between them can
 * neither hide samples nor show them twice. Nested in a caller's transaction, theirs is it. */
static int read_begin(struct sqlite_store *s, bool *owned, struct dcb_err *err)
{
    *owned = sqlite3_get_autocommit(s->db) != 0;
    return *owned ? exec_sql(s, "BEGIN", "starting a read", err) : 0;
}

static void read_end(struct sqlite_store *s, bool owned)
{
    if (owned)
        sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
}

static int sqlite_snapshot_begin(struct dcb_store *base, struct dcb_err *err)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    if (s->in_snapshot)
        return 0;
    if (read_begin(s, &s->in_snapshot, err) < 0)
        return -1;
    /* BEGIN is deferred: the snapshot is taken at the first read, so take it now */
    if (!s->in_snapshot ||
        exec_sql(s, "SELECT 1 FROM sqlite_master LIMIT 1", "starting a read", err) >= 0)
        return 0;
    read_end(s, true);
    s->in_snapshot = false;
    return -1;
}

static void sqlite_snapshot_end(struct dcb_store *base)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    read_end(s, s->in_snapshot);
    s->in_snapshot = false;
}

static int sqlite_latest(struct dcb_store *base, const struct store_filter *f, store_sample_cb cb,
                         void *arg, struct dcb_err *err)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    sqlite3_stmt *st;
    int rc = prepare_query(s,
                           "SELECT s.device, s.ifname, s.metric, s.prio, s.queue, l.ts, "
                           "l.value FROM series s CROSS JOIN latest l ON l.series = s.id "
                           "WHERE " SERIES_FILTER_SQL " AND l.ts BETWEEN ?6 AND ?7 "
                           "ORDER BY s.device, s.ifname, s.metric, s.prio, s.queue",
                           &st, "reading latest values", err);
    if (rc)
        return rc;
    bind_filter(st, f);
    sqlite3_bind_int64(st, 6, f->t0);
    sqlite3_bind_int64(st, 7, f->t1);
    return walk_latest_rows(s, st, cb, arg, err);
}

typedef int (*stored_cb)(const struct stored_sample *smp, void *arg);

/* One series' samples in [t0, t1] from both tiers in time order, to cb; a recent sample
 * replaces a main-tier one at the same time (as a merge would). A non-zero cb stops the walk
 * and is returned. Runs inside the caller's read transaction. */
/* Where walk_series takes a series' recent samples from: its own cursor, or a slice that
 * store_recent_tier_gather made for many series at once. */
struct recent_source {
    struct recent_cursor cur;
    const struct stored_sample *v;
    size_t n, i;
    bool slice;
};

static bool recent_source_next(struct recent_source *r, struct stored_sample *out)
{
    if (!r->slice)
        return store_recent_cursor_next(&r->cur, out);
    if (r->i == r->n)
        return false;
    *out = r->v[r->i++];
    return true;
}

/* slice: the series' gathered recent samples, or NULL to read them with a cursor. */
static int walk_series(struct sqlite_store *s, int64_t series, int64_t t0, int64_t t1,
                       const struct stored_sample *slice, size_t nslice, stored_cb cb, void *arg,
                       struct dcb_err *err)
{
    struct block_cursor c;
    struct recent_source r = { .v = slice, .n = nslice, .slice = slice != NULL };
    int rc = store_block_cursor_open(&c, &s->tier, series, t0, t1);
    if (rc == SQLITE_OK && !r.slice &&
        (rc = store_recent_cursor_open(&r.cur, &s->recent, series, t0, t1)) != SQLITE_OK)
        store_block_cursor_close(&c);
    if (rc != SQLITE_OK)
        return tier_fail(s, err, rc, "reading samples");
    struct stored_sample a, b;
    bool has_a = store_block_cursor_next(&c, &a), has_b = recent_source_next(&r, &b);
    int ret = 0;
    while (ret == 0 && (has_a || has_b)) {
        if (has_b && (!has_a || b.ts <= a.ts)) {
            if (has_a && a.ts == b.ts)
                has_a = store_block_cursor_next(&c, &a);
            ret = cb(&b, arg);
            has_b = recent_source_next(&r, &b);
        } else {
            ret = cb(&a, arg);
            has_a = store_block_cursor_next(&c, &a);
        }
    }
    if (ret == 0 && c.w.rc != SQLITE_DONE && c.w.rc != SQLITE_ROW)
        ret = tier_fail(s, err, c.w.rc, "reading samples");
    else if (ret == 0 && !r.slice && r.cur.w.rc != SQLITE_DONE && r.cur.w.rc != SQLITE_ROW)
        ret = tier_fail(s, err, r.cur.w.rc, "reading samples");
    store_block_cursor_close(&c);
    if (!r.slice)
        store_recent_cursor_close(&r.cur);
    return ret;
}

struct range_walk {
    struct dcb_sample smp; /* the series' key; time and value set per sample */
    bool gauge;
    store_sample_cb cb;
    void *arg;
};

static int range_step(const struct stored_sample *smp, void *arg)
{
    struct range_walk *w = arg;
    stored_to_value(smp, w->gauge, &w->smp);
    return w->cb(&w->smp, w->arg);
}

/* A range over at least this many series reads the recent tier batch by batch (one pass over
 * the window's chunks) when the window holds at most GATHER_MAX_SAMPLES there; fewer series,
 * or more samples, read it series by series (a lookup per series per batch, no buffer). */
#define GATHER_MIN_SERIES 64
#define GATHER_MAX_SAMPLES 2000000

/* The ids of the series the filter matches, in increasing order: *ids (malloc'd), *n. */
static int filter_ids(struct sqlite_store *s, const struct store_filter *f, int64_t **ids,
                      size_t *n)
{
    *ids = NULL;
    *n = 0;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
                                "SELECT id FROM series s WHERE " SERIES_FILTER_SQL " ORDER BY id",
                                -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    bind_filter(st, f);
    rc = store_stmt_collect_int64(st, 1, ids, n);
    sqlite3_finalize(st);
    return rc;
}

/* The recent samples of many series at once (see store_recent_tier_gather), for ids (sorted);
 * *gathered false when there are too many in the window: then each series reads its own. */
static int gather_recent(struct sqlite_store *s, const int64_t *ids, size_t n, int64_t t0,
                         int64_t t1, struct recent_gather *g, int64_t *want_ids, bool *gathered)
{
    *gathered = false;
    *want_ids = 0;
    if (n < GATHER_MIN_SERIES || ids[n - 1] < 0 || ids[n - 1] >= INT32_MAX)
        return SQLITE_OK;
    *want_ids = ids[n - 1] + 1;
    uint8_t *want = calloc((size_t)(*want_ids + 7) / 8, 1);
    if (!want)
        return SQLITE_NOMEM;
    for (size_t i = 0; i < n; i++)
        if (ids[i] >= 0)
            want[ids[i] >> 3] |= (uint8_t)(1u << (ids[i] & 7));
    int rc = store_recent_tier_gather(&s->recent, want, *want_ids, t0, t1, GATHER_MAX_SAMPLES, g);
    free(want);
    *gathered = rc == SQLITE_OK;
    return rc == SQLITE_TOOBIG ? SQLITE_OK : rc;
}

static int sqlite_range(struct dcb_store *base, const struct store_filter *f, store_sample_cb cb,
                        void *arg, struct dcb_err *err)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    bool owned;
    int rc = read_begin(s, &owned, err);
    if (rc < 0)
        return rc;
    int64_t *ids = NULL, want_ids = 0;
    size_t nids = 0;
    struct recent_gather g = { 0 };
    bool gathered = false;
    sqlite3_stmt *st = NULL;
    if ((rc = filter_ids(s, f, &ids, &nids)) == SQLITE_OK &&
        (rc = gather_recent(s, ids, nids, f->t0, f->t1, &g, &want_ids, &gathered)) == SQLITE_OK)
        rc = sqlite3_prepare_v2(s->db,
                                "SELECT device, ifname, metric, prio, queue FROM series "
                                "WHERE id = ?1",
                                -1, &st, NULL);
    int ret = rc == SQLITE_OK ? 0 : tier_fail(s, err, rc, "reading samples");
    struct range_walk w = { .cb = cb, .arg = arg };
    for (size_t i = 0; ret == 0 && i < nids; i++) {
        int64_t id = ids[i];
        sqlite3_bind_int64(st, 1, id);
        if ((rc = sqlite3_step(st)) != SQLITE_ROW) {
            ret = sq_fail(s, err, rc == SQLITE_DONE ? SQLITE_CORRUPT : rc, "reading samples");
            break;
        }
        enum metric_id metric = metric_lookup((const char *)sqlite3_column_text(st, 2));
        if (metric != METRIC_NONE) { /* else written by a newer dcbkit: not ours to read */
            dcb_sample_set(&w.smp, 0, (const char *)sqlite3_column_text(st, 0),
                           (const char *)sqlite3_column_text(st, 1), metric,
                           sqlite3_column_int(st, 3), sqlite3_column_int(st, 4));
            w.gauge = metric_info(metric)->kind == METRIC_GAUGE;
        }
        sqlite3_reset(st);
        if (metric == METRIC_NONE)
            continue;
        bool in_gather = gathered && id >= 0 && id < want_ids;
        const struct stored_sample *slice = in_gather ? g.v + g.start[id] : NULL;
        size_t nslice = in_gather ? g.start[id + 1] - g.start[id] : 0;
        ret = walk_series(s, id, f->t0, f->t1, slice, nslice, range_step, &w, err);
    }
    sqlite3_finalize(st);
    free(ids);
    store_recent_gather_free(&g);
    read_end(s, owned);
    return ret;
}

/* The width this handle said for a series and has perhaps not flushed yet; 0: none said. */
static unsigned said_width(const struct sqlite_store *s, const char *device, const char *ifname,
                           enum metric_id metric, int prio, int queue)
{
    int64_t idx = series_map_find(&s->map, device, ifname, metric, prio, queue);
    return idx < 0 ? 0 : s->map.keys[idx].bits;
}

static unsigned sqlite_series_width(struct dcb_store *base, const char *device, const char *ifname,
                                    enum metric_id metric, int prio, int queue)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    unsigned bits = said_width(s, device, ifname, metric, prio, queue);
    if (bits || s->schema_version < STORE_SCHEMA_WIDTHS || metric == METRIC_NONE ||
        prepare(s, &s->sel_bits,
                "SELECT bits FROM series WHERE device = ?1 AND ifname = ?2 "
                "AND metric = ?3 AND prio = ?4 AND queue = ?5",
                NULL) < 0)
        return bits;
    sqlite3_stmt *st = s->sel_bits;
    sqlite3_bind_text(st, 1, device, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, ifname, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, metric_info(metric)->name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, prio);
    sqlite3_bind_int(st, 5, queue);
    if (sqlite3_step(st) == SQLITE_ROW)
        bits = (unsigned)sqlite3_column_int(st, 0);
    sqlite3_reset(st);
    return bits;
}

/* One series' aggregate, over what walk_series hands out: the ring's rules (store_ring.c),
 * counters' steps as store_delta takes them (counter_step at the series' width). */
struct agg_walk {
    bool gauge;
    unsigned bits;
    uint64_t n, prev;
    double sum, mn, mx, last, delta;
    int64_t first_ts, last_ts, busy_ns, reset_ns;
};

static int agg_step(const struct stored_sample *smp, void *arg)
{
    struct agg_walk *w = arg;
    double v;
    uint64_t reading;
    if (smp->kind == STORED_COUNTER) {
        reading = smp->raw;
        v = w->gauge ? (double)(int64_t)smp->raw : (double)smp->raw;
    } else {
        memcpy(&v, &smp->raw, sizeof(v));
        if (isnan(v))
            return 0; /* a gauge with no reading (as SQL's NULL was) */
        /* a counter's steps from a gauge only by mistake: clamped, never undefined */
        reading = v <= 0 ? 0 : v >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)v;
    }
    if (w->n == 0) {
        w->first_ts = smp->ts;
        w->mn = w->mx = v;
    } else {
        uint64_t step;
        if (!counter_step(w->prev, reading, w->bits, &step)) {
            w->reset_ns += smp->ts - w->last_ts; /* a reset: its interval counts nothing */
        } else {
            w->delta += (double)step;
            if (step && smp->ts > w->last_ts)
                w->busy_ns += smp->ts - w->last_ts;
        }
    }
    w->mn = v < w->mn ? v : w->mn;
    w->mx = v > w->mx ? v : w->mx;
    w->sum += v;
    w->last = v;
    w->last_ts = smp->ts;
    w->prev = reading;
    w->n++;
    return 0;
}

static int sqlite_aggregate(struct dcb_store *base, const struct store_filter *f,
                            enum store_agg agg, double *out, struct dcb_err *err)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    sqlite3_stmt *st;
    int rc =
        sqlite3_prepare_v2(s->db,
                           s->schema_version >= STORE_SCHEMA_WIDTHS
                               ? "SELECT id, bits FROM series WHERE device = ?1 AND ifname = ?2 "
                                 "AND metric = ?3 AND prio = ?4 AND queue = ?5"
                               : "SELECT id, 64 FROM series WHERE device = ?1 AND ifname = ?2 "
                                 "AND metric = ?3 AND prio = ?4 AND queue = ?5",
                           -1, &st, NULL);
    if (rc != SQLITE_OK)
        return sq_fail(s, err, rc, "finding a series");
    sqlite3_bind_text(st, 1, f->device, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, f->ifname, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, f->metric, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, f->prio);
    sqlite3_bind_int(st, 5, f->queue);
    rc = sqlite3_step(st);
    int64_t id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    unsigned bits = rc == SQLITE_ROW ? (unsigned)sqlite3_column_int(st, 1) : 64;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sq_fail(s, err, rc, "finding a series");
    if (id < 0)
        return 0;
    enum metric_id metric = f->metric ? metric_lookup(f->metric) : METRIC_NONE;
    unsigned said = metric == METRIC_NONE
                        ? 0
                        : said_width(s, f->device, f->ifname, metric, f->prio, f->queue);
    struct agg_walk w = { .gauge = metric != METRIC_NONE &&
                                   metric_info(metric)->kind == METRIC_GAUGE,
                          .bits = said ? said : bits };
    bool owned;
    if ((rc = read_begin(s, &owned, err)) < 0)
        return rc;
    rc = walk_series(s, id, f->t0, f->t1, NULL, 0, agg_step, &w, err);
    read_end(s, owned);
    if (rc < 0)
        return rc;
    if (!w.n)
        return 0;
    switch (agg) {
    case STORE_AGG_DELTA:
    case STORE_AGG_RATE:
        if (w.n < 2 || (agg == STORE_AGG_RATE && w.last_ts - w.first_ts - w.reset_ns <= 0))
            return 0;
        *out = agg == STORE_AGG_DELTA
                   ? w.delta
                   : w.delta * 1e9 / (double)(w.last_ts - w.first_ts - w.reset_ns);
        return 1;
    case STORE_AGG_BUSY_RATE:
        if (w.busy_ns <= 0)
            return 0;
        *out = w.delta * 1e9 / (double)w.busy_ns;
        return 1;
    case STORE_AGG_AVG: *out = w.sum / (double)w.n; break;
    case STORE_AGG_MAX: *out = w.mx; break;
    case STORE_AGG_MIN: *out = w.mn; break;
    case STORE_AGG_LAST: *out = w.last; break;
    }
    return 1;
}

static int sqlite_events(struct dcb_store *base, const struct store_filter *f, const char *kind,
                         store_event_cb cb, void *arg, struct dcb_err *err)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    sqlite3_stmt *st;
    int rc = prepare_query(s,
                           "SELECT ts, kind, device, ifname, prio, details FROM events "
                           "WHERE ts BETWEEN ?1 AND ?2 AND (?3 IS NULL OR kind = ?3) AND "
                           "(?4 IS NULL OR device = ?4) AND (?5 IS NULL OR ifname = ?5) AND "
                           "(?6 = -2 OR prio = ?6) ORDER BY ts, id",
                           &st, "reading events", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, f->t0);
    sqlite3_bind_int64(st, 2, f->t1);
    sqlite3_bind_text(st, 3, kind, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, f->device, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, f->ifname, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 6, f->prio);
    int ret = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct dcb_event e;
        dcb_event_set(&e, sqlite3_column_int64(st, 0),
                      dcb_event_kind_lookup((const char *)sqlite3_column_text(st, 1)),
                      (const char *)sqlite3_column_text(st, 2),
                      (const char *)sqlite3_column_text(st, 3), sqlite3_column_int(st, 4),
                      (const char *)sqlite3_column_text(st, 5));
        if ((ret = cb(&e, arg)) != 0)
            break;
    }
    return sq_rows_done(s, st, rc, ret, "reading events", err);
}

static int sqlite_configs(struct dcb_store *base, const char *device, const char *ifname,
                          int64_t t1, store_config_cb cb, void *arg, struct dcb_err *err)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    sqlite3_stmt *st;
    int rc = prepare_query(s,
                           "SELECT c.ts, c.device, c.ifname, c.source, c.config "
                           "FROM config_snapshots c JOIN ("
                           "  SELECT device, ifname, source, max(ts) AS ts "
                           "  FROM config_snapshots WHERE ts <= ?1 AND "
                           "  (?2 IS NULL OR device = ?2) AND (?3 IS NULL OR ifname = ?3) "
                           "  GROUP BY device, ifname, source) n "
                           "ON c.device = n.device AND c.ifname = n.ifname AND "
                           "c.source = n.source AND c.ts = n.ts "
                           "ORDER BY c.device, c.ifname, c.source, c.id DESC",
                           &st, "reading config snapshots", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, t1);
    sqlite3_bind_text(st, 2, device, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, ifname, -1, SQLITE_STATIC);
    int ret = 0;
    char last[3 * 256 + 3] = "";
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct store_config_row row = {
            sqlite3_column_int64(st, 0),
            (const char *)sqlite3_column_text(st, 1),
            (const char *)sqlite3_column_text(st, 2),
            (const char *)sqlite3_column_text(st, 3),
            (const char *)sqlite3_column_text(st, 4),
        };
        char key[sizeof(last)];
        snprintf(key, sizeof(key), "%.255s|%.255s|%.255s", row.device, row.ifname, row.source);
        if (!strcmp(key, last))
            continue; /* two snapshots in the same nanosecond */
        memcpy(last, key, sizeof(last));
        if ((ret = cb(&row, arg)) != 0)
            break;
    }
    return sq_rows_done(s, st, rc, ret, "reading config snapshots", err);
}

static int sqlite_findings(struct dcb_store *base, int64_t run_id, store_finding_cb cb, void *arg,
                           struct dcb_err *err)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    sqlite3_stmt *st;
    int rc = prepare_query(s,
                           "SELECT run, ts, rule, severity, device, ifname, prio, finding "
                           "FROM findings WHERE run = ?1 ORDER BY id",
                           &st, "reading findings", err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, run_id);
    int ret = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct store_finding_row f = {
            sqlite3_column_int64(st, 0),
            sqlite3_column_int64(st, 1),
            (const char *)sqlite3_column_text(st, 2),
            (const char *)sqlite3_column_text(st, 3),
            (const char *)sqlite3_column_text(st, 4),
            (const char *)sqlite3_column_text(st, 5),
            sqlite3_column_int(st, 6),
            (const char *)sqlite3_column_text(st, 7),
        };
        if ((ret = cb(&f, arg)) != 0)
            break;
    }
    return sq_rows_done(s, st, rc, ret, "reading findings", err);
}

static int sqlite_last_run(struct dcb_store *base, const char *command, const char *source,
                           int64_t before_ns, int64_t *run_id, int64_t *started_ns,
                           struct dcb_err *err)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    sqlite3_stmt *st;
    int rc = prepare_query(s,
                           "SELECT id, started_ns FROM runs WHERE command = ?1 AND "
                           "source = ?2 AND started_ns < ?3 "
                           "ORDER BY started_ns DESC, id DESC LIMIT 1",
                           &st, "reading runs", err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, command, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, source, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, before_ns);
    int ret = 0;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *run_id = sqlite3_column_int64(st, 0);
        *started_ns = sqlite3_column_int64(st, 1);
        ret = 1;
    } else if (rc != SQLITE_DONE) {
        ret = sq_fail(s, err, rc, "reading runs");
    }
    sqlite3_finalize(st);
    return ret;
}

static int sqlite_info(struct dcb_store *base, struct store_info *info, struct dcb_err *err)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    info->backend = "sqlite";
    info->schema_version = s->schema_version;
    /* One read transaction, so the counts agree with each other. */
    bool owned;
    int rc = read_begin(s, &owned, err);
    if (rc < 0)
        return rc;
    int64_t v[9];
    const char *queries[] = {
        "SELECT count(*) FROM series",
        "SELECT (SELECT total(n) FROM sample_blocks) + (SELECT total(n) FROM recent_chunks)",
        "SELECT count(*) FROM events",
        "SELECT count(*) FROM config_snapshots",
        "SELECT count(*) FROM findings",
        "SELECT count(*) FROM runs",
        /* a sample's twin re-imported into blocks leaves the same (series, ts) behind, so a
         * batch's ts_min stays the tier's true oldest */
        ("SELECT min(coalesce((SELECT min((SELECT t0 FROM sample_blocks WHERE series = s.id "
         "ORDER BY t0 LIMIT 1)) FROM series s), 9223372036854775807), "
         "coalesce((SELECT min(ts_min) FROM recent_batches), 9223372036854775807))"),
        "SELECT max(ts) FROM latest",
        "SELECT page_count * page_size FROM pragma_page_count, pragma_page_size",
    };
    for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]); i++) {
        if ((rc = pragma_int(s, queries[i], &v[i], err)) < 0) {
            read_end(s, owned);
            return rc;
        }
    }
    read_end(s, owned);
    if (v[6] == INT64_MAX)
        v[6] = 0; /* no samples */
    info->series = (uint64_t)v[0];
    info->samples = (uint64_t)v[1];
    info->events = (uint64_t)v[2];
    info->config_snapshots = (uint64_t)v[3];
    info->findings = (uint64_t)v[4];
    info->runs = (uint64_t)v[5];
    info->first_ns = v[6];
    info->last_ns = v[7];
    info->size_bytes = (uint64_t)v[8];
    char wal[4096 + 8];
    struct stat sb;
    snprintf(wal, sizeof(wal), "%s-wal", s->path);
    if (stat(wal, &sb) == 0)
        info->size_bytes += (uint64_t)sb.st_size;
    return 0;
}

static int64_t sqlite_prune(struct dcb_store *base, int64_t cutoff_ns, struct dcb_err *err)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    if (s->readonly)
        return dcb_err_set(err, DCB_E_PERM, "%s: store opened read-only", s->path);
    int rc = exec_sql(s, "BEGIN IMMEDIATE", "pruning", err);
    if (rc < 0)
        return rc;
    int64_t deleted = 0, recent_deleted = 0;
    rc = store_block_tier_prune(&s->tier, cutoff_ns, &deleted);
    if (rc == SQLITE_OK)
        rc = store_recent_tier_prune(&s->recent, cutoff_ns, &recent_deleted);
    if (rc != SQLITE_OK) {
        int ret = tier_fail(s, err, rc, "pruning");
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return ret;
    }
    deleted += recent_deleted;
    const char *sqls[] = {
        "DELETE FROM latest WHERE ts < ?1",
        "DELETE FROM events WHERE ts < ?1",
        "DELETE FROM config_snapshots WHERE ts < ?1",
    };
    for (size_t i = 0; i < sizeof(sqls) / sizeof(sqls[0]); i++) {
        sqlite3_stmt *st;
        rc = sqlite3_prepare_v2(s->db, sqls[i], -1, &st, NULL);
        if (rc == SQLITE_OK) {
            sqlite3_bind_int64(st, 1, cutoff_ns);
            rc = sqlite3_step(st);
            sqlite3_finalize(st);
        }
        if (rc != SQLITE_DONE && rc != SQLITE_OK) {
            int ret = sq_fail(s, err, rc, "pruning");
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
            return ret;
        }
        if (i == 1) /* events */
            deleted += sqlite3_changes(s->db);
    }
    rc = exec_sql(s, "COMMIT", "pruning", err);
    return rc < 0 ? rc : deleted;
}

static const struct store_ops sqlite_ops = {
    .close = sqlite_close,
    .put_sample = sqlite_put_sample,
    .put_event = sqlite_put_event,
    .flush = sqlite_flush,
    .pending = sqlite_pending,
    .put_config = sqlite_put_config,
    .configs = sqlite_configs,
    .aggregate = sqlite_aggregate,
    .begin_run = sqlite_begin_run,
    .end_run = sqlite_end_run,
    .put_finding = sqlite_put_finding,
    .latest = sqlite_latest,
    .range = sqlite_range,
    .events = sqlite_events,
    .findings = sqlite_findings,
    .last_run = sqlite_last_run,
    .info = sqlite_info,
    .snapshot_begin = sqlite_snapshot_begin,
    .snapshot_end = sqlite_snapshot_end,
    .prune = sqlite_prune,
    .set_series_width = sqlite_set_series_width,
    .series_width = sqlite_series_width,
};
