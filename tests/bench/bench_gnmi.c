/* The gNMI collector at fabric scale: 50 targets, each streaming 64 ports x 30 counters (a
 * SONiC COUNTERS_DB notification, numbers as strings) every second, for 30 s, all driven by one
 * thread through one curl multi handle and written to a SQLite store through the sonic map.
 * The targets are one python3-grpcio process (tests/bench/gnmi_bench_target.py) that encodes
 * every update before it starts, so it does not starve the client on 2 cores.
 *
 * Prints the client's CPU seconds per second of wall time (getrusage, this process only) and
 * the share of updates stored versus sent (the peer counts what it sent). Targets in the issue:
 * under 0.2 core and 100% stored. Never asserts on time.
 *
 *   bench_gnmi [--duration SECONDS] [--targets N] [--ports N] [--no-store]
 *   (defaults 30, 50, 64; --no-store counts samples without writing them: the client's share)
 * BENCH_AGE_S and BENCH_BATCH set the store's batch age (seconds) and size, to see what
 * larger SQLite transactions buy (96,000 series: each commit touches a page per series). */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "gnmi_source.h"
#include "store.h"

struct run {
    struct dcb_store *store;
    bool no_store;
    uint64_t samples, store_errors, rounds;
    int64_t last_flush_ns;
};

static void on_sample(const struct dcb_sample *s, const char *key, void *arg)
{
    struct run *r = arg;
    (void)key;
    struct dcb_err err;
    r->samples++;
    if (!r->no_store && store_put_sample(r->store, s, &err) < 0)
        r->store_errors++;
}

static void on_round(const char *device, void *arg)
{
    struct run *r = arg;
    (void)device;
    r->rounds++;
    /* as collect does: one commit per interval for all targets, not one per target */
    int64_t now = bench_now_ns();
    if (now - r->last_flush_ns < 1000000000LL || getenv("BENCH_AGE_S"))
        return;
    r->last_flush_ns = now;
    struct dcb_err err;
    if (store_flush(r->store, &err) < 0)
        r->store_errors++;
}

