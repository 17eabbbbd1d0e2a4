/* bench_report: dcbkit report over a day of a 32-switch fabric. The store holds 32 switches x
 * 64 ports x 10 metrics, one sample every 60 s for 24 h: 29.5 million samples, written through
 * the store API in large batches (the build is timed too, but it is not the figure). Then
 * `dcbkit report` runs on it as a child; printed: its wall and CPU time, and the size of
 * report.html and report.json. The target is under 30 s and report.html under 5 MB; the bench
 * prints, it does not assert.
 *
 *   bench_report [DIR]      DIR keeps the store between runs (default: a temporary folder,
 *                           removed at the end); DCBKIT names the binary (default: beside the
 *                           bench, ../../bin/dcbkit). */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "store.h"

#define SWITCHES 32
#define PORTS 64
#define SAMPLES_PER_DAY 1440
#define STEP_NS (60LL * 1000000000LL)
#define T0_NS (1795392000LL * 1000000000LL) /* 2026-11-23 00:00 UTC */

static const struct {
    const char *metric;
    int prio, queue;
} metrics[10] = {
    { "port.rx_bytes", -1, -1 },        { "port.tx_bytes", -1, -1 },  { "pfc.rx_pause", 3, -1 },
    { "pfc.tx_pause", 3, -1 },          { "pfc.rx_pause_us", 3, -1 }, { "pfc.tx_pause_us", 3, -1 },
    { "queue.ecn_marked", -1, 3 },      { "queue.drops", -1, 3 },     { "pg.drops", 3, -1 },
    { "queue.watermark_bytes", -1, 3 },
};

