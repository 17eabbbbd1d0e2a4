/* The event queue's last tier (evq.h), for events past its calendar: a 4-ary min-heap ordered
 * by (time, insertion number), so equal times come out in the order they went in. */
#ifndef DCB_REPLAY_HEAP_H
#define DCB_REPLAY_HEAP_H

#include <stdbool.h>
#include <stdint.h>

#include "budget.h"

#define HEAP_SEQ(n, kind) ((uint64_t)(n) << 8 | ((kind)&0xffu))

struct heap_event {
    int64_t at;   /* picoseconds */
    uint64_t seq; /* insertion number << 8 | kind: orders like the number */
    uint32_t a, b;
};

struct heap {
    struct heap_event *v;
    uint32_t n, cap;
    struct mem_budget *budget; /* its growth counts here (NULL: no limit) */
};

void sim_heap_init(struct heap *h);
void sim_heap_free(struct heap *h);
/* false when empty. */
bool sim_heap_pop(struct heap *h, struct heap_event *out);
/* false when out of memory or past the budget. */
bool sim_heap_insert(struct heap *h, const struct heap_event *e);

static inline unsigned sim_heap_kind(const struct heap_event *e)
{
    return (unsigned)(e->seq & 0xff);
}

#endif
