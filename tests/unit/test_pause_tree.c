/* Root and victim: the pause tree of a priority read from PFC events over the cabling, a
 * `cause = pause-tree` rule's finding at a victim (info, no proposal, who paused it), uplink()
 * from the devices' distance to the hosts, and the one order with the cause in it. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "evidence_store.h"
#include "findings.h"
#include "rules.h"
#include "store.h"

#define SEC 1000000000LL
#define NOW (1000 * SEC)

/* host1 - leaf1 - spine1 - leaf2 - host2, and leaf1 - spine2 - leaf2 (two uplinks per leaf).
 * host2 is a slow receiver: it pauses leaf2 first; leaf2 then pauses both spines, and the
 * spines pause leaf1. Every switch port sent XOFF; only host2 did so before it was paused. */
static const char *const links[][4] = {
    { "host1", "eth0", "leaf1", "Ethernet0" },
    { "leaf1", "Ethernet4", "spine1", "Ethernet0" },
    { "leaf1", "Ethernet5", "spine2", "Ethernet0" },
    { "spine1", "Ethernet1", "leaf2", "Ethernet4" },
    { "spine2", "Ethernet1", "leaf2", "Ethernet5" },
    { "leaf2", "Ethernet0", "host2", "eth0" },
};

static void put_topology(struct dcb_store *st, const char *dev, const char *ifn, const char *pdev,
                         const char *pifn)
{
    char json[256];
    snprintf(json, sizeof(json),
             "{\"role\":\"%s\",\"peer\":{\"device\":\"%s\",\"ifname\":\"%s\",\"role\":\"%s\"}}",
             strncmp(dev, "host", 4) ? "switch" : "host", pdev, pifn,
             strncmp(pdev, "host", 4) ? "switch" : "host");
    struct store_config_row row = { NOW - 100 * SEC, dev, ifn, "topology", json };
    assert_int_equal(store_put_config(st, &row, NULL), 0);
    struct store_config_row cfg = { NOW - 100 * SEC, dev, ifn, "fabric",
                                    "{\"pfc\":{\"enabled\":8},"
                                    "\"switch\":{\"buffer\":{\"3\":{\"xoff\":\"100KB\"}}}}" };
    assert_int_equal(store_put_config(st, &cfg, NULL), 0);
}

static void put_xoff(struct dcb_store *st, int64_t t, const char *dev, const char *ifn)
{
    struct dcb_event e;
    dcb_event_set(&e, t, EVENT_PFC_XOFF, dev, ifn, 3, "{}");
    assert_int_equal(store_put_event(st, &e, NULL), 0);
}

/* A port's counter: 0 a minute ago, v now. */
static void put_delta(struct dcb_store *st, const char *dev, const char *ifn, enum metric_id m,
                      int prio, uint64_t v, int queue)
{
    for (int k = 0; k <= 1; k++) {
        struct dcb_sample s;
        dcb_sample_set(&s, NOW - (1 - k) * 60 * SEC, dev, ifn, m, prio, queue);
        s.value.counter = k ? v : 0;
        assert_int_equal(store_put_sample(st, &s, NULL), 0);
    }
}

static struct dcb_store *slow_receiver_store(bool with_events)
{
    struct dcb_store *st;
    assert_int_equal(store_open_ring(&st, 100000, 1000, NULL), 0);
    for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
        put_topology(st, links[i][0], links[i][1], links[i][2], links[i][3]);
        put_topology(st, links[i][2], links[i][3], links[i][0], links[i][1]);
    }
    if (with_events) {
        put_xoff(st, NOW - 50 * SEC, "host2", "eth0");      /* the root */
        put_xoff(st, NOW - 49 * SEC, "leaf2", "Ethernet4"); /* leaf2, paused 1 s before */
        put_xoff(st, NOW - 49 * SEC, "leaf2", "Ethernet5");
        put_xoff(st, NOW - 48 * SEC, "spine1", "Ethernet0"); /* the spines, paused by leaf2 */
        put_xoff(st, NOW - 48 * SEC, "spine2", "Ethernet0");
        put_xoff(st, NOW - 47 * SEC, "leaf1", "Ethernet0"); /* leaf1, paused by the spines */
    }
    /* every switch port sent PFC and marked nothing: ecn-too-late's evidence everywhere */
    for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++)
        for (int end = 0; end < 4; end += 2) {
            put_delta(st, links[i][end], links[i][end + 1], METRIC_PFC_TX_PAUSE, 3, 40, -1);
            put_delta(st, links[i][end], links[i][end + 1], METRIC_QUEUE_ECN_MARKED, -1, 0, 3);
        }
    /* leaf1's uplinks: Ethernet4 carries 95 % of the pair; leaf2's 3 to 1, an ordinary hash of
     * four flows; the spines' downlinks are as uneven as leaf1's, but lead to different leaves */
    put_delta(st, "leaf1", "Ethernet4", METRIC_PORT_TX_BYTES, -1, 950000, -1);
    put_delta(st, "leaf1", "Ethernet5", METRIC_PORT_TX_BYTES, -1, 50000, -1);
    put_delta(st, "leaf2", "Ethernet4", METRIC_PORT_TX_BYTES, -1, 750000, -1);
    put_delta(st, "leaf2", "Ethernet5", METRIC_PORT_TX_BYTES, -1, 250000, -1);
    put_delta(st, "spine1", "Ethernet0", METRIC_PORT_TX_BYTES, -1, 950000, -1);
    put_delta(st, "spine1", "Ethernet1", METRIC_PORT_TX_BYTES, -1, 50000, -1);
    return st;
}

