/* What both renderers (the screen and batch mode) share: the user's choices (sort column,
 * filter, priority), the rows they select, values in human units, and strings from the network
 * made safe for a terminal. */
#ifndef DCBTOP_VIEW_H
#define DCBTOP_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

#define SORT_NAME (-1) /* sort by device and interface name */

struct top_view {
    int sort;        /* SORT_NAME or an enum top_col */
    char filter[64]; /* substring of "device ifname" ("" none) */
    bool utf8;       /* the terminal takes UTF-8: "…" and ▁▂▃ sparklines */
};

/* The interfaces that pass the filter, in sort order (largest first, unknown last, then by
 * name). Returns how many went to rows (at most max). */
size_t view_rows(const struct top_model *m, const struct top_view *v, struct top_iface **rows,
                 size_t max);
/* "93.1G", "1.2k", "12.5%", "…" (waiting for a second sample), "-" (not provided). */
void view_format(char *buf, size_t len, struct top_val val, enum top_col_unit unit, bool utf8);
/* Control bytes, escape sequences and invalid UTF-8 become \xNN; without UTF-8 any byte above
 * 0x7e does too. */
void view_sanitize(const char *in, char *out, size_t len, bool utf8);
/* A sparkline of the last n values of column col, one cell per value (bytes in buf). */
void view_sparkline(const struct top_iface *i, int col, int n, char *buf, size_t len, bool utf8);
/* "lossless" or "prio 3". */
const char *view_prio_name(int prio, char *buf, size_t len);
/* The sort column's name ("name" or the column heading). */
const char *view_sort_name(int sort);
/* "the data is 2.3 s behind real time (the machine is too busy for the source's pace)", for a
 * source whose behind_ns is set. */
struct dcb_source;
const char *view_behind(const struct dcb_source *src, char *buf, size_t len);
/* Bit mask as "3,4" ("none" for 0). */
void view_mask(unsigned mask, char *buf, size_t len);

#endif
