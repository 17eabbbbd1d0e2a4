/* Per-QP health records; see qp_track.h. */
#include "qp_track.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_details.h"

#define PSN_MASK 0xffffffu
#define PSN_HALF 0x800000u
#define OPCODE_CNP 0x81
#define PAIR_SCAN_MAX 64
#define UNTAGGED_BIT (1u << 8)

struct qp_key {
    uint8_t ver;
    uint32_t dqpn;
    uint8_t src[16], dst[16];
};

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static uint64_t words_hash(uint64_t seed, const uint8_t a[16], const uint8_t b[16])
{
    uint64_t w[4];
    memcpy(&w[0], a, 8);
    memcpy(&w[1], a + 8, 8);
    memcpy(&w[2], b, 8);
    memcpy(&w[3], b + 8, 8);
    return mix64(seed ^ w[0] ^ mix64(w[1] ^ mix64(w[2] ^ mix64(w[3]))));
}

static uint32_t key_hash(const struct qp_key *k)
{
    return (uint32_t)words_hash((uint64_t)k->ver << 32 | k->dqpn, k->src, k->dst);
}

static uint32_t pair_hash(uint8_t ver, const uint8_t src[16], const uint8_t dst[16])
{
    return (uint32_t)words_hash((uint64_t)ver << 40, src, dst);
}

static bool flow_is(const struct qp_flow *q, const struct qp_key *k)
{
    return q->dqpn == k->dqpn && q->ipver == k->ver && memcmp(q->src, k->src, 16) == 0 &&
           memcmp(q->dst, k->dst, 16) == 0;
}

bool qp_opcode_is_response_only(uint8_t opcode)
{
    uint8_t op = opcode & 0x1f;
    return opcode == OPCODE_CNP || (opcode < 0xc0 && (op == 0x11 || op == 0x12));
}

int qp_tracker_init(struct qp_tracker *t, uint32_t max_qps, const struct track_events *events)
{
    memset(t, 0, sizeof(*t));
    t->max_qps = max_qps ? max_qps : QP_DEFAULT_MAX;
    if (t->max_qps > (1u << 28))
        t->max_qps = 1u << 28;
    if (events)
        t->events = *events;
    t->nslots = 64;
    while (t->nslots < 2 * t->max_qps)
        t->nslots *= 2;
    t->slots = calloc(t->nslots, sizeof(*t->slots));
    t->pair_slots = calloc(t->nslots, sizeof(*t->pair_slots));
    t->last_hit = QP_NONE;
    if (!t->slots || !t->pair_slots) {
        qp_tracker_free(t);
        return -1;
    }
    return 0;
}

void qp_tracker_free(struct qp_tracker *t)
{
    for (uint32_t i = 0; i < t->nflows; i++)
        free(t->flows[i].lat_ns);
    free(t->flows);
    free(t->slots);
    free(t->pair_slots);
    t->flows = NULL;
    t->slots = t->pair_slots = NULL;
    t->nflows = t->flows_cap = 0;
}

/* The head of the list of flows from src to dst, or QP_NONE; *slot_out is its slot. */
static uint32_t pair_head(const struct qp_tracker *t, uint8_t ver, const uint8_t src[16],
                          const uint8_t dst[16], uint32_t *slot_out)
{
    uint32_t mask = t->nslots - 1;
    for (uint32_t s = pair_hash(ver, src, dst) & mask;; s = (s + 1) & mask) {
        uint32_t v = t->pair_slots[s];
        if (slot_out)
            *slot_out = s;
        if (!v)
            return QP_NONE;
        const struct qp_flow *q = &t->flows[v - 1];
        if (q->ipver == ver && memcmp(q->src, src, 16) == 0 && memcmp(q->dst, dst, 16) == 0)
            return v - 1;
    }
}

