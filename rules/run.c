/* Running a rule set over an evidence source: instances per scope, `for`, findings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pause_tree.h"
#include "proposal_check.h"
#include "rules_ast.h"
#include "tiers.h"

#define FOR_STEPS 8

struct ports {
    struct eval_port *v;
    size_t n, cap;
    bool nomem;
};

static void add_port(void *arg, const char *device, const char *ifname)
{
    struct ports *ps = arg;
    if (ps->n == ps->cap) {
        size_t cap = ps->cap ? ps->cap * 2 : 64;
        struct eval_port *grown = realloc(ps->v, cap * sizeof(*grown));
        if (!grown) {
            ps->nomem = true;
            return;
        }
        ps->v = grown;
        ps->cap = cap;
    }
    snprintf(ps->v[ps->n].device, sizeof(ps->v[0].device), "%s", device);
    snprintf(ps->v[ps->n].ifname, sizeof(ps->v[0].ifname), "%s", ifname ? ifname : "");
    ps->n++;
}

struct instance {
    const char *device, *ifname; /* NULL above port scope */
    int prio;
    int qp; /* -1 outside qp scope, or at a port with no QPs */
};

struct qp_list {
    int *v;
    size_t n, cap;
    bool nomem;
};

/* One run's state: everything rule_set_run writes lives here, so runs in parallel threads
 * share nothing but the rule set and the evidence they read. */
struct runner {
    const struct evidence *ev;
    const struct ports *ports;
    const struct rule_run_options *opt;
    struct rule_run_stats *stats;
    struct dcb_err *err;
    int error;
    struct agg_cache agg_cache;
    struct tier_map tiers;  /* built on the first uplink() */
    struct finding finding; /* zeroed only when a rule fires */
    struct pending_evidence pending[FINDING_EVIDENCE_MAX];
    struct qp_list qps; /* a port's QPs, reused from port to port */
    /* the last port's config and its partner's, asked for once for all its instances: the
     * names point into the run's port list, so equal pointers are the same port */
    const char *cfg_device, *cfg_ifname;
    const struct qos_config *cfg, *peer;
};

static void port_configs(struct runner *rn, const char *device, const char *ifname,
                         struct eval_ctx *c)
{
    if (device != rn->cfg_device || ifname != rn->cfg_ifname) {
        const struct evidence *ev = rn->ev;
        rn->cfg = ev->ops->config ? ev->ops->config(ev->ctx, device, ifname) : NULL;
        rn->peer = ev->ops->peer_config ? ev->ops->peer_config(ev->ctx, device, ifname) : NULL;
        rn->cfg_device = device;
        rn->cfg_ifname = ifname;
    }
    c->cfg = rn->cfg;
    c->peer = rn->peer;
}

/* A template with each {expr} replaced by its value, and $prio / $tc by the instance's. */
static void fill_template(const struct rule_template *t, struct eval_ctx *c, char *buf, size_t len)
{
    size_t o = 0, k = 0;
    buf[0] = '\0';
    for (const char *p = t->text; p && *p && o + 1 < len;) {
        int n = 0;
        if (*p == '{' && k < t->n) {
            int depth = 0;
            const char *q = p;
            for (; *q; q++) {
                depth += *q == '{' ? 1 : *q == '}' ? -1 : 0;
                if (!depth)
                    break;
            }
            char val[64];
            const struct rule_expr *e = t->exprs[k++];
            eval_value_format(e, expr_eval(e, c), val, sizeof(val));
            n = snprintf(buf + o, len - o, "%s", val);
            p = *q ? q + 1 : q;
        } else if ((!strncmp(p, "$prio", 5) || !strncmp(p, "$tc", 3)) && c->prio >= 0) {
            int v = p[1] == 'p' ? c->prio : -1;
            if (p[1] != 'p' && c->cfg && c->cfg->prio2tc[c->prio].set)
                v = (int)c->cfg->prio2tc[c->prio].v;
            n = v >= 0 ? snprintf(buf + o, len - o, "%d", v) : snprintf(buf + o, len - o, "$tc");
            p += p[1] == 'p' ? 5 : 3;
        } else {
            buf[o++] = *p == '\n' ? ' ' : *p;
            if (*p == '\n') /* a continuation line: one space, not its indent */
                while (p[1] == ' ' || p[1] == '\t')
                    p++;
            p++;
            continue;
        }
        o += n > 0 ? (size_t)n : 0;
        if (o >= len)
            o = len - 1;
    }
    buf[o] = '\0';
}

