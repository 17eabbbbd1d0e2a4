#include "counter.h"

#include <math.h>

static uint64_t width_max(unsigned width_bits)
{
    return width_bits >= 64 ? UINT64_MAX : (1ULL << width_bits) - 1;
}

/* A decrease within the width: a wrap when the forward distance through the top is plausible
 * (at most max_step, or a quarter of the range when no bound is known), else a reset. */
static enum counter_delta_kind judge(uint64_t prev, uint64_t reading, uint64_t top,
                                     uint64_t max_step, uint64_t *delta)
{
    if (reading >= prev) {
        *delta = reading - prev;
        return COUNTER_OK;
    }
    /* forward distance through the top: (top - prev) + reading + 1, computed without
     * overflowing for 64-bit counters */
    uint64_t through_top = (top - prev) + reading + 1;
    uint64_t bound = max_step ? max_step : (top / 4) + 1;
    if (through_top != 0 && through_top <= bound) {
        *delta = through_top;
        return COUNTER_WRAPPED;
    }
    *delta = reading;
    return COUNTER_RESET;
}

struct counter_delta counter_update(struct counter_state *st, uint64_t reading, int64_t time_ns,
                                    unsigned width_bits, uint64_t max_step)
{
    struct counter_delta d = { COUNTER_FIRST, 0, 0, st->last };
    if (width_bits == 0)
        width_bits = 64;
    uint64_t top = width_max(width_bits);
    if (reading > top) {
        d.kind = COUNTER_INVALID;
        return d;
    }
    if (!st->primed) {
        st->primed = true;
        st->last = reading;
        st->last_time_ns = time_ns;
        return d;
    }
    d.interval_ns = time_ns - st->last_time_ns;
    d.kind = judge(st->last, reading, top, max_step, &d.delta);
    st->last = reading;
    st->last_time_ns = time_ns;
    return d;
}

/* A pair of stored readings that does not fit the width says the width was wrong: judged at
 * 64 bits, so a plain increase still counts and nothing is made up. */
static enum counter_delta_kind step_kind(uint64_t prev, uint64_t reading, unsigned width_bits,
                                         uint64_t *step)
{
    uint64_t top = width_max(width_bits ? width_bits : 64);
    if (prev > top || reading > top)
        top = UINT64_MAX;
    return judge(prev, reading, top, 0, step);
}

bool counter_step(uint64_t prev, uint64_t reading, unsigned width_bits, uint64_t *step)
{
    if (step_kind(prev, reading, width_bits, step) != COUNTER_RESET)
        return true;
    *step = 0;
    return false;
}

double counter_rate_per_sec(const struct counter_delta *d)
{
    if (d->kind == COUNTER_FIRST || d->kind == COUNTER_INVALID || d->kind == COUNTER_RESET ||
        d->interval_ns <= 0)
        return NAN;
    return (double)d->delta * 1e9 / (double)d->interval_ns;
}

const char *counter_delta_kind_name(enum counter_delta_kind kind)
{
    switch (kind) {
    case COUNTER_FIRST: return "first";
    case COUNTER_OK: return "ok";
    case COUNTER_WRAPPED: return "wrapped";
    case COUNTER_RESET: return "reset";
    case COUNTER_INVALID: return "invalid";
    }
    return "?";
}

void counter_window_init(struct counter_window *w, unsigned width_bits)
{
    *w = (struct counter_window){ .width_bits = width_bits ? width_bits : 64 };
    counter_state_init(&w->st);
}

enum counter_delta_kind counter_window_add(struct counter_window *w, uint64_t reading,
                                           int64_t time_ns)
{
    w->readings++;
    if (!w->st.primed) {
        w->st.primed = true;
        w->st.last = reading;
        w->st.last_time_ns = time_ns;
        return COUNTER_FIRST;
    }
    uint64_t step;
    enum counter_delta_kind kind = step_kind(w->st.last, reading, w->width_bits, &step);
    int64_t interval_ns = time_ns - w->st.last_time_ns;
    w->st.last = reading;
    w->st.last_time_ns = time_ns;
    if (kind == COUNTER_RESET) {
        w->resets++;
        return kind;
    }
    w->total += (double)step;
    if (interval_ns > 0) {
        w->covered_ns += interval_ns;
        if (step)
            w->busy_ns += interval_ns;
    }
    return kind;
}

double counter_window_rate(const struct counter_window *w)
{
    return w->covered_ns > 0 ? w->total * 1e9 / (double)w->covered_ns : NAN;
}
