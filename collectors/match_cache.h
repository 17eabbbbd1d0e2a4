/* Counter names map to the same canonical metric every sample: the regex match of each
 * (map, name) is done once and remembered, so a sample costs a hash lookup per counter. */
#ifndef DCB_MATCH_CACHE_H
#define DCB_MATCH_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "counter_map.h"

#define MATCH_CACHE_SLOTS 16384 /* a power of two; when full, names are matched each time */

struct match_cache_entry {
    const struct counter_map *map;
    char *name;
    bool mapped;
    struct counter_match match;
};

struct match_cache {
    struct match_cache_entry *slots; /* allocated on first use */
    size_t used;
};

/* counter_map_match through the cache. */
bool match_cache_lookup(struct match_cache *mc, const struct counter_map *map, const char *name,
                        struct counter_match *out);
void match_cache_free(struct match_cache *mc);

#endif
