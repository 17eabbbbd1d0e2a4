/* The SQLite store's two sample tiers (schema 3 on): flushes append chunks to recent_chunks, a
 * merge moves them into sample_blocks (packed runs of a series), and every read sees both as
 * one. The tables are looked at
 * directly (sqlite3) to check where rows went, and through the store API to check that it
 * does not matter. */
#include "unit.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store.h"
#include "store_schema.h"

#define SEC 1000000000LL

static void temp_path(char *path, size_t len)
{
    snprintf(path, len, "/tmp/dcbkit-tiers-test-%d-XXXXXX", (int)getpid());
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path); /* the store creates it */
}

static void remove_store(const char *path)
{
    char p[512];
    unlink(path);
    snprintf(p, sizeof(p), "%s-wal", path);
    unlink(p);
    snprintf(p, sizeof(p), "%s-shm", path);
    unlink(p);
}

/* Each test's store: a fresh path, and its files gone afterwards, whether the test passed or
 * not. */
static int store_path_setup(void **state)
{
    char *path = malloc(128);
    if (!path)
        return -1;
    temp_path(path, 128);
    *state = path;
    return 0;
}

static int store_path_teardown(void **state)
{
    remove_store(*state);
    free(*state);
    return 0;
}

/* The first column of sql's first row, on a connection of its own. */
static int64_t query_int(const char *path, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int64_t v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

static int64_t recent_rows(const char *path)
{
    return query_int(path, "SELECT coalesce(sum(n), 0) FROM recent_chunks");
}

static int64_t merged_rows(const char *path)
{
    return query_int(path, "SELECT coalesce(sum(n), 0) FROM sample_blocks");
}

static void put(struct dcb_store *st, int64_t t, const char *ifname, uint64_t v)
{
    struct dcb_sample s;
    dcb_sample_set(&s, t, "h1", ifname, METRIC_PFC_RX_PAUSE, 3, DCB_NO_INDEX);
    s.value.counter = v;
    struct dcb_err err;
    assert_int_equal(store_put_sample(st, &s, &err), 0);
}

static int64_t blocks(const char *path)
{
    return query_int(path, "SELECT count(*) FROM sample_blocks");
}

struct collected {
    int n;
    struct dcb_sample s[64];
};

static int collect(const struct dcb_sample *s, void *arg)
{
    struct collected *c = arg;
    if (c->n < 64)
        c->s[c->n] = *s;
    c->n++;
    return 0;
}

static void one_series(struct store_filter *f, const char *ifname)
{
    store_filter_init(f);
    f->device = "h1";
    f->ifname = ifname;
    f->metric = "pfc.rx_pause";
    f->prio = 3;
    f->queue = -1;
}

/* Two series, one sample each a second at 1..10 s, a flush a second, a merge every 3 s of
 * span: some samples end in each tier, and reads, aggregates, info and prune see one table. */
static void tiers_read_as_one(void **state)
{
    const char *path = *state;
    struct dcb_store *st;
    struct store_options opt = { .path = path, .merge_age_ns = 3 * SEC };
    struct dcb_err err;
    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    for (int t = 1; t <= 10; t++) {
        put(st, t * SEC, "eth0", (uint64_t)t * 10);
        put(st, t * SEC, "eth1", (uint64_t)t);
        assert_int_equal(store_flush(st, &err), 2);
    }
    /* merged at 4 s (1..4 span 3 s) and 8 s (5..8); 9 and 10 s are recent */
    assert_int_equal(recent_rows(path), 4);
    assert_int_equal(merged_rows(path), 16);

    struct store_filter f;
    store_filter_init(&f);
    struct collected c = { 0 };
    assert_int_equal(store_range(st, &f, collect, &c, &err), 0);
    assert_int_equal(c.n, 20);
    for (int i = 0; i < 20; i++) {
        assert_string_equal(c.s[i].ifname, i < 10 ? "eth0" : "eth1");
        assert_true(c.s[i].time_ns == (i % 10 + 1) * SEC);
        assert_true(c.s[i].value.counter == (uint64_t)(i % 10 + 1) * (i < 10 ? 10 : 1));
    }
    /* a window across the tiers */
    one_series(&f, "eth0");
    f.t0 = 7 * SEC;
    f.t1 = 10 * SEC;
    double v, rate;
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_DELTA, &v, &err), 1);
    assert_true(v == 30);
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_LAST, &v, &err), 1);
    assert_true(v == 100);
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_MAX, &v, &err), 1);
    assert_true(v == 100);
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_MIN, &v, &err), 1);
    assert_true(v == 70);
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_AVG, &v, &err), 1);
    assert_true(fabs(v - 85) < 1e-9);
    uint64_t resets;
    assert_int_equal(store_delta(st, &f, 64, &v, &rate, &resets, &err), 0);
    assert_true(v == 30 && fabs(rate - 10) < 1e-9);
    /* the recent tier alone */
    f.t0 = 9 * SEC;
    c.n = 0;
    assert_int_equal(store_range(st, &f, collect, &c, &err), 0);
    assert_int_equal(c.n, 2);
    assert_true(c.s[0].time_ns == 9 * SEC && c.s[1].time_ns == 10 * SEC);

    struct store_info info;
    assert_int_equal(store_info(st, &info, &err), 0);
    assert_int_equal(info.samples, 20);
    assert_true(info.first_ns == 1 * SEC && info.last_ns == 10 * SEC);
    assert_int_equal(info.schema_version, 4);

    /* a reader in another connection sees both tiers */
    struct dcb_store *rd;
    struct store_options ro = { .path = path, .readonly = true };
    assert_int_equal(store_open_sqlite(&rd, &ro, &err), 0);
    store_filter_init(&f);
    c.n = 0;
    assert_int_equal(store_range(rd, &f, collect, &c, &err), 0);
    assert_int_equal(c.n, 20);
    assert_int_equal(store_close(rd, &err), 0);

    /* prune cuts both tiers: 1..9 s goes from each series, 9 s from the recent tier */
    assert_int_equal(store_prune(st, 10 * SEC, &err), 18);
    assert_int_equal(recent_rows(path), 2);
    assert_int_equal(merged_rows(path), 0);
    assert_int_equal(store_info(st, &info, &err), 0);
    assert_int_equal(info.samples, 2);
    assert_true(info.first_ns == 10 * SEC);
    assert_int_equal(query_int(path, "SELECT min(ts_min) FROM recent_batches"), 10 * SEC);

    /* a closed store has an empty recent tier */
    assert_int_equal(store_close(st, &err), 0);
    assert_int_equal(recent_rows(path), 0);
    assert_int_equal(merged_rows(path), 2);
    assert_int_equal(query_int(path, "SELECT count(*) FROM recent_batches"), 0);
}

