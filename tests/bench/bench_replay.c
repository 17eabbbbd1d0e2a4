/* The replay engine's speed on the two workloads of the issue:
 *   - an 8:1 incast on a star at 40 Gb/s, 1 us links (200 m), 1000-byte payloads, every sender
 *     at line rate, 5 ms of simulated time: what an ns-3 user would run;
 *   - a 128-host leaf-spine (8 leaves x 16 hosts, 4 spines, 100G) running all-to-all (one QP per
 *     ordered pair) for 20 ms.
 * Prints events/s and packet-hops per wall second (a packet crossing one link is one hop), and
 * peak memory, per wall second and per CPU second (getrusage: the machine may be shared).
 * The incasts run 20 times each (one is too short to time), the all-to-all three times, with
 * the best, median and worst of those three. Target: at least 10 million events/s on one core.
 * Never asserts on time.
 *   bench_replay [all-to-all duration in ms, default 20] [--all-to-all-only]   (one run, for
 *   profiling) */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench.h"
#include "fabric.h"
#include "replay.h"

#define DSCP2PRIO                                                                 \
    "\"dscp2prio\":[0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,2,2,2,2,2,2,2,2,3,3,3,3,3,3," \
    "3,3,4,4,4,4,4,4,4,4,5,5,5,5,5,5,5,5,6,6,6,6,6,6,6,6,7,7,7,7,7,7,7,7]"
#define QOS                                                                            \
    "\"defaults\":{\"trust\":\"dscp\"," DSCP2PRIO ",\"pfc\":{\"enabled\":8},"          \
    "\"ets\":{\"tsa\":[\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"strict\","    \
    "\"ets\"],\"bw\":[50,0,0,50,0,0,0,0]}},\"switch_defaults\":{\"switch\":{\"wred\":" \
    "{\"3\":{\"min_bytes\":\"%s\",\"max_bytes\":\"%s\",\"max_p\":5,\"ecn\":true}},"    \
    "\"buffer\":{\"3\":{\"xoff\":\"400KB\",\"xon\":\"200KB\",\"headroom\":\"400KB\"}}}}"

#define INCAST_RUNS 20
#define ALL_TO_ALL_RUNS 3
#define STR2(x) #x
#define STR(x) STR2(x)

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* The same run `runs` times (a short run alone is too quick to time on a busy machine); the
 * figures are over all of them, the counts those of one run. *events_per_s: the wall figure. */
