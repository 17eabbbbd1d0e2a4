/* dcbkit analyze: the RoCE flow and CNP sections. Text lists the busiest --top flows; JSON
 * lists them all. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze.h"
#include "units.h"

static char *rate_str(double bps, char *buf, size_t len)
{
    static const char *const units[] = { "b/s", "kb/s", "Mb/s", "Gb/s", "Tb/s" };
    unsigned u = 0;
    while (bps >= 1000 && u < 4) {
        bps /= 1000;
        u++;
    }
    snprintf(buf, len, "%.*f %s", u ? 1 : 0, bps, units[u]);
    return buf;
}

static void print_key(struct dcb_out *o, const char *key, const struct qp_flow *q)
{
    char src[46], dst[46];
    out_obj_open(o, key);
    out_str(o, "src_ip", NULL, track_ip_str(q->ipver, q->src, src));
    out_str(o, "dst_ip", NULL, track_ip_str(q->ipver, q->dst, dst));
    out_u64(o, "dqpn", NULL, q->dqpn);
    out_obj_close(o);
}

static void print_opcodes(struct dcb_out *o, const struct qp_flow *q)
{
    out_text(o, "      opcodes:");
    out_arr_open(o, "opcodes");
    for (uint8_t i = 0; i < q->nops; i++) {
        out_obj_open(o, NULL);
        out_u64(o, "opcode", NULL, q->op_code[i]);
        out_str(o, "name", " %s", dcb_bth_opcode_name(q->op_code[i]));
        out_u64(o, "packets", " x%" PRIu64 ";", q->op_packets[i]);
        out_obj_close(o);
    }
    out_arr_close(o);
    out_u64(o, "opcodes_other", q->ops_other ? " other x%" PRIu64 : NULL, q->ops_other);
    out_text(o, "\n");
}

static void print_latency(struct dcb_out *o, struct qp_flow *q)
{
    uint64_t median, max;
    if (!qp_flow_latency(q, &median, &max)) {
        out_null(o, "cnp_latency_ns", NULL);
        return;
    }
    char m[DCB_UNIT_BUF], x[DCB_UNIT_BUF];
    out_obj_open(o, "cnp_latency_ns");
    out_u64(o, "count", "      CE->CNP reaction: %" PRIu64 " samples", q->lat_count);
    out_u64(o, "median", NULL, median);
    out_u64(o, "max", NULL, max);
    out_bool(o, "median_exact", NULL, q->nlat == q->lat_count);
    out_text(o, ", median %s, max %s\n", dcb_fmt_duration_ns((double)median, m, sizeof(m)),
             dcb_fmt_duration_ns((double)max, x, sizeof(x)));
    out_obj_close(o);
}

static void print_flow(struct dcb_out *o, struct analysis *a, struct qp_flow *q)
{
    char src[46], dst[46], bytes[DCB_UNIT_BUF], rate[DCB_UNIT_BUF];
    out_obj_open(o, NULL);
    out_str(o, "src_ip", "  %s", track_ip_str(q->ipver, q->src, src));
    out_str(o, "dst_ip", " -> %s", track_ip_str(q->ipver, q->dst, dst));
    out_u64(o, "dqpn", " QP 0x%" PRIx64 ":", q->dqpn);
    /* the number a finding about this flow names it by (none without per-QP series) */
    int qp = a->src ? dcb_source_pcap_flow_qp(a->src, (uint32_t)(q - a->t->qps.flows)) : -1;
    if (qp >= 0)
        out_i64(o, "qp", NULL, qp);
    else
        out_null(o, "qp", NULL);
    out_u64(o, "packets", " %" PRIu64 " pkts", q->packets);
    out_u64(o, "bytes", NULL, q->bytes);
    out_text(o, " %s", dcb_fmt_bytes(q->bytes, bytes, sizeof(bytes)));
    out_i64(o, "first_ns", NULL, q->first_ns);
    out_i64(o, "last_ns", NULL, q->last_ns);
    int64_t dur = q->last_ns - q->first_ns;
    out_i64(o, "duration_ns", NULL, dur);
    /* text: the PSN part only for flows that carry data (not for ACK/CNP-only return flows) */
    bool data = q->data_packets > 0 || out_is_json(o);
    out_u64(o, "goodput_bytes", NULL, q->goodput_bytes);
    if (dur > 0) {
        double bps = (double)q->goodput_bytes * 8e9 / (double)dur;
        out_dbl(o, "goodput_bps", NULL, bps);
        if (data)
            out_text(o, ", goodput %s", rate_str(bps, rate, sizeof(rate)));
    } else {
        out_null(o, "goodput_bps", NULL);
    }
    out_u64(o, "data_packets", NULL, q->data_packets);
    out_u64(o, "psn_gaps", data ? "; PSN gaps %" PRIu64 : NULL, q->psn_gaps);
    out_u64(o, "psn_missing", data ? " (%" PRIu64 " missing)" : NULL, q->psn_missing);
    out_u64(o, "duplicates", data ? ", dup %" PRIu64 : NULL, q->duplicates);
    out_u64(o, "retransmit_episodes", data ? ", retx %" PRIu64 : NULL, q->retransmit_episodes);
    out_u64(o, "retransmitted_packets", data ? " (%" PRIu64 " pkts)" : NULL,
            q->retransmitted_packets);
    out_u64(o, "acks", "; ACK %" PRIu64, q->acks);
    out_u64(o, "naks", " NAK %" PRIu64, q->naks);
    out_u64(o, "rnr_naks", " RNR %" PRIu64, q->rnr_naks);
    out_u64(o, "bad_icrc", q->bad_icrc ? "; bad ICRC %" PRIu64 : NULL, q->bad_icrc);
    out_u64(o, "ce_packets", "; CE %" PRIu64, q->ecn[3]);
    out_dbl(o, "ce_fraction", " (%.2f%%)",
            q->packets ? (double)q->ecn[3] / (double)q->packets * (out_is_json(o) ? 1 : 100) : 0);
    out_obj_open(o, "ecn");
    out_u64(o, "not_ect", NULL, q->ecn[0]);
    out_u64(o, "ect1", NULL, q->ecn[1]);
    out_u64(o, "ect0", NULL, q->ecn[2]);
    out_u64(o, "ce", NULL, q->ecn[3]);
    out_obj_close(o);
    out_u64(o, "non_ect_packets", q->non_ect_data ? ", not-ECT %" PRIu64 : NULL, q->non_ect_data);
    out_text(o, "; DSCP ");
    analyze_print_bits(o, "dscp", q->dscp_seen, 64);
    char mask[64];
    out_text(o, "%s PCP %s", analyze_mask_str(q->dscp_seen, 64, mask, sizeof(mask)),
             q->pcp_seen & 0xff ? "" : "untagged");
    analyze_print_bits(o, "pcp", q->pcp_seen & 0xff, 8);
    out_bool(o, "untagged", NULL, q->pcp_seen & 0x100);
    if (q->pcp_seen & 0xff)
        out_text(o, "%s", analyze_mask_str(q->pcp_seen & 0xff, 8, mask, sizeof(mask)));
    out_u64(o, "cnps_received", "; CNPs back %" PRIu64 "\n", q->cnps_received);
    out_u64(o, "cnps_without_ce", NULL, q->cnps_without_ce);
    print_latency(o, q);
    print_opcodes(o, q);
    if (q->peer != QP_NONE)
        print_key(o, "peer", &a->t->qps.flows[q->peer]);
    else
        out_null(o, "peer", NULL);
    out_obj_close(o);
}

