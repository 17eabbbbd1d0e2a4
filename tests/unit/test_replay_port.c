/* The replay engine's port and switch knobs in small whole runs: each run once with the knob as
 * a healthy fabric has it and once changed, and the counters it should move read from the
 * canonical samples. MTU per port (the frame and IP sizes at the boundary), PFC sent and obeyed
 * by each end's own pfc.enabled, 802.3x global pause (pause.global_tx/global_rx), WRED in drop
 * mode (switch.wred.N.ecn false) and the switch's headroom pool (switch.buffer.headroom_pool). */
#include "unit.h"

#include "counter_seen.h"

#include <stdio.h>
#include <stdlib.h>

#include "fabric.h"
#include "headroom.h"
#include "replay.h"

#define DSCP2PRIO                                                                 \
    "\"dscp2prio\":[0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,2,2,2,2,2,2,2,2,3,3,3,3,3,3," \
    "3,3,4,4,4,4,4,4,4,4,5,5,5,5,5,5,5,5,6,6,6,6,6,6,6,6,7,7,7,7,7,7,7,7]"

/* The last value of every counter series of a run, and the run's drop causes. */
#define SEEN_MAX 4096

struct run_seen {
    struct counter_seen c[SEEN_MAX];
    int n;
    int pool_drop_events;
    int host_xoff_events, host_xon_events, host_global_events; /* from host2 */
};

static void keep_sample(void *arg, const struct dcb_sample *s)
{
    struct run_seen *r = arg;
    counter_seen_keep(r->c, &r->n, SEEN_MAX, s);
}

static void keep_event(void *arg, const struct dcb_event *e)
{
    struct run_seen *r = arg;
    if (e->kind == EVENT_DROP && strstr(e->details, "\"cause\":\"headroom_pool\""))
        r->pool_drop_events++;
    if (strcmp(e->device, "host2"))
        return;
    r->host_xoff_events += e->kind == EVENT_PFC_XOFF;
    r->host_xon_events += e->kind == EVENT_PFC_XON;
    r->host_global_events += e->kind == EVENT_PAUSE_GLOBAL;
}

/* A counter's last value; 0 when it never showed (the engine samples some only once non-zero). */
static uint64_t last(const struct run_seen *r, const char *device, const char *ifname,
                     enum metric_id m, int prio, int queue)
{
    for (int i = 0; i < r->n; i++) {
        const struct counter_seen *c = &r->c[i];
        if (c->metric == (int)m && c->prio == prio && c->queue == queue &&
            !strcmp(c->device, device) && !strcmp(c->ifname, ifname))
            return c->value;
    }
    return 0;
}

/* The sum of a counter over every port (and every priority or queue). */
static uint64_t total(const struct run_seen *r, enum metric_id m)
{
    uint64_t sum = 0;
    for (int i = 0; i < r->n; i++)
        if (r->c[i].metric == (int)m)
            sum += r->c[i].value;
    return sum;
}

struct run {
    char fabric[4096];
    struct replay_flow flows[16];
    size_t nflows;
    struct replay_options o;
    struct replay_fault fault;
    struct replay_summary sum;
    struct run_seen seen;
};

/* A star of hosts at 40G over 2 m, RoCE (DSCP 26) on priority 3 with PFC at both ends unless
 * `extra` (more top-level keys of the fabric: devices, switch_defaults...) says otherwise. */
static void fabric_text(struct run *r, int hosts, const char *host_defaults, const char *extra)
{
    snprintf(r->fabric, sizeof(r->fabric),
             "{\"generate\":{\"type\":\"star\",\"hosts\":%d,\"speed\":\"40G\",\"cable_m\":2},"
             "\"defaults\":{\"trust\":\"dscp\"," DSCP2PRIO ",\"pfc\":{\"enabled\":8}},"
             "\"host_defaults\":{%s}%s%s}",
             hosts, host_defaults, *extra ? "," : "", extra);
}

static struct run *run_new(int64_t duration_ns)
{
    struct run *r = calloc(1, sizeof(*r));
    assert_non_null(r);
    replay_options_init(&r->o);
    r->o.duration_ns = duration_ns;
    r->o.sample_interval_ns = duration_ns; /* samples at 0 and at the end */
    r->o.pfc_response_ns = 500;
    r->o.dcqcn_off = true;
    return r;
}

