/* Running on with less than root. A collector that parses frames from the wire, or runs for
 * weeks, opens what needs root first (its capture sockets, its store, its files), then keeps only
 * the capabilities it still needs and becomes nobody: a bug in a parser then owns nothing. */
#ifndef DCB_PRIVS_H
#define DCB_PRIVS_H

#include "err.h"

/* What a path keeps (or-ed): */
#define PRIVS_NET_RAW                                                                   \
    1u                     /* CAP_NET_RAW: open capture sockets again (an LLDP listener \
                            * after an interface returns, a live capture) */
#define PRIVS_NET_ADMIN 2u /* CAP_NET_ADMIN: dcbnl set requests (reads need none) */
#define PRIVS_READ_ANY 4u  /* CAP_DAC_READ_SEARCH: root-only reads (mlx5 debugfs knobs) */

/* When running as root: become nobody (all groups dropped) with only the capabilities in keep,
 * effective and permitted, and no way back (no_new_privs). Not root: nothing to drop, 0. 0, or
 * a negative error (no user nobody; the kernel refused). */
int privs_drop(unsigned keep, struct dcb_err *err);
/* "nobody with CAP_NET_RAW", for -v. */
const char *privs_describe(unsigned keep);

#endif
