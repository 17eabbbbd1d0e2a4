/* The packet pool and the packet queues: packets live in one line-aligned array and are
 * referred to by index, freed ones on a free list; a queue is a ring of indexes. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "large_alloc.h"
#include "sim.h"

_Static_assert(sizeof(struct packet) == 64, "a packet is one cache line (the pool is aligned)");

uint32_t sim_pkt_alloc(struct sim *s)
{
    if (s->free_pkt != NO_INDEX) {
        uint32_t p = s->free_pkt;
        s->free_pkt = s->pkts[p].next_free;
        memset(&s->pkts[p], 0, sizeof(s->pkts[p]));
        s->pkts[p].ingress = NO_INDEX;
        return p;
    }
    if (s->npkts == s->pkts_cap) {
        uint32_t cap = s->pkts_cap ? s->pkts_cap * 2 : 4096;
        struct packet *grown =
            budget_take(&s->budget, (uint64_t)(cap - s->pkts_cap) * sizeof(*grown), "the packets")
                ? large_alloc((size_t)cap * sizeof(*grown))
                : NULL;
        if (!grown) {
            s->oom = true;
            return NO_INDEX;
        }
        if (s->npkts)
            memcpy(grown, s->pkts, (size_t)s->npkts * sizeof(*grown));
        free(s->pkts);
        s->pkts = grown;
        s->pkts_cap = cap;
    }
    uint32_t p = s->npkts++;
    memset(&s->pkts[p], 0, sizeof(s->pkts[p]));
    s->pkts[p].ingress = NO_INDEX;
    return p;
}

void sim_pkt_free(struct sim *s, uint32_t p)
{
    s->pkts[p].next_free = s->free_pkt;
    s->free_pkt = p;
}

/* A ring whose size is a power of two (64, doubled when full): its index wraps with a mask,
 * not a division on every packet. */
bool sim_pq_push(struct sim *s, struct pkt_queue *q, uint32_t p)
{
    if (q->count == q->cap) {
        uint32_t cap = q->cap ? q->cap * 2 : 64;
        uint32_t *grown = budget_take(&s->budget, (uint64_t)(cap - q->cap) * sizeof(*grown),
                                      "the packet queues")
                              ? malloc((size_t)cap * sizeof(*grown))
                              : NULL;
        if (!grown) {
            s->oom = true;
            return false;
        }
        for (uint32_t i = 0; i < q->count; i++)
            grown[i] = q->v[(q->head + i) & (q->cap - 1)];
        free(q->v);
        q->v = grown;
        q->head = 0;
        q->cap = cap;
    }
    q->v[(q->head + q->count++) & (q->cap - 1)] = p;
    q->bytes += s->pkts[p].bytes;
    return true;
}

uint32_t sim_pq_pop(struct sim *s, struct pkt_queue *q)
{
    if (!q->count)
        return NO_INDEX;
    uint32_t p = q->v[q->head];
    q->head = (q->head + 1) & (q->cap - 1);
    q->count--;
    q->bytes -= s->pkts[p].bytes;
    if (q->count) /* the next head waited long: fetch it before its turn */
        __builtin_prefetch(&s->pkts[q->v[q->head]]);
    return p;
}
