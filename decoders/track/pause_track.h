/* Pause intervals per sender and class, from PFC and 802.3x PAUSE frames.
 *
 * A class is (source MAC, priority); 802.3x PAUSE is priority -1. An XOFF (quanta > 0) starts an
 * interval when the class is not paused and refreshes it when it is; either way the class stays
 * paused until t + quanta x 512 bit times at the link speed. An XON (quanta 0) ends an interval
 * early. A pause that runs out ends at its expiry; so does one still open at the end of the
 * capture. A storm is an interval kept alive by refreshed XOFFs for longer than storm_ns. */
#ifndef DCB_PAUSE_TRACK_H
#define DCB_PAUSE_TRACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode.h"
#include "track.h"

#define PAUSE_CLASSES_MAX 4096
#define PAUSE_INTERVALS_LISTED 32 /* the first intervals of each class, kept for the report */
#define PAUSE_PRIO_GLOBAL (-1)

struct pause_interval {
    int64_t start_ns, end_ns;
    uint32_t xoffs; /* XOFF frames in it: 1 + refreshes */
    bool ended_by_xon;
};

struct pause_class {
    uint8_t src[6];
    int8_t prio;     /* 0..7, or PAUSE_PRIO_GLOBAL */
    uint64_t frames; /* frames that named this class (its enable bit set) */
    uint64_t xoff, refreshes, xon;
    uint64_t xoff_frames; /* frames with quanta > 0: xoff + refreshes */
    uint64_t intervals, storms;
    uint64_t paused_ns, longest_ns;
    bool paused;
    int64_t start_ns, expiry_ns;
    uint32_t cur_xoffs;
    uint32_t nlisted;
    struct pause_interval listed[PAUSE_INTERVALS_LISTED];
};

struct pause_tracker {
    uint64_t link_bps;
    int64_t storm_ns;
    struct track_events events;
    struct pause_class *cls;
    size_t ncls, cap;
    size_t last_hit;
    uint64_t frames_pfc, frames_pause;
    uint64_t untracked_frames; /* frames for classes beyond PAUSE_CLASSES_MAX */
    uint64_t storms, total_paused_ns;
    bool nomem;
};

void pause_tracker_init(struct pause_tracker *t, uint64_t link_bps, int64_t storm_ns,
                        const struct track_events *events);
/* Feeds one decoded frame (anything; only PAUSE and PFC are looked at). */
void pause_tracker_frame(struct pause_tracker *t, int64_t ts_ns, const struct dcb_frame *f);
/* Ends the intervals still open (at their expiry). */
void pause_tracker_finish(struct pause_tracker *t);
void pause_tracker_free(struct pause_tracker *t);

/* The time a priority (PAUSE_PRIO_GLOBAL: 802.3x) was paused up to at_ns, over every sender:
 * the finished intervals, and the open ones as far as at_ns (never past their expiry). */
uint64_t pause_tracker_paused_ns(const struct pause_tracker *t, int prio, int64_t at_ns);

/* The time quanta stand for at link_bps, in whole nanoseconds (rounded to nearest). */
int64_t pause_quanta_ns(uint32_t quanta, uint64_t link_bps);

#endif