static struct analysis *sort_ctx;

static int by_bytes_desc(const void *x, const void *y)
{
    const struct qp_flow *a = &sort_ctx->t->qps.flows[*(const uint32_t *)x];
    const struct qp_flow *b = &sort_ctx->t->qps.flows[*(const uint32_t *)y];
    return (a->bytes < b->bytes) - (a->bytes > b->bytes);
}

static void print_cnps(struct dcb_out *o, struct analysis *a)
{
    double duration_s = analyze_duration_s(a);
    out_obj_open(o, "cnps");
    out_text(o, "\nCNPs\n");
    out_u64(o, "count", "  %" PRIu64 " CNPs", a->t->qps.cnps);
    out_u64(o, "unattributed", ", %" PRIu64 " not matched to a data flow\n",
            a->t->qps.cnps_unattributed);
    out_arr_open(o, "list");
    for (uint32_t i = 0; i < a->t->qps.nflows; i++) {
        const struct qp_flow *q = &a->t->qps.flows[i];
        if (!q->cnps)
            continue;
        char src[46], dst[46], mask[64];
        out_obj_open(o, NULL);
        out_str(o, "src_ip", "  %s", track_ip_str(q->ipver, q->src, src));
        out_str(o, "dst_ip", " -> %s", track_ip_str(q->ipver, q->dst, dst));
        out_u64(o, "dqpn", " QP 0x%" PRIx64 ":", q->dqpn);
        out_u64(o, "count", " %" PRIu64 " CNPs", q->cnps);
        if (duration_s > 0)
            out_dbl(o, "rate_per_s", ", %.1f/s", (double)q->cnps / duration_s);
        else
            out_null(o, "rate_per_s", NULL);
        out_text(o, ", DSCP %s", analyze_mask_str(q->cnp_dscp_seen, 64, mask, sizeof(mask)));
        analyze_print_bits(o, "dscp", q->cnp_dscp_seen, 64);
        out_text(o, " PCP %s",
                 q->cnp_pcp_seen & 0xff
                     ? analyze_mask_str(q->cnp_pcp_seen & 0xff, 8, mask, sizeof(mask))
                     : "untagged");
        analyze_print_bits(o, "pcp", q->cnp_pcp_seen & 0xff, 8);
        if (q->peer != QP_NONE) {
            const struct qp_flow *d = &a->t->qps.flows[q->peer];
            out_text(o, ", for %s -> %s QP 0x%x", track_ip_str(d->ipver, d->src, src),
                     track_ip_str(d->ipver, d->dst, dst), d->dqpn);
            print_key(o, "for_flow", d);
        } else {
            out_null(o, "for_flow", NULL);
        }
        out_text(o, "\n");
        out_obj_close(o);
    }
    out_arr_close(o);
    out_obj_close(o);
}

