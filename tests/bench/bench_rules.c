/* The rules engine's speed, in two runs:
 *   - the whole catalog (rules/catalog) plus tests/bench/bench_rules.rules (rates, deltas,
 *     gauges over 30-60 s windows, event counts) over the live ring's latest 60 s for 1,000 ports
 *     x 8 priorities (six series per priority, 1 s samples, 2.9 M samples, a config snapshot per
 *     port with two lossless priorities). Target: under 100 ms. Twice: windows read along the
 *     ring's per-series chains (store_aggregate), then from the samples preloaded first (as
 *     dcbtop, diagnose and serve read the ring); both include opening the evidence, both print
 *     CPU time beside wall time and a digest of the findings, which must agree.
 *   - the same rule shapes with 24-hour windows once over a SQLite store holding 24 hours of 1 s
 *     samples for 64 ports (four series each). Target: under 5 s.
 *   - the configuration checks (rules/catalog/config.rules) over 1,000 ports' config snapshots
 *     and topology rows, with and without the rows naming each port's link partner (another of
 *     the ports), interleaved, medians of nine: what following the topology to the partner's config
 * for peer.* (and deviates()) costs. Target: at most 10% more. Prints figures; never asserts on
 * time. BENCH_RULES_HOURS shortens the SQLite history; BENCH_RULES_ONLY=ring or =peer runs the
 * first or the third alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "evidence_store.h"
#include "rules.h"
#include "store.h"

#define SEC 1000000000LL
#define NOW (1800000000LL * SEC)
#define PORTS 1000
#define PRIOS 8

/* This process's CPU time: on a shared machine, wall time is mostly the other processes'. */
static int64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static unsigned fired;
static uint64_t digest; /* of the findings' text, in order: a change of speed changes no finding */

static void digest_text(const char *s)
{
    for (; *s; s++)
        digest = (digest ^ (unsigned char)*s) * 1099511628211ULL;
    digest = (digest ^ 0xff) * 1099511628211ULL;
}

static void count_finding(void *arg, const struct finding *f)
{
    (void)arg;
    fired++;
    char prio[16];
    snprintf(prio, sizeof(prio), "%d/%d", f->prio, f->qp);
    const char *parts[] = { f->rule->id, f->device, f->ifname, prio, f->summary, f->proposed };
    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
        digest_text(parts[i]);
    for (size_t i = 0; i < f->nevidence; i++) {
        digest_text(f->evidence[i].name);
        digest_text(f->evidence[i].value);
    }
}

static int put(struct dcb_store *st, int64_t t, const char *dev, const char *ifn, enum metric_id m,
               int prio, int queue, uint64_t counter, double gauge)
{
    struct dcb_sample s;
    dcb_sample_set(&s, t, dev, ifn, m, prio, queue);
    if (metric_info(m)->kind == METRIC_COUNTER)
        s.value.counter = counter;
    else
        s.value.gauge = gauge;
    return store_put_sample(st, &s, NULL);
}

static const char port_config[] =
    "{\"pfc\":{\"enabled\":24},\"prio2tc\":[0,1,2,3,4,5,6,7],\"speed_bps\":400000000000,"
    "\"switch\":{\"buffer\":{\"3\":{\"xoff\":\"180KB\",\"headroom\":\"240KB\"},"
    "\"4\":{\"xoff\":\"180KB\",\"headroom\":\"240KB\"}}}}";

static int load_rules(struct rule_set *rs, const char *extra)
{
    struct dcb_err err;
    char dir[4096];
    rule_set_init(rs);
    if (rules_default_dir(dir, sizeof(dir)) < 0 || rule_set_load_dir(rs, dir, &err) < 0 ||
        rule_set_load_file(rs, extra, &err) < 0) {
        fprintf(stderr, "bench_rules: %s (run from the checkout: make bench)\n", err.msg);
        return -1;
    }
    return 0;
}

/* The rule set over the ring at NOW: windows read along each series' chain in the ring
 * (store_aggregate), or from the samples preloaded first, as dcbtop, diagnose and serve read it. */
