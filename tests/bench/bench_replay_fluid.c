/* The replay engine against DCQCN's fluid model (rules/replay/fluid.h): the targets of the
 * engine's model checks, measured, with the commands' setting spelled out so that the table in
 * rules/replay/README.md can be made again. Prints a markdown table; never fails on a figure (a
 * missed target says "missed"), only on an error.
 *
 * Setting: a star, one sender per ingress port into one egress port, 2 m cables, the paper
 * preset, 1000-byte payloads, long-lived flows, marking at dequeue, RED 5 KB / 200 KB / 1 %.
 *   fixed points   40G: 2, 4, 8, 10 flows; 100G: 2, 10, 20 flows. 1 s, the bottleneck queue
 *                  averaged from 300 ms on, sampled every 10 us, against the fixed point with
 *                  the engine's frames (1062 bytes queued, 1082 on the wire) and with the
 *                  paper's 1000-byte packets. Jain in the 10 ms windows at 8 flows.
 *   PFC            8 flows at 40G with XOFF 24.47 KB (the paper's static threshold), XON 2.5 KB:
 *                  XOFFs after convergence (100-300 ms as the issue counted, and 300-1000 ms).
 *   join           a second flow joins one at 40G at 100 ms: when their rates (1 ms means) first
 *                  come within 10 % of fair share, against the fluid model's time, then the
 *                  share of 10 ms windows with both within 10 % of their mean.
 *   bench_replay_fluid [seed]   (default 1) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "fabric.h"
#include "fluid.h"
#include "replay.h"

#define DSCP2PRIO                                                                 \
    "\"dscp2prio\":[0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,2,2,2,2,2,2,2,2,3,3,3,3,3,3," \
    "3,3,4,4,4,4,4,4,4,4,5,5,5,5,5,5,5,5,6,6,6,6,6,6,6,6,7,7,7,7,7,7,7,7]"
#define MAX_FLOWS 32

static uint64_t seed = 1;

static int star(struct fabric *f, unsigned hosts, double gbps, const char *xoff, const char *xon)
{
    char text[2048];
    snprintf(text, sizeof(text),
             "{\"generate\":{\"type\":\"star\",\"hosts\":%u,\"speed\":\"%gG\",\"cable_m\":2},"
             "\"defaults\":{\"trust\":\"dscp\"," DSCP2PRIO ",\"pfc\":{\"enabled\":8},"
             "\"ets\":{\"tsa\":[\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"strict\",\"ets\"]"
             ","
             "\"bw\":[50,0,0,50,0,0,0,0]}},"
             "\"switch_defaults\":{\"switch\":{\"wred\":{\"3\":{\"min_bytes\":\"5KB\","
             "\"max_bytes\":\"200KB\",\"max_p\":1,\"ecn\":true}},"
             "\"buffer\":{\"3\":{\"xoff\":\"%s\",\"xon\":\"%s\",\"headroom\":\"1MB\"}}}}}",
             hosts, gbps, xoff, xon);
    struct dcb_err err;
    fabric_init(f);
    if (fabric_load_text(f, text, strlen(text), "bench", &err) < 0) {
        fprintf(stderr, "bench_replay_fluid: %s\n", err.msg);
        return -1;
    }
    return 0;
}

struct run {
    unsigned n;
    double gbps;
    const char *xoff, *xon;
    int64_t duration_ns, warmup_ns, join_ns; /* join: the last flow starts then */
    const struct replay_hooks *hooks;
    struct replay_summary sum;
    double queue_bytes; /* the bottleneck's mean after the warm-up */
};

static char names[MAX_FLOWS + 1][16];

