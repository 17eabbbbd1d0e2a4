/* Collecting and ranking findings, one way for every view. */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "findings.h"

void finding_list_add(void *arg, const struct finding *f)
{
    struct finding_list *l = arg;
    if (l->n == l->cap && dcb_grow(&l->v, &l->cap, sizeof(*l->v), 64) < 0) {
        l->nomem = true;
        return;
    }
    l->v[l->n++] = *f;
}

int finding_order(const struct finding *a, const struct finding *b)
{
    if (a->severity != b->severity)
        return (int)b->severity - (int)a->severity;
    if (a->cause != b->cause)
        return a->cause == CAUSE_ROOT ? -1 : 1;
    if (a->rule->confidence != b->rule->confidence)
        return a->rule->confidence < b->rule->confidence ? 1 : -1;
    int c = strcmp(a->rule->id, b->rule->id);
    if (c)
        return c;
    if ((c = strcmp(a->device, b->device)) != 0)
        return c;
    if ((c = strcmp(a->ifname, b->ifname)) != 0)
        return c;
    return a->prio != b->prio ? a->prio - b->prio : a->qp - b->qp;
}

static int by_order(const void *x, const void *y)
{
    return finding_order(x, y);
}

void finding_list_rank(struct finding_list *l)
{
    if (l->n > 1)
        qsort(l->v, l->n, sizeof(*l->v), by_order);
}

void finding_list_clear(struct finding_list *l)
{
    l->n = 0;
    l->nomem = false;
}

void finding_list_free(struct finding_list *l)
{
    free(l->v);
    memset(l, 0, sizeof(*l));
}
