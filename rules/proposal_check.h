/* A proposal checked against the config it would change: never the value the knob already
 * has, never against the way the rule's own words turn it. */
#ifndef DCB_RULES_PROPOSAL_CHECK_H
#define DCB_RULES_PROPOSAL_CHECK_H

#include <stddef.h>

#include "qos_config.h"

enum proposal_verdict {
    PROPOSAL_OK,            /* differs from the current value, or nothing to compare */
    PROPOSAL_IS_CURRENT,    /* the knob already has this value */
    PROPOSAL_AGAINST_WORDS, /* the direction says raise and it lowers, or the other way */
};

/* cfg may be NULL (fabric scope: nothing to compare). direction is the rule's words ("lower
 * below XOFF ...", "raise to ..."); only a leading raise/increase/lower/reduce is read. */
enum proposal_verdict proposal_check(const struct qos_config *cfg, const char *knob,
                                     const char *proposed, const char *direction);

/* What a finding says when its proposal was withdrawn, e.g. "switch.wred.3.min_bytes is
 * already 50KB". */
void proposal_withdrawn_note(enum proposal_verdict v, const struct qos_config *cfg,
                             const char *knob, const char *proposed, char *buf, size_t len);

#endif
