/* The rule language over a ring store: three-valued logic, precedence, the functions, config
 * look-ups here and on the partner, metric windows and event counts with values worked out by
 * hand, `for`, templates, profiles, and load errors with their line and column. */
#include "unit.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "evidence_store.h"
#include "rules.h"
#include "store.h"

#define SEC 1000000000LL
#define NOW (1000 * SEC)

struct outcome {
    char fired[64][RULE_ID_MAX];
    int nfired;
    char undecided[64][RULE_ID_MAX];
    char missing[64][256];
    int nundecided;
    struct finding last;
    char last_id[RULE_ID_MAX]; /* the rule set is freed before the test looks */
};

static void on_finding(void *arg, const struct finding *f)
{
    struct outcome *o = arg;
    if (o->nfired < 64)
        snprintf(o->fired[o->nfired++], RULE_ID_MAX, "%s", f->rule->id);
    o->last = *f;
    snprintf(o->last_id, sizeof(o->last_id), "%s", f->rule->id);
}

static void on_undecided(void *arg, const struct rule_undecided *u)
{
    struct outcome *o = arg;
    if (o->nundecided < 64) {
        snprintf(o->undecided[o->nundecided], RULE_ID_MAX, "%s", u->rule->id);
        snprintf(o->missing[o->nundecided++], 256, "%s", u->missing);
    }
}

static bool fired(const struct outcome *o, const char *id)
{
    for (int i = 0; i < o->nfired; i++)
        if (!strcmp(o->fired[i], id))
            return true;
    return false;
}

static const char *undecided(const struct outcome *o, const char *id)
{
    for (int i = 0; i < o->nundecided; i++)
        if (!strcmp(o->undecided[i], id))
            return o->missing[i];
    return NULL;
}

static void put_counter(struct dcb_store *st, int64_t t, enum metric_id m, int prio, uint64_t v)
{
    struct dcb_sample s;
    dcb_sample_set(&s, t, "h1", "eth0", m, prio, -1);
    s.value.counter = v;
    assert_int_equal(store_put_sample(st, &s, NULL), 0);
}

static void put_gauge(struct dcb_store *st, int64_t t, int queue, double v)
{
    struct dcb_sample s;
    dcb_sample_set(&s, t, "h1", "eth0", METRIC_QUEUE_DEPTH_BYTES, -1, queue);
    s.value.gauge = v;
    assert_int_equal(store_put_sample(st, &s, NULL), 0);
}

/* One port, h1:eth0: PFC on prio 3, MTU 9000, CNP DSCP 48 -> prio 6; its partner has PFC 0x10.
 * pfc.rx_pause{prio=3} counts 10 a second; queue 3's depth is 0 until 10 s ago, then 1..10;
 * two pause storms in the last 5 minutes and one before. */
static struct dcb_store *evidence_store(void)
{
    struct dcb_store *st;
    assert_int_equal(store_open_ring(&st, 100000, 1000, NULL), 0);
    struct store_config_row here = { NOW, "h1", "eth0", "dcbnl",
                                     "{\"pfc\":{\"enabled\":8},\"mtu\":9000,\"cnp\":{\"dscp\":48},"
                                     "\"dscp2prio\":{\"48\":6,\"26\":3},\"prio2tc\":[0,1,2,3,4,5,6,"
                                     "7],"
                                     "\"switch\":{\"buffer\":{\"3\":{\"xoff\":\"100KB\"}}}}" };
    struct store_config_row peer = { NOW, "h1", "eth0", "peer:lldp", "{\"pfc\":{\"enabled\":16}}" };
    assert_int_equal(store_put_config(st, &here, NULL), 0);
    assert_int_equal(store_put_config(st, &peer, NULL), 0);
    for (int t = 0; t <= 100; t++)
        put_counter(st, NOW - (100 - t) * SEC, METRIC_PFC_RX_PAUSE, 3, (uint64_t)(10 * t));
    for (int t = 20; t >= 0; t--)
        put_gauge(st, NOW - t * SEC, 3, t >= 10 ? 0 : (double)(10 - t));
    for (int t = 0; t <= 10; t++) /* moves 100 every other second: rate 50/s, busy 100/s */
        put_counter(st, NOW - (10 - t) * SEC, METRIC_PORT_TX_BYTES, -1, (uint64_t)(100 * (t / 2)));
    const int64_t storms[3] = { NOW - 10 * SEC, NOW - 200 * SEC, NOW - 400 * SEC };
    for (int i = 0; i < 3; i++) {
        struct dcb_event e;
        dcb_event_set(&e, storms[i], EVENT_PAUSE_STORM, "h1", "eth0", 3, "{}");
        assert_int_equal(store_put_event(st, &e, NULL), 0);
    }
    return st;
}

static struct dcb_store *(*make_store)(void) = evidence_store;

static void run_once(const char *text, const char *profile, struct outcome *o, bool preload)
{
    memset(o, 0, sizeof(*o));
    struct rule_set rs;
    rule_set_init(&rs);
    struct dcb_err err;
    int rc = rule_set_load_text(&rs, text, strlen(text), "t.rules", &err);
    if (rc) {
        print_error("%s\n", err.msg);
        fail();
    }
    struct dcb_store *st = make_store();
    struct evidence ev;
    assert_int_equal(evidence_store_open(&ev, st, NOW, &err), 0);
    if (preload)
        assert_int_equal(evidence_store_preload(&ev, 0, &err), 0);
    struct rule_run_options opt = { .profile = profile,
                                    .now_ns = NOW,
                                    .on_finding = on_finding,
                                    .on_undecided = on_undecided,
                                    .arg = o };
    assert_int_equal(rule_set_run(&rs, &ev, &opt, NULL, &err), 0);
    evidence_store_close(&ev);
    store_close(st, NULL);
    rule_set_free(&rs);
}

