/* The QPs of the store's ports; see evidence_qps.h. */
#include "evidence_qps.h"

#include <stdlib.h>

#include "grow.h"

void evidence_qps_take(struct evidence_qps *q, uint32_t port, const struct dcb_sample *s)
{
    const struct metric_info *mi = metric_info(s->metric);
    if (!mi || mi->labels != LABELS_QP || s->queue < 0)
        return;
    if (q->n && q->v[q->n - 1].port == port && q->v[q->n - 1].qp == s->queue)
        return; /* a QP's series mostly come one after another */
    if (q->n == q->cap && dcb_grow(&q->v, &q->cap, sizeof(*q->v), 64) < 0) {
        q->nomem = true;
        return;
    }
    q->v[q->n++] = (struct evidence_qp){ port, s->queue };
    q->sorted = false;
}

static int cmp_qp(const void *a, const void *b)
{
    const struct evidence_qp *x = a, *y = b;
    if (x->port != y->port)
        return x->port < y->port ? -1 : 1;
    return (x->qp > y->qp) - (x->qp < y->qp);
}

static void sort_unique(struct evidence_qps *q)
{
    if (q->n > 1)
        qsort(q->v, q->n, sizeof(*q->v), cmp_qp);
    size_t k = 0;
    for (size_t i = 0; i < q->n; i++)
        if (!k || cmp_qp(&q->v[k - 1], &q->v[i]))
            q->v[k++] = q->v[i];
    q->n = k;
    q->sorted = true;
}

void evidence_qps_each(struct evidence_qps *q, uint32_t port, evidence_qp_fn fn, void *arg)
{
    if (!q->sorted)
        sort_unique(q);
    size_t lo = 0, hi = q->n;
    while (lo < hi) { /* the port's first QP */
        size_t mid = (lo + hi) / 2;
        if (q->v[mid].port < port)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < q->n && q->v[i].port == port; i++)
        fn(arg, q->v[i].qp);
}

void evidence_qps_free(struct evidence_qps *q)
{
    free(q->v);
    *q = (struct evidence_qps){ 0 };
}
