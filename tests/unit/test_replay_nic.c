/* The replay engine's NIC against cases worked out by hand: the DCQCN knobs the host config
 * carries (rpg_max_rate, rpg_gd, clamp_tgt_rate) reach the reaction point and move its rate;
 * the notification point decides by its own map and answers with its own CNP class; a CNP is
 * handled only where the reaction point runs; go-back-N's losses are counted (roce.*) and
 * reported as events; the NIC's own PFC and trust; the lossy class backs off (AIMD). */
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fabric.h"
#include "replay.h"

#define DSCP2PRIO "\"dscp2prio\":{\"0\":0,\"26\":3,\"40\":5,\"48\":6}"
#define ETS                                                                         \
    "\"ets\":{\"tsa\":[\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"strict\"," \
    "\"ets\"],"                                                                     \
    "\"bw\":[50,0,0,50,0,0,0,0]}"
#define WRED3                                                                     \
    "\"wred\":{\"3\":{\"min_bytes\":\"5KB\",\"max_bytes\":\"200KB\",\"max_p\":1," \
    "\"ecn\":true}}"
#define BUFFER3 "\"buffer\":{\"3\":{\"xoff\":\"2MB\",\"xon\":\"1MB\",\"headroom\":\"1MB\"}}"

/* A star of n hosts at 40G over 2 m (10 ns), RoCE (DSCP 26) lossless on priority 3 with
 * WRED/ECN at the paper's 5 KB / 200 KB / 1 %; host_extra and switch_extra are more keys for
 * host_defaults and switch_defaults (each ending in a comma, or empty), devices the device
 * refinements (a JSON list's items, or empty). */
static void star_with(struct fabric *f, int n, const char *host_extra, const char *switch_extra,
                      const char *devices)
{
    char text[4096];
    snprintf(text, sizeof(text),
             "{\"generate\":{\"type\":\"star\",\"hosts\":%d,\"speed\":\"40G\",\"cable_m\":2},"
             "\"defaults\":{\"trust\":\"dscp\"," DSCP2PRIO ",\"pfc\":{\"enabled\":8}," ETS ","
             "\"cnp\":{\"dscp\":48,\"prio\":6}},"
             "\"host_defaults\":{%s\"mtu\":1100},"
             "\"switch_defaults\":{%s\"switch\":{" WRED3 "," BUFFER3 "}},"
             "\"devices\":[%s]}",
             n, host_extra, switch_extra, devices);
    struct dcb_err err;
    fabric_init(f);
    if (fabric_load_text(f, text, strlen(text), "test", &err) < 0) {
        print_error("%s\n", err.msg);
        fail();
    }
}

static void star(struct fabric *f, int n, const char *host_extra, const char *switch_extra)
{
    star_with(f, n, host_extra, switch_extra, "");
}

static struct replay_flow flow(const char *src, const char *dst, uint64_t bytes, uint8_t dscp,
                               uint16_t sport)
{
    return (struct replay_flow){ src, dst, bytes, 0, dscp, sport, 1000 };
}

/* The last value of each counter a run sampled, by device, interface, metric and priority, and
 * the loss events with the details of the first of each kind. */
#define SEEN_MAX 512
struct seen {
    struct {
        char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX];
        enum metric_id metric;
        int prio;
        uint64_t value;
    } c[SEEN_MAX];
    size_t n;
    int events[EVENT_KIND_COUNT];
    char first[EVENT_KIND_COUNT][DCB_DETAILS_MAX];
};

static void seen_sample(void *arg, const struct dcb_sample *smp)
{
    struct seen *w = arg;
    if (metric_info(smp->metric)->kind != METRIC_COUNTER)
        return;
    size_t i = 0;
    while (i < w->n &&
           !(w->c[i].metric == smp->metric && w->c[i].prio == smp->prio &&
             !strcmp(w->c[i].device, smp->device) && !strcmp(w->c[i].ifname, smp->ifname)))
        i++;
    if (i == w->n) {
        assert_true(w->n < SEEN_MAX);
        w->n++;
        snprintf(w->c[i].device, sizeof(w->c[i].device), "%s", smp->device);
        snprintf(w->c[i].ifname, sizeof(w->c[i].ifname), "%s", smp->ifname);
        w->c[i].metric = smp->metric;
        w->c[i].prio = smp->prio;
    }
    w->c[i].value = smp->value.counter;
}

