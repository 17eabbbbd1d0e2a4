/* The event queue; see evq.h. */
#include "evq.h"

#include <stdlib.h>
#include <string.h>

void evq_init(struct evq *q)
{
    memset(q, 0, sizeof(*q));
    sim_heap_init(&q->far);
}

static void chunks_free(struct evq_chunk *c)
{
    while (c) {
        struct evq_chunk *next = c->next;
        free(c);
        c = next;
    }
}

void evq_set_budget(struct evq *q, struct mem_budget *b)
{
    q->budget = b;
    q->far.budget = b;
}

void evq_free(struct evq *q)
{
    sim_heap_free(&q->far);
    for (int i = 0; i < EVQ_BUCKETS; i++)
        chunks_free(q->bucket[i].head);
    for (int i = 0; i < EVQ_COARSE; i++)
        chunks_free(q->coarse[i].head);
    chunks_free(q->free_chunks);
    for (int i = 0; i < EVQ_SLOTS; i++)
        free(q->slot[i].v);
    memset(q, 0, sizeof(*q));
}

static int64_t calendar_end(const struct evq *q)
{
    return q->wheel_end + (int64_t)(EVQ_BUCKETS - 1) * EVQ_BUCKET_PS;
}

static struct evq_list *bucket_of(struct evq *q, int64_t at)
{
    return &q->bucket[(uint64_t)at >> EVQ_BUCKET_SHIFT & (EVQ_BUCKETS - 1)];
}

static struct evq_list *coarse_of(struct evq *q, int64_t at)
{
    return &q->coarse[(uint64_t)at >> EVQ_COARSE_SHIFT & (EVQ_COARSE - 1)];
}

static bool list_add(struct evq *q, struct evq_list *l, const struct heap_event *e)
{
    struct evq_chunk *c = l->tail;
    if (!c || c->n == EVQ_CHUNK_EVENTS) {
        c = q->free_chunks;
        if (c)
            q->free_chunks = c->next;
        else if (!budget_take(q->budget, sizeof(*c), "the event queue") ||
                 !(c = malloc(sizeof(*c))))
            return false;
        c->next = NULL;
        c->n = 0;
        if (l->tail)
            l->tail->next = c;
        else
            l->head = c;
        l->tail = c;
    }
    c->v[c->n++] = *e;
    l->n++;
    return true;
}

/* Empties a list, in order, through move(); its chunks go back to the free list. */
static bool list_drain(struct evq *q, struct evq_list *l,
                       bool (*move)(struct evq *, const struct heap_event *))
{
    bool ok = true;
    struct evq_chunk *c = l->head;
    while (c) {
        for (uint32_t i = 0; ok && i < c->n; i++)
            ok = move(q, &c->v[i]);
        struct evq_chunk *next = c->next;
        c->next = q->free_chunks;
        q->free_chunks = c;
        c = next;
    }
    l->head = l->tail = NULL;
    l->n = 0;
    return ok;
}

/* A full slot: slid down over the events already served, or grown. */
bool evq_slot_make_room(struct evq *q, struct evq_slot *sl)
{
    if (sl->head) { /* room at the front: slide down */
        memmove(sl->v, sl->v + sl->head, (sl->n - sl->head) * sizeof(*sl->v));
        sl->n -= sl->head;
        sl->head = 0;
        return true;
    }
    uint32_t cap = sl->cap ? sl->cap * 2 : 16;
    if (!budget_take(q->budget, (uint64_t)(cap - sl->cap) * sizeof(*sl->v), "the event queue"))
        return false;
    struct heap_event *grown = realloc(sl->v, (size_t)cap * sizeof(*grown));
    if (!grown)
        return false;
    sl->v = grown;
    sl->cap = cap;
    return true;
}

/* Into the fine wheel at the slot of slot_time. */
static bool fine_add(struct evq *q, const struct heap_event *e, int64_t slot_time)
{
    return evq_fine_insert(q, e, (uint32_t)(slot_time >> EVQ_SLOT_SHIFT) & (EVQ_SLOTS - 1));
}

bool evq_push_later(struct evq *q, const struct heap_event *e)
{
    if (e->at < q->base) /* in the past: next out, as from a heap */
        return fine_add(q, e, q->base);
    if (e->at < q->wheel_end) {
        if (!list_add(q, coarse_of(q, e->at), e))
            return false;
        q->in_coarse++;
        return true;
    }
    if (e->at >= calendar_end(q))
        return sim_heap_insert(&q->far, e);
    if (!list_add(q, bucket_of(q, e->at), e))
        return false;
    q->in_buckets++;
    return true;
}

/* The far events now inside the calendar move to it, in (time, number) order: before anything
 * can be pushed directly into their buckets. */
