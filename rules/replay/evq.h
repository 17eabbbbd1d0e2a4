/* The simulator's event queue: a hierarchical timing wheel, by how far ahead an event is.
 *   - fine: 256 slots of 1.024 ns, the next 131-262 ns (up to `fine_end`). A frame's end of
 *     transmission and its arrival at the far end, nearly every event, land here directly: each
 *     slot a short array kept sorted by time, a bitmap of the slots that hold something. Small,
 *     so its memory stays in the first-level cache;
 *   - coarse: 8 slots of 131 ns, up to `wheel_end` (at most one calendar bucket further): an
 *     event appends; a slot moves into the fine wheel when the fine wheel reaches its time;
 *   - a calendar of 4,096 buckets of 1.05 us (4.3 ms) for timers (DCQCN, retransmission): an
 *     event appends, and a bucket moves into the coarse slots when the wheel reaches it;
 *   - a heap for anything past the calendar.
 * Events come out in (time, insertion number) order exactly as from one heap. A fine slot is
 * sorted by time only: an event entering it is always the newest of those at its time. Direct
 * pushes carry the newest number, and the coarse slots and buckets hold their events in
 * insertion order (for equal times) and move on before anything can be pushed directly at
 * their times. */
#ifndef DCB_REPLAY_EVQ_H
#define DCB_REPLAY_EVQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "heap.h"

#define EVQ_SLOT_SHIFT 10 /* a fine slot: 1,024 ps */
#define EVQ_SLOTS 256
#define EVQ_FINE_PS ((int64_t)EVQ_SLOTS << EVQ_SLOT_SHIFT)

#define EVQ_COARSE_SHIFT 17 /* a coarse slot: 131 ns, half the fine wheel */
#define EVQ_COARSE_PS (1LL << EVQ_COARSE_SHIFT)
#define EVQ_COARSE 8 /* one bucket */

#define EVQ_BUCKETS 4096
#define EVQ_BUCKET_SHIFT 20
#define EVQ_BUCKET_PS (1LL << EVQ_BUCKET_SHIFT) /* 1.05 us; the calendar spans 4.3 ms */

/* A coarse slot or a bucket: its events in insertion order, in chunks of a kilobyte. Chunks
 * come from a free list, last freed first: the memory a bucket just moved out is the memory the
 * next timers go into, so the calendar touches as much memory as the events it holds (a
 * growable array per bucket kept 4,096 arrays of up to 15 KB, cold every time). */
#define EVQ_CHUNK_EVENTS 42

struct evq_chunk {
    struct evq_chunk *next;
    uint32_t n;
    struct heap_event v[EVQ_CHUNK_EVENTS];
};

struct evq_list {
    struct evq_chunk *head, *tail;
    uint32_t n;
};

struct evq_slot { /* sorted by (time, number); served from head */
    struct heap_event *v;
    uint32_t head, n, cap;
};

struct evq {
    int64_t base;      /* the fine slot of the last event out: the wheel starts here */
    int64_t fine_end;  /* events before this are in the fine wheel; coarse-aligned */
    int64_t wheel_end; /* events before this are in the wheel; bucket-aligned */
    uint64_t next_seq;
    uint64_t pending;
    uint64_t in_fine, in_coarse, in_buckets;
    /* what evq_peek() found, for the evq_pop() after it: still the next while no earlier
     * event came in (one at the same time has a later number) */
    bool next_valid;
    bool oom; /* an allocation failed moving events: evq_pop() says no more */
    struct evq_slot *next_slot;
    /* the slot of the last event out while it holds more: the first (pushes go there or later),
     * so the next event needs no search of the bitmap; NULL: search */
    struct evq_slot *cur_slot;
    int64_t next_at;
    struct evq_chunk *free_chunks;
    struct mem_budget *budget;          /* chunks, slots and the heap count here (NULL: no limit) */
    uint64_t slot_used[EVQ_SLOTS / 64]; /* bitmap: fine slots holding events */
    struct evq_slot slot[EVQ_SLOTS];
    struct evq_list coarse[EVQ_COARSE];
    struct heap far; /* events past the calendar */
    struct evq_list bucket[EVQ_BUCKETS];
};

void evq_init(struct evq *q);
/* The run's memory budget, for what the queue allocates from now on. */
void evq_set_budget(struct evq *q, struct mem_budget *b);
void evq_free(struct evq *q);
/* false: no event left, or out of memory (q->oom). */
bool evq_pop(struct evq *q, struct heap_event *out);

/* The next event, without taking it; NULL when the fine wheel is empty (the next event, if any,
 * is further ahead: a caller that only prefetches loses nothing). */
const struct heap_event *evq_peek(struct evq *q);

/* The rare paths of a push, out of line: a full slot, an event for the coarse slots or later. */
bool evq_slot_make_room(struct evq *q, struct evq_slot *sl);
bool evq_push_later(struct evq *q, const struct heap_event *e);

/* Into fine slot i, sorted by time after the events at its time (it is the newest of them). */
static inline bool evq_fine_insert(struct evq *q, const struct heap_event *e, uint32_t i)
{
    struct evq_slot *sl = &q->slot[i];
    if (sl->n == sl->cap && !evq_slot_make_room(q, sl))
        return false;
    uint32_t k = sl->n++;
    while (k > sl->head && sl->v[k - 1].at > e->at) {
        sl->v[k] = sl->v[k - 1];
        k--;
    }
    sl->v[k] = *e;
    q->slot_used[i / 64] |= 1ULL << (i % 64);
    q->in_fine++;
    return true;
}

static inline bool evq_push(struct evq *q, int64_t at, unsigned kind, uint32_t a, uint32_t b)
{
    struct heap_event e = { at, HEAP_SEQ(q->next_seq++, kind), a, b };
    bool ok = (uint64_t)(at - q->base) < (uint64_t)(q->fine_end - q->base)
                  ? evq_fine_insert(q, &e, (uint32_t)(at >> EVQ_SLOT_SHIFT) & (EVQ_SLOTS - 1))
                  : evq_push_later(q, &e);
    if (!ok)
        return false;
    q->pending++;
    if (at < q->next_at)
        q->next_valid = false;
    return true;
}

#endif
