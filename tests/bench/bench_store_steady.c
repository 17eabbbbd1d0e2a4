/* The store's steady state at fabric scale: 96,000 series (50 switches x 64 ports x 30
 * counters, the bench_gnmi load) and one sample of each a batch, synthetic timestamps 1 s
 * apart, written as fast as the store takes them. Prints each phase's CPU per batch
 * (getrusage: user + sys of this process) at the start, middle and end, the merges' cost, and
 * the same run in the same process with a merge every flush: every commit then rewrites each
 * series' newest block in the (series, t0) table, a leaf page per series (the page pattern of
 * schema 1's row-per-sample table). Then the reader's cost of the
 * recent tier: one series' range with the tier full and with it empty (after the close's merge).
 *
 *   bench_store_steady [BATCHES [REFERENCE_BATCHES]]      (defaults 209 and 60)
 *
 * 209 batches are four merges by the 4 M row cap (42 batches each) and a tier of 41 batches
 * (3.9 M rows) left for the read. Figures only: nothing here asserts on time. */
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "store.h"

#define SWITCHES 50
#define PORTS 64
#define COUNTERS 30
#define SERIES (SWITCHES * PORTS * COUNTERS)
#define SEC 1000000000LL

static struct dcb_sample templates[SERIES];

static void make_templates(void)
{
    for (int i = 0; i < SERIES; i++) {
        char device[16], ifname[16];
        int c = i % COUNTERS;
        snprintf(device, sizeof(device), "leaf%02d", i / (PORTS * COUNTERS));
        snprintf(ifname, sizeof(ifname), "Ethernet%d", i / COUNTERS % PORTS * 4);
        /* 30 counters of a port: (prio, queue) pairs stand in for the metric names */
        dcb_sample_set(&templates[i], 0, device, ifname, METRIC_PFC_RX_PAUSE, c % 8, c / 8);
    }
}

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static void remove_db(const char *path)
{
    char p[512];
    unlink(path);
    snprintf(p, sizeof(p), "%s-wal", path);
    unlink(p);
    snprintf(p, sizeof(p), "%s-shm", path);
    unlink(p);
}

static double wal_mb(const char *path)
{
    char p[512];
    struct stat sb;
    snprintf(p, sizeof(p), "%s-wal", path);
    return stat(p, &sb) == 0 ? (double)sb.st_size / 1e6 : 0;
}

/* Batches in the recent tier, on a connection of its own (a merge leaves none). */
static int64_t recent_batches(sqlite3 *db)
{
    sqlite3_stmt *st;
    int64_t n = -1;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM recent_batches", -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            n = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    return n;
}

struct batch_cost {
    double cpu, wall;
    bool merged;
};

static struct batch_cost *cost; /* by batch, for either run */

static int fail(const char *what, const char *msg)
{
    fprintf(stderr, "bench_store_steady: %s: %s\n", what, msg);
    return 1;
}

/* Writes batches 0..n-1 into st; cost[i] per batch. */
static int run_batches(struct dcb_store *st, const char *path, int n)
{
    sqlite3 *db;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        return fail("open", sqlite3_errmsg(db));
    struct dcb_err err;
    for (int b = 0; b < n; b++) {
        double c0 = cpu_seconds();
        int64_t w0 = bench_now_ns();
        for (int i = 0; i < SERIES; i++) {
            struct dcb_sample s = templates[i];
            s.time_ns = b * SEC;
            s.value.counter = (uint64_t)b * 1000 + (uint64_t)i;
            if (store_put_sample(st, &s, &err) < 0)
                return fail("put", err.msg);
        }
        if (store_flush(st, &err) < 0)
            return fail("flush", err.msg);
        cost[b].cpu = cpu_seconds() - c0;
        cost[b].wall = (double)(bench_now_ns() - w0) / 1e9;
        cost[b].merged = recent_batches(db) == 0;
    }
    sqlite3_close(db);
    return 0;
}

/* Mean CPU of the batches in [from, to) that did not merge. */
static double mean_plain(const struct batch_cost *c, int from, int to)
{
    double sum = 0;
    int n = 0;
    for (int b = from; b < to; b++) {
        if (!c[b].merged) {
            sum += c[b].cpu;
            n++;
        }
    }
    return n ? sum / n : 0;
}

static void print_phases(const char *name, const struct batch_cost *c, int n)
{
    int w = n < 15 ? 1 : 5;
    int mid = n / 2 - w / 2;
    printf("%s: CPU per batch of %d samples: batches 1-%d %.3f s, %d-%d %.3f s, %d-%d %.3f s\n",
           name, SERIES, w, mean_plain(c, 0, w), mid + 1, mid + w, mean_plain(c, mid, mid + w),
           n - w + 1, n, mean_plain(c, n - w, n));
}

struct counter {
    long n;
};

static int count_cb(const struct dcb_sample *s, void *arg)
{
    (void)s;
    ((struct counter *)arg)->n++;
    return 0;
}

