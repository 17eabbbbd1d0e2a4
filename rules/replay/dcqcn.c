/* The DCQCN reaction point; see dcqcn.h. */
#include "dcqcn.h"

#include <math.h>
#include <string.h>

void dcqcn_params_paper(struct dcqcn_params *p, double line_bps)
{
    *p = (struct dcqcn_params){
        .line_bps = line_bps,
        .g = 1.0 / 256,
        .initial_alpha = 1.0,
        .alpha_period_ns = 55000,
        .timer_ns = 55000,
        .byte_counter = 10u * 1000 * 1000,
        .fast_steps = 5,
        .ai_bps = 40e6,
        .hai_bps = 200e6,
        .min_bps = 10e6,
        .first_cnp_bps = 0,
        .min_dec = 0,
        .alpha_cut = 0.5,
        .clamp_target = true,
        .rate_reduce_period_ns = 0,
        .cnp_interval_ns = 50000,
        .cnp_per_window = true,
        .alpha_from_start = true,
    };
}

void dcqcn_params_mlx5(struct dcqcn_params *p, double line_bps)
{
    *p = (struct dcqcn_params){
        .line_bps = line_bps,
        .g = 1.0 - 1019.0 / 1024.0,
        .initial_alpha = 1023.0 / 1024.0,
        .alpha_period_ns = 1000,
        .timer_ns = 300000,
        .byte_counter = 32767,
        .fast_steps = 1,
        .ai_bps = 5e6,
        .hai_bps = 50e6,
        .min_bps = 1e6,
        .first_cnp_bps = 0,
        .min_dec = 0.5,
        .alpha_cut = 0.5,
        .clamp_target = true,
        .rate_reduce_period_ns = 4000,
        .cnp_interval_ns = 4000,
        .cnp_per_window = false,
        .alpha_from_start = false,
    };
}

void dcqcn_rp_init(struct dcqcn_rp *rp, const struct dcqcn_params *p, int64_t start_ns)
{
    memset(rp, 0, sizeof(*rp));
    rp->rc = rp->rt = p->line_bps;
    rp->alpha = p->initial_alpha;
    rp->last_cut_ns = INT64_MIN / 2;
    rp->alpha_at_ns = start_ns;
}

static double clamp_rate(double r, const struct dcqcn_params *p)
{
    if (r > p->line_bps)
        return p->line_bps;
    return r < p->min_bps ? p->min_bps : r;
}

void dcqcn_rp_on_alpha_timer(struct dcqcn_rp *rp, const struct dcqcn_params *p, int64_t now_ns)
{
    if (p->alpha_period_ns <= 0 || (!rp->cut_once && !p->alpha_from_start))
        return; /* not running yet */
    int64_t periods = (now_ns - rp->alpha_at_ns) / p->alpha_period_ns;
    if (periods > 0) {
        rp->alpha *= pow(1.0 - p->g, (double)periods);
        rp->alpha_at_ns += periods * p->alpha_period_ns;
    }
}

bool dcqcn_rp_on_cnp(struct dcqcn_rp *rp, const struct dcqcn_params *p, int64_t now_ns)
{
    rp->cnps++;
    if (p->rate_reduce_period_ns > 0 && now_ns - rp->last_cut_ns < p->rate_reduce_period_ns)
        return false;
    if (rp->cut_once || p->alpha_from_start)
        dcqcn_rp_on_alpha_timer(rp, p, now_ns);
    else
        rp->alpha = p->initial_alpha; /* mlx5: initial_alpha_value at the first CNP */
    if (!rp->cut_once && p->first_cnp_bps > 0) {
        rp->rc = rp->rt = clamp_rate(p->first_cnp_bps, p);
    } else {
        if (p->clamp_target || !rp->cut_once || rp->t_cnt || rp->b_cnt)
            rp->rt = rp->rc;
        double cut = rp->rc * (1.0 - rp->alpha * p->alpha_cut);
        if (p->min_dec > 0 && cut < rp->rc * p->min_dec)
            cut = rp->rc * p->min_dec;
        rp->rc = clamp_rate(cut, p);
    }
    rp->alpha = (1.0 - p->g) * rp->alpha + p->g;
    rp->t_cnt = rp->b_cnt = 0;
    rp->bytes = 0;
    rp->cut_once = true;
    rp->last_cut_ns = now_ns;
    rp->alpha_at_ns = now_ns;
    rp->cuts++;
    return true;
}

static void increase(struct dcqcn_rp *rp, const struct dcqcn_params *p)
{
    unsigned hi = rp->t_cnt > rp->b_cnt ? rp->t_cnt : rp->b_cnt;
    unsigned lo = rp->t_cnt < rp->b_cnt ? rp->t_cnt : rp->b_cnt;
    if (hi <= p->fast_steps) {
        /* fast recovery: towards the target */
    } else if (lo > p->fast_steps) {
        rp->rt += (double)(lo - p->fast_steps) * p->hai_bps;
    } else {
        rp->rt += p->ai_bps;
    }
    rp->rt = clamp_rate(rp->rt, p);
    rp->rc = clamp_rate((rp->rt + rp->rc) / 2.0, p);
    rp->increases++;
}

void dcqcn_rp_on_timer(struct dcqcn_rp *rp, const struct dcqcn_params *p)
{
    if (!rp->cut_once || rp->rc >= p->line_bps)
        return; /* nothing to recover from */
    rp->t_cnt++;
    increase(rp, p);
}

void dcqcn_rp_on_sent(struct dcqcn_rp *rp, const struct dcqcn_params *p, uint64_t bytes)
{
    if (!rp->cut_once || !p->byte_counter)
        return;
    rp->bytes += bytes;
    while (rp->bytes >= p->byte_counter) {
        rp->bytes -= p->byte_counter;
        if (rp->rc >= p->line_bps)
            continue;
        rp->b_cnt++;
        increase(rp, p);
    }
}
