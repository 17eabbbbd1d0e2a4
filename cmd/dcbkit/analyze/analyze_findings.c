/* What the trackers' records mean for the operator: the findings of dcbkit analyze. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analyze.h"
#include "units.h"

const char *analyze_severity_name(enum analyze_severity s)
{
    return s == SEV_ERROR ? "error" : s == SEV_WARNING ? "warning" : "ok";
}

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

static void add(struct analysis *a, enum analyze_severity sev, const char *kind, uint64_t count,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void add(struct analysis *a, enum analyze_severity sev, const char *kind, uint64_t count,
                const char *fmt, ...)
{
    if (a->nfindings == ANALYZE_FINDINGS_MAX) {
        a->findings_dropped++;
        return;
    }
    struct analyze_finding *f = &a->findings[a->nfindings++];
    f->severity = sev;
    f->kind = kind;
    f->count = count;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->summary, sizeof(f->summary), fmt, ap);
    va_end(ap);
}

static void judge_pauses(struct analysis *a)
{
    const struct pause_tracker *p = &a->t.pauses;
    char mac[18], dur[DCB_UNIT_BUF], lossless[32];
    uint64_t lossy_frames = 0, lossy_classes = 0, pause_frames = 0;
    const struct pause_class *first_lossy = NULL, *first_pause = NULL;
    for (size_t i = 0; i < p->ncls; i++) {
        const struct pause_class *c = &p->cls[i];
        if (c->storms)
            add(a, SEV_ERROR, "pause_storm", c->storms,
                "PFC storm: %s kept priority %d paused %s by refreshed XOFFs (%" PRIu64
                " storm%s over %" PRId64 " ms); check the receiver for a stuck queue and "
                "enable the PFC watchdog", track_mac_str(c->src, mac), c->prio,
                dcb_fmt_duration_ns((double)c->longest_ns, dur, sizeof(dur)), c->storms,
                c->storms == 1 ? "" : "s", a->opt.storm_ns / 1000000);
        if (c->prio == PAUSE_PRIO_GLOBAL) {
            pause_frames += c->frames;
            if (!first_pause)
                first_pause = c;
        } else if (a->lossless_mask >= 0 && c->xoff_frames &&
                   !(a->lossless_mask & (1 << c->prio))) {
            lossy_frames += c->xoff_frames;
            lossy_classes++;
            if (!first_lossy)
                first_lossy = c;
        }
    }
    if (first_lossy)
        add(a, SEV_WARNING, "pfc_on_lossy", lossy_classes,
            "PFC XOFF on a priority that is not lossless: %s priority %d (%" PRIu64
            " XOFF frames in %" PRIu64 " class%s; lossless: %s from %s); a sender pausing a "
            "lossy class is misconfigured (prio2buffer/PFC enable)",
            track_mac_str(first_lossy->src, mac), first_lossy->prio, lossy_frames, lossy_classes,
            lossy_classes == 1 ? "" : "es",
            analyze_mask_str((unsigned)a->lossless_mask, 8, lossless, sizeof(lossless)),
            a->lossless_source);
    bool pfc_link = p->frames_pfc > 0 || a->lossless_mask > 0;
    if (first_pause && pfc_link)
        add(a, SEV_WARNING, "pause_on_pfc_link", pause_frames,
            "802.3x PAUSE on a PFC link: %" PRIu64 " frames (first from %s) stop every "
            "priority, lossy ones too; disable link-level flow control (ethtool -A rx off tx "
            "off) where PFC is on", pause_frames, track_mac_str(first_pause->src, mac));
}

struct flow_tally {
    uint64_t flows;
    uint64_t packets;
    const struct qp_flow *example;
};

static void tally(struct flow_tally *t, const struct qp_flow *q, uint64_t packets)
{
    if (!packets)
        return;
    t->flows++;
    t->packets += packets;
    if (!t->example)
        t->example = q;
}

static const char *flow_name(const struct qp_flow *q, char *buf, size_t len)
{
    char src[46], dst[46];
    snprintf(buf, len, "%s -> %s QP 0x%x", track_ip_str(q->ipver, q->src, src),
             track_ip_str(q->ipver, q->dst, dst), q->dqpn);
    return buf;
}

static void judge_flows(struct analysis *a)
{
    struct flow_tally no_cnp = { 0 }, non_ect = { 0 }, gaps = { 0 }, retx = { 0 }, naks = { 0 },
                      rnr = { 0 }, bad = { 0 };
    for (uint32_t i = 0; i < a->t.qps.nflows; i++) {
        const struct qp_flow *q = &a->t.qps.flows[i];
        tally(&no_cnp, q, q->cnps_received ? 0 : q->ecn[3]);
        tally(&non_ect, q, q->non_ect_data);
        tally(&gaps, q, q->psn_gaps);
        tally(&retx, q, q->retransmit_episodes);
        tally(&naks, q, q->naks);
        tally(&rnr, q, q->rnr_naks);
        tally(&bad, q, q->bad_icrc);
    }
    char name[140];
    if (bad.flows)
        add(a, SEV_ERROR, "bad_icrc", bad.flows,
            "Bad ICRC: %" PRIu64 " RoCE frame%s on %" PRIu64 " flow%s (%s) arrived corrupted: a "
            "link on their path flips bits (check its FCS and symbol errors; reseat or replace "
            "the cable or optic); counted as corrupt, not as CE marks, NAKs or data", bad.packets,
            bad.packets == 1 ? "" : "s", bad.flows, bad.flows == 1 ? "" : "s",
            flow_name(bad.example, name, sizeof(name)));
    if (no_cnp.flows)
        add(a, SEV_ERROR, "ce_without_cnp", no_cnp.flows,
            "CE-marked RoCE with no CNP back: %" PRIu64 " CE packets on %" PRIu64 " flow%s (%s); "
            "the receiver's notification point is off (roce_np enable_roce_np / ECN) or CNPs "
            "are lost, so DCQCN never slows the sender", no_cnp.packets, no_cnp.flows,
            no_cnp.flows == 1 ? "" : "s", flow_name(no_cnp.example, name, sizeof(name)));
    if (non_ect.flows)
        add(a, SEV_WARNING, "non_ect_roce", non_ect.flows,
            "RoCE sent not-ECT: %" PRIu64 " packets on %" PRIu64 " flow%s (%s); switches cannot "
            "mark them, so DCQCN has no signal and WRED drops instead; enable ECN on the "
            "sender (roce_rp) or check the traffic class", non_ect.packets, non_ect.flows,
            non_ect.flows == 1 ? "" : "s", flow_name(non_ect.example, name, sizeof(name)));
    if (gaps.flows)
        add(a, SEV_WARNING, "psn_gap", gaps.flows,
            "PSN gaps: %" PRIu64 " on %" PRIu64 " flow%s (%s): packets lost on the way; on a "
            "lossless class that is a drop PFC should have prevented (or the capture missed "
            "them)", gaps.packets, gaps.flows, gaps.flows == 1 ? "" : "s",
            flow_name(gaps.example, name, sizeof(name)));
    if (retx.flows)
        add(a, SEV_WARNING, "retransmit", retx.flows,
            "Go-back-N retransmissions: %" PRIu64 " episode%s on %" PRIu64 " flow%s (%s); each "
            "resends everything after the lost packet", retx.packets, retx.packets == 1 ? "" : "s",
            retx.flows, retx.flows == 1 ? "" : "s", flow_name(retx.example, name, sizeof(name)));
    if (naks.flows)
        add(a, SEV_WARNING, "nak", naks.flows,
            "NAKs: %" PRIu64 " on %" PRIu64 " flow%s (%s)", naks.packets, naks.flows,
            naks.flows == 1 ? "" : "s", flow_name(naks.example, name, sizeof(name)));
    if (rnr.flows)
        add(a, SEV_WARNING, "rnr_nak", rnr.flows,
            "RNR NAKs: %" PRIu64 " on %" PRIu64 " flow%s (%s): the receiver had no receive "
            "buffer posted; raise the receive queue depth or min_rnr_timer", rnr.packets,
            rnr.flows, rnr.flows == 1 ? "" : "s", flow_name(rnr.example, name, sizeof(name)));
    if (a->t.qps.untracked_packets)
        add(a, SEV_WARNING, "qp_table_full", a->t.qps.untracked_packets,
            "More QPs than --max-qps %u: %" PRIu64 " packets (%" PRIu64 " bytes) of later QPs "
            "were counted but not tracked per QP", a->t.qps.max_qps, a->t.qps.untracked_packets,
            a->t.qps.untracked_bytes);
}

/* A CNP whose DSCP the App table does not map, or maps to another priority than its PCP. */
static void judge_cnp_class(struct analysis *a)
{
    if (!dcbx_tracker_has_dscp_app(&a->t.dcbx))
        return;
    for (uint32_t i = 0; i < a->t.qps.nflows; i++) {
        const struct qp_flow *q = &a->t.qps.flows[i];
        for (unsigned dscp = 0; q->cnps && dscp < 64; dscp++) {
            if (!(q->cnp_dscp_seen & (1ull << dscp)))
                continue;
            int prio = dcbx_tracker_dscp_prio(&a->t.dcbx, (uint8_t)dscp);
            char name[140], pcps[32];
            unsigned tagged = q->cnp_pcp_seen & 0xff;
            if (prio < 0)
                add(a, SEV_WARNING, "cnp_class", 1,
                    "CNPs with DSCP %u, which the DCBX App table does not map: they fall into "
                    "the default priority (%s); set the CNP DSCP (roce_np cnp_dscp) to the "
                    "class meant for CNPs", dscp, flow_name(q, name, sizeof(name)));
            else if (tagged && tagged != (1u << prio))
                add(a, SEV_WARNING, "cnp_class", 1,
                    "CNPs with DSCP %u go out with PCP %s, but the DCBX App table maps DSCP %u "
                    "to priority %d (%s)", dscp, analyze_mask_str(tagged, 8, pcps, sizeof(pcps)),
                    dscp, prio, flow_name(q, name, sizeof(name)));
        }
    }
}