static int run(const char *what, const char *text, struct replay_flow *flows, size_t n,
               int64_t duration_ns, bool dcqcn, int runs, double *events_per_s)
{
    struct fabric f;
    fabric_init(&f);
    struct dcb_err err;
    if (fabric_load_text(&f, text, strlen(text), what, &err) < 0) {
        fprintf(stderr, "bench_replay: %s\n", err.msg);
        return 1;
    }
    struct replay_options o;
    replay_options_init(&o);
    o.duration_ns = duration_ns;
    o.sample_interval_ns = 1000000;
    o.dcqcn_off = !dcqcn;
    struct replay_summary sum = { 0 };
    int64_t t0 = bench_now_ns();
    double c0 = cpu_seconds();
    for (int i = 0; i < runs; i++) {
        replay_summary_free(&sum);
        if (replay_run(&f, flows, n, &o, NULL, &sum, &err) < 0) {
            fprintf(stderr, "bench_replay: %s\n", err.msg);
            fabric_free(&f);
            return 1;
        }
    }
    double secs = (double)(bench_now_ns() - t0) / 1e9 / runs, cpu = (cpu_seconds() - c0) / runs;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%s%s: %.1f ms simulated in %.3f s wall, %.3f s CPU: %.1f M events/s (target 10), "
           "%.1f M packet-hops/s; per CPU second %.1f M events, %.1f M packet-hops; "
           "%llu events, %llu hops, %llu drops, %llu PFC frames, %llu CNPs; peak RSS %ld MB\n",
           what, runs > 1 ? " (mean of " STR(INCAST_RUNS) " runs)" : "", (double)duration_ns / 1e6,
           secs, cpu, (double)sum.events / secs / 1e6, (double)sum.packet_hops / secs / 1e6,
           (double)sum.events / cpu / 1e6, (double)sum.packet_hops / cpu / 1e6,
           (unsigned long long)sum.events, (unsigned long long)sum.packet_hops,
           (unsigned long long)sum.drops, (unsigned long long)sum.pfc_frames,
           (unsigned long long)sum.cnps, ru.ru_maxrss / 1024);
    *events_per_s = (double)sum.events / secs;
    replay_summary_free(&sum);
    fabric_free(&f);
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    bool only_all = argc > 1 && strcmp(argv[argc - 1], "--all-to-all-only") == 0;
    if (only_all)
        argc--;
    double all_ms = argc > 1 ? atof(argv[1]) : 20;
    if (argc > 2 || !(all_ms > 0)) {
        fprintf(stderr, "usage: bench_replay [all-to-all duration in ms, default 20] "
                        "[--all-to-all-only]\n");
        return 64;
    }
    char text[4096];
    snprintf(text, sizeof(text),
             "{\"generate\":{\"type\":\"star\",\"hosts\":9,\"speed\":\"40G\","
             "\"cable_m\":200}," QOS "}",
             "5KB", "200KB");
    struct replay_flow incast[8];
    char names[9][16];
    for (int i = 0; i < 8; i++) {
        snprintf(names[i], sizeof(names[i]), "host%d", i + 1);
        incast[i] = (struct replay_flow){ names[i], "host9", 0, 0, 26, (uint16_t)(1000 + i), 1000 };
    }
    /* "every sender at line rate": PFC only, so the senders stay there */
    double rate;
    if (!only_all && (run("8:1 incast, star, 40G, PFC only", text, incast, 8, 5000000, false,
                          INCAST_RUNS, &rate) ||
                      run("8:1 incast, star, 40G, DCQCN (paper)", text, incast, 8, 5000000, true,
                          INCAST_RUNS, &rate)))
        return 1;

    snprintf(text, sizeof(text),
             "{\"generate\":{\"type\":\"leaf-spine\",\"leaves\":8,"
             "\"spines\":4,\"hosts_per_leaf\":16,\"speed\":\"100G\",\"cable_m\":3,"
             "\"uplink_cable_m\":10}," QOS "}",
             "100KB", "400KB");
    enum { HOSTS = 128 };
    static char hosts[HOSTS][16];
    static struct replay_flow all[HOSTS * (HOSTS - 1)];
    size_t n = 0;
    for (int i = 0; i < HOSTS; i++)
        snprintf(hosts[i], sizeof(hosts[i]), "host%d", i + 1);
    for (int s = 0; s < HOSTS; s++)
        for (int d = 0; d < HOSTS; d++)
            if (s != d) {
                all[n] = (struct replay_flow){ hosts[s], hosts[d], 0,
                                               0,        26,       (uint16_t)(10000 + n % 50000),
                                               1000 };
                n++;
            }
    /* Three runs, each on its own: on a shared machine one run can lose a third of its speed to
     * a neighbour, and the best and the median say more about the code than one run does. */
    int runs = only_all ? 1 : ALL_TO_ALL_RUNS;
    double rates[ALL_TO_ALL_RUNS];
    for (int i = 0; i < runs; i++)
        if (run("all-to-all, 128-host leaf-spine, 100G, DCQCN (paper)", text, all, n,
                (int64_t)(all_ms * 1e6), true, 1, &rates[i]))
            return 1;
    if (runs > 1) {
        qsort(rates, (size_t)runs, sizeof(rates[0]), cmp_double);
        printf("all-to-all, %d runs: best %.1f, median %.1f, worst %.1f M events/s (target 10)\n",
               runs, rates[runs - 1] / 1e6, rates[runs / 2] / 1e6, rates[0] / 1e6);
    }
    return 0;
}
