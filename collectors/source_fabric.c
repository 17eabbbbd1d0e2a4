/* fabric: a fabric file's intent as a source of config only. Each device gets the other names it
 * goes by ("alias:fabric": its aliases and gNMI address), each interface its intended config
 * ("fabric"), its link partner's ("peer:fabric"), where it sits ("topology") and the link
 * itself, once, on the first tick; then the source ends. The gNMI and replay sources give the
 * same for their fabric. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qos_json.h"
#include "source.h"
#include "source_child.h"
#include "topology_row.h"
#include "units.h"

struct each_iface {
    struct dcb_source *src;
    const struct fabric *f;
    const struct fabric_device *d;
    int64_t now_ns;
};

static void put_config(struct each_iface *e, const char *ifname, const char *source,
                       const struct qos_config *c)
{
    cJSON *j = qos_to_json(c);
    char *text = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    if (!text)
        return;
    struct store_config_row row = { e->now_ns, e->d->name, ifname, source, text };
    e->src->sink.config(e->src->sink.arg, &row);
    free(text);
}

static void intent_of(const char *ifname, void *arg)
{
    struct each_iface *e = arg;
    struct qos_config c, peer;
    struct dcb_err err;
    if (fabric_effective_config(e->f, e->d->name, ifname, &c, &err) < 0)
        return;
    put_config(e, ifname, "fabric", &c);
    char *where = fabric_topology_json(e->f, e->d->name, ifname, NULL);
    if (where) { /* where the port sits: the rules' role() and peer_role() */
        struct store_config_row row = { e->now_ns, e->d->name, ifname, "topology", where };
        e->src->sink.config(e->src->sink.arg, &row);
        free(where);
    }
    const struct fabric_end *other = NULL;
    if (!fabric_find_link(e->f, e->d->name, ifname, &other) || !other)
        return;
    if (fabric_effective_config(e->f, other->device, other->ifname, &peer, &err) == 0)
        put_config(e, ifname, "peer:fabric", &peer);
    if (e->src->sink.link)
        e->src->sink.link(e->src->sink.arg, e->d->name, ifname, other->device, other->ifname,
                          "fabric");
}

/* The names the device goes by besides its own: its aliases and its gNMI address. */
static void aliases_of(struct each_iface *e)
{
    const char *names[FABRIC_ALIASES_MAX + 1];
    size_t n = 0;
    for (size_t i = 0; i < e->d->naliases; i++)
        names[n++] = e->d->aliases[i];
    if (e->d->reach == REACH_GNMI)
        names[n++] = e->d->gnmi.target;
    char *text = alias_row_json(names, n);
    struct store_config_row row = { e->now_ns, e->d->name, "", "alias:fabric", text };
    if (text)
        e->src->sink.config(e->src->sink.arg, &row);
    free(text);
}

void source_fabric_intent(struct dcb_source *src, const struct fabric *f, int64_t now_ns)
{
    for (size_t d = 0; d < f->ndevices; d++) {
        struct each_iface e = { src, f, &f->devices[d], now_ns };
        aliases_of(&e);
        fabric_each_iface(f, e.d, intent_of, &e);
    }
}

struct fabric_ctx {
    struct fabric fab;
    bool given;
};

static int fabric_tick(struct dcb_source *src, int64_t now_ns, int64_t *data_ns,
                       struct dcb_err *err)
{
    (void)err;
    struct fabric_ctx *c = src->ctx;
    *data_ns = now_ns;
    if (c->given)
        return DCB_SOURCE_END;
    source_fabric_intent(src, &c->fab, now_ns);
    c->given = true;
    return DCB_SOURCE_END;
}

static void fabric_close(struct dcb_source *src)
{
    struct fabric_ctx *c = src->ctx;
    fabric_free(&c->fab);
    free(c);
    src->ctx = NULL;
}

static const struct dcb_source_ops fabric_ops = { fabric_tick, NULL, fabric_close };

int dcb_source_fabric_open(struct dcb_source *src, const char *path, struct dcb_err *err)
{
    struct fabric_ctx *c = calloc(1, sizeof(*c));
    if (!c)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    fabric_init(&c->fab);
    if (fabric_load_file(&c->fab, path, err) < 0) {
        fabric_free(&c->fab);
        free(c);
        return -1;
    }
    src->ops = &fabric_ops;
    src->ctx = c;
    src->kind = SOURCE_FABRIC;
    src->finite = true;
    snprintf(src->name, sizeof(src->name), "fabric %s", path);
    return 0;
}