static void seen_event(void *arg, const struct dcb_event *e)
{
    struct seen *w = arg;
    if (!w->events[e->kind]++)
        snprintf(w->first[e->kind], sizeof(w->first[e->kind]), "%s", e->details);
}

/* A counter's last value on a device's interface (ifname NULL: any), -1: never sampled. */
static int64_t counter(const struct seen *w, const char *device, const char *ifname,
                       enum metric_id m, int prio)
{
    for (size_t i = 0; i < w->n; i++)
        if (w->c[i].metric == m && w->c[i].prio == prio && !strcmp(w->c[i].device, device) &&
            (!ifname || !strcmp(w->c[i].ifname, ifname)))
            return (int64_t)w->c[i].value;
    return -1;
}

/* One run with the samples and events kept in *w (sampled every 100 us and at the end). */
static void run(const struct fabric *f, const struct replay_flow *flows, size_t n,
                struct replay_options *o, struct seen *w, struct replay_summary *sum)
{
    memset(w, 0, sizeof(*w));
    o->sample_interval_ns = 100000;
    struct replay_hooks h = { seen_sample, seen_event, NULL, w };
    struct dcb_err err;
    if (replay_run(f, flows, n, o, &h, sum, &err) < 0) {
        print_error("%s\n", err.msg);
        fail();
    }
}

/* host1 and host2 send to host3 without end for duration_ns (DSCP 26). */
static void incast2(const struct fabric *f, int64_t duration_ns, struct seen *w,
                    struct replay_summary *sum)
{
    struct replay_flow flows[2] = { flow("host1", "host3", 0, 26, 1000),
                                    flow("host2", "host3", 0, 26, 1001) };
    struct replay_options o;
    replay_options_init(&o);
    o.duration_ns = duration_ns;
    run(f, flows, 2, &o, w, sum);
}

/* ---- the DCQCN knobs ------------------------------------------------------------------------- */

/* Flow 0's first Rc under the line rate, from the series. */
struct rates_seen {
    double first_cut;
};

static void rates_series(void *arg, const struct replay_series_point *p)
{
    struct rates_seen *r = arg;
    if (p->index != 0)
        return;
    if (p->kind == SERIES_FLOW_RC && p->value < 40e9 && r->first_cut == 0)
        r->first_cut = p->value;
}

/* Two long flows into host3 (the queue passes Kmax 200 KB within 41 us, so the first CNP comes
 * before alpha's first 55 us period ends: alpha is 1 at the first cut). */
static void incast_rates(const char *host_extra, int64_t duration_ns, struct rates_seen *r,
                         struct replay_summary *sum)
{
    struct fabric f;
    star(&f, 3, host_extra, "");
    struct replay_flow flows[2] = { flow("host1", "host3", 0, 26, 1000),
                                    flow("host2", "host3", 0, 26, 1001) };
    struct replay_options o;
    replay_options_init(&o);
    o.duration_ns = duration_ns;
    o.sample_interval_ns = 0;
    o.series_interval_ns = 1000;
    memset(r, 0, sizeof(*r));
    struct replay_hooks h = { NULL, NULL, rates_series, r };
    struct dcb_err err;
    assert_int_equal(replay_run(&f, flows, 2, &o, &h, sum, &err), 0);
    fabric_free(&f);
}

/* nic.dcqcn.gd: the first cut at alpha 1 is 40G (1 - 1/2) = 20G by default (gd 11), and
 * 40G (1 - 2^(10-12)) = 30G at gd 12. */
static void knob_gd(void **state)
{
    (void)state;
    struct rates_seen r;
    struct replay_summary sum;
    incast_rates("", 200000, &r, &sum);
    printf("first cut: default %.3f Gb/s", r.first_cut / 1e9);
    assert_true(fabs(r.first_cut - 20e9) < 1);
    replay_summary_free(&sum);
    incast_rates("\"nic\":{\"dcqcn\":{\"gd\":12}},", 200000, &r, &sum);
    printf(", gd 12 %.3f Gb/s\n", r.first_cut / 1e9);
    assert_true(fabs(r.first_cut - 30e9) < 1);
    replay_summary_free(&sum);
}

/* nic.dcqcn.clamp_tgt_rate 0: a cut right after a cut keeps the target rate, so fast recovery
 * climbs back towards the rate before both and overshoots: over 20 ms the two flows take more
 * cuts (CNPs) and hold a deeper queue than when every cut clamps the target. */
