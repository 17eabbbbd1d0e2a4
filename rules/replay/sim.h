/* Internal to rules/replay: the simulator's state. One struct sim holds everything; nodes,
 * ports, flows and packets refer to each other by index. */
#ifndef DCB_REPLAY_SIM_H
#define DCB_REPLAY_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "budget.h"
#include "buffer.h"
#include "evq.h"
#include "qos_config.h"
#include "replay.h"

#define NO_INDEX UINT32_MAX
#define PRIOS 8
#define HEADER_BYTES 62u   /* Ethernet, IPv4, UDP, BTH, ICRC, FCS around a RoCE payload */
#define WIRE_OVERHEAD 20u  /* preamble, start delimiter and inter-frame gap */
#define CTRL_BYTES 64u     /* ACK, NAK, CNP and PFC frames */
#define ETH_HEADER_FCS 18u /* a host's MTU counts the IP packet: its frames are 18 longer */
#define PAUSE_GLOBAL 8u    /* a PAUSE frame's pfc_prio: 802.3x, every priority */
#define READY_GONE INT64_MIN
/* Past the end of any run (REPLAY_TIME_MAX_NS is 1e18 ps) with room to add it to any time: a
 * delay computed from a rate saturates here instead of overflowing, and never runs. */
#define PS_FAR 4000000000000000000LL

enum ev_kind {
    EV_TX_DONE,     /* a: port, b: the packet (for prefetching; the port holds it) */
    EV_ARRIVE,      /* a: port it arrives at, b: packet */
    EV_FLOW_SEND,   /* a: flow; it starts */
    EV_PAUSE_APPLY, /* a: port that obeys, b: prio << 16 | quanta */
    EV_PAUSE_END,   /* a: port, b: prio */
    EV_PFC_CHECK,   /* a: port whose ingress PG may need an XOFF refresh or an XON, b: pg */
    EV_RP_TIMER,    /* a: flow, b: timer generation */
    EV_RTO,         /* a: flow, b: generation */
    EV_HOST_DRAIN,  /* a: host port */
    EV_SAMPLE,
    EV_SERIES,
    EV_WATCHDOG,
    EV_PFC_SEND,  /* a: port that sends the frame, b: prio << 16 | quanta */
    EV_PORT_WAKE, /* a: host port; its earliest paced flow may send */
    EV_FAULT,     /* a: fault index, b: enum fault_phase */
};

enum fault_phase { FAULT_BEGIN, FAULT_END, FAULT_REFRESH };

/* Faults a port's config stages (fault.c): a bad FCS on some frames it receives, the DSCP of what
 * a switch receives rewritten, CE cleared on what a switch sends, a NIC that sends Not-ECT. */
enum {
    PORT_FAULT_FCS = 1,
    PORT_FAULT_DSCP = 2,
    PORT_FAULT_CLEAR_CE = 4,
    PORT_FAULT_NOT_ECT = 8,
};

enum pkt_kind { PKT_DATA, PKT_ACK, PKT_NAK, PKT_CNP, PKT_PFC };

struct packet {
    uint8_t kind;
    uint8_t prio; /* PCP as sent */
    uint8_t dscp;
    bool ce, ect;
    uint32_t flow;
    uint32_t psn;
    uint32_t bytes; /* frame bytes (buffer accounting); the wire adds WIRE_OVERHEAD */
    uint32_t payload;
    uint32_t ingress; /* switch port it entered by, for buffer release; NO_INDEX */
    uint8_t pg;       /* the ingress priority group it is counted in */
    uint16_t quanta;  /* PFC */
    uint8_t pfc_prio; /* PAUSE_GLOBAL: an 802.3x PAUSE */
    int64_t enq_ps;   /* when it entered its switch egress queue */
    uint32_t dst;     /* the node it is going to */
    uint32_t next_free;
    uint64_t ecmp_key; /* its flow's 5-tuple, for the switches' ECMP (sim_flow_ecmp_key;
                          never 0: 0 makes the switch read the flow) */
};                     /* 64 bytes, aligned: one cache line a packet */

struct pkt_queue { /* a FIFO ring of packet indexes */
    uint32_t *v;
    uint32_t head, count, cap;
    uint64_t bytes;
};

