#include "headroom.h"

#include <inttypes.h>
#include <stdio.h>

#include "pause_time.h"
#include "units.h"

#define PS_PER_NS 1000u
#define PS_PER_SEC_X8 8000000000000ULL /* bytes = ps * bps / (1e12 * 8) */

/* One-way propagation, ps per metre: the usual 5 ns/m for fibre and copper alike. SONiC's
 * headroom script uses 1.98e8 m/s (5.05 ns/m) for any cable (docs/rules-references.md
 * #sonic-buffers). No source at hand gives twinax its own figure, so DAC keeps 5 ns/m: a true
 * DAC is no slower, so headroom is never short by it. */
static const uint32_t propagation_ps_per_m[] = {
    [CABLE_FIBER] = 5000,
    [CABLE_DAC] = 5000,
};

/* The longest a PAUSE/PFC receiver may keep transmitting after the frame arrives, in pause
 * quanta: IEEE 802.3 31B.3.7 as tabulated in SONiC cfgmgr/buffer_headroom_mellanox.lua
 * (docs/rules-references.md#pause #sonic-buffers). 802.3 lists no 800G row; SONiC reuses
 * 400G's. */
static const struct {
    uint64_t bps;
    uint32_t quanta;
} peer_response[] = {
    { 100000000ULL, 1 },      { 1000000000ULL, 2 },     { 10000000000ULL, 67 },
    { 25000000000ULL, 80 },   { 40000000000ULL, 118 },  { 50000000000ULL, 147 },
    { 100000000000ULL, 394 }, { 200000000000ULL, 453 }, { 400000000000ULL, 905 },
    { 800000000000ULL, 905 },
};

/* A PFC frame is a minimum frame: 64 B, plus 8 B preamble/SFD and a 12 B inter-frame gap. */
#define PFC_FRAME_WIRE_BYTES (64u + 8u + 12u)

const char *headroom_formula_name(enum headroom_formula f)
{
    return f == HEADROOM_FORMULA_SIMPLE ? "simple" : "full";
}

const char *cable_medium_name(enum cable_medium m)
{
    return m == CABLE_DAC ? "dac" : "fiber";
}

uint32_t cable_propagation_ps_per_m(enum cable_medium m)
{
    return m == CABLE_DAC ? propagation_ps_per_m[CABLE_DAC] : propagation_ps_per_m[CABLE_FIBER];
}

uint32_t pfc_peer_response_quanta(uint64_t link_bps)
{
    size_t n = sizeof(peer_response) / sizeof(peer_response[0]);
    for (size_t i = 0; i < n; i++)
        if (link_bps <= peer_response[i].bps)
            return peer_response[i].quanta;
    return peer_response[n - 1].quanta;
}

