/* The event queue; see heap.h. Four children per node: half the depth of a binary heap, and
 * the children of a node share a cache line or two. */
#include "heap.h"

#include <stdlib.h>
#include <string.h>

#define SEQ_MASK ((1ULL << 56) - 1)

void heap_init(struct heap *h)
{
    memset(h, 0, sizeof(*h));
}

void heap_free(struct heap *h)
{
    free(h->v);
    heap_init(h);
}

static inline bool before(const struct heap_event *x, const struct heap_event *y)
{
    return x->at < y->at || (x->at == y->at && (x->seq & SEQ_MASK) < (y->seq & SEQ_MASK));
}

bool heap_push(struct heap *h, int64_t at, unsigned kind, uint32_t a, uint32_t b)
{
    struct heap_event e = { at, (uint64_t)kind << 56 | (h->next_seq++ & SEQ_MASK), a, b };
    return heap_insert(h, &e);
}

bool heap_insert(struct heap *h, const struct heap_event *ev)
{
    if (h->n == h->cap) {
        uint32_t cap = h->cap ? h->cap * 2 : 1024;
        struct heap_event *grown = realloc(h->v, (size_t)cap * sizeof(*grown));
        if (!grown)
            return false;
        h->v = grown;
        h->cap = cap;
    }
    struct heap_event e = *ev;
    uint32_t i = h->n++;
    while (i > 0) {
        uint32_t parent = (i - 1) / 4;
        if (!before(&e, &h->v[parent]))
            break;
        h->v[i] = h->v[parent];
        i = parent;
    }
    h->v[i] = e;
    return true;
}

bool heap_pop(struct heap *h, struct heap_event *out)
{
    if (!h->n)
        return false;
    *out = h->v[0];
    struct heap_event last = h->v[--h->n];
    uint32_t i = 0, n = h->n;
    for (;;) {
        uint32_t first = 4 * i + 1;
        if (first >= n)
            break;
        uint32_t c = first, end = first + 4 < n ? first + 4 : n;
        for (uint32_t k = first + 1; k < end; k++)
            if (before(&h->v[k], &h->v[c]))
                c = k;
        if (!before(&h->v[c], &last))
            break;
        h->v[i] = h->v[c];
        i = c;
    }
    if (n)
        h->v[i] = last;
    return true;
}
