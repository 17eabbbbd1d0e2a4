/* The DCQCN fluid model; see fluid.h. */
#include "fluid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

void fluid_model_paper(struct fluid_model *m, double line_bps, unsigned flows)
{
    memset(m, 0, sizeof(*m));
    m->line_bps = line_bps;
    m->flows = flows;
    m->wire_bytes = m->frame_bytes = 1000;
    m->kmin_bytes = 5000;
    m->kmax_bytes = 200000;
    m->pmax = 0.01;
    dcqcn_params_paper(&m->dcqcn, line_bps);
    m->delay_s = 4e-6;
}

void fluid_model_payload(struct fluid_model *m, unsigned payload)
{
    m->frame_bytes = payload + HEADER_BYTES;
    m->wire_bytes = payload + HEADER_BYTES + WIRE_OVERHEAD;
}

/* The model's parameters in its units: packets, packets per second, seconds. */
struct units {
    double c, rai, b, t, tau, tau_prime, g, f;
    double kmin, kmax, pmax; /* packets */
};

static struct units units_of(const struct fluid_model *m)
{
    double wire_bits = 8 * m->wire_bytes;
    return (struct units){
        .c = m->line_bps / wire_bits,
        .rai = m->dcqcn.ai_bps / wire_bits,
        .b = (double)m->dcqcn.byte_counter / m->frame_bytes,
        .t = (double)m->dcqcn.timer_ns * 1e-9,
        .tau = (double)m->dcqcn.cnp_interval_ns * 1e-9,
        .tau_prime = (double)m->dcqcn.alpha_period_ns * 1e-9,
        .g = m->dcqcn.g,
        .f = m->dcqcn.fast_steps,
        .kmin = m->kmin_bytes / m->frame_bytes,
        .kmax = m->kmax_bytes / m->frame_bytes,
        .pmax = m->pmax,
    };
}

static double marking(const struct units *u, double q)
{
    if (q <= u->kmin)
        return 0;
    return q <= u->kmax ? u->pmax * (q - u->kmin) / (u->kmax - u->kmin) : 1;
}

/* x / (e^x - 1), 1 at 0 */
static double x_over_expm1(double x)
{
    return x < 1e-12 ? 1 - x / 2 : x / expm1(x);
}

/* What a flow at rc (packets/s) sees at marking probability p (0 <= p < 1):
 *   cut    the probability of a CNP in a window tau, 1 - (1-p)^(tau rc): the term a;
 *   alpha  alpha's target, 1 - (1-p)^(tau' rc);
 *   ev     increase events a second: byte-counter and timer expiries without a mark in between,
 *          rc (b + d) in the paper's terms; written so that p -> 0 (rc/B + 1/T) and rc -> 0
 *          (1/T: the timer runs on) are plain limits;
 *   ev_ai  those that come after F more without a mark, rc (c + e): they raise Rt. */
struct seen {
    double cut, alpha, ev, ev_ai;
};

static struct seen seen_at(const struct units *u, double p, double rc)
{
    struct seen s = { 0, 0, 0, 0 };
    if (p >= 1) {
        s.cut = s.alpha = 1;
        return s;
    }
    double l = -log1p(-p);               /* -ln(1-p) >= 0 */
    double per_mark = p > 0 ? p / l : 1; /* p / -ln(1-p) */
    double byte_ev = rc / u->b * per_mark * x_over_expm1(u->b * l);
    double timer_ev = per_mark / u->t * x_over_expm1(u->t * rc * l);
    s.cut = -expm1(-u->tau * rc * l);
    s.alpha = -expm1(-u->tau_prime * rc * l);
    s.ev = byte_ev + timer_ev;
    s.ev_ai = byte_ev * exp(-u->f * u->b * l) + timer_ev * exp(-u->f * u->t * rc * l);
    return s;
}

/* At the fixed point dRt/dt = 0 gives Rt - Rc = tau R_AI ev_ai / cut, and dRc/dt = 0 then
 * cut^2 alpha Rc = tau^2 R_AI ev ev_ai: this residual, which rises with p. */