static void knob_clamp(void **state)
{
    (void)state;
    struct rates_seen r;
    struct replay_summary sum;
    incast_rates("\"nic\":{\"dcqcn\":{\"clamp_tgt_rate\":true}},", 20000000, &r, &sum);
    uint64_t clamped = sum.cnps;
    double clamped_queue = sum.queue_mean_bytes;
    replay_summary_free(&sum);
    incast_rates("\"nic\":{\"dcqcn\":{\"clamp_tgt_rate\":false}},", 20000000, &r, &sum);
    uint64_t kept = sum.cnps;
    double kept_queue = sum.queue_mean_bytes;
    replay_summary_free(&sum);
    incast_rates("", 20000000, &r, &sum);
    uint64_t preset = sum.cnps;
    replay_summary_free(&sum);
    printf("CNPs in 20 ms: clamp 1 %llu (queue %.1f KB), clamp 0 %llu (%.1f KB), unset %llu\n",
           (unsigned long long)clamped, clamped_queue / 1000, (unsigned long long)kept,
           kept_queue / 1000, (unsigned long long)preset);
    assert_true(preset == clamped); /* the presets clamp, as the paper does */
    assert_true((double)kept > 1.15 * (double)clamped);
    assert_true(kept_queue > 1.1 * clamped_queue);
}

/* nic.dcqcn.max_rate_mbps (rpg_max_rate) caps the QP's rate from its start: alone on its path a
 * flow capped at 10G paces 1082-byte frames 865.6 ns apart, 1000 bytes of payload each:
 * 9.2421 Gb/s of goodput; uncapped it runs at 40G x 1000 / 1082 = 36.969 Gb/s. */
static double alone_goodput(const char *host_extra)
{
    struct fabric f;
    star(&f, 2, host_extra, "");
    struct replay_flow fl = flow("host1", "host2", 0, 26, 1000);
    struct replay_options o;
    replay_options_init(&o);
    o.duration_ns = 2000000;
    o.warmup_ns = 100000;
    o.sample_interval_ns = 0;
    struct replay_summary sum;
    struct dcb_err err;
    assert_int_equal(replay_run(&f, &fl, 1, &o, NULL, &sum, &err), 0);
    double bps = sum.flows[0].throughput_bps;
    replay_summary_free(&sum);
    fabric_free(&f);
    return bps;
}

static void knob_max_rate(void **state)
{
    (void)state;
    double line = alone_goodput(""),
           capped = alone_goodput("\"nic\":{\"dcqcn\":{\"max_rate_mbps\":10000}},");
    double zero = alone_goodput("\"nic\":{\"dcqcn\":{\"max_rate_mbps\":0}},");
    printf("alone: %.4f Gb/s, max_rate 10G %.4f Gb/s, max_rate 0 %.4f Gb/s\n", line / 1e9,
           capped / 1e9, zero / 1e9);
    assert_true(fabs(capped - 10e9 * 1000 / 1082) <= 0.01 * 10e9 * 1000 / 1082);
    assert_true(fabs(line - 40e9 * 1000 / 1082) <= 0.01 * 40e9 * 1000 / 1082);
    assert_true(zero == line); /* 0: the line rate */
}

/* ---- the notification point and the reaction point --------------------------------------- */

/* The switch remaps DSCP 26 to priority 0 (it marks there too) and forwards RoCE with PCP 0; the
 * hosts run the NP on priority 3 only, and map 26 to 3 themselves. The receiving NIC decides by
 * its own map of the packet's DSCP: it answers the marks (a CNP at most every 50 us per QP:
 * 2 QPs x 2 ms / 50 us = 80 windows), on its own cnp.dscp (the switch maps 48 to priority 6,
 * 40 to 5). An NP on priority 0 only, the rewritten one, answers nothing. */
