/* The replay engine: a deterministic, packet-level discrete-event simulator of switches (shared
 * buffer, PFC, WRED/ECN, strict + DWRR scheduling, the PFC watchdog) and DCQCN NICs, over a
 * fabric from the models (lib/fabric.h) and a list of flows. It emits the same canonical samples
 * and events as the real collectors, a summary, and time series.
 *
 * Time is fixed-point: picoseconds in an int64 (1/1000 ns, so a 1,082-byte frame at 40G is
 * exactly 216,400 ps). Ties in the event queue break by insertion order, and every random draw
 * comes from one generator seeded by the caller: a seed gives the same output bit for bit.
 * Nothing here opens a file or reads a clock. */
#ifndef DCB_REPLAY_H
#define DCB_REPLAY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dcqcn.h"
#include "err.h"
#include "fabric.h"
#include "sample.h"

#define REPLAY_PS_PER_NS 1000LL

/* What a run accepts; replay_run() refuses the rest with an error naming it (the scenario
 * loader refuses it first, naming the key: docs/scenario.md, "Ranges and limits"). Every time,
 * the duration included, is at most REPLAY_TIME_MAX_NS: in picoseconds that is 1e18, so a time
 * plus any delay stays far below INT64_MAX (9.2e18). Ports run at QOS_SPEED_MIN_BPS to
 * QOS_SPEED_MAX_BPS over at most QOS_CABLE_MAX_MM of cable; a flow sends fewer than 2^32
 * packets in a pass (its PSN is 32-bit). */
#define REPLAY_TIME_MAX_NS 1000000000000000LL /* 1e9 ms, 11.6 days */
#define REPLAY_PAYLOAD_DEFAULT 1000u          /* replay_flow.payload 0 */
#define REPLAY_PAYLOAD_MAX 9000u
#define REPLAY_MEMORY_DEFAULT 4000000000ULL /* replay_options.max_memory_bytes */

/* What a flow carries: RoCE (go-back-N, counted in roce.*, DCQCN where the RP runs) or TCP-like
 * traffic (go-back-N paced by a Reno window, not counted as RoCE). AUTO: TCP-like when its NIC
 * runs neither PFC nor the RP on its priority (the lossy class beside RoCE), else RoCE. */
enum replay_transport { REPLAY_TRANSPORT_AUTO, REPLAY_TRANSPORT_ROCE, REPLAY_TRANSPORT_TCP };

struct replay_flow {
    const char *src, *dst; /* host device names in the fabric */
    uint64_t bytes;        /* 0: sends for the whole run */
    int64_t start_ns;
    uint8_t dscp;     /* the class it is marked with (the NIC's dscp2prio gives prio) */
    uint16_t sport;   /* UDP source port: ECMP entropy */
    uint32_t payload; /* bytes per packet (default 1000) */
};

/* Dependencies between flows (ring all-reduce steps): a flow with n > 0 starts its start_ns
 * after the last of flows flow[0..n-1] (earlier in the list) has finished. */
struct replay_after {
    uint8_t n;
    uint32_t flow[2];
};

/* Faults injected into a run (additive: none by default). */
enum replay_fault_kind {
    REPLAY_FAULT_SLOW_RECEIVER, /* device's receive side drains at drain_bps from at_ns */
    REPLAY_FAULT_PAUSE_STORM,   /* device (a host) sends XOFF on prio without a break */
    REPLAY_FAULT_LINK_DOWN,     /* the link at device:ifname is down from at_ns */
};

struct replay_fault {
    enum replay_fault_kind kind;
    const char *device, *ifname; /* ifname NULL: the host's linked port */
    int64_t at_ns, until_ns;     /* until 0: to the end of the run */
    double drain_bps;            /* slow receiver */
    uint64_t rx_xoff_bytes;      /* slow receiver: pause above this backlog (0: 64 KiB) */
    int prio;                    /* pause storm */
};

enum replay_series_kind { SERIES_QUEUE_BYTES, SERIES_FLOW_RC, SERIES_FLOW_RT };

struct replay_series_point {
    enum replay_series_kind kind;
    int64_t time_ns;
    const char *device, *ifname; /* queue: the egress port; rates: the sending host */
    int index;                   /* queue: TC; rates: the flow */
    double value;                /* bytes, or bits per second */
};

struct replay_hooks {
    void (*sample)(void *arg, const struct dcb_sample *s);
    void (*event)(void *arg, const struct dcb_event *e);
    void (*series)(void *arg, const struct replay_series_point *p);
    void *arg;
};

enum replay_preset { DCQCN_PRESET_PAPER, DCQCN_PRESET_MLX5 };

