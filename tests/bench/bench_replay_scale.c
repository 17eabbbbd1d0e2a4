/* The replay engine on large fabrics (issue 28): what setting one up costs, and how fast it
 * then runs. Each case runs in its own process, so that its peak RSS is its own:
 *   - a 16,384-host leaf-spine (256 leaves x 64 hosts, 32 spines, 100G; the most
 *     docs/fabric.md allows), a permutation (each host one QP to another, a random
 *     derangement), 10 us simulated: setup time and peak RSS (target under 10 s and 2 GB);
 *   - a 4,096-host leaf-spine (64 x 64, 16 spines, 100G), a permutation, 100 us simulated: setup,
 *     packet-hops per second of wall and of CPU time, and peak RSS.
 * Setup is from the fabric's text to the first instant of simulated time (the fabric generated
 * and loaded, nodes, ports, routes and flows built), taken at the first series point; the run
 * is the rest. A packet-hop is a packet crossing a link. Never asserts on time.
 *   bench_replay_scale [16k|4k]   (default both) */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "fabric.h"
#include "replay.h"

#define QOS                                                                           \
    "\"defaults\":{\"trust\":\"dscp\",\"dscp2prio\":{\"26\":3,\"48\":6},"             \
    "\"pfc\":{\"enabled\":8},\"ets\":{\"tsa\":[\"ets\",\"ets\",\"ets\",\"ets\","      \
    "\"ets\",\"ets\",\"strict\",\"ets\"],\"bw\":[50,0,0,50,0,0,0,0]}},"               \
    "\"switch_defaults\":{\"switch\":{\"wred\":{\"3\":{\"min_bytes\":\"100KB\","      \
    "\"max_bytes\":\"400KB\",\"max_p\":5,\"ecn\":true}},\"buffer\":{\"3\":{\"xoff\":" \
    "\"400KB\",\"xon\":\"200KB\",\"headroom\":\"400KB\"}}}}"

struct scale_case {
    const char *name, *what;
    int leaves, spines, hosts_per_leaf;
    int64_t duration_ns;
};

static const struct scale_case cases[] = {
    { "16k", "16,384-host leaf-spine (256x64, 32 spines, 100G), permutation, 10 us", 256, 32, 64,
      10000 },
    { "4k", "4,096-host leaf-spine (64x64, 16 spines, 100G), permutation, 100 us", 64, 16, 64,
      100000 },
};

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

struct clock_marks {
    int64_t first_ns; /* wall time at the first series point: setup done */
    double first_cpu;
};

static void first_point(void *arg, const struct replay_series_point *p)
{
    (void)p;
    struct clock_marks *m = arg;
    if (!m->first_ns) {
        m->first_ns = bench_now_ns();
        m->first_cpu = cpu_seconds();
    }
}

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int run_case(const struct scale_case *c)
{
    int hosts = c->leaves * c->hosts_per_leaf;
    char text[2048];
    snprintf(text, sizeof(text),
             "{\"generate\":{\"type\":\"leaf-spine\",\"leaves\":%d,"
             "\"spines\":%d,\"hosts_per_leaf\":%d,\"speed\":\"100G\",\"cable_m\":3,"
             "\"uplink_cable_m\":10}," QOS "}",
             c->leaves, c->spines, c->hosts_per_leaf);
    char(*names)[16] = calloc((size_t)hosts, sizeof(*names));
    struct replay_flow *flows = calloc((size_t)hosts, sizeof(*flows));
    int *to = calloc((size_t)hosts, sizeof(*to));
    if (!names || !flows || !to)
        return 1;
    /* Sattolo's shuffle: one cycle through every host, nobody sends to itself */
    uint64_t x = 1;
    for (int i = 0; i < hosts; i++) {
        to[i] = i;
        snprintf(names[i], sizeof(names[i]), "host%d", i + 1);
    }
    for (int i = hosts - 1; i > 0; i--) {
        int j = (int)(splitmix(&x) % (uint64_t)i), t = to[i];
        to[i] = to[j];
        to[j] = t;
    }
    for (int i = 0; i < hosts; i++)
        flows[i] = (struct replay_flow){ names[i], names[to[i]], 0,
                                         0,        26,           (uint16_t)(49152 + i % 16384),
                                         1000 };
    struct clock_marks m = { 0, 0 };
    struct replay_hooks hooks = { NULL, NULL, first_point, &m };
    struct replay_options o;
    replay_options_init(&o);
    o.duration_ns = c->duration_ns;
    o.sample_interval_ns = 0;
    o.series_interval_ns = c->duration_ns; /* a point at 0: setup is done */
    struct replay_summary sum;
    struct dcb_err err;
    int64_t t0 = bench_now_ns();
    double c0 = cpu_seconds();
    struct fabric f;
    fabric_init(&f);
    int rc = fabric_load_text(&f, text, strlen(text), c->name, &err);
    if (rc == 0)
        rc = replay_run(&f, flows, (size_t)hosts, &o, &hooks, &sum, &err);
    int64_t t1 = bench_now_ns();
    double c1 = cpu_seconds();
    if (rc < 0) {
        fprintf(stderr, "bench_replay_scale: %s: %s\n", c->name, err.msg);
        return 1;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double setup = (double)(m.first_ns - t0) / 1e9, run = (double)(t1 - m.first_ns) / 1e9;
    double run_cpu = c1 - m.first_cpu;
    printf("%s: setup %.2f s wall, %.2f s CPU (target under 10 s); run %.2f s wall, %.2f s CPU: "
           "%llu events, %llu packet-hops, %.2f M packet-hops/s, per CPU second %.2f M; "
           "peak RSS %ld MB (target under 2048)\n",
           c->what, setup, m.first_cpu - c0, run, run_cpu, (unsigned long long)sum.events,
           (unsigned long long)sum.packet_hops, (double)sum.packet_hops / run / 1e6,
           (double)sum.packet_hops / run_cpu / 1e6, ru.ru_maxrss / 1024);
    replay_summary_free(&sum);
    fabric_free(&f);
    free(names);
    free(flows);
    free(to);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2) {
        fprintf(stderr, "usage: bench_replay_scale [16k|4k]\n");
        return 64;
    }
    int failed = 0;
    bool any = false;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        if (argc > 1 && strcmp(argv[1], cases[i].name))
            continue;
        any = true;
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            int rc = run_case(&cases[i]);
            fflush(stdout);
            _exit(rc);
        }
        int status = 0;
        if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
            fprintf(stderr, "bench_replay_scale: %s failed\n", cases[i].name);
            failed = 1;
        }
    }
    if (!any) {
        fprintf(stderr, "bench_replay_scale: no case \"%s\" (16k, 4k)\n", argv[1]);
        return 64;
    }
    return failed;
}
