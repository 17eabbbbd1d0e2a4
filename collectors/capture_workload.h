/* A capture's RoCEv2 data flows as a replay workload (capture_workload.c). */
#ifndef DCB_CAPTURE_WORKLOAD_H
#define DCB_CAPTURE_WORKLOAD_H

#include <stddef.h>

#include "err.h"
#include "fabric.h"
#include "workload.h"

/* The data flows of a capture (RoCEv2 QPs carrying a PSN stream) as a workload between the
 * fabric's hosts: addresses map to hosts in order of first appearance, or by map
 * ("192.168.10.1=host1"). */
int capture_workload_read(const char *path, const struct fabric *f, const char *const *map,
                          size_t nmap, struct workload *w, struct dcb_err *err);

#endif
