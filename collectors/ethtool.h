/* Driver statistics through the SIOCETHTOOL ioctl (ETHTOOL_GSSET_INFO, ETHTOOL_GSTRINGS,
 * ETHTOOL_GSTATS), as `ethtool -S` shows them, without running ethtool. The string set is
 * re-read whenever its size changes: mlx5 lists per-priority pause counters only for
 * PFC-enabled priorities, so names move when PFC config changes. */
#ifndef DCB_ETHTOOL_H
#define DCB_ETHTOOL_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define ETHTOOL_NAME_LEN 32 /* ETH_GSTRING_LEN */

struct ethtool_strings {
    char (*names)[ETHTOOL_NAME_LEN];
    uint32_t count;
};

/* The driver bound to ifname ("mlx5_core", "veth"...). */
int ethtool_driver(int sock, const char *ifname, char *driver, size_t len, struct dcb_err *err);
/* Reads every statistic; cache keeps the names between calls. fn gets trimmed names. */
typedef void (*ethtool_stat_fn)(const char *name, uint64_t value, void *arg);
int ethtool_read_stats(int sock, const char *ifname, struct ethtool_strings *cache,
                       ethtool_stat_fn fn, void *arg, struct dcb_err *err);
void ethtool_strings_free(struct ethtool_strings *cache);
/* The link speed in bits per second, through ETHTOOL_GLINKSETTINGS or, on drivers (and
 * kernels) without it, ETHTOOL_GSET; 0 when the driver does not know it (link down). */
int ethtool_link_speed(int sock, const char *ifname, uint64_t *bps, struct dcb_err *err);

#endif