static void flow(struct run *r, const char *src, const char *dst, uint64_t bytes, uint8_t dscp)
{
    r->flows[r->nflows] =
        (struct replay_flow){ src, dst, bytes, 0, dscp, (uint16_t)(1000 + r->nflows), 1000 };
    r->nflows++;
}

static void storm(struct run *r, const char *host, int prio)
{
    r->fault =
        (struct replay_fault){ .kind = REPLAY_FAULT_PAUSE_STORM, .device = host, .prio = prio };
    r->o.faults = &r->fault;
    r->o.nfaults = 1;
}

static void run(struct run *r)
{
    struct fabric f;
    struct dcb_err err;
    fabric_init(&f);
    if (fabric_load_text(&f, r->fabric, strlen(r->fabric), "test", &err) < 0) {
        print_error("%s\n", err.msg);
        fail();
    }
    struct replay_hooks h = { keep_sample, keep_event, NULL, &r->seen };
    assert_int_equal(replay_run(&f, r->flows, r->nflows, &r->o, &h, &r->sum, &err), 0);
    fabric_free(&f);
}

static void run_free(struct run *r)
{
    replay_summary_free(&r->sum);
    free(r);
}

/* ---- MTU ------------------------------------------------------------------------------------ */

/* 100 packets of 1000 bytes: 1062-byte frames, 1044-byte IP packets. A host's MTU counts the IP
 * packet, a switch's the frame: at 1044 and 1062 everything passes; a byte less drops every data
 * frame where it arrives (drop.rx_oversize) or, at the sending NIC, before it is sent
 * (drop.tx_oversize); a switch port's MTU bounds what it receives and what it forwards. */
static struct run *mtu_run(const char *host_mtu, const char *devices)
{
    struct run *r = run_new(3000000);
    char hd[64];
    snprintf(hd, sizeof(hd), "\"mtu\":%s", host_mtu);
    char extra[512];
    snprintf(extra, sizeof(extra), "\"switch_defaults\":{\"mtu\":1062}%s%s",
             *devices ? ",\"devices\":" : "", devices);
    fabric_text(r, 2, hd, extra);
    flow(r, "host1", "host2", 100000, 26);
    run(r);
    return r;
}

static void mtu_per_port(void **state)
{
    (void)state;
    struct run *r = mtu_run("1044", ""); /* at the boundary: all of it */
    assert_int_equal(r->sum.flows[0].bytes_acked, 100000);
    assert_int_equal(total(&r->seen, METRIC_DROP_RX_OVERSIZE), 0);
    assert_int_equal(total(&r->seen, METRIC_DROP_TX_OVERSIZE), 0);
    assert_int_equal(r->sum.drops, 0);
    run_free(r);

    /* the receiver's MTU a byte short: each frame the switch sends it is a giant there */
    r = mtu_run("1044", "[{\"name\":\"host2\",\"config\":{\"mtu\":1043}}]");
    uint64_t giants = last(&r->seen, "host2", "eth0", METRIC_DROP_RX_OVERSIZE, -1, -1);
    printf("host2 MTU 1043: %llu giants of %llu frames sent to it, %llu bytes acked\n",
           (unsigned long long)giants,
           (unsigned long long)last(&r->seen, "switch1", "Ethernet1", METRIC_PORT_TX_PACKETS, -1,
                                    -1),
           (unsigned long long)r->sum.flows[0].bytes_acked);
    assert_true(giants >= 100);
    assert_int_equal(giants,
                     last(&r->seen, "switch1", "Ethernet1", METRIC_PORT_TX_PACKETS, -1, -1));
    assert_int_equal(r->sum.flows[0].bytes_acked, 0);
    assert_int_equal(r->sum.drops, giants);
    run_free(r);

    /* the sender's: its NIC sends nothing, each frame counted as it is refused */
    r = mtu_run("1044", "[{\"name\":\"host1\",\"config\":{\"mtu\":1043}}]");
    uint64_t refused = last(&r->seen, "host1", "eth0", METRIC_DROP_TX_OVERSIZE, -1, -1);
    assert_int_equal(refused, r->sum.flows[0].packets_sent);
    assert_true(refused >= 100);
    assert_int_equal(last(&r->seen, "host1", "eth0", METRIC_PORT_TX_PACKETS, -1, -1), 0);
    run_free(r);

    /* the switch's ingress port a byte short: giants there, not counted as received */
    r = mtu_run("1044", "[{\"name\":\"switch1\",\"interfaces\":{\"Ethernet0\":{\"mtu\":1061}}}]");
    giants = last(&r->seen, "switch1", "Ethernet0", METRIC_DROP_RX_OVERSIZE, -1, -1);
    assert_int_equal(giants, last(&r->seen, "host1", "eth0", METRIC_PORT_TX_PACKETS, -1, -1));
    assert_true(giants >= 100);
    assert_int_equal(last(&r->seen, "switch1", "Ethernet0", METRIC_PORT_RX_PACKETS, -1, -1), 0);
    assert_int_equal(r->sum.flows[0].bytes_acked, 0);
    run_free(r);

    /* its egress port: received, not forwarded */
    r = mtu_run("1044", "[{\"name\":\"switch1\",\"interfaces\":{\"Ethernet1\":{\"mtu\":1061}}}]");
    uint64_t held = last(&r->seen, "switch1", "Ethernet1", METRIC_DROP_TX_OVERSIZE, -1, -1);
    assert_int_equal(held, last(&r->seen, "switch1", "Ethernet0", METRIC_PORT_RX_PACKETS, -1, -1));
    assert_true(held >= 100);
    assert_int_equal(last(&r->seen, "switch1", "Ethernet1", METRIC_PORT_TX_PACKETS, -1, -1), 0);
    run_free(r);
}

