/* The trackers fed together; see track_set.h. */
#include "track_set.h"

int track_set_init(struct track_set *s, uint64_t link_bps, int64_t storm_ns, uint32_t max_qps,
                   const struct track_events *events)
{
    pause_tracker_init(&s->pauses, link_bps, storm_ns, events);
    dcbx_tracker_init(&s->dcbx, events);
    return qp_tracker_init(&s->qps, max_qps, events);
}

void track_set_finish(struct track_set *s, int64_t last_ns)
{
    pause_tracker_finish(&s->pauses);
    dcbx_tracker_finish(&s->dcbx, last_ns);
}

bool track_set_nomem(const struct track_set *s)
{
    return s->pauses.nomem || s->qps.nomem || s->dcbx.nomem;
}

void track_set_free(struct track_set *s)
{
    pause_tracker_free(&s->pauses);
    qp_tracker_free(&s->qps);
    dcbx_tracker_free(&s->dcbx);
}
