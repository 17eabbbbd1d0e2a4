/* Remembered counter-name matches; see match_cache.h. */
#include "match_cache.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t slot_of(const struct counter_map *map, const char *name)
{
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)(uintptr_t)map;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 1099511628211ULL;
    return (size_t)(h & (MATCH_CACHE_SLOTS - 1));
}

bool match_cache_lookup(struct match_cache *mc, const struct counter_map *map, const char *name,
                        struct counter_match *out)
{
    if (!mc->slots)
        mc->slots = calloc(MATCH_CACHE_SLOTS, sizeof(*mc->slots));
    if (!mc->slots)
        return counter_map_match(map, name, out);
    for (size_t i = slot_of(map, name), probes = 0; probes < MATCH_CACHE_SLOTS;
         i = (i + 1) & (MATCH_CACHE_SLOTS - 1), probes++) {
        struct match_cache_entry *e = &mc->slots[i];
        if (!e->name) {
            bool mapped = counter_map_match(map, name, out);
            if (mc->used * 4 >= MATCH_CACHE_SLOTS * 3 || !(e->name = strdup(name)))
                return mapped; /* full: keep working, just slower */
            e->map = map;
            e->mapped = mapped;
            if (mapped)
                e->match = *out;
            mc->used++;
            return mapped;
        }
        if (e->map == map && !strcmp(e->name, name)) {
            if (e->mapped)
                *out = e->match;
            return e->mapped;
        }
    }
    return counter_map_match(map, name, out);
}

void match_cache_free(struct match_cache *mc)
{
    for (size_t i = 0; mc->slots && i < MATCH_CACHE_SLOTS; i++)
        free(mc->slots[i].name);
    free(mc->slots);
    mc->slots = NULL;
    mc->used = 0;
}