static uint32_t add_flow(struct qp_tracker *t, const struct qp_key *k, uint32_t slot)
{
    if (t->nflows == t->max_qps)
        return QP_NONE;
    if (t->nflows == t->flows_cap) {
        uint32_t cap = t->flows_cap ? t->flows_cap * 2 : 256;
        if (cap > t->max_qps)
            cap = t->max_qps;
        struct qp_flow *grown = realloc(t->flows, (size_t)cap * sizeof(*grown));
        if (!grown) {
            t->nomem = true;
            return QP_NONE;
        }
        t->flows = grown;
        t->flows_cap = cap;
    }
    uint32_t idx = t->nflows++;
    struct qp_flow *q = &t->flows[idx];
    memset(q, 0, sizeof(*q));
    q->ipver = k->ver;
    memcpy(q->src, k->src, 16);
    memcpy(q->dst, k->dst, 16);
    q->dqpn = k->dqpn;
    q->peer = QP_NONE;
    q->pending_ce_ns = -1;
    t->slots[slot] = idx + 1;
    uint32_t pslot;
    uint32_t head = pair_head(t, k->ver, k->src, k->dst, &pslot);
    q->next_in_pair = head;
    t->pair_slots[pslot] = idx + 1;
    return idx;
}

static uint32_t find_flow(struct qp_tracker *t, const struct qp_key *k)
{
    if (t->last_hit != QP_NONE && flow_is(&t->flows[t->last_hit], k))
        return t->last_hit;
    uint32_t mask = t->nslots - 1;
    for (uint32_t s = key_hash(k) & mask;; s = (s + 1) & mask) {
        uint32_t v = t->slots[s];
        if (!v)
            return t->last_hit = add_flow(t, k, s);
        if (flow_is(&t->flows[v - 1], k))
            return t->last_hit = v - 1;
    }
}

/* What an event adds to the QP's addresses: up to three named PSNs or codes (key NULL: none). */
struct qp_extra {
    const char *key[3];
    uint32_t value[3];
};

static void emit(struct qp_tracker *t, const struct qp_flow *q, int64_t ts_ns,
                 enum dcb_event_kind kind, const struct qp_extra *extra)
{
    if (!t->events.fn)
        return;
    char src[46], dst[46];
    struct event_details details;
    event_details_init(&details);
    event_details_str(&details, "src_ip", track_ip_str(q->ipver, q->src, src));
    event_details_str(&details, "dst_ip", track_ip_str(q->ipver, q->dst, dst));
    event_details_u64(&details, "dqpn", q->dqpn);
    for (size_t i = 0; i < 3 && extra->key[i]; i++)
        event_details_u64(&details, extra->key[i], extra->value[i]);
    struct dcb_event e;
    dcb_event_set(&e, ts_ns, kind, t->events.device ? t->events.device : "", "", -1,
                  event_details_json(&details));
    t->events.fn(t->events.arg, &e);
}

static bool psn_in_range(uint32_t psn, uint32_t first, uint32_t end)
{
    return ((psn - first) & PSN_MASK) < ((end - first) & PSN_MASK);
}

/* The data flow that flow k (carrying ACKs and CNPs back) answers. With psn_known, an ACK's PSN
 * settles which of several candidates it is; without, the pairing waits. */
static uint32_t data_peer(struct qp_tracker *t, uint32_t k, bool psn_known, uint32_t psn)
{
    struct qp_flow *back = &t->flows[k];
    if (back->peer != QP_NONE)
        return back->peer;
    if (back->no_peer_at == t->nflows)
        return QP_NONE; /* nothing ran the other way at the last look */
    uint32_t only = QP_NONE, by_psn = QP_NONE;
    int candidates = 0, psn_matches = 0;
    uint32_t i = pair_head(t, back->ipver, back->dst, back->src, NULL);
    for (int n = 0; i != QP_NONE && n < PAIR_SCAN_MAX; i = t->flows[i].next_in_pair, n++) {
        const struct qp_flow *d = &t->flows[i];
        if (!d->psn_started || (d->peer != QP_NONE && d->peer != k))
            continue;
        candidates++;
        only = i;
        if (psn_known && psn_in_range(psn, d->first_psn, d->high_psn)) {
            psn_matches++;
            by_psn = i;
        }
    }
    if (!candidates)
        back->no_peer_at = t->nflows;
    uint32_t found = candidates == 1 ? only : psn_matches == 1 ? by_psn : QP_NONE;
    if (found != QP_NONE) {
        back->peer = found;
        t->flows[found].peer = k;
    }
    return found;
}

