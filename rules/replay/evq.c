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
    memset(q, 0, sizeof(*q));
}

static bool bucket_add(struct evq_bucket *b, const struct heap_event *e)
{
    if (b->n == b->cap) {
        uint32_t cap = b->cap ? b->cap * 2 : 64;
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

bool evq_push(struct evq *q, int64_t at, unsigned kind, uint32_t a, uint32_t b)
{
    struct heap_event e = { at, HEAP_SEQ(q->next_seq++, kind), a, b };
    if (!place(q, &e))
        return false;
    q->pending++;
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

bool evq_pop(struct evq *q, struct heap_event *out)
{
    if (!q->pending)
        return false;
    while (!q->near.n) {
        if (!advance(q))
            return false;
        if (!q->near.n && !q->in_buckets && q->far.n && q->far.v[0].at >= q->near_end) {
            /* the calendar is empty: jump to the bucket of the next far event */
            int64_t next = q->far.v[0].at;
            q->near_end = next - next % EVQ_BUCKET_PS;
        }
    }
    heap_pop(&q->near, out);
    q->pending--;
    return true;
}