struct port_tc { /* an egress traffic class: what each packet reads first */
    _Alignas(64) struct pkt_queue q;
    int64_t deficit; /* DWRR */
    uint64_t tx_bytes, watermark;
    uint32_t weight;  /* DWRR */
    struct wred wred; /* second line: read by each data packet enqueued */
    uint64_t marked, drops;
    uint64_t wred_drops; /* also in drops */
    uint64_t wd_drops;   /* the PFC watchdog's, breaking a storm (also in drops) */
};

struct port_prio { /* a priority: its byte counters and ingress priority group */
    _Alignas(64) uint64_t tx_bytes;
    uint64_t rx_bytes;
    struct ingress_pg pg;
};

/* A host's go-back-N counters of its RoCE flows (roce.*), receiver and sender side, and when it
 * last emitted each loss event kind (at most one each per LOSS_EVENT_PS, counting the episodes
 * between). */
enum nic_loss_event { LOSS_PSN_GAP, LOSS_NAK, LOSS_RETRANSMIT, LOSS_EVENT_KINDS };
struct nic_loss {
    uint64_t out_of_sequence; /* data above the next expected PSN, dropped */
    uint64_t duplicates;      /* data below it */
    uint64_t naks_received, ack_timeouts, retransmits;
    int64_t event_ps[LOSS_EVENT_KINDS];
    uint32_t held[LOSS_EVENT_KINDS];
};

struct port { /* by how often a packet reads it: the first three lines by
                 every frame, by_tc and by_prio for its class, the rest
                 rarely */
    _Alignas(64) uint32_t node;
    uint32_t peer;
    bool busy, down;                /* down: link down (fault) */
    bool is_switch, peer_is_switch; /* from port_setup(), as are dscp_prio and *_prios */
    uint8_t paused_tc;              /* traffic classes a pause holds (watchdog storms excepted) */
    uint8_t dwrr_next;
    uint8_t q_nonempty;    /* switches: the egress queues holding packets, by TC */
    uint8_t strict_tcs;    /* strict-priority traffic classes; the rest share by DWRR */
    uint8_t lossless;      /* priorities whose ingress PG pauses its sender: PFC enabled,
                              or every priority when the port sends 802.3x PAUSE */
    uint8_t tx_prio_now;   /* the frame on the wire: its PCP + 1 (0: PFC), and its bytes, */
    uint8_t wred_enq_tcs;  /* TCs whose WRED takes an ECT packet's verdict at enqueue (drop
                              mode, or mark_on_enqueue), and those that mark it at */
    uint8_t wred_deq_tcs;  /* dequeue; a packet that is not ECT: at enqueue on either */
    uint8_t port_faults;   /* PORT_FAULT_*: the faults its config stages */
    uint32_t tx_bytes_now; /* so that its end needs only the port */
    uint32_t tx_pkt;       /* the packet on the wire */
    uint32_t max_frame;    /* the longest frame it takes or sends (its MTU); UINT32_MAX */
    double bps;
    int64_t ps_per_byte; /* 8e12 / bps when that is a whole number (most speeds), else 0 */
    int64_t prop_ps;
    uint8_t tc_of[PRIOS];  /* prio2tc, resolved */
    bool paused[PRIOS];    /* may not send: PFC on the priority, or an 802.3x PAUSE */
    bool wd_storm[PRIOS];  /* PFC watchdog: this TC ignores pauses and drops */
    struct pkt_queue ctrl; /* PFC, CNP, ACK: sent before data, never paused */
    uint64_t tx_bytes, tx_packets;
    uint64_t rx_bytes, rx_packets;
    int64_t paused_any_since_ps; /* any priority paused since, -1 */
    /* hosts: the NIC's ready flows */
    uint32_t nready, ready_rr;
    uint32_t *ready;            /* the flows with data to send */
    int64_t *ready_at;          /* by ready slot: the flow's next_send_ps (the scan reads no
                                   flow); READY_GONE: the flow finished while ready */
    uint8_t *ready_prio;        /* by ready slot: the flow's priority (a pause skips it) */
    uint8_t rp_prios, np_prios; /* priorities DCQCN's reaction / notification point runs on */
    double drain_bps;           /* receive drain rate; 0: line rate, no backlog kept */
    _Alignas(64) int8_t dscp_prio[64]; /* classification by DSCP (trust dscp, mapped); -1:
                                          keep the PCP */
    struct port_tc by_tc[PRIOS];
    struct port_prio by_prio[PRIOS];
    /* hosts: the rest of the ready flows, and the receive backlog */
    uint32_t ready_cap;
    uint32_t ready_by_prio[PRIOS]; /* ready slots by ready_prio, and those READY_GONE: */
    uint32_t ready_gone;           /* a scan that can neither send nor clear may be skipped */
    int64_t wake_ps;               /* a pending EV_PORT_WAKE, 0: none */
    double rx_backlog;
    int64_t rx_backlog_at_ps;
    bool rx_xoff[PRIOS];
    uint64_t rx_xoff_bytes;
    int64_t rx_xoff_sent_ps; /* the host's last XOFF (refreshed at half its length) */
    uint64_t down_events;
    /* counters */
    uint64_t pfc_tx[PRIOS], pfc_rx[PRIOS];
    uint64_t cnp_sent, cnp_handled, ce_received;
    uint64_t cnp_ignored; /* CNPs that came to a QP whose RP is off on its priority */
    struct nic_loss loss; /* hosts: go-back-N's counters and its events' limiter */
    uint64_t pause_tx_global, pause_rx_global; /* 802.3x PAUSE frames */
    uint64_t rx_oversize, tx_oversize;         /* frames dropped for the MTU */
    uint64_t fcs_errors;  /* frames received with a bad FCS (link.fcs_error_ppm), dropped */
    double fcs_error_p;   /* link.fcs_error_ppm / 1e6 */
    uint8_t dscp_rewrite; /* switch.dscp_rewrite */
    int64_t last_drop_event_ps;
    int64_t paused_until_ps[PRIOS]; /* by priority: the PFC received */
    int64_t pause_start_ps[PRIOS];  /* PFC only (pfc.rx_pause_us, the watchdog) */
    int64_t paused_total_ps[PRIOS];
    bool pfc_paused[PRIOS];
    bool global_paused; /* an 802.3x PAUSE received and obeyed is in force */
    int64_t global_paused_until_ps;
    uint8_t pfc_prios; /* pfc.enabled: PFC sent and obeyed on these priorities */
    bool pause_global_rx, pause_global_tx; /* 802.3x PAUSE obeyed, sent */
    uint8_t global_xoff_prios; /* priorities this port wants its peer held on, while it sends
                                  802.3x PAUSE: the PAUSE ends when none is left */
    int64_t global_xoff_since_ps;
    int64_t paused_any_total_ps;
    int64_t wd_last_pause_ps[PRIOS];
    char name[DCB_IFNAME_MAX];
    struct qos_config cfg; /* the interface's effective config */
};

