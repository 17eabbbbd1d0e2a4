/* Findings collected from a rules run and put in the one order every view lists them in
 * (diagnose, report, dcbtop, serve): severity, then root cause before victim, then the rule's
 * confidence, then rule id, device, port and priority. The list is a finding_fn sink. */
#ifndef DCB_FINDINGS_H
#define DCB_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "rules.h"

struct finding_list {
    struct finding *v;
    size_t n, cap;
    bool nomem; /* a finding was lost for want of memory */
};

/* A finding_fn: arg is the list; the finding is copied. */
void finding_list_add(void *arg, const struct finding *f);
/* Puts the list in the one order. */
void finding_list_rank(struct finding_list *l);
/* Forgets the findings, keeping the memory for the next run. */
void finding_list_clear(struct finding_list *l);
void finding_list_free(struct finding_list *l);

/* <0 when a comes first in the one order, >0 when b does; 0 only for the same place of the same
 * rule. */
int finding_order(const struct finding *a, const struct finding *b);

#endif