static struct finding found[64];
static char found_id[64][RULE_ID_MAX];
static int nfound;

static void keep(void *arg, const struct finding *f)
{
    (void)arg;
    if (nfound < 64) {
        snprintf(found_id[nfound], RULE_ID_MAX, "%s", f->rule->id);
        found[nfound++] = *f;
    }
}

static const struct finding *at(const char *id, const char *dev, const char *ifn)
{
    for (int i = 0; i < nfound; i++)
        if (!strcmp(found_id[i], id) && !strcmp(found[i].device, dev) &&
            !strcmp(found[i].ifname, ifn))
            return &found[i];
    return NULL;
}

static void run(const char *text, bool with_events)
{
    nfound = 0;
    struct rule_set rs;
    rule_set_init(&rs);
    struct dcb_err err;
    if (rule_set_load_text(&rs, text, strlen(text), "t.rules", &err)) {
        print_error("%s\n", err.msg);
        fail();
    }
    struct dcb_store *st = slow_receiver_store(with_events);
    struct evidence ev;
    assert_int_equal(evidence_store_open(&ev, st, NOW, &err), 0);
    struct rule_run_options opt = { .now_ns = NOW, .on_finding = keep };
    assert_int_equal(rule_set_run(&rs, &ev, &opt, NULL, &err), 0);
    evidence_store_close(&ev);
    store_close(st, NULL);
    rule_set_free(&rs);
}

#define LATE                                                                                     \
    "[late]\nseverity = warn\nscope = priority\nwhen = delta(pfc.tx_pause{prio=$prio}[5m]) > 0 " \
    "and delta(queue.ecn_marked{queue=3}[5m]) == 0\ncause = pause-tree\nmessage = m\n"           \
    "knob = switch.wred.3.min_bytes\ndirection = lower\npropose = switch.buffer.3.xoff / 4\n"

/* The slow receiver is the root; leaf2, the spines and leaf1 only relay its pause: victims, as
 * info, with who paused them first and no proposal. */
static void victims_of_a_slow_receiver(void **state)
{
    (void)state;
    run(LATE "[victim]\nseverity = warn\nscope = priority\nwhen = pause_victim()\nmessage = m\n",
        true);
    const struct finding *h = at("late", "host2", "eth0");
    assert_non_null(h);
    assert_int_equal(h->cause, CAUSE_ROOT);
    assert_int_equal(h->severity, RULE_WARN);
    assert_string_equal(h->proposed, "25000");
    assert_string_equal(h->paused_by, "");
    const struct finding *l2 = at("late", "leaf2", "Ethernet4");
    assert_non_null(l2);
    assert_int_equal(l2->cause, CAUSE_VICTIM);
    assert_int_equal(l2->severity, RULE_INFO);
    assert_string_equal(l2->paused_by, "host2:eth0");
    assert_string_equal(l2->proposed, "");
    assert_non_null(strstr(l2->summary, "(a victim: paused by host2:eth0 before it paused anyone; "
                                        "no proposal"));
    const struct finding *s1 = at("late", "spine1", "Ethernet0");
    assert_non_null(s1);
    assert_int_equal(s1->cause, CAUSE_VICTIM);
    assert_string_equal(s1->paused_by, "leaf2:Ethernet4");
    const struct finding *l1 = at("late", "leaf1", "Ethernet0");
    assert_non_null(l1);
    assert_int_equal(l1->cause, CAUSE_VICTIM);
    /* pause_victim() in a condition: every switch, and the sender leaf1 paused; never the
     * receiver that paused first */
    assert_non_null(at("victim", "spine2", "Ethernet1"));
    assert_non_null(at("victim", "leaf1", "Ethernet4"));
    assert_non_null(at("victim", "host1", "eth0"));
    assert_null(at("victim", "host2", "eth0"));
}

