/* A fabric file's intended config as evidence; see evidence_fabric.h. */
#include "evidence_fabric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fabric_port {
    const char *device;
    char ifname[DCB_IFNAME_MAX];
    struct qos_config cfg;
    long peer;                                           /* index of the link partner's port, -1 */
    char peer_name[DCB_DEVICE_MAX + DCB_IFNAME_MAX + 1]; /* peer_port()'s answer */
};

struct fabric_evidence {
    const struct fabric *f;
    struct fabric_port *ports;
    size_t n, cap;
    bool nomem;
    const struct fabric_device *cur;
};

static void add_iface(const char *ifname, void *arg)
{
    struct fabric_evidence *fe = arg;
    if (fe->n == fe->cap) {
        size_t cap = fe->cap ? fe->cap * 2 : 64;
        struct fabric_port *grown = realloc(fe->ports, cap * sizeof(*grown));
        if (!grown) {
            fe->nomem = true;
            return;
        }
        fe->ports = grown;
        fe->cap = cap;
    }
    struct fabric_port *p = &fe->ports[fe->n++];
    p->device = fe->cur->name;
    snprintf(p->ifname, sizeof(p->ifname), "%s", ifname);
    p->peer = -1;
}

static long find_port(const struct fabric_evidence *fe, const char *device, const char *ifname)
{
    for (size_t i = 0; i < fe->n; i++)
        if (!strcmp(fe->ports[i].device, device) && !strcmp(fe->ports[i].ifname, ifname))
            return (long)i;
    return -1;
}

static int each_port(void *ctx, evidence_port_fn fn, void *arg, struct dcb_err *err)
{
    (void)err;
    struct fabric_evidence *fe = ctx;
    for (size_t i = 0; i < fe->n; i++)
        fn(arg, fe->ports[i].device, fe->ports[i].ifname);
    return 0;
}

static const struct qos_config *config(void *ctx, const char *device, const char *ifname)
{
    struct fabric_evidence *fe = ctx;
    long i = find_port(fe, device, ifname);
    return i < 0 ? NULL : &fe->ports[i].cfg;
}

static const struct qos_config *peer_config(void *ctx, const char *device, const char *ifname)
{
    struct fabric_evidence *fe = ctx;
    long i = find_port(fe, device, ifname);
    return i < 0 || fe->ports[i].peer < 0 ? NULL : &fe->ports[fe->ports[i].peer].cfg;
}

static bool peer_judged(void *ctx, const char *device, const char *ifname)
{
    return peer_config(ctx, device, ifname) != NULL;
}

static const char *peer_port(void *ctx, const char *device, const char *ifname, bool observed)
{
    struct fabric_evidence *fe = ctx;
    long i = find_port(fe, device, ifname);
    if (observed || i < 0 || fe->ports[i].peer < 0)
        return NULL;
    const struct fabric_port *q = &fe->ports[fe->ports[i].peer];
    snprintf(fe->ports[i].peer_name, sizeof(fe->ports[i].peer_name), "%s:%s", q->device, q->ifname);
    return fe->ports[i].peer_name;
}

static const char *peer_role(void *ctx, const char *device, const char *ifname)
{
    const struct fabric_evidence *fe = ctx;
    long i = find_port(fe, device, ifname);
    if (i < 0 || fe->ports[i].peer < 0)
        return NULL;
    const struct fabric_device *d = fabric_find_device(fe->f, fe->ports[fe->ports[i].peer].device);
    return d ? fabric_role_name(d->role) : NULL;
}

static const char *role(void *ctx, const char *device)
{
    struct fabric_evidence *fe = ctx;
    const struct fabric_device *d = fabric_find_device(fe->f, device);
    return d ? fabric_role_name(d->role) : NULL;
}

static const struct evidence_ops fabric_ops = {
    .each_port = each_port,
    .config = config,
    .peer_config = peer_config,
    .peer_judged = peer_judged,
    .peer_port = peer_port,
    .role = role,
    .peer_role = peer_role,
};

int evidence_fabric_open(struct evidence *ev, const struct fabric *f, struct dcb_err *err)
{
    struct fabric_evidence *fe = calloc(1, sizeof(*fe));
    if (!fe)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    fe->f = f;
    for (size_t d = 0; d < f->ndevices; d++) {
        fe->cur = &f->devices[d];
        fabric_each_iface(f, fe->cur, add_iface, fe);
    }
    int rc = fe->nomem ? dcb_err_set(err, DCB_E_NOMEM, "out of memory") : 0;
    for (size_t i = 0; i < fe->n && !rc; i++) {
        struct fabric_port *p = &fe->ports[i];
        rc = fabric_effective_config(f, p->device, p->ifname, &p->cfg, err);
        const struct fabric_end *peer = NULL;
        if (!rc && fabric_find_link(f, p->device, p->ifname, &peer) && peer)
            p->peer = find_port(fe, peer->device, peer->ifname);
    }
    if (rc) {
        free(fe->ports);
        free(fe);
        return rc;
    }
    ev->ops = &fabric_ops;
    ev->ctx = fe;
    return 0;
}

void evidence_fabric_close(struct evidence *ev)
{
    struct fabric_evidence *fe = ev->ctx;
    if (fe) {
        free(fe->ports);
        free(fe);
    }
    ev->ctx = NULL;
}