static int run(struct run *r)
{
    struct fabric f;
    if (star(&f, r->n + 1, r->gbps, r->xoff, r->xon) < 0)
        return -1;
    struct replay_flow flows[MAX_FLOWS];
    for (unsigned i = 0; i < r->n; i++)
        flows[i] = (struct replay_flow){
            names[i], names[r->n], 0, i + 1 == r->n ? r->join_ns : 0, 26, (uint16_t)(1000 + i), 1000
        };
    struct replay_options o;
    replay_options_init(&o);
    o.seed = seed;
    o.duration_ns = r->duration_ns;
    o.warmup_ns = r->warmup_ns;
    o.sample_interval_ns = 0;
    o.series_interval_ns = 10000;
    struct dcb_err err;
    int rc = replay_run(&f, flows, r->n, &o, r->hooks, &r->sum, &err);
    fabric_free(&f);
    if (rc < 0) {
        fprintf(stderr, "bench_replay_fluid: %s\n", err.msg);
        return -1;
    }
    char bottleneck[16];
    snprintf(bottleneck, sizeof(bottleneck), "Ethernet%u", r->n);
    for (size_t i = 0; i < r->sum.nqueues; i++)
        if (!strcmp(r->sum.queues[i].ifname, bottleneck) && r->sum.queues[i].tc == 3)
            r->queue_bytes = r->sum.queues[i].mean_bytes;
    return 0;
}

static double fixed_point(double gbps, unsigned n, bool engine_frames)
{
    struct fluid_model m;
    fluid_model_paper(&m, gbps * 1e9, n);
    if (engine_frames)
        fluid_model_payload(&m, 1000);
    struct fluid_point fp;
    fluid_fixed_point(&m, &fp);
    return fp.queue_bytes;
}

static int fixed_points(double *jain_099_at_8)
{
    static const struct {
        double gbps;
        unsigned n;
        double tolerance;
    } cases[] = {
        { 40, 2, 0.15 },  { 40, 4, 0.15 },   { 40, 8, 0.15 },   { 40, 10, 0.25 },
        { 100, 2, 0.15 }, { 100, 10, 0.15 }, { 100, 20, 0.25 },
    };
    printf("| link, flows | engine (KB) | fixed point, engine frames (KB) | fixed point, 1000-byte "
           "packets (KB) | target | |\n|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct run r = { cases[i].n, cases[i].gbps, "2MB", "1MB", 1000000000, 300000000,
                         0,          NULL,          { 0 }, 0 };
        if (run(&r) < 0)
            return -1;
        double fp = fixed_point(cases[i].gbps, cases[i].n, true);
        double fp1k = fixed_point(cases[i].gbps, cases[i].n, false);
        double off = r.queue_bytes / fp - 1, off1k = r.queue_bytes / fp1k - 1;
        printf("| %gG, N=%u | %.1f | %.1f (%+.0f %%) | %.1f (%+.0f %%) | %.0f %% | %s |\n",
               cases[i].gbps, cases[i].n, r.queue_bytes / 1000, fp / 1000, off * 100, fp1k / 1000,
               off1k * 100, cases[i].tolerance * 100,
               fabs(off) <= cases[i].tolerance ? "met" : "missed");
        if (cases[i].gbps == 40 && cases[i].n == 8)
            *jain_099_at_8 = r.sum.windows_jain_099;
        replay_summary_free(&r.sum);
    }
    return 0;
}

struct xoffs {
    int64_t from_ns, to_ns;
    unsigned count, late; /* from..to, and from to on */
};

static void count_xoff(void *arg, const struct dcb_event *e)
{
    struct xoffs *x = arg;
    if (e->kind != EVENT_PFC_XOFF)
        return;
    x->count += e->time_ns >= x->from_ns && e->time_ns < x->to_ns;
    x->late += e->time_ns >= x->to_ns;
}

static int pfc(void)
{
    struct xoffs x = { 100000000, 300000000, 0, 0 };
    struct replay_hooks h = { NULL, count_xoff, NULL, &x };
    struct run r = { 8, 40, "24.47KB", "2.5KB", 1000000000, 300000000, 0, &h, { 0 }, 0 };
    if (run(&r) < 0)
        return -1;
    printf("| 8 flows, 40G, XOFF 24.47 KB | %u XOFFs from 100 to 300 ms, %u from 300 to 1000 ms; "
           "queue %.1f KB, pause share %.2f %% | no XOFF after convergence | %s |\n",
           x.count, x.late, r.queue_bytes / 1000, r.sum.pause_fraction_max * 100,
           x.count + x.late == 0 ? "met" : "missed");
    replay_summary_free(&r.sum);
    return 0;
}

