/* /proc/net/dev: the netdev statistics of every interface in one table, the source for
 * interfaces that have no /sys/class/net/<if>/statistics directory. Lines look like
 *   "  eth0: 1234 10 0 0 0 0 0 0   5678 20 0 0 0 0 0 0"
 * (receive bytes packets errs drop fifo frame compressed multicast, then transmit bytes
 * packets errs drop fifo colls carrier compressed); the two header lines hold '|'. */
#ifndef DCB_PROC_NET_DEV_H
#define DCB_PROC_NET_DEV_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define PROC_NET_DEV_FIELDS 16

/* Counter names for the 16 columns: the sysfs statistics names where the column is the same
 * number, and a name of its own where the kernel prints a sum (drop = rx_dropped +
 * rx_missed_errors, frame = length + over + crc + frame errors, carrier = carrier + aborted +
 * window + heartbeat errors). */
extern const char *const proc_net_dev_names[PROC_NET_DEV_FIELDS];

struct proc_net_dev_row {
    char ifname[IFNAMSIZ];
    uint64_t values[PROC_NET_DEV_FIELDS];
};

typedef void (*proc_net_dev_fn)(const struct proc_net_dev_row *row, void *arg);

/* Calls fn for every well-formed interface line of text (len bytes, no NUL needed). Returns
 * how many lines were malformed (0: none) and describes the first in err ("line N: ..."). */
int proc_net_dev_parse(const char *text, size_t len, proc_net_dev_fn fn, void *arg,
                       struct dcb_err *err);

#endif