struct node {
    char name[DCB_DEVICE_MAX];
    bool is_switch;
    uint32_t first_port, nports;
    uint32_t switch_index;       /* switches: its column of group_routes; NO_INDEX: a host */
    struct shared_buffer buffer; /* switches */
};

struct flow { /* by who reads it: a packet sent reads lines 0 and 1, a data
                 packet received lines 0 and 2, an ACK lines 0 and 2 */
    /* line 0: the sender's pick and its packet */
    _Alignas(64) uint32_t npackets; /* 0: unbounded */
    uint32_t payload;
    uint32_t next_psn;
    uint32_t src_port; /* the hosts' ports */
    uint32_t src, dst; /* nodes */
    uint8_t dscp, prio;
    bool started, done, ready;
    bool rto_pending; /* an EV_RTO is queued */
    uint16_t sport;
    uint64_t bytes;        /* 0: unbounded */
    int64_t next_send_ps;  /* while ready, also in its port's ready_at: change both */
    uint64_t packets_sent; /* with retransmissions */
    uint32_t psn_high;     /* the PSN after the highest sent: packets_sent - psn_high
                              were retransmissions */
    bool lossy;            /* TCP-like (replay_transport): a Reno window, not roce.* */
    /* line 1: pacing and the reaction point */
    const struct dcqcn_params *dp; /* shared by the flows with the same parameters */
    uint64_t ecmp_key;             /* sim_flow_ecmp_key(), computed once */
    struct dcqcn_rp rp;            /* its rate and counters first: the rest spills into line 2 */
    /* line 2: the receiver, and the sender's ACK handling */
    uint32_t expected; /* receiver: the next PSN in order */
    uint32_t since_ack;
    uint32_t snd_una;
    uint32_t rto_gen;
    int64_t rto_deadline_ps;
    /* the rest: CNPs, results, dependencies */
    int64_t cnp_next_ps; /* receiver: the next CNP no sooner; INT64_MIN: none yet */
    uint64_t acked_bytes, ce_marked;
    uint32_t timer_gen;
    uint32_t dst_port;
    bool nak_pending;        /* receiver */
    uint8_t waiting, nafter; /* dependencies not finished yet, and in all */
    uint32_t after[2];
    int64_t start_ps, finish_ps;
    /* loss: the receiver's and the sender's counts, and the lossy class's AIMD window */
    uint64_t cnps_received, out_of_sequence;
    uint32_t naks_sent, timeouts;
    uint32_t lossy_recover; /* no second cut for a loss below this PSN (NewReno's) */
    double cwnd;            /* packets in flight at most; 0: no window (no loss yet) */
    uint8_t transport;      /* enum replay_transport, as the workload gave it */
};

