/* The DCQCN fluid model (Zhu et al., "ECN or Delay: Lessons Learnt from Analysis of DCQCN and
 * TIMELY", CoNEXT 2016, Figure 3; docs/rules-references.md#ecn-or-delay): N flows through one
 * bottleneck whose queue marks by RED, each flow with its current rate Rc, target rate Rt and
 * alpha, the marking probability p and the flows' rates seen a feedback delay tau* late. With
 * the fast-recovery factors the authors' model keeps: Rt grows by R_AI only on increase events
 * that come after F events without a mark, (1-p)^(F B) for the byte counter and (1-p)^(F T Rc)
 * for the timer.
 *
 * As in the authors' model, p is per packet and rates are in packets per second, so a packet's
 * size enters: rates count wire_bytes a packet (what pacing counts), the byte counter and the
 * queue frame_bytes. The replay engine's 1000-byte payloads are frames of 1062 bytes, 1082 on
 * the wire; the paper's unit is 1000 bytes for both.
 *
 * Two answers that must agree: the fixed point (Theorem 1), solved for p, and the model
 * integrated in time from every flow at line rate (a delay differential equation, RK4 with the
 * delayed terms from the stored history). tests/unit/test_fluid.c checks one against the other;
 * the replay engine is checked against them (test_replay, bench_replay_fixed_point). */
#ifndef DCB_REPLAY_FLUID_H
#define DCB_REPLAY_FLUID_H

#include "dcqcn.h"

struct fluid_model {
    double line_bps; /* C, the bottleneck, and each sender's line rate */
    unsigned flows;  /* N */
    double wire_bytes, frame_bytes;
    double kmin_bytes, kmax_bytes, pmax; /* RED */
    struct dcqcn_params dcqcn;           /* g, tau = cnp_interval, tau' = alpha_period, T = timer,
                                            B = byte_counter, F = fast_steps, R_AI = ai_bps */
    double delay_s; /* tau*: marks and rates are seen this late (integration) */
};

/* The paper's setting: C, N, 1000-byte packets, RED 5 KB / 200 KB / 1 %, the paper's DCQCN
 * parameters, tau* 4 us. */
void fluid_model_paper(struct fluid_model *m, double line_bps, unsigned flows);
/* Packets as the replay engine sends them: frames of payload + headers, and on the wire the
 * preamble and gap too. */
void fluid_model_payload(struct fluid_model *m, unsigned payload);

struct fluid_point {
    double p; /* marking probability */
    double queue_bytes;
    double alpha;
    double rc_bps, rt_bps; /* each flow's */
};

/* The fixed point: every flow at C/N, alpha = 1 - (1-p)^(tau' Rc), p where the Rt and Rc
 * equations balance, q on the RED line. 0, or -1 when p would reach pmax: the queue then sits
 * at Kmax (no fixed point inside the line; *fp has p = pmax, q = Kmax). */
int fluid_fixed_point(const struct fluid_model *m, struct fluid_point *fp);

/* Called after each step: the time, every flow's Rc (bits/s; 0 before it starts) and the queue. */
typedef void (*fluid_step_fn)(void *arg, double t_s, const double *rc_bps, double queue_bytes);

/* Integrates from 0 to until_s in steps of step_s. Flow i starts at start_s[i] (NULL: all at
 * 0) at line rate with alpha 1, as DCQCN flows do. 0, or -1 when out of memory. */
int fluid_integrate(const struct fluid_model *m, const double *start_s, double until_s,
                    double step_s, fluid_step_fn each, void *arg);

#endif