/* ---- PFC at each end ----------------------------------------------------------------------- */

/* host2 storms XOFF on priority 3 from t = 0 for 1 ms (a frame every 419.4 us at 40G: 3) while
 * host1 sends it 100 KB on priority 3. Obeyed, the switch's port to host2 is paused from the
 * XOFF's arrival (84 bytes on the wire, 16.8 ns, and 10 ns of cable) plus the 500 ns response:
 * 1 ms - 526.8 ns, 999 whole us, and nothing arrives. */
static struct run *storm_run(const char *devices)
{
    struct run *r = run_new(1000000);
    char extra[512];
    snprintf(extra, sizeof(extra), "\"devices\":%s", devices);
    fabric_text(r, 2, "\"mtu\":9000", extra);
    flow(r, "host1", "host2", 100000, 26);
    storm(r, "host2", 3);
    run(r);
    return r;
}

static void pfc_by_each_ends_config(void **state)
{
    (void)state;
    static const struct {
        const char *devices;
        uint64_t sent, received, paused_us, acked;
    } cases[3] = {
        { "[]", 3, 3, 999, 0 },
        /* the switch port without priority 3 in its pfc.enabled counts the frames, no more */
        { "[{\"name\":\"switch1\",\"interfaces\":{\"Ethernet1\":{\"pfc\":{\"enabled\":0}}}}]", 3, 3,
          0, 100000 },
        /* a NIC without it sends none */
        { "[{\"name\":\"host2\",\"config\":{\"pfc\":{\"enabled\":0}}}]", 0, 0, 0, 100000 },
    };
    for (int k = 0; k < 3; k++) {
        struct run *r = storm_run(cases[k].devices);
        assert_int_equal(last(&r->seen, "host2", "eth0", METRIC_PFC_TX_PAUSE, 3, -1),
                         cases[k].sent);
        assert_int_equal(last(&r->seen, "switch1", "Ethernet1", METRIC_PFC_RX_PAUSE, 3, -1),
                         cases[k].received);
        assert_int_equal(last(&r->seen, "switch1", "Ethernet1", METRIC_PFC_RX_PAUSE_US, 3, -1),
                         cases[k].paused_us);
        assert_int_equal(r->sum.flows[0].bytes_acked, cases[k].acked);
        run_free(r);
    }
}

/* What host2 says it does matches what it sends: a pause storm or a slow receive side on a
 * priority outside its pfc.enabled sends no PFC frame and no pfc_xoff/pfc_xon event; with
 * pause.global_tx alone the pause is 802.3x (pause_global events), not a pfc_xoff. The slow
 * receiver drains 1 Gb/s against 100 KB at 40G: above 10 KB of backlog it pauses, and the
 * XON comes at 5 KB. */
