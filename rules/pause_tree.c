/* Root or victim of a pause tree; see pause_tree.h. */
#include "pause_tree.h"

#include <stdio.h>
#include <string.h>

/* The first XOFF on prio that the partner of device:ifname sent it: 1 with *ts, 0 none. */
static int paused_at(const struct evidence *ev, const char *device, const char *ifname, int prio,
                     int64_t t0, int64_t t1, int64_t *ts, char *from, size_t len,
                     struct dcb_err *err)
{
    const char *peer = ev->ops->peer_port ? ev->ops->peer_port(ev->ctx, device, ifname, false)
                                          : NULL;
    const char *colon = peer ? strchr(peer, ':') : NULL;
    if (!colon || (size_t)(colon - peer) >= 64)
        return 0;
    char pdev[64];
    snprintf(pdev, sizeof(pdev), "%.*s", (int)(colon - peer), peer);
    int rc = ev->ops->first_event(ev->ctx, pdev, colon + 1, EVENT_PFC_XOFF, prio, t0, t1, ts, err);
    if (rc == 1)
        snprintf(from, len, "%s", peer);
    return rc;
}

int pause_tree_cause(const struct evidence *ev, const struct eval_port *ports, size_t nports,
                     const char *device, int prio, int64_t t0, int64_t t1, bool *victim,
                     char *paused_by, size_t len, struct dcb_err *err)
{
    *victim = false;
    if (len)
        paused_by[0] = '\0';
    if (!ev->ops->first_event || !device || prio < 0)
        return 0;
    int64_t sent = 0;
    int rc = ev->ops->first_event(ev->ctx, device, NULL, EVENT_PFC_XOFF, prio, t0, t1, &sent, err);
    if (rc < 0)
        return rc;
    bool did_send = rc == 1;
    const char *role = ev->ops->role ? ev->ops->role(ev->ctx, device) : NULL;
    if (did_send && role && !strcmp(role, "host"))
        return 1; /* a host's XOFF is its own receive path's: it relays nothing */
    bool paused = false;
    int64_t first = 0;
    char from[132] = "";
    for (size_t i = 0; i < nports; i++) {
        if (strcmp(ports[i].device, device))
            continue;
        int64_t ts;
        char by[132];
        rc = paused_at(ev, device, ports[i].ifname, prio, t0, t1, &ts, by, sizeof(by), err);
        if (rc < 0)
            return rc;
        if (rc == 1 && (!paused || ts < first)) {
            paused = true;
            first = ts;
            snprintf(from, sizeof(from), "%s", by);
        }
    }
    if (!did_send && !paused)
        return 0; /* no PFC here at all: not part of a pause tree */
    /* paused strictly before it paused anyone: a tie does not make it a victim */
    *victim = paused && (!did_send || first < sent);
    if (*victim && len)
        snprintf(paused_by, len, "%s", from);
    return 1;
}
