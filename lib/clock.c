#include "clock.h"

#include <errno.h>

void dcb_sleep_until(int64_t deadline_ns, const volatile int *stop)
{
    struct timespec ts = { (time_t)(deadline_ns / 1000000000LL),
                           (long)(deadline_ns % 1000000000LL) };
    while (!(stop && *stop) && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

void dcb_sleep_ns(int64_t ns, const volatile int *stop)
{
    if (ns > 0)
        dcb_sleep_until(dcb_monotonic_ns() + ns, stop);
}

void dcb_ticker_start(struct dcb_ticker *t, int64_t interval_ns)
{
    t->interval_ns = interval_ns > 0 ? interval_ns : 1000000000LL;
    t->next_ns = dcb_monotonic_ns() + t->interval_ns;
}

int64_t dcb_ticker_next(struct dcb_ticker *t, int64_t now_ns)
{
    int64_t due = t->next_ns;
    if (due < now_ns) /* overran: a whole interval from now, never a tick at once */
        due = now_ns + t->interval_ns;
    t->next_ns = due + t->interval_ns;
    return due;
}

void dcb_ticker_wait(struct dcb_ticker *t, const volatile int *stop)
{
    dcb_sleep_until(dcb_ticker_next(t, dcb_monotonic_ns()), stop);
}