/* Twice: the store's own queries, then the preloaded windows; they must agree. */
static void run_rules(const char *text, const char *profile, struct outcome *o)
{
    static struct outcome direct;
    run_once(text, profile, &direct, false);
    run_once(text, profile, o, true);
    assert_int_equal(o->nfired, direct.nfired);
    for (int i = 0; i < o->nfired; i++)
        assert_string_equal(o->fired[i], direct.fired[i]);
    assert_int_equal(o->nundecided, direct.nundecided);
}

#define RULE(id, when) "[" id "]\nseverity = warn\nscope = port\nwhen = " when "\nmessage = m\n"

/* A switch restarted 50 s ago, after a 10 s outage, with its counters from their initial values
 * again: pfc.rx_pause{prio=3} = 1000 + 10 a second before (t = 0..50 s) and after (t = 60..100
 * s, counting from 1000 again). */
static struct dcb_store *restarted_store(void)
{
    struct dcb_store *st;
    assert_int_equal(store_open_ring(&st, 100000, 1000, NULL), 0);
    for (int t = 0; t <= 100; t++)
        if (t <= 50 || t >= 60)
            put_counter(st, NOW - (100 - t) * SEC, METRIC_PFC_RX_PAUSE, 3,
                        (uint64_t)(1000 + 10 * (t <= 50 ? t : t - 60)));
    return st;
}

static void logic(void **state)
{
    (void)state;
    struct outcome o;
    run_rules(
        RULE("and-false", "false and pfc.willing") RULE("or-true", "true or pfc.willing") RULE(
            "unknown", "pfc.willing") RULE("cmp-unknown",
                                           "pfc.willing == true or pfc.willing == false")
            RULE("precedence", "1 + 2 * 3 == 7 and not (2 > 3) and 10 - 4 - 3 == 3") RULE(
                "modulo", "7 % 4 == 3 and -2 < 0") RULE("defined",
                                                        "not defined(pfc.willing) and defined(mtu)")
                RULE("coalesce", "coalesce(pfc.willing, true)")
                    RULE("covers", "covers(pfc.enabled, 8) and not bit(pfc.enabled, 4)")
                        RULE("popcount", "popcount(pfc.enabled) == 1 and abs(-3) == 3")
                            RULE("index", "dscp2prio[cnp.dscp] == 6 and dscp2prio.26 == 3") RULE(
                                "peer", "peer.pfc.enabled == 16 and pfc.enabled != "
                                        "peer.pfc.enabled") RULE("lossless", "lossless == 8")
                                RULE("units", "150KB == 150000 and 9KiB == 9216 and 400G == "
                                              "400000000000") RULE("div0", "mtu / (mtu - mtu) > 1")
                                    RULE("string", "\"dscp\" != \"pcp\"")
                                        RULE("if", "if(pfc.enabled == 8, mtu, 0 / 0) == mtu and "
                                                   "if(false, 1 / 0, 2) == 2")
                                            RULE("if-unknown", "if(pfc.willing, true, true)")
                                                RULE("str", "str(26) == \"26\" and str(255) == "
                                                            "\"255\" and not defined(str(256))")
                                                    RULE("clear-bit", "clear_bit(0x48, 6) == 8 and "
                                                                      "clear_bit(8, 7) == 8")
                                                        RULE("set-bit",
                                                             "set_bit(0x40, 3) == 0x48 and "
                                                             "set_bit(8, 3) == 8"),
        NULL, &o);
    assert_false(fired(&o, "and-false"));
    assert_null(undecided(&o, "and-false")); /* decided: false */
    assert_true(fired(&o, "or-true"));
    assert_false(fired(&o, "unknown"));
    assert_non_null(strstr(undecided(&o, "unknown"), "pfc.willing"));
    assert_non_null(undecided(&o, "cmp-unknown"));
    const char *yes[] = { "precedence", "modulo", "defined", "coalesce",  "covers",
                          "popcount",   "index",  "peer",    "lossless",  "units",
                          "string",     "if",     "str",     "clear-bit", "set-bit" };
    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
        if (!fired(&o, yes[i])) {
            print_error("%s did not fire (%s)\n", yes[i],
                        undecided(&o, yes[i]) ? undecided(&o, yes[i]) : "false");
            fail();
        }
    assert_false(fired(&o, "div0"));
    assert_non_null(strstr(undecided(&o, "div0"), "division by zero"));
    assert_non_null(strstr(undecided(&o, "if-unknown"), "pfc.willing")); /* no branch taken */
}

/* h1 said it does not serve the path that gives pfcwd.storm_detected and mtu (a gNMI target's
 * NOT_FOUND): coalesce() takes no default for them, for what was merely never seen it does. */
static struct dcb_store *unserved_store(void)
{
    struct dcb_store *st = evidence_store();
    struct dcb_event e;
    dcb_event_set(&e, NOW - 50 * SEC, EVENT_SOURCE_GAP, "h1", "", -1,
                  "{\"path\":\"P\",\"served\":false,\"gives\":\"pfcwd.storm_detected,pfc\"}");
    assert_int_equal(store_put_event(st, &e, NULL), 0);
    return st;
}