struct replay_options {
    uint64_t seed;
    int64_t duration_ns;
    int64_t sample_interval_ns; /* canonical samples; 0: none */
    int64_t series_interval_ns; /* queue depth / rate series; 0: none */
    enum replay_preset preset;
    struct dcqcn_params *dcqcn; /* NULL: the preset at each host's speed */
    bool dcqcn_off;             /* PFC only */
    int64_t pfc_response_ns;    /* from the PAUSE's arrival to the sender obeying (default 500) */
    int64_t retransmit_timeout_ns; /* go-back-N timeout (default 1 ms) */
    double host_drain_bps;         /* receive drain rate of every host; 0: line rate */
    uint64_t host_rx_xoff_bytes;   /* a host pauses its switch above this receive backlog */
    bool mark_on_enqueue;          /* WRED/ECN decided as a packet joins its egress queue, not
                                      as it leaves (the default, as the HPCC ns-3 model and the
                                      fluid model's marks on the queue the packet leaves) */
    uint32_t ack_every;            /* packets per ACK (default 16) */
    int64_t warmup_ns;             /* the summary measures from here on (0: the whole run) */
    const struct replay_fault *faults;
    size_t nfaults;
    const struct replay_after *after;  /* one per flow, or NULL: no dependencies */
    const uint8_t *transport;          /* enum replay_transport, one per flow, or NULL: all AUTO */
    const volatile sig_atomic_t *stop; /* non-zero ends the run at the next sample */
    /* Called with the hooks' arg and the round's time after the last sample of each round (the
     * samples of one instant); NULL: not. A reader at the end of a pipe waits for it, so that
     * it never takes half a round for a whole one. */
    void (*round_end)(void *arg, int64_t time_ns);
    uint64_t max_memory_bytes; /* what the run may hold: ports, flows, routes, packets, events,
                                  queue depths (0: REPLAY_MEMORY_DEFAULT); past it the run
                                  ends with an error naming what grew */
};

struct replay_flow_result {
    uint64_t bytes_acked, packets_sent, retransmitted;
    int64_t start_ns, finish_ns; /* finish 0: not finished */
    uint64_t bytes_measured;     /* acked after the warm-up */
    double throughput_bps;       /* bytes_measured over the flow's lifetime after the warm-up */
    uint64_t cnps, ce_marked;    /* CNPs that came back to the sender, CE marks received */
    double final_rc_bps;
    uint64_t cnps_handled;    /* CNPs its reaction point acted on (0 with the RP off) */
    uint64_t naks;            /* NAKs its receiver sent (one per gap), and the packets */
    uint64_t out_of_sequence; /* it dropped above the gap */
    uint64_t timeouts;        /* the sender's retransmit timeouts that went back */
};

/* An egress queue that carried traffic, from its depth sampled at series_interval_ns after the
 * warm-up. */
struct replay_queue_result {
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX];
    int tc;
    uint64_t samples;
    double mean_bytes, p50_bytes, p99_bytes, max_bytes;
};

#define REPLAY_WINDOW_NS 10000000 /* fairness windows: 10 ms */

/* Every figure after warmup_ns (the options'; 0: the whole run). */
struct replay_summary {
    uint64_t events, packet_hops, packets, drops, pfc_frames, ecn_marks, cnps;
    int64_t warmup_ns;
    double jain; /* Jain fairness of the flows' throughput */
    /* the flows' throughput in each whole 10 ms window, of the flows running all through it:
     * how many windows, their Jain index (the lowest and the mean), the share of windows with
     * Jain >= 0.99, and of those where every flow is within 10 % of the windows' mean */
    uint32_t windows;
    double jain_window_min, jain_window_mean, windows_jain_099, windows_fair;
    double pause_fraction_max; /* the most paused port: paused time / measured time */
    double queue_mean_bytes, queue_p50_bytes, queue_p99_bytes, queue_max_bytes; /* all queues */
    double cnp_max_wait_ns; /* the longest a CNP waited in a switch egress queue */
    size_t nflows;
    struct replay_flow_result *flows; /* nflows, owned by the summary */
    size_t nqueues;
    struct replay_queue_result *queues; /* owned by the summary */
};

void replay_options_init(struct replay_options *o);
/* Runs the simulation; 0, or a negative error (a flow naming an unknown host, no route, a value
 * out of range, out of memory or past max_memory_bytes) with err set. */
int replay_run(const struct fabric *f, const struct replay_flow *flows, size_t nflows,
               const struct replay_options *opt, const struct replay_hooks *hooks,
               struct replay_summary *summary, struct dcb_err *err);
void replay_summary_free(struct replay_summary *s);
/* One flow against the limits above ("flow i: ..."): replay_run() checks every flow so. */
int replay_check_flow(const struct replay_flow *f, size_t i, struct dcb_err *err);

#endif