/* A proposal equal to the knob's value, or turning it against the rule's words, is no advice:
 * it is withdrawn and the summary says why. */
static void withdraw_useless_proposal(struct finding *f, const struct qos_config *cfg)
{
    enum proposal_verdict v = proposal_check(cfg, f->knob, f->proposed, f->rule->direction);
    if (v == PROPOSAL_OK)
        return;
    char note[256];
    proposal_withdrawn_note(v, cfg, f->knob, f->proposed, note, sizeof(note));
    size_t n = strlen(f->summary);
    snprintf(f->summary + n, sizeof(f->summary) - n, " (no proposal: %s)", note);
    f->proposed[0] = '\0';
    for (int i = 0; i < RULE_ALSO_MAX; i++)
        f->also[i][0] = '\0';
}

/* A victim of a pause tree only relays the pause: its finding says where the pause spread, as
 * info, and proposes nothing (the root's finding names the knob). The summary says so, for
 * every view. */
static void mark_victim(struct finding *f)
{
    f->cause = CAUSE_VICTIM;
    f->severity = RULE_INFO;
    size_t n = strlen(f->summary);
    snprintf(f->summary + n, sizeof(f->summary) - n,
             " (a victim: paused by %s before it paused anyone%s)",
             f->paused_by[0] ? f->paused_by : "its link partner",
             f->proposed[0] ? "; no proposal, the root's finding names the knob" : "");
    f->proposed[0] = '\0';
    for (int i = 0; i < RULE_ALSO_MAX; i++)
        f->also[i][0] = '\0';
}

static void run_instance(struct runner *rn, const struct rule *r, const struct instance *in)
{
    const struct evidence *ev = rn->ev;
    struct finding *f = &rn->finding;
    struct eval_ctx c = {
        .ev = ev,
        .ports = rn->ports->v,
        .nports = rn->ports->n,
        .agg_cache = &rn->agg_cache,
        .tiers = &rn->tiers,
        .device = in->device,
        .ifname = in->ifname,
        .prio = in->prio,
        .has_qp = in->qp >= 0,
        .qp = in->qp,
        .now_ns = rn->opt->now_ns,
        .err = rn->err,
        .record = true,
        .pending = rn->pending,
        .want_missing = rn->opt->on_undecided != NULL,
    };
    if (in->device && in->ifname)
        port_configs(rn, in->device, in->ifname, &c);
    rn->stats->instances++;
    struct value v = expr_eval(r->when, &c);
    /* `for`: the condition held over the whole period, looked at FOR_STEPS times */
    for (int step = 1; r->for_ns > 0 && step <= FOR_STEPS && v.kind == V_BOOL && v.num; step++) {
        c.now_ns = rn->opt->now_ns - r->for_ns * step / FOR_STEPS;
        struct value earlier = expr_eval(r->when, &c);
        if (earlier.kind != V_BOOL || !earlier.num)
            v = earlier;
    }
    c.now_ns = rn->opt->now_ns;
    if (c.error) {
        rn->error = c.error;
        return;
    }
    if (v.kind == V_BOOL && v.num) {
        memset(f, 0, sizeof(*f));
        rn->stats->fired++;
        f->rule = r;
        f->severity = r->severity;
        snprintf(f->device, sizeof(f->device), "%s", in->device ? in->device : "");
        snprintf(f->ifname, sizeof(f->ifname), "%s", in->ifname ? in->ifname : "");
        f->prio = in->prio;
        f->qp = in->qp;
        f->nevidence = evidence_format(&c, f->evidence, FINDING_EVIDENCE_MAX);
        c.record = false; /* the message adds no evidence */
        fill_template(&r->message, &c, f->summary, sizeof(f->summary));
        fill_template(&r->knob, &c, f->knob, sizeof(f->knob));
        if (r->propose) {
            struct value p = expr_eval(r->propose, &c);
            if (p.kind != V_UNKNOWN)
                eval_value_format(r->propose, p, f->proposed, sizeof(f->proposed));
        }
        for (int i = 0; i < r->nalso; i++) {
            char path[64], val[64];
            fill_template(&r->also[i].knob, &c, path, sizeof(path));
            struct value p = expr_eval(r->also[i].propose, &c);
            if (p.kind == V_UNKNOWN)
                continue;
            eval_value_format(r->also[i].propose, p, val, sizeof(val));
            snprintf(f->also[i], sizeof(f->also[i]), "%s=%s", path, val);
        }
        withdraw_useless_proposal(f, c.cfg);
        if (r->cause_pause_tree) {
            bool victim;
            int rc = pause_tree_cause(ev, rn->ports->v, rn->ports->n, in->device, in->prio,
                                      rn->opt->now_ns - PAUSE_TREE_WINDOW_NS, rn->opt->now_ns,
                                      &victim, f->paused_by, sizeof(f->paused_by), rn->err);
            if (rc < 0) {
                rn->error = rc;
                return;
            }
            if (rc == 1 && victim)
                mark_victim(f);
        }
        rn->opt->on_finding(rn->opt->arg, f);
    } else if (v.kind == V_UNKNOWN) {
        rn->stats->undecided++;
        if (rn->opt->on_undecided) {
            struct rule_undecided u = { .rule = r, .prio = in->prio, .qp = in->qp };
            snprintf(u.device, sizeof(u.device), "%s", in->device ? in->device : "");
            snprintf(u.ifname, sizeof(u.ifname), "%s", in->ifname ? in->ifname : "");
            snprintf(u.missing, sizeof(u.missing), "%s", c.missing[0] ? c.missing : "unknown");
            rn->opt->on_undecided(rn->opt->arg, &u);
        }
    }
}