static void on_error(const char *device, const char *address, const char *msg, int64_t retry_ns,
                     void *arg)
{
    (void)arg;
    fprintf(stderr, "bench_gnmi: %s (%s): %s%s\n", device, address, msg,
            retry_ns != GNMI_NO_RETRY ? " (retrying)" : "");
}

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
    int duration = 30, targets = 50, ports = 64;
    bool no_store = false;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--no-store"))
            no_store = true;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--duration"))
            duration = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--targets"))
            targets = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--ports"))
            ports = atoi(argv[i + 1]);
    }
    if (duration < 2 || targets < 1 || targets > 1000 || ports < 1) {
        fprintf(stderr, "usage: bench_gnmi [--duration S>=2] [--targets N] [--ports N]\n");
        return 64;
    }
    if (access("/usr/bin/python3", X_OK) != 0 ||
        system("/usr/bin/python3 -c 'import grpc' 2>/dev/null")) {
        printf("gnmi: skipped, python3-grpcio is not installed\n");
        return 0;
    }
    char peer[4096], stats_path[] = "/tmp/dcbkit-bench-gnmi-XXXXXX";
    snprintf(peer, sizeof(peer), "%s/../../tests/bench/gnmi_bench_target.py", DCBKIT_SOURCE_MAPS);
    int sfd = mkstemp(stats_path);
    if (sfd < 0)
        return 1;
    close(sfd);
    char dbdir[] = "/tmp/dcbkit-bench-gnmi-db-XXXXXX";
    if (!mkdtemp(dbdir))
        return 1;
    char db[256];
    snprintf(db, sizeof(db), "%s/bench.db", dbdir);

    int pipefd[2];
    if (pipe(pipefd) < 0)
        return 1;
    char targets_s[16], ports_s[16], rounds_s[16];
    snprintf(targets_s, sizeof(targets_s), "%d", targets);
    snprintf(ports_s, sizeof(ports_s), "%d", ports);
    snprintf(rounds_s, sizeof(rounds_s), "%d", duration);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(pipefd[1], 1);
        close(pipefd[0]);
        execl("/usr/bin/python3", "python3", peer, "--targets", targets_s, "--ports", ports_s,
              "--rounds", rounds_s, "--stats", stats_path, (char *)NULL);
        _exit(127);
    }
    close(pipefd[1]);
    FILE *pf = fdopen(pipefd[0], "r");
    static char line[65536];
    if (!pf || !fgets(line, sizeof(line), pf) || strncmp(line, "PORTS ", 6)) {
        fprintf(stderr, "bench_gnmi: the target process did not start\n");
        kill(pid, SIGTERM);
        return 1;
    }

    struct run r;
    memset(&r, 0, sizeof(r));
    r.no_store = no_store;
    struct dcb_err err;
    struct store_options so = {
        .path = db,
        .batch_max_samples = getenv("BENCH_BATCH") ? (size_t)atol(getenv("BENCH_BATCH")) : 0,
        .batch_max_age_ns = getenv("BENCH_AGE_S") ? atol(getenv("BENCH_AGE_S")) * 1000000000LL : 0
    };
    if (store_open_sqlite(&r.store, &so, &err) < 0) {
        fprintf(stderr, "bench_gnmi: %s\n", err.msg);
        kill(pid, SIGTERM);
        return 1;
    }
    struct gnmi_source_opts o = {
        /* a deadline longer than the run: a target whose rounds are all sent goes quiet, and a
         * reconnect would resend round 0 and count twice */
        .client = { .timeout_ns = (int64_t)(duration + 60) * 1000000000LL, .reconnect = true },
        .mode = GNMI_STREAM,
        .encoding = GNMI_ENC_JSON_IETF,
        .sample_interval_ns = 1000000000LL,
        .config_interval_ns = -1,
    };
    struct gnmi_source_cb cb = { .on_sample = on_sample,
                                 .on_round = on_round,
                                 .on_error = on_error,
                                 .arg = &r };
    struct gnmi_source *src;
    if (gnmi_source_new(&src, DCBKIT_SOURCE_MAPS, &o, &cb, &err) < 0) {
        fprintf(stderr, "bench_gnmi: %s\n", err.msg);
        return 1;
    }
    char *save = NULL;
    char *tok = strtok_r(line + 6, " \n", &save);
    for (int i = 0; i < targets && tok; i++, tok = strtok_r(NULL, " \n", &save)) {
        char addr[64], dev[32];
        snprintf(addr, sizeof(addr), "127.0.0.1:%s", tok);
        snprintf(dev, sizeof(dev), "leaf%02d", i);
        struct gnmi_source_target t = { .device = dev, .map = "sonic" };
        t.ep.address = addr;
        t.ep.tls = false;
        if (gnmi_source_add(src, &t, &err) < 0) {
            fprintf(stderr, "bench_gnmi: %s\n", err.msg);
            return 1;
        }
    }
    double cpu0 = cpu_seconds();
    int64_t t0 = bench_now_ns();
    /* The targets send exactly `duration` rounds. Run until all of them landed or, on a
     * machine so loaded that the peer falls behind, until 20 s after the last was due. */
    uint64_t expected = (uint64_t)targets * (uint64_t)ports * 30u * (uint64_t)duration;
    while (r.samples < expected && bench_now_ns() - t0 < (int64_t)(duration + 20) * 1000000000LL)
        gnmi_source_run(src, NULL, 250000000LL);
    int64_t wall_ns = bench_now_ns() - t0;
    store_flush(r.store, &err);
    double cpu = cpu_seconds() - cpu0;
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    fclose(pf);
    struct store_info info;
    store_info(r.store, &info, &err);
    /* the close merges the store's recent tier into its main table: a cost the run's figure
     * leaves out (a 30 s run holds 2.9 M rows, below the 4 M cap, so nothing merged during
     * it); bench_store_steady measures merges in the steady state */
    double close0 = cpu_seconds();
    int64_t close_wall0 = bench_now_ns();
    store_close(r.store, &err);
    double close_cpu = cpu_seconds() - close0;
    double close_wall = (double)(bench_now_ns() - close_wall0) / 1e9;
    const struct gnmi_source_stats *st = gnmi_source_stats(src);
    unsigned long long sent = 0;
    FILE *sf = fopen(stats_path, "r");
    if (sf) {
        char buf[256] = "";
        size_t n = fread(buf, 1, sizeof(buf) - 1, sf);
        buf[n] = '\0';
        const char *u = strstr(buf, "\"updates\":");
        if (u)
            sent = strtoull(u + 10, NULL, 10);
        fclose(sf);
    }
    unlink(stats_path);
    char cmd[512];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dbdir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_gnmi: could not remove %s\n", dbdir);
    double wall = (double)wall_ns / 1e9;
    printf("gnmi: %d targets x %d ports x 30 counters at 1 s, STREAM, SONiC JSON_IETF, %s\n",
           targets, ports, no_store ? "no store (--no-store: the client alone)" : "SQLite store");
    printf("  client CPU %.2f s (user+sys) over %d s of streams = %.3f core while streaming; "
           "wall %.2f s (%.3f core over wall)\n",
           cpu, duration, cpu / duration, wall, cpu / wall);
    printf("  updates sent %llu, leaves decoded %" PRIu64 ", samples stored %" PRIu64
           " = %.2f%% of sent (target 100%%), store errors %" PRIu64 "\n",
           sent, st->leaves, info.samples, sent ? 100.0 * (double)info.samples / (double)sent : 0.0,
           r.store_errors);
    printf("  per update: %.2f us of client CPU\n", sent ? cpu * 1e6 / (double)sent : 0.0);
    if (!no_store)
        printf("  store close (merges the recent tier, %" PRIu64 " samples): %.2f s CPU, %.2f s "
               "wall = %.3f core spread over the run\n",
               info.samples, close_cpu, close_wall, close_cpu / duration);
    /* the close's merge is the same samples' work, deferred: it counts */
    printf("  client CPU in all (streaming and the close): %.3f core (target < 0.2)\n",
           (cpu + (no_store ? 0 : close_cpu)) / duration);
    gnmi_source_free(src);
    return 0;
}