static void pause_events_by_pfc_enabled(void **state)
{
    (void)state;
    static const struct {
        const char *devices;
        bool slow;
        int xoff_events, global_events;
        bool frames;
    } cases[] = {
        { "[]", false, 1, 0, true },
        { "[{\"name\":\"host2\",\"config\":{\"pfc\":{\"enabled\":0}}}]", false, 0, 0, false },
        { "[{\"name\":\"host2\",\"config\":{\"pfc\":{\"enabled\":0},"
          "\"pause\":{\"global_tx\":true}}}]",
          false, 0, 1, false },
        { "[]", true, 1, 0, true },
        { "[{\"name\":\"host2\",\"config\":{\"pfc\":{\"enabled\":0}}}]", true, 0, 0, false },
        { "[{\"name\":\"host2\",\"config\":{\"pfc\":{\"enabled\":0},"
          "\"pause\":{\"global_tx\":true}}}]",
          true, 0, 1, false },
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        struct run *r = run_new(1000000);
        char extra[512];
        snprintf(extra, sizeof(extra), "\"devices\":%s", cases[k].devices);
        fabric_text(r, 2, "\"mtu\":9000", extra);
        flow(r, "host1", "host2", 100000, 26);
        if (cases[k].slow) {
            r->fault = (struct replay_fault){ .kind = REPLAY_FAULT_SLOW_RECEIVER,
                                              .device = "host2",
                                              .drain_bps = 1e9,
                                              .rx_xoff_bytes = 10000 };
            r->o.faults = &r->fault;
            r->o.nfaults = 1;
        } else {
            storm(r, "host2", 3);
        }
        run(r);
        uint64_t frames = last(&r->seen, "host2", "eth0", METRIC_PFC_TX_PAUSE, 3, -1);
        printf("pause events case %zu: %d pfc_xoff, %d pfc_xon, %d pause_global, %llu PFC "
               "frames\n",
               k, r->seen.host_xoff_events, r->seen.host_xon_events, r->seen.host_global_events,
               (unsigned long long)frames);
        if (cases[k].slow && cases[k].xoff_events) /* one XOFF per backlog over 10 KB */
            assert_true(r->seen.host_xoff_events >= 1 &&
                        r->seen.host_xoff_events == r->seen.host_xon_events);
        else
            assert_int_equal(r->seen.host_xoff_events, cases[k].xoff_events);
        assert_int_equal(frames > 0, cases[k].frames);
        assert_int_equal(r->seen.host_global_events > 0, cases[k].global_events > 0);
        if (!cases[k].frames)
            assert_int_equal(r->seen.host_xon_events, 0);
        run_free(r);
    }
}

/* 4 senders at line rate into one 40G port, DCQCN off: the switch pauses the senders (XOFF 20 KB,
 * headroom 200 KB). NICs that obey hold it lossless; NICs without priority 3 in their
 * pfc.enabled count the frames, keep sending and their packets overflow the headroom. */
static struct run *incast_run(const char *host_defaults, const char *switch_defaults, uint8_t dscp)
{
    struct run *r = run_new(2000000);
    char extra[1024];
    snprintf(extra, sizeof(extra),
             "\"switch_defaults\":{\"switch\":{\"buffer\":{"
             "\"0\":{\"xoff\":\"20KB\",\"xon\":\"10KB\",\"headroom\":\"200KB\",\"size\":\"60KB\"},"
             "\"3\":{\"xoff\":\"20KB\",\"xon\":\"10KB\",\"headroom\":\"200KB\"}}}%s%s}",
             *switch_defaults ? "," : "", switch_defaults);
    fabric_text(r, 5, host_defaults, extra);
    static const char *const senders[4] = { "host1", "host2", "host3", "host4" };
    for (int i = 0; i < 4; i++)
        flow(r, senders[i], "host5", 0, dscp);
    run(r);
    return r;
}