static void np_by_own_map(void **state)
{
    (void)state;
    static const struct {
        const char *host;
        int cnp_prio; /* where the CNPs reach the senders; -1: none sent */
    } cases[] = {
        { "\"nic\":{\"dcqcn\":{\"np_enabled\":8}},", 6 },
        { "\"nic\":{\"dcqcn\":{\"np_enabled\":8}},\"cnp\":{\"dscp\":40},", 5 },
        { "\"nic\":{\"dcqcn\":{\"np_enabled\":1}},", -1 },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct fabric f;
        star(&f, 3, cases[i].host,
             "\"dscp2prio\":{\"26\":0},\"wred\":{\"0\":{\"min_bytes\":\"5KB\","
             "\"max_bytes\":\"200KB\",\"max_p\":1,\"ecn\":true}},");
        struct seen w;
        struct replay_summary sum;
        incast2(&f, 2000000, &w, &sum);
        int64_t ce = counter(&w, "host3", NULL, METRIC_ROCE_ECN_MARKED_RX, -1);
        int64_t cnps = counter(&w, "host3", NULL, METRIC_CNP_SENT, -1);
        int64_t on5 = counter(&w, "host1", NULL, METRIC_PRIO_RX_BYTES, 5);
        int64_t on6 = counter(&w, "host1", NULL, METRIC_PRIO_RX_BYTES, 6);
        printf("case %zu: %lld CE received, %lld CNPs sent; at host1 %lld bytes on priority 5, "
               "%lld on 6\n",
               i, (long long)ce, (long long)cnps, (long long)on5, (long long)on6);
        assert_true(ce > 0);
        if (cases[i].cnp_prio < 0) {
            assert_int_equal(cnps, 0);
        } else {
            assert_true(cnps >= 1 && cnps <= ce && cnps <= 82);
            assert_true((cases[i].cnp_prio == 5 ? on5 : on6) > 0);
            assert_true((cases[i].cnp_prio == 5 ? on6 : on5) <= 0);
        }
        replay_summary_free(&sum);
        fabric_free(&f);
    }
}

/* A CNP is handled where the reaction point runs on the QP's priority, and ignored (counted as
 * cnp.ignored, the flow's cnps still counting it) where it does not: every CNP sent comes back
 * (nothing drops CNPs here), so handled + ignored = sent, and a QP whose RP is off keeps the line
 * rate. */
static void cnp_handled_needs_rp(void **state)
{
    (void)state;
    for (int rp = 1; rp >= 0; rp--) {
        struct fabric f;
        star(&f, 3, rp ? "" : "\"nic\":{\"dcqcn\":{\"rp_enabled\":0}},", "");
        struct seen w;
        struct replay_summary sum;
        incast2(&f, 2000000, &w, &sum);
        int64_t sent = counter(&w, "host3", NULL, METRIC_CNP_SENT, -1);
        int64_t handled = 0, ignored = 0;
        for (int h = 0; h < 2; h++) {
            const char *host = h ? "host2" : "host1";
            int64_t hd = counter(&w, host, NULL, METRIC_CNP_HANDLED, -1);
            int64_t ig = counter(&w, host, NULL, METRIC_CNP_IGNORED, -1);
            const struct replay_flow_result *r = &sum.flows[h];
            printf("RP %s, %s: %llu CNPs received, %lld handled, %lld ignored, Rc %.1f Gb/s\n",
                   rp ? "on" : "off", host, (unsigned long long)r->cnps, (long long)hd,
                   (long long)ig, r->final_rc_bps / 1e9);
            assert_true(r->cnps > 0);
            assert_int_equal(rp ? hd : ig, (int64_t)r->cnps);
            assert_int_equal(rp ? ig : hd, 0);
            assert_int_equal(r->cnps_handled, rp ? r->cnps : 0);
            if (!rp)
                assert_true(r->final_rc_bps == 40e9);
            handled += hd;
            ignored += ig;
        }
        assert_int_equal(handled + ignored, sent);
        replay_summary_free(&sum);
        fabric_free(&f);
    }
}

/* ---- go-back-N's losses ------------------------------------------------------------------- */

/* host1 -> host2 through switch1 at 40G, 2 m (10 ns) cables, DCQCN off: 1000-byte payloads are
 * 1082 bytes on the wire, 216.4 ns; packet k leaves host1 over [216.4 k, 216.4 (k+1)) ns and
 * reaches the switch at 216.4 (k+1) + 10 ns. The switch's port to host2 goes down from 1 us to
 * 50 us: packet 3 is on that wire then (875.6 to 1092 ns) and arrives; packets 4 to 230 reach
 * the switch at 1092 to 49,994.0 ns, find no route and are dropped (227). */