static double balance(const struct units *u, double p, double rc)
{
    struct seen s = seen_at(u, p, rc);
    return s.cut * s.cut * s.alpha * rc - u->tau * u->tau * u->rai * s.ev * s.ev_ai;
}

int fluid_fixed_point(const struct fluid_model *m, struct fluid_point *fp)
{
    struct units u = units_of(m);
    double rc = u.c / m->flows, wire_bits = 8 * m->wire_bytes;
    double lo = 1e-15, hi = u.pmax;
    int rc_status = 0;
    if (balance(&u, hi, rc) < 0) {
        rc_status = -1; /* p* >= pmax: pinned at Kmax */
        lo = hi;
    } else {
        for (int i = 0; i < 200 && hi / lo > 1 + 1e-12; i++) {
            double mid = sqrt(lo * hi);
            if (balance(&u, mid, rc) > 0)
                hi = mid;
            else
                lo = mid;
        }
    }
    double p = sqrt(lo * hi);
    struct seen s = seen_at(&u, p, rc);
    fp->p = p;
    fp->queue_bytes = (u.kmin + p / u.pmax * (u.kmax - u.kmin)) * m->frame_bytes;
    fp->alpha = s.alpha;
    fp->rc_bps = rc * wire_bits;
    fp->rt_bps = (rc + (s.cut > 0 ? u.tau * u.rai * s.ev_ai / s.cut : 0)) * wire_bits;
    return rc_status;
}

/* ---- integration -------------------------------------------------------------------------- */

struct flow_state {
    double rc, rt, alpha;
};

struct integrator {
    const struct units *u;
    unsigned n;
    double line; /* packets/s */
    /* the delayed inputs of one evaluation: each flow's Rc and the queue, tau* ago */
    const double *rc_then;
    double q_then;
};

/* The derivatives of the flows (by index) and the queue at state x, q. */
static void derivatives(const struct integrator *in, const struct flow_state *x, double q,
                        const bool *on, struct flow_state *dx, double *dq)
{
    const struct units *u = in->u;
    double p = marking(u, in->q_then), sum = 0;
    for (unsigned i = 0; i < in->n; i++) {
        dx[i] = (struct flow_state){ 0, 0, 0 };
        if (!on[i])
            continue;
        struct seen s = seen_at(u, p, in->rc_then[i]);
        const struct flow_state *f = &x[i];
        dx[i].rc = -f->rc * f->alpha * s.cut / (2 * u->tau) + (f->rt - f->rc) / 2 * s.ev;
        dx[i].rt = -(f->rt - f->rc) * s.cut / u->tau + u->rai * s.ev_ai;
        dx[i].alpha = u->g / u->tau_prime * (s.alpha - f->alpha);
        sum += f->rc;
    }
    *dq = sum - u->c;
    if (q <= 0 && *dq < 0)
        *dq = 0;
}

static void advance(const struct flow_state *x, double q, const struct flow_state *dx, double dq,
                    double h, unsigned n, struct flow_state *out, double *q_out)
{
    for (unsigned i = 0; i < n; i++) {
        out[i].rc = x[i].rc + h * dx[i].rc;
        out[i].rt = x[i].rt + h * dx[i].rt;
        out[i].alpha = x[i].alpha + h * dx[i].alpha;
    }
    *q_out = q + h * dq;
}