/* Samples not newer than what is stored for their series (a re-import, a clock stepping back)
 * replace their twin wherever it is, and never sit in both tiers. */
static void older_samples_replace(void **state)
{
    const char *path = *state;
    struct dcb_store *st;
    struct store_options opt = { .path = path };
    struct dcb_err err;
    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    for (int t = 1; t <= 3; t++) {
        put(st, t * SEC, "eth0", (uint64_t)t * 10);
        assert_int_equal(store_flush(st, &err), 1);
    }
    assert_int_equal(recent_rows(path), 3);
    put(st, 2 * SEC, "eth0", 25); /* its twin is in the recent tier */
    put(st, 0, "eth0", 1);        /* older than anything */
    put(st, 4 * SEC, "eth0", 40); /* the common path, in the same batch */
    assert_int_equal(store_flush(st, &err), 3);
    assert_int_equal(recent_rows(path), 3); /* 1, 3, 4 s */
    assert_int_equal(merged_rows(path), 2); /* 0, 2 s */
    struct store_filter f;
    one_series(&f, "eth0");
    struct collected c = { 0 };
    assert_int_equal(store_range(st, &f, collect, &c, &err), 0);
    assert_int_equal(c.n, 5);
    static const uint64_t want[] = { 1, 10, 25, 30, 40 };
    for (int i = 0; i < 5; i++) {
        assert_true(c.s[i].time_ns == i * SEC);
        assert_true(c.s[i].value.counter == want[i]);
    }
    assert_int_equal(store_close(st, &err), 0);
    assert_int_equal(merged_rows(path), 5);

    /* a new writer knows what is stored (from latest): a re-import of 4 s replaces it */
    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    put(st, 4 * SEC, "eth0", 44);
    put(st, 5 * SEC, "eth0", 50);
    assert_int_equal(store_flush(st, &err), 2);
    assert_int_equal(recent_rows(path), 1);
    c.n = 0;
    assert_int_equal(store_range(st, &f, collect, &c, &err), 0);
    assert_int_equal(c.n, 6);
    assert_true(c.s[4].value.counter == 44 && c.s[5].value.counter == 50);
    assert_int_equal(store_close(st, &err), 0);
}