static int ring_rules(const struct rule_set *rs, struct dcb_store *st, bool preload)
{
    struct dcb_err err;
    int64_t start = bench_now_ns(), cpu0 = cpu_ns();
    struct evidence ev;
    if (evidence_store_open(&ev, st, NOW, &err) < 0 ||
        (preload && evidence_store_preload(&ev, NOW - 600 * SEC, &err) < 0)) {
        fprintf(stderr, "bench_rules: %s\n", err.msg);
        return -1;
    }
    int64_t cpu1 = cpu_ns();
    struct rule_run_options opt = { .now_ns = NOW, .on_finding = count_finding };
    struct rule_run_stats stats;
    fired = 0;
    digest = 1469598103934665603ULL;
    if (rule_set_run(rs, &ev, &opt, &stats, &err) < 0) {
        fprintf(stderr, "bench_rules: %s\n", err.msg);
        return -1;
    }
    int64_t end = bench_now_ns(), cpu2 = cpu_ns();
    printf("ring, latest 60 s%s: %zu rules, %llu instances, %u findings (digest %016llx) in "
           "%.1f ms, CPU %.1f ms (target 100; CPU: ports and configs%s %.1f ms, evaluation %.1f "
           "ms, %.2f M instances/s)\n",
           preload ? ", preloaded" : "", rs->n, (unsigned long long)stats.instances, fired,
           (unsigned long long)digest, (double)(end - start) / 1e6, (double)(cpu2 - cpu0) / 1e6,
           preload ? ", samples" : "", (double)(cpu1 - cpu0) / 1e6, (double)(cpu2 - cpu1) / 1e6,
           (double)stats.instances / ((double)(cpu2 - cpu1) / 1e9) / 1e6);
    evidence_store_close(&ev);
    return 0;
}

static int ring_run(void)
{
    struct dcb_store *st;
    struct dcb_err err;
    if (store_open_ring(&st, 3u << 20, 4096, &err) < 0)
        return -1;
    int64_t t0 = bench_now_ns();
    for (int p = 0; p < PORTS; p++) {
        char dev[32], ifn[32];
        snprintf(dev, sizeof(dev), "leaf%d", p / 64);
        snprintf(ifn, sizeof(ifn), "Ethernet%d", p % 64);
        struct store_config_row row = { NOW, dev, ifn, "gnmi", port_config };
        store_put_config(st, &row, NULL);
        for (int t = 0; t <= 60; t++) {
            int64_t ts = NOW - (60 - t) * SEC;
            for (int prio = 0; prio < PRIOS; prio++) {
                put(st, ts, dev, ifn, METRIC_PFC_RX_PAUSE, prio, -1, (uint64_t)(t * (p % 7)), 0);
                put(st, ts, dev, ifn, METRIC_PFC_RX_PAUSE_US, prio, -1, (uint64_t)(t * 1000), 0);
                put(st, ts, dev, ifn, METRIC_PRIO_RX_BYTES, prio, -1, (uint64_t)t * 1000000000, 0);
                put(st, ts, dev, ifn, METRIC_PG_DROPS, prio, -1, 0, 0);
                put(st, ts, dev, ifn, METRIC_QUEUE_DEPTH_BYTES, -1, prio, 0, (double)(t * 1000));
                put(st, ts, dev, ifn, METRIC_QUEUE_ECN_MARKED, -1, prio, (uint64_t)t, 0);
            }
        }
    }
    struct store_info info;
    store_info(st, &info, NULL);
    printf("ring: %llu samples of %d ports x %d priorities built in %.1f s\n",
           (unsigned long long)info.samples, PORTS, PRIOS, (double)(bench_now_ns() - t0) / 1e9);
    struct rule_set rs;
    if (load_rules(&rs, "tests/bench/bench_rules.rules") < 0)
        return -1;
    int rc = ring_rules(&rs, st, false);
    if (rc == 0)
        rc = ring_rules(&rs, st, true);
    rule_set_free(&rs);
    store_close(st, NULL);
    return rc;
}

