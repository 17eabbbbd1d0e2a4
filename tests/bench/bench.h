/* Helpers for the benchmarks: a monotonic clock and a sink the optimiser cannot remove.
 * Benchmarks print figures; they never assert on time. */
#ifndef DCB_BENCH_H
#define DCB_BENCH_H

#include <stdint.h>
#include <time.h>

static inline int64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static volatile uint64_t bench_sink;

#endif
