/* Where dcbtop's data comes from. A source produces canonical samples, events and config
 * snapshots (the vocabulary every dcbkit source speaks) into a sink, one tick per refresh:
 *
 *   --local        this host (collectors/host_source)
 *   --store DB     history, at a point in time that [ and ] move
 *   --replay/--demo, --gnmi/--fabric   further sources plug in here (see source_*.c)
 *
 * The model (model.h) is the sink: it keeps everything in an in-memory ring store and computes
 * rates from the counter readings. */
#ifndef DCBTOP_SOURCE_H
#define DCBTOP_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "err.h"
#include "sample.h"
#include "store.h"

struct top_sink {
    /* width_bits: the counter's width when the source knows it (32 for mlx5 Q-counters), so
     * that a wrap is told from a reset as `dcbkit collect` tells it; 0: 64. */
    void (*sample)(void *arg, const struct dcb_sample *s, unsigned width_bits);
    void (*event)(void *arg, const struct dcb_event *e);
    void (*config)(void *arg, const struct store_config_row *c);
    /* device:ifname is linked to peer:peer_port; how says who says so ("fabric file"). */
    void (*link)(void *arg, const char *device, const char *ifname, const char *peer,
                 const char *peer_port, const char *how);
    /* The source starts over (a jump in time): forget everything it gave so far. */
    void (*reset)(void *arg);
    void *arg;
};

struct top_source;

struct top_source_ops {
    /* Produce what is new at wall time now_ns; *data_ns is the time the data stands at (the
     * evaluation time of the rules). 0 or a negative error. */
    int (*tick)(struct top_source *src, int64_t now_ns, int64_t *data_ns, struct dcb_err *err);
    /* Move in time by steps intervals (negative: back). NULL when the source is live. */
    int (*seek)(struct top_source *src, int steps, struct dcb_err *err);
    void (*close)(struct top_source *src);
};

#define TOP_STATUS_MAX 256

struct top_source {
    const struct top_source_ops *ops;
    void *ctx;
    struct top_sink sink;
    char name[1100];                /* "local", "store fabric.db", ... for the header */
    char status[TOP_STATUS_MAX];    /* a standing remark for the status line ("" when none) */
    int64_t interval_ns;            /* the refresh interval, set by the UI ('d') */
};

/* --local: this host's interfaces matching pattern (NULL: all but lo). */
struct top_local_options {
    const char *sysfs_root, *proc_root, *pattern, *maps_dir, *device;
};
int top_source_local_open(struct top_source *src, const struct top_local_options *opt,
                          struct dcb_err *err);

/* --replay SCENARIO (NULL: the built-in demo), paced to the wall clock at speed (0: 1). */
int top_source_replay_open(struct top_source *src, const char *scenario, double speed,
                           struct dcb_err *err);

/* --store DB [--at TIME]: at_ns 0 follows the store's newest data. */
int top_source_store_open(struct top_source *src, const char *path, int64_t at_ns,
                          int64_t window_ns, struct dcb_err *err);
/* --at -DURATION: stand that long before the store's newest data. */
void top_source_store_at_before_end(struct top_source *src, int64_t before_ns);

#endif
