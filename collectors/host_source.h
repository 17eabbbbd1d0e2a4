/* This host as a source of canonical samples, events and config snapshots: every tick reads the
 * interfaces that match a pattern (host.h), follows each counter between ticks (lib/counter.h:
 * a reading that goes back gives a counter_reset event), notices interfaces that vanish
 * (source_gap) and come back, snapshots the DCB config and DCQCN knobs when they change, and, live
 * with CAP_NET_RAW, what each link partner advertises in LLDP (dcbx_seen + a "peer:lldp"
 * snapshot). Everything goes out through the sink's callbacks; the source keeps no samples.
 *
 * Consumers compute rates themselves from the counter readings (counter_rate_per_sec of the
 * delta handed with each reading, or their own lib/counter.h state per series), so that
 * `dcbkit collect` and dcbtop agree on the same tree. */
#ifndef DCB_HOST_SOURCE_H
#define DCB_HOST_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counter.h"
#include "host.h"
#include "lldp_listen.h"
#include "log.h"
#include "qos_config.h"
#include "sample.h"

/* A config snapshot: the interface's own (source "dcbnl", "mlnx_ofed sysfs", or both joined
 * by " + "), or what its link partner advertised (source "peer:lldp", peer set). */
struct host_config_snap {
    int64_t time_ns;
    const char *ifname; /* the local interface */
    const char *source;
    const struct qos_config *config;
    const char *json; /* config as compact JSON */
    const char *peer; /* LLDP: the partner's system name (raw network bytes) */
    const char *peer_port;
    const char *peer_chassis; /* LLDP: the partner's chassis ID as text, "" if none */
    const char *dcbx_mode;    /* "ieee", "cee" or "none" */
};

struct host_source_sink {
    /* A counter reading (mapped to a canonical metric, or raw) and its delta since the previous
     * reading of the same counter (COUNTER_FIRST on the first). */
    void (*counter)(void *arg, int64_t now, const char *ifname, const struct host_counter *c,
                    const struct counter_delta *d);
    /* The link speed gauge, when known. */
    void (*speed)(void *arg, int64_t now, const char *ifname, uint64_t bps, const char *source);
    void (*event)(void *arg, const struct dcb_event *e);
    void (*config)(void *arg, const struct host_config_snap *snap);
    /* Problems worth a line (DCB_LOG_ERROR for an interface that cannot be read, said once). */
    void (*message)(void *arg, enum dcb_log_level level, const char *text);
    void *arg;
};

struct host_source_options {
    const char *sysfs_root; /* NULL: /sys */
    const char *proc_root;  /* NULL: /proc */
    const char *pattern;    /* fnmatch pattern; NULL: all but lo */
    const char *device;     /* the device name samples carry */
    const struct counter_maps *maps;
    unsigned raw_every;    /* 0: HOST_RAW_EVERY */
    bool mapped_only;      /* never read the counters no map names */
    unsigned config_every; /* read the DCB config and DCQCN knobs every Nth tick (0: 1) */
    unsigned config_delay; /* ... starting after this many ticks (0: from the first) */
    bool lldp;             /* listen for LLDP neighbours (live /sys only) */
};

struct host_source_iface;
struct host_counter_track;

struct host_source {
    struct host_reader reader;
    struct host_source_sink sink;
    char device[DCB_DEVICE_MAX];
    const char *pattern;
    bool lldp, lldp_perm_warned;
    unsigned config_every, config_delay;
    struct host_source_iface *ifaces;
    size_t nifaces;
    struct host_counter_track *track;
    size_t track_cap, track_count;
    struct host_iface_reading reading;
    uint64_t samples, events, failures;
    size_t ticks;
};

int host_source_open(struct host_source *hs, const struct host_source_options *opt,
                     const struct host_source_sink *sink, struct dcb_err *err);
/* One pass over the interfaces at time now (Unix ns). Returns how many interfaces were read,
 * or a negative error when they could not even be listed. */
int host_source_tick(struct host_source *hs, int64_t now, struct dcb_err *err);
/* One counter reading from elsewhere (a saved `ethtool -S` dump) through the same tracking and
 * sink as the tick's. */
void host_source_counter(struct host_source *hs, int64_t now, const char *ifname,
                         const struct host_counter *c);
void host_source_close(struct host_source *hs);


#endif
