/* Saved `ethtool -S IFACE` text, as support bundles carry it:
 *
 *   NIC statistics:
 *        rx_packets: 1234
 *        rx_prio3_pause: 12
 *        [0]: rx_ucast_packets: 5        (per-ring names of some drivers)
 *
 * Every line after the header is "name: unsigned value"; anything else is an error naming the
 * line. Bytes come in through the bounded reader. */
#ifndef DCB_ETHTOOL_DUMP_H
#define DCB_ETHTOOL_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

typedef void (*ethtool_dump_fn)(const char *name, uint64_t value, void *arg);

/* Returns the number of statistics, or a negative error ("line 7: ..."). */
int ethtool_dump_parse(const char *text, size_t len, ethtool_dump_fn fn, void *arg,
                       struct dcb_err *err);
/* A driver name guessed from the statistic names (mlx5_core, bnxt_en, ice), or NULL. */
const char *ethtool_dump_guess_driver(const char *text, size_t len);

#endif