/* A writer that dies leaves its committed batches in the recent tier: readers see them, the
 * next writer appends after them and merges them. */
static void crashed_writer(void **state)
{
    const char *path = *state;
    struct store_options opt = { .path = path };
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct dcb_store *st;
        if (store_open_sqlite(&st, &opt, NULL) < 0)
            _exit(1);
        for (int t = 1; t <= 3; t++) {
            put(st, t * SEC, "eth0", (uint64_t)t);
            if (store_flush(st, NULL) != 1)
                _exit(1);
        }
        _exit(0); /* no store_close */
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_int_equal(recent_rows(path), 3);

    struct dcb_err err;
    struct dcb_store *st;
    struct store_options ro = { .path = path, .readonly = true };
    assert_int_equal(store_open_sqlite(&st, &ro, &err), 0);
    struct store_filter f;
    one_series(&f, "eth0");
    struct collected c = { 0 };
    assert_int_equal(store_range(st, &f, collect, &c, &err), 0);
    assert_int_equal(c.n, 3);
    assert_int_equal(store_close(st, &err), 0);
    assert_int_equal(recent_rows(path), 3); /* a reader's close merges nothing */
    /* nor does a handle that wrote no samples (a report's run, a config snapshot) */
    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    struct store_config_row cr = { SEC, "h1", "eth0", "dcbx", "{}" };
    assert_int_equal(store_put_config(st, &cr, &err), 0);
    assert_int_equal(store_close(st, &err), 0);
    assert_int_equal(recent_rows(path), 3);

    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    put(st, 3 * SEC, "eth0", 33); /* stored by the dead writer: replaced */
    put(st, 4 * SEC, "eth0", 4);
    assert_int_equal(store_flush(st, &err), 2);
    assert_int_equal(store_close(st, &err), 0);
    assert_int_equal(recent_rows(path), 0);
    assert_int_equal(merged_rows(path), 4);
    assert_int_equal(store_open_sqlite(&st, &ro, &err), 0);
    f.t0 = f.t1 = 3 * SEC;
    c.n = 0;
    assert_int_equal(store_range(st, &f, collect, &c, &err), 0);
    assert_int_equal(c.n, 1);
    assert_true(c.s[0].value.counter == 33);
    assert_int_equal(store_close(st, &err), 0);
}

/* The row cap merges before the age does. */
static void merge_by_rows(void **state)
{
    const char *path = *state;
    struct dcb_store *st;
    struct store_options opt = { .path = path, .merge_max_rows = 5 };
    struct dcb_err err;
    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    for (int t = 1; t <= 3; t++) {
        put(st, t * SEC, "eth0", (uint64_t)t);
        put(st, t * SEC, "eth1", (uint64_t)t);
        assert_int_equal(store_flush(st, &err), 2);
        assert_int_equal(recent_rows(path), t < 3 ? 2 * t : 0);
    }
    assert_int_equal(merged_rows(path), 6);
    assert_int_equal(store_close(st, &err), 0);
}

/* A batch of 32 or more samples per series makes blocks as full as a merge would and goes
 * there directly, replacing twins in the recent tier. */
static void big_batches_go_direct(void **state)
{
    const char *path = *state;
    struct dcb_store *st;
    struct store_options opt = { .path = path };
    struct dcb_err err;
    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    for (int t = 0; t < 2; t++) {
        put(st, t * SEC, "eth0", (uint64_t)t);
        assert_int_equal(store_flush(st, &err), 1);
    }
    assert_int_equal(recent_rows(path), 2);
    for (int t = 1; t < 41; t++) /* 1 s again, then 2..40 s */
        put(st, t * SEC, "eth0", (uint64_t)t * 100);
    assert_int_equal(store_flush(st, &err), 40);
    assert_int_equal(recent_rows(path), 1); /* 0 s; 1 s was replaced */
    assert_int_equal(merged_rows(path), 40);
    struct store_filter f;
    one_series(&f, "eth0");
    struct collected c = { 0 };
    assert_int_equal(store_range(st, &f, collect, &c, &err), 0);
    assert_int_equal(c.n, 41);
    for (int i = 0; i < 41; i++) {
        assert_true(c.s[i].time_ns == i * SEC);
        assert_true(c.s[i].value.counter == (uint64_t)i * 100);
    }
    assert_int_equal(store_close(st, &err), 0);
}

