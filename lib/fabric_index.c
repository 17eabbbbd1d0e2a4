/* Open-addressing hash tables over f->devices and f->links, kept in f->index. */
#include "fabric_index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct hash {
    unsigned *slot; /* value + 1; 0 is empty */
    size_t cap, n;  /* cap a power of two, kept at least twice n */
};

struct fabric_index {
    struct hash devices; /* device positions */
    size_t devices_done;
    struct hash ends; /* 2 * link + end */
    size_t links_done;
    unsigned *adj, *adj_off; /* each device's ends, by device (CSR); built for adj_links */
    size_t adj_links, adj_devices;
    bool adj_built;
};

static uint64_t fnv(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return (h ^ 0xff) * 1099511628211ULL; /* a separator: "ab"+"c" is not "a"+"bc" */
}

static uint64_t hash_of(const char *a, const char *b)
{
    uint64_t h = fnv(14695981039346656037ULL, a);
    return b ? fnv(h, b) : h;
}

static const struct fabric_end *end_of(const struct fabric *f, unsigned v)
{
    return v & 1 ? &f->links[v >> 1].b : &f->links[v >> 1].a;
}

static const char *key_a(const struct fabric *f, bool is_end, unsigned v)
{
    return is_end ? end_of(f, v)->device : f->devices[v].name;
}

static bool grow(const struct fabric *f, struct hash *h, bool is_end)
{
    if (2 * (h->n + 1) <= h->cap)
        return true;
    size_t cap = h->cap ? h->cap * 2 : 1024;
    unsigned *slot = calloc(cap, sizeof(*slot));
    if (!slot)
        return false;
    for (size_t i = 0; i < h->cap; i++) {
        unsigned v = h->slot[i];
        if (!v)
            continue;
        const char *b = is_end ? end_of(f, v - 1)->ifname : NULL;
        size_t k = hash_of(key_a(f, is_end, v - 1), b) & (cap - 1);
        while (slot[k])
            k = (k + 1) & (cap - 1);
        slot[k] = v;
    }
    free(h->slot);
    h->slot = slot;
    h->cap = cap;
    return true;
}

/* The slot holding a, b, or the empty one where it would go. */
static size_t probe(const struct fabric *f, const struct hash *h, bool is_end, const char *a,
                    const char *b)
{
    size_t k = hash_of(a, b) & (h->cap - 1);
    for (; h->slot[k]; k = (k + 1) & (h->cap - 1)) {
        unsigned v = h->slot[k] - 1;
        if (strcmp(key_a(f, is_end, v), a) == 0 &&
            (!is_end || (b && strcmp(end_of(f, v)->ifname, b) == 0)))
            break;
    }
    return k;
}

/* Adds value v under a, b unless the key is there already (the first stays). */
static bool insert(const struct fabric *f, struct hash *h, bool is_end, unsigned v)
{
    if (!grow(f, h, is_end))
        return false;
    const char *a = key_a(f, is_end, v), *b = is_end ? end_of(f, v)->ifname : NULL;
    size_t k = probe(f, h, is_end, a, b);
    if (!h->slot[k]) {
        h->slot[k] = v + 1;
        h->n++;
    }
    return true;
}

/* f->index brought up to f's devices and links; NULL when out of memory. The index is a cache:
 * it changes behind a const fabric (every fabric is malloc'd or on a stack, never const). */
static struct fabric_index *sync(const struct fabric *f)
{
    struct fabric *mf = (struct fabric *)f;
    if (!mf->index && !(mf->index = calloc(1, sizeof(*mf->index))))
        return NULL;
    struct fabric_index *x = mf->index;
    for (; x->devices_done < f->ndevices; x->devices_done++)
        if (!insert(f, &x->devices, false, (unsigned)x->devices_done))
            return NULL;
    for (; x->links_done < f->nlinks; x->links_done++)
        if (!insert(f, &x->ends, true, (unsigned)(2 * x->links_done)) ||
            !insert(f, &x->ends, true, (unsigned)(2 * x->links_done + 1)))
            return NULL;
    return x;
}

void fabric_index_free(struct fabric *f)
{
    struct fabric_index *x = f->index;
    if (!x)
        return;
    free(x->devices.slot);
    free(x->ends.slot);
    free(x->adj);
    free(x->adj_off);
    free(x);
    f->index = NULL;
}

long fabric_index_device(const struct fabric *f, const char *name)
{
    struct fabric_index *x = sync(f);
    if (!x)
        return -2;
    if (!x->devices.cap)
        return -1;
    unsigned v = x->devices.slot[probe(f, &x->devices, false, name, NULL)];
    return v ? (long)v - 1 : -1;
}

long fabric_index_end(const struct fabric *f, const char *device, const char *ifname)
{
    struct fabric_index *x = sync(f);
    if (!x)
        return -2;
    if (!x->ends.cap)
        return -1;
    unsigned v = x->ends.slot[probe(f, &x->ends, true, device, ifname)];
    return v ? (long)v - 1 : -1;
}

static bool build_adjacency(const struct fabric *f, struct fabric_index *x)
{
    free(x->adj);
    free(x->adj_off);
    x->adj_built = false;
    x->adj = malloc((2 * f->nlinks + 1) * sizeof(*x->adj));
    x->adj_off = calloc(f->ndevices + 2, sizeof(*x->adj_off));
    long *dev = malloc((2 * f->nlinks + 1) * sizeof(*dev));
    if (!x->adj || !x->adj_off || !dev) {
        free(dev);
        return false;
    }
    for (unsigned v = 0; v < 2 * f->nlinks; v++) {
        dev[v] = fabric_index_device(f, end_of(f, v)->device);
        if (dev[v] >= 0)
            x->adj_off[dev[v] + 2]++;
    }
    for (size_t d = 0; d < f->ndevices; d++)
        x->adj_off[d + 2] += x->adj_off[d + 1];
    for (unsigned v = 0; v < 2 * f->nlinks; v++) /* in link order: a stable counting sort */
        if (dev[v] >= 0)
            x->adj[x->adj_off[dev[v] + 1]++] = v;
    free(dev);
    x->adj_links = f->nlinks;
    x->adj_devices = f->ndevices;
    x->adj_built = true;
    return true;
}

bool fabric_index_device_ends(const struct fabric *f, size_t d, const unsigned **ends, size_t *n)
{
    struct fabric_index *x = sync(f);
    if (!x)
        return false;
    if ((!x->adj_built || x->adj_links != f->nlinks || x->adj_devices != f->ndevices) &&
        !build_adjacency(f, x))
        return false;
    *ends = x->adj + x->adj_off[d];
    *n = x->adj_off[d + 1] - x->adj_off[d];
    return true;
}