static uint64_t ceil_div128(unsigned __int128 num, uint64_t den)
{
    unsigned __int128 q = (num + den - 1) / den;
    return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

/* Bytes a link_bps sender puts on the wire in ps picoseconds, rounded up. */
static uint64_t bytes_in_ps(uint64_t ps, uint64_t link_bps)
{
    return ceil_div128((unsigned __int128)ps * link_bps, PS_PER_SEC_X8);
}

static struct headroom_term *add_term(struct headroom *h, enum headroom_term_id id,
                                      const char *name, uint64_t bytes)
{
    struct headroom_term *t = &h->term[id];
    t->name = name;
    t->bytes = bytes;
    t->how[0] = '\0';
    h->nterms = (size_t)id + 1;
    return t;
}

static void fill_simple(const struct headroom_input *in, struct headroom *h, const char *speed)
{
    char len[DCB_UNIT_BUF], prop[DCB_UNIT_BUF], dur[DCB_UNIT_BUF];
    uint64_t cable_ps = ceil_div128((unsigned __int128)2 * in->cable_mm * h->propagation_ps_per_m,
                                    1000);
    struct headroom_term *t = add_term(h, HR_CABLE_RTT, "cable_rtt",
                                       bytes_in_ps(cable_ps, in->link_bps));
    snprintf(t->how, sizeof(t->how), "2 x %s x %s/m (%s) = %s of data at %s",
             dcb_fmt_length(in->cable_mm, len, sizeof(len)),
             dcb_fmt_duration_ns(h->propagation_ps_per_m / 1000.0, prop, sizeof(prop)),
             cable_medium_name(in->medium),
             dcb_fmt_duration_ns(cable_ps / 1000.0, dur, sizeof(dur)), speed);

    t = add_term(h, HR_LOCAL_RESPONSE, "local_response",
                 bytes_in_ps(in->response_ns * PS_PER_NS, in->link_bps));
    snprintf(t->how, sizeof(t->how), "%s from crossing XOFF to sending PFC, at %s",
             dcb_fmt_duration_ns((double)in->response_ns, dur, sizeof(dur)), speed);

    t = add_term(h, HR_MTU, "mtu", in->mtu);
    snprintf(t->how, sizeof(t->how),
             "one %" PRIu64 " B frame the sender has started is finished, not stopped", in->mtu);
}

static void fill_full_extras(const struct headroom_input *in, struct headroom *h, const char *speed)
{
    struct headroom_term *t = add_term(h, HR_PFC_FRAME, "pfc_frame", PFC_FRAME_WIRE_BYTES);
    snprintf(t->how, sizeof(t->how),
             "the PFC frame's own %u bit times: 64 B + 8 B preamble + 12 B gap",
             PFC_FRAME_WIRE_BYTES * 8u);

    h->peer_quanta = pfc_peer_response_quanta(in->link_bps);
    t = add_term(h, HR_PEER_RESPONSE, "peer_response",
                 (uint64_t)h->peer_quanta * PAUSE_QUANTUM_BITS / 8);
    snprintf(t->how, sizeof(t->how),
             "%" PRIu32 " quanta x 512 bit times the peer may take to obey (IEEE 802.3 31B, %s)",
             h->peer_quanta, speed);

    t = add_term(h, HR_MTU_PEER, "mtu_peer", in->mtu);
    snprintf(t->how, sizeof(t->how),
             "one %" PRIu64 " B frame the receiver is sending holds its PFC frame back", in->mtu);
}

int headroom_required(const struct headroom_input *in, struct headroom *out, struct dcb_err *err)
{
    if (in->link_bps == 0)
        return dcb_err_set(err, DCB_E_INVAL, "link speed must be above zero");
    if (in->mtu == 0)
        return dcb_err_set(err, DCB_E_INVAL, "MTU must be above zero");
    *out = (struct headroom){ .propagation_ps_per_m = cable_propagation_ps_per_m(in->medium) };
    char speed[DCB_UNIT_BUF];
    dcb_fmt_speed(in->link_bps, speed, sizeof(speed));

    fill_simple(in, out, speed);
    if (in->formula != HEADROOM_FORMULA_SIMPLE)
        fill_full_extras(in, out, speed);

    unsigned __int128 total = 0;
    for (size_t i = 0; i < out->nterms; i++) {
        if (out->term[i].bytes == UINT64_MAX)
            return dcb_err_set(err, DCB_E_RANGE, "%s is too large to compute", out->term[i].name);
        total += out->term[i].bytes;
    }
    if (total > UINT64_MAX)
        return dcb_err_set(err, DCB_E_RANGE, "headroom is too large to compute");
    out->total = (uint64_t)total;
    return 0;
}

/* ---- thresholds ----------------------------------------------------------------------------- */

/* Kmin = one BDP, Kmax = 15 BDPs: the starting values published for 400G and 800G RoCE fabrics
 * (min_th 100/200 KB, max_th 1.5/3 MB) are exactly that at a 2 us base RTT. The DCQCN paper's
 * 40G testbed values (Zhu et al., SIGCOMM 2015, Kmin 5 KB, Kmax 200 KB) are the same order at
 * 40G (10 KB, 150 KB) (docs/rules-references.md#dcqcn; docs/calc.md). */
int threshold_plan(const struct threshold_plan_input *in, struct threshold_plan *out,
                   struct dcb_err *err)
{
    if (in->link_bps == 0 || in->buffer_bytes == 0 || in->ports == 0)
        return dcb_err_set(err, DCB_E_INVAL, "link speed, buffer and ports must be above zero");
    if (in->lossless_prios == 0 || in->lossless_prios > 8)
        return dcb_err_set(err, DCB_E_INVAL, "lossless priorities must be 1 to 8");
    *out = (struct threshold_plan){ 0 };
    char speed[DCB_UNIT_BUF], buf[DCB_UNIT_BUF], bdp_text[DCB_UNIT_BUF];
    dcb_fmt_speed(in->link_bps, speed, sizeof(speed));
    uint64_t rtt_ns = in->base_rtt_ns ? in->base_rtt_ns : THRESH_BASE_RTT_NS_DEFAULT;

    uint64_t pgs = (uint64_t)in->ports * in->lossless_prios;
    uint64_t xoff = in->buffer_bytes / pgs;
    /* Marking starts once the queue holds one bandwidth-delay product: less and DCQCN cuts
     * rates a full queue never needed; more and the queue the flows keep grows with speed
     * anyway. At 2 us this is 100 KB at 400G and 200 KB at 800G. */
    unsigned __int128 bdp128 = (unsigned __int128)in->link_bps * rtt_ns;
    bdp128 = (bdp128 + 8000000000ULL - 1) / 8000000000ULL;
    if (bdp128 > UINT64_MAX / THRESH_KMAX_PER_KMIN)
        return dcb_err_set(err, DCB_E_RANGE, "link speed x base RTT is too large to compute");
    uint64_t bdp = (uint64_t)bdp128;
    uint64_t kmax_want = bdp * THRESH_KMAX_PER_KMIN;
    /* (H) leave the top quarter below XOFF to the all-marked region, so ECN has acted on every
     * packet before PFC fires. */
    uint64_t kmax_cap = xoff - xoff / 4;
    uint64_t kmax = kmax_want, kmin = bdp;
    if (kmax_want > kmax_cap) {
        kmax = kmax_cap;
        out->clamped = true;
        if (kmin >= kmax) {
            kmin = kmax / 2;
            out->kmin_below_bdp = true;
        }
    }
    out->bdp_bytes = bdp;
    out->v = (struct threshold_values){ .xon = kmin / 2, .kmin = kmin, .kmax = kmax, .xoff = xoff };
    if (out->v.xon == 0 || !threshold_order_ok(&out->v, NULL))
        return dcb_err_set(err, DCB_E_RANGE,
                           "%s of buffer over %" PRIu64 " lossless PGs leaves no room for "
                           "XON < Kmin < Kmax < XOFF",
                           dcb_fmt_bytes(in->buffer_bytes, buf, sizeof(buf)), pgs);

    snprintf(out->why_xoff, sizeof(out->why_xoff),
             "the buffer shared evenly: %s / (%" PRIu32 " ports x %" PRIu32
             " lossless prio%s), the most one PG can hold when all are congested",
             dcb_fmt_bytes(in->buffer_bytes, buf, sizeof(buf)), in->ports, in->lossless_prios,
             in->lossless_prios == 1 ? "" : "s");
    dcb_fmt_bytes(bdp, bdp_text, sizeof(bdp_text));
    if (out->kmin_below_bdp)
        snprintf(out->why_kmin, sizeof(out->why_kmin),
                 "half of Kmax: one BDP (%s at %s x %" PRIu64 " ns) does not fit under 3/4 of "
                 "XOFF, so PFC will act before ECN",
                 bdp_text, speed, rtt_ns);
    else
        snprintf(out->why_kmin, sizeof(out->why_kmin),
                 "one bandwidth-delay product: %s x %" PRIu64 " ns base RTT", speed, rtt_ns);
    if (out->clamped)
        snprintf(out->why_kmax, sizeof(out->why_kmax),
                 "%d x Kmin would be %s; capped at 3/4 of XOFF so all packets are marked "
                 "before PFC",
                 THRESH_KMAX_PER_KMIN, dcb_fmt_bytes(kmax_want, buf, sizeof(buf)));
    else
        snprintf(out->why_kmax, sizeof(out->why_kmax),
                 "%d x Kmin (a wide marking ramp), below 3/4 of XOFF", THRESH_KMAX_PER_KMIN);
    snprintf(out->why_xon, sizeof(out->why_xon),
             "half of Kmin: senders resume only once the queue is below the marking region");
    return 0;
}

bool threshold_order_ok(const struct threshold_values *t, const char **why)
{
    const char *bad = NULL;
    if (t->xon >= t->kmin)
        bad = "XON >= Kmin";
    else if (t->kmin >= t->kmax)
        bad = "Kmin >= Kmax";
    else if (t->kmax >= t->xoff)
        bad = "Kmax >= XOFF";
    if (why)
        *why = bad;
    return bad == NULL;
}
