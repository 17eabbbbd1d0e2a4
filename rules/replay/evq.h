/* The simulator's event queue, in three tiers by how far ahead an event is:
 *   - a wheel of 256 slots of 1.024 ns for the next 262 ns: most events (a frame's end of
 *     transmission, its arrival at the far end) land here, each slot a short array kept sorted,
 *     with a bitmap of the slots that hold something: a push and a pop cost a few instructions;
 *   - a small heap for the rest of the current calendar bucket, and a calendar of buckets (and a
 *     far heap) for timers further ahead (retransmit timeouts, DCQCN increase timers), which
 *     keeps that heap small.
 * Events come out in (time, insertion number) order exactly as from one heap: the next event is
 * the smaller of the wheel's first and the heap's top, and a bucket's events are moved into the
 * heap, with their numbers, before time reaches them. */
#ifndef DCB_REPLAY_EVQ_H
#define DCB_REPLAY_EVQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "heap.h"

#define EVQ_BUCKETS 4096
#define EVQ_BUCKET_PS (1LL << 20)        /* 1.05 us; the calendar spans 4.3 ms */

#define EVQ_SLOTS 256
#define EVQ_SLOT_SHIFT 10                /* a slot is 1,024 ps */

struct evq_bucket {
    struct heap_event *v;
    uint32_t n, cap;
};

struct evq_slot {                 /* sorted by (time, number); served from head */
    struct heap_event *v;
    uint32_t head, n, cap;
};

struct evq {
    struct heap near;             /* events before near_end */
    struct heap far;              /* events past the calendar */
    struct evq_bucket bucket[EVQ_BUCKETS];
    int64_t near_end;             /* the end of the bucket being served */
    uint64_t next_seq;
    uint64_t pending;
    uint64_t in_buckets;          /* events waiting in the calendar */
    struct evq_slot slot[EVQ_SLOTS];
    uint64_t slot_used[EVQ_SLOTS / 64];   /* bitmap: slots holding events */
    uint64_t in_wheel;
    int64_t now;                  /* the last event out: the wheel covers from its slot on */
    /* what evq_peek() found, for the evq_pop() after it: still the next while no earlier
     * event came in (one at the same time has a later number) */
    bool next_valid, next_in_heap;
    struct evq_slot *next_slot;
    int64_t next_at;
};

void evq_init(struct evq *q);
void evq_free(struct evq *q);
bool evq_push(struct evq *q, int64_t at, unsigned kind, uint32_t a, uint32_t b);
bool evq_pop(struct evq *q, struct heap_event *out);

/* The next event (NULL: none), without taking it. */
const struct heap_event *evq_peek(struct evq *q);

#endif