static bool far_to_calendar(struct evq *q)
{
    struct heap_event e;
    while (q->far.n && q->far.v[0].at < calendar_end(q)) {
        sim_heap_pop(&q->far, &e);
        if (!list_add(q, bucket_of(q, e.at), &e))
            return false;
        q->in_buckets++;
    }
    return true;
}

static bool to_coarse(struct evq *q, const struct heap_event *e)
{
    return list_add(q, coarse_of(q, e->at), e);
}

static bool to_fine(struct evq *q, const struct heap_event *e)
{
    return fine_add(q, e, e->at);
}

/* The coarse slots reach the next bucket: its events move into them. */
static bool bucket_to_coarse(struct evq *q)
{
    struct evq_list *b = bucket_of(q, q->wheel_end);
    q->wheel_end += EVQ_BUCKET_PS;
    q->in_buckets -= b->n;
    q->in_coarse += b->n;
    return list_drain(q, b, to_coarse) && far_to_calendar(q);
}

/* The fine wheel reaches the next coarse slot: its events move in (fine_add counts them). */
static bool coarse_to_fine(struct evq *q)
{
    if (q->fine_end == q->wheel_end && !bucket_to_coarse(q))
        return false;
    struct evq_list *c = coarse_of(q, q->fine_end);
    q->fine_end += EVQ_COARSE_PS;
    q->in_coarse -= c->n;
    return list_drain(q, c, to_fine);
}

/* Keeps the fine wheel at least a coarse slot ahead of its base. */
static inline bool wheel_fill(struct evq *q)
{
    while (q->fine_end + EVQ_COARSE_PS <= q->base + EVQ_FINE_PS)
        if (!coarse_to_fine(q))
            return false;
    return true;
}

/* The fine wheel is empty and events wait further ahead: the wheel moves to the first of them.
 * Only from evq_pop(), so no push comes before the event it returns. */
static __attribute__((noinline)) bool wheel_jump(struct evq *q)
{
    while (!q->in_fine) {
        if (!q->in_coarse) {
            if (!q->in_buckets && q->far.n) {
                int64_t next = q->far.v[0].at & ~(EVQ_BUCKET_PS - 1);
                if (next > q->wheel_end)
                    q->wheel_end = next;
                if (!far_to_calendar(q))
                    return false;
            }
            q->fine_end = q->wheel_end; /* the coarse slots between are empty */
        }
        q->base = q->fine_end; /* every pending event is at or after it */
        if (!wheel_fill(q))
            return false;
    }
    return true;
}

/* The first fine slot holding events, from the base's on: the earliest. */
static struct evq_slot *wheel_first(struct evq *q)
{
    uint32_t from = (uint32_t)(q->base >> EVQ_SLOT_SHIFT) & (EVQ_SLOTS - 1);
    uint32_t w = from / 64;
    uint64_t bits = q->slot_used[w] & (~0ULL << (from % 64));
    for (uint32_t k = 0; k <= EVQ_SLOTS / 64; k++) {
        if (bits)
            return &q->slot[w * 64 + (uint32_t)__builtin_ctzll(bits)];
        w = (w + 1) % (EVQ_SLOTS / 64);
        bits = q->slot_used[w];
    }
    return NULL; /* not reached: in_fine counts the bitmap's events */
}

bool evq_pop(struct evq *q, struct heap_event *out)
{
    struct evq_slot *sl;
    if (q->oom)
        return false;
    if (q->next_valid) {
        q->next_valid = false;
        sl = q->next_slot;
    } else {
        if (!q->pending)
            return false;
        if (!q->in_fine && !wheel_jump(q)) {
            q->oom = true;
            return false;
        }
        sl = q->cur_slot ? q->cur_slot : wheel_first(q);
    }
    *out = sl->v[sl->head++];
    q->cur_slot = sl;
    if (sl->head == sl->n) {
        sl->head = sl->n = 0;
        uint32_t i = (uint32_t)(sl - q->slot);
        q->slot_used[i / 64] &= ~(1ULL << (i % 64));
        q->cur_slot = NULL;
    }
    q->in_fine--;
    q->pending--;
    int64_t slot_start = out->at & ~((1LL << EVQ_SLOT_SHIFT) - 1);
    if (slot_start > q->base) /* never back: an event pushed into the past is out */
        q->base = slot_start;
    if (!wheel_fill(q))
        q->oom = true; /* this event is out; the next pop reports it */
    return true;
}

const struct heap_event *evq_peek(struct evq *q)
{
    if (!q->in_fine)
        return NULL;
    struct evq_slot *sl = q->cur_slot ? q->cur_slot : wheel_first(q);
    const struct heap_event *e = &sl->v[sl->head];
    q->next_valid = true;
    q->next_slot = sl;
    q->next_at = e->at;
    return e;
}