/* A schema 1 store (one sample table) opens, migrates to 4 and keeps its samples; a read-only
 * open refuses it. */
static void migrates_v1(void **state)
{
    const char *path = *state;
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, store_schema_migration(0), NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db,
                                  "PRAGMA user_version = 1;"
                                  "INSERT INTO series VALUES (1, 'h1', 'eth0', 'pfc.rx_pause', "
                                  "3, -1);"
                                  "INSERT INTO samples VALUES (1, 1000000000, 10), "
                                  "(1, 2000000000, 20);"
                                  "INSERT INTO latest VALUES (1, 2000000000, 20);",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);

    struct dcb_err err;
    struct dcb_store *st;
    struct store_options ro = { .path = path, .readonly = true };
    assert_int_not_equal(store_open_sqlite(&st, &ro, &err), 0);
    assert_non_null(strstr(err.msg, "needs upgrading to 4"));

    struct store_options opt = { .path = path };
    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    assert_int_equal(query_int(path, "PRAGMA user_version"), 4);
    assert_int_equal(query_int(path, "SELECT count(*) FROM sqlite_master WHERE name IN "
                                     "('samples', 'samples_all')"),
                     0);
    assert_int_equal(merged_rows(path), 2);
    put(st, 2 * SEC, "eth0", 25); /* already stored: replaces */
    put(st, 3 * SEC, "eth0", 30); /* new: the recent tier */
    assert_int_equal(store_flush(st, &err), 2);
    assert_int_equal(recent_rows(path), 1);
    struct store_filter f;
    one_series(&f, "eth0");
    struct collected c = { 0 };
    assert_int_equal(store_range(st, &f, collect, &c, &err), 0);
    assert_int_equal(c.n, 3);
    assert_true(c.s[0].value.counter == 10 && c.s[1].value.counter == 25 &&
                c.s[2].value.counter == 30);
    struct store_info info;
    assert_int_equal(store_info(st, &info, &err), 0);
    assert_true(info.samples == 3 && info.first_ns == SEC && info.last_ns == 3 * SEC);
    assert_int_equal(store_close(st, &err), 0);
    assert_int_equal(merged_rows(path), 3);
}

/* Merges append to a series' newest block while it has room (SAMPLE_BLOCK_MAX), so 300
 * one-sample merges make 3 blocks, not 300; reads across block edges see every sample. */
static void merges_fill_blocks(void **state)
{
    const char *path = *state;
    struct dcb_store *st;
    struct store_options opt = { .path = path, .merge_max_rows = 1 };
    struct dcb_err err;
    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    for (int t = 1; t <= 300; t++) {
        put(st, t * SEC + t % 7, "eth0", (uint64_t)t * t);
        assert_int_equal(store_flush(st, &err), 1);
    }
    assert_int_equal(recent_rows(path), 0);
    assert_int_equal(merged_rows(path), 300);
    assert_int_equal(blocks(path), 3); /* 128 + 128 + 44 */
    struct store_filter f;
    one_series(&f, "eth0");
    f.t0 = 120 * SEC;
    f.t1 = 140 * SEC;
    struct collected c = { 0 };
    assert_int_equal(store_range(st, &f, collect, &c, &err), 0);
    assert_int_equal(c.n, 21);
    for (int i = 0; i < 21; i++) {
        int t = 120 + i;
        assert_true(c.s[i].time_ns == t * SEC + t % 7);
        assert_true(c.s[i].value.counter == (uint64_t)t * t);
    }
    assert_int_equal(store_close(st, &err), 0);
}

/* A re-import inside stored blocks rewrites the blocks it overlaps: twins replaced, new
 * times slotted in, the rest kept, and no two blocks of the series overlap. */
