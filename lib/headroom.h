/* The buffer formulas of a lossless priority: the PFC headroom a priority group needs
 * (`dcbkit calc headroom`; rules cfg-headroom, headroom-underprovisioned) and a threshold plan
 * that keeps XON < Kmin < Kmax < XOFF (`dcbkit calc thresholds`; rules cfg-threshold-order,
 * ecn-too-late).
 *
 * Headroom is the data that still arrives after the receiver decides to pause: everything sent
 * while the PFC frame is produced, travels and is obeyed. Each term is time x link speed, kept
 * as whole bytes rounded up; the total is their sum. */
#ifndef DCB_HEADROOM_H
#define DCB_HEADROOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

enum headroom_formula {
    HEADROOM_FORMULA_FULL = 0, /* the simple terms plus the ones it leaves out */
    HEADROOM_FORMULA_SIMPLE,   /* cable round trip + response time + one MTU, as in the
                                  background seed's worked example (100G/300m/9000 -> 84 KB) */
};

enum cable_medium {
    CABLE_FIBER = 0,
    CABLE_DAC,
};

/* The local response time when none is given: the seed's "switch pipeline delay" (2-5 us,
 * 3 us in its example). */
#define HEADROOM_DEFAULT_RESPONSE_NS 3000u

struct headroom_input {
    uint64_t link_bps;
    uint64_t cable_mm;
    enum cable_medium medium;
    uint64_t mtu;         /* bytes */
    uint64_t response_ns; /* from crossing XOFF to the PFC frame leaving */
    enum headroom_formula formula;
};

enum headroom_term_id {
    HR_CABLE_RTT, /* simple and full */
    HR_LOCAL_RESPONSE,
    HR_MTU,
    HR_PFC_FRAME, /* full only */
    HR_PEER_RESPONSE,
    HR_MTU_PEER,
    HR_TERM_COUNT,
};

#define HR_HOW_MAX 160

struct headroom_term {
    const char *name; /* stable key: "cable_rtt", "peer_response", ... */
    uint64_t bytes;
    char how[HR_HOW_MAX];
};

struct headroom {
    struct headroom_term term[HR_TERM_COUNT];
    size_t nterms;  /* 3 (simple) or 6 (full), in enum order */
    uint64_t total; /* bytes: the sum of the terms */
    uint32_t propagation_ps_per_m;
    uint32_t peer_quanta; /* 0 for the simple formula */
};

/* Fills out; 0, or DCB_E_INVAL (zero speed or MTU) / DCB_E_RANGE (a term beyond 64 bits). */
int headroom_required(const struct headroom_input *in, struct headroom *out, struct dcb_err *err);

const char *headroom_formula_name(enum headroom_formula f);
const char *cable_medium_name(enum cable_medium m);
/* Picoseconds per metre of cable, one way. */
uint32_t cable_propagation_ps_per_m(enum cable_medium m);
/* How long the peer may keep sending after a PFC frame arrives, in pause quanta (512 bit
 * times), for the next standard speed at or above link_bps. */
uint32_t pfc_peer_response_quanta(uint64_t link_bps);

/* ---- thresholds of one lossless queue ------------------------------------------------------ */

struct threshold_values {
    uint64_t xon, kmin, kmax, xoff; /* bytes */
};

struct threshold_plan_input {
    uint64_t link_bps;
    uint64_t buffer_bytes; /* shared buffer of the switch */
    uint32_t ports;
    uint32_t lossless_prios; /* 1..8 */
    uint64_t base_rtt_ns;    /* the fabric's unloaded round trip; 0: 2 us */
};

#define THRESH_BASE_RTT_NS_DEFAULT 2000
/* Kmax as a multiple of Kmin before any cap (1.5 MB over 100 KB at 400G) */
#define THRESH_KMAX_PER_KMIN 15

#define THRESH_WHY_MAX 256

struct threshold_plan {
    struct threshold_values v;
    bool clamped;        /* Kmax was capped at 3/4 of XOFF */
    bool kmin_below_bdp; /* even Kmin (one BDP) did not fit under that cap */
    uint64_t bdp_bytes;  /* link speed x base RTT */
    char why_xon[THRESH_WHY_MAX], why_kmin[THRESH_WHY_MAX], why_kmax[THRESH_WHY_MAX],
        why_xoff[THRESH_WHY_MAX];
};

/* Kmin is one bandwidth-delay product (link speed x base RTT), Kmax 15 of them, capped at 3/4
 * of XOFF; a cap never lowers Kmin, unless Kmin itself does not fit (kmin_below_bdp).
 * 0, or DCB_E_INVAL (a zero input, more than 8 priorities) / DCB_E_RANGE (a buffer too small
 * to hold four distinct thresholds). */
int threshold_plan(const struct threshold_plan_input *in, struct threshold_plan *out,
                   struct dcb_err *err);

/* True when XON < Kmin < Kmax < XOFF. Otherwise false, and *why (when why is non-NULL) names
 * the first pair out of order, such as "Kmax >= XOFF". */
bool threshold_order_ok(const struct threshold_values *t, const char **why);

#endif
