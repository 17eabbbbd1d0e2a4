/* Scrape latency of dcbkit serve's /metrics for 64 interfaces x 8 priorities x 20 metrics
 * (10,240 series; issue 15's target: p99 under 20 ms).
 *
 * The bench writes those series into a store, starts `dcbkit serve --store` on a free loopback
 * port (the binary beside this one, or $DCBKIT), and scrapes it SCRAPES times over one
 * keep-alive connection as Prometheus does, timing each request from the first byte sent to
 * the last byte of the body. The reference is rendering the same page in this process
 * (prom_render_page), which is what every collection round pays once; scrapes should cost far
 * less, since they only copy the prebuilt page out. CPU times (the server's from /proc, the
 * client's from getrusage) stand beside wall times, the machine being shared.
 *
 * Then the attack of issue 32: ATTACKERS (600, past serve's cap of 512) connections each drip
 * one header byte a second for ATTACK_S seconds while a scraper opens a new connection every
 * 100 ms, as Prometheus does after a failed scrape. Its latency stands beside the same
 * new-connection scrapes with no attack (the reference, measured just before). */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <netinet/in.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "prom.h"
#include "store.h"
#include "units.h"

#define IFACES 64
#define PRIOS 8
#define METRICS 20
#define SERIES (IFACES * PRIOS * METRICS)
#define SCRAPES_DEFAULT 2000

/* 12 per-priority metrics and 8 per-queue ones (queue = the priority's index) */
static const enum metric_id metrics[METRICS] = {
    METRIC_PRIO_RX_BYTES,
    METRIC_PRIO_TX_BYTES,
    METRIC_PRIO_RX_PACKETS,
    METRIC_PRIO_TX_PACKETS,
    METRIC_PFC_RX_PAUSE,
    METRIC_PFC_TX_PAUSE,
    METRIC_PFC_RX_PAUSE_US,
    METRIC_PFC_TX_PAUSE_US,
    METRIC_PFC_RX_TRANSITIONS,
    METRIC_ECN_MARKED,
    METRIC_DROP_PRIO,
    METRIC_PG_WATERMARK_BYTES,
    METRIC_QUEUE_TX_PACKETS,
    METRIC_QUEUE_TX_BYTES,
    METRIC_QUEUE_DROPS,
    METRIC_QUEUE_WRED_DROPS,
    METRIC_QUEUE_ECN_MARKED,
    METRIC_QUEUE_DEPTH_BYTES,
    METRIC_QUEUE_WATERMARK_BYTES,
    METRIC_PFCWD_TX_DROP,
};

static struct dcb_sample samples[SERIES];

static void make_samples(int64_t now)
{
    size_t n = 0;
    for (int i = 0; i < IFACES; i++)
        for (int p = 0; p < PRIOS; p++)
            for (int m = 0; m < METRICS; m++) {
                char ifname[16];
                snprintf(ifname, sizeof(ifname), "Ethernet%d", i * 4);
                bool queue = metric_info(metrics[m])->labels == LABELS_QUEUE;
                struct dcb_sample *s = &samples[n++];
                dcb_sample_set(s, now, "leaf01", ifname, metrics[m], queue ? -1 : p,
                               queue ? p : -1);
                if (metric_info(metrics[m])->kind == METRIC_GAUGE)
                    s->value.gauge = (double)(n * 97 % 1000000);
                else
                    s->value.counter = (uint64_t)n * 1234567891ULL;
            }
}

static int write_store(const char *path, struct dcb_err *err)
{
    struct dcb_store *st;
    struct store_options so = { .path = path };
    if (store_open_sqlite(&st, &so, err) < 0)
        return -1;
    for (size_t i = 0; i < SERIES; i++)
        if (store_put_sample(st, &samples[i], err) < 0) {
            store_close(st, NULL);
            return -1;
        }
    return store_close(st, err);
}

static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

static double proc_cpu_s(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    unsigned long ut = 0, st = 0;
    if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) == 2)
        return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
    return 0;
}

static pid_t start_serve(const char *bin, const char *db, int *port)
{
    int pipefd[2];
    if (pipe(pipefd) < 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(pipefd[1], 2);
        close(pipefd[0]);
        execl(bin, bin, "serve", "--store", db, "--listen", "127.0.0.1:0", "--no-rules",
              "--interval", "1s", (char *)NULL);
        _exit(127);
    }
    close(pipefd[1]);
    char line[512];
    size_t n = 0;
    *port = 0;
    while (n < sizeof(line) - 1) {
        ssize_t r = read(pipefd[0], line + n, 1);
        if (r <= 0)
            break;
        if (line[n++] == '\n') {
            line[n] = '\0';
            const char *at = strstr(line, "127.0.0.1:");
            if (at && sscanf(at, "127.0.0.1:%d", port) == 1)
                break;
            n = 0;
        }
    }
    close(pipefd[0]);
    return *port ? pid : -1;
}

