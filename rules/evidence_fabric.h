/* A fabric file as evidence: every interface of every device with its effective (intended)
 * config and its link partner's. Metrics and events are unknown there. */
#ifndef DCB_EVIDENCE_FABRIC_H
#define DCB_EVIDENCE_FABRIC_H

#include "evidence.h"
#include "fabric.h"

/* Builds the configs once; 0 or a negative error. ev stays valid until evidence_fabric_close. */
int evidence_fabric_open(struct evidence *ev, const struct fabric *f, struct dcb_err *err);
void evidence_fabric_close(struct evidence *ev);

#endif