static void nic_obeys_by_its_pfc_enabled(void **state)
{
    (void)state;
    struct run *r = incast_run("\"mtu\":9000", "", 26);
    uint64_t paused_us = last(&r->seen, "host1", "eth0", METRIC_PFC_RX_PAUSE_US, 3, -1);
    printf("NICs with PFC on 3: %llu PFC frames from the switch, host1 paused %llu us, "
           "%llu PG drops\n",
           (unsigned long long)total(&r->seen, METRIC_PFC_TX_PAUSE), (unsigned long long)paused_us,
           (unsigned long long)total(&r->seen, METRIC_PG_DROPS));
    assert_true(total(&r->seen, METRIC_PFC_TX_PAUSE) > 0);
    assert_true(paused_us > 0);
    assert_int_equal(total(&r->seen, METRIC_PG_DROPS), 0);
    run_free(r);

    r = incast_run("\"mtu\":9000,\"pfc\":{\"enabled\":0}", "", 26);
    uint64_t got = last(&r->seen, "host1", "eth0", METRIC_PFC_RX_PAUSE, 3, -1);
    printf("NICs without: host1 got %llu PFC frames, paused %llu us, %llu PG drops\n",
           (unsigned long long)got,
           (unsigned long long)last(&r->seen, "host1", "eth0", METRIC_PFC_RX_PAUSE_US, 3, -1),
           (unsigned long long)total(&r->seen, METRIC_PG_DROPS));
    assert_true(got > 0);
    assert_int_equal(last(&r->seen, "host1", "eth0", METRIC_PFC_RX_PAUSE_US, 3, -1), 0);
    assert_true(total(&r->seen, METRIC_PG_DROPS) > 0);
    run_free(r);
}

/* ---- 802.3x global pause ------------------------------------------------------------------- */

/* host2's storm with pause.global_tx: one 802.3x PAUSE for each PFC request (3 in 1 ms), PFC
 * only where priority 3 is in its pfc.enabled. A switch port with pause.global_rx stops every
 * priority (priority 0 too); without it, it counts the frames and sends on. Global pause is not
 * PFC time: pfc.rx_pause_us stays 0. */
static void global_pause_received(void **state)
{
    (void)state;
    static const char *const cases[3] = {
        "[{\"name\":\"host2\",\"config\":{\"pfc\":{\"enabled\":0},\"pause\":{\"global_tx\":true}}}"
        "]",
        "[{\"name\":\"host2\",\"config\":{\"pfc\":{\"enabled\":0},\"pause\":{\"global_tx\":true}}},"
        "{\"name\":\"switch1\",\"config\":{\"pause\":{\"global_rx\":true}}}]",
        "[{\"name\":\"host2\",\"config\":{\"pause\":{\"global_tx\":true}}},"
        "{\"name\":\"switch1\",\"config\":{\"pause\":{\"global_rx\":true}}}]",
    };
    for (int k = 0; k < 3; k++) {
        struct run *r = run_new(1000000);
        char extra[512];
        snprintf(extra, sizeof(extra), "\"devices\":%s", cases[k]);
        fabric_text(r, 2, "\"mtu\":9000", extra);
        flow(r, "host1", "host2", 100000, 26);
        flow(r, "host1", "host2", 100000, 0); /* priority 0: no PFC there */
        storm(r, "host2", 3);
        run(r);
        bool obeyed = k > 0;
        printf("global pause case %d: host2 sent %llu 802.3x, %llu PFC; acked %llu + %llu\n", k,
               (unsigned long long)last(&r->seen, "host2", "eth0", METRIC_PAUSE_TX_GLOBAL, -1, -1),
               (unsigned long long)last(&r->seen, "host2", "eth0", METRIC_PFC_TX_PAUSE, 3, -1),
               (unsigned long long)r->sum.flows[0].bytes_acked,
               (unsigned long long)r->sum.flows[1].bytes_acked);
        assert_int_equal(last(&r->seen, "host2", "eth0", METRIC_PAUSE_TX_GLOBAL, -1, -1), 3);
        assert_int_equal(last(&r->seen, "switch1", "Ethernet1", METRIC_PAUSE_RX_GLOBAL, -1, -1), 3);
        assert_int_equal(last(&r->seen, "host2", "eth0", METRIC_PFC_TX_PAUSE, 3, -1),
                         k == 2 ? 3 : 0);
        assert_int_equal(last(&r->seen, "switch1", "Ethernet1", METRIC_PFC_RX_PAUSE_US, 3, -1),
                         k == 2 ? 999 : 0);
        assert_int_equal(r->sum.flows[0].bytes_acked, obeyed ? 0 : 100000);
        assert_int_equal(r->sum.flows[1].bytes_acked, obeyed ? 0 : 100000);
        run_free(r);
    }
}

