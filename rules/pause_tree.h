/* The pause tree of one priority, from the PFC events the evidence keeps: the root is the device
 * whose own egress queue grew and sent XOFF first; a switch that a link partner paused before it
 * sent XOFF itself only relays back-pressure and is a victim. A host relays nothing: a host that
 * sent XOFF is a root; one that sent none but was paused is a victim. */
#ifndef DCB_PAUSE_TREE_H
#define DCB_PAUSE_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules_ast.h"

/* The window a pause tree is read over: the catalog's, the last 5 minutes. */
#define PAUSE_TREE_WINDOW_NS (300 * 1000000000LL)

/* Where device sits in the pause tree of prio over [t0, t1]. 1 with *victim set (and, for a
 * victim, paused_by set to the partner port "device:ifname" whose XOFF reached it first), 0 when
 * the evidence cannot tell (no PFC events for it), or a negative error. ports: every port of
 * the evidence, sorted by device. */
int pause_tree_cause(const struct evidence *ev, const struct eval_port *ports, size_t nports,
                     const char *device, int prio, int64_t t0, int64_t t1, bool *victim,
                     char *paused_by, size_t len, struct dcb_err *err);

#endif