static void link_down_run(uint64_t bytes, int64_t rto_ns, struct seen *w,
                          struct replay_summary *sum)
{
    struct fabric f;
    star(&f, 2, "", "");
    struct replay_flow fl = flow("host1", "host2", bytes, 26, 1000);
    struct replay_fault down = { .kind = REPLAY_FAULT_LINK_DOWN,
                                 .device = "switch1",
                                 .ifname = "Ethernet1",
                                 .at_ns = 1000,
                                 .until_ns = 50000 };
    struct replay_options o;
    replay_options_init(&o);
    o.duration_ns = 1000000;
    o.dcqcn_off = true;
    o.retransmit_timeout_ns = rto_ns;
    o.faults = &down;
    o.nfaults = 1;
    run(&f, &fl, 1, &o, w, sum);
    fabric_free(&f);
}

/* The go-back-N counters at the end of a link_down_run, printed. */
struct loss_seen {
    int64_t out_of_sequence, duplicates; /* host2 */
    int64_t naks, timeouts, retransmits; /* host1 */
};

static struct loss_seen loss_counters(const char *name, const struct seen *w,
                                      const struct replay_summary *sum)
{
    struct loss_seen l = {
        counter(w, "host2", NULL, METRIC_ROCE_OUT_OF_SEQUENCE, -1),
        counter(w, "host2", NULL, METRIC_ROCE_DUPLICATE_REQUEST, -1),
        counter(w, "host1", NULL, METRIC_ROCE_PACKET_SEQ_ERR, -1),
        counter(w, "host1", NULL, METRIC_ROCE_LOCAL_ACK_TIMEOUT_ERR, -1),
        counter(w, "host1", NULL, METRIC_ROCE_RETRANSMITS, -1),
    };
    printf("%s: %llu drops; out of sequence %lld, duplicates %lld, NAKs %lld, timeouts %lld, "
           "retransmits %lld; events psn_gap %d nak %d retransmit %d: %s\n",
           name, (unsigned long long)sum->drops, (long long)l.out_of_sequence,
           (long long)l.duplicates, (long long)l.naks, (long long)l.timeouts,
           (long long)l.retransmits, w->events[EVENT_PSN_GAP], w->events[EVENT_NAK],
           w->events[EVENT_RETRANSMIT], w->first[EVENT_RETRANSMIT]);
    return l;
}

/* 400 packets: packet 231 is the first through after the link is back (at the switch 50,214.8,
 * at host2 50,441.2 ns): out of sequence, host2 NAKs PSN 4. The NAK (64 bytes, 16.8 ns a hop)
 * reaches host1 at 50,494.8 ns, while packet 233 is on its wire (50,421.2 to 50,637.6): then
 * host1 goes back to 4. Out of sequence at host2: 231, 232, 233 (3); one NAK each way; packets
 * sent again: PSNs 4 to 233 (230); no timeout. The counters are sampled from the start, zeros
 * included. */
static void loss_nak(void **state)
{
    (void)state;
    struct seen w;
    struct replay_summary sum;
    link_down_run(400000, 1000000, &w, &sum);
    const struct replay_flow_result *r = &sum.flows[0];
    struct loss_seen l = loss_counters("NAK case", &w, &sum);
    assert_int_equal(sum.drops, 227);
    assert_int_equal(l.out_of_sequence, 3);
    assert_int_equal(r->out_of_sequence, 3);
    assert_int_equal(r->naks, 1);
    assert_int_equal(l.naks, 1);
    assert_int_equal(l.retransmits, 230);
    assert_int_equal(r->retransmitted, 230);
    assert_int_equal(r->packets_sent, 630);
    assert_int_equal(l.timeouts, 0);
    assert_int_equal(l.duplicates, 0);
    assert_true(r->finish_ns > 0);
    assert_int_equal(w.events[EVENT_PSN_GAP], 1);
    assert_int_equal(w.events[EVENT_NAK], 1);
    assert_int_equal(w.events[EVENT_RETRANSMIT], 1);
    assert_non_null(strstr(w.first[EVENT_PSN_GAP], "\"expected_psn\":4,\"psn\":231"));
    assert_non_null(
        strstr(w.first[EVENT_RETRANSMIT], "\"from_psn\":4,\"high_psn\":234,\"reason\":\"nak\""));
    replay_summary_free(&sum);
}

/* 20 packets, all sent by 4,328 ns: 0 to 3 arrive, 4 to 19 are dropped (16); nothing is ACKed
 * (an ACK every 16). The retransmit timer, armed as the last packet left (4,111.6 ns), fires
 * 100 us later: host1 goes back to PSN 0 and sends all 20 again; host2 counts 0 to 3 again as
 * duplicates and takes 4 to 19. */
