/* Pause intervals per (sender, class); see pause_track.h. */
#include "pause_track.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_details.h"
#include "pause_time.h"

int64_t pause_quanta_ns(uint32_t quanta, uint64_t link_bps)
{
    return (int64_t)((pause_quanta_to_ps(quanta, link_bps) + 500) / 1000);
}

void pause_tracker_init(struct pause_tracker *t, uint64_t link_bps, int64_t storm_ns,
                        const struct track_events *events)
{
    memset(t, 0, sizeof(*t));
    t->link_bps = link_bps;
    t->storm_ns = storm_ns;
    if (events)
        t->events = *events;
}

void pause_tracker_free(struct pause_tracker *t)
{
    free(t->cls);
    t->cls = NULL;
    t->ncls = t->cap = 0;
}

static struct pause_class *find_class(struct pause_tracker *t, const uint8_t src[6], int prio)
{
    if (t->last_hit < t->ncls) {
        struct pause_class *c = &t->cls[t->last_hit];
        if (c->prio == prio && memcmp(c->src, src, 6) == 0)
            return c;
    }
    for (size_t i = 0; i < t->ncls; i++) {
        struct pause_class *c = &t->cls[i];
        if (c->prio == prio && memcmp(c->src, src, 6) == 0) {
            t->last_hit = i;
            return c;
        }
    }
    if (t->ncls == PAUSE_CLASSES_MAX)
        return NULL;
    if (t->ncls == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 16;
        struct pause_class *grown = realloc(t->cls, cap * sizeof(*grown));
        if (!grown) {
            t->nomem = true;
            return NULL;
        }
        t->cls = grown;
        t->cap = cap;
    }
    struct pause_class *c = &t->cls[t->ncls];
    memset(c, 0, sizeof(*c));
    memcpy(c->src, src, 6);
    c->prio = (int8_t)prio;
    t->last_hit = t->ncls++;
    return c;
}

static void emit(struct pause_tracker *t, const struct pause_class *c, int64_t ts_ns,
                 enum dcb_event_kind kind, const char *details)
{
    if (!t->events.fn)
        return;
    struct dcb_event e;
    dcb_event_set(&e, ts_ns, kind, t->events.device ? t->events.device : "", "", c->prio, details);
    t->events.fn(t->events.arg, &e);
}

static void close_interval(struct pause_tracker *t, struct pause_class *c, int64_t end_ns,
                           bool by_xon)
{
    int64_t len = end_ns - c->start_ns;
    if (len < 0)
        len = 0; /* a capture whose timestamps go backwards */
    c->paused = false;
    c->intervals++;
    c->paused_ns += (uint64_t)len;
    t->total_paused_ns += (uint64_t)len;
    if ((uint64_t)len > c->longest_ns)
        c->longest_ns = (uint64_t)len;
    bool storm = c->cur_xoffs > 1 && len > t->storm_ns;
    if (storm) {
        c->storms++;
        t->storms++;
    }
    if (c->nlisted < PAUSE_INTERVALS_LISTED)
        c->listed[c->nlisted++] = (struct pause_interval){
            .start_ns = c->start_ns,
            .end_ns = c->start_ns + len,
            .xoffs = c->cur_xoffs,
            .ended_by_xon = by_xon,
        };
    if (!t->events.fn)
        return;
    char mac[18];
    struct event_details details;
    event_details_init(&details);
    event_details_str(&details, "src", track_mac_str(c->src, mac));
    event_details_i64(&details, "paused_ns", len);
    event_details_u64(&details, "xoffs", c->cur_xoffs);
    event_details_str(&details, "ended_by", by_xon ? "xon" : "expiry");
    const char *json = event_details_json(&details);
    emit(t, c, c->start_ns + len, c->prio == PAUSE_PRIO_GLOBAL ? EVENT_PAUSE_GLOBAL : EVENT_PFC_XON,
         json);
    if (storm)
        emit(t, c, c->start_ns, EVENT_PAUSE_STORM, json);
}

static void class_quanta(struct pause_tracker *t, struct pause_class *c, int64_t ts_ns,
                         uint16_t quanta)
{
    c->frames++;
    if (c->paused && c->expiry_ns <= ts_ns)
        close_interval(t, c, c->expiry_ns, false);
    if (quanta == 0) {
        c->xon++;
        if (c->paused)
            close_interval(t, c, ts_ns, true);
        return;
    }
    c->xoff_frames++;
    if (c->paused) {
        c->refreshes++;
        c->cur_xoffs++;
    } else {
        c->xoff++;
        c->paused = true;
        c->start_ns = ts_ns;
        c->cur_xoffs = 1;
        if (t->events.fn) {
            char mac[18];
            struct event_details details;
            event_details_init(&details);
            event_details_str(&details, "src", track_mac_str(c->src, mac));
            event_details_u64(&details, "quanta", quanta);
            emit(t, c, ts_ns, c->prio == PAUSE_PRIO_GLOBAL ? EVENT_PAUSE_GLOBAL : EVENT_PFC_XOFF,
                 event_details_json(&details));
        }
    }
    c->expiry_ns = ts_ns + pause_quanta_ns(quanta, t->link_bps);
}

void pause_tracker_frame(struct pause_tracker *t, int64_t ts_ns, const struct dcb_frame *f)
{
    if (f->layers & DCB_L_PFC) {
        t->frames_pfc++;
        uint16_t enable = f->pfc.enable_vector;
        for (int prio = 0; prio < 8; prio++) {
            if (!(enable & (1u << prio)))
                continue;
            struct pause_class *c = find_class(t, track_frame_src(f), prio);
            if (!c) {
                t->untracked_frames++;
                continue;
            }
            class_quanta(t, c, ts_ns, f->pfc.quanta[prio]);
        }
    } else if (f->layers & DCB_L_PAUSE) {
        t->frames_pause++;
        struct pause_class *c = find_class(t, track_frame_src(f), PAUSE_PRIO_GLOBAL);
        if (!c)
            t->untracked_frames++;
        else
            class_quanta(t, c, ts_ns, f->pause.quanta);
    }
}

void pause_tracker_finish(struct pause_tracker *t)
{
    for (size_t i = 0; i < t->ncls; i++)
        if (t->cls[i].paused)
            close_interval(t, &t->cls[i], t->cls[i].expiry_ns, false);
}

uint64_t pause_tracker_paused_ns(const struct pause_tracker *t, int prio, int64_t at_ns)
{
    uint64_t ns = 0;
    for (size_t i = 0; i < t->ncls; i++) {
        const struct pause_class *c = &t->cls[i];
        if (c->prio != prio)
            continue;
        ns += c->paused_ns;
        int64_t end = at_ns < c->expiry_ns ? at_ns : c->expiry_ns;
        if (c->paused && end > c->start_ns)
            ns += (uint64_t)(end - c->start_ns);
    }
    return ns;
}