/* Best of five: one series over the whole run, then every series over the last 10 s. */
static void time_reads(struct dcb_store *st, int batches, const char *label)
{
    struct store_filter one;
    store_filter_init(&one);
    one.device = templates[SERIES / 2].device;
    one.ifname = templates[SERIES / 2].ifname;
    one.metric = "pfc.rx_pause";
    one.prio = templates[SERIES / 2].prio;
    one.queue = templates[SERIES / 2].queue;
    struct store_filter last10;
    store_filter_init(&last10);
    last10.t0 = (int64_t)(batches - 10) * SEC;
    const struct store_filter *f[2] = { &one, &last10 };
    double best[2] = { 1e18, 1e18 };
    long rows[2] = { 0, 0 };
    for (int q = 0; q < 2; q++) {
        for (int rep = 0; rep < (q ? 2 : 5); rep++) {
            struct counter c = { 0 };
            double c0 = cpu_seconds();
            store_range(st, f[q], count_cb, &c, NULL);
            double cpu = cpu_seconds() - c0;
            if (cpu < best[q])
                best[q] = cpu;
            rows[q] = c.n;
        }
    }
    printf("read, %s: one series over %d s (%ld samples) %.2f ms CPU; all %d series over "
           "the last 10 s (%ld samples) %.2f s CPU\n",
           label, batches, rows[0], best[0] * 1e3, SERIES, rows[1], best[1]);
}

int main(int argc, char **argv)
{
    int batches = argc > 1 ? atoi(argv[1]) : 209;
    int ref_batches = argc > 2 ? atoi(argv[2]) : 60;
    if (batches < 20)
        batches = 20;
    if (ref_batches < 10)
        ref_batches = 10;
    make_templates();
    char path[256];
    snprintf(path, sizeof(path), "/tmp/dcbkit-bench-steady-%d.db", (int)getpid());
    cost = calloc((size_t)(batches > ref_batches ? batches : ref_batches), sizeof(*cost));
    if (!cost)
        return fail("memory", "out of memory");
    struct dcb_err err;

    /* the two tiers, default merge age and row cap */
    remove_db(path);
    struct dcb_store *st;
    struct store_options opt = { .path = path };
    if (store_open_sqlite(&st, &opt, &err) < 0)
        return fail("open", err.msg);
    double c0 = cpu_seconds();
    if (run_batches(st, path, batches))
        return 1;
    double total = cpu_seconds() - c0;
    int merges = 0;
    double merge_cpu = 0, merge_max = 0, merge_wall = 0;
    for (int b = 0; b < batches; b++) {
        if (cost[b].merged) {
            merges++;
            merge_cpu += cost[b].cpu;
            merge_wall += cost[b].wall;
            merge_max = cost[b].cpu > merge_max ? cost[b].cpu : merge_max;
        }
    }
    printf("steady state: %d series, one sample each a batch, %d batches (synthetic 1 s apart)\n",
           SERIES, batches);
    print_phases("two tiers", cost, batches);
    printf("two tiers: %d merges (batch and merge in one commit) %.2f s CPU each on average "
           "(max %.2f, wall %.2f); all batches %.3f s CPU each on average, merges included "
           "= %.1f%% of a core at one batch a second\n",
           merges, merges ? merge_cpu / merges : 0, merge_max, merges ? merge_wall / merges : 0,
           total / batches, 100 * total / batches);
    printf("two tiers: each merge's batch, CPU s:");
    for (int b = 0; b < batches; b++) {
        if (cost[b].merged)
            printf(" %d: %.2f", b + 1, cost[b].cpu);
    }
    printf("\ntwo tiers: WAL %.1f MB at the end\n", wal_mb(path));

    time_reads(st, batches, "recent tier full");
    double m0 = cpu_seconds();
    int64_t w0 = bench_now_ns();
    if (store_close(st, &err) < 0)
        return fail("close", err.msg);
    printf("two tiers: close (merges the tier) %.2f s CPU, %.2f s wall; WAL %.1f MB after\n",
           cpu_seconds() - m0, (double)(bench_now_ns() - w0) / 1e9, wal_mb(path));
    struct store_options ro = { .path = path, .readonly = true };
    if (store_open_sqlite(&st, &ro, &err) < 0)
        return fail("open", err.msg);
    time_reads(st, batches, "recent tier empty");
    store_close(st, NULL);
    remove_db(path);

    /* the reference: a merge every flush, a leaf page per series a commit */
    struct store_options every = { .path = path, .merge_max_rows = 1 };
    if (store_open_sqlite(&st, &every, &err) < 0)
        return fail("open", err.msg);
    c0 = cpu_seconds();
    if (run_batches(st, path, ref_batches))
        return 1;
    total = cpu_seconds() - c0;
    for (int b = 0; b < ref_batches; b++)
        cost[b].merged = false;
    print_phases("merge every flush (a page per series a commit)", cost, ref_batches);
    printf("merge every flush: %.3f s CPU per batch on average over %d batches; WAL %.1f MB\n",
           total / ref_batches, ref_batches, wal_mb(path));
    store_close(st, NULL);
    remove_db(path);
    free(cost);
    return 0;
}
