/* The catalog's findings as analyze lists them: diagnose's form, the flow a QP finding names,
 * and schema 1's keys for one more version. The catalog judged; this only shows it. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analyze.h"

double analyze_duration_s(const struct analysis *a)
{
    return a->frames > 1 ? (double)(a->last_ns - a->first_ns) / 1e9 : 0;
}

char *analyze_mask_str(uint64_t mask, unsigned bits, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < bits && used < len; i++)
        if (mask & (1ull << i))
            used += (size_t)snprintf(buf + used, len - used, "%s%u", used ? "," : "", i);
    if (!used)
        snprintf(buf, len, "none");
    return buf;
}

const char *analyze_verdict(const struct analysis *a)
{
    int status = diagnose_status(a->judged);
    return status == 2 ? "crit" : status == 1 ? "warn" : "ok";
}

static const struct qp_flow *flow_of(const struct analysis *a, int qp)
{
    long i = qp >= 0 && a->src ? dcb_source_pcap_qp_flow(a->src, qp) : -1;
    return i >= 0 && (uint32_t)i < a->t->qps.nflows ? &a->t->qps.flows[i] : NULL;
}

const char *analyze_qp_name(const struct analysis *a, int qp, char *buf, size_t len)
{
    const struct qp_flow *q = flow_of(a, qp);
    char src[46], dst[46];
    if (!q)
        snprintf(buf, len, "%s", "");
    else
        snprintf(buf, len, "%s -> %s QP 0x%x", track_ip_str(q->ipver, q->src, src),
                 track_ip_str(q->ipver, q->dst, dst), q->dqpn);
    return buf;
}

static void print_flow(struct dcb_out *o, const struct analysis *a, int qp)
{
    const struct qp_flow *q = flow_of(a, qp);
    if (!q) {
        out_null(o, "flow", NULL);
        return;
    }
    char src[46], dst[46];
    out_obj_open(o, "flow");
    out_text(o, "      QP %d: ", qp);
    out_str(o, "src_ip", "%s", track_ip_str(q->ipver, q->src, src));
    out_str(o, "dst_ip", " -> %s", track_ip_str(q->ipver, q->dst, dst));
    out_u64(o, "dqpn", " QP 0x%" PRIx64 "\n", q->dqpn);
    out_obj_close(o);
}

void analyze_print_findings(struct dcb_out *o, const struct analysis *a)
{
    const struct finding_list *l = &a->judged->found;
    out_arr_open(o, "findings");
    if (l->n)
        out_text(o, "\nFindings (worst first)\n");
    for (size_t i = 0; i < l->n; i++) {
        const struct finding *f = &l->v[i];
        out_obj_open(o, NULL);
        diagnose_print_finding_body(o, f, false);
        print_flow(o, a, f->qp);
        /* schema 1's keys, kept through schema 2 (docs/analyze.md) */
        out_str(o, "kind", NULL, f->rule->id);
        out_u64(o, "count", NULL, 1);
        out_obj_close(o);
    }
    out_arr_close(o);
    if (l->nomem)
        out_text(o, "(out of memory: some findings were not kept)\n");
}
