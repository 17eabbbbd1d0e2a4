/* The faults a port's config stages in the replay engine (issue 27), each in a small whole run
 * against a hand-computed case: frames lost to a bad FCS at a rate (link.fcs_error_ppm), exact
 * under the seed and within binomial bounds; a switch that clears CE (switch.ecn.clear_ce) or
 * rewrites DSCP (switch.dscp_rewrite); senders that are not ECN-capable (nic.ecn_capable); and
 * the DCBX exchange with willing bits (pfc.willing, ets.willing, dcbx.mode). */
#include "unit.h"

#include "counter_seen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "buffer.h"
#include "rng.h"
#include "scenario.h"
#include "sim.h"

/* A star of `hosts` at 40G, RoCE (DSCP 26) lossless on priority 3 with DCQCN, CNPs on 6, WRED/ECN
 * on TC 3 at 5 KB / 200 KB / 1 %, as fixtures/scenarios/fabrics/star-40g.json. */
#define STAR(hosts)                                                                              \
    "{\"fabric\":{\"generate\":{\"type\":\"star\",\"hosts\":" #hosts ",\"speed\":\"40G\","       \
    "\"cable_m\":3},\"defaults\":{\"trust\":\"dscp\",\"dscp2prio\":{\"0\":0,\"26\":3,\"48\":6}," \
    "\"pfc\":{\"enabled\":8},\"cnp\":{\"dscp\":48,\"prio\":6}},"                                 \
    "\"host_defaults\":{\"nic\":{\"dcqcn\":{\"np_enabled\":8,\"rp_enabled\":8}}},"               \
    "\"switch_defaults\":{\"switch\":{\"wred\":{\"3\":{\"min_bytes\":\"5KB\",\"max_bytes\":"     \
    "\"200KB\",\"max_p\":1,\"ecn\":true}},\"buffer\":{\"3\":{\"xoff\":\"400KB\",\"xon\":2500,"   \
    "\"headroom\":\"50KB\"}}}}},"

/* One flow host1 -> host2 of 10 MB, no congestion anywhere: nothing is marked or dropped but
 * what a fault does. */
#define ONE_FLOW                                                      \
    STAR(2)                                                           \
    "\"duration_ms\":20,\"seed\":7,\"workload\":{\"type\":\"flows\"," \
    "\"flows\":[{\"src\":\"host1\",\"dst\":\"host2\",\"bytes\":\"10MB\",\"dscp\":26}]}}"

/* 8 -> 1 incast of 256 KB messages: WRED marks, DCQCN answers (healthy-incast). */
#define INCAST                                                        \
    STAR(9)                                                           \
    "\"duration_ms\":2,\"seed\":1,\"workload\":{\"type\":\"incast\"," \
    "\"receiver\":\"host9\",\"count\":8,\"bytes\":\"256KB\",\"dscp\":26}}"

#define SEEN_MAX 4096
#define EVENTS_MAX 32

struct seen {
    struct counter_seen c[SEEN_MAX];
    int n;
    struct dcb_event dcbx[EVENTS_MAX]; /* dcbx_seen events */
    int ndcbx;
    int fcs_drop_events;
};

static void keep_sample(void *arg, const struct dcb_sample *s)
{
    struct seen *r = arg;
    counter_seen_keep(r->c, &r->n, SEEN_MAX, s);
}

static void keep_event(void *arg, const struct dcb_event *e)
{
    struct seen *r = arg;
    if (e->kind == EVENT_DCBX_SEEN && r->ndcbx < EVENTS_MAX)
        r->dcbx[r->ndcbx++] = *e;
    if (e->kind == EVENT_DROP && strstr(e->details, "\"cause\":\"fcs\""))
        r->fcs_drop_events++;
}

/* A counter's last value at one port (-1: any prio/queue summed), or over all ports (NULL). */
static uint64_t counter(const struct seen *r, const char *device, const char *ifname,
                        enum metric_id m, int queue)
{
    uint64_t sum = 0;
    for (int i = 0; i < r->n; i++) {
        const struct counter_seen *c = &r->c[i];
        if (c->metric == (int)m && (queue < 0 || c->queue == queue) &&
            (!device || (!strcmp(c->device, device) && !strcmp(c->ifname, ifname))))
            sum += c->value;
    }
    return sum;
}

struct faults_run {
    struct scenario sc;
    struct replay_summary sum;
    struct seen seen;
};

