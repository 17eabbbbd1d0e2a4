#include "report_map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void report_map_init(struct report_map *m)
{
    memset(m, 0, sizeof(*m));
}

void report_map_free(struct report_map *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->values);
    memset(m, 0, sizeof(*m));
}

static uint64_t fnv(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return h;
}

/* FNV-1a of "a\x1fb": the same whether hashed from the pair or from the stored key. */
static uint64_t hash_pair(const char *a, const char *b)
{
    uint64_t h = fnv(0xcbf29ce484222325ULL, a);
    h = fnv((h ^ 0x1f) * 0x100000001b3ULL, b);
    return h ^ (h >> 31);
}

static uint64_t hash_key(const char *key)
{
    uint64_t h = fnv(0xcbf29ce484222325ULL, key);
    return h ^ (h >> 31);
}

static int key_is(const char *key, const char *a, const char *b)
{
    size_t la = strlen(a);
    return strncmp(key, a, la) == 0 && key[la] == '\x1f' && strcmp(key + la + 1, b) == 0;
}

static size_t slot_of(const struct report_map *m, const char *a, const char *b)
{
    size_t i = (size_t)hash_pair(a, b) & (m->cap - 1);
    while (m->keys[i] && !key_is(m->keys[i], a, b))
        i = (i + 1) & (m->cap - 1);
    return i;
}

int64_t report_map_get(const struct report_map *m, const char *a, const char *b)
{
    if (!m->cap)
        return -1;
    size_t i = slot_of(m, a, b);
    return m->keys[i] ? m->values[i] : -1;
}

static int rehash(struct report_map *m, size_t cap)
{
    struct report_map n = { calloc(cap, sizeof(char *)), calloc(cap, sizeof(int64_t)), cap, 0 };
    if (!n.keys || !n.values) {
        free(n.keys);
        free(n.values);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i])
            continue;
        size_t j = (size_t)hash_key(m->keys[i]) & (cap - 1);
        while (n.keys[j])
            j = (j + 1) & (cap - 1);
        n.keys[j] = m->keys[i];
        n.values[j] = m->values[i];
    }
    n.count = m->count;
    free(m->keys);
    free(m->values);
    *m = n;
    return 0;
}

int report_map_put(struct report_map *m, const char *a, const char *b, int64_t value)
{
    if ((m->count + 1) * 2 > m->cap && rehash(m, m->cap ? m->cap * 2 : 64) < 0)
        return -1;
    size_t i = slot_of(m, a, b);
    if (!m->keys[i]) {
        size_t len = strlen(a) + strlen(b) + 2;
        if (!(m->keys[i] = malloc(len)))
            return -1;
        snprintf(m->keys[i], len, "%s\x1f%s", a, b);
        m->count++;
    }
    m->values[i] = value;
    return 0;
}