static int port_cmp(const void *x, const void *y)
{
    const struct eval_port *a = x, *b = y;
    int c = strcmp(a->device, b->device);
    return c ? c : strcmp(a->ifname, b->ifname);
}

/* The priorities that are lossless on some port: a fabric-wide rule's priorities. */
static int fabric_lossless(const struct evidence *ev, const struct ports *ps)
{
    int mask = 0;
    for (size_t i = 0; i < ps->n; i++) {
        struct eval_ctx c = {
            .cfg = ev->ops->config ? ev->ops->config(ev->ctx, ps->v[i].device, ps->v[i].ifname)
                                   : NULL,
            .peer = ev->ops->peer_config
                        ? ev->ops->peer_config(ev->ctx, ps->v[i].device, ps->v[i].ifname)
                        : NULL,
        };
        int m = eval_lossless_mask(&c);
        if (m > 0)
            mask |= m;
    }
    return mask;
}

static bool profile_skips(const struct rule *r, const char *profile)
{
    for (int i = 0; profile && i < RULE_PROFILES_MAX && r->unless_profile[i]; i++)
        if (!strcmp(r->unless_profile[i], profile))
            return true;
    return false;
}

static void add_qp(void *arg, int qp)
{
    struct qp_list *l = arg;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        int *grown = realloc(l->v, cap * sizeof(*grown));
        if (!grown) {
            l->nomem = true;
            return;
        }
        l->v = grown;
        l->cap = cap;
    }
    l->v[l->n++] = qp;
}

/* qp scope: once per QP the port has per-QP series of; a port with none is one instance, where
 * per-QP metrics are unknown and the port's own metrics still answer. */
static void run_qp_rule(struct runner *rn, const struct rule *r, const struct eval_port *p)
{
    struct instance in = { p->device, p->ifname, -1, -1 };
    struct qp_list *qps = &rn->qps;
    qps->n = 0;
    if (rn->ev->ops->each_qp)
        rn->ev->ops->each_qp(rn->ev->ctx, p->device, p->ifname, add_qp, qps);
    if (qps->nomem) {
        qps->nomem = false;
        rn->error = dcb_err_set(rn->err, DCB_E_NOMEM, "out of memory listing QPs");
        return;
    }
    if (!qps->n)
        run_instance(rn, r, &in);
    for (size_t i = 0; i < qps->n && !rn->error; i++) {
        in.qp = qps->v[i];
        run_instance(rn, r, &in);
    }
}