/* The switch sending 802.3x: the incast above with NICs that do not obey PFC but honour 802.3x.
 * With pause.global_tx on the switch each PFC frame goes with an 802.3x PAUSE, and the NICs'
 * stop keeps the class lossless; without it they overflow the headroom. On a priority without
 * PFC (0, lossy: it drops above its 60 KB) 802.3x alone makes the switch pause and not drop. */
static void global_pause_sent(void **state)
{
    (void)state;
    const char *nics = "\"mtu\":9000,\"pfc\":{\"enabled\":0},\"pause\":{\"global_rx\":true}";
    struct run *r = incast_run(nics, "\"pause\":{\"global_tx\":true}", 26);
    uint64_t pfc = last(&r->seen, "switch1", "Ethernet0", METRIC_PFC_TX_PAUSE, 3, -1);
    uint64_t global = last(&r->seen, "switch1", "Ethernet0", METRIC_PAUSE_TX_GLOBAL, -1, -1);
    printf("switch with global_tx: Ethernet0 sent %llu PFC and %llu 802.3x; %llu PG drops\n",
           (unsigned long long)pfc, (unsigned long long)global,
           (unsigned long long)total(&r->seen, METRIC_PG_DROPS));
    assert_true(pfc > 0);
    assert_int_equal(global, pfc);
    assert_int_equal(total(&r->seen, METRIC_PG_DROPS), 0);
    assert_int_equal(total(&r->seen, METRIC_PFC_RX_PAUSE_US), 0);
    run_free(r);

    r = incast_run(nics, "", 26);
    assert_int_equal(total(&r->seen, METRIC_PAUSE_TX_GLOBAL), 0);
    assert_true(total(&r->seen, METRIC_PG_DROPS) > 0);
    run_free(r);

    r = incast_run(nics, "\"pfc\":{\"enabled\":0},\"pause\":{\"global_tx\":true}", 0);
    assert_true(total(&r->seen, METRIC_PAUSE_TX_GLOBAL) > 0);
    assert_int_equal(total(&r->seen, METRIC_PFC_TX_PAUSE), 0);
    assert_int_equal(r->sum.drops, 0);
    run_free(r);

    r = incast_run(nics, "\"pfc\":{\"enabled\":0}", 0);
    assert_int_equal(total(&r->seen, METRIC_PAUSE_TX_GLOBAL), 0);
    assert_true(total(&r->seen, METRIC_QUEUE_DROPS) > 0);
    run_free(r);
}

/* ---- WRED drop mode ------------------------------------------------------------------------ */

/* 4 long flows into one 40G port with DCQCN and the paper's RED (5 KB, 200 KB, 1 %) below a 2 MB
 * XOFF: marking, the queue is held by marks; with ecn false the same line drops (queue.wred_drops,
 * also in queue.drops) and nothing is marked. */
static struct run *wred_run(const char *ecn)
{
    struct run *r = run_new(5000000);
    r->o.dcqcn_off = false;
    char extra[512];
    snprintf(extra, sizeof(extra),
             "\"switch_defaults\":{\"switch\":{\"wred\":{\"3\":{\"min_bytes\":\"5KB\","
             "\"max_bytes\":\"200KB\",\"max_p\":1,\"ecn\":%s}},"
             "\"buffer\":{\"3\":{\"xoff\":\"2MB\",\"xon\":\"1MB\",\"headroom\":\"1MB\"}}}}",
             ecn);
    fabric_text(r, 5, "\"mtu\":9000", extra);
    static const char *const senders[4] = { "host1", "host2", "host3", "host4" };
    for (int i = 0; i < 4; i++)
        flow(r, senders[i], "host5", 0, 26);
    run(r);
    return r;
}

