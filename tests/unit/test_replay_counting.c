/* Exact counting from a replay: every counter series starts at the run's start with a zero, so
 * the rules' delta() counts the first rise. A star of two hosts, the host1 link down at 1 ms
 * (and up at 2 ms): delta(link.down_events[5m]) is 1 at both ends; two flaps (down at 1 and 3
 * ms) count 2. Before, a series began at its first non-zero sample: one early link-down had no
 * delta at all (one sample) and two flaps counted 1. The samples go into a ring store as a
 * `--store` run's would, and the rule runs twice (the store's queries, the preloaded windows). */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "evidence_store.h"
#include "fabric.h"
#include "replay.h"
#include "rules.h"
#include "store.h"

#define SEC 1000000000LL
#define NOW (1000 * SEC)
#define RUN_NS 5000000LL

struct fired {
    char where[8][140];
    int n;
};

static void on_finding(void *arg, const struct finding *f)
{
    struct fired *o = arg;
    if (o->n < 8)
        snprintf(o->where[o->n++], sizeof(o->where[0]), "%s:%s", f->device, f->ifname);
}

static void to_store(void *arg, const struct dcb_sample *s)
{
    struct dcb_sample t = *s;
    t.time_ns = NOW - RUN_NS + s->time_ns;
    assert_int_equal(store_put_sample(arg, &t, NULL), 0);
}

static struct dcb_store *run_flaps(const int64_t (*flaps)[2], size_t nflaps)
{
    static const char fabric[] =
        "{\"generate\":{\"type\":\"star\",\"hosts\":2,\"speed\":\"40G\",\"cable_m\":2}}";
    struct fabric f;
    struct dcb_err err;
    fabric_init(&f);
    assert_int_equal(fabric_load_text(&f, fabric, strlen(fabric), "test", &err), 0);
    struct replay_fault faults[4];
    assert_true(nflaps <= 4);
    for (size_t i = 0; i < nflaps; i++)
        faults[i] = (struct replay_fault){ .kind = REPLAY_FAULT_LINK_DOWN,
                                           .device = "host1",
                                           .ifname = "eth0",
                                           .at_ns = flaps[i][0],
                                           .until_ns = flaps[i][1] };
    struct replay_options o;
    replay_options_init(&o);
    o.duration_ns = RUN_NS;
    o.sample_interval_ns = 100000;
    o.series_interval_ns = 0;
    o.faults = faults;
    o.nfaults = nflaps;
    struct dcb_store *st;
    assert_int_equal(store_open_ring(&st, 100000, 1000, NULL), 0);
    struct replay_hooks h = { to_store, NULL, NULL, st };
    struct replay_summary sum;
    assert_int_equal(replay_run(&f, NULL, 0, &o, &h, &sum, &err), 0);
    replay_summary_free(&sum);
    fabric_free(&f);
    return st;
}

/* The ports where `when` holds, the store queried directly and then preloaded: they agree. */
static void ports_where(struct dcb_store *st, const char *when, struct fired *out)
{
    char text[256];
    snprintf(text, sizeof(text), "[r]\nseverity = warn\nscope = port\nwhen = %s\nmessage = m\n",
             when);
    struct fired both[2];
    for (int preload = 0; preload < 2; preload++) {
        memset(&both[preload], 0, sizeof(both[preload]));
        struct rule_set rs;
        rule_set_init(&rs);
        struct dcb_err err;
        assert_int_equal(rule_set_load_text(&rs, text, strlen(text), "t.rules", &err), 0);
        struct evidence ev;
        assert_int_equal(evidence_store_open(&ev, st, NOW, &err), 0);
        if (preload)
            assert_int_equal(evidence_store_preload(&ev, 0, &err), 0);
        struct rule_run_options opt = { .now_ns = NOW,
                                        .on_finding = on_finding,
                                        .arg = &both[preload] };
        assert_int_equal(rule_set_run(&rs, &ev, &opt, NULL, &err), 0);
        evidence_store_close(&ev);
        rule_set_free(&rs);
    }
    assert_int_equal(both[0].n, both[1].n);
    for (int i = 0; i < both[0].n; i++)
        assert_string_equal(both[0].where[i], both[1].where[i]);
    *out = both[0];
}

static bool has(const struct fired *o, const char *where)
{
    for (int i = 0; i < o->n; i++)
        if (!strcmp(o->where[i], where))
            return true;
    return false;
}

/* The link's two ends, and only they, count `want` downs over the rule's window. */
static void assert_link_downs(struct dcb_store *st, int want)
{
    char when[64];
    snprintf(when, sizeof(when), "delta(link.down_events[5m]) == %d", want);
    struct fired o;
    ports_where(st, when, &o);
    assert_int_equal(o.n, 2);
    assert_true(has(&o, "host1:eth0"));
    assert_true(has(&o, "switch1:Ethernet0"));
}

static void one_early_link_down_counts_one(void **state)
{
    (void)state;
    static const int64_t flaps[1][2] = { { 1000000, 2000000 } };
    struct dcb_store *st = run_flaps(flaps, 1);
    assert_link_downs(st, 1);
    /* every other port has the series too, from its zero: delta 0, not "no data" */
    struct fired o;
    ports_where(st, "delta(link.down_events[5m]) == 0", &o);
    assert_int_equal(o.n, 2);
    assert_true(has(&o, "host2:eth0"));
    struct store_filter f;
    store_filter_init(&f);
    f.device = "host1";
    f.ifname = "eth0";
    f.metric = "link.down_events";
    f.prio = f.queue = -1;
    f.t0 = NOW - RUN_NS;
    f.t1 = NOW;
    double d = 0;
    assert_int_equal(store_aggregate(st, &f, STORE_AGG_DELTA, &d, NULL), 1);
    assert_true(d == 1);
    store_close(st, NULL);
}

static void two_flaps_count_two(void **state)
{
    (void)state;
    static const int64_t flaps[2][2] = { { 1000000, 2000000 }, { 3000000, 4000000 } };
    struct dcb_store *st = run_flaps(flaps, 2);
    assert_link_downs(st, 2);
    store_close(st, NULL);
}

/* A link down from t = 0 itself still counts: the first sample is taken before the fault. */
static void link_down_at_zero_counts_one(void **state)
{
    (void)state;
    static const int64_t flaps[1][2] = { { 0, 1000000 } };
    struct dcb_store *st = run_flaps(flaps, 1);
    assert_link_downs(st, 1);
    store_close(st, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_early_link_down_counts_one),
        cmocka_unit_test(two_flaps_count_two),
        cmocka_unit_test(link_down_at_zero_counts_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
