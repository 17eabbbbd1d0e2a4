#include "identity.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

/* aliases of aliases: an LLDP chassis ID names a system name, which the fabric file's device
 * lists among its aliases */
#define IDENTITY_DEPTH 3

struct alias_edge {
    char *alias;
    char *device; /* the name that goes by alias (a device, or another alias) */
};

struct identity {
    char **devices;
    size_t ndevices, devices_cap;
    struct alias_edge *edges;
    size_t nedges, edges_cap;
};

struct identity *identity_new(void)
{
    return calloc(1, sizeof(struct identity));
}

void identity_free(struct identity *id)
{
    if (!id)
        return;
    for (size_t i = 0; i < id->ndevices; i++)
        free(id->devices[i]);
    for (size_t i = 0; i < id->nedges; i++) {
        free(id->edges[i].alias);
        free(id->edges[i].device);
    }
    free(id->devices);
    free(id->edges);
    free(id);
}

int identity_add_device(struct identity *id, const char *device)
{
    if (id->ndevices == id->devices_cap &&
        dcb_grow(&id->devices, &id->devices_cap, sizeof(*id->devices), 64) < 0)
        return -1;
    char *copy = strdup(device);
    if (!copy)
        return -1;
    id->devices[id->ndevices++] = copy;
    return 0;
}

int identity_add_alias(struct identity *id, const char *device, const char *alias)
{
    if (!*alias || !strcmp(alias, device))
        return 0;
    if (id->nedges == id->edges_cap &&
        dcb_grow(&id->edges, &id->edges_cap, sizeof(*id->edges), 16) < 0)
        return -1;
    struct alias_edge e = { strdup(alias), strdup(device) };
    if (!e.alias || !e.device) {
        free(e.alias);
        free(e.device);
        return -1;
    }
    id->edges[id->nedges++] = e;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_edge(const void *a, const void *b)
{
    const struct alias_edge *x = a, *y = b;
    int c = strcmp(x->alias, y->alias);
    return c ? c : strcmp(x->device, y->device);
}

void identity_build(struct identity *id)
{
    if (id->ndevices)
        qsort(id->devices, id->ndevices, sizeof(*id->devices), cmp_str);
    size_t n = 0;
    for (size_t i = 0; i < id->ndevices; i++) {
        if (n && !strcmp(id->devices[n - 1], id->devices[i]))
            free(id->devices[i]);
        else
            id->devices[n++] = id->devices[i];
    }
    id->ndevices = n;
    if (id->nedges)
        qsort(id->edges, id->nedges, sizeof(*id->edges), cmp_edge);
    n = 0;
    for (size_t i = 0; i < id->nedges; i++) {
        if (n && !cmp_edge(&id->edges[n - 1], &id->edges[i])) {
            free(id->edges[i].alias);
            free(id->edges[i].device);
        } else {
            id->edges[n++] = id->edges[i];
        }
    }
    id->nedges = n;
}

static const char *find_device(const struct identity *id, const char *name)
{
    char *const *hit = id->ndevices ? bsearch(&name, id->devices, id->ndevices,
                                              sizeof(*id->devices), cmp_str)
                                    : NULL;
    return hit ? *hit : NULL;
}

/* The first edge whose alias is name (edges are sorted by alias). */
static size_t first_edge(const struct identity *id, const char *name)
{
    size_t lo = 0, hi = id->nedges;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(id->edges[mid].alias, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static const char *resolve_at(const struct identity *id, const char *name, int depth,
                              bool *ambiguous)
{
    const char *device = find_device(id, name);
    if (device || depth == IDENTITY_DEPTH)
        return device;
    const char *found = NULL;
    for (size_t i = first_edge(id, name); i < id->nedges && !strcmp(id->edges[i].alias, name);
         i++) {
        const char *r = resolve_at(id, id->edges[i].device, depth + 1, ambiguous);
        if (*ambiguous)
            return NULL;
        if (r && found && r != found) {
            *ambiguous = true;
            return NULL;
        }
        found = r ? r : found;
    }
    return found;
}

const char *identity_resolve(const struct identity *id, const char *name)
{
    bool ambiguous = false;
    const char *r = resolve_at(id, name, 0, &ambiguous);
    return ambiguous ? NULL : r;
}

/* The device a claimant stands for, whatever else claims the names on the way. */
static const char *claimant_device(const struct identity *id, const char *claimant)
{
    bool ambiguous = false;
    return resolve_at(id, claimant, 1, &ambiguous);
}

size_t identity_conflicts(const struct identity *id, const char *device, const char **alias,
                          const char **other)
{
    const char *me = find_device(id, device);
    size_t count = 0;
    *alias = *other = NULL;
    for (size_t i = 0; me && i < id->nedges;) {
        const char *name = id->edges[i].alias, *mine = NULL, *theirs = NULL;
        size_t j = i;
        for (; j < id->nedges && !strcmp(id->edges[j].alias, name); j++) {
            const char *d = claimant_device(id, id->edges[j].device);
            if (d == me)
                mine = d;
            else if (d)
                theirs = d;
        }
        if (mine && theirs) {
            if (!count++) {
                *alias = name;
                *other = theirs;
            }
        }
        i = j;
    }
    return count;
}
