/* The event queue; see evq.h. */
#include "evq.h"

#include <stdlib.h>
#include <string.h>

void evq_init(struct evq *q)
{
    memset(q, 0, sizeof(*q));
    heap_init(&q->near);
    heap_init(&q->far);
    q->near_end = EVQ_BUCKET_PS;
}

void evq_free(struct evq *q)
{
    heap_free(&q->near);
    heap_free(&q->far);
    for (int i = 0; i < EVQ_BUCKETS; i++)
        free(q->bucket[i].v);
    for (int i = 0; i < EVQ_SLOTS; i++)
        free(q->slot[i].v);
    memset(q, 0, sizeof(*q));
}

static bool bucket_add(struct evq_bucket *b, const struct heap_event *e)
{
    if (b->n == b->cap) {
        uint32_t cap = b->cap ? b->cap * 2 : 8;     /* most buckets stay small */
        struct heap_event *grown = realloc(b->v, (size_t)cap * sizeof(*grown));
        if (!grown)
            return false;
        b->v = grown;
        b->cap = cap;
    }
    b->v[b->n++] = *e;
    return true;
}

/* Where an event at this time waits: the heap (this bucket), a bucket of the calendar, or far. */
static bool place(struct evq *q, const struct heap_event *e)
{
    if (e->at < q->near_end)
        return heap_insert(&q->near, e);
    if (e->at < q->near_end + (int64_t)(EVQ_BUCKETS - 1) * EVQ_BUCKET_PS) {
        if (!bucket_add(&q->bucket[(e->at / EVQ_BUCKET_PS) % EVQ_BUCKETS], e))
            return false;
        q->in_buckets++;
        return true;
    }
    return heap_insert(&q->far, e);
}

/* ---- the wheel ---- */

static inline bool earlier(const struct heap_event *x, const struct heap_event *y)
{
    return x->at < y->at || (x->at == y->at && x->seq < y->seq);
}

static inline int64_t wheel_start(const struct evq *q)
{
    return q->now - (q->now & ((1LL << EVQ_SLOT_SHIFT) - 1));
}

/* A full slot: slid down over the events already served, or grown. Kept out of line, as are
 * the other rare paths below, so that the common ones need few registers. */
static __attribute__((noinline)) bool slot_make_room(struct evq_slot *sl)
{
    if (sl->head) {                     /* room at the front: slide down */
        memmove(sl->v, sl->v + sl->head, (sl->n - sl->head) * sizeof(*sl->v));
        sl->n -= sl->head;
        sl->head = 0;
        return true;
    }
    uint32_t cap = sl->cap ? sl->cap * 2 : 16;
    struct heap_event *grown = realloc(sl->v, (size_t)cap * sizeof(*grown));
    if (!grown)
        return false;
    sl->v = grown;
    sl->cap = cap;
    return true;
}

static inline bool wheel_add(struct evq *q, const struct heap_event *e)
{
    uint32_t i = (uint32_t)(e->at >> EVQ_SLOT_SHIFT) & (EVQ_SLOTS - 1);
    struct evq_slot *sl = &q->slot[i];
    if (sl->n == sl->cap && !slot_make_room(sl))
        return false;
    /* the newest number: it goes after every event at its time or before */
    uint32_t k = sl->n++;
    while (k > sl->head && sl->v[k - 1].at > e->at) {
        sl->v[k] = sl->v[k - 1];
        k--;
    }
    sl->v[k] = *e;
    q->slot_used[i / 64] |= 1ULL << (i % 64);
    q->in_wheel++;
    return true;
}

/* The first slot holding events, from the one of the last event out on: the earliest. */
static struct evq_slot *wheel_first(struct evq *q)
{
    if (!q->in_wheel)
        return NULL;
    uint32_t from = (uint32_t)(q->now >> EVQ_SLOT_SHIFT) & (EVQ_SLOTS - 1);
    uint32_t w = from / 64;
    uint64_t bits = q->slot_used[w] & (~0ULL << (from % 64));
    for (uint32_t k = 0; k <= EVQ_SLOTS / 64; k++) {
        if (bits)
            return &q->slot[w * 64 + (uint32_t)__builtin_ctzll(bits)];
        w = (w + 1) % (EVQ_SLOTS / 64);
        bits = q->slot_used[w];
    }
    return NULL;                        /* not reached: in_wheel counts the bitmap's events */
}

