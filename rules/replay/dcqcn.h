/* DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015), the
 * reaction point (RP) of one QP and the notification point's (NP) CNP pacing, as the replay
 * engine runs them. Pure functions of the state and the time: the unit tests drive an RP through
 * scripted CNPs and timers and compare Rc, Rt and alpha with values worked out by hand.
 *
 * The RP, per the paper's Algorithm 1 and the fluid model of its section 5:
 *   on a CNP (at most one cut per rate_reduce_period):
 *       Rt = Rc;  Rc = max(Rc * (1 - alpha / 2), Rc * min_dec, min_rate);  alpha = (1-g) alpha + g
 *       and the increase counters (timer T_cnt, byte BC) restart. mlx5's rpg_gd scales the cut
 *       (alpha_cut: 1/2 above, 2^(10 - gd) for alpha in 1/1024 and the cut in 1/2^gd), and with
 *       clamp_tgt_rate 0 a cut sets Rt = Rc only when the rate rose since the last cut (the
 *       first cut included), so back-to-back cuts recover towards the rate before them;
 *   every alpha_period without a CNP:  alpha = (1-g) alpha. When that timer starts is the
 *       presets' difference: the paper's runs from the flow's start (alpha decays from 1 before
 *       any CNP), mlx5 sets alpha to initial_alpha at the first CNP and starts it then;
 *   every T (timer) and every B bytes sent (byte counter), one increase event; the first F
 *   after a cut are fast recovery, then additive, and hyper once both counters are past F:
 *       max(T_cnt, BC) <= F            fast recovery:   Rc = (Rt + Rc) / 2
 *       min(T_cnt, BC) > F             hyper increase:  Rt += i * R_HAI (i = min - F), then fast
 *       otherwise                      additive:        Rt += R_AI, then fast
 *   (the counters count the events, this one included); rates are capped at the line rate,
 *   line_bps, which is also rpg_max_rate when that is lower.
 * The NP answers CE-marked packets with at most one CNP per cnp_interval: the paper's NP sends
 * one in each window of the interval (from the first CNP on) in which a marked packet arrived,
 * at the first such packet; mlx5's sends none for marks that come within the interval after
 * the last CNP. nic.c runs both on its events (CNPs, the timer, bytes sent, marked packets).
 * mlx5 firmware differs in its defaults (presets below) and names: the hosts' nic.dcqcn.* knobs
 * carry them, and flow_params() in topo.c lays them over a preset. */
#ifndef DCB_DCQCN_H
#define DCB_DCQCN_H

#include <stdbool.h>
#include <stdint.h>

struct dcqcn_params {
    double line_bps;
    double g; /* alpha gain, 0..1 */
    double initial_alpha;
    int64_t alpha_period_ns; /* alpha decays when no CNP came for this long */
    int64_t timer_ns;        /* T: time between increase events */
    uint64_t byte_counter;   /* B: bytes between increase events */
    unsigned fast_steps;     /* F */
    double ai_bps, hai_bps;  /* R_AI, R_HAI */
    double min_bps;
    double first_cnp_bps;          /* rate on the first CNP; 0: cut from the line rate as usual */
    double min_dec;                /* Rc never drops below Rc * min_dec in one cut (0..1) */
    double alpha_cut;              /* a cut takes Rc * alpha * alpha_cut (1/2; rpg_gd) */
    bool clamp_target;             /* every cut sets Rt = Rc (the paper's; clamp_tgt_rate 1),
                                      not only one after an increase */
    int64_t rate_reduce_period_ns; /* at most one cut per period; 0: every CNP cuts */
    int64_t cnp_interval_ns;       /* NP: at most one CNP per QP per interval */
    bool cnp_per_window;           /* NP: one CNP in each interval-long window that saw a mark
                                      (the paper's), not none for marks within the interval after
                                      the last CNP (mlx5's) */
    bool alpha_from_start;         /* alpha's timer runs from the flow's start (the paper's), not
                                      from the first CNP, which sets initial_alpha (mlx5's) */
};

/* The DCQCN paper's parameters at line_bps (its 40G evaluation: g 1/256, T 55 us, B 10 MB, F 5,
 * R_AI 40 Mb/s, R_HAI 200 Mb/s, a CNP window of 50 us, alpha period 55 us from the flow's
 * start, alpha 1 at the start). */
void dcqcn_params_paper(struct dcqcn_params *p, double line_bps);
/* ConnectX firmware defaults (docs/rules-references.md#nvidia-dcqcn: dce_tcp_g 1019/1024, T 300 us,
 * B 32767 B, F 1, R_AI 5 Mb/s, R_HAI 50 Mb/s, min_dec 50 %, monitor period 4 us, CNPs 4 us
 * apart, alpha period 1 us, initial alpha 1023/1024 at the first CNP). */
void dcqcn_params_mlx5(struct dcqcn_params *p, double line_bps);

struct dcqcn_rp {
    double rc, rt, alpha;
    unsigned t_cnt, b_cnt; /* increase events since the last cut */
    uint64_t bytes;        /* sent since the last byte-counter event */
    bool cut_once;         /* a CNP has been handled */
    int64_t last_cut_ns;
    int64_t alpha_at_ns; /* the alpha timer's last start: its start, the last CNP, or
                            the last period it ran */
    uint64_t cnps, cuts, increases;
};

/* The flow starts at start_ns: line rate, alpha at its initial value, its timer running from
 * here when the parameters say so. */
void dcqcn_rp_init(struct dcqcn_rp *rp, const struct dcqcn_params *p, int64_t start_ns);
/* A CNP arrived at now: alpha's timer catches up, then true when it cut the rate (false
 * inside rate_reduce_period). */
bool dcqcn_rp_on_cnp(struct dcqcn_rp *rp, const struct dcqcn_params *p, int64_t now_ns);
/* The alpha timer up to now: alpha decays once for each whole period since the timer last
 * started without a CNP in it. Lazy: the engine runs it when alpha is next read (at a CNP). */
void dcqcn_rp_on_alpha_timer(struct dcqcn_rp *rp, const struct dcqcn_params *p, int64_t now_ns);
/* The increase timer T fired. */
void dcqcn_rp_on_timer(struct dcqcn_rp *rp, const struct dcqcn_params *p);
/* bytes were sent; runs the byte-counter increase events they complete. */
void dcqcn_rp_on_sent(struct dcqcn_rp *rp, const struct dcqcn_params *p, uint64_t bytes);

#endif