static void coalesce_keeps_unserved(void **state)
{
    (void)state;
    struct outcome o;
    make_store = unserved_store;
    run_rules(RULE("refused", "coalesce(delta(pfcwd.storm_detected{queue=3}[60s]), 0) == 0")
                  RULE("unseen", "coalesce(delta(pfcwd.tx_drop{queue=3}[60s]), 0) == 0")
                      RULE("refused-cfg", "coalesce(pfc.willing, true)")
                          RULE("other-cfg", "coalesce(mtu, 1500) == 9000"),
              NULL, &o);
    make_store = evidence_store;
    assert_false(fired(&o, "refused"));
    assert_non_null(strstr(undecided(&o, "refused"), "pfcwd.storm_detected"));
    assert_true(fired(&o, "unseen"));
    assert_false(fired(&o, "refused-cfg"));
    assert_non_null(undecided(&o, "refused-cfg"));
    assert_true(fired(&o, "other-cfg"));
}

static void windows(void **state)
{
    (void)state;
    struct outcome o;
    run_rules(
        RULE("rate", "rate(pfc.rx_pause{prio=3}[60s]) == 10") RULE("delta", "delta(pfc.rx_pause{"
                                                                            "prio=3}[60s]) == 600")
            RULE("avg", "avg(queue.depth_bytes{queue=3}[9s]) == 5.5") RULE(
                "max-min",
                "max(queue.depth_bytes{queue=3}[9s]) == 10 and "
                "min(queue.depth_bytes{queue=3}[9s]) == 1") RULE("last", "last(queue.depth_bytes{"
                                                                         "queue=3}) == 10")
                RULE("count", "count(pause_storm[5m]) == 2 and count(pause_storm[10m]) == 3")
                    RULE("count-prio", "count(pause_storm{prio=4}[10m]) == 0")
                        RULE("no-data", "rate(pfc.rx_pause{prio=5}[60s]) > 0") RULE(
                            "busy",
                            "busy_rate(port.tx_bytes[10s]) == 100 and rate(port.tx_bytes[10s]) == "
                            "50") "[for-held]\nseverity = warn\nscope = port\nfor = 5s\n"
                                  "when = max(queue.depth_bytes{queue=3}[2s]) > 0\nmessage = m\n"
                                  "[for-broken]\nseverity = warn\nscope = port\nfor = 15s\n"
                                  "when = max(queue.depth_bytes{queue=3}[2s]) > 0\nmessage = m\n",
        NULL, &o);
    const char *yes[] = { "rate",  "delta",      "avg",      "max-min", "last",
                          "count", "count-prio", "for-held", "busy" };
    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
        if (!fired(&o, yes[i])) {
            print_error("%s did not fire (%s)\n", yes[i],
                        undecided(&o, yes[i]) ? undecided(&o, yes[i]) : "false");
            fail();
        }
    assert_false(fired(&o, "no-data"));
    assert_non_null(strstr(undecided(&o, "no-data"), "pfc.rx_pause"));
    assert_false(fired(&o, "for-broken")); /* 15 s ago the queue was empty */
}

/* Over [60 s]: t = 40..50 gives +100 in 10 s, t = 60..100 +400 in 40 s; the interval with the
 * reset (50 -> 60 s) counts for nothing: rate 10/s, delta 500 (not 1000 more for the restart's
 * initial value, nor 1500/60 = 25/s). */
static void windows_across_a_reset(void **state)
{
    (void)state;
    struct outcome o;
    make_store = restarted_store;
    run_rules(RULE("rate", "rate(pfc.rx_pause{prio=3}[60s]) == 10")
                  RULE("delta", "delta(pfc.rx_pause{prio=3}[60s]) == 500")
                      RULE("busy", "busy_rate(pfc.rx_pause{prio=3}[60s]) == 10")
                          RULE("after", "rate(pfc.rx_pause{prio=3}[30s]) == 10"),
              NULL, &o);
    make_store = evidence_store;
    const char *yes[] = { "rate", "delta", "busy", "after" };
    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
        if (!fired(&o, yes[i])) {
            print_error("%s did not fire (%s)\n", yes[i],
                        undecided(&o, yes[i]) ? undecided(&o, yes[i]) : "false");
            fail();
        }
}

/* A port known by its config whose pfc.rx_pause series goes on 10 s past the evidence's end
 * (10 a second): the series' newest sample is later, yet its window up to the end answers. */
static struct dcb_store *later_store(void)
{
    struct dcb_store *st;
    assert_int_equal(store_open_ring(&st, 100000, 1000, NULL), 0);
    struct store_config_row here = { NOW, "h1", "eth0", "dcbnl", "{\"pfc\":{\"enabled\":8}}" };
    assert_int_equal(store_put_config(st, &here, NULL), 0);
    for (int t = 0; t <= 110; t++)
        put_counter(st, NOW - (100 - t) * SEC, METRIC_PFC_RX_PAUSE, 3, (uint64_t)(10 * t));
    return st;
}

static void windows_of_a_series_past_the_end(void **state)
{
    (void)state;
    struct outcome o;
    make_store = later_store;
    run_rules(RULE("delta", "delta(pfc.rx_pause{prio=3}[60s]) == 600")
                  RULE("absent", "defined(delta(pfc.tx_pause{prio=3}[60s]))"),
              NULL, &o);
    make_store = evidence_store;
    assert_true(fired(&o, "delta"));
    assert_false(fired(&o, "absent"));
}

/* 32-bit counters over the last 3 s, a second apart (tests/unit/test_store.c has the arithmetic):
 * roce.out_of_sequence, said 32 bits wide, wraps: 4294967000, 4294967200, 100, 300 is 596 in
 * 3 s; roce.packet_seq_err has the same readings and no width said: 64 bits, a reset, 400 in the
 * 2 s without it; roce.out_of_buffer, 32 bits, truly resets: 2999999800, 3000000000, 5, 205 is
 * 400 in 2 s. */
