/* libFuzzer: a sequence of frames through the decoders and the trackers (pauses, QPs, DCBX), as
 * dcbkit analyze feeds them, then the finish step and the per-QP latency summary. The input is
 * records of [2-byte length][2-byte time step in us][frame bytes]; a small QP cap makes the
 * overflow path run too. Checks the trackers' own invariants. */
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "track_set.h"

static void count_event(void *arg, const struct dcb_event *e)
{
    (void)e;
    (*(unsigned *)arg)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct dcb_frame f;
    struct track_set s;
    unsigned events = 0;
    struct track_events ev = { .fn = count_event, .arg = &events, .device = "fuzz" };
    if (track_set_init(&s, 100000000000ULL, 1000000, 8, &ev) < 0)
        return 0;
    int64_t ts = 1700000000LL * 1000000000LL;
    size_t off = 0;
    while (off + 4 <= size) {
        uint16_t len = (uint16_t)(data[off] << 8 | data[off + 1]);
        ts += (int64_t)(data[off + 2] << 8 | data[off + 3]) * 1000;
        off += 4;
        if (len > size - off)
            len = (uint16_t)(size - off);
        dcb_decode_frame(data + off, len, len, &f);
        track_set_frame(&s, ts, data[off - 1] & 1, &f);
        off += len;
    }
    track_set_finish(&s, ts);
    for (uint32_t i = 0; i < s.qps.nflows; i++) {
        struct qp_flow *q = &s.qps.flows[i];
        uint64_t median, max;
        if (qp_flow_latency(q, &median, &max) && median > max)
            abort();
        if (q->ecn[0] + q->ecn[1] + q->ecn[2] + q->ecn[3] != q->packets)
            abort();
        if (q->peer != QP_NONE && q->peer >= s.qps.nflows)
            abort();
    }
    if (s.qps.nflows > 8)
        abort();
    for (size_t i = 0; i < s.pauses.ncls; i++) {
        const struct pause_class *c = &s.pauses.cls[i];
        if (c->paused || c->longest_ns > c->paused_ns || c->xoff + c->refreshes != c->xoff_frames)
            abort();
    }
    for (size_t i = 0; i < s.dcbx.nlinks; i++)
        if (s.dcbx.links[i].a >= s.dcbx.nnb || s.dcbx.links[i].b >= s.dcbx.nnb)
            abort();
    track_set_free(&s);
    return 0;
}