static void judge_dcbx(struct analysis *a)
{
    char ca[2 * DCBX_ID_MAX + 1], cb[2 * DCBX_ID_MAX + 1];
    for (size_t i = 0; i < a->t.dcbx.nlinks; i++) {
        const struct dcbx_link *l = &a->t.dcbx.links[i];
        const struct dcbx_neighbour *na = &a->t.dcbx.nb[l->a], *nb = &a->t.dcbx.nb[l->b];
        dcbx_id_str(na->chassis_subtype, false, na->chassis, na->chassis_len, ca);
        dcbx_id_str(nb->chassis_subtype, false, nb->chassis, nb->chassis_len, cb);
        if (l->mismatches) {
            char what[64] = "";
            snprintf(what, sizeof(what), "%s%s%s%s",
                     l->mismatches & DCBX_MISMATCH_VERSION ? " version(IEEE/CEE)" : "",
                     l->mismatches & DCBX_MISMATCH_PFC ? " pfc_enable" : "",
                     l->mismatches & DCBX_MISMATCH_ETS ? " ets" : "",
                     l->mismatches & DCBX_MISMATCH_APP ? " app" : "");
            add(a, SEV_ERROR, "dcbx_mismatch", 1,
                "DCBX mismatch between %.60s (%s, PFC %#04x) and %.60s (%s, PFC %#04x):%s; %s",
                ca, dcbx_protocol_name(na->cfg.protocol), na->cfg.pfc_enable, cb,
                dcbx_protocol_name(nb->cfg.protocol), nb->cfg.pfc_enable, what,
                l->mismatches & DCBX_MISMATCH_VERSION ? "the two ends speak different DCBX "
                "versions and will not negotiate: make both IEEE" :
                l->willing == 1 ? "the willing end should adopt the other's config: check it did" :
                "neither end gives way, so the mismatch persists: make the NIC willing");
        }
        if (l->willing == 2)
            add(a, SEV_WARNING, "dcbx_willing_conflict", 1,
                "Both ends willing: %.60s and %.60s each wait for the other's config, so PFC "
                "stays at its default; make the switch non-willing", ca, cb);
    }
    if (a->t.dcbx.crowded_ifaces)
        add(a, SEV_INFO, "dcbx_unpaired", a->t.dcbx.crowded_ifaces,
            "More than two DCBX neighbours on one capture interface: not compared as links");
}


