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

uint64_t buffer_pg_xoff_threshold(const struct shared_buffer *b, const struct ingress_pg *g)
{
    if (!g->dynamic && g->xoff != UINT64_MAX)
        return g->xoff;
    return xoff_from_free_buffer(b, g);
}

uint64_t buffer_pg_xon_threshold(const struct ingress_pg *g, uint64_t xoff)
{
    return g->xon != UINT64_MAX ? g->xon : xoff / 2;
}

/* A lossless PG's packet within its own headroom, on a switch with a headroom pool: admitted
 * if the pool takes the PG's larger share. Out of line: most switches have no pool. */
static __attribute__((noinline)) enum ingress_verdict pool_admit(const struct shared_buffer *b,
                                                                 const struct ingress_pg *g,
                                                                 uint32_t bytes)
{
    uint64_t th = buffer_pg_xoff_threshold(b, g), after = g->bytes + bytes;
    if (after <= th || after - th <= g->headroom_charged ||
        b->headroom_used + (after - th - g->headroom_charged) <= b->headroom_pool)
        return INGRESS_ADMIT;
    return INGRESS_HEADROOM_POOL;
}

enum ingress_verdict buffer_ingress_admit(const struct shared_buffer *b, const struct ingress_pg *g,
                                          bool lossless, uint32_t bytes)
{
    if (b->used + bytes > b->size)
        return INGRESS_FULL;
    if (lossless) {
        if (g->bytes + bytes > buffer_pg_xoff_threshold(b, g) + g->headroom)
            return INGRESS_HEADROOM;
        return b->headroom_pool ? pool_admit(b, g, bytes) : INGRESS_ADMIT;
    }
    return g->bytes + bytes > g->limit ? INGRESS_LIMIT : INGRESS_ADMIT;
}

bool buffer_pg_should_xoff(const struct shared_buffer *b, const struct ingress_pg *g,
                           uint32_t bytes)
{
    return !g->xoff_sent && g->bytes + bytes >= buffer_pg_xoff_threshold(b, g);
}

/* The PG's share of the headroom pool set to what it holds above threshold th (0 when it holds
 * less), and the pool's use with it. */
static void charge_headroom(struct shared_buffer *b, struct ingress_pg *g, uint64_t th)
{
    uint64_t share = g->xoff_sent && g->bytes > th ? g->bytes - th : 0;
    b->headroom_used = b->headroom_used - g->headroom_charged + share;
    g->headroom_charged = share;
}

void buffer_ingress_account(struct shared_buffer *b, struct ingress_pg *g, uint32_t bytes)
{
    g->bytes += bytes;
    if (g->xoff_sent) { /* only a group that paused holds headroom */
        uint64_t th = buffer_pg_xoff_threshold(b, g);
        if (g->bytes > th && g->bytes - th > g->headroom_watermark)
            g->headroom_watermark = g->bytes - th;
        charge_headroom(b, g, th);
    }
    b->used += bytes;
    if (g->bytes > g->watermark)
        g->watermark = g->bytes;
}

/* A PG with a share of the pool gave bytes back. Out of line: only a paused PG has a share. */
static __attribute__((noinline)) void release_headroom(struct shared_buffer *b,
                                                       struct ingress_pg *g)
{
    charge_headroom(b, g, buffer_pg_xoff_threshold(b, g));
}

void buffer_ingress_release(struct shared_buffer *b, struct ingress_pg *g, uint32_t bytes)
{
    g->bytes -= bytes;
    b->used -= bytes;
    if (g->headroom_charged)
        release_headroom(b, g);
}

bool buffer_pg_should_xon(const struct shared_buffer *b, const struct ingress_pg *g)
{
    return g->xoff_sent && g->bytes <= buffer_pg_xon_threshold(g, buffer_pg_xoff_threshold(b, g));
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
