/* The three trackers fed together, as dcbkit analyze, the live capture collector and the replay
 * workload import all do: one call per decoded frame, in capture order. */
#ifndef DCB_TRACK_SET_H
#define DCB_TRACK_SET_H

#include "dcbx_track.h"
#include "pause_track.h"
#include "qp_track.h"

struct track_set {
    struct pause_tracker pauses;
    struct qp_tracker qps;
    struct dcbx_tracker dcbx;
};

/* 0, or -1 when the QP table cannot be allocated (nothing to free then). */
int track_set_init(struct track_set *s, uint64_t link_bps, int64_t storm_ns, uint32_t max_qps,
                   const struct track_events *events);
static inline void track_set_frame(struct track_set *s, int64_t ts_ns, unsigned iface,
                                   const struct dcb_frame *f)
{
    if (f->layers & (DCB_L_PFC | DCB_L_PAUSE))
        pause_tracker_frame(&s->pauses, ts_ns, f);
    else if (f->layers & DCB_L_BTH)
        qp_tracker_frame(&s->qps, ts_ns, f);
    else if (f->layers & DCB_L_LLDP)
        dcbx_tracker_frame(&s->dcbx, ts_ns, iface, f);
}
/* Closes what is open at the end of the capture (last_ns: its last frame's time). */
void track_set_finish(struct track_set *s, int64_t last_ns);
bool track_set_nomem(const struct track_set *s);
void track_set_free(struct track_set *s);

#endif
