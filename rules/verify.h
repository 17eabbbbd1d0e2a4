/* The verification of advice in replay: each finding's proposed change (knob=value and the
 * rule's `also` changes, on every interface it applies to) is replayed against a scenario and
 * against the same scenario without it; the finding gets both sets of figures, and advice that
 * shows no improvement is demoted one severity level and says so (rules/verify.c). */
#ifndef DCB_RULES_VERIFY_H
#define DCB_RULES_VERIFY_H

#include <stddef.h>

#include "err.h"
#include "rules.h"

struct rule_verify_options {
    const char *scenario;  /* the scenario to replay, or NULL */
    const char *fabric;    /* without one: a built-in incast over this fabric file */
    const char *cache_dir; /* NULL: $DCBKIT_CACHE_DIR, $XDG_CACHE_HOME/dcbkit/replay,
                            * ~/.cache/dcbkit/replay; "": no cache */
};

struct rule_verify_stats {
    unsigned runs, hits;  /* replays run, and read from the cache */
    char cache_dir[4096]; /* the cache used ("" when none) */
};

/* Fills each finding's verified and demotes advice that shows no improvement. A scenario that
 * cannot be loaded or run is an error; a change the scenario refuses is noted on its finding. */
int rule_verify(const struct rule_verify_options *v, struct finding *findings, size_t n,
                struct rule_verify_stats *stats, struct dcb_err *err);

#endif