static double cpu_s(int who)
{
    struct rusage ru;
    getrusage(who, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

/* Counters that climb at a per-port rate, a few ports much faster: top offenders exist. */
static int build_store(const char *path)
{
    struct dcb_err err;
    struct dcb_store *st;
    struct store_options so = { .path = path,
                                .batch_max_samples = 500000,
                                .batch_max_age_ns = INT64_MAX };
    if (store_open_sqlite(&st, &so, &err) < 0) {
        fprintf(stderr, "bench_report: %s\n", err.msg);
        return -1;
    }
    enum metric_id ids[10];
    for (int m = 0; m < 10; m++)
        ids[m] = metric_lookup(metrics[m].metric);
    uint64_t n = 0;
    for (int t = 0; t < SAMPLES_PER_DAY; t++) {
        int64_t ts = T0_NS + (int64_t)t * STEP_NS;
        for (int sw = 0; sw < SWITCHES; sw++) {
            char dev[32];
            snprintf(dev, sizeof(dev), "leaf%02d", sw);
            for (int p = 0; p < PORTS; p++) {
                char ifname[32];
                snprintf(ifname, sizeof(ifname), "Ethernet%d", p * 4);
                uint64_t hot = (uint64_t)((sw * 7 + p * 13) % 97 == 0 ? 500 : 1);
                for (int m = 0; m < 10; m++) {
                    struct dcb_sample s;
                    dcb_sample_set(&s, ts, dev, ifname, ids[m], metrics[m].prio, metrics[m].queue);
                    uint64_t base = (uint64_t)t * (uint64_t)(m + 1) * hot;
                    if (m == 9)
                        s.value.gauge = (double)((t * 37 + p) % 5000) * 100;
                    else
                        s.value.counter = m < 2 ? base * 40000000ULL : base * 10;
                    if (store_put_sample(st, &s, &err) < 0) {
                        fprintf(stderr, "bench_report: %s\n", err.msg);
                        store_close(st, NULL);
                        return -1;
                    }
                    n++;
                }
            }
        }
        if (t % 240 == 239 && isatty(STDERR_FILENO))
            fprintf(stderr, "bench_report: store %d/24 h\n", (t + 1) / 60);
    }
    if (store_close(st, &err) < 0) {
        fprintf(stderr, "bench_report: %s\n", err.msg);
        return -1;
    }
    printf("store: %" PRIu64 " samples (%d switches x %d ports x 10 metrics x %d)\n", n, SWITCHES,
           PORTS, SAMPLES_PER_DAY);
    return 0;
}

static int write_fabric(const char *path)
{
    FILE *fp = fopen(path, "w");
    if (!fp)
        return -1;
    fputs("{\"name\": \"bench-32x64\", \"defaults\": {\"trust\": \"dscp\", \"pfc\": {\"enabled\": "
          "8}},"
          " \"devices\": [",
          fp);
    for (int sw = 0; sw < SWITCHES; sw++) {
        fprintf(fp, "%s{\"name\": \"leaf%02d\", \"role\": \"switch\", \"interfaces\": {",
                sw ? ", " : "", sw);
        for (int p = 0; p < PORTS; p++)
            fprintf(fp, "%s\"Ethernet%d\": {}", p ? ", " : "", p * 4);
        fputs("}}", fp);
    }
    fputs("], \"links\": []}\n", fp);
    return fclose(fp);
}

static long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

int main(int argc, char **argv)
{
    char dir[PATH_MAX], dcbkit[PATH_MAX], db[PATH_MAX + 32], fabric[PATH_MAX + 32],
        out[PATH_MAX + 32];
    bool temporary = argc < 2;
    if (temporary) {
        snprintf(dir, sizeof(dir), "%s/dcbkit-bench-report.XXXXXX",
                 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        if (!mkdtemp(dir)) {
            perror("bench_report: mkdtemp");
            return 1;
        }
    } else {
        snprintf(dir, sizeof(dir), "%s", argv[1]);
        mkdir(dir, 0777);
    }
    if (getenv("DCBKIT")) {
        snprintf(dcbkit, sizeof(dcbkit), "%s", getenv("DCBKIT"));
    } else {
        char self[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
        self[n > 0 ? n : 0] = '\0';
        snprintf(dcbkit, sizeof(dcbkit), "%s/../../bin/dcbkit", dirname(self));
    }
    snprintf(db, sizeof(db), "%s/day.db", dir);
    snprintf(fabric, sizeof(fabric), "%s/fabric.json", dir);
    snprintf(out, sizeof(out), "%s/out", dir);
    if (write_fabric(fabric) != 0) {
        perror("bench_report: fabric");
        return 1;
    }
    if (access(db, F_OK) != 0) {
        int64_t t = bench_now_ns();
        double c = cpu_s(RUSAGE_SELF);
        if (build_store(db) < 0)
            return 1;
        printf("store build: %.1f s wall, %.1f s CPU, %.0f MB\n", (bench_now_ns() - t) / 1e9,
               cpu_s(RUSAGE_SELF) - c, file_size(db) / 1e6);
    } else {
        printf("store: reusing %s\n", db);
    }

    fflush(stdout);
    int64_t t = bench_now_ns();
    double c0 = cpu_s(RUSAGE_CHILDREN);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execl(dcbkit, "dcbkit", "report", "--fabric", fabric, "--store", db, "--since", "24h",
              "--out", out, "-q", (char *)NULL);
        fprintf(stderr, "bench_report: %s: %s\n", dcbkit, strerror(errno));
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    double wall = (bench_now_ns() - t) / 1e9, cpu = cpu_s(RUSAGE_CHILDREN) - c0;
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    char html[PATH_MAX + 64], json[PATH_MAX + 64];
    snprintf(html, sizeof(html), "%s/report.html", out);
    snprintf(json, sizeof(json), "%s/report.json", out);
    printf("report: %.2f s wall, %.2f s CPU (target < 30 s), exit %d; report.html %.2f MB "
           "(target < 5 MB), report.json %.2f MB\n",
           wall, cpu, rc, file_size(html) / 1e6, file_size(json) / 1e6);
    if (temporary) {
        char cmd[PATH_MAX + 16];
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "bench_report: could not remove %s\n", dir);
    }
    return rc <= 3 ? 0 : 1;
}
