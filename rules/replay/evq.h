/* The simulator's event queue: a small heap for the near future, a calendar of buckets for the
 * rest. Most pending events are timers far ahead (retransmit timeouts, DCQCN increase timers),
 * and keeping them out of the heap keeps it small enough to stay in cache. Events come out in
 * (time, insertion number) order exactly as from one heap: a bucket's events are moved into the
 * heap, with their numbers, before time reaches them. */
#ifndef DCB_REPLAY_EVQ_H
#define DCB_REPLAY_EVQ_H

#include <stdbool.h>
#include <stdint.h>

#include "heap.h"

#define EVQ_BUCKETS 4096
#define EVQ_BUCKET_PS (1LL << 20)        /* 1.05 us; the calendar spans 4.3 ms */

struct evq_bucket {
    struct heap_event *v;
    uint32_t n, cap;
};

struct evq {
    struct heap near;             /* events before near_end */
    struct heap far;              /* events past the calendar */
    struct evq_bucket bucket[EVQ_BUCKETS];
    int64_t near_end;             /* the end of the bucket being served */
    uint64_t next_seq;
    uint64_t pending;
    uint64_t in_buckets;          /* events waiting in the calendar */
};

void evq_init(struct evq *q);
void evq_free(struct evq *q);
bool evq_push(struct evq *q, int64_t at, unsigned kind, uint32_t a, uint32_t b);
bool evq_pop(struct evq *q, struct heap_event *out);

#endif