static void put_width_counters(struct dcb_store *st)
{
    static const uint64_t wrapping[4] = { 4294967000u, 4294967200u, 100, 300 };
    static const uint64_t resetting[4] = { 2999999800u, 3000000000u, 5, 205 };
    const struct {
        enum metric_id m;
        const uint64_t *v;
        unsigned bits;
    } series[] = {
        { METRIC_ROCE_OUT_OF_SEQUENCE, wrapping, 32 },
        { METRIC_ROCE_PACKET_SEQ_ERR, wrapping, 0 },
        { METRIC_ROCE_OUT_OF_BUFFER, resetting, 32 },
    };
    for (size_t k = 0; k < sizeof(series) / sizeof(series[0]); k++) {
        struct dcb_sample s;
        dcb_sample_set(&s, 0, "h1", "eth0", series[k].m, -1, -1);
        if (series[k].bits)
            assert_int_equal(store_set_series_width(st, &s, series[k].bits, NULL), 0);
        for (int i = 0; i < 4; i++) {
            s.time_ns = NOW - (3 - i) * SEC;
            s.value.counter = series[k].v[i];
            assert_int_equal(store_put_sample(st, &s, NULL), 0);
        }
    }
}

static struct dcb_store *widths_ring_store(void)
{
    struct dcb_store *st = evidence_store();
    put_width_counters(st);
    return st;
}

static struct dcb_store *widths_sqlite_store(void)
{
    struct dcb_store *st;
    struct store_options opt = { .path = ":memory:" };
    assert_int_equal(store_open_sqlite(&st, &opt, NULL), 0);
    put_width_counters(st);
    assert_true(store_flush(st, NULL) >= 0);
    return st;
}

typedef struct dcb_store *(*store_maker)(void);

static void windows_across_a_wrap(void **state)
{
    (void)state;
    static const store_maker makers[2] = { widths_ring_store, widths_sqlite_store };
    for (int k = 0; k < 2; k++) {
        struct outcome o;
        make_store = makers[k];
        run_rules(RULE("wrap", "delta(roce.out_of_sequence[10s]) == 596 and "
                               "abs(rate(roce.out_of_sequence[10s]) - 198.6667) < 0.001 and "
                               "abs(busy_rate(roce.out_of_sequence[10s]) - 198.6667) < 0.001")
                      RULE("unsaid", "delta(roce.packet_seq_err[10s]) == 400 and "
                                     "rate(roce.packet_seq_err[10s]) == 200")
                          RULE("reset", "delta(roce.out_of_buffer[10s]) == 400 and "
                                        "rate(roce.out_of_buffer[10s]) == 200"),
                  NULL, &o);
        make_store = evidence_store;
        const char *yes[] = { "wrap", "unsaid", "reset" };
        for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
            if (!fired(&o, yes[i])) {
                print_error("%s store: %s did not fire (%s)\n", k ? "sqlite" : "ring", yes[i],
                            undecided(&o, yes[i]) ? undecided(&o, yes[i]) : "false");
                fail();
            }
    }
}

static void templates_and_profiles(void **state)
{
    (void)state;
    struct outcome o;
    run_rules("[prio-rule]\nseverity = crit\nconfidence = 0.9\nscope = priority\n"
              "when = switch.buffer.$prio.xoff < 200KB\n"
              "message = priority {$prio}: XOFF {switch.buffer.$prio.xoff} with PFC\n"
              "  {pfc.enabled}\n"
              "knob = switch.buffer.$prio.xoff\npropose = switch.buffer.$prio.xoff * 2\n"
              "[skipped]\nseverity = warn\nscope = port\nwhen = true\nmessage = m\n"
              "unless_profile = pfc-only\n",
              "pfc-only", &o);
    assert_int_equal(o.nfired, 1);
    assert_string_equal(o.last_id, "prio-rule");
    assert_int_equal(o.last.prio, 3); /* per lossless priority only */
    assert_string_equal(o.last.summary, "priority 3: XOFF 100KB with PFC 0x08");
    assert_string_equal(o.last.knob, "switch.buffer.3.xoff");
    assert_string_equal(o.last.proposed, "200000");
    assert_int_equal(o.last.nevidence, 1);
    assert_string_equal(o.last.evidence[0].name, "switch.buffer.3.xoff");
    assert_string_equal(o.last.evidence[0].value, "100KB");
}

/* A proposal equal to the knob's value, or turning it against the rule's words, is withdrawn
 * and the summary says why; one that follows its words stays. */
static void proposals_checked_against_config(void **state)
{
    (void)state;
    struct outcome o;
    run_rules("[same]\nseverity = warn\nscope = port\nwhen = true\nmessage = m\n"
              "knob = pfc.enabled\npropose = 0x08\n",
              NULL, &o);
    assert_int_equal(o.nfired, 1);
    assert_string_equal(o.last.proposed, "");
    assert_string_equal(o.last.summary,
                        "m (no proposal: pfc.enabled is already 0x08: the cause lies elsewhere)");
    run_rules("[wrong-way]\nseverity = warn\nscope = priority\nwhen = true\nmessage = m\n"
              "knob = switch.buffer.$prio.xoff\ndirection = lower below the marking region\n"
              "propose = switch.buffer.$prio.xoff * 4\n",
              NULL, &o);
    assert_string_equal(o.last.proposed, "");
    assert_non_null(strstr(o.last.summary, "against the advice"));
    run_rules("[right-way]\nseverity = warn\nscope = priority\nwhen = true\nmessage = m\n"
              "knob = switch.buffer.$prio.xoff\ndirection = lower below the marking region\n"
              "propose = switch.buffer.$prio.xoff / 4\n",
              NULL, &o);
    assert_string_equal(o.last.proposed, "25000");
    assert_string_equal(o.last.summary, "m");
}