static void wred_drop_mode(void **state)
{
    (void)state;
    struct run *r = wred_run("true");
    uint64_t marked = last(&r->seen, "switch1", "Ethernet4", METRIC_QUEUE_ECN_MARKED, -1, 3);
    assert_true(marked > 0);
    assert_int_equal(total(&r->seen, METRIC_QUEUE_WRED_DROPS), 0);
    assert_int_equal(r->sum.drops, 0);
    run_free(r);

    r = wred_run("false");
    uint64_t dropped = last(&r->seen, "switch1", "Ethernet4", METRIC_QUEUE_WRED_DROPS, -1, 3);
    printf("WRED: %llu marks when marking; %llu drops in drop mode (queue drops %llu)\n",
           (unsigned long long)marked, (unsigned long long)dropped,
           (unsigned long long)last(&r->seen, "switch1", "Ethernet4", METRIC_QUEUE_DROPS, -1, 3));
    assert_true(dropped > 0);
    assert_int_equal(dropped, last(&r->seen, "switch1", "Ethernet4", METRIC_QUEUE_DROPS, -1, 3));
    assert_int_equal(dropped, r->sum.drops);
    assert_int_equal(total(&r->seen, METRIC_QUEUE_ECN_MARKED), 0);
    run_free(r);
}

/* ---- the headroom pool --------------------------------------------------------------------- */

/* The 16:1 incast at 100G over 100 m of test_replay, each PG with the headroom
 * headroom_required() asks for: lossless. A shared headroom pool of all 16 PGs' headroom changes
 * nothing, nor does 0 (no pool); a pool of half of that drops (pg.drops, cause headroom_pool). */
static struct run *pool_run(const char *pool)
{
    struct headroom_input in = {
        100000000000ULL,      100000, CABLE_FIBER, 1062, HEADROOM_DEFAULT_RESPONSE_NS,
        HEADROOM_FORMULA_FULL
    };
    struct headroom h;
    assert_int_equal(headroom_required(&in, &h, NULL), 0);
    struct run *r = run_new(3000000);
    r->o.pfc_response_ns = -1;
    snprintf(r->fabric, sizeof(r->fabric),
             "{\"generate\":{\"type\":\"star\",\"hosts\":17,\"speed\":\"100G\",\"cable_m\":100},"
             "\"defaults\":{\"trust\":\"dscp\"," DSCP2PRIO ",\"pfc\":{\"enabled\":8}},"
             "\"switch_defaults\":{\"switch\":{\"buffer\":{\"headroom_pool\":%s,"
             "\"3\":{\"xoff\":\"40KB\",\"xon\":\"20KB\",\"headroom\":%llu}}}}}",
             pool, (unsigned long long)h.total);
    static char names[16][16];
    for (int i = 0; i < 16; i++) {
        snprintf(names[i], sizeof(names[i]), "host%d", i + 1);
        flow(r, names[i], "host17", 0, 26);
    }
    run(r);
    printf("headroom pool %s (16 PGs of %llu B): %llu PG drops, %d pool drop events\n", pool,
           (unsigned long long)h.total, (unsigned long long)total(&r->seen, METRIC_PG_DROPS),
           r->seen.pool_drop_events);
    return r;
}

static void headroom_pool_limits(void **state)
{
    (void)state;
    struct headroom_input in = {
        100000000000ULL,      100000, CABLE_FIBER, 1062, HEADROOM_DEFAULT_RESPONSE_NS,
        HEADROOM_FORMULA_FULL
    };
    struct headroom h;
    assert_int_equal(headroom_required(&in, &h, NULL), 0);
    char pool[32];
    const char *pools[2] = { "0", pool };
    snprintf(pool, sizeof(pool), "%llu", (unsigned long long)h.total * 16);
    for (int k = 0; k < 2; k++) {
        struct run *r = pool_run(pools[k]);
        assert_true(r->sum.pfc_frames > 0);
        assert_int_equal(r->sum.drops, 0);
        run_free(r);
    }
    snprintf(pool, sizeof(pool), "%llu", (unsigned long long)h.total * 8);
    struct run *r = pool_run(pool);
    assert_true(total(&r->seen, METRIC_PG_DROPS) > 0);
    assert_int_equal(total(&r->seen, METRIC_PG_DROPS), r->sum.drops);
    assert_true(r->seen.pool_drop_events > 0);
    run_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mtu_per_port),
        cmocka_unit_test(pfc_by_each_ends_config),
        cmocka_unit_test(nic_obeys_by_its_pfc_enabled),
        cmocka_unit_test(pause_events_by_pfc_enabled),
        cmocka_unit_test(global_pause_received),
        cmocka_unit_test(global_pause_sent),
        cmocka_unit_test(wred_drop_mode),
        cmocka_unit_test(headroom_pool_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
