/* dcbkit analyze: the pause section. */
#include <inttypes.h>
#include <stdio.h>

#include "analyze.h"
#include "units.h"

static void print_intervals(struct dcb_out *o, const struct pause_class *c, bool verbose_text)
{
    out_arr_open(o, "intervals_list");
    for (uint32_t i = 0; i < c->nlisted; i++) {
        const struct pause_interval *iv = &c->listed[i];
        if (!out_is_json(o) && !verbose_text)
            break;
        char dur[DCB_UNIT_BUF];
        out_obj_open(o, NULL);
        out_i64(o, "start_ns", "      %" PRId64, iv->start_ns);
        out_i64(o, "end_ns", " .. %" PRId64, iv->end_ns);
        out_text(o, " (%s)",
                 dcb_fmt_duration_ns((double)(iv->end_ns - iv->start_ns), dur, sizeof(dur)));
        out_u64(o, "xoffs", " %" PRIu64 " XOFF", iv->xoffs);
        out_str(o, "ended_by", ", ended by %s\n", iv->ended_by_xon ? "xon" : "expiry");
        out_obj_close(o);
    }
    out_arr_close(o);
}

static void print_class(struct dcb_out *o, const struct analysis *a, const struct pause_class *c,
                        double duration_s, bool verbose)
{
    char mac[18], paused[DCB_UNIT_BUF], longest[DCB_UNIT_BUF];
    out_obj_open(o, NULL);
    out_str(o, "src", "  %-18s", track_mac_str(c->src, mac));
    out_i64(o, "prio", NULL, c->prio);
    if (c->prio == PAUSE_PRIO_GLOBAL)
        out_text(o, "%-5s", "all");
    else
        out_text(o, "%-5d", c->prio);
    out_str(o, "kind", NULL, c->prio == PAUSE_PRIO_GLOBAL ? "pause" : "pfc");
    out_u64(o, "frames", "%8" PRIu64, c->frames);
    out_u64(o, "xoff", "%6" PRIu64, c->xoff);
    out_u64(o, "refreshes", "%9" PRIu64, c->refreshes);
    out_u64(o, "xon", "%6" PRIu64, c->xon);
    out_u64(o, "intervals", "%10" PRIu64, c->intervals);
    out_u64(o, "paused_ns", NULL, c->paused_ns);
    out_u64(o, "longest_ns", NULL, c->longest_ns);
    out_text(o, "  %-11s %-11s", dcb_fmt_duration_ns((double)c->paused_ns, paused, sizeof(paused)),
             dcb_fmt_duration_ns((double)c->longest_ns, longest, sizeof(longest)));
    if (duration_s > 0)
        out_dbl(o, "frames_per_s", "%10.1f", (double)c->frames / duration_s);
    else
        out_null(o, "frames_per_s", "         -");
    out_u64(o, "storms", "%7" PRIu64, c->storms);
    if (c->prio == PAUSE_PRIO_GLOBAL || a->lossless_mask < 0)
        out_null(o, "lossless", "  -\n");
    else
        out_bool(o, "lossless", "  %s\n", (a->lossless_mask >> c->prio) & 1);
    print_intervals(o, c, verbose);
    out_obj_close(o);
}

void analyze_print_pauses(struct dcb_out *o, const struct analysis *a)
{
    const struct pause_tracker *p = &a->t->pauses;
    char dur[DCB_UNIT_BUF], mac[18];
    double duration_s = analyze_duration_s(a);
    bool verbose = a->opt.verbose;
    out_obj_open(o, "pauses");
    out_text(o, "\nPauses\n");
    out_u64(o, "frames_pfc", "  %" PRIu64 " PFC frames", p->frames_pfc);
    out_u64(o, "frames_pause", ", %" PRIu64 " 802.3x PAUSE frames", p->frames_pause);
    out_u64(o, "total_paused_ns", NULL, p->total_paused_ns);
    out_text(o, ", paused %s in all",
             dcb_fmt_duration_ns((double)p->total_paused_ns, dur, sizeof(dur)));
    out_u64(o, "storms", p->storms == 1 ? ", %" PRIu64 " storm" : ", %" PRIu64 " storms",
            p->storms);
    out_u64(o, "untracked_frames", NULL, p->untracked_frames);
    out_text(o, "\n");
    if (p->ncls)
        out_text(o, "  %-18s%-5s%8s%6s%9s%6s%10s  %-11s %-11s%10s%7s  %s\n", "sender", "prio",
                 "frames", "xoff", "refresh", "xon", "intervals", "paused", "longest", "frames/s",
                 "storms", "lossless");
    out_arr_open(o, "classes");
    for (size_t i = 0; i < p->ncls; i++)
        print_class(o, a, &p->cls[i], duration_s, verbose);
    out_arr_close(o);

    out_arr_open(o, "pfc_on_lossy");
    for (size_t i = 0; a->lossless_mask >= 0 && i < p->ncls; i++) {
        const struct pause_class *c = &p->cls[i];
        if (c->prio == PAUSE_PRIO_GLOBAL || !c->xoff_frames || (a->lossless_mask >> c->prio) & 1)
            continue;
        out_obj_open(o, NULL);
        out_str(o, "src", "  PFC on a lossy priority: %s", track_mac_str(c->src, mac));
        out_i64(o, "prio", " priority %" PRId64, c->prio);
        out_u64(o, "frames", ", %" PRIu64 " XOFF frames\n", c->xoff_frames);
        out_obj_close(o);
    }
    out_arr_close(o);

    bool pfc_link = p->frames_pfc > 0 || a->lossless_mask > 0;
    if (pfc_link && p->frames_pause) {
        out_obj_open(o, "pause_on_pfc_link");
        out_u64(o, "frames", "  802.3x PAUSE on a PFC link: %" PRIu64 " frames from",
                p->frames_pause);
        out_arr_open(o, "senders");
        for (size_t i = 0; i < p->ncls; i++)
            if (p->cls[i].prio == PAUSE_PRIO_GLOBAL)
                out_str(o, NULL, " %s", track_mac_str(p->cls[i].src, mac));
        out_arr_close(o);
        out_text(o, "\n");
        out_obj_close(o);
    } else {
        out_null(o, "pause_on_pfc_link", NULL);
    }
    out_obj_close(o);
}
