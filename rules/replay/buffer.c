/* A switch's shared buffer; see buffer.h. */
#include "buffer.h"

#include "rng.h"

/* A threshold that depends on the free buffer: out of line, so that the static one, read three
 * times a packet, stays a compare in the switch's path. */
static __attribute__((noinline)) uint64_t xoff_from_free_buffer(const struct shared_buffer *b,
                                                                const struct ingress_pg *g)
{
    uint64_t free_bytes = b->size > b->used ? b->size - b->used : 0;
    uint64_t th = g->xoff;
    if (g->dynamic) {
        uint64_t dyn = (uint64_t)(g->alpha * (double)free_bytes);
        if (dyn < th)
            th = dyn;
    }
    return th == UINT64_MAX ? free_bytes / 8 : th;
}

uint64_t pg_xoff_threshold(const struct shared_buffer *b, const struct ingress_pg *g)
{
    if (!g->dynamic && g->xoff != UINT64_MAX)
        return g->xoff;
    return xoff_from_free_buffer(b, g);
}

uint64_t pg_xon_threshold(const struct ingress_pg *g, uint64_t xoff)
{
    return g->xon != UINT64_MAX ? g->xon : xoff / 2;
}

enum ingress_verdict buffer_ingress_admit(const struct shared_buffer *b,
                                          const struct ingress_pg *g, bool lossless,
                                          uint32_t bytes)
{
    if (b->used + bytes > b->size)
        return INGRESS_FULL;
    if (lossless)
        return g->bytes + bytes > pg_xoff_threshold(b, g) + g->headroom ? INGRESS_HEADROOM
                                                                        : INGRESS_ADMIT;
    return g->bytes + bytes > g->limit ? INGRESS_LIMIT : INGRESS_ADMIT;
}

bool pg_should_xoff(const struct shared_buffer *b, const struct ingress_pg *g, uint32_t bytes)
{
    return !g->xoff_sent && g->bytes + bytes >= pg_xoff_threshold(b, g);
}

void buffer_ingress_account(struct shared_buffer *b, struct ingress_pg *g, uint32_t bytes)
{
    if (g->xoff_sent) {                 /* only a group that paused holds headroom */
        uint64_t th = pg_xoff_threshold(b, g), after = g->bytes + bytes;
        if (after > th && after - th > g->headroom_watermark)
            g->headroom_watermark = after - th;
    }
    g->bytes += bytes;
    b->used += bytes;
    if (g->bytes > g->watermark)
        g->watermark = g->bytes;
}

void buffer_ingress_release(struct shared_buffer *b, struct ingress_pg *g, uint32_t bytes)
{
    g->bytes -= bytes;
    b->used -= bytes;
}

bool pg_should_xon(const struct shared_buffer *b, const struct ingress_pg *g)
{
    return g->xoff_sent && g->bytes <= pg_xon_threshold(g, pg_xoff_threshold(b, g));
}

enum wred_verdict buffer_should_mark(const struct wred *w, uint64_t queue_bytes, bool ect,
                                     uint64_t *rng)
{
    if (!w->on)
        return WRED_PASS;
    double q = (double)queue_bytes, lo = w->lo, hi = w->hi;
    if (q <= lo)
        return WRED_PASS;
    double p = q >= hi ? 1.0 : w->max_p * (q - lo) / (hi - lo);
    if (p < 1.0 && rng_uniform(rng) >= p)
        return WRED_PASS;
    return w->ecn && ect ? WRED_MARK : WRED_DROP;
}

bool buffer_egress_admit(enum wred_verdict wred, bool storm_drops)
{
    return wred != WRED_DROP && !storm_drops;
}
