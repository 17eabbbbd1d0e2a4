/* The scenario runner's speed: every scenario of fixtures/scenarios as `dcbkit replay` runs it
 * (hooks, digest, counters carried across passes), then two longer runs: healthy-incast with
 * long flows for 50 ms, and the built-in demo for 2 s of simulated time. Each is compared with
 * the bare simulator (replay_run, no hooks) on the same fabric, flows and options in the same
 * process. Prints events per CPU second (getrusage: the machine may be shared) and per wall
 * second; never asserts on time.
 *   bench_scenario [SCENARIO_DIR, default fixtures/scenarios] */
#include <dirent.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench.h"
#include "scenario.h"

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The bare simulator, one pass after another, for the same simulated time. */
static double bare_events_per_cpu_s(const struct scenario *sc, int64_t total_ns)
{
    struct replay_options o = sc->options;
    o.faults = sc->faults;
    o.nfaults = sc->nfaults;
    o.after = sc->workload.after;
    uint64_t events = 0;
    double c0 = cpu_seconds();
    for (int64_t done = 0; done < total_ns; done += o.duration_ns) {
        if (total_ns - done < o.duration_ns)
            o.duration_ns = total_ns - done;
        struct replay_summary s;
        struct dcb_err err;
        if (replay_run(&sc->fabric, sc->workload.flows, sc->workload.nflows, &o, NULL, &s, &err) <
            0)
            return 0;
        events += s.events;
        replay_summary_free(&s);
    }
    double c = cpu_seconds() - c0;
    return c > 0 ? (double)events / c : 0;
}

static void bench(const char *label, struct scenario *sc, int64_t duration_ns)
{
    struct scenario_run_options ro = { .duration_ns = duration_ns };
    struct scenario_result r;
    struct dcb_err err;
    /* a first run warms the allocator (page faults on fresh heap), then both are measured */
    if (scenario_run(sc, &ro, NULL, &r, &err) < 0) {
        printf("  %-22s error: %s\n", label, err.msg);
        return;
    }
    int64_t simulated = r.simulated_ns;
    scenario_result_free(&r);
    double bare = bare_events_per_cpu_s(sc, simulated);
    double c0 = cpu_seconds();
    int64_t w0 = bench_now_ns();
    if (scenario_run(sc, &ro, NULL, &r, &err) < 0) {
        printf("  %-22s error: %s\n", label, err.msg);
        return;
    }
    double cpu = cpu_seconds() - c0, wall = (double)(bench_now_ns() - w0) / 1e9;
    double eps = cpu > 0 ? (double)r.events / cpu : 0;
    printf("  %-22s %8.2f ms simulated %5llu pass(es) %10llu events  %6.3f s cpu %6.3f s wall  "
           "%6.2f M events/cpu-s %6.2f M events/wall-s  bare %6.2f M/cpu-s (runner %.2fx)\n",
           label, (double)r.simulated_ns / 1e6, (unsigned long long)r.passes,
           (unsigned long long)r.events, cpu, wall, eps / 1e6,
           wall > 0 ? (double)r.events / wall / 1e6 : 0, bare / 1e6, bare > 0 ? eps / bare : 0);
    scenario_result_free(&r);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "fixtures/scenarios";
    mallopt(M_TRIM_THRESHOLD, 256 << 20); /* as dcbkit replay does */
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "bench_scenario: %s: cannot open (run from the project root)\n", dir);
        return 1;
    }
    char *names[64] = { NULL };
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 64) {
        size_t len = strlen(e->d_name);
        if (len > 5 && !strcmp(e->d_name + len - 5, ".json"))
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof(*names), cmp_name);
    printf("scenarios as `dcbkit replay` runs them:\n");
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        struct scenario sc;
        struct dcb_err err;
        if (scenario_load_file(&sc, path, NULL, 0, &err) < 0) {
            printf("  %s: %s\n", names[i], err.msg);
            free(names[i]);
            continue;
        }
        bench(sc.name, &sc, 0);
        scenario_free(&sc);
        free(names[i]);
    }
    printf("longer runs:\n");
    char path[4096];
    snprintf(path, sizeof(path), "%s/healthy-incast.json", dir);
    const char *sets[] = { "workload.bytes=0", "duration_ms=50" };
    struct scenario sc;
    struct dcb_err err;
    if (scenario_load_file(&sc, path, sets, 2, &err) == 0) {
        bench("8:1 long flows, 40G", &sc, 0);
        scenario_free(&sc);
    } else {
        printf("  %s\n", err.msg);
    }
    if (scenario_demo(&sc, NULL, 0, &err) == 0) {
        bench("demo, 2 s", &sc, 2000000000LL);
        scenario_free(&sc);
    }
    return 0;
}