static void load_error(const char *text, const char *where, const char *what)
{
    struct rule_set rs;
    rule_set_init(&rs);
    struct dcb_err err;
    assert_int_equal(rule_set_load_text(&rs, text, strlen(text), "bad.rules", &err), DCB_E_INVAL);
    if (strncmp(err.msg, where, strlen(where)) || !strstr(err.msg, what)) {
        print_error("got '%s', want '%s... %s'\n", err.msg, where, what);
        fail();
    }
    assert_int_equal(rs.n, 0); /* nothing half-loaded */
    rule_set_free(&rs);
}

static void load_errors(void **state)
{
    (void)state;
    load_error(RULE("r", "mtu >"), "bad.rules:4:13:", "expected a value");
    load_error(RULE("r", "rate(pfc.rx_paws{prio=3}[1m]) > 0"), "bad.rules:4:13:", "unknown name");
    load_error(RULE("r", "ratee(mtu) > 1"), "bad.rules:4:8:", "unknown function");
    load_error(RULE("r", "\"dscp\" + 1 > 0"), "bad.rules:4:8:", "type error");
    load_error(RULE("r", "trust == 3"), "bad.rules:4:14:", "type error");
    load_error(RULE("r", "if(true, 1, \"a\") == 1"), "bad.rules:4:", "type error");
    load_error(RULE("r", "if(1, 1, 2) == 1"), "bad.rules:4:", "type error");
    load_error(RULE("r", "mtu + 1"), "bad.rules:4:8:", "must be a condition");
    load_error(RULE("r", "rate(queue.depth_bytes{queue=3}[1m]) > 0"),
               "bad.rules:4:8:", "needs a counter");
    load_error(RULE("r", "pfc.rx_pause > 0"), "bad.rules:4:8:", "per priority");
    load_error("[r]\nseverity = warn\nscope = port\nwhen = mtu > 1\n",
               "bad.rules:1:1:", "has no message");
    load_error(RULE("r", "mtu > 1") RULE("r", "mtu > 2"), "bad.rules:6:2:", "already defined");
    load_error("[r]\nseverity = warn\nscope = port\nwhen = mtu > 1\nmessage = m\ncolour = red\n",
               "bad.rules:6:1:", "unknown key");
    load_error("[r]\nseverity = warn\nscope = port\nwhen = mtu > 1\nmessage = M {mtu +}\n",
               "bad.rules:5:19:", "expected a value");
    load_error("[r]\nseverity = warn\nscope = port\nwhen = mtu >\n   and mtu < 3\nmessage = m\n",
               "bad.rules:5:4:", "expected a value");
    load_error("[r]\nseverity = warn\nscope = port\nwhen = $prio == 3\nmessage = m\n",
               "bad.rules:4:8:", "scope = priority");
    load_error("severity = warn\n", "bad.rules:1:1:", "outside a rule");
    load_error("[r]\nseverity = warn\nscope = port\nwhen = mtu > 1\nmessage = m\ndirection = "
               "raise it, or lower it, or leave it as it is, or turn it off, or turn it on again,"
               " then see whether the pauses stop, and if they do not, look at the other end of"
               " the link\n",
               "bad.rules:6:", "direction is longer than 159 characters");
}

/* Device s1: uplinks up0 (400 B/s sent) and up1 (100 B/s) to switches, down0 (1000 B/s) to a
 * host, all PFC on 3; s2:p0 (PFC on 4, 50 B/s). */
static void put_link(struct dcb_store *st, const char *dev, const char *ifn, const char *role,
                     int pfc, const char *peer_dev, const char *peer_ifn, const char *peer_role,
                     uint64_t per_s)
{
    char cfg[64], topo[192];
    snprintf(cfg, sizeof(cfg), "{\"pfc\":{\"enabled\":%d}}", pfc);
    snprintf(topo, sizeof(topo),
             "{\"role\":\"%s\",\"peer\":{\"device\":\"%s\","
             "\"ifname\":\"%s\",\"role\":\"%s\"}}",
             role, peer_dev, peer_ifn, peer_role);
    struct store_config_row c = { NOW, dev, ifn, "fabric", cfg };
    struct store_config_row t = { NOW, dev, ifn, "topology", topo };
    assert_int_equal(store_put_config(st, &c, NULL), 0);
    assert_int_equal(store_put_config(st, &t, NULL), 0);
    for (int k = 0; k <= 10; k++) {
        struct dcb_sample smp;
        dcb_sample_set(&smp, NOW - (10 - k) * SEC, dev, ifn, METRIC_PORT_TX_BYTES, -1, -1);
        smp.value.counter = per_s * (uint64_t)k;
        assert_int_equal(store_put_sample(st, &smp, NULL), 0);
    }
}

static void put_port(struct dcb_store *st, const char *dev, const char *ifn, int pfc,
                     const char *peer_role, uint64_t per_s)
{
    put_link(st, dev, ifn, "switch", pfc, "x", "y", peer_role, per_s);
}

static struct dcb_store *ports_store(void)
{
    struct dcb_store *st;
    assert_int_equal(store_open_ring(&st, 100000, 1000, NULL), 0);
    put_port(st, "s1", "up0", 8, "switch", 400);
    put_port(st, "s1", "up1", 8, "switch", 100);
    put_port(st, "s1", "down0", 8, "host", 1000);
    put_port(st, "s2", "p0", 16, "switch", 50);
    return st;
}