/* The scenario with --set overrides, run once with samples every 100 us. */
static struct faults_run *run(const char *text, const char *const *sets, size_t nsets)
{
    struct faults_run *r = calloc(1, sizeof(*r));
    assert_non_null(r);
    struct dcb_err err;
    if (scenario_load_text(&r->sc, text, strlen(text), "t", NULL, sets, nsets, &err) < 0)
        fail_msg("load: %s", err.msg);
    r->sc.options.sample_interval_ns = 100000;
    r->sc.options.after = r->sc.workload.after;
    r->sc.options.transport = r->sc.workload.transport;
    struct replay_hooks h = { keep_sample, keep_event, NULL, &r->seen };
    if (replay_run(&r->sc.fabric, r->sc.workload.flows, r->sc.workload.nflows, &r->sc.options, &h,
                   &r->sum, &err) < 0)
        fail_msg("run: %s", err.msg);
    return r;
}

static void run_free(struct faults_run *r)
{
    replay_summary_free(&r->sum);
    scenario_free(&r->sc);
    free(r);
}

/* ---- link.fcs_error_ppm ------------------------------------------------------------------- */

/* 1 % on host2's port: every data frame reaching host2 draws once, in arrival order, and nothing
 * else draws (no WRED: nothing queues). So the frames lost are exactly those of the first N draws
 * of the seed's stream below 0.01, N the packets the sender put on the wire, retransmissions
 * included; and within 4 sigma of the binomial's mean. Each loss the receiver sees as a gap:
 * out-of-sequence packets, NAKs, retransmissions. */
static void fcs_errors_at_a_rate(void **state)
{
    (void)state;
    const char *sets[] = { "host2:eth0/link.fcs_error_ppm=10000" };
    struct faults_run *base = run(ONE_FLOW, NULL, 0);
    struct faults_run *r = run(ONE_FLOW, sets, 1);
    assert_int_equal(counter(&base->seen, NULL, NULL, METRIC_LINK_FCS_ERRORS, -1), 0);
    assert_int_equal(base->sum.flows[0].retransmitted, 0);

    const struct replay_flow_result *fl = &r->sum.flows[0];
    uint64_t n = fl->packets_sent, want = 0, rng = 7;
    for (uint64_t k = 0; k < n; k++)
        want += rng_uniform(&rng) < 0.01;
    uint64_t got = counter(&r->seen, "host2", "eth0", METRIC_LINK_FCS_ERRORS, -1);
    print_message("%llu frames, %llu lost to FCS (the seed's draws say %llu)\n",
                  (unsigned long long)n, (unsigned long long)got, (unsigned long long)want);
    assert_int_equal(got, want);
    double mean = 0.01 * (double)n, sd = sqrt((double)n * 0.01 * 0.99);
    assert_true(fabs((double)got - mean) <= 4 * sd);
    assert_true(got >= 50); /* 10 MB: 10,000 frames and more */
    assert_int_equal(counter(&r->seen, NULL, NULL, METRIC_LINK_FCS_ERRORS, -1), got);
    assert_true(r->seen.fcs_drop_events >= 1);
    /* the receiver's loss counters see them: each loss opens a gap, one NAK each at most */
    assert_true(fl->out_of_sequence > 0);
    assert_true(fl->naks >= 1 && fl->naks <= got);
    assert_true(counter(&r->seen, "host1", "eth0", METRIC_ROCE_PACKET_SEQ_ERR, -1) >= 1);
    assert_true(fl->retransmitted >= got);
    assert_int_equal(fl->bytes_acked, 10000000); /* go-back-N still delivers it all */
    run_free(base);
    run_free(r);
}

/* The same rate on the sender's port loses only ACKs (cumulative: the next one covers), so the
 * receiver sees no gap at all: the direction of the corrupting link matters. */
static void fcs_errors_on_the_ack_path(void **state)
{
    (void)state;
    const char *sets[] = { "host1:eth0/link.fcs_error_ppm=10000" };
    struct faults_run *r = run(ONE_FLOW, sets, 1);
    assert_true(counter(&r->seen, "host1", "eth0", METRIC_LINK_FCS_ERRORS, -1) >= 1);
    assert_int_equal(r->sum.flows[0].out_of_sequence, 0);
    assert_int_equal(r->sum.flows[0].naks, 0);
    run_free(r);
}

/* ---- switch.ecn.clear_ce, switch.dscp_rewrite ---------------------------------------------- */

/* The switch still marks, but the marks never leave it: the NP sees no CE and sends no CNP.
 * Without the fault, every mark reaches the receiver (nothing is dropped). */
