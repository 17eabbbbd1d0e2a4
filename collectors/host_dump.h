/* A saved `ethtool -S` dump (a support bundle's) as one reading of an interface, through the
 * same maps, counter tracking and sink as a live tick (collectors/host_source.h): `dcbkit
 * collect --from-ethtool-dump`, by way of the local source. */
#ifndef DCB_HOST_DUMP_H
#define DCB_HOST_DUMP_H

#include <stdint.h>

#include "counter_map.h"
#include "err.h"
#include "host_source.h"

/* Reads path (at most 16 MiB) and hands each statistic to hs as ifname's at time ts, named by
 * driver's map (NULL: the driver guessed from the names). A dump whose driver has no map stays
 * raw, said through the sink's message. 0, or a negative error ("FILE: line 7: ..."). */
int host_dump_feed(struct host_source *hs, const struct counter_maps *maps, const char *path,
                   const char *ifname, const char *driver, int64_t ts, struct dcb_err *err);

#endif
