/* See evidence_memo.h: open addressing over a power-of-two table, at most half full. */
#include "evidence_memo.h"

#include <stdlib.h>
#include <string.h>

struct memo_entry {
    struct window_key k;
    double out;
    int8_t rc; /* -1: an empty slot */
};

static uint64_t key_hash(const struct window_key *k)
{
    uint64_t h = (uint64_t)k->port * 0x9e3779b97f4a7c15ULL;
    h ^= (uint64_t)(uint32_t)k->metric << 40 ^ (uint64_t)(uint16_t)k->prio << 24 ^
         (uint64_t)(uint16_t)k->queue << 8 ^ (uint64_t)(uint32_t)k->agg;
    h = (h ^ (h >> 31)) * 0xbf58476d1ce4e5b9ULL;
    h ^= (uint64_t)k->t0 * 0x94d049bb133111ebULL ^ (uint64_t)k->t1;
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 31);
}

static struct memo_entry *slot_of(const struct memo_entry *slots, size_t nslots,
                                  const struct window_key *k)
{
    size_t mask = nslots - 1;
    for (size_t i = key_hash(k) & mask;; i = (i + 1) & mask)
        if (slots[i].rc < 0 || !memcmp(&slots[i].k, k, sizeof(*k)))
            return (struct memo_entry *)&slots[i];
}

bool evidence_memo_get(const struct evidence_memo *m, const struct window_key *k, int *rc,
                       double *out)
{
    if (!m->nslots)
        return false;
    const struct memo_entry *e = slot_of(m->slots, m->nslots, k);
    if (e->rc < 0)
        return false;
    *rc = e->rc;
    *out = e->out;
    return true;
}

static bool grow(struct evidence_memo *m)
{
    size_t nslots = m->nslots ? m->nslots * 2 : 4096;
    struct memo_entry *slots = malloc(nslots * sizeof(*slots));
    if (!slots)
        return false;
    for (size_t i = 0; i < nslots; i++)
        slots[i].rc = -1;
    for (size_t i = 0; i < m->nslots; i++)
        if (m->slots[i].rc >= 0)
            *slot_of(slots, nslots, &m->slots[i].k) = m->slots[i];
    free(m->slots);
    m->slots = slots;
    m->nslots = nslots;
    return true;
}

void evidence_memo_put(struct evidence_memo *m, const struct window_key *k, int rc, double out)
{
    if ((m->n + 1) * 2 > m->nslots && !grow(m))
        return;
    struct memo_entry *e = slot_of(m->slots, m->nslots, k);
    if (e->rc < 0)
        m->n++;
    *e = (struct memo_entry){ .k = *k, .out = out, .rc = (int8_t)rc };
}

void evidence_memo_free(struct evidence_memo *m)
{
    free(m->slots);
    memset(m, 0, sizeof(*m));
}