static int sqlite_run(void)
{
    const char *env = getenv("BENCH_RULES_HOURS");
    int hours = env ? atoi(env) : 24;
    if (hours < 1)
        hours = 1;
    char path[64];
    snprintf(path, sizeof(path), "/tmp/dcbkit-bench-rules.%d.db", (int)getpid());
    struct dcb_store *st;
    struct dcb_err err;
    struct store_options so = { .path = path };
    if (store_open_sqlite(&st, &so, &err) < 0) {
        fprintf(stderr, "bench_rules: %s\n", err.msg);
        return -1;
    }
    int64_t t0 = bench_now_ns();
    int64_t span = (int64_t)hours * 3600;
    for (int p = 0; p < 64; p++) {
        char ifn[32];
        snprintf(ifn, sizeof(ifn), "Ethernet%d", p);
        struct store_config_row row = { NOW, "leaf1", ifn, "gnmi", port_config };
        store_put_config(st, &row, NULL);
    }
    for (int64_t t = 0; t <= span; t++) {
        int64_t ts = NOW - (span - t) * SEC;
        for (int p = 0; p < 64; p++) {
            char ifn[32];
            snprintf(ifn, sizeof(ifn), "Ethernet%d", p);
            put(st, ts, "leaf1", ifn, METRIC_PFC_RX_PAUSE, 3, -1, (uint64_t)t, 0);
            put(st, ts, "leaf1", ifn, METRIC_PFC_RX_PAUSE_US, 3, -1, (uint64_t)t * 10, 0);
            put(st, ts, "leaf1", ifn, METRIC_PRIO_RX_BYTES, 3, -1, (uint64_t)t * 1000000, 0);
            put(st, ts, "leaf1", ifn, METRIC_QUEUE_DEPTH_BYTES, -1, 3, 0, (double)(t % 1000));
        }
    }
    store_flush(st, NULL);
    printf("sqlite: %d h x 64 ports x 4 series of 1 s samples built in %.1f s\n", hours,
           (double)(bench_now_ns() - t0) / 1e9);
    char rules[512];
    snprintf(rules, sizeof(rules), "/tmp/dcbkit-bench-rules.%d.rules", (int)getpid());
    FILE *fp = fopen(rules, "w");
    if (!fp)
        return -1;
    fprintf(fp,
            "[day-pfc]\nseverity = warn\nscope = priority\n"
            "when = rate(pfc.rx_pause{prio=$prio}[%dh]) > 0.5\nmessage = m\n"
            "[day-pause]\nseverity = warn\nscope = priority\n"
            "when = delta(pfc.rx_pause_us{prio=$prio}[%dh]) > 0\nmessage = m\n"
            "[day-bytes]\nseverity = info\nscope = priority\n"
            "when = rate(prio.rx_bytes{prio=$prio}[%dh]) > 0\nmessage = m\n"
            "[day-queue]\nseverity = info\nscope = priority\n"
            "when = avg(queue.depth_bytes{queue=$tc}[%dh]) > 100 and "
            "max(queue.depth_bytes{queue=$tc}[%dh]) < 1000\nmessage = m\n",
            hours, hours, hours, hours, hours);
    fclose(fp);
    struct rule_set rs;
    int rc = load_rules(&rs, rules);
    unlink(rules);
    if (rc < 0)
        return -1;
    int64_t start = bench_now_ns();
    struct evidence ev;
    struct rule_run_stats stats;
    struct rule_run_options opt = { .now_ns = NOW, .on_finding = count_finding };
    fired = 0;
    if (evidence_store_open(&ev, st, NOW, &err) < 0 ||
        rule_set_run(&rs, &ev, &opt, &stats, &err) < 0) {
        fprintf(stderr, "bench_rules: %s\n", err.msg);
        return -1;
    }
    printf("sqlite, %d-hour windows: %zu rules, %llu instances, %u findings in %.2f s "
           "(target 5 s)\n",
           hours, rs.n, (unsigned long long)stats.instances, fired,
           (double)(bench_now_ns() - start) / 1e9);
    evidence_store_close(&ev);
    rule_set_free(&rs);
    store_close(st, NULL);
    char wal[80], shm[80];
    snprintf(wal, sizeof(wal), "%s-wal", path);
    snprintf(shm, sizeof(shm), "%s-shm", path);
    unlink(path);
    unlink(wal);
    unlink(shm);
    return 0;
}

/* 1,000 ports in pairs: leafN:EthernetK <-> spineN:EthernetK, each with its config and a
 * topology row with its role; when linked, the row names the partner too. Both stores hold the
 * same rows, so the difference is following them to the partner. */