struct route {      /* one lookup a packet, so one small entry */
    uint32_t start; /* route_ports[start, start + count) */
    uint16_t count;
    uint32_t first; /* route_ports[start]: the next hop when it is the only one */
};

/* Routing by destination host without a table per pair of nodes: hosts that hang from the same
 * switches (a leaf's hosts) form a group, and a switch's next hops toward any host of a group
 * are the same, except at the switches it hangs from, where they are the ports to the host. */
struct dest {                    /* by node; a switch or a host without links: group NO_INDEX */
    _Alignas(32) uint32_t group; /* its row of group_routes */
    uint32_t leaf;               /* the first switch it hangs from, NO_INDEX: none */
    struct route last;           /* at leaf: the ports to the host */
    uint32_t more, nmore;        /* the other switches it hangs from: last_hops[more, + nmore) */
};

struct last_hop {
    uint32_t node;  /* a switch the host hangs from */
    struct route r; /* its ports to the host */
};

/* The summary's measurements after the warm-up (summary.c): the state at the warm-up, the 10 ms
 * fairness windows, and each egress queue's sampled depths (output.c samples them). */
struct queue_depths {
    uint32_t port;
    uint8_t tc;
    double *v;
    size_t n, cap;
};

struct measure {
    int64_t warmup_ps, window_ps;
    int64_t next_ps; /* the next boundary: the warm-up, then each window's end */
    uint64_t *acked_at_warmup, *acked_at_window; /* by flow */
    int64_t *paused_at_warmup;                   /* by port */
    uint32_t windows, windows_jain_099, windows_fair;
    double jain_min, jain_sum;
    uint32_t *queue_of; /* by port * PRIOS + tc: index in queues, or NO_INDEX */
    struct queue_depths *queues;
    uint32_t nqueues, queues_cap;
};

struct sim {
    const struct replay_options *opt;
    const struct replay_hooks *hooks;
    struct dcqcn_params dcqcn_default;
    struct node *nodes;
    uint32_t nnodes;
    struct port *ports; /* line-aligned */
    uint32_t nports, ports_cap;
    struct flow *flows;
    uint32_t nflows;
    uint32_t *dependents_at; /* by flow, nflows + 1: the flows that wait for it are
                                dependents[at[f], at[f + 1]); NULL: none waits */
    uint32_t *dependents;
    struct dcqcn_params *dparams; /* the distinct DCQCN parameters of the flows */
    uint32_t ndparams, dparams_cap;
    struct packet *pkts;
    uint32_t npkts, pkts_cap, free_pkt;
    struct evq queue;
    int64_t now_ps, end_ps;
    uint64_t rng;
    /* routing (topo.c): a switch's next hops toward a host, [start, start + count) of
       route_ports, are its dest's last hops at the switches it hangs from, else its group's */
    struct dest *dests;         /* by node */
    struct route *group_routes; /* ngroups * nswitches, by group * nswitches + switch_index */
    uint32_t ngroups, nswitches;
    struct last_hop *last_hops;
    uint32_t *route_ports;
    uint64_t routes_bytes;   /* what they took from the budget */
    int64_t pfc_gen_ps;      /* XOFF decision to the PFC frame queued */
    int64_t pfc_response_ps; /* PFC arrival to the sender obeying */
    bool oom;
    struct mem_budget budget; /* replay_options.max_memory_bytes */
    /* summary */
    uint64_t events, hops, drops, pfc_frames, marks, cnps;
    int64_t cnp_max_wait_ps; /* the longest a CNP waited in a switch egress queue */
    uint32_t *fault_port;    /* by fault: the port it acts on */
    struct measure m;        /* what the summary measures after the warm-up */
};

/* limits.c: the options, faults and flows within what a run accepts (replay.h) */
int replay_check(const struct replay_options *o, const struct replay_flow *flows, size_t n,
                 struct dcb_err *err);

