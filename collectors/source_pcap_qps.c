/* The capture source's per-QP series; see source_pcap_qps.h. */
#include "source_pcap_qps.h"

#include <stdlib.h>
#include <string.h>

#define UNTAGGED_BIT (1u << 8)

/* Something to judge: CE marks, not-ECT data, NAKs, CNPs, or RoCE in the default class (DSCP 0) */
static bool judged(const struct qp_flow *q)
{
    return q->ecn[3] || q->non_ect_data || q->naks || q->rnr_naks || q->cnps || (q->dscp_seen & 1);
}

static void put(const struct dcb_sink *sink, const char *device, int64_t t, enum metric_id m,
                int label, bool counter, double v)
{
    struct dcb_sample s;
    dcb_sample_set(&s, t, device, "", m, -1, label);
    if (counter)
        s.value.counter = (uint64_t)v;
    else
        s.value.gauge = v;
    sink->sample(sink->arg, &s, 0);
}

static int lowest_bit(uint64_t mask)
{
    return __builtin_ctzll(mask);
}

static int highest_bit(uint64_t mask)
{
    return 63 - __builtin_clzll(mask);
}

static void put_qp(const struct dcb_sink *sink, const char *device, int64_t t,
                   const struct qp_flow *q, int label, bool zero)
{
    const struct {
        enum metric_id m;
        uint64_t v;
    } counters[] = {
        { METRIC_CAPTURE_QP_CE_PACKETS, q->ecn[3] },
        { METRIC_CAPTURE_QP_CNPS_RECEIVED, q->cnps_received },
        { METRIC_CAPTURE_QP_NON_ECT_PACKETS, q->non_ect_data },
        { METRIC_CAPTURE_QP_NAKS, q->naks },
        { METRIC_CAPTURE_QP_RNR_NAKS, q->rnr_naks },
        { METRIC_CAPTURE_QP_CNP_PACKETS, q->cnps },
    };
    for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++)
        put(sink, device, t, counters[i].m, label, true, zero ? 0 : (double)counters[i].v);
    if (!zero && q->dscp_seen)
        put(sink, device, t, METRIC_CAPTURE_QP_DSCP_MIN, label, false, lowest_bit(q->dscp_seen));
    if (zero || !q->cnps)
        return;
    /* what the CNPs carried: a QP's CNPs mostly carry one DSCP and one PCP */
    put(sink, device, t, METRIC_CAPTURE_QP_CNP_DSCP_MIN, label, false,
        lowest_bit(q->cnp_dscp_seen));
    put(sink, device, t, METRIC_CAPTURE_QP_CNP_DSCP_MAX, label, false,
        highest_bit(q->cnp_dscp_seen));
    unsigned tagged = q->cnp_pcp_seen & ~UNTAGGED_BIT;
    if (!tagged)
        return;
    put(sink, device, t, METRIC_CAPTURE_QP_CNP_PCP_MIN, label, false, lowest_bit(tagged));
    put(sink, device, t, METRIC_CAPTURE_QP_CNP_PCP_MAX, label, false, highest_bit(tagged));
}

static bool make_room(struct pcap_qps *p, uint32_t nflows)
{
    if (nflows <= p->cap)
        return true;
    uint32_t cap = p->cap ? p->cap : 256;
    while (cap < nflows)
        cap *= 2;
    int16_t *grown = realloc(p->label, cap * sizeof(*grown));
    if (!grown) {
        p->nomem = true;
        return false;
    }
    memset(grown + p->cap, 0, (cap - p->cap) * sizeof(*grown));
    p->label = grown;
    p->cap = cap;
    return true;
}

void pcap_qps_put(struct pcap_qps *p, const struct qp_tracker *t, const struct dcb_sink *sink,
                  const char *device, int64_t ts, int64_t first_ns, int64_t shift_ns)
{
    if (!make_room(p, t->nflows))
        return;
    p->unlisted = 0;
    for (uint32_t i = 0; i < t->nflows; i++) {
        const struct qp_flow *q = &t->flows[i];
        if (!p->label[i] && judged(q)) {
            if (p->n == PCAP_QPS_MAX) {
                p->unlisted++;
                continue;
            }
            p->flow_of[p->n] = i;
            p->label[i] = (int16_t)++p->n;
            put_qp(sink, device, first_ns + shift_ns, q, p->label[i] - 1, true);
        }
        if (p->label[i])
            put_qp(sink, device, ts + shift_ns, q, p->label[i] - 1, false);
    }
}

long pcap_qps_flow(const struct pcap_qps *p, int label)
{
    return label >= 0 && label < p->n ? (long)p->flow_of[label] : -1;
}

int pcap_qps_label(const struct pcap_qps *p, uint32_t flow)
{
    return flow < p->cap && p->label[flow] ? p->label[flow] - 1 : -1;
}

void pcap_qps_free(struct pcap_qps *p)
{
    free(p->label);
    p->label = NULL;
    p->cap = 0;
    p->n = 0;
}
