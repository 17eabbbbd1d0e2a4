/* Deltas of hardware counters that wrap (32-bit mlx5 Q-counters, 64-bit port counters) or reset
 * (driver reload, link flap, `ethtool -S` clear, switch reboot).
 *
 * When a new reading is below the previous one, it is either a wrap or a reset:
 *  - wrap: the distance forward through the top of the counter's range is plausible, that is at
 *    most max_step (the largest increase the caller believes possible in one interval, e.g. the
 *    link's byte rate times the interval), or, when the caller gives no bound, at most a quarter
 *    of the range;
 *  - reset: anything else. The delta is then the new reading (what was counted since the reset
 *    if the counter restarted from 0, as Prometheus assumes), never a huge or negative number,
 *    and the caller emits counter_reset. No rate spans a reset: a counter may restart from any
 *    value (a switch's from its initial ones), so the interval's increase is unknown;
 *    counter_rate_per_sec gives NaN for it and counter_window leaves it out.
 * A reading above the counter's width (a 32-bit counter reporting 2^32) is invalid input to
 * counter_update; readers of stored readings (counter_step, counter_window) judge such a pair
 * at 64 bits instead, the width evidently having been said wrong. */
#ifndef DCB_COUNTER_H
#define DCB_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

enum counter_delta_kind {
    COUNTER_FIRST,   /* first reading: no delta yet */
    COUNTER_OK,      /* plain increase (or no change) */
    COUNTER_WRAPPED, /* passed through the top of the range; delta is correct */
    COUNTER_RESET,   /* went back to a smaller value; delta = the new reading */
    COUNTER_INVALID, /* the reading does not fit the counter's width; state unchanged */
};

struct counter_state {
    uint64_t last;
    int64_t last_time_ns;
    bool primed;
};

struct counter_delta {
    enum counter_delta_kind kind;
    uint64_t delta;
    int64_t interval_ns; /* time since the previous reading; 0 on the first */
    uint64_t previous;   /* the previous reading (for the counter_reset event's details) */
};

static inline void counter_state_init(struct counter_state *st)
{
    st->last = 0;
    st->last_time_ns = 0;
    st->primed = false;
}

/* width_bits is 32 or 64 (any 1..64 works). max_step 0 means "no bound known". */
struct counter_delta counter_update(struct counter_state *st, uint64_t reading, int64_t time_ns,
                                    unsigned width_bits, uint64_t max_step);

/* Per-second rate of a delta; NaN when there is no interval (first reading or same time) or
 * the interval holds a reset. */
double counter_rate_per_sec(const struct counter_delta *d);

const char *counter_delta_kind_name(enum counter_delta_kind kind);

/* One interval between two stored readings, judged as counter_update judges it (no bound on the
 * step): true with the increase, plain or through the top; false for a reset (*step 0), whose
 * interval has no known increase. The one rule every reader of a store uses. */
bool counter_step(uint64_t prev, uint64_t reading, unsigned width_bits, uint64_t *step);

/* A window's increase with resets left out: the interval a reset falls in has no known
 * increase (the counter may restart from any value, not only 0), so it adds nothing to the
 * total and its time is left out of the rate's. Wraps count through the top as usual. */
struct counter_window {
    struct counter_state st;
    unsigned width_bits;
    double total;
    int64_t covered_ns; /* the time of the intervals that count (no reset in them) */
    int64_t busy_ns;    /* ... of those, the ones with an increase */
    uint64_t readings, resets;
};

void counter_window_init(struct counter_window *w, unsigned width_bits);
/* Readings oldest first, each step as counter_step takes it. Returns the reading's kind
 * (COUNTER_RESET: the caller may say so). */
enum counter_delta_kind counter_window_add(struct counter_window *w, uint64_t reading,
                                           int64_t time_ns);
/* Per second over the covered time; NaN when no interval counts. */
double counter_window_rate(const struct counter_window *w);

#endif