static void loss_timeout(void **state)
{
    (void)state;
    struct seen w;
    struct replay_summary sum;
    link_down_run(20000, 100000, &w, &sum);
    const struct replay_flow_result *r = &sum.flows[0];
    struct loss_seen l = loss_counters("timeout case", &w, &sum);
    assert_int_equal(sum.drops, 16);
    assert_int_equal(l.timeouts, 1);
    assert_int_equal(r->timeouts, 1);
    assert_int_equal(l.retransmits, 20);
    assert_int_equal(l.duplicates, 4);
    assert_int_equal(l.out_of_sequence, 0);
    assert_int_equal(r->naks, 0);
    assert_int_equal(w.events[EVENT_RETRANSMIT], 1);
    assert_non_null(
        strstr(w.first[EVENT_RETRANSMIT], "\"from_psn\":0,\"high_psn\":20,\"reason\":\"timeout\""));
    assert_true(r->finish_ns > 100000);
    replay_summary_free(&sum);
}

/* ---- the NIC's own PFC and trust ---------------------------------------------------------- */

/* switch1 pauses early (XOFF 20 KB, 100 KB headroom) and marks nothing (WRED past 4 MB); host1
 * and host2 send into host3 for 1 ms. host1 runs PFC on no priority: the PAUSE frames reach it
 * and it keeps sending, so its ingress group at the switch overflows the headroom and drops;
 * host2 obeys and loses nothing. */
#define SWITCH_PAUSES_EARLY                                                         \
    "{\"name\":\"switch1\",\"config\":{\"switch\":{\"buffer\":{\"3\":"              \
    "{\"xoff\":\"20KB\",\"xon\":\"10KB\",\"headroom\":\"100KB\"}},\"wred\":{\"3\":" \
    "{\"min_bytes\":\"4MB\",\"max_bytes\":\"5MB\"}}}}}"

static void nic_pfc_obeyed_only_when_on(void **state)
{
    (void)state;
    struct fabric f;
    star_with(&f, 3, "", "",
              SWITCH_PAUSES_EARLY ",{\"name\":\"host1\",\"config\":{\"pfc\":{\"enabled\":0}}}");
    struct seen w;
    struct replay_summary sum;
    incast2(&f, 1000000, &w, &sum);
    int64_t frames1 = counter(&w, "host1", NULL, METRIC_PFC_RX_PAUSE, 3);
    int64_t paused1 = counter(&w, "host1", NULL, METRIC_PFC_RX_PAUSE_US, 3);
    int64_t frames2 = counter(&w, "host2", NULL, METRIC_PFC_RX_PAUSE, 3);
    int64_t paused2 = counter(&w, "host2", NULL, METRIC_PFC_RX_PAUSE_US, 3);
    int64_t drops1 = counter(&w, "switch1", "Ethernet0", METRIC_PG_DROPS, 3);
    int64_t drops2 = counter(&w, "switch1", "Ethernet1", METRIC_PG_DROPS, 3);
    printf("host1 (PFC off): %lld PAUSEs, paused %lld us, %lld dropped at its PG; host2: %lld, "
           "%lld us, %lld\n",
           (long long)frames1, (long long)paused1, (long long)drops1, (long long)frames2,
           (long long)paused2, (long long)drops2);
    assert_true(frames1 > 0 && frames2 > 0);
    assert_int_equal(paused1, 0);
    assert_true(paused2 > 0);
    assert_true(drops1 > 0);
    assert_int_equal(drops2, 0);
    assert_true(counter(&w, "host3", NULL, METRIC_ROCE_OUT_OF_SEQUENCE, -1) > 0);
    replay_summary_free(&sum);
    fabric_free(&f);
}