static void run_port_rule(struct runner *rn, const struct rule *r, const struct eval_port *p)
{
    struct instance in = { p->device, p->ifname, -1, -1 };
    if (r->scope == SCOPE_QP) {
        run_qp_rule(rn, r, p);
        return;
    }
    if (r->scope != SCOPE_PRIORITY) {
        run_instance(rn, r, &in);
        return;
    }
    int mask = 0xff;
    if (!r->all_prios) {
        struct eval_ctx c = { 0 };
        port_configs(rn, p->device, p->ifname, &c);
        mask = eval_lossless_mask(&c);
        if (mask < 0) {
            rn->stats->undecided++;
            if (rn->opt->on_undecided) {
                struct rule_undecided u = { .rule = r, .prio = -1, .qp = -1 };
                snprintf(u.device, sizeof(u.device), "%s", p->device);
                snprintf(u.ifname, sizeof(u.ifname), "%s", p->ifname);
                snprintf(u.missing, sizeof(u.missing), "the lossless priorities (pfc.enabled)");
                rn->opt->on_undecided(rn->opt->arg, &u);
            }
            return;
        }
    }
    for (int prio = 0; prio < 8 && !rn->error; prio++)
        if (mask & (1 << prio)) {
            in.prio = prio;
            run_instance(rn, r, &in);
        }
}

/* Every rule of rs, in order, over the instances of its scope. */
static void run_rules(struct runner *rn, const struct rule_set *rs)
{
    for (size_t i = 0; i < rs->n && !rn->error; i++) {
        const struct rule *r = &rs->rules[i];
        if (profile_skips(r, rn->opt->profile))
            continue;
        if (r->scope == SCOPE_FABRIC && r->fabric_prios) {
            int mask = r->all_prios ? 0xff : fabric_lossless(rn->ev, rn->ports);
            for (int prio = 0; prio < 8 && !rn->error; prio++)
                if (mask & (1 << prio)) {
                    struct instance in = { NULL, NULL, prio, -1 };
                    run_instance(rn, r, &in);
                }
        } else if (r->scope == SCOPE_FABRIC) {
            struct instance in = { NULL, NULL, -1, -1 };
            run_instance(rn, r, &in);
        } else if (r->scope == SCOPE_DEVICE) {
            for (size_t p = 0; p < rn->ports->n && !rn->error; p++) {
                /* the ports are sorted by device: a device's first port follows another's */
                bool seen = p && !strcmp(rn->ports->v[p - 1].device, rn->ports->v[p].device);
                if (!seen) {
                    struct instance in = { rn->ports->v[p].device, NULL, -1, -1 };
                    run_instance(rn, r, &in);
                }
            }
        } else {
            for (size_t p = 0; p < rn->ports->n && !rn->error; p++)
                run_port_rule(rn, r, &rn->ports->v[p]);
        }
    }
}

int rule_set_run(const struct rule_set *rs, const struct evidence *ev,
                 const struct rule_run_options *opt, struct rule_run_stats *stats,
                 struct dcb_err *err)
{
    struct rule_run_stats local = { 0 };
    if (!stats)
        stats = &local;
    memset(stats, 0, sizeof(*stats));
    struct ports ports = { 0 };
    int rc = ev->ops->each_port(ev->ctx, add_port, &ports, err);
    if (rc < 0) {
        free(ports.v);
        return rc;
    }
    if (ports.nomem) {
        free(ports.v);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory listing ports");
    }
    /* by device, so that a device's ports are together for the ports_* functions */
    if (ports.n)
        qsort(ports.v, ports.n, sizeof(*ports.v), port_cmp);
    struct runner *rn = calloc(1, sizeof(*rn));
    if (!rn) {
        free(ports.v);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    }
    rn->ev = ev;
    rn->ports = &ports;
    rn->opt = opt;
    rn->stats = stats;
    rn->err = err;
    run_rules(rn, rs);
    rc = rn->error;
    tier_map_free(&rn->tiers);
    free(rn->qps.v);
    free(rn);
    free(ports.v);
    return rc;
}

const char *evidence_agg_name(enum evidence_agg a)
{
    static const char *const names[] = {
        "rate", "delta", "avg", "max", "min", "last", "busy_rate"
    };
    return names[a];
}
