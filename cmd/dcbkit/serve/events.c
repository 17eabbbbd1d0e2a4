/* dcbkit_events_total: every event the source reports is counted here on its way into the ring,
 * in a table kept sorted by (device, ifname, prio, kind), the order the page lists them in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

static int cmp_event_key(const struct prom_event_count *c, const struct dcb_event *e)
{
    int d = strcmp(c->device, e->device);
    if (!d)
        d = strcmp(c->ifname, e->ifname);
    if (!d)
        d = (c->prio > e->prio) - (c->prio < e->prio);
    if (!d)
        d = (c->kind > e->kind) - (c->kind < e->kind);
    return d;
}

static bool grow(struct serve_events *ev)
{
    if (ev->n < ev->cap)
        return true;
    size_t cap = ev->cap ? ev->cap * 2 : 64;
    struct prom_event_count *v = realloc(ev->v, cap * sizeof(*v));
    if (!v) {
        ev->nomem = true;
        return false;
    }
    ev->v = v;
    ev->cap = cap;
    return true;
}

/* One more event of its (device, ifname, prio, kind): a binary search in the sorted table. */
void serve_events_count(struct serve_events *ev, const struct dcb_event *e)
{
    size_t lo = 0, hi = ev->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int d = cmp_event_key(&ev->v[mid], e);
        if (d == 0) {
            ev->v[mid].count++;
            return;
        }
        if (d < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!grow(ev))
        return;
    memmove(&ev->v[lo + 1], &ev->v[lo], (ev->n - lo) * sizeof(*ev->v));
    struct prom_event_count *c = &ev->v[lo];
    memset(c, 0, sizeof(*c));
    snprintf(c->device, sizeof(c->device), "%s", e->device);
    snprintf(c->ifname, sizeof(c->ifname), "%s", e->ifname);
    c->prio = e->prio;
    c->kind = e->kind;
    c->count = 1;
    ev->n++;
}

void serve_events_free(struct serve_events *ev)
{
    free(ev->v);
    memset(ev, 0, sizeof(*ev));
}
