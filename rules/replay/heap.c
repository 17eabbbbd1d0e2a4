/* The far heap; see heap.h. Four children per node: half the depth of a binary heap, and
 * the children of a node share a cache line or two. A pop walks the hole down to a leaf along
 * the smaller children (without comparing against the element that will fill it, comparisons
 * that nearly always go the same way), then lets the last element rise from there: fewer and
 * more predictable branches. */
#include "heap.h"

#include <stdlib.h>
#include <string.h>

void sim_heap_init(struct heap *h)
{
    memset(h, 0, sizeof(*h));
}

void sim_heap_free(struct heap *h)
{
    free(h->v);
    sim_heap_init(h);
}

static inline bool before(const struct heap_event *x, const struct heap_event *y)
{
    /* (time, insertion number) as one 128-bit key, compiled without branches; the flipped sign
     * bit keeps negative times in order */
    unsigned __int128 kx = (unsigned __int128)((uint64_t)x->at ^ 1ULL << 63) << 64 | x->seq;
    unsigned __int128 ky = (unsigned __int128)((uint64_t)y->at ^ 1ULL << 63) << 64 | y->seq;
    return kx < ky;
}

bool sim_heap_insert(struct heap *h, const struct heap_event *ev)
{
    if (h->n == h->cap) {
        uint32_t cap = h->cap ? h->cap * 2 : 1024;
        if (!budget_take(h->budget, (uint64_t)(cap - h->cap) * sizeof(*h->v), "the event queue"))
            return false;
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

bool sim_heap_pop(struct heap *h, struct heap_event *out)
{
    if (!h->n)
        return false;
    *out = h->v[0];
    uint32_t n = --h->n;
    if (!n)
        return true;
    struct heap_event *v = h->v;
    uint32_t i = 0;
    for (;;) {
        uint32_t first = 4 * i + 1, c;
        if (first + 3 < n) {
            uint32_t c01 = before(&v[first + 1], &v[first]) ? first + 1 : first;
            uint32_t c23 = before(&v[first + 3], &v[first + 2]) ? first + 3 : first + 2;
            c = before(&v[c23], &v[c01]) ? c23 : c01;
        } else if (first < n) {
            c = first;
            for (uint32_t k = first + 1; k < n; k++)
                if (before(&v[k], &v[c]))
                    c = k;
        } else {
            break;
        }
        v[i] = v[c];
        i = c;
    }
    struct heap_event last = v[n];
    while (i > 0) {
        uint32_t parent = (i - 1) / 4;
        if (!before(&last, &v[parent]))
            break;
        v[i] = v[parent];
        i = parent;
    }
    v[i] = last;
    return true;
}
