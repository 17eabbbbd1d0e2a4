/* dcbkit replay --plot: the bottleneck queue's depth, each flow's Rc and Rt, and the pause
 * intervals on one time axis (lib/svg_chart), from the series and events of a run. Queue points
 * are kept until the end (the bottleneck is only known then); at most PLOT_FLOWS flows and
 * PLOT_LANES pause lanes are drawn. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay_cmd.h"
#include "svg_chart.h"

#define PLOT_FLOWS 8
#define PLOT_LANES 12
#define PLOT_MAX_POINTS (16u << 20)

struct plot_points {
    int64_t *t;
    double *v;
    size_t n, cap;
};

struct plot_queue {
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX];
    int tc;
    double sum, max;
    struct plot_points p;
};

struct plot_lane {
    char label[DCB_DEVICE_MAX + DCB_IFNAME_MAX + 16];
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX];
    int prio;
    int64_t open_since;       /* -1: not paused */
    struct plot_points spans; /* t: start, v: end */
};

struct replay_plot_data {
    int64_t t0; /* times are relative to this */
    struct plot_queue *queues;
    size_t nqueues;
    struct plot_points rc[PLOT_FLOWS], rt[PLOT_FLOWS];
    struct plot_lane lanes[PLOT_LANES];
    size_t nlanes, points;
    uint64_t lanes_dropped;
    bool oom;
};

struct replay_plot_data *replay_plot_new(int64_t t0)
{
    struct replay_plot_data *d = calloc(1, sizeof(*d));
    if (d)
        d->t0 = t0;
    return d;
}

static void points_free(struct plot_points *p)
{
    free(p->t);
    free(p->v);
}

void replay_plot_free(struct replay_plot_data *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->nqueues; i++)
        points_free(&d->queues[i].p);
    free(d->queues);
    for (int i = 0; i < PLOT_FLOWS; i++) {
        points_free(&d->rc[i]);
        points_free(&d->rt[i]);
    }
    for (size_t i = 0; i < d->nlanes; i++)
        points_free(&d->lanes[i].spans);
    free(d);
}

static void push(struct replay_plot_data *d, struct plot_points *p, int64_t t, double v)
{
    if (d->oom || d->points >= PLOT_MAX_POINTS)
        return;
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 256;
        int64_t *nt = realloc(p->t, cap * sizeof(*nt));
        if (nt)
            p->t = nt;
        double *nv = nt ? realloc(p->v, cap * sizeof(*nv)) : NULL;
        if (!nv) {
            d->oom = true;
            return;
        }
        p->v = nv;
        p->cap = cap;
    }
    p->t[p->n] = t;
    p->v[p->n++] = v;
    d->points++;
}

void replay_plot_series(struct replay_plot_data *d, const struct replay_series_point *sp)
{
    int64_t t = sp->time_ns - d->t0;
    if (sp->kind == SERIES_FLOW_RC || sp->kind == SERIES_FLOW_RT) {
        if (sp->index >= 0 && sp->index < PLOT_FLOWS)
            push(d, sp->kind == SERIES_FLOW_RC ? &d->rc[sp->index] : &d->rt[sp->index], t,
                 sp->value);
        return;
    }
    struct plot_queue *q = NULL;
    for (size_t i = 0; i < d->nqueues && !q; i++)
        if (d->queues[i].tc == sp->index && !strcmp(d->queues[i].ifname, sp->ifname) &&
            !strcmp(d->queues[i].device, sp->device))
            q = &d->queues[i];
    if (!q) {
        struct plot_queue *grown = realloc(d->queues, (d->nqueues + 1) * sizeof(*grown));
        if (!grown) {
            d->oom = true;
            return;
        }
        d->queues = grown;
        q = &d->queues[d->nqueues++];
        memset(q, 0, sizeof(*q));
        snprintf(q->device, sizeof(q->device), "%s", sp->device);
        snprintf(q->ifname, sizeof(q->ifname), "%s", sp->ifname);
        q->tc = sp->index;
    }
    q->sum += sp->value;
    if (sp->value > q->max)
        q->max = sp->value;
    push(d, &q->p, t, sp->value);
}

