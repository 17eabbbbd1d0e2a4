/* The replay engine's fault scenarios as report evidence: a 3:1 incast onto a slow receiver
 * (PFC only) on a fabric file, its canonical samples and events written into a store through
 * the store API, as a collector would. The unit test checks the store holds the fault (pause time
 * grows on the path to the slow receiver, its events are there); with
 *
 *   test_report_replay --write-store DB FABRIC
 *
 * it leaves the store for tests/integration/report_replay.py, which builds the report from it. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fabric.h"
#include "replay.h"
#include "store.h"

#define MS 1000000LL

struct sink {
    struct dcb_store *st;
    uint64_t samples, events, failed;
};

static void put_sample(void *arg, const struct dcb_sample *s)
{
    struct sink *k = arg;
    k->failed += store_put_sample(k->st, s, NULL) < 0;
    k->samples++;
}

static void put_event(void *arg, const struct dcb_event *e)
{
    struct sink *k = arg;
    k->failed += store_put_event(k->st, e, NULL) < 0;
    k->events++;
}

/* host1..host3 -> host4 at line rate, host4 draining at a trickle: its switch port is paused. */
static int run_scenario(const char *fabric_path, const char *db, struct sink *k,
                        struct dcb_err *err)
{
    struct fabric f;
    fabric_init(&f);
    if (fabric_load_file(&f, fabric_path, err) < 0) {
        fabric_free(&f);
        return -1;
    }
    struct store_options so = { .path = db };
    if (store_open_sqlite(&k->st, &so, err) < 0) {
        fabric_free(&f);
        return -1;
    }
    struct replay_flow flows[3] = {
        { "host1", "host4", 0, 0, 26, 1000, 1000 },
        { "host2", "host4", 0, 0, 26, 1001, 1000 },
        { "host3", "host4", 0, 0, 26, 1002, 1000 },
    };
    struct replay_options o;
    replay_options_init(&o);
    o.duration_ns = 40 * MS;
    o.sample_interval_ns = 1 * MS;
    o.dcqcn_off = true;
    o.host_drain_bps = 50e9; /* host4 takes an eighth of its link */
    o.host_rx_xoff_bytes = 256 * 1024;
    struct replay_hooks h = { put_sample, put_event, NULL, k };
    struct replay_summary sum;
    int rc = replay_run(&f, flows, 3, &o, &h, &sum, err);
    if (rc == 0)
        replay_summary_free(&sum);
    if (store_close(k->st, rc == 0 ? err : NULL) < 0)
        rc = -1;
    fabric_free(&f);
    return rc;
}

struct pause_sum {
    double by_port[64];
    char names[64][112];
    int n;
};

static int add_pause(const struct dcb_sample *s, void *arg)
{
    struct pause_sum *p = arg;
    char name[112];
    snprintf(name, sizeof(name), "%s:%s", s->device, s->ifname);
    int i = 0;
    while (i < p->n && strcmp(p->names[i], name) != 0)
        i++;
    if (i == p->n && p->n < 64)
        snprintf(p->names[p->n++], sizeof(p->names[0]), "%s", name);
    if (i < 64 && (double)s->value.counter > p->by_port[i])
        p->by_port[i] = (double)s->value.counter;
    return 0;
}

static const char *fabric_file(void)
{
    const char *f = getenv("FABRIC");
    return f ? f : "fixtures/fabrics/healthy.json";
}

static void incast_pauses_the_receivers_port(void **state)
{
    (void)state;
    char db[] = "/tmp/dcbkit-report-replay-XXXXXX";
    int fd = mkstemp(db);
    assert_true(fd >= 0);
    close(fd);
    unlink(db);
    struct sink k = { 0 };
    struct dcb_err err;
    if (run_scenario(fabric_file(), db, &k, &err) < 0)
        fail_msg("%s", err.msg);
    assert_int_equal(k.failed, 0);
    assert_true(k.samples > 1000);
    struct dcb_store *st;
    struct store_options so = { .path = db, .readonly = true };
    assert_int_equal(store_open_sqlite(&st, &so, &err), 0);
    struct store_filter f;
    store_filter_init(&f);
    f.metric = "pfc.rx_pause_us";
    struct pause_sum p = { { 0 }, { { 0 } }, 0 };
    assert_int_equal(store_range(st, &f, add_pause, &p, &err), 0);
    int worst = 0;
    for (int i = 1; i < p.n; i++)
        if (p.by_port[i] > p.by_port[worst])
            worst = i;
    printf("replay incast: %llu samples, %llu events; most paused: %s (%.0f us)\n",
           (unsigned long long)k.samples, (unsigned long long)k.events, p.names[worst],
           p.by_port[worst]);
    assert_true(p.n > 0 && p.by_port[worst] > 1000); /* over a millisecond of 40 paused */
    struct store_info info;
    assert_int_equal(store_info(st, &info, &err), 0);
    assert_true(info.events > 0);
    store_close(st, NULL);
    unlink(db);
    char wal[sizeof(db) + 8];
    snprintf(wal, sizeof(wal), "%s-wal", db);
    unlink(wal);
    snprintf(wal, sizeof(wal), "%s-shm", db);
    unlink(wal);
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--write-store") == 0) {
        struct sink k = { 0 };
        struct dcb_err err;
        if (run_scenario(argv[3], argv[2], &k, &err) < 0 || k.failed) {
            fprintf(stderr, "test_report_replay: %s\n", k.failed ? "store writes failed" : err.msg);
            return 1;
        }
        printf("%llu samples, %llu events\n", (unsigned long long)k.samples,
               (unsigned long long)k.events);
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(incast_pauses_the_receivers_port),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