/* A CNP's data flow when no pairing is known: the candidate whose CE waits longest. */
static uint32_t cnp_guess(struct qp_tracker *t, uint32_t k)
{
    const struct qp_flow *back = &t->flows[k];
    uint32_t best = QP_NONE;
    uint32_t i = pair_head(t, back->ipver, back->dst, back->src, NULL);
    for (int n = 0; i != QP_NONE && n < PAIR_SCAN_MAX; i = t->flows[i].next_in_pair, n++) {
        const struct qp_flow *d = &t->flows[i];
        if (d->pending_ce_ns >= 0 &&
            (best == QP_NONE || d->pending_ce_ns < t->flows[best].pending_ce_ns))
            best = i;
    }
    return best;
}

static void keep_latency(struct qp_tracker *t, struct qp_flow *d, uint64_t ns)
{
    d->lat_count++;
    if (ns > d->lat_max_ns)
        d->lat_max_ns = ns;
    if (t->latencies_kept >= QP_LATENCY_BUDGET) {
        t->latencies_dropped++;
        return;
    }
    if (d->nlat == d->lat_cap) {
        uint32_t cap = d->lat_cap ? d->lat_cap * 2 : 8;
        uint32_t *grown = realloc(d->lat_ns, cap * sizeof(*grown));
        if (!grown) {
            t->nomem = true;
            t->latencies_dropped++;
            return;
        }
        d->lat_ns = grown;
        d->lat_cap = cap;
    }
    d->lat_ns[d->nlat++] = ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
    t->latencies_kept++;
}

static void on_cnp(struct qp_tracker *t, uint32_t k, int64_t ts_ns, const struct dcb_frame *f)
{
    struct qp_flow *back = &t->flows[k];
    back->cnps++;
    back->cnp_dscp_seen |= 1ull << f->ip.dscp;
    back->cnp_pcp_seen |= f->nvlan ? 1u << f->vlan[0].pcp : UNTAGGED_BIT;
    uint32_t di = data_peer(t, k, false, 0);
    if (di == QP_NONE)
        di = cnp_guess(t, k);
    if (di == QP_NONE) {
        t->cnps_unattributed++;
        return;
    }
    struct qp_flow *d = &t->flows[di];
    d->cnps_received++;
    if (d->pending_ce_ns < 0) {
        d->cnps_without_ce++;
        return;
    }
    keep_latency(t, d, (uint64_t)(ts_ns >= d->pending_ce_ns ? ts_ns - d->pending_ce_ns : 0));
    d->pending_ce_ns = -1;
}

static void on_ack(struct qp_tracker *t, uint32_t k, int64_t ts_ns, const struct dcb_frame *f)
{
    struct qp_flow *back = &t->flows[k];
    uint32_t psn = f->bth.psn & PSN_MASK;
    const struct qp_extra extra = { { "psn", "syndrome" }, { psn, f->aeth.syndrome } };
    switch (dcb_aeth_kind(f->aeth.syndrome)) {
    case DCB_AETH_ACK: back->acks++; break;
    case DCB_AETH_NAK:
        back->naks++;
        t->naks++;
        emit(t, back, ts_ns, EVENT_NAK, &extra);
        break;
    case DCB_AETH_RNR_NAK:
        back->rnr_naks++;
        t->naks++;
        t->rnr_naks++;
        emit(t, back, ts_ns, EVENT_RNR_NAK, &extra);
        break;
    default: break;
    }
    data_peer(t, k, true, psn);
}

