/* The store's batched ingest against the ceiling for "append rows to SQLite", in one process on
 * the same samples, plus the two reads live views and reports depend on.
 *
 * Workload: SERIES series sampled every second, interleaved as collectors produce them (every
 * series at t, then every series at t+1). The reference is a plain table (series, ts, value)
 * with no index and no key, filled with one prepared statement in transactions of 10,000 rows,
 * with the same journal mode and synchronous setting. */
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "store.h"

#define SERIES 10000
#define DEFAULT_SECONDS 300
#define HOUR 3600

static void remove_db(const char *path)
{
    char p[512];
    unlink(path);
    snprintf(p, sizeof(p), "%s-wal", path);
    unlink(p);
    snprintf(p, sizeof(p), "%s-shm", path);
    unlink(p);
}

static struct dcb_sample series_template[SERIES];

/* The identities are made once, as a collector knows its interfaces; each sample then only
 * sets time and value, so the figure measures the store and not snprintf. */
static void make_templates(void)
{
    for (int i = 0; i < SERIES; i++) {
        char ifname[16], device[16];
        snprintf(ifname, sizeof(ifname), "eth%d", i / 8 % 1000);
        snprintf(device, sizeof(device), "host%d", i / 8000);
        dcb_sample_set(&series_template[i], 0, device, ifname, METRIC_PFC_RX_PAUSE, i % 8,
                       DCB_NO_INDEX);
    }
}

static const struct dcb_sample *make_sample(struct dcb_sample *s, int series, int64_t t)
{
    *s = series_template[series];
    s->time_ns = t * 1000000000LL;
    s->value.counter = (uint64_t)(t * 37 + series);
    return s;
}

static int fail(const char *what, const char *msg)
{
    fprintf(stderr, "bench_store: %s: %s\n", what, msg);
    return 1;
}

static double reference_ingest(const char *path, int seconds)
{
    remove_db(path);
    sqlite3 *db;
    sqlite3_open(path, &db);
    sqlite3_exec(db,
                 "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                 "CREATE TABLE plain (series INTEGER, ts INTEGER, value REAL)",
                 NULL, NULL, NULL);
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "INSERT INTO plain VALUES (?1, ?2, ?3)", -1, &st, NULL);
    int64_t start = bench_now_ns();
    long rows = 0;
    sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
    for (int64_t t = 0; t < seconds; t++) {
        for (int s = 0; s < SERIES; s++) {
            sqlite3_bind_int64(st, 1, s);
            sqlite3_bind_int64(st, 2, t * 1000000000LL);
            sqlite3_bind_double(st, 3, (double)(t * 37 + s));
            sqlite3_step(st);
            sqlite3_reset(st);
            if (++rows % 10000 == 0) {
                sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
                sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
            }
        }
    }
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    int64_t ns = bench_now_ns() - start;
    sqlite3_finalize(st);
    sqlite3_close(db);
    remove_db(path);
    return (double)rows * 1e9 / (double)ns;
}

static int count_cb(const struct dcb_sample *s, void *arg)
{
    (void)s;
    (*(long *)arg)++;
    return 0;
}

int main(int argc, char **argv)
{
    int seconds = argc > 1 ? atoi(argv[1]) : DEFAULT_SECONDS;
    if (seconds < 10)
        seconds = 10;
    char path[256], ref_path[256];
    snprintf(path, sizeof(path), "/tmp/dcbkit-bench-store-%d.db", (int)getpid());
    snprintf(ref_path, sizeof(ref_path), "/tmp/dcbkit-bench-plain-%d.db", (int)getpid());
    long total = (long)SERIES * seconds;

    make_templates();
    double ceiling = reference_ingest(ref_path, seconds);

    remove_db(path);
    struct dcb_store *st;
    struct store_options opt = { .path = path };
    struct dcb_err err;
    if (store_open_sqlite(&st, &opt, &err) < 0)
        return fail("open", err.msg);
    struct dcb_sample s;
    int64_t start = bench_now_ns();
    for (int64_t t = 0; t < seconds; t++) {
        for (int i = 0; i < SERIES; i++) {
            make_sample(&s, i, t);
            if (store_put_sample(st, &s, &err) < 0)
                return fail("ingest", err.msg);
        }
    }
    if (store_flush(st, &err) < 0)
        return fail("flush", err.msg);
    double ingest = (double)total * 1e9 / (double)(bench_now_ns() - start);

    /* one series gets a full hour, for the range read */
    for (int64_t t = seconds; t < HOUR; t++) {
        make_sample(&s, 0, t);
        store_put_sample(st, &s, &err);
    }
    store_flush(st, &err);

    struct store_filter f;
    store_filter_init(&f);
    double best_latest = 1e18, best_range = 1e18;
    long latest_rows = 0, range_rows = 0;
    for (int rep = 0; rep < 5; rep++) {
        long n = 0;
        int64_t t0 = bench_now_ns();
        store_latest(st, &f, count_cb, &n, &err);
        double ms = (double)(bench_now_ns() - t0) / 1e6;
        if (ms < best_latest)
            best_latest = ms;
        latest_rows = n;
    }
    make_sample(&s, 0, 0);
    struct store_filter one;
    store_filter_init(&one);
    one.device = s.device;
    one.ifname = s.ifname;
    one.metric = "pfc.rx_pause";
    one.prio = s.prio;
    one.t0 = 0;
    one.t1 = (int64_t)(HOUR - 1) * 1000000000LL;
    for (int rep = 0; rep < 5; rep++) {
        long n = 0;
        int64_t t0 = bench_now_ns();
        store_range(st, &one, count_cb, &n, &err);
        double ms = (double)(bench_now_ns() - t0) / 1e6;
        if (ms < best_range)
            best_range = ms;
        range_rows = n;
    }
    struct store_info info;
    store_info(st, &info, &err);
    store_close(st, NULL);
    remove_db(path);

    printf("store ingest: %.0f samples/s batched (%ld samples, %d series x %d s), "
           "plain-table ceiling %.0f rows/s, ratio %.2f\n",
           ingest, total, SERIES, seconds, ceiling, ingest / ceiling);
    printf("store latest: %.2f ms for %ld series\n", best_latest, latest_rows);
    printf("store range: %.2f ms for one series over one hour (%ld samples)\n", best_range,
           range_rows);
    printf("store size: %.1f bytes/sample\n", (double)info.size_bytes / (double)info.samples);
    return 0;
}