/* A slow receiver (5G) pauses its switch on priority 3 only when its NIC runs PFC there. */
static void nic_pfc_sent_only_when_on(void **state)
{
    (void)state;
    for (int on = 1; on >= 0; on--) {
        struct fabric f;
        star_with(&f, 2, "", "",
                  on ? ""
                     : "{\"name\":\"host2\",\"config\":{\"pfc\":"
                       "{\"enabled\":0}}}");
        struct replay_flow fl = flow("host1", "host2", 0, 26, 1000);
        struct replay_fault slow = { .kind = REPLAY_FAULT_SLOW_RECEIVER,
                                     .device = "host2",
                                     .drain_bps = 5e9 };
        struct replay_options o;
        replay_options_init(&o);
        o.duration_ns = 1000000;
        o.faults = &slow;
        o.nfaults = 1;
        struct seen w;
        struct replay_summary sum;
        run(&f, &fl, 1, &o, &w, &sum);
        int64_t sent = counter(&w, "host2", NULL, METRIC_PFC_TX_PAUSE, 3);
        printf("slow receiver, PFC %s: %lld PAUSEs sent\n", on ? "on" : "off", (long long)sent);
        if (on)
            assert_true(sent > 0);
        else
            assert_true(sent <= 0);
        replay_summary_free(&sum);
        fabric_free(&f);
    }
}

/* trust pcp at a NIC: routed RoCE is untagged, so a sender puts DSCP 26 on priority 0, not its
 * map's 3; a receiver classifies by the PCP the switch forwarded with, so behind a switch that
 * remaps 26 to 0 its NP on priority 3 answers nothing (np_by_own_map: under trust dscp, it
 * does). */
static void nic_trust(void **state)
{
    (void)state;
    struct fabric f;
    star_with(&f, 3, "", "", "{\"name\":\"host1\",\"config\":{\"trust\":\"pcp\"}}");
    struct replay_flow fl = flow("host1", "host2", 100000, 26, 1000);
    struct replay_options o;
    replay_options_init(&o);
    o.duration_ns = 100000;
    struct seen w;
    struct replay_summary sum;
    run(&f, &fl, 1, &o, &w, &sum);
    printf("host1 trusting PCP sends %lld bytes on priority 0, %lld on 3\n",
           (long long)counter(&w, "host1", NULL, METRIC_PRIO_TX_BYTES, 0),
           (long long)counter(&w, "host1", NULL, METRIC_PRIO_TX_BYTES, 3));
    assert_true(counter(&w, "host1", NULL, METRIC_PRIO_TX_BYTES, 0) > 100000);
    assert_true(counter(&w, "host1", NULL, METRIC_PRIO_TX_BYTES, 3) <= 0);
    replay_summary_free(&sum);
    fabric_free(&f);

    star(&f, 3, "\"trust\":\"pcp\",\"nic\":{\"dcqcn\":{\"np_enabled\":8}},",
         "\"trust\":\"dscp\",\"dscp2prio\":{\"26\":0},\"wred\":{\"0\":{\"min_bytes\":\"5KB\","
         "\"max_bytes\":\"200KB\",\"max_p\":1,\"ecn\":true}},");
    incast2(&f, 2000000, &w, &sum);
    printf("receiver trusting PCP behind a remap to 0: %lld CE, %lld CNPs\n",
           (long long)counter(&w, "host3", NULL, METRIC_ROCE_ECN_MARKED_RX, -1),
           (long long)counter(&w, "host3", NULL, METRIC_CNP_SENT, -1));
    assert_true(counter(&w, "host3", NULL, METRIC_ROCE_ECN_MARKED_RX, -1) > 0);
    assert_int_equal(counter(&w, "host3", NULL, METRIC_CNP_SENT, -1), 0);
    replay_summary_free(&sum);
    fabric_free(&f);
}

/* ---- the lossy class ------------------------------------------------------------------------ */

/* Two flows on priority 0 (DSCP 0: no PFC, the RP only on 3) into host3 for 20 ms through the
 * switch's 512 KiB lossy group. As TCP-like traffic (the lossy class) they find their window by
 * loss, halve it and grow it back one packet a round trip: each ends near half the link
 * (40G x 1000 / 1082 / 2 = 18.48 Gb/s of goodput) with a few per cent sent again, and none of it
 * in the hosts' roce.* counters. The same flows as RoCE (said so, or with the RP on priority 0:
 * no marks to answer, no window) send on at the line rate into the full queue and go-back-N
 * collapses, in roce.*; with PFC on every priority they lose nothing and are paused instead. */
struct lossy_seen {
    double half_share_error; /* the flows' largest distance from 18.48 Gb/s, relative */
    double goodput;          /* both flows, bits per second */
    double sent_again;       /* packets sent again / packets sent */
    uint64_t drops, pfc_frames;
    int64_t roce_retransmits; /* roce.retransmits at host1 */
};

