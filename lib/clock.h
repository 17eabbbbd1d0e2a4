/* Clocks in nanoseconds, and a ticker that keeps a cadence on absolute deadlines.
 *
 * Wall time (Unix time) stamps what is stored and shown; monotonic time, which never steps,
 * measures intervals and paces loops. A ticker sleeps to absolute monotonic deadlines, so the
 * time a round takes does not add up into drift; after a round that overruns, the cadence goes
 * on from then (one interval later): the missed ticks are not run in a burst, and no tick
 * follows the late one at once. */
#ifndef DCB_CLOCK_H
#define DCB_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Unix time in nanoseconds. */
static inline int64_t dcb_realtime_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* A clock for intervals that never steps, in nanoseconds. */
static inline int64_t dcb_monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Sleeps until the monotonic clock reaches deadline_ns. A signal ends the sleep early only
 * when stop (may be NULL) is set by then. */
void dcb_sleep_until(int64_t deadline_ns, const volatile int *stop);
/* Sleeps for ns (nothing for ns <= 0), as dcb_sleep_until. */
void dcb_sleep_ns(int64_t ns, const volatile int *stop);

struct dcb_ticker {
    int64_t next_ns;     /* the coming deadline, monotonic */
    int64_t interval_ns; /* > 0 */
};

/* A ticker whose first deadline is one interval from now (interval_ns <= 0: one second). */
void dcb_ticker_start(struct dcb_ticker *t, int64_t interval_ns);
/* The deadline to wait for: the coming one, or when a round overran it, one interval after
 * now_ns (the missed ticks are skipped, not run in a burst, and a frame drawn late is not
 * followed by another at once). The ticker moves on past it, so the next call gives the one
 * after. */
int64_t dcb_ticker_next(struct dcb_ticker *t, int64_t now_ns);
/* Sleeps until dcb_ticker_next's deadline, as dcb_sleep_until does. */
void dcb_ticker_wait(struct dcb_ticker *t, const volatile int *stop);

#endif