#define PORT_RULE(id, when) \
    "[" id "]\nseverity = warn\nscope = port\nwhen = " when "\nmessage = m\n"
#define FABRIC_RULE(id, when) \
    "[" id "]\nseverity = warn\nscope = fabric\nwhen = " when "\nmessage = m {$prio}\n"

/* ports_count/sum/avg/max: over the device's ports at port scope (the filter picks siblings),
 * over every port at fabric scope; a fabric rule using $prio runs once per priority that is
 * lossless somewhere (3 and 4); peer_role() and role() from the store's topology rows. */
static void ports_functions(void **state)
{
    (void)state;
    make_store = ports_store;
    struct outcome o;
    run_rules(
        PORT_RULE("count3", "ports_count(rate(port.tx_bytes[5s]) > 0) == 3")
            PORT_RULE("sum-up",
                      "ports_sum(rate(port.tx_bytes[5s]), peer_role() == \"switch\") == 500")
                PORT_RULE("avg-all", "ports_avg(rate(port.tx_bytes[5s])) == 500")
                    PORT_RULE("max-all", "ports_max(rate(port.tx_bytes[5s])) == 1000") PORT_RULE(
                        "hot-uplink",
                        "peer_role() == \"switch\" and rate(port.tx_bytes[5s]) >= "
                        "2 * (ports_sum(rate(port.tx_bytes[5s]), peer_role() == \"switch\") - "
                        "rate(port.tx_bytes[5s])) / (ports_count(peer_role() == \"switch\") - 1)")
                        PORT_RULE("roles", "role() == \"switch\" and peer_role() == \"host\"")
                            PORT_RULE("busy", "busy_rate(port.tx_bytes[5s]) == 400")
                                PORT_RULE("none", "ports_sum(rate(pfc.rx_pause{prio=3}[5s])) > 0")
                                    FABRIC_RULE("fabric-count",
                                                "ports_count(rate(port.tx_bytes[5s]) > 0) == 4 and "
                                                "ports_sum(rate(port.tx_bytes[5s])) == 1550")
                                        FABRIC_RULE("per-prio", "$prio == 3 or $prio == 4"),
        NULL, &o);
    make_store = evidence_store;
    int count3 = 0, hot = 0, roles = 0, sum_up = 0, per_prio = 0;
    for (int i = 0; i < o.nfired; i++) {
        count3 += !strcmp(o.fired[i], "count3");
        hot += !strcmp(o.fired[i], "hot-uplink");
        roles += !strcmp(o.fired[i], "roles");
        sum_up += !strcmp(o.fired[i], "sum-up");
        per_prio += !strcmp(o.fired[i], "per-prio");
    }
    assert_int_equal(count3, 3); /* s1's three ports; s2 has one */
    assert_int_equal(sum_up, 3);
    assert_int_equal(hot, 1);   /* up0: 400 >= 2 x 100; up1 is not */
    assert_int_equal(roles, 1); /* down0 */
    assert_int_equal(per_prio, 2);
    assert_true(fired(&o, "avg-all"));
    assert_true(fired(&o, "busy")); /* up0 moves every second: busy = rate */
    assert_true(fired(&o, "max-all"));
    assert_true(fired(&o, "fabric-count"));
    assert_false(fired(&o, "none"));
    assert_non_null(strstr(undecided(&o, "none"), "ports_sum(rate(pfc.rx_pause{prio=3}[5s]))"));
    load_error("[r]\nseverity = warn\nscope = port\nwhen = ports_count(mtu) > 1\nmessage = m\n",
               "bad.rules:4:20:", "needs a bool");
    load_error("[r]\nseverity = warn\nscope = device\nwhen = $prio == 3\nmessage = m\n",
               "bad.rules:4:8:", "scope = priority");
}

/* s1:down0 is cabled to h1:eth0 (700 B/s), a port of the evidence; s1:up0's partner x:y is
 * not. at_peer() reads the partner's own series and config, and is unknown without one. */
static struct dcb_store *linked_store(void)
{
    struct dcb_store *st;
    assert_int_equal(store_open_ring(&st, 100000, 1000, NULL), 0);
    put_link(st, "s1", "down0", "switch", 8, "h1", "eth0", "host", 1000);
    put_link(st, "h1", "eth0", "host", 16, "s1", "down0", "switch", 700);
    put_port(st, "s1", "up0", 8, "switch", 400);
    return st;
}

static void at_peer_function(void **state)
{
    (void)state;
    make_store = linked_store;
    struct outcome o;
    run_rules(PORT_RULE("peer-rate", "at_peer(rate(port.tx_bytes[5s])) == 700 and "
                                     "rate(port.tx_bytes[5s]) == 1000")
                  PORT_RULE("peer-cfg", "at_peer(pfc.enabled) == 16 and pfc.enabled == 8")
                      PORT_RULE("peer-role", "at_peer(role()) == \"host\"")
                          PORT_RULE("no-peer", "at_peer(rate(port.tx_bytes[5s])) >= 0 and "
                                               "rate(port.tx_bytes[5s]) == 400"),
              NULL, &o);
    make_store = evidence_store;
    int rate = 0, cfg = 0, role = 0;
    for (int i = 0; i < o.nfired; i++) {
        rate += !strcmp(o.fired[i], "peer-rate");
        cfg += !strcmp(o.fired[i], "peer-cfg");
        role += !strcmp(o.fired[i], "peer-role");
    }
    assert_int_equal(rate, 1); /* s1:down0 only: h1's partner s1 sends 1000, not 700 */
    assert_int_equal(cfg, 1);
    assert_int_equal(role, 1);
    assert_false(fired(&o, "no-peer"));
    assert_non_null(strstr(undecided(&o, "no-peer"), "the link partner's port"));
}