/* PFC XOFF to XON of one port and priority: one interval of its lane. */
void replay_plot_event(struct replay_plot_data *d, const struct dcb_event *e)
{
    if (e->kind != EVENT_PFC_XOFF && e->kind != EVENT_PFC_XON)
        return;
    int64_t t = e->time_ns - d->t0;
    struct plot_lane *l = NULL;
    for (size_t i = 0; i < d->nlanes && !l; i++)
        if (d->lanes[i].prio == e->prio && !strcmp(d->lanes[i].ifname, e->ifname) &&
            !strcmp(d->lanes[i].device, e->device))
            l = &d->lanes[i];
    if (!l) {
        if (e->kind == EVENT_PFC_XON)
            return;
        if (d->nlanes == PLOT_LANES) {
            d->lanes_dropped++;
            return;
        }
        l = &d->lanes[d->nlanes++];
        memset(l, 0, sizeof(*l));
        snprintf(l->device, sizeof(l->device), "%s", e->device);
        snprintf(l->ifname, sizeof(l->ifname), "%s", e->ifname);
        snprintf(l->label, sizeof(l->label), "%s:%s p%d", e->device, e->ifname, e->prio);
        l->prio = e->prio;
        l->open_since = -1;
    }
    if (e->kind == EVENT_PFC_XOFF && l->open_since < 0) {
        l->open_since = t;
    } else if (e->kind == EVENT_PFC_XON && l->open_since >= 0) {
        push(d, &l->spans, l->open_since, (double)t);
        l->open_since = -1;
    }
}

/* The queue that held most over the run: the bottleneck. */
static const struct plot_queue *bottleneck(const struct replay_plot_data *d)
{
    const struct plot_queue *best = NULL;
    for (size_t i = 0; i < d->nqueues; i++)
        if (!best || d->queues[i].sum > best->sum)
            best = &d->queues[i];
    return best;
}

int replay_plot_write(const char *path, struct replay_plot_data *d, const struct scenario *sc,
                      const struct scenario_result *r, struct dcb_err *err)
{
    if (d->oom)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory for the plot");
    int64_t t1 = r->simulated_ns > 0 ? r->simulated_ns : 1;
    char title[160];
    snprintf(title, sizeof(title), "replay %s: %s, %zu flows", sc->name,
             workload_type_name(sc->workload.type), sc->workload.nflows);
    struct svg_chart *c = svg_chart_new(title, 0, t1);
    if (!c)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory for the plot");
    const struct plot_queue *q = bottleneck(d);
    char ptitle[160];
    if (q)
        snprintf(ptitle, sizeof(ptitle), "bottleneck queue: %s:%s TC %d", q->device, q->ifname,
                 q->tc);
    else
        snprintf(ptitle, sizeof(ptitle), "bottleneck queue: no queue carried traffic");
    int p_queue = svg_chart_panel(c, ptitle, SVG_UNIT_BYTES, "queue depth");
    if (q) {
        struct svg_series *s = svg_chart_line(c, p_queue, "depth");
        if (s)
            svg_series_points(s, q->p.t, q->p.v, q->p.n);
    }
    size_t nflows = sc->workload.nflows;
    snprintf(ptitle, sizeof(ptitle), "flow rates (DCQCN Rc, Rt)%s",
             nflows > PLOT_FLOWS ? ": the first 8 flows" : "");
    int p_rate = svg_chart_panel(c, ptitle, SVG_UNIT_BPS, "rate");
    for (size_t f = 0; f < nflows && f < PLOT_FLOWS; f++) {
        char label[96];
        snprintf(label, sizeof(label), "%zu Rc %s>%s", f, sc->workload.flows[f].src,
                 sc->workload.flows[f].dst);
        struct svg_series *s = svg_chart_line(c, p_rate, label);
        if (s)
            svg_series_points(s, d->rc[f].t, d->rc[f].v, d->rc[f].n);
        snprintf(label, sizeof(label), "%zu Rt", f);
        s = svg_chart_line(c, p_rate, label);
        if (s)
            svg_series_points(s, d->rt[f].t, d->rt[f].v, d->rt[f].n);
    }
    snprintf(ptitle, sizeof(ptitle), "PFC pauses (XOFF to XON, by port and priority)%s",
             d->nlanes ? "" : ": none");
    int p_pause = svg_chart_panel(c, ptitle, SVG_UNIT_NONE, NULL);
    for (size_t i = 0; i < d->nlanes; i++) {
        struct plot_lane *l = &d->lanes[i];
        struct svg_lane *lane = svg_chart_lane(c, p_pause, l->label);
        if (!lane)
            continue;
        for (size_t k = 0; k < l->spans.n; k++)
            svg_lane_interval(lane, l->spans.t[k], (int64_t)l->spans.v[k]);
        if (l->open_since >= 0)
            svg_lane_interval(lane, l->open_since, t1);
    }
    if (p_queue < 0 || p_rate < 0 || p_pause < 0) {
        svg_chart_free(c);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory for the plot");
    }
    FILE *fp = fopen(path, "w");
    if (!fp) {
        int e = errno;
        svg_chart_free(c);
        return dcb_err_set(err, DCB_E_IO, "%s", strerror(e));
    }
    int rc = svg_chart_write(c, fp);
    if (fclose(fp) != 0 || rc < 0) {
        int e = errno;
        svg_chart_free(c);
        return dcb_err_set(err, DCB_E_IO, "writing: %s", strerror(e));
    }
    svg_chart_free(c);
    return 0;
}