static int connect_to(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int connect_to_nonblock(int port)
{
    int fd = connect_to(port);
    if (fd >= 0)
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    return fd;
}

/* One GET /metrics on fd; the body's length, or -1. buf holds the response. */
static long scrape(int fd, char *buf, size_t cap)
{
    static const char req[] = "GET /metrics HTTP/1.1\r\nHost: bench\r\n"
                              "Accept: text/plain\r\n\r\n";
    if (write(fd, req, sizeof(req) - 1) != (ssize_t)(sizeof(req) - 1))
        return -1;
    size_t got = 0;
    long body = -1;
    size_t head = 0;
    while (got < cap) {
        ssize_t r = read(fd, buf + got, cap - got);
        if (r <= 0)
            return -1;
        got += (size_t)r;
        if (body < 0) {
            char *end = memmem(buf, got, "\r\n\r\n", 4);
            if (!end)
                continue;
            head = (size_t)(end - buf) + 4;
            char *cl = memmem(buf, head, "Content-Length: ", 16);
            if (!cl || strncmp(buf, "HTTP/1.1 200", 12) != 0)
                return -1;
            body = strtol(cl + 16, NULL, 10);
        }
        if (got >= head + (size_t)body)
            return body;
    }
    return -1;
}

/* One scrape on a new connection: its latency in ns, or -1. */
static int64_t fresh_scrape(int port, char *buf, size_t cap)
{
    int64_t s0 = bench_now_ns();
    int fd = connect_to(port);
    if (fd < 0)
        return -1;
    struct timeval give_up = { .tv_sec = 5 }; /* a scrape unanswered in 5 s has failed */
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &give_up, sizeof(give_up));
    long body = scrape(fd, buf, cap);
    close(fd);
    return body > 0 ? bench_now_ns() - s0 : -1;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void print_latencies(const char *what, int64_t *lat, int n, int failed)
{
    if (n == 0) {
        printf("  %-16s no scrape answered (%d failed)\n", what, failed);
        return;
    }
    qsort(lat, (size_t)n, sizeof(*lat), cmp_i64);
    printf("  %-16s p50 %.3f ms   p99 %.3f ms   max %.3f ms   (%d answered, %d failed)\n", what,
           (double)lat[n / 2] / 1e6, (double)lat[n * 99 / 100] / 1e6, (double)lat[n - 1] / 1e6, n,
           failed);
}

/* New-connection scrapes every 100 ms for seconds, while (if drippers) that many connections
 * each send one byte of a request head a second. */
static void scrape_for(int port, char *buf, size_t cap, int seconds, int *drippers, int n_drip,
                       int64_t *lat, int *n, int *failed)
{
    static const char head[] =
        "GET /metrics HTTP/1.1\r\nHost: bench\r\nX-Drip: aaaaaaaaaaaaaaaaaaaa"
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    int64_t end = bench_now_ns() + (int64_t)seconds * 1000000000LL, next_drip = 0;
    int step = 0;
    *n = *failed = 0;
    while (bench_now_ns() < end) {
        if (n_drip && bench_now_ns() >= next_drip) {
            for (int i = 0; i < n_drip; i++)
                if (drippers[i] >= 0 &&
                    send(drippers[i], head + step % (sizeof(head) - 1), 1,
                         MSG_NOSIGNAL | MSG_DONTWAIT) < 0 &&
                    errno != EAGAIN) {
                    close(drippers[i]);
                    drippers[i] = connect_to_nonblock(port); /* the attacker comes back */
                }
            step++;
            next_drip = bench_now_ns() + 1000000000LL;
        }
        int64_t l = fresh_scrape(port, buf, cap);
        if (l < 0)
            (*failed)++;
        else
            lat[(*n)++] = l;
        usleep(100000);
    }
}

static int attack(int port, char *buf, size_t cap)
{
    int attackers = getenv("ATTACKERS") ? atoi(getenv("ATTACKERS")) : 600;
    int seconds = getenv("ATTACK_S") ? atoi(getenv("ATTACK_S")) : 6;
    if (attackers < 1 || attackers > 4000 || seconds < 1 || seconds > 600)
        return fprintf(stderr, "bench_serve: ATTACKERS 1..4000, ATTACK_S 1..600\n"), 1;
    int64_t *lat = calloc((size_t)seconds * 20 + 10, sizeof(*lat));
    int *drip = calloc((size_t)attackers, sizeof(*drip));
    if (!lat || !drip) {
        free(lat);
        free(drip);
        return 1;
    }
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)attackers + 64) {
        rl.rlim_cur = rl.rlim_max < (rlim_t)attackers + 64 ? rl.rlim_max : (rlim_t)attackers + 64;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    int n, failed;
    printf("  under attack     %d connections dripping a header byte a second, a new-connection "
           "scrape every 100 ms for %d s:\n",
           attackers, seconds);
    scrape_for(port, buf, cap, seconds, NULL, 0, lat, &n, &failed);
    print_latencies("  quiet (ref)", lat, n, failed);
    int opened = 0;
    for (int i = 0; i < attackers; i++) {
        drip[i] = connect_to_nonblock(port);
        opened += drip[i] >= 0;
    }
    scrape_for(port, buf, cap, seconds, drip, attackers, lat, &n, &failed);
    print_latencies("  attacked", lat, n, failed);
    printf("  (%d of %d attacking connections opened)\n", opened, attackers);
    for (int i = 0; i < attackers; i++)
        if (drip[i] >= 0)
            close(drip[i]);
    free(lat);
    free(drip);
    return 0;
}

