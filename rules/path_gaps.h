/* The paths a device does not serve, as the gNMI source says them (a source_gap event with
 * "path", "served" and "gives": the canonical metrics and config fields the path would give),
 * so that a rule undecided for want of one of them says why: "path P not served by D". */
#ifndef DCB_PATH_GAPS_H
#define DCB_PATH_GAPS_H

#include <stddef.h>

#include "rules.h"
#include "sample.h"

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
void path_gaps_free(struct path_gaps *g);

#endif