static void switch_clears_ce(void **state)
{
    (void)state;
    const char *sets[] = { "switch.ecn.clear_ce=true" };
    struct faults_run *base = run(INCAST, NULL, 0);
    struct faults_run *r = run(INCAST, sets, 1);
    uint64_t marks = counter(&base->seen, NULL, NULL, METRIC_QUEUE_ECN_MARKED, -1);
    assert_true(marks > 0);
    assert_int_equal(counter(&base->seen, NULL, NULL, METRIC_ROCE_ECN_MARKED_RX, -1), marks);
    assert_true(counter(&base->seen, NULL, NULL, METRIC_CNP_SENT, -1) > 0);
    assert_true(counter(&r->seen, NULL, NULL, METRIC_QUEUE_ECN_MARKED, -1) > 0);
    assert_int_equal(counter(&r->seen, NULL, NULL, METRIC_ROCE_ECN_MARKED_RX, -1), 0);
    assert_int_equal(counter(&r->seen, NULL, NULL, METRIC_CNP_SENT, -1), 0);
    run_free(base);
    run_free(r);
}

/* DSCP 26 rewritten to 0 as it enters the switch: the switch classifies it on priority 0, so
 * every byte to host9 goes through TC 0 (no WRED there: no mark) and none through TC 3; the NIC
 * gives DSCP 0 priority 0, where its NP is off. */
static void switch_rewrites_dscp(void **state)
{
    (void)state;
    const char *sets[] = { "switch.dscp_rewrite=0" };
    struct faults_run *base = run(INCAST, NULL, 0);
    struct faults_run *r = run(INCAST, sets, 1);
    const char *to_rx = "Ethernet8"; /* switch1's port to host9 */
    assert_true(counter(&base->seen, "switch1", to_rx, METRIC_QUEUE_TX_BYTES, 3) > 0);
    assert_int_equal(counter(&r->seen, "switch1", to_rx, METRIC_QUEUE_TX_BYTES, 3), 0);
    assert_true(counter(&r->seen, "switch1", to_rx, METRIC_QUEUE_TX_BYTES, 0) >= 8 * (256u << 10));
    assert_int_equal(counter(&r->seen, NULL, NULL, METRIC_QUEUE_ECN_MARKED, -1), 0);
    assert_int_equal(counter(&r->seen, NULL, NULL, METRIC_CNP_SENT, -1), 0);
    run_free(base);
    run_free(r);
}

/* ---- nic.ecn_capable ------------------------------------------------------------------------ */

/* WRED/ECN on a Not-ECT packet (RFC 3168): where an ECT one is marked it is dropped; below Kmin
 * both pass; a drop-mode queue drops both. */
static void wred_not_ect_hand(void **state)
{
    (void)state;
    struct wred w = { .on = true, .ecn = true, .lo = 5000, .hi = 200000, .max_p = 0.01 };
    uint64_t rng = 1;
    assert_int_equal(buffer_should_mark(&w, 5000, false, &rng), WRED_PASS);
    assert_int_equal(buffer_should_mark(&w, 5000, true, &rng), WRED_PASS);
    assert_int_equal(buffer_should_mark(&w, 200000, true, &rng), WRED_MARK);
    assert_int_equal(buffer_should_mark(&w, 200000, false, &rng), WRED_DROP);
    w.ecn = false;
    assert_int_equal(buffer_should_mark(&w, 200000, true, &rng), WRED_DROP);
}

/* Senders that are not ECN-capable: the queue that marked 1,800 packets drops instead, and the
 * losses show at the receiver; nothing is marked or answered with a CNP. */
static void senders_not_ect(void **state)
{
    (void)state;
    const char *sets[] = { "nic.ecn_capable=false" };
    struct faults_run *base = run(INCAST, NULL, 0);
    struct faults_run *r = run(INCAST, sets, 1);
    assert_int_equal(counter(&base->seen, NULL, NULL, METRIC_QUEUE_WRED_DROPS, -1), 0);
    uint64_t drops = counter(&r->seen, "switch1", "Ethernet8", METRIC_QUEUE_WRED_DROPS, 3);
    assert_true(drops > 0);
    assert_int_equal(counter(&r->seen, NULL, NULL, METRIC_QUEUE_ECN_MARKED, -1), 0);
    assert_int_equal(counter(&r->seen, NULL, NULL, METRIC_CNP_SENT, -1), 0);
    assert_true(counter(&r->seen, "host9", "eth0", METRIC_ROCE_OUT_OF_SEQUENCE, -1) > 0);
    run_free(base);
    run_free(r);
}

