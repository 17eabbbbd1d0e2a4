/* at_peer(x): an expression read at the port's link partner, as the cabling names it (a fabric
 * file's links, a store's topology rows), with the partner's own config. What one end of a link
 * counts is judged against what the other end counts: the marks a switch put on a host's packets
 * against the CE marks the host received. */
#include <string.h>

#include "rules_ast.h"

/* The evidence's port "device:ifname" names: a device name may hold a colon, so the split is
 * the one that names a port the evidence knows. */
static const struct eval_port *port_named(const struct eval_ctx *c, const char *name)
{
    for (size_t i = 0; i < c->nports; i++) {
        const struct eval_port *p = &c->ports[i];
        size_t dl = strlen(p->device);
        if (!strncmp(name, p->device, dl) && name[dl] == ':' && !strcmp(name + dl + 1, p->ifname))
            return p;
    }
    return NULL;
}

struct value rule_func_at_peer(const struct rule_expr *e, struct eval_ctx *c)
{
    const struct evidence *ev = c->ev;
    const char *name = c->device && c->ifname && ev->ops->peer_port
                           ? ev->ops->peer_port(ev->ctx, c->device, c->ifname, false)
                           : NULL;
    const struct eval_port *p = name ? port_named(c, name) : NULL;
    if (!p) {
        eval_note_missing(c, "the link partner's port");
        return value_unknown();
    }
    struct eval_ctx sub = eval_ctx_at(c, p);
    struct value v = expr_eval(e->args[0], &sub);
    c->error = sub.error;
    if (v.kind == V_UNKNOWN)
        eval_note_missing(c, e->text);
    else
        eval_note_evidence(c, e, v);
    return v;
}
