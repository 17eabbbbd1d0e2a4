/* The paths a device does not serve, as the gNMI source says them (a source_gap event with
 * "path", "served" and "gives": the canonical metrics and config fields the path would give),
 * so that a rule undecided for want of one of them says why: "path P not served by D". */
#ifndef DCB_PATH_GAPS_H
#define DCB_PATH_GAPS_H

#include <stdbool.h>
#include <stddef.h>

#include "rules.h"
#include "sample.h"
#include "store.h"

struct path_gap {
    char device[64];
    char path[128];
    char gives[256];
    char reason[96];
};

struct path_gaps {
    struct path_gap *v;
    size_t n, cap;
};

/* Takes a source_gap event that names a path: adds it (served false) or drops it (served
 * true); every other event is ignored. */
void path_gaps_take(struct path_gaps *g, const struct dcb_event *e);
/* Sets u->not_served when a name u lacks is given by a path u's device (any device, for a
 * fabric-wide rule) does not serve. */
void path_gaps_explain(const struct path_gaps *g, struct rule_undecided *u);
/* Whether a path the device does not serve gives name (a canonical metric or config field). */
bool path_gaps_lacks(const struct path_gaps *g, const char *device, const char *name);
/* Every source_gap event of st up to t1_ns, in order: 0, or a negative error from the store. */
int path_gaps_load(struct path_gaps *g, struct dcb_store *st, int64_t t1_ns, struct dcb_err *err);
void path_gaps_free(struct path_gaps *g);

#endif
