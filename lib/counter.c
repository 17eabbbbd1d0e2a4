#include "counter.h"

#include <math.h>

static uint64_t width_max(unsigned width_bits)
{
    return width_bits >= 64 ? UINT64_MAX : (1ULL << width_bits) - 1;
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
    if (reading >= st->last) {
        d.kind = COUNTER_OK;
        d.delta = reading - st->last;
    } else {
        /* forward distance through the top: (top - last) + reading + 1, computed without
         * overflowing for 64-bit counters */
        uint64_t through_top = (top - st->last) + reading + 1;
        uint64_t bound = max_step ? max_step : (top / 4) + 1;
        if (through_top != 0 && through_top <= bound) {
            d.kind = COUNTER_WRAPPED;
            d.delta = through_top;
        } else {
            d.kind = COUNTER_RESET;
            d.delta = reading;
        }
    }
    st->last = reading;
    st->last_time_ns = time_ns;
    return d;
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
    struct counter_delta d = counter_update(&w->st, reading, time_ns, w->width_bits, 0);
    if (d.kind == COUNTER_INVALID)
        return d.kind;
    w->readings++;
    if (d.kind == COUNTER_RESET) {
        w->resets++;
    } else if (d.kind != COUNTER_FIRST) {
        w->total += (double)d.delta;
        if (d.interval_ns > 0) {
            w->covered_ns += d.interval_ns;
            if (d.delta)
                w->busy_ns += d.interval_ns;
        }
    }
    return d.kind;
}

double counter_window_rate(const struct counter_window *w)
{
    return w->covered_ns > 0 ? w->total * 1e9 / (double)w->covered_ns : NAN;
}