/* topo.c: building the fabric and the flows, faults resolved to ports */
int sim_build(struct sim *s, const struct fabric *f, const struct replay_flow *flows, size_t n,
              struct dcb_err *err);
void sim_free(struct sim *s);
int sim_fault_resolve(struct sim *s, struct dcb_err *err);

/* routes.c: the routes (and again around links that are down), and ECMP's pick */
int routes_build(struct sim *s, struct dcb_err *err);
void routes_free(struct sim *s);
/* The next hops switch node has toward host dst (0: none). */
uint16_t routes_count(const struct sim *s, uint32_t node, uint32_t dst);
uint32_t sim_next_hop(struct sim *s, uint32_t node, const struct flow *fl, uint32_t dst_node);
uint64_t sim_flow_ecmp_key(const struct flow *fl);
uint32_t sim_next_hop_key(struct sim *s, uint32_t node, uint64_t ecmp_key, uint32_t dst_node);
int sim_reroute(struct sim *s);

/* pkt.c: the packet pool and packet queues */
uint32_t sim_pkt_alloc(struct sim *s);
void sim_pkt_free(struct sim *s, uint32_t p);
bool sim_pq_push(struct sim *s, struct pkt_queue *q, uint32_t p);
uint32_t sim_pq_pop(struct sim *s, struct pkt_queue *q);

/* sim.c runs the event loop. Inline: nearly every event is a frame's end or arrival scheduled
 * from the one before, and a call's entry and exit were a fifth of the queue's work. */
static inline void sim_at(struct sim *s, int64_t at_ps, enum ev_kind kind, uint32_t a, uint32_t b)
{
    if (at_ps > s->end_ps)
        return; /* after the end: never runs */
    if (!evq_push(&s->queue, at_ps, kind, a, b))
        s->oom = true;
}

/* output.c: samples, events and series through the hooks */
void sim_event(struct sim *s, enum dcb_event_kind kind, uint32_t port, int prio,
               const char *details);
void output_samples(struct sim *s);
void output_series(struct sim *s);

/* summary.c: the measurements after the warm-up, and the summary */
int sim_measure_init(struct sim *s);
/* The boundaries (warm-up, window ends) up to and at at_ps, before the events at at_ps run. */
void sim_measure_until(struct sim *s, int64_t at_ps);
void sim_measure_queue_depth(struct sim *s, uint32_t port, unsigned tc, double bytes);
void sim_measure_free(struct sim *s);
int sim_summarise(struct sim *s, struct replay_summary *sum, struct dcb_err *err);

/* switch.c: a packet through a switch (the buffer's decisions are buffer.h's) */
void switch_receive(struct sim *s, uint32_t port, uint32_t p);
void switch_release(struct sim *s, uint32_t p);
enum wred_verdict switch_wred(struct sim *s, struct port *out, unsigned tc, struct packet *pk);
void switch_pfc_check(struct sim *s, uint32_t port, unsigned pg);
void switch_watchdog_tick(struct sim *s);

/* port.c: a port's fields derived from its config (tc_of, strict, weight, dscp_prio, ...; run
 * again after changing pt->cfg), and transmission, shared by switches and hosts */
void port_setup(struct sim *s, uint32_t port);
void port_kick(struct sim *s, uint32_t port);
void port_tx_done(struct sim *s, uint32_t port);
/* The port asks its peer to stop (quanta > 0) or resume prio: a PFC frame if prio is in its
 * pfc.enabled, an 802.3x PAUSE (every priority; the resume once no priority needs it) if it has
 * pause.global_tx, neither otherwise. */
void port_send_pfc(struct sim *s, uint32_t port, unsigned prio, uint16_t quanta);
/* Whether a port can hold its peer off on prio at all (PFC there, or 802.3x PAUSE): the NIC's
 * slow receiver and the pause storm send through port_send_pfc either way. */
bool port_pauses(const struct port *pt, unsigned prio);
/* Whether prio is in the port's pfc.enabled: a PFC frame (and a pfc_xoff/pfc_xon event) goes
 * only there; with 802.3x alone the pause shows as pause_global. */
bool port_pfc_on(const struct port *pt, unsigned prio);
/* A PAUSE frame (PFC or 802.3x) arrived: counted, and obeyed after the response time if the
 * port's own config says so (prio in its pfc.enabled; pause.global_rx). Frees the packet. */