static void wheel_take(struct evq *q, struct evq_slot *sl, struct heap_event *out)
{
    *out = sl->v[sl->head++];
    if (sl->head == sl->n) {
        sl->head = sl->n = 0;
        uint32_t i = (uint32_t)(sl - q->slot);
        q->slot_used[i / 64] &= ~(1ULL << (i % 64));
    }
    q->in_wheel--;
}

static __attribute__((noinline)) bool place_out_of_wheel(struct evq *q, const struct heap_event *e)
{
    return place(q, e);
}

bool evq_push(struct evq *q, int64_t at, unsigned kind, uint32_t a, uint32_t b)
{
    struct heap_event e = { at, HEAP_SEQ(q->next_seq++, kind), a, b };
    int64_t start = wheel_start(q);
    bool ok = at >= start && at < start + ((int64_t)EVQ_SLOTS << EVQ_SLOT_SHIFT) ?
              wheel_add(q, &e) : place_out_of_wheel(q, &e);
    if (!ok)
        return false;
    q->pending++;
    if (at < q->next_at)
        q->next_valid = false;
    return true;
}

/* Time reaches the next bucket: its events, and the far ones now inside the calendar. */
static bool advance(struct evq *q)
{
    struct evq_bucket *b = &q->bucket[(q->near_end / EVQ_BUCKET_PS) % EVQ_BUCKETS];
    q->near_end += EVQ_BUCKET_PS;
    for (uint32_t i = 0; i < b->n; i++)
        if (!heap_insert(&q->near, &b->v[i]))
            return false;
    q->in_buckets -= b->n;
    b->n = 0;
    struct heap_event e;
    while (q->far.n && q->far.v[0].at < q->near_end + (int64_t)(EVQ_BUCKETS - 1) * EVQ_BUCKET_PS) {
        heap_pop(&q->far, &e);
        if (!place(q, &e))
            return false;
    }
    return true;
}

static __attribute__((noinline)) bool fill_near_slow(struct evq *q)
{
    while (!q->near.n) {
        if (!advance(q))
            return false;
        if (!q->near.n && !q->in_buckets && q->far.n && q->far.v[0].at >= q->near_end) {
            /* the calendar is empty: jump to the bucket of the next far event */
            int64_t next = q->far.v[0].at;
            q->near_end = next - next % EVQ_BUCKET_PS;
        }
    }
    return true;
}

/* The heap side's earliest in the near heap, when there is one outside the wheel. */
static inline bool fill_near(struct evq *q)
{
    return q->pending == q->in_wheel || q->near.n || fill_near_slow(q);
}

bool evq_pop(struct evq *q, struct heap_event *out)
{
    if (q->next_valid) {
        q->next_valid = false;
        if (q->next_in_heap)
            heap_pop(&q->near, out);
        else
            wheel_take(q, q->next_slot, out);
    } else {
        if (!q->pending || !fill_near(q))
            return false;
        struct evq_slot *sl = wheel_first(q);
        if (sl && (!q->near.n || earlier(&sl->v[sl->head], &q->near.v[0])))
            wheel_take(q, sl, out);
        else
            heap_pop(&q->near, out);
    }
    q->pending--;
    q->now = out->at;
    return true;
}

const struct heap_event *evq_peek(struct evq *q)
{
    if (!q->pending || !fill_near(q))
        return NULL;
    struct evq_slot *sl = wheel_first(q);
    bool in_wheel = sl && (!q->near.n || earlier(&sl->v[sl->head], &q->near.v[0]));
    if (!in_wheel && !q->near.n)
        return NULL;
    const struct heap_event *e = in_wheel ? &sl->v[sl->head] : &q->near.v[0];
    q->next_valid = true;
    q->next_in_heap = !in_wheel;
    q->next_slot = sl;
    q->next_at = e->at;
    return e;
}
