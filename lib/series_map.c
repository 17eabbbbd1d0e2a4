#include "grow.h"
#include "store_impl.h"

#include <stdlib.h>
#include <string.h>

void series_map_init(struct series_map *m)
{
    memset(m, 0, sizeof(*m));
}

void series_map_free(struct series_map *m)
{
    free(m->keys);
    free(m->slots);
    memset(m, 0, sizeof(*m));
}

static uint64_t hash_str(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ULL; /* FNV-1a */
    return h * 0x100000001b3ULL;
}

static uint64_t hash_key(const char *device, const char *ifname, int metric, int prio, int queue)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    h = hash_str(h, device);
    h = hash_str(h, ifname);
    h ^= (uint64_t)(uint32_t)metric << 32 | (uint64_t)(uint16_t)prio << 16 | (uint16_t)queue;
    h *= 0x9e3779b97f4a7c15ULL;
    return h ^ (h >> 29);
}

static bool key_equal(const struct series_key *k, const struct dcb_sample *s)
{
    return k->metric == s->metric && k->prio == s->prio && k->queue == s->queue &&
           strcmp(k->device, s->device) == 0 && strcmp(k->ifname, s->ifname) == 0;
}

#define SLOT_TAG(h) ((h)&0xffffffff00000000ULL)

static bool grow_slots(struct series_map *m)
{
    size_t cap = m->slot_cap ? m->slot_cap * 2 : 1024;
    uint64_t *slots = calloc(cap, sizeof(*slots));
    if (!slots)
        return false;
    for (size_t i = 0; i < m->count; i++) {
        const struct series_key *k = &m->keys[i];
        uint64_t h = hash_key(k->device, k->ifname, k->metric, k->prio, k->queue);
        size_t pos = h & (cap - 1);
        while (slots[pos])
            pos = (pos + 1) & (cap - 1);
        slots[pos] = SLOT_TAG(h) | (i + 1);
    }
    free(m->slots);
    m->slots = slots;
    m->slot_cap = cap;
    return true;
}

int64_t series_map_intern(struct series_map *m, const struct dcb_sample *s, bool *added)
{
    *added = false;
    if ((m->count + 1) * 2 > m->slot_cap && !grow_slots(m))
        return -1;
    size_t mask = m->slot_cap - 1;
    uint64_t h = hash_key(s->device, s->ifname, s->metric, s->prio, s->queue);
    size_t pos = h & mask;
    for (uint64_t slot; (slot = m->slots[pos]) != 0; pos = (pos + 1) & mask) {
        uint32_t idx = (uint32_t)slot - 1;
        if (SLOT_TAG(slot) == SLOT_TAG(h) && key_equal(&m->keys[idx], s))
            return idx;
    }
    if (m->count == m->key_cap && dcb_grow(&m->keys, &m->key_cap, sizeof(*m->keys), 1024) < 0)
        return -1;
    struct series_key *k = &m->keys[m->count];
    memcpy(k->device, s->device, sizeof(k->device));
    memcpy(k->ifname, s->ifname, sizeof(k->ifname));
    k->device[sizeof(k->device) - 1] = '\0';
    k->ifname[sizeof(k->ifname) - 1] = '\0';
    k->metric = s->metric;
    k->prio = s->prio;
    k->queue = s->queue;
    k->bits = 0;
    m->slots[pos] = SLOT_TAG(h) | (m->count + 1);
    *added = true;
    return (int64_t)m->count++;
}

int64_t series_map_find(const struct series_map *m, const char *device, const char *ifname,
                        enum metric_id metric, int prio, int queue)
{
    if (!m->slot_cap)
        return -1;
    size_t mask = m->slot_cap - 1;
    uint64_t h = hash_key(device, ifname, metric, prio, queue);
    for (size_t pos = h & mask; m->slots[pos]; pos = (pos + 1) & mask) {
        uint64_t slot = m->slots[pos];
        const struct series_key *k = &m->keys[(uint32_t)slot - 1];
        if (SLOT_TAG(slot) == SLOT_TAG(h) && k->metric == metric && k->prio == prio &&
            k->queue == queue && !strcmp(k->device, device) && !strcmp(k->ifname, ifname))
            return (uint32_t)slot - 1;
    }
    return -1;
}

bool series_key_matches(const struct series_key *k, const struct store_filter *f)
{
    if (f->device && strcmp(f->device, k->device) != 0)
        return false;
    if (f->ifname && strcmp(f->ifname, k->ifname) != 0)
        return false;
    if (f->metric) {
        const struct metric_info *mi = metric_info(k->metric);
        if (!mi || strcmp(mi->name, f->metric) != 0)
            return false;
    }
    if (f->prio != STORE_ANY && f->prio != k->prio)
        return false;
    if (f->queue != STORE_ANY && f->queue != k->queue)
        return false;
    return true;
}

void series_key_to_sample(const struct series_key *k, struct dcb_sample *s)
{
    dcb_sample_set(s, 0, k->device, k->ifname, k->metric, k->prio, k->queue);
}