/* Each flow's Rc over 1 ms: the first 1 ms after the join at which they are within 10 % of
 * fair share of each other, once they have been apart. */
struct join {
    int64_t join_ns, bin_ns;
    double sum[2];
    long points[2];
    bool apart;
    int64_t converged_ns;
};

static void join_series(void *arg, const struct replay_series_point *p)
{
    struct join *j = arg;
    if (p->kind != SERIES_FLOW_RC || p->time_ns < j->join_ns || j->converged_ns >= 0)
        return;
    if (p->time_ns >= j->bin_ns + 1000000 && p->index == 0) {
        if (j->points[0] && j->points[1]) {
            double a = j->sum[0] / j->points[0], b = j->sum[1] / j->points[1];
            double fair = (a + b) / 2;
            if (fabs(a - b) >= 0.1 * fair)
                j->apart = true;
            else if (j->apart)
                j->converged_ns = j->bin_ns + 1000000 - j->join_ns;
        }
        j->bin_ns = p->time_ns;
        j->sum[0] = j->sum[1] = 0;
        j->points[0] = j->points[1] = 0;
    }
    j->sum[p->index] += p->value;
    j->points[p->index]++;
}

struct fluid_join {
    double join_s, fair, last_apart_s;
};

static void fluid_join_step(void *arg, double t, const double *rc, double q)
{
    struct fluid_join *j = arg;
    (void)q;
    if (t > j->join_s && fabs(rc[0] - rc[1]) >= 0.1 * j->fair)
        j->last_apart_s = t;
}

static int join(void)
{
    struct join j = { 100000000, 100000000, { 0, 0 }, { 0, 0 }, false, -1 };
    struct replay_hooks h = { NULL, NULL, join_series, &j };
    struct run r = { 2, 40, "2MB", "1MB", 1000000000, 0, 100000000, &h, { 0 }, 0 };
    if (run(&r) < 0)
        return -1;
    struct fluid_model m;
    fluid_model_paper(&m, 40e9, 2);
    fluid_model_payload(&m, 1000);
    double start[2] = { 0, 0.1 };
    struct fluid_join fj = { 0.1, 20e9, 0 };
    if (fluid_integrate(&m, start, 0.4, 1e-6, fluid_join_step, &fj) < 0)
        return -1;
    double fluid_ms = (fj.last_apart_s - fj.join_s) * 1e3;
    double ms = j.converged_ns >= 0 ? (double)j.converged_ns / 1e6 : INFINITY;
    replay_summary_free(&r.sum);
    /* the windows after convergence: the same run measured from there */
    r.warmup_ns = j.converged_ns >= 0 ? 100000000 + j.converged_ns : 100000000;
    r.hooks = NULL;
    if (run(&r) < 0)
        return -1;
    printf("| a second flow joins at 40G | within 10 %% after %.0f ms (fluid %.1f ms); then both "
           "within 10 %% in %.0f %% of %u windows | <= 2x the fluid time; >= 90 %% | %s |\n",
           ms, fluid_ms, r.sum.windows_fair * 100, r.sum.windows,
           ms <= 2 * fluid_ms && r.sum.windows_fair >= 0.9 ? "met" : "missed");
    replay_summary_free(&r.sum);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        seed = strtoull(argv[1], NULL, 10);
    for (unsigned i = 0; i <= MAX_FLOWS; i++)
        snprintf(names[i], sizeof(names[i]), "host%u", i + 1);
    int64_t t0 = bench_now_ns();
    double jain8 = 0;
    if (fixed_points(&jain8) < 0)
        return 1;
    printf("\n| case | measured | target | |\n|---|---|---|---|\n");
    if (pfc() < 0 || join() < 0)
        return 1;
    printf("| 8 flows at 40G, Jain in 10 ms windows | >= 0.99 in %.0f %% of windows | >= 90 %% | "
           "%s |\n",
           jain8 * 100, jain8 >= 0.9 ? "met" : "missed");
    printf("\n(seed %llu, %.1f s wall)\n", (unsigned long long)seed,
           (double)(bench_now_ns() - t0) / 1e9);
    return 0;
}