/* ---- DCBX ----------------------------------------------------------------------------------- */

static struct qos_config dcbx_end(const char *mode, int pfc_willing, int ets_willing, int pfc)
{
    struct qos_config c;
    qos_config_init(&c);
    if (mode)
        qos_set(&c, "dcbx.mode", mode, NULL);
    if (pfc_willing >= 0)
        c.pfc_willing = (struct qos_val){ pfc_willing, true };
    if (ets_willing >= 0)
        c.ets_willing = (struct qos_val){ ets_willing, true };
    c.pfc_enabled = (struct qos_val){ pfc, true };
    return c;
}

/* 802.1Qaz as lldpad runs it: PFC symmetric (willing takes a non-willing peer's; of two willing
 * ends the lower MAC takes), ETS asymmetric (a willing end takes the peer's recommendation),
 * APP with PFC; nothing unless both run DCBX in the same mode. */
static void dcbx_takes_hand(void **state)
{
    (void)state;
    struct qos_config w = dcbx_end("ieee", 1, 1, 0x08), n = dcbx_end("ieee", 0, 0, 0x10);
    struct qos_config cee = dcbx_end("cee", 1, 1, 0x08), off = dcbx_end("off", 1, 1, 0x08);
    struct qos_config unset = dcbx_end(NULL, 1, 1, 0x08), w2 = dcbx_end("ieee", 1, 0, 0x18);
    unsigned all = DCBX_TOOK_PFC | DCBX_TOOK_ETS | DCBX_TOOK_APP;
    assert_int_equal(dcbx_takes(&w, &n, false), all); /* willing, peer not */
    assert_int_equal(dcbx_takes(&w, &n, true), all);
    assert_int_equal(dcbx_takes(&n, &w, true), 0);               /* non-willing keeps its own */
    assert_int_equal(dcbx_takes(&n, &n, true), 0);               /* none willing */
    assert_int_equal(dcbx_takes(&w, &w2, true), all);            /* both: the lower MAC takes */
    assert_int_equal(dcbx_takes(&w2, &w, false), 0);             /* the higher keeps PFC, and */
    assert_int_equal(dcbx_takes(&w, &w2, false), DCBX_TOOK_ETS); /* ETS goes by willing only */
    assert_int_equal(dcbx_takes(&w, &cee, false), 0);            /* another DCBX version */
    assert_int_equal(dcbx_takes(&w, &off, false), 0);
    assert_int_equal(dcbx_takes(&w, &unset, false), 0);
    assert_int_equal(dcbx_takes(&unset, &n, false), 0);

    /* what is taken: the peer's PFC, ETS, APP table and its DSCP entries in the DSCP map */
    struct qos_config local = dcbx_end("ieee", 1, 1, 0x08);
    local.dscp2prio[26] = (struct qos_val){ 3, true };
    local.dscp2prio[48] = (struct qos_val){ 6, true };
    struct qos_config peer = dcbx_end("ieee", 0, 0, 0x10);
    qos_set(&peer, "app", "5:26:4,3:4791:4", NULL);
    qos_set(&peer, "prio2tc.3", "1", NULL);
    qos_set(&peer, "ets.bw.1", "70", NULL);
    dcbx_take(&local, &peer, all);
    assert_int_equal(local.pfc_enabled.v, 0x10);
    assert_int_equal(local.prio2tc[3].v, 1);
    assert_int_equal(local.ets_bw[1].v, 70);
    assert_int_equal(local.napp, 2);
    assert_int_equal(local.dscp2prio[26].v, 4);
    assert_int_equal(local.dscp2prio[48].v, 6); /* not in the table: kept */
}

static const struct dcb_event *dcbx_event(const struct seen *r, const char *device)
{
    for (int i = 0; i < r->ndcbx; i++)
        if (!strcmp(r->dcbx[i].device, device))
            return &r->dcbx[i];
    return NULL;
}

/* The switch advertises an APP table that sends DSCP 26 to priority 0 (a wrong one). Willing
 * hosts take it: host9 then gives arriving RoCE priority 0, where its NP is off, and sends no CNP
 * (the healthy incast sends 65); non-willing hosts keep their own map and the run is the
 * healthy one. An end reports the exchange when it changed its config or the ends differ. */
