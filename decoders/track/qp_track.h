/* Per-QP health of RoCEv2 traffic: one record per flow key (source IP, destination IP,
 * destination QP), in a table capped at max_qps records. Packets of flows beyond the cap are
 * counted as untracked, never dropped silently.
 *
 * What a record holds: packets, bytes, opcode mix, ECN/DSCP/PCP seen, PSN gaps, duplicates and
 * go-back-N retransmission episodes (request and response PSN streams), ACK/NAK/RNR NAK counts
 * (on the responder-to-requester flow that carries them), and for data flows the CNPs that came
 * back and the CE -> CNP reaction times. A flow and its reverse (the one carrying its ACKs and
 * CNPs, keyed by the requester's QP) are paired from ACK PSNs, or directly when only one flow
 * runs in the other direction between the two addresses. */
#ifndef DCB_QP_TRACK_H
#define DCB_QP_TRACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode.h"
#include "track.h"

#define QP_OPCODE_SLOTS 10 /* distinct opcodes kept per flow; the rest add to ops_other */
#define QP_NONE UINT32_MAX
#define QP_DEFAULT_MAX 262144
#define QP_LATENCY_BUDGET (4u << 20) /* CE -> CNP latencies kept across all flows */

struct qp_flow {
    uint8_t ipver;
    uint8_t src[16], dst[16];
    uint32_t dqpn;
    uint32_t next_in_pair; /* the next flow with the same (src, dst) */
    uint32_t peer;         /* the reverse flow of the same QP pair, or QP_NONE */
    uint32_t no_peer_at;   /* nflows when a search found no candidate (0: never searched) */
    uint64_t packets, bytes, goodput_bytes;
    int64_t first_ns, last_ns;
    uint8_t nops;
    uint8_t op_code[QP_OPCODE_SLOTS];
    uint64_t op_packets[QP_OPCODE_SLOTS];
    uint64_t ops_other;
    /* PSN stream of the packets that carry one (all but ACKs, atomic ACKs and CNPs) */
    bool psn_started, in_episode;
    uint32_t first_psn, expected_psn, high_psn, last_psn;
    uint64_t data_packets;
    uint64_t psn_gaps, psn_missing, duplicates, retransmit_episodes, retransmitted_packets;
    uint64_t acks, naks, rnr_naks;
    uint64_t bad_icrc; /* frames whose ICRC failed: counted here only (corrupt, not data) */
    uint64_t ecn[4];   /* not-ECT, ECT(1), ECT(0), CE: indexed by the ECN field */
    uint64_t non_ect_data;
    uint64_t dscp_seen; /* bit n: DSCP n */
    uint16_t pcp_seen;  /* bit n: PCP n; bit 8: untagged */
    /* CNPs keyed by this flow (sent to this QP) */
    uint64_t cnps;
    uint64_t cnp_dscp_seen;
    uint16_t cnp_pcp_seen;
    /* as a data flow: CNPs attributed to it, and CE -> CNP reaction times */
    uint64_t cnps_received, cnps_without_ce;
    int64_t pending_ce_ns; /* -1: no CE waiting for a CNP */
    uint32_t nlat, lat_cap;
    uint32_t *lat_ns; /* kept latencies (saturated at UINT32_MAX ns) */
    uint64_t lat_count, lat_max_ns;
};

struct qp_tracker {
    uint32_t max_qps;
    struct track_events events;
    struct qp_flow *flows;
    uint32_t nflows, flows_cap;
    uint32_t *slots;      /* open addressing: flow index + 1, 0 empty */
    uint32_t *pair_slots; /* (src, dst) -> first flow index + 1 */
    uint32_t nslots;      /* a power of two, at least 2 x max_qps */
    uint32_t last_hit;
    uint64_t roce_packets, untracked_packets, untracked_bytes;
    uint64_t cnps, cnps_unattributed;
    uint64_t ce_packets, psn_gaps, naks, retransmit_episodes; /* over all flows, untracked too */
    uint64_t rnr_naks;                                        /* of naks, the RNR NAKs */
    uint64_t bad_icrc; /* frames with a checked, wrong ICRC (in roce_packets only) */
    uint64_t latencies_kept, latencies_dropped;
    bool nomem;
};

/* 0, or -1 when the tables cannot be allocated. max_qps 0 means QP_DEFAULT_MAX. */
int qp_tracker_init(struct qp_tracker *t, uint32_t max_qps, const struct track_events *events);
/* Feeds one decoded frame (only complete RoCEv2 packets, DCB_L_BTH, are looked at). A frame whose
 * ICRC was checked and is wrong (dcb_verify_icrc) counts as bad_icrc on its flow and nowhere
 * else: its ECN mark, AETH and PSN are not trusted, so it is not a CE mark, a NAK or a PSN. */
void qp_tracker_frame(struct qp_tracker *t, int64_t ts_ns, const struct dcb_frame *f);
void qp_tracker_free(struct qp_tracker *t);

/* The CE -> CNP latency median (lower middle of the kept values; sorts them) and max. False
 * when the flow has none. */
bool qp_flow_latency(struct qp_flow *q, uint64_t *median_ns, uint64_t *max_ns);
/* Opcodes that carry no PSN stream of their own: ACKNOWLEDGE, ATOMIC ACKNOWLEDGE, CNP. */
bool qp_opcode_is_response_only(uint8_t opcode);

#endif