int main(int argc, char **argv)
{
    (void)argc;
    int scrapes = getenv("SCRAPES") ? atoi(getenv("SCRAPES")) : SCRAPES_DEFAULT;
    if (scrapes < 100)
        scrapes = 100;
    char bin[PATH_MAX];
    if (getenv("DCBKIT")) {
        snprintf(bin, sizeof(bin), "%s", getenv("DCBKIT"));
    } else {
        const char *slash = strrchr(argv[0], '/');
        snprintf(bin, sizeof(bin), "%.*s/../../bin/dcbkit", slash ? (int)(slash - argv[0]) : 1,
                 slash ? argv[0] : ".");
    }
    char dir[] = "/tmp/dcbkit-bench-serve.XXXXXX";
    if (!mkdtemp(dir)) {
        perror("bench_serve: mkdtemp");
        return 1;
    }
    char db[sizeof(dir) + 16];
    snprintf(db, sizeof(db), "%s/bench.db", dir);
    make_samples(dcb_realtime_ns());
    struct dcb_err err;
    if (write_store(db, &err) < 0) {
        fprintf(stderr, "bench_serve: %s\n", err.msg);
        return 1;
    }

    /* the reference: one render of the same page in this process */
    struct prom_buf page;
    prom_buf_init(&page);
    struct prom_page in = { samples, SERIES, NULL, 0,    NULL, 0,    "bench", NULL,
                            0,       NULL,   0,    NULL, 0,    NULL, 0 };
    int reps = 20;
    double c0 = cpu_s();
    int64_t t0 = bench_now_ns();
    for (int i = 0; i < reps; i++) {
        make_samples(1);
        prom_render_page(&page, &in, &err);
    }
    double render_ms = (double)(bench_now_ns() - t0) / 1e6 / reps;
    double render_cpu_ms = (cpu_s() - c0) * 1e3 / reps;
    size_t page_bytes = page.len;
    prom_buf_free(&page);

    int port;
    pid_t pid = start_serve(bin, db, &port);
    if (pid < 0) {
        fprintf(stderr, "bench_serve: cannot start %s serve\n", bin);
        return 1;
    }
    usleep(300000); /* the first round */
    int fd = connect_to(port);
    size_t cap = 16u << 20;
    char *buf = malloc(cap);
    int64_t *lat = calloc((size_t)scrapes, sizeof(*lat));
    int rc = 0;
    if (fd < 0 || !buf || !lat) {
        fprintf(stderr, "bench_serve: cannot connect to 127.0.0.1:%d\n", port);
        rc = 1;
    }
    long body = 0;
    double server0 = proc_cpu_s(pid), client0 = cpu_s();
    int64_t w0 = bench_now_ns();
    for (int i = 0; i < scrapes && rc == 0; i++) {
        int64_t s0 = bench_now_ns();
        body = scrape(fd, buf, cap);
        lat[i] = bench_now_ns() - s0;
        if (body <= 0) {
            fprintf(stderr, "bench_serve: scrape %d failed\n", i);
            rc = 1;
        }
    }
    double wall_s = (double)(bench_now_ns() - w0) / 1e9;
    double server_cpu = proc_cpu_s(pid) - server0, client_cpu = cpu_s() - client0;
    if (rc == 0) {
        qsort(lat, (size_t)scrapes, sizeof(*lat), cmp_i64);
        double p50 = (double)lat[scrapes / 2] / 1e6;
        double p99 = (double)lat[scrapes * 99 / 100] / 1e6;
        double max = (double)lat[scrapes - 1] / 1e6;
        printf("serve /metrics, %d interfaces x %d priorities x %d metrics = %d series, "
               "%ld-byte page, %d scrapes on one keep-alive connection:\n",
               IFACES, PRIOS, METRICS, SERIES, body, scrapes);
        printf("  scrape latency   p50 %.3f ms   p99 %.3f ms   max %.3f ms   (target p99 < 20 "
               "ms)\n",
               p50, p99, max);
        printf("  throughput       %.0f scrapes/s, %.0f MB/s; CPU per scrape: server %.3f ms, "
               "client %.3f ms\n",
               scrapes / wall_s, (double)body * scrapes / wall_s / 1e6, server_cpu * 1e3 / scrapes,
               client_cpu * 1e3 / scrapes);
        printf("  reference        rendering the page in-process (once per round): %.2f ms "
               "wall, %.2f ms CPU, %zu bytes; p99 scrape / render = %.2f\n",
               render_ms, render_cpu_ms, page_bytes, p99 / render_ms);
    }
    if (fd >= 0)
        close(fd);
    if (rc == 0)
        rc = attack(port, buf, cap);
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    free(buf);
    free(lat);
    unlink(db);
    char side[sizeof(db) + 8];
    snprintf(side, sizeof(side), "%s-wal", db);
    unlink(side);
    snprintf(side, sizeof(side), "%s-shm", db);
    unlink(side);
    rmdir(dir);
    return rc;
}