static void dcbx_willing_host_takes_wrong_config(void **state)
{
    (void)state;
    const char *keep[] = { "dcbx.mode=ieee", "switch1/app=5:26:0" };
    const char *take[] = { "dcbx.mode=ieee", "switch1/app=5:26:0", "host9/pfc.willing=true" };
    struct faults_run *base = run(INCAST, keep, 2);
    struct faults_run *r = run(INCAST, take, 3);
    assert_true(counter(&base->seen, NULL, NULL, METRIC_CNP_SENT, -1) > 0);
    assert_int_equal(counter(&r->seen, "host9", "eth0", METRIC_CNP_SENT, -1), 0);
    assert_int_equal(counter(&r->seen, NULL, NULL, METRIC_ROCE_ECN_MARKED_RX, -1),
                     counter(&base->seen, NULL, NULL, METRIC_ROCE_ECN_MARKED_RX, -1));

    /* the hosts keep no APP table where the switch has one: both ends of 9 links say so; once
     * host9 took it, its link agrees and only host9 speaks of it */
    assert_int_equal(base->seen.ndcbx, 18);
    for (int i = 0; i < base->seen.ndcbx; i++)
        assert_non_null(strstr(base->seen.dcbx[i].details, "\"taken\":[],"));
    assert_non_null(strstr(base->seen.dcbx[0].details, "\"mismatch\":[\"app\"]}"));
    assert_int_equal(r->seen.ndcbx, 17);
    for (int i = 0; i < r->seen.ndcbx; i++)
        assert_false(!strcmp(r->seen.dcbx[i].device, "switch1") &&
                     !strcmp(r->seen.dcbx[i].ifname, "Ethernet8"));
    const struct dcb_event *h = dcbx_event(&r->seen, "host9");
    assert_non_null(h);
    assert_string_equal(h->details,
                        "{\"peer\":\"switch1\",\"port\":\"Ethernet8\","
                        "\"dcbx\":\"ieee\",\"pfc_enable\":8,\"willing\":false,"
                        "\"taken\":[\"pfc\",\"app\"],\"pfc_enable_oper\":8,\"mismatch\":[]}");
    run_free(base);
    run_free(r);
}

/* PFC: a willing host takes a non-willing switch port's PFC (priority 4 where the rest of the
 * fabric has 3) and runs it; a non-willing one keeps its own and the event names the mismatch.
 * Both willing: the switch's port (the switch is listed first: the lower MAC) takes the host's
 * PFC instead, and the host keeps its own. */
static void dcbx_pfc_willing(void **state)
{
    (void)state;
    const char *host_takes[] = { "dcbx.mode=ieee", "switch1:Ethernet0/pfc.enabled=0x10",
                                 "host1/pfc.willing=true" };
    struct faults_run *r = run(INCAST, host_takes, 3);
    const struct dcb_event *h = dcbx_event(&r->seen, "host1");
    assert_non_null(h);
    assert_non_null(strstr(h->details, "\"pfc_enable\":16,\"willing\":false"));
    assert_non_null(strstr(h->details, "\"pfc_enable_oper\":16,\"mismatch\":[]"));
    run_free(r);

    const char *keeps[] = { "dcbx.mode=ieee", "switch1:Ethernet0/pfc.enabled=0x10" };
    r = run(INCAST, keeps, 2);
    h = dcbx_event(&r->seen, "host1");
    assert_non_null(strstr(h->details, "\"taken\":[],\"pfc_enable_oper\":8,"
                                       "\"mismatch\":[\"pfc\"]"));
    run_free(r);

    const char *both[] = { "dcbx.mode=ieee", "pfc.willing=true",
                           "switch1:Ethernet0/pfc.enabled=0x10" };
    r = run(INCAST, both, 3);
    assert_int_equal(r->seen.ndcbx, 1); /* host1 kept its own, and the ends agree */
    assert_null(dcbx_event(&r->seen, "host1"));
    const struct dcb_event *sw = dcbx_event(&r->seen, "switch1"); /* Ethernet0's, first */
    assert_non_null(sw);
    assert_string_equal(sw->ifname, "Ethernet0");
    assert_non_null(strstr(sw->details, "\"taken\":[\"pfc\",\"app\"],\"pfc_enable_oper\":8"));
    run_free(r);
}

/* ETS: a willing switch port takes its host's ETS (a NIC's own ETS schedules nothing in the
 * engine: a host picks among its paced flows). host9 advertises priority 3 in TC 0, so the
 * switch's port to it queues RoCE in TC 0, where no WRED runs: every byte to host9 leaves by
 * TC 0 and nothing is marked. Not willing, it keeps its own map and marks as the healthy run. */