int fluid_integrate(const struct fluid_model *m, const double *start_s, double until_s,
                    double step_s, fluid_step_fn each, void *arg)
{
    struct units u = units_of(m);
    unsigned n = m->flows;
    size_t lag = (size_t)llround(m->delay_s / step_s);
    if (lag < 1)
        lag = 1;
    /* history: Rc of every flow and q at each of the last lag + 1 steps, a ring */
    size_t ring = lag + 1;
    double *hist_rc = calloc(ring * n, sizeof(double)), *hist_q = calloc(ring, sizeof(double));
    struct flow_state *x = calloc(n, sizeof(*x)), *k = calloc(4 * (size_t)n, sizeof(*k));
    struct flow_state *tmp = calloc(n, sizeof(*tmp));
    double *rc_mid = calloc(n, sizeof(double)), *rc_out = calloc(n, sizeof(double));
    bool *on = calloc(n, sizeof(bool));
    int rc_status = 0;
    if (!hist_rc || !hist_q || !x || !k || !tmp || !rc_mid || !rc_out || !on) {
        rc_status = -1;
        goto out;
    }
    double q = 0, kq[4], wire_bits = 8 * m->wire_bytes;
    struct integrator in = { &u, n, m->line_bps / wire_bits, NULL, 0 };
    size_t steps = (size_t)llround(until_s / step_s);
    for (size_t step = 0; step < steps; step++) {
        double t = (double)step * step_s;
        for (unsigned i = 0; i < n; i++)
            if (!on[i] && (!start_s || start_s[i] <= t)) {
                on[i] = true;
                x[i] = (struct flow_state){ in.line, in.line, 1 };
            }
        /* tau* ago: the oldest entry of the ring (lag steps back) and the one after it */
        const double *rc_old = &hist_rc[(step % ring) * n];
        const double *rc_new = &hist_rc[((step + 1) % ring) * n];
        double q_old = hist_q[step % ring], q_new = hist_q[(step + 1) % ring];
        for (unsigned i = 0; i < n; i++)
            rc_mid[i] = (rc_old[i] + rc_new[i]) / 2;
        double q_mid = (q_old + q_new) / 2, qs;
        in.rc_then = rc_old;
        in.q_then = q_old;
        derivatives(&in, x, q, on, &k[0], &kq[0]);
        in.rc_then = rc_mid;
        in.q_then = q_mid;
        advance(x, q, &k[0], kq[0], step_s / 2, n, tmp, &qs);
        derivatives(&in, tmp, qs, on, &k[n], &kq[1]);
        advance(x, q, &k[n], kq[1], step_s / 2, n, tmp, &qs);
        derivatives(&in, tmp, qs, on, &k[2 * n], &kq[2]);
        in.rc_then = rc_new;
        in.q_then = q_new;
        advance(x, q, &k[2 * n], kq[2], step_s, n, tmp, &qs);
        derivatives(&in, tmp, qs, on, &k[3 * n], &kq[3]);
        for (unsigned i = 0; i < n; i++) {
            if (!on[i])
                continue;
            struct flow_state *f = &x[i];
            f->rc += step_s / 6 *
                     (k[i].rc + 2 * k[n + i].rc + 2 * k[2 * n + i].rc + k[3 * n + i].rc);
            f->rt += step_s / 6 *
                     (k[i].rt + 2 * k[n + i].rt + 2 * k[2 * n + i].rt + k[3 * n + i].rt);
            f->alpha += step_s / 6 *
                        (k[i].alpha + 2 * k[n + i].alpha + 2 * k[2 * n + i].alpha +
                         k[3 * n + i].alpha);
            f->rc = f->rc > in.line ? in.line : f->rc < 0 ? 0 : f->rc; /* rates stay within */
            f->rt = f->rt > in.line ? in.line : f->rt;                 /* the line rate */
        }
        q += step_s / 6 * (kq[0] + 2 * kq[1] + 2 * kq[2] + kq[3]);
        if (q < 0)
            q = 0;
        /* the ring's oldest slot becomes the newest */
        double *slot = &hist_rc[(step % ring) * n];
        for (unsigned i = 0; i < n; i++) {
            slot[i] = x[i].rc;
            rc_out[i] = x[i].rc * wire_bits;
        }
        hist_q[step % ring] = q;
        if (each)
            each(arg, t + step_s, rc_out, q * m->frame_bytes);
    }
out:
    free(hist_rc);
    free(hist_q);
    free(x);
    free(k);
    free(tmp);
    free(rc_mid);
    free(rc_out);
    free(on);
    return rc_status;
}