/* Without PFC events the tree is unknown: every finding stays a root, pause_victim() unknown. */
static void no_events_no_victims(void **state)
{
    (void)state;
    run(LATE "[victim]\nseverity = warn\nscope = priority\nwhen = pause_victim()\nmessage = m\n",
        false);
    const struct finding *s1 = at("late", "spine1", "Ethernet0");
    assert_non_null(s1);
    assert_int_equal(s1->cause, CAUSE_ROOT);
    assert_int_equal(s1->severity, RULE_WARN);
    for (int i = 0; i < nfound; i++)
        assert_string_not_equal(found_id[i], "victim");
}

/* uplink(): a leaf's ports to the spines and a host's to its leaf (toward the core), not a
 * spine's ports to the leaves nor a leaf's to its hosts. */
static void uplinks_by_tier(void **state)
{
    (void)state;
    run("[up]\nseverity = warn\nscope = port\nwhen = uplink()\nmessage = m\n"
        "[hot]\nseverity = warn\nscope = port\nwhen = uplink() and ports_count(uplink()) >= 2 and "
        "rate(port.tx_bytes[5m]) >= 1.8 * ports_avg(rate(port.tx_bytes[5m]), uplink())\n"
        "message = m\n",
        true);
    int up = 0;
    for (int i = 0; i < nfound; i++)
        up += !strcmp(found_id[i], "up");
    assert_int_equal(up, 6); /* leaf1 and leaf2, two each; the hosts, one each */
    assert_non_null(at("up", "leaf2", "Ethernet5"));
    assert_non_null(at("up", "host1", "eth0"));
    assert_null(at("up", "spine1", "Ethernet0"));
    assert_null(at("up", "leaf1", "Ethernet0"));
    assert_non_null(at("hot", "leaf1", "Ethernet4"));
    assert_null(at("hot", "leaf2", "Ethernet4"));
    assert_null(at("hot", "spine1", "Ethernet0")); /* downlinks to two leaves: no siblings */
}

static void load_error_cause(void **state)
{
    (void)state;
    struct rule_set rs;
    rule_set_init(&rs);
    struct dcb_err err = { 0 };
    const char *text = "[r]\nseverity = warn\nscope = port\nwhen = true\ncause = pause-tree\n"
                       "message = m\n";
    assert_int_equal(rule_set_load_text(&rs, text, strlen(text), "bad.rules", &err), DCB_E_INVAL);
    assert_non_null(strstr(err.msg, "pause-tree needs scope = priority"));
    text = "[r]\nseverity = warn\nscope = priority\nwhen = true\ncause = downstream\nmessage = m\n";
    assert_int_equal(rule_set_load_text(&rs, text, strlen(text), "bad.rules", &err), DCB_E_INVAL);
    assert_non_null(strstr(err.msg, "cause is root or pause-tree"));
    rule_set_free(&rs);
}

/* The one order: severity, root before victim, confidence, rule, device, port, priority. */
static void order_ranks_roots_first(void **state)
{
    (void)state;
    struct rule sure = { .id = "a-sure", .confidence = 0.95 };
    struct rule unsure = { .id = "z-unsure", .confidence = 0.6 };
    struct finding v[4] = { 0 };
    v[0] = (struct finding){ .rule = &sure, .severity = RULE_WARN, .cause = CAUSE_VICTIM };
    v[1] = (struct finding){ .rule = &unsure, .severity = RULE_WARN, .cause = CAUSE_ROOT };
    v[2] = (struct finding){ .rule = &sure, .severity = RULE_CRIT, .cause = CAUSE_VICTIM };
    v[3] = (struct finding){ .rule = &sure, .severity = RULE_WARN, .cause = CAUSE_ROOT };
    snprintf(v[3].device, sizeof(v[3].device), "leaf1");
    struct finding_list l = { 0 };
    for (int i = 0; i < 4; i++)
        finding_list_add(&l, &v[i]);
    finding_list_rank(&l);
    assert_int_equal(l.n, 4);
    assert_true(l.v[0].severity == RULE_CRIT); /* severity first, victim or not */
    assert_true(l.v[1].rule == &sure && l.v[1].cause == CAUSE_ROOT);
    assert_true(l.v[2].rule == &unsure); /* a root, less sure, before a victim */
    assert_true(l.v[3].cause == CAUSE_VICTIM && l.v[3].severity == RULE_WARN);
    assert_true(finding_order(&v[1], &v[0]) < 0 && finding_order(&v[0], &v[1]) > 0);
    assert_string_equal(finding_cause_name(CAUSE_VICTIM), "victim");
    assert_string_equal(finding_cause_name(CAUSE_ROOT), "root");
    finding_list_free(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(victims_of_a_slow_receiver),
        cmocka_unit_test(no_events_no_victims),
        cmocka_unit_test(uplinks_by_tier),
        cmocka_unit_test(load_error_cause),
        cmocka_unit_test(order_ranks_roots_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