static struct dcb_store *config_store(bool linked)
{
    struct dcb_store *st;
    if (store_open_ring(&st, 1u << 16, 4096, NULL) < 0)
        return NULL;
    for (int p = 0; p < PORTS; p++) {
        char dev[32], peer[32], ifn[32], topo[160];
        snprintf(dev, sizeof(dev), "%s%d", p % 2 ? "spine" : "leaf", p / 128);
        snprintf(peer, sizeof(peer), "%s%d", p % 2 ? "leaf" : "spine", p / 128);
        snprintf(ifn, sizeof(ifn), "Ethernet%d", (p / 2) % 64);
        struct store_config_row row = { NOW, dev, ifn, "gnmi", port_config };
        store_put_config(st, &row, NULL);
        snprintf(topo, sizeof(topo),
                 "{\"role\":\"switch\",\"peer\":{\"%s\":\"%s\","
                 "\"ifname\":\"%s\",\"role\":\"switch\"}}",
                 linked ? "device" : "name", peer, ifn);
        struct store_config_row t = { NOW, dev, ifn, "topology", topo };
        store_put_config(st, &t, NULL);
    }
    return st;
}

/* The whole run in ms; *open_ms the part that opens the evidence (and resolves partners). */
static double config_checks_ms(const struct rule_set *rs, struct dcb_store *st, double *open_ms)
{
    struct dcb_err err;
    struct evidence ev;
    struct rule_run_options opt = { .now_ns = NOW, .on_finding = count_finding };
    struct rule_run_stats stats;
    int64_t start = bench_now_ns();
    int rc = evidence_store_open(&ev, st, NOW, &err);
    *open_ms = (double)(bench_now_ns() - start) / 1e6;
    if (rc < 0 || rule_set_run(rs, &ev, &opt, &stats, &err) < 0) {
        fprintf(stderr, "bench_rules: %s\n", err.msg);
        return -1;
    }
    double ms = (double)(bench_now_ns() - start) / 1e6;
    evidence_store_close(&ev);
    return ms;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int peer_run(void)
{
    struct rule_set rs;
    struct dcb_err err;
    rule_set_init(&rs);
    if (rule_set_load_file(&rs, "rules/catalog/config.rules", &err) < 0) {
        fprintf(stderr, "bench_rules: %s (run from the checkout: make bench)\n", err.msg);
        return -1;
    }
    struct dcb_store *plain = config_store(false), *linked = config_store(true);
    enum { RUNS = 9 };
    double a[RUNS], b[RUNS], ao[RUNS], bo[RUNS];
    unsigned found[2] = { 0, 0 };
    int rc = plain && linked ? 0 : -1;
    for (int i = 0; i < RUNS && rc == 0; i++) {
        fired = 0;
        a[i] = config_checks_ms(&rs, plain, &ao[i]);
        found[0] = fired;
        fired = 0;
        b[i] = config_checks_ms(&rs, linked, &bo[i]);
        found[1] = fired;
        rc = a[i] < 0 || b[i] < 0 ? -1 : 0;
    }
    if (rc == 0) {
        double *all[] = { a, b, ao, bo };
        for (int k = 0; k < 4; k++)
            qsort(all[k], RUNS, sizeof(double), cmp_double);
        printf("config checks, %d ports: %.1f ms with no partner named, %.1f ms with each port's "
               "partner resolved (median of %d, interleaved): %+.1f%% (target <= +10%%); "
               "opening the evidence %.1f vs %.1f ms; %u vs %u findings\n",
               PORTS, a[RUNS / 2], b[RUNS / 2], RUNS, (b[RUNS / 2] / a[RUNS / 2] - 1) * 100,
               ao[RUNS / 2], bo[RUNS / 2], found[0], found[1]);
    }
    if (plain)
        store_close(plain, NULL);
    if (linked)
        store_close(linked, NULL);
    rule_set_free(&rs);
    return rc;
}

int main(void)
{
    const char *only = getenv("BENCH_RULES_ONLY"); /* one run alone (profiling) */
    if (only && !strcmp(only, "peer"))
        return peer_run() < 0 ? 1 : 0;
    if (only && !strcmp(only, "ring"))
        return ring_run() < 0 ? 1 : 0;
    if (ring_run() < 0 || peer_run() < 0)
        return 1;
    return sqlite_run() < 0 ? 1 : 0;
}
