/* dcbkit collect --capture IFACE [FILTER]: the decoders and trackers on live traffic, their
 * events as they happen and capture.* counters every interval, into the store and the output. */
#ifndef DCB_COLLECT_CAPTURE_H
#define DCB_COLLECT_CAPTURE_H

#include <signal.h>
#include <stdint.h>

#include "cli.h"
#include "store.h"

struct collect_capture_opts {
    const char *iface;
    const char *filter; /* NULL: every frame */
    const char *device;
    int64_t interval_ns;
    long count; /* intervals; 0 until stopped */
    uint64_t link_bps;
    struct dcb_store *store; /* NULL: output only */
    struct dcb_out *out;
    volatile sig_atomic_t *stop;
    int verbosity;
};

/* The exit status: 0, or 1 after a one-line error (the capture could not be opened). */
int collect_capture_run(const struct collect_capture_opts *o);

#endif