/* Per-QP series on h1:eth0: QP 2 has 5 CE marks and no CNP back, QP 7 has 3 CE marks and 3 CNPs;
 * h2:eth0 has port counters only. */
static void put_qp(struct dcb_store *st, const char *dev, int qp, enum metric_id m, uint64_t v)
{
    for (int k = 0; k <= 1; k++) {
        struct dcb_sample smp;
        dcb_sample_set(&smp, NOW - (1 - k) * 10 * SEC, dev, "eth0", m, -1, qp);
        smp.value.counter = k ? v : 0;
        assert_int_equal(store_put_sample(st, &smp, NULL), 0);
    }
}

static struct dcb_store *qps_store(void)
{
    struct dcb_store *st;
    assert_int_equal(store_open_ring(&st, 100000, 1000, NULL), 0);
    put_qp(st, "h1", 2, METRIC_CAPTURE_QP_CE_PACKETS, 5);
    put_qp(st, "h1", 2, METRIC_CAPTURE_QP_CNPS_RECEIVED, 0);
    put_qp(st, "h1", 7, METRIC_CAPTURE_QP_CE_PACKETS, 3);
    put_qp(st, "h1", 7, METRIC_CAPTURE_QP_CNPS_RECEIVED, 3);
    for (int k = 0; k <= 1; k++) {
        struct dcb_sample smp;
        dcb_sample_set(&smp, NOW - (1 - k) * 10 * SEC, "h2", "eth0", METRIC_CAPTURE_CE_PACKETS, -1,
                       -1);
        smp.value.counter = k ? 4 : 0;
        assert_int_equal(store_put_sample(st, &smp, NULL), 0);
    }
    return st;
}

#define QP_RULE(id, when) "[" id "]\nseverity = warn\nscope = qp\nwhen = " when "\nmessage = m\n"

/* qp scope: one instance per QP of a port (the QP fills the qp label of per-QP metrics), and
 * one for a port without QPs, where per-QP metrics are unknown and port metrics answer. */
static void qp_scope(void **state)
{
    (void)state;
    make_store = qps_store;
    struct outcome o;
    run_rules(QP_RULE("no-cnp", "delta(capture.qp_ce_packets[1m]) > 0 and "
                                "delta(capture.qp_cnps_received[1m]) == 0")
                  QP_RULE("any-ce", "coalesce(delta(capture.qp_ce_packets[1m]), "
                                    "delta(capture.ce_packets[1m])) > 0"),
              NULL, &o);
    make_store = evidence_store;
    int no_cnp = 0, any_ce = 0;
    for (int i = 0; i < o.nfired; i++) {
        no_cnp += !strcmp(o.fired[i], "no-cnp");
        any_ce += !strcmp(o.fired[i], "any-ce");
    }
    assert_int_equal(no_cnp, 1); /* QP 2 only */
    assert_int_equal(any_ce, 3); /* QPs 2 and 7, and h2 by its port counter */
    assert_non_null(strstr(undecided(&o, "no-cnp"), "a QP")); /* h2 has none */
    make_store = qps_store;
    run_rules(QP_RULE("no-cnp", "delta(capture.qp_ce_packets[1m]) > 0 and "
                                "delta(capture.qp_cnps_received[1m]) == 0"),
              NULL, &o);
    make_store = evidence_store;
    assert_int_equal(o.last.qp, 2);
    assert_string_equal(o.last.device, "h1");
    load_error("[r]\nseverity = warn\nscope = port\nwhen = delta(capture.qp_naks[1m]) > 0\n"
               "message = m\n",
               "bad.rules:4:14:", "per QP");
    load_error("[r]\nseverity = warn\nscope = qp\nwhen = delta(capture.qp_naks{queue=1}[1m]) > 0\n"
               "message = m\n",
               "bad.rules:4:14:", "per QP");
}

/* ---- two rule sets in parallel threads ------------------------------------------------------ */

/* Everything a run reported, as text: a run that another thread disturbed reads differently. */
struct digest {
    char text[8192];
    size_t len;
};

static void digest_put(struct digest *d, const char *s)
{
    int n = snprintf(d->text + d->len, sizeof(d->text) - d->len, "%s\n", s);
    if (n > 0)
        d->len = d->len + (size_t)n < sizeof(d->text) ? d->len + (size_t)n : sizeof(d->text) - 1;
}

static void digest_finding(void *arg, const struct finding *f)
{
    char line[2048];
    snprintf(line, sizeof(line), "%s %s:%s prio %d | %s | %s=%s", f->rule->id, f->device, f->ifname,
             f->prio, f->summary, f->knob, f->proposed);
    digest_put(arg, line);
    for (size_t i = 0; i < f->nevidence; i++) {
        snprintf(line, sizeof(line), "  %s = %s", f->evidence[i].name, f->evidence[i].value);
        digest_put(arg, line);
    }
}

static void digest_undecided(void *arg, const struct rule_undecided *u)
{
    char line[512];
    snprintf(line, sizeof(line), "? %s prio %d: %s", u->rule->id, u->prio, u->missing);
    digest_put(arg, line);
}

/* A store of its own for each thread: an evidence source is not shared between threads. */
static pthread_barrier_t parallel_start;

