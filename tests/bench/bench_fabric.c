/* Fabric loading at scale (issue 32: 100,000 links did not load in 60 s). Writes a fabric file
 * of 50 spines, 1,000 leaves and 50,000 hosts with 100,000 explicit links (every leaf to every
 * spine, 50 hosts a leaf), then times fabric_load_text, every device's interfaces
 * (fabric_each_iface) and every interface's effective config. Prints figures; never asserts
 * on time.
 *   bench_fabric [LEAVES, default 1000] */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "fabric.h"

#define SPINES 50
#define HOSTS_PER_LEAF 50

struct text {
    char *p;
    size_t len, cap;
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct text *t, const char *fmt, ...)
{
    char line[160];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (t->len + (size_t)n + 1 > t->cap) {
        t->cap = t->cap ? t->cap * 2 : 1 << 20;
        if (!(t->p = realloc(t->p, t->cap)))
            exit(1);
    }
    memcpy(t->p + t->len, line, (size_t)n + 1);
    t->len += (size_t)n;
}

static void generate(struct text *t, int leaves)
{
    put(t, "{\"name\": \"bench\", \"devices\": [\n");
    for (int s = 1; s <= SPINES; s++)
        put(t, "{\"name\": \"spine%d\", \"role\": \"switch\"},\n", s);
    for (int l = 1; l <= leaves; l++)
        put(t, "{\"name\": \"leaf%d\", \"role\": \"switch\"},\n", l);
    for (int h = 1; h <= leaves * HOSTS_PER_LEAF; h++)
        put(t, "{\"name\": \"host%d\", \"role\": \"host\"},\n", h);
    t->len -= 2; /* the last entry: no comma */
    put(t, "\n],\n\"links\": [\n");
    for (int l = 1; l <= leaves; l++) {
        for (int h = 0; h < HOSTS_PER_LEAF; h++)
            put(t, "{\"a\": \"leaf%d:Ethernet%d\", \"b\": \"host%d:eth0\", \"speed\": \"100G\"},\n",
                l, h, (l - 1) * HOSTS_PER_LEAF + h + 1);
        for (int s = 1; s <= SPINES; s++)
            put(t, "{\"a\": \"leaf%d:Ethernet%d\", \"b\": \"spine%d:Ethernet%d\"},\n", l,
                HOSTS_PER_LEAF + s - 1, s, l - 1);
    }
    t->len -= 2;
    put(t, "\n]}\n");
}

static void count_iface(const char *ifname, void *arg)
{
    (void)ifname;
    (*(size_t *)arg)++;
}

static void effective(const char *ifname, void *arg)
{
    const void *const *a = arg;
    const struct fabric *f = a[0];
    const struct fabric_device *d = a[1];
    struct qos_config c;
    struct dcb_err err;
    if (fabric_effective_config(f, d->name, ifname, &c, &err) == 0)
        bench_sink += (uint64_t)c.speed_bps.v;
}

int main(int argc, char **argv)
{
    int leaves = argc > 1 ? atoi(argv[1]) : 1000;
    if (leaves < 1 || leaves > 1900) {
        fprintf(stderr, "bench_fabric: LEAVES must be 1 to 1900\n");
        return 2;
    }
    struct text t = { 0 };
    generate(&t, leaves);
    struct fabric f;
    struct dcb_err err;
    int64_t t0 = bench_now_ns();
    int rc = fabric_load_text(&f, t.p, t.len, "bench", &err);
    int64_t t1 = bench_now_ns();
    if (rc < 0) {
        fprintf(stderr, "bench_fabric: %s\n", err.msg);
        return 1;
    }
    size_t ifaces = 0;
    for (size_t i = 0; i < f.ndevices; i++)
        fabric_each_iface(&f, &f.devices[i], count_iface, &ifaces);
    int64_t t2 = bench_now_ns();
    for (size_t i = 0; i < f.ndevices; i++) {
        const void *arg[2] = { &f, &f.devices[i] };
        fabric_each_iface(&f, &f.devices[i], effective, arg);
    }
    int64_t t3 = bench_now_ns();
    printf("fabric of %zu devices, %zu links (%.1f MB of JSON):\n", f.ndevices, f.nlinks,
           (double)t.len / 1e6);
    printf("  load (parse, validate, index)   %8.3f s\n", (double)(t1 - t0) / 1e9);
    printf("  every device's interfaces       %8.3f s  (%zu interfaces)\n", (double)(t2 - t1) / 1e9,
           ifaces);
    printf("  every interface's config        %8.3f s\n", (double)(t3 - t2) / 1e9);
    fabric_free(&f);
    free(t.p);
    return 0;
}