static void overlap_rewrites_blocks(void **state)
{
    const char *path = *state;
    struct dcb_store *st;
    struct store_options opt = { .path = path };
    struct dcb_err err;
    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    for (int t = 0; t < 200; t += 2) /* even seconds, straight to blocks */
        put(st, t * SEC, "eth0", (uint64_t)t);
    assert_int_equal(store_flush(st, &err), 100);
    assert_int_equal(merged_rows(path), 100);
    for (int t = 90; t < 140; t++) /* 90..139 s: 25 twins, 25 new */
        put(st, t * SEC, "eth0", (uint64_t)t + 1000);
    assert_int_equal(store_flush(st, &err), 50);
    assert_int_equal(recent_rows(path), 0);
    assert_int_equal(merged_rows(path), 125);
    assert_int_equal(query_int(path, "SELECT count(*) FROM sample_blocks a JOIN sample_blocks b "
                                     "ON a.series = b.series AND a.t0 < b.t0 AND a.t1 >= b.t0"),
                     0);
    struct store_filter f;
    one_series(&f, "eth0");
    struct collected c = { 0 };
    assert_int_equal(store_range(st, &f, collect, &c, &err), 0);
    assert_int_equal(c.n, 125);
    int64_t prev = -1;
    for (int i = 0; i < 64 && i < c.n; i++) {
        int64_t t = c.s[i].time_ns / SEC;
        assert_true(c.s[i].time_ns > prev);
        prev = c.s[i].time_ns;
        assert_true(c.s[i].value.counter == (uint64_t)(t >= 90 && t < 140 ? t + 1000 : t));
    }
    assert_int_equal(store_close(st, &err), 0);
}

/* Prune drops whole blocks before the cutoff and the front of the one that straddles it; the
 * same for a recent batch. */
static void prune_trims_blocks(void **state)
{
    const char *path = *state;
    struct dcb_store *st;
    struct store_options opt = { .path = path };
    struct dcb_err err;
    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    for (int t = 0; t < 300; t++)
        put(st, t * SEC, "eth0", (uint64_t)t);
    assert_int_equal(store_flush(st, &err), 300);
    assert_int_equal(blocks(path), 3);
    assert_int_equal(store_prune(st, 200 * SEC, &err), 200);
    assert_int_equal(merged_rows(path), 100);
    struct store_filter f;
    one_series(&f, "eth0");
    struct collected c = { 0 };
    assert_int_equal(store_range(st, &f, collect, &c, &err), 0);
    assert_int_equal(c.n, 100);
    assert_true(c.s[0].time_ns == 200 * SEC && c.s[0].value.counter == 200);

    /* a recent batch that straddles the cutoff keeps its newer samples, in both series */
    for (int t = 300; t < 310; t++) {
        put(st, t * SEC, "eth0", (uint64_t)t);
        put(st, t * SEC, "eth1", (uint64_t)t * 2);
    }
    assert_int_equal(store_flush(st, &err), 20);
    assert_int_equal(recent_rows(path), 20);
    assert_int_equal(store_prune(st, 305 * SEC, &err), 110);
    assert_int_equal(recent_rows(path), 10);
    assert_int_equal(merged_rows(path), 0);
    struct store_info info;
    assert_int_equal(store_info(st, &info, &err), 0);
    assert_true(info.samples == 10 && info.first_ns == 305 * SEC);
    store_filter_init(&f);
    c.n = 0;
    assert_int_equal(store_range(st, &f, collect, &c, &err), 0);
    assert_int_equal(c.n, 10);
    assert_true(c.s[0].time_ns == 305 * SEC && c.s[5].time_ns == 305 * SEC &&
                c.s[5].value.counter == 610);
    assert_int_equal(store_close(st, &err), 0);
}

/* A block whose bytes do not decode is an error that says so, not a crash or a short read
 * passed off as the history. */
static void corrupt_block_is_an_error(void **state)
{
    const char *path = *state;
    struct dcb_store *st;
    struct store_options opt = { .path = path };
    struct dcb_err err;
    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    for (int t = 0; t < 40; t++)
        put(st, t * SEC, "eth0", (uint64_t)t);
    assert_int_equal(store_flush(st, &err), 40);
    assert_int_equal(store_close(st, &err), 0);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "UPDATE sample_blocks SET data = substr(data, 1, 7)", NULL,
                                  NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    struct store_options ro = { .path = path, .readonly = true };
    assert_int_equal(store_open_sqlite(&st, &ro, &err), 0);
    struct store_filter f;
    one_series(&f, "eth0");
    struct collected c = { 0 };
    assert_true(store_range(st, &f, collect, &c, &err) < 0);
    assert_non_null(strstr(err.msg, "malformed"));
    double v;
    assert_true(store_aggregate(st, &f, STORE_AGG_MAX, &v, &err) < 0);
    assert_int_equal(store_close(st, &err), 0);
}

