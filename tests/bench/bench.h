/* Helpers for the benchmarks: a monotonic clock and a sink the optimiser cannot remove.
 * Benchmarks print figures; they never assert on time. */
#ifndef DCB_BENCH_H
#define DCB_BENCH_H

#include <stdint.h>

#include "clock.h"

static inline int64_t bench_now_ns(void)
{
    return dcb_monotonic_ns();
}

static volatile uint64_t bench_sink;

#endif