void port_receive_pause(struct sim *s, uint32_t port, uint32_t p);
/* Whether the port obeys a PFC frame for prio (PAUSE_GLOBAL: an 802.3x PAUSE). */
bool port_obeys_pause(const struct port *pt, unsigned prio);
/* Whether a drop event for the port is due (at most one a second per port): the caller builds
 * its details only then, and hands them to port_drop_event, which restarts the second. */
bool port_drop_event_due(const struct sim *s, uint32_t port);
void port_drop_event(struct sim *s, uint32_t port, int prio, const char *details_json);
/* A frame longer than the port's MTU: dropped and counted, received (rx) or about to be sent. */
void port_drop_oversize(struct sim *s, uint32_t port, uint32_t p, bool rx);
void port_pause_apply(struct sim *s, uint32_t port, unsigned prio, uint16_t quanta);
void port_pause_end(struct sim *s, uint32_t port, unsigned prio);
/* Picoseconds from a computed figure, truncated as a cast would, but PS_FAR for anything that
 * far or further (a rate near zero, infinity, NaN) where a cast's result is undefined. */
static inline int64_t ps_sat(double ps)
{
    /* cppcheck-suppress floatConversionOverflow ; the condition leaves only what fits */
    return ps < (double)PS_FAR ? (int64_t)ps : PS_FAR;
}

/* A frame's time on the wire: a multiply at the usual speeds, where the division's result is
 * that whole number anyway (the same picoseconds, so the same events). */
static inline int64_t serialize_ps(const struct port *pt, uint32_t bytes)
{
    if (pt->ps_per_byte)
        return (int64_t)(bytes + WIRE_OVERHEAD) * pt->ps_per_byte;
    return ps_sat((double)(bytes + WIRE_OVERHEAD) * 8e12 / pt->bps + 0.5);
}
void port_update_paused(struct port *pt);
/* A switch's egress queue by traffic class, keeping q_nonempty. */
bool sim_egress_push(struct sim *s, struct port *pt, unsigned tc, uint32_t p);
uint32_t sim_egress_pop(struct sim *s, struct port *pt, unsigned tc);

/* fault.c: injected faults as they fire, and flow dependencies */
void fault_setup(struct sim *s);
/* A frame arriving at a port with PORT_FAULT_FCS or PORT_FAULT_DSCP: true when it was lost to a
 * bad FCS (counted and freed); else its DSCP rewritten where the port says. */
bool fault_arrive(struct sim *s, uint32_t port, uint32_t p);
/* dcbx.c: the DCBX exchange on each link whose ends both run it (dcbx.mode ieee or cee, the
 * same): a willing end takes its peer's PFC, ETS and APP config as 802.1Qaz says, and each end
 * that runs it reports what it took in a dcbx_seen event. Before the first event; it runs
 * port_setup again on every port it changed. */
void dcbx_negotiate(struct sim *s);
enum { DCBX_TOOK_PFC = 1, DCBX_TOOK_ETS = 2, DCBX_TOOK_APP = 4 };
/* What an end takes from its peer's advertised config (DCBX_TOOK_*); 0 unless both run DCBX in
 * the same mode. local_mac_lower breaks the tie of two willing PFC ends. */
unsigned dcbx_takes(const struct qos_config *local, const struct qos_config *peer,
                    bool local_mac_lower);
/* The taken parts of peer's config put in local (the APP's DSCP entries into its dscp2prio). */
void dcbx_take(struct qos_config *local, const struct qos_config *peer, unsigned took);
void fault_fire(struct sim *s, uint32_t fault, enum fault_phase phase);
void sim_flow_finished(struct sim *s, uint32_t flow);

/* nic.c: hosts */
void nic_flow_send(struct sim *s, uint32_t flow);
void nic_wake(struct sim *s, uint32_t port);
void nic_receive(struct sim *s, uint32_t port, uint32_t p);
void nic_rp_timer(struct sim *s, uint32_t flow, uint32_t gen);
void nic_rto(struct sim *s, uint32_t flow, uint32_t gen);
void nic_drain(struct sim *s, uint32_t port);
uint32_t nic_next_packet(struct sim *s, uint32_t port);
const struct dcqcn_params *sim_flow_dcqcn(struct sim *s, const struct flow *fl);
/* A host's own config: the priority it sends a DSCP on (trust pcp: 0, untagged). Whether it
 * runs PFC on a priority is its port's pfc_prios (port.c: pfc.enabled unset, none). */
uint8_t nic_flow_prio(const struct qos_config *c, uint8_t dscp);

#endif
