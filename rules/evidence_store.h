/* The store as evidence (SQLite history or the live ring): ports are the (device, interface)
 * pairs with samples or config snapshots; a port's config is its snapshots merged (a fabric
 * file's intent first, then what was measured), and its partner's config is the snapshots with
 * a "peer:" source (what the partner advertised in LLDP/DCBX). */
#ifndef DCB_EVIDENCE_STORE_H
#define DCB_EVIDENCE_STORE_H

#include "evidence.h"
#include "store.h"

/* Reads the ports and the configs as of t1; 0 or a negative error. */
int evidence_store_open(struct evidence *ev, struct dcb_store *st, int64_t t1, struct dcb_err *err);
/* Reads every sample in [t0, t1] into memory once, by series, and answers metric windows from
 * there: one pass over the store instead of one per rule instance (the live ring keeps samples in
 * arrival order, so each query of its own would scan all of it). */
int evidence_store_preload(struct evidence *ev, int64_t t0, struct dcb_err *err);
/* No window reaches before t0 (diagnose --since): earlier samples and events are not evidence. */
void evidence_store_limit(struct evidence *ev, int64_t t0);
void evidence_store_close(struct evidence *ev);

#endif
