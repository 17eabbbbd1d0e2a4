/* Device tiers from the cabling; see tiers.h. */
#include "tiers.h"

#include <stdlib.h>
#include <string.h>

#include "rules_ast.h"

static long device_index(const struct tier_map *t, const char *name, size_t len)
{
    size_t lo = 0, hi = t->ndev;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strncmp(t->dev[mid], name, len);
        if (!c && t->dev[mid][len])
            c = 1;
        if (!c)
            return (long)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* Each port's device and its partner's device, as indexes (-1 for a partner not known). */
static bool build(struct tier_map *t, const struct evidence *ev, const struct eval_port *ports,
                  size_t nports)
{
    t->dev = malloc((nports ? nports : 1) * sizeof(*t->dev));
    t->tier = malloc((nports ? nports : 1) * sizeof(*t->tier));
    long *own = malloc((nports ? nports : 1) * sizeof(*own));
    long *peer = malloc((nports ? nports : 1) * sizeof(*peer));
    if (!t->dev || !t->tier || !own || !peer) {
        free(own);
        free(peer);
        return false;
    }
    for (size_t i = 0; i < nports; i++) {
        if (!t->ndev || strcmp(t->dev[t->ndev - 1], ports[i].device)) {
            const char *role = ev->ops->role ? ev->ops->role(ev->ctx, ports[i].device) : NULL;
            t->tier[t->ndev] = role && !strcmp(role, "host") ? 0 : -1;
            t->dev[t->ndev++] = ports[i].device;
        }
        own[i] = (long)t->ndev - 1;
    }
    for (size_t i = 0; i < nports; i++) {
        const char *p = ev->ops->peer_port
                            ? ev->ops->peer_port(ev->ctx, ports[i].device, ports[i].ifname, false)
                            : NULL;
        const char *colon = p ? strchr(p, ':') : NULL;
        peer[i] = colon ? device_index(t, p, (size_t)(colon - p)) : -1;
        /* a switch cabled to a host is a leaf, whether or not the host is in the evidence */
        const char *role = ev->ops->peer_role
                               ? ev->ops->peer_role(ev->ctx, ports[i].device, ports[i].ifname)
                               : NULL;
        if (role && !strcmp(role, "host") && t->tier[own[i]] != 0)
            t->tier[own[i]] = 1;
    }
    /* shortest distance to a host, relaxed until it settles (a pass per tier) */
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < nports; i++) {
            int *mine = &t->tier[own[i]];
            if (peer[i] < 0 || *mine == 0 || t->tier[peer[i]] < 0)
                continue;
            if (*mine < 0 || *mine > t->tier[peer[i]] + 1) {
                *mine = t->tier[peer[i]] + 1;
                changed = true;
            }
        }
    }
    free(own);
    free(peer);
    return true;
}

int tier_of(struct tier_map *t, const struct evidence *ev, const struct eval_port *ports,
            size_t nports, const char *device)
{
    if (!t->built) {
        t->built = true;
        t->nomem = !build(t, ev, ports, nports);
    }
    if (t->nomem || !device)
        return -1;
    long i = device_index(t, device, strlen(device));
    return i < 0 ? -1 : t->tier[i];
}

void tier_map_free(struct tier_map *t)
{
    free(t->dev);
    free(t->tier);
    memset(t, 0, sizeof(*t));
}