static int digest_runs(const struct rule_set *rs, struct digest *d, int runs,
                       const struct digest *expect, int *differed)
{
    struct dcb_store *st = evidence_store();
    struct evidence ev;
    struct dcb_err err;
    int rc = evidence_store_open(&ev, st, NOW, &err);
    bool opened = rc == 0;
    struct rule_run_options opt = { .now_ns = NOW,
                                    .on_finding = digest_finding,
                                    .on_undecided = digest_undecided,
                                    .arg = d };
    if (expect) /* the threads' runs overlap from the first */
        pthread_barrier_wait(&parallel_start);
    for (int i = 0; rc == 0 && i < runs; i++) {
        memset(d, 0, sizeof(*d));
        rc = rule_set_run(rs, &ev, &opt, NULL, &err);
        if (expect && strcmp(d->text, expect->text))
            (*differed)++;
    }
    if (opened)
        evidence_store_close(&ev);
    store_close(st, NULL);
    return rc;
}

struct parallel_job {
    const struct rule_set *rs;
    const struct digest *serial;
    int runs, differed, rc;
};

static void *parallel_runs(void *arg)
{
    struct parallel_job *j = arg;
    struct digest *d = malloc(sizeof(*d));
    j->rc = d ? digest_runs(j->rs, d, j->runs, j->serial, &j->differed) : DCB_E_NOMEM;
    free(d);
    return NULL;
}

#define TEMPLATE_RULE(id, when, message)                                                    \
    "[" id "]\nseverity = warn\nscope = priority\nwhen = " when "\nmessage = " message "\n" \
    "knob = switch.buffer.$prio.xoff\npropose = switch.buffer.$prio.xoff * 2\n"

/* rule_set_run is reentrant: two rule sets (one of them run by two threads at once) give in
 * parallel what they give one after the other. */
static void runs_in_parallel_threads(void **state)
{
    (void)state;
    static const char *const texts[2] = {
        TEMPLATE_RULE("a-xoff", "switch.buffer.$prio.xoff < 200KB",
                      "priority {$prio}: XOFF {switch.buffer.$prio.xoff} PFC {pfc.enabled}")
            RULE("a-rate", "rate(pfc.rx_pause{prio=3}[60s]) == 10")
                RULE("a-unknown", "pfc.willing"),
        RULE("b-delta", "delta(pfc.rx_pause{prio=3}[30s]) == 300")
            TEMPLATE_RULE("b-peer", "peer.pfc.enabled != pfc.enabled",
                          "peer {peer.pfc.enabled} here {pfc.enabled} mtu {mtu}")
                RULE("b-div0", "mtu / (mtu - mtu) > 1"),
    };
    struct rule_set rs[2];
    static struct digest serial[2];
    struct dcb_err err;
    for (int k = 0; k < 2; k++) {
        rule_set_init(&rs[k]);
        assert_int_equal(rule_set_load_text(&rs[k], texts[k], strlen(texts[k]), "t.rules", &err),
                         0);
        assert_int_equal(digest_runs(&rs[k], &serial[k], 1, NULL, NULL), 0);
    }
    /* the serial runs say something worth comparing: findings with text, and undecided */
    assert_non_null(strstr(serial[0].text, "a-xoff h1:eth0 prio 3 | priority 3: XOFF 100KB"));
    assert_non_null(strstr(serial[0].text, "a-rate h1:eth0"));
    assert_non_null(strstr(serial[0].text, "? a-unknown"));
    assert_non_null(strstr(serial[1].text, "b-peer h1:eth0 prio 3 | peer 0x10 here 0x08 mtu 9KB"));
    assert_non_null(strstr(serial[1].text, "b-delta h1:eth0"));
    assert_non_null(strstr(serial[1].text, "division by zero"));
    struct parallel_job jobs[3] = {
        { &rs[0], &serial[0], 3000, 0, 0 },
        { &rs[1], &serial[1], 3000, 0, 0 },
        { &rs[0], &serial[0], 3000, 0, 0 },
    };
    pthread_t th[3];
    assert_int_equal(pthread_barrier_init(&parallel_start, NULL, 3), 0);
    for (int t = 0; t < 3; t++)
        assert_int_equal(pthread_create(&th[t], NULL, parallel_runs, &jobs[t]), 0);
    for (int t = 0; t < 3; t++)
        assert_int_equal(pthread_join(th[t], NULL), 0);
    pthread_barrier_destroy(&parallel_start);
    for (int t = 0; t < 3; t++) {
        assert_int_equal(jobs[t].rc, 0);
        assert_int_equal(jobs[t].differed, 0);
    }
    for (int k = 0; k < 2; k++)
        rule_set_free(&rs[k]);
}

/* Every rule of the shipped catalog parses and checks: a function the catalog calls that the
 * engine no longer knows by that name fails here, not in diagnose. */
static void catalog_loads(void **state)
{
    (void)state;
    struct rule_set rs;
    rule_set_init(&rs);
    struct dcb_err err = { 0 };
    setenv("DCBKIT_RULES", DCBKIT_SOURCE_RULES, 1);
    if (rule_set_load_catalog(&rs, NULL, 0, &err) != 0) {
        print_error("%s\n", err.msg);
        fail();
    }
    assert_true(rs.n >= 20);
    rule_set_free(&rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(logic),
        cmocka_unit_test(windows),
        cmocka_unit_test(coalesce_keeps_unserved),
        cmocka_unit_test(windows_across_a_reset),
        cmocka_unit_test(windows_of_a_series_past_the_end),
        cmocka_unit_test(windows_across_a_wrap),
        cmocka_unit_test(templates_and_profiles),
        cmocka_unit_test(proposals_checked_against_config),
        cmocka_unit_test(load_errors),
        cmocka_unit_test(ports_functions),
        cmocka_unit_test(at_peer_function),
        cmocka_unit_test(qp_scope),
        cmocka_unit_test(runs_in_parallel_threads),
        cmocka_unit_test(catalog_loads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