void analyze_print_flows(struct dcb_out *o, struct analysis *a)
{
    struct qp_tracker *t = &a->t->qps;
    out_obj_open(o, "flows");
    out_text(o, "\nRoCE flows\n");
    out_u64(o, "count", "  %" PRIu64 " QPs", (uint64_t)t->nflows);
    out_u64(o, "roce_packets", ", %" PRIu64 " RoCE packets", t->roce_packets);
    out_u64(o, "bad_icrc", t->bad_icrc ? ", %" PRIu64 " with a bad ICRC (corrupt)" : NULL,
            t->bad_icrc);
    out_u64(o, "max_qps", NULL, t->max_qps);
    out_u64(o, "untracked_packets",
            t->untracked_packets ? ", %" PRIu64 " packets beyond "
                                   "--max-qps"
                                 : NULL,
            t->untracked_packets);
    out_u64(o, "untracked_bytes", NULL, t->untracked_bytes);
    out_u64(o, "latencies_dropped", NULL, t->latencies_dropped);
    out_text(o, "\n");
    uint32_t *order = malloc((t->nflows ? t->nflows : 1) * sizeof(*order));
    uint32_t n = t->nflows;
    if (!order)
        n = 0; /* nothing to sort with: the section stays empty */
    for (uint32_t i = 0; i < n; i++)
        order[i] = i;
    sort_ctx = a;
    if (!out_is_json(o) && n)
        qsort(order, n, sizeof(*order), by_bytes_desc);
    uint32_t shown = out_is_json(o) || a->opt.top < 0 || (uint64_t)a->opt.top >= n
                         ? n
                         : (uint32_t)a->opt.top;
    out_arr_open(o, "list");
    for (uint32_t i = 0; i < shown; i++)
        print_flow(o, a, &t->flows[order[i]]);
    out_arr_close(o);
    if (shown < n)
        out_text(o, "  ... %u more QPs (--top N, or -T json for all)\n", n - shown);
    free(order);
    out_obj_close(o);
    print_cnps(o, a);
}