/* A schema 2 store (rows in samples and in the recent tier) migrates to 4: the rows become
 * blocks, the recent tier stays, and every sample reads back. */
static void migrates_v2(void **state)
{
    const char *path = *state;
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    for (int v = 0; v < 2; v++)
        assert_int_equal(sqlite3_exec(db, store_schema_migration(v), NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db,
                                  "PRAGMA user_version = 2;"
                                  "INSERT INTO series VALUES (1, 'h1', 'eth0', 'pfc.rx_pause', "
                                  "3, -1);"
                                  "INSERT INTO series VALUES (2, 'h1', 'eth0', "
                                  "'queue.depth_bytes', -1, 3);"
                                  "WITH RECURSIVE t(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM t "
                                  "WHERE x < 200) INSERT INTO samples SELECT 1, x * 1000000000, "
                                  "x * 3 FROM t;"
                                  "INSERT INTO samples VALUES (2, 1000000000, 2.5), "
                                  "(2, 2000000000, -0.0), (2, 3000000000, 1e300);"
                                  "INSERT INTO recent_batches VALUES (1, 201000000000, "
                                  "201000000000, 1);"
                                  "INSERT INTO samples_recent VALUES (1, 1, 201000000000, 603);"
                                  "INSERT INTO latest VALUES (1, 201000000000, 603);",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    struct dcb_err err;
    struct dcb_store *st;
    struct store_options opt = { .path = path };
    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    assert_int_equal(query_int(path, "PRAGMA user_version"), 4);
    assert_int_equal(merged_rows(path), 203);
    assert_int_equal(blocks(path), 3); /* 128 + 72, and the gauge's 3 */
    assert_int_equal(recent_rows(path), 1);
    struct store_filter f;
    one_series(&f, "eth0");
    struct collected c = { 0 };
    double v;
    f.t0 = 199 * SEC;
    assert_int_equal(store_range(st, &f, collect, &c, &err), 0);
    assert_int_equal(c.n, 3);
    assert_true(c.s[2].time_ns == 201 * SEC && c.s[2].value.counter == 603);
    f.t0 = INT64_MIN;
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_DELTA, &v, &err), 1);
    assert_true(v == 600);
    store_filter_init(&f);
    f.metric = "queue.depth_bytes";
    c.n = 0;
    assert_int_equal(store_range(st, &f, collect, &c, &err), 0);
    assert_int_equal(c.n, 3);
    assert_true(c.s[0].value.gauge == 2.5 && c.s[1].value.gauge == 0 &&
                signbit(c.s[1].value.gauge) && c.s[2].value.gauge == 1e300);
    assert_int_equal(store_close(st, &err), 0);
}

/* A schema 3 store (no counter widths): a read-only open reads it as it is, every width 64, and
 * says schema 3; opened for writing it becomes 4, its series 64 bits wide until said otherwise.
 * 4294967000, 4294967200, 100, 300 a second apart is a reset at 64 bits (+200, +200, the reset's
 * second left out) and a wrap at 32 (+200, then 95 + 100 + 1 = 196 through the top, +200). */