static struct lossy_seen lossy_run(const char *label, const char *host_extra, const char *devices,
                                   uint8_t transport)
{
    struct fabric f;
    star_with(&f, 3, host_extra, "", devices);
    struct replay_flow flows[2] = { flow("host1", "host3", 0, 0, 1000),
                                    flow("host2", "host3", 0, 0, 1001) };
    uint8_t transports[2] = { transport, transport };
    struct replay_options o;
    replay_options_init(&o);
    o.duration_ns = 20000000;
    o.warmup_ns = 5000000;
    o.transport = transports;
    struct seen w;
    struct replay_summary sum;
    run(&f, flows, 2, &o, &w, &sum);
    double half = 40e9 * 1000 / 1082 / 2;
    struct lossy_seen l = {
        0, 0, 0, sum.drops, sum.pfc_frames, counter(&w, "host1", NULL, METRIC_ROCE_RETRANSMITS, -1)
    };
    uint64_t sent = 0, again = 0;
    for (int i = 0; i < 2; i++) {
        double err = fabs(sum.flows[i].throughput_bps - half) / half;
        l.half_share_error = err > l.half_share_error ? err : l.half_share_error;
        l.goodput += sum.flows[i].throughput_bps;
        sent += sum.flows[i].packets_sent;
        again += sum.flows[i].retransmitted;
    }
    l.sent_again = (double)again / (double)sent;
    printf("%-22s goodput %.2f Gb/s, %.1f %% sent again (roce.retransmits %lld), %llu drops, "
           "%llu PFC frames\n",
           label, l.goodput / 1e9, l.sent_again * 100, (long long)l.roce_retransmits,
           (unsigned long long)l.drops, (unsigned long long)l.pfc_frames);
    replay_summary_free(&sum);
    fabric_free(&f);
    return l;
}

#define RP_ON_3 "\"nic\":{\"dcqcn\":{\"rp_enabled\":8}},"

static void lossy_class_backs_off(void **state)
{
    (void)state;
    struct lossy_seen l = lossy_run("lossy class:", RP_ON_3, "", REPLAY_TRANSPORT_AUTO);
    assert_true(l.half_share_error <= 0.1);
    assert_true(l.drops > 0 && l.sent_again > 0 && l.sent_again < 0.05);
    assert_int_equal(l.pfc_frames, 0);
    assert_int_equal(l.roce_retransmits, 0); /* TCP's losses are not RoCE's */
    struct lossy_seen tcp = lossy_run("said TCP:", RP_ON_3, "", REPLAY_TRANSPORT_TCP);
    assert_true(tcp.goodput == l.goodput && tcp.drops == l.drops);

    double line = 40e9 * 1000 / 1082;
    l = lossy_run("said RoCE:", RP_ON_3, "", REPLAY_TRANSPORT_ROCE);
    assert_true(l.goodput < 0.1 * line && l.sent_again > 0.5);
    assert_true(l.roce_retransmits > 1000);
    l = lossy_run("RP on priority 0:", "\"nic\":{\"dcqcn\":{\"rp_enabled\":1}},", "",
                  REPLAY_TRANSPORT_AUTO);
    assert_true(l.goodput < 0.1 * line && l.sent_again > 0.5);

    l = lossy_run("PFC everywhere:", RP_ON_3 "\"pfc\":{\"enabled\":255},",
                  "{\"name\":\"switch1\",\"config\":{\"pfc\":{\"enabled\":255},\"switch\":"
                  "{\"buffer\":{\"0\":{\"xoff\":\"100KB\",\"xon\":\"50KB\","
                  "\"headroom\":\"100KB\"}}}}}",
                  REPLAY_TRANSPORT_AUTO);
    assert_true(l.half_share_error <= 0.02);
    assert_true(l.drops == 0 && l.sent_again == 0);
    assert_true(l.pfc_frames > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(knob_gd),
        cmocka_unit_test(knob_clamp),
        cmocka_unit_test(knob_max_rate),
        cmocka_unit_test(np_by_own_map),
        cmocka_unit_test(cnp_handled_needs_rp),
        cmocka_unit_test(loss_nak),
        cmocka_unit_test(loss_timeout),
        cmocka_unit_test(nic_pfc_obeyed_only_when_on),
        cmocka_unit_test(nic_pfc_sent_only_when_on),
        cmocka_unit_test(nic_trust),
        cmocka_unit_test(lossy_class_backs_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
