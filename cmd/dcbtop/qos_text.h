/* The QoS view as plain text, for the screen and for batch frames alike: each row of the view
 * (a config field, a table of eight, the DSCP map, per-TC WRED or per-PG buffer records) as one
 * string for this end and one for the link partner, and whether they disagree where both ends
 * must agree. No curses here. */
#ifndef DCBTOP_QOS_TEXT_H
#define DCBTOP_QOS_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

enum qos_kind { Q_FIELD, Q_TABLE8, Q_DSCP, Q_WRED, Q_BUFFER };

struct qos_row {
    const char *label; /* what the screen shows */
    enum qos_kind kind;
    const char *path; /* the config's dotted path (the JSON "field") */
    bool compare;     /* both ends must agree: a difference is a mismatch */
};

#define QOS_NROWS 18
extern const struct qos_row qos_rows[QOS_NROWS];

/* Row r of interface i: here and there (the link partner) as text, "-" where unknown; the link
 * speed falls back to the measured one ("100Gb/s (measured)"). Returns whether the two ends
 * disagree on a field both must agree on. */
bool qos_row_text(const struct top_iface *i, size_t r, char *here, char *there, size_t len,
                  bool utf8);
/* "QoS config of DEV/IF (SOURCE)" and "link partner: ..." (unsanitized). */
void qos_title(const struct top_iface *i, char *buf, size_t len);
void qos_partner(const struct top_iface *i, char *buf, size_t len);

#endif