static void migrates_v3(void **state)
{
    const char *path = *state;
    struct dcb_err err;
    struct dcb_store *st;
    struct store_options opt = { .path = path }, ro = { .path = path, .readonly = true };
    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    static const uint64_t v[] = { 4294967000u, 4294967200u, 100, 300 };
    for (int i = 0; i < 4; i++)
        put(st, (i + 1) * SEC, "eth0", v[i]);
    assert_int_equal(store_close(st, &err), 0);
    sqlite3 *db; /* what a schema 3 writer left */
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db,
                                  "ALTER TABLE series DROP COLUMN bits;"
                                  "PRAGMA user_version = 3;",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);

    struct store_filter f;
    one_series(&f, "eth0");
    struct store_info info;
    double d, r;
    uint64_t resets;
    assert_int_equal(store_open_sqlite(&st, &ro, &err), 0);
    assert_int_equal(store_info(st, &info, &err), 0);
    assert_int_equal(info.schema_version, 3);
    assert_int_equal(store_series_width(st, "h1", "eth0", METRIC_PFC_RX_PAUSE, 3, -1), 64);
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_DELTA, &d, &err), 1);
    assert_true(d == 400);
    assert_int_equal(store_delta(st, &f, 0, &d, &r, &resets, &err), 0);
    assert_true(d == 400 && fabs(r - 200) < 1e-9 && resets == 1);
    assert_int_equal(store_close(st, &err), 0);
    assert_int_equal(query_int(path, "PRAGMA user_version"), 3); /* a reader changes nothing */

    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    assert_int_equal(query_int(path, "PRAGMA user_version"), 4);
    assert_int_equal(query_int(path, "SELECT bits FROM series"), 64);
    assert_int_equal(store_info(st, &info, &err), 0);
    assert_int_equal(info.schema_version, 4);
    struct dcb_sample s;
    dcb_sample_set(&s, 0, "h1", "eth0", METRIC_PFC_RX_PAUSE, 3, DCB_NO_INDEX);
    assert_int_equal(store_set_series_width(st, &s, 32, &err), 0);
    assert_int_equal(store_close(st, &err), 0);
    assert_int_equal(query_int(path, "SELECT bits FROM series"), 32);
    assert_int_equal(store_open_sqlite(&st, &ro, &err), 0);
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_DELTA, &d, &err), 1);
    assert_true(d == 596);
    assert_int_equal(store_delta(st, &f, 0, &d, &r, &resets, &err), 0);
    assert_true(d == 596 && fabs(r - 596.0 / 3) < 1e-9 && resets == 0);
    assert_int_equal(store_close(st, &err), 0);
}

/* A read inside another read's callback (a report aggregating while it walks) gets the same
 * answers as on its own: the cursors do not share a statement while one is open. */
struct nested {
    struct dcb_store *st;
    int outer, inner_total;
};

static int count_inner(const struct dcb_sample *s, void *arg)
{
    (void)s;
    (*(int *)arg)++;
    return 0;
}

static int read_inside(const struct dcb_sample *s, void *arg)
{
    struct nested *n = arg;
    struct store_filter f;
    one_series(&f, s->ifname);
    int inner = 0;
    struct dcb_err err;
    assert_int_equal(store_range(n->st, &f, count_inner, &inner, &err), 0);
    n->inner_total += inner;
    n->outer++;
    return 0;
}

static void nested_reads(void **state)
{
    const char *path = *state;
    struct store_options opt = { .path = path, .merge_age_ns = 3 * SEC };
    struct dcb_err err;
    struct nested n = { 0 };
    assert_int_equal(store_open_sqlite(&n.st, &opt, &err), 0);
    for (int t = 1; t <= 6; t++) { /* 1..4 s merged, 5..6 s recent */
        put(n.st, t * SEC, "eth0", (uint64_t)t);
        put(n.st, t * SEC, "eth1", (uint64_t)t);
        assert_int_equal(store_flush(n.st, &err), 2);
    }
    struct store_filter f;
    store_filter_init(&f);
    assert_int_equal(store_range(n.st, &f, read_inside, &n, &err), 0);
    assert_int_equal(n.outer, 12);
    assert_int_equal(n.inner_total, 12 * 6);
    assert_int_equal(store_close(n.st, &err), 0);
}

/* Gauges without a reading (NaN) are left out of aggregates, as SQL's NULL was, and values no
 * integer holds are aggregated without undefined behaviour (UBSan runs this in ci-extra). */