static void on_data(struct qp_tracker *t, struct qp_flow *q, int64_t ts_ns,
                    const struct dcb_frame *f)
{
    uint32_t psn = f->bth.psn & PSN_MASK;
    q->data_packets++;
    if (f->ip.ecn == 0)
        q->non_ect_data++;
    else if (f->ip.ecn == 3 && q->pending_ce_ns < 0)
        q->pending_ce_ns = ts_ns;
    if (!q->psn_started) {
        q->psn_started = true;
        q->first_psn = psn;
        q->expected_psn = q->high_psn = (psn + 1) & PSN_MASK;
        q->last_psn = psn;
        q->goodput_bytes += f->payload_len;
        return;
    }
    uint32_t ahead = (psn - q->expected_psn) & PSN_MASK;
    bool duplicate = false;
    if (ahead != 0 && ahead < PSN_HALF) {
        q->psn_gaps++;
        t->psn_gaps++;
        q->psn_missing += ahead;
        const struct qp_extra extra = { { "expected_psn", "psn", "missing" },
                                        { q->expected_psn, psn, ahead } };
        emit(t, q, ts_ns, EVENT_PSN_GAP, &extra);
    } else if (ahead != 0) {
        if (!q->in_episode && psn == q->last_psn) {
            q->duplicates++;
            duplicate = true;
        } else if (!q->in_episode) {
            q->in_episode = true;
            q->retransmit_episodes++;
            t->retransmit_episodes++;
            const struct qp_extra extra = { { "from_psn", "high_psn" }, { psn, q->high_psn } };
            emit(t, q, ts_ns, EVENT_RETRANSMIT, &extra);
        }
    }
    bool below_high = ((q->high_psn - psn - 1) & PSN_MASK) < PSN_HALF;
    bool retransmitted = q->in_episode && below_high;
    if (retransmitted)
        q->retransmitted_packets++;
    else if (!duplicate)
        q->goodput_bytes += f->payload_len;
    uint32_t next = (psn + 1) & PSN_MASK;
    bool reached_high = ((next - q->high_psn) & PSN_MASK) < PSN_HALF;
    if (q->in_episode && reached_high)
        q->in_episode = false;
    if (!below_high)
        q->high_psn = next;
    q->expected_psn = next;
    q->last_psn = psn;
}

static void count_opcode(struct qp_flow *q, uint8_t opcode)
{
    for (uint8_t i = 0; i < q->nops; i++)
        if (q->op_code[i] == opcode) {
            q->op_packets[i]++;
            return;
        }
    if (q->nops == QP_OPCODE_SLOTS) {
        q->ops_other++;
        return;
    }
    q->op_code[q->nops] = opcode;
    q->op_packets[q->nops++] = 1;
}

void qp_tracker_frame(struct qp_tracker *t, int64_t ts_ns, const struct dcb_frame *f)
{
    if (!(f->layers & DCB_L_BTH) || !(f->layers & DCB_L_IP))
        return;
    t->roce_packets++;
    struct qp_key k = { .ver = f->ip.version, .dqpn = f->bth.dqpn };
    size_t alen = f->ip.version == 6 ? 16 : 4;
    memcpy(k.src, f->ip.src, alen);
    memcpy(k.dst, f->ip.dst, alen);
    bool corrupt = f->icrc.checked && !f->icrc.ok;
    if (corrupt)
        t->bad_icrc++;
    else if (f->ip.ecn == 3)
        t->ce_packets++;
    if (f->bth.opcode == OPCODE_CNP && !corrupt)
        t->cnps++;
    uint32_t idx = find_flow(t, &k);
    if (idx == QP_NONE) {
        t->untracked_packets++;
        t->untracked_bytes += f->len;
        return;
    }
    struct qp_flow *q = &t->flows[idx];
    if (corrupt) {
        if (!q->packets && !q->bad_icrc)
            q->first_ns = ts_ns;
        q->bad_icrc++;
        q->last_ns = ts_ns;
        return;
    }
    if (!q->packets && !q->bad_icrc)
        q->first_ns = ts_ns;
    q->packets++;
    q->bytes += f->len;
    q->last_ns = ts_ns;
    uint8_t opcode = f->bth.opcode;
    count_opcode(q, opcode);
    q->ecn[f->ip.ecn & 3]++;
    q->dscp_seen |= 1ull << (f->ip.dscp & 63);
    q->pcp_seen |= f->nvlan ? 1u << f->vlan[0].pcp : UNTAGGED_BIT;
    if (opcode == OPCODE_CNP)
        on_cnp(t, idx, ts_ns, f);
    else if (qp_opcode_is_response_only(opcode)) {
        if (f->layers & DCB_L_AETH)
            on_ack(t, idx, ts_ns, f);
    } else
        on_data(t, q, ts_ns, f);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

bool qp_flow_latency(struct qp_flow *q, uint64_t *median_ns, uint64_t *max_ns)
{
    if (!q->lat_count)
        return false;
    *max_ns = q->lat_max_ns;
    if (!q->nlat) {
        *median_ns = q->lat_max_ns;
        return true;
    }
    qsort(q->lat_ns, q->nlat, sizeof(*q->lat_ns), cmp_u32);
    *median_ns = q->lat_ns[(q->nlat - 1) / 2];
    return true;
}
