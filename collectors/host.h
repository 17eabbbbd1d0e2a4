/* One reading of a host interface from every local source: driver statistics (SIOCETHTOOL),
 * the generic netdev statistics (sysfs, or /proc/net/dev for an interface without a
 * statistics directory), RDMA hw_counters (sysfs) and the link speed, each name mapped through
 * the counter maps. With a sysfs root other than /sys (fixture trees) the ioctl is not used:
 * the speed comes from class/net/<if>/speed then. */
#ifndef DCB_HOST_H
#define DCB_HOST_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "counter_dir.h"
#include "counter_map.h"
#include "dcbnl.h"
#include "ethtool.h"
#include "match_cache.h"

struct host_counter {
    const char *source; /* "ethtool", "dcbnl", "rdma", "netdev" */
    char raw[64];       /* the driver's own name */
    bool mapped;
    struct counter_match match;
    uint64_t value;
};

struct host_iface_reading {
    char ifname[IFNAMSIZ];
    char driver[32];
    char rdma_device[64];     /* "" when the interface has none */
    struct qos_config dcb;    /* DCB config over netlink (live only) */
    int dcb_status;           /* 0, or why it is missing (DCB_E_UNSUPP: driver has no DCB) */
    uint64_t speed_bps;       /* 0: unknown (link down, or no source says) */
    const char *speed_source; /* "ethtool" or "sysfs" */
    struct host_counter *counters;
    size_t n, cap;
};

struct host_ethtool_cache {
    char ifname[IFNAMSIZ];
    struct ethtool_strings strings;
};

/* What the reader keeps about an interface between samples. */
struct host_iface_state {
    char ifname[IFNAMSIZ];
    struct counter_dir netdev, rdma;
    bool rdma_searched; /* the RDMA device was looked for */
    unsigned reads_since_search;
    unsigned reads;           /* samples taken: raw counters are read on every raw_every-th */
    char rdma_device[64];     /* "mlx5_0/1", "" when none */
    char rdma_counters[1400]; /* its hw_counters folder */
    char rdma_driver[32];
    const char *rdma_found_by;          /* "gid ndev", "device/net" or "netlink" */
    const struct counter_map *rdma_map; /* by driver, or guessed from the counter names */
    bool rdma_map_said;                 /* "map guessed from names" said once */
    bool netdev_said;                   /* "no netdev statistics" said once */
};

/* An RDMA port and the netdev under it (class/infiniband/DEV/ports/N/gid_attrs/ndevs/0, or what
 * RDMA netlink says). */
struct host_rdma_port {
    char ndev[IFNAMSIZ];
    char device[64];
    int port;
    const char *via; /* "gid ndev" (sysfs) or "netlink" (RDMA netlink, live only) */
};

struct host_reader {
    char sysfs_root[1024];
    char proc_root[1024]; /* stands for /proc */
    bool proc_warned;     /* a malformed /proc/net/dev line said once */
    bool live;            /* real /sys: the ioctl is used too */
    int sock;
    const struct counter_maps *maps;
    struct host_ethtool_cache *caches;
    size_t ncaches;
    struct match_cache matches;
    unsigned raw_every; /* read unmapped sysfs counters on every Nth sample (1: always) */
    struct host_iface_state *states;
    size_t nstates;
    /* every RDMA port, listed once and used by each interface's search (not one scan each) */
    struct host_rdma_port *rdma_ports;
    size_t nrdma_ports, rdma_ports_cap;
    uint64_t reads;          /* interfaces read so far */
    uint64_t rdma_listed_at; /* reads when the list was made */
    bool rdma_listed;
};

int host_reader_open(struct host_reader *r, const char *sysfs_root, const struct counter_maps *maps,
                     struct dcb_err *err);
void host_reader_close(struct host_reader *r);
/* Unmapped sysfs counters (netdev statistics, RDMA hw_counters) are read on the first sample and
 * every n-th after it; mapped ones every sample. Default HOST_RAW_EVERY; 1 reads all always; 0
 * never (a consumer of canonical metrics only, such as dcbtop). */
#define HOST_RAW_EVERY 10
void host_reader_set_raw_every(struct host_reader *r, unsigned n);
/* Read <dir>/net/dev instead of /proc/net/dev (fixture trees). */
void host_reader_set_proc_root(struct host_reader *r, const char *dir);
/* Interfaces under <root>/class/net matching the fnmatch pattern (NULL: all but lo). */
int host_list_ifaces(struct host_reader *r, const char *pattern, char (*names)[IFNAMSIZ],
                     size_t max, size_t *n, struct dcb_err *err);
/* DCB_E_NOTFOUND when the interface is gone. */
int host_read_iface(struct host_reader *r, const char *ifname, struct host_iface_reading *out,
                    struct dcb_err *err);
void host_reading_free(struct host_iface_reading *out);

#endif
