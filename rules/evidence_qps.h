/* The QPs of the store's ports: which (port, QP) pairs have per-QP series (metrics labelled qp),
 * so that a qp-scope rule runs once per QP. Ports are the evidence's own indexes. */
#ifndef DCB_EVIDENCE_QPS_H
#define DCB_EVIDENCE_QPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "evidence.h"
#include "sample.h"

struct evidence_qp {
    uint32_t port;
    int32_t qp;
};

struct evidence_qps {
    struct evidence_qp *v;
    size_t n, cap;
    bool sorted, nomem;
};

/* Notes the sample's QP when its metric is per QP (anything else is ignored). */
void evidence_qps_take(struct evidence_qps *q, uint32_t port, const struct dcb_sample *s);
/* Calls fn for each QP of port, in ascending order, each once. */
void evidence_qps_each(struct evidence_qps *q, uint32_t port, evidence_qp_fn fn, void *arg);
void evidence_qps_free(struct evidence_qps *q);

#endif
