/* The capture source's per-QP series (capture.qp_*): which QPs get them and under which number.
 * A QP gets them once its flow shows something a rule judges per QP (CE marks, not-ECT data,
 * NAKs, RNR NAKs, CNPs sent to it), numbered in that order from 0 (its qp label); at most
 * PCAP_QPS_MAX do, so that a capture of many troubled QPs stays bounded: the rest are counted
 * (capture.qp_unlisted). A QP's counters start with a zero at the capture's first frame. */
#ifndef DCB_SOURCE_PCAP_QPS_H
#define DCB_SOURCE_PCAP_QPS_H

#include <stdbool.h>
#include <stdint.h>

#include "qp_track.h"
#include "source.h"

#define PCAP_QPS_MAX 4096 /* a qp label stays below 4096, as imports take it */

struct pcap_qps {
    int16_t *label; /* per tracker flow: its label + 1, 0 for none */
    uint32_t cap;
    uint32_t flow_of[PCAP_QPS_MAX]; /* per label: the tracker flow */
    int n;
    uint64_t unlisted; /* flows that would have had series beyond the cap */
    bool nomem;
};

/* The per-QP samples at capture time ts (the sink's time is ts + shift), labelling the QPs that
 * now have something to judge; first_ns is the capture's first frame (their zeros). */
void pcap_qps_put(struct pcap_qps *p, const struct qp_tracker *t, const struct dcb_sink *sink,
                  const char *device, int64_t ts, int64_t first_ns, int64_t shift_ns);
/* The tracker flow of a label, or -1; the label of a flow, or -1. */
long pcap_qps_flow(const struct pcap_qps *p, int label);
int pcap_qps_label(const struct pcap_qps *p, uint32_t flow);
void pcap_qps_free(struct pcap_qps *p);

#endif
