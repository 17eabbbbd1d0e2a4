/* Internal to rules/replay: the memory a run may hold (replay_options.max_memory_bytes). What
 * the fabric and the workload size (ports, flows, routes) takes its bytes as it is built; what
 * grows with the traffic (the packet pool, packet queues, the event queue, the NICs' ready
 * lists, the queue depths the summary keeps) takes them before it grows. A growth that would
 * pass the limit fails as an allocation does, and the run ends with an error naming what grew.
 * Only growth is counted: the bytes freed when a pass ends are not given back one by one. */
#ifndef DCB_REPLAY_BUDGET_H
#define DCB_REPLAY_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mem_budget {
    uint64_t used, max;
    const char *over; /* what would have passed the limit first; NULL: nothing */
};

/* NULL: no limit (the event queue on its own, in its unit test). */
static inline bool budget_take(struct mem_budget *b, uint64_t bytes, const char *what)
{
    if (!b)
        return true;
    if (bytes > b->max - b->used) {
        if (!b->over)
            b->over = what;
        return false;
    }
    b->used += bytes;
    return true;
}

static inline void budget_give(struct mem_budget *b, uint64_t bytes)
{
    if (b)
        b->used = bytes < b->used ? b->used - bytes : 0;
}

#endif