static void gauge_aggregates(void **state)
{
    const char *path = *state;
    struct dcb_store *st;
    struct store_options opt = { .path = path };
    struct dcb_err err;
    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    const double v[] = { NAN, 1e30, 2.5, NAN, -INFINITY, 7 };
    for (int t = 0; t < 6; t++) {
        struct dcb_sample g;
        dcb_sample_set(&g, (t + 1) * SEC, "h1", "eth0", METRIC_QUEUE_DEPTH_BYTES, DCB_NO_INDEX, 3);
        g.value.gauge = v[t];
        assert_int_equal(store_put_sample(st, &g, &err), 0);
        if (t == 2) { /* half in blocks, half recent */
            assert_int_equal(store_close(st, &err), 0);
            assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
        }
    }
    assert_true(store_flush(st, &err) >= 0);
    struct store_filter f;
    store_filter_init(&f);
    f.device = "h1";
    f.ifname = "eth0";
    f.metric = "queue.depth_bytes";
    f.prio = -1;
    f.queue = 3;
    double out;
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_MAX, &out, &err), 1);
    assert_true(out == 1e30);
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_MIN, &out, &err), 1);
    assert_true(isinf(out) && out < 0);
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_LAST, &out, &err), 1);
    assert_true(out == 7);
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_DELTA, &out, &err), 1);
    assert_false(isnan(out));
    assert_int_equal(store_close(st, &err), 0);
}

/* A range over many series (64 or more) reads the recent tier batch by batch; it must give what
 * the series-by-series path gives: each series in turn, in time order, both tiers, the window
 * honoured, a twin replaced by the newer write. */
struct many_check {
    int n;
    int64_t last_ts;
    char last_ifname[DCB_IFNAME_MAX];
    bool ok;
};

static int check_many(const struct dcb_sample *s, void *arg)
{
    struct many_check *m = arg;
    int port = atoi(s->ifname + 3);
    int64_t t = s->time_ns / SEC;
    uint64_t want = t == 20 && port == 107 ? 999 : (uint64_t)(port * 1000 + t);
    if (strcmp(s->ifname, m->last_ifname) == 0 ? s->time_ns <= m->last_ts
                                               : strcmp(s->ifname, m->last_ifname) < 0 && m->n)
        m->ok = false;
    if (s->value.counter != want)
        m->ok = false;
    snprintf(m->last_ifname, sizeof(m->last_ifname), "%s", s->ifname);
    m->last_ts = s->time_ns;
    m->n++;
    return 0;
}

static void many_series_range(void **state)
{
    const char *path = *state;
    struct dcb_store *st;
    struct store_options opt = { .path = path, .merge_age_ns = 9 * SEC };
    struct dcb_err err;
    assert_int_equal(store_open_sqlite(&st, &opt, &err), 0);
    for (int t = 1; t <= 25; t++) { /* merged at 10 and 20 s; 21..25 s recent */
        for (int port = 100; port < 200; port++) {
            char ifname[16];
            snprintf(ifname, sizeof(ifname), "eth%d", port);
            put(st, t * SEC, ifname, (uint64_t)(port * 1000 + t));
        }
        assert_int_equal(store_flush(st, &err), 100);
    }
    put(st, 24 * SEC, "eth107", 107024); /* the same value again: a twin in the recent tier */
    put(st, 20 * SEC, "eth107", 999);    /* older: replaces the stored one */
    assert_int_equal(store_flush(st, &err), 2);
    assert_true(recent_rows(path) > 0 && merged_rows(path) > 0);
    int64_t windows[][2] = { { INT64_MIN, INT64_MAX },
                             { 18 * SEC, 23 * SEC },
                             { 22 * SEC, 22 * SEC } };
    int want_n[] = { 2500, 600, 100 };
    for (int w = 0; w < 3; w++) {
        struct store_filter f;
        store_filter_init(&f);
        f.t0 = windows[w][0];
        f.t1 = windows[w][1];
        struct many_check m = { .ok = true };
        assert_int_equal(store_range(st, &f, check_many, &m, &err), 0);
        assert_int_equal(m.n, want_n[w]);
        assert_true(m.ok);
    }
    assert_int_equal(store_close(st, &err), 0);
}

#define STORE_TEST(f) cmocka_unit_test_setup_teardown(f, store_path_setup, store_path_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        STORE_TEST(tiers_read_as_one),     STORE_TEST(older_samples_replace),
        STORE_TEST(crashed_writer),        STORE_TEST(merge_by_rows),
        STORE_TEST(big_batches_go_direct), STORE_TEST(migrates_v1),
        STORE_TEST(merges_fill_blocks),    STORE_TEST(overlap_rewrites_blocks),
        STORE_TEST(prune_trims_blocks),    STORE_TEST(corrupt_block_is_an_error),
        STORE_TEST(migrates_v2),           STORE_TEST(migrates_v3),
        STORE_TEST(nested_reads),          STORE_TEST(gauge_aggregates),
        STORE_TEST(many_series_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