void analyze_judge(struct analysis *a)
{
    a->nfindings = 0;
    if (a->opt.lossless_mask >= 0) {
        a->lossless_mask = a->opt.lossless_mask;
        a->lossless_source = "option";
    } else if (a->t.dcbx.nnb && dcbx_tracker_pfc_union(&a->t.dcbx)) {
        a->lossless_mask = dcbx_tracker_pfc_union(&a->t.dcbx);
        a->lossless_source = "dcbx";
    } else {
        a->lossless_mask = -1;
        a->lossless_source = "unknown";
    }
    judge_pauses(a);
    judge_flows(a);
    judge_cnp_class(a);
    judge_dcbx(a);
    if (a->malformed)
        add(a, SEV_INFO, "malformed", a->malformed,
            "%" PRIu64 " malformed or truncated frames (dcbkit decode -r FILE shows why)",
            a->malformed);
    /* worst first, keeping the order found within a severity */
    static struct analyze_finding sorted[ANALYZE_FINDINGS_MAX];
    unsigned n = 0;
    for (int sev = SEV_ERROR; sev >= SEV_INFO; sev--)
        for (unsigned i = 0; i < a->nfindings; i++)
            if ((int)a->findings[i].severity == sev)
                sorted[n++] = a->findings[i];
    memcpy(a->findings, sorted, n * sizeof(sorted[0]));
}

enum analyze_severity analyze_verdict(const struct analysis *a)
{
    enum analyze_severity worst = SEV_INFO;
    for (unsigned i = 0; i < a->nfindings; i++)
        if (a->findings[i].severity > worst)
            worst = a->findings[i].severity;
    return worst;
}