static void dcbx_ets_willing_switch(void **state)
{
    (void)state;
    const char *keep[] = { "dcbx.mode=ieee", "host9/prio2tc.3=0" };
    const char *take[] = { "dcbx.mode=ieee", "host9/prio2tc.3=0",
                           "switch1:Ethernet8/ets.willing=true" };
    struct faults_run *base = run(INCAST, keep, 2);
    struct faults_run *r = run(INCAST, take, 3);
    assert_true(counter(&base->seen, NULL, NULL, METRIC_QUEUE_ECN_MARKED, -1) > 0);
    assert_int_equal(counter(&r->seen, NULL, NULL, METRIC_QUEUE_ECN_MARKED, -1), 0);
    assert_int_equal(counter(&r->seen, "switch1", "Ethernet8", METRIC_QUEUE_TX_BYTES, 3), 0);
    assert_true(counter(&r->seen, "switch1", "Ethernet8", METRIC_QUEUE_TX_BYTES, 0) >=
                8 * (256u << 10));
    const struct dcb_event *sw = dcbx_event(&r->seen, "switch1");
    assert_non_null(sw);
    assert_non_null(strstr(sw->details, "\"taken\":[\"ets\"]"));
    run_free(base);
    run_free(r);
}

/* ---- ranges ------------------------------------------------------------------------------- */

/* Each key at its bounds loads; one step past is refused in one line naming the key and range,
 * from --set and from a config fault alike (the loader's message; the command prints the path
 * once, as for every config path). */
static void fault_keys_in_range(void **state)
{
    (void)state;
    static const struct {
        const char *set, *msg;
    } cases[] = {
        { "link.fcs_error_ppm=0", NULL },
        { "link.fcs_error_ppm=1000000", NULL },
        { "link.fcs_error_ppm=1000001", "t: --set link.fcs_error_ppm: link.fcs_error_ppm: "
                                        "1000001 is out of range (0 to 1000000)" },
        { "link.fcs_error_ppm=-1", "t: --set link.fcs_error_ppm: link.fcs_error_ppm: -1 is out "
                                   "of range (0 to 1000000)" },
        { "switch.dscp_rewrite=63", NULL },
        { "switch.dscp_rewrite=64", "t: --set switch.dscp_rewrite: switch.dscp_rewrite: 64 is out "
                                    "of range (0 to 63)" },
        { "switch1/ecn.clear_ce=true", NULL },
        { "nic.ecn_capable=maybe", "t: --set nic.ecn_capable: nic.ecn_capable: 'maybe' is not "
                                   "true or false" },
        { "ets.willing=2", "t: --set ets.willing: ets.willing: '2' is not true or false" },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct scenario sc;
        struct dcb_err err;
        const char *sets[] = { cases[i].set };
        int rc = scenario_load_text(&sc, ONE_FLOW, strlen(ONE_FLOW), "t", NULL, sets, 1, &err);
        if (!cases[i].msg) {
            if (rc < 0)
                fail_msg("%s: %s", cases[i].set, err.msg);
            scenario_free(&sc);
        } else {
            assert_int_not_equal(rc, 0);
            assert_string_equal(err.msg, cases[i].msg);
        }
    }
    static const char fault[] = STAR(2) "\"duration_ms\":1,\"workload\":{\"type\":\"incast\"},"
                                        "\"faults\":[{\"type\":\"config\",\"device\":\"host2\","
                                        "\"set\":{\"link.fcs_error_ppm\":2000000}}]}";
    struct scenario sc;
    struct dcb_err err;
    int rc = scenario_load_text(&sc, fault, strlen(fault), "t", NULL, NULL, 0, &err);
    assert_int_not_equal(rc, 0);
    assert_string_equal(err.msg, "t: faults[0].set.link.fcs_error_ppm: link.fcs_error_ppm: "
                                 "2000000 is out of range (0 to 1000000)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fcs_errors_at_a_rate),
        cmocka_unit_test(fcs_errors_on_the_ack_path),
        cmocka_unit_test(switch_clears_ce),
        cmocka_unit_test(switch_rewrites_dscp),
        cmocka_unit_test(wred_not_ect_hand),
        cmocka_unit_test(senders_not_ect),
        cmocka_unit_test(dcbx_takes_hand),
        cmocka_unit_test(dcbx_willing_host_takes_wrong_config),
        cmocka_unit_test(dcbx_pfc_willing),
        cmocka_unit_test(dcbx_ets_willing_switch),
        cmocka_unit_test(fault_keys_in_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
