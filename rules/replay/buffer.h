/* A switch's shared buffer as a unit of its own, as the HPCC ns-3 model's MMU is: what each
 * ingress priority group (PG) holds, when it must pause its sender and may resume it, and what an
 * egress queue admits and marks. Pure functions of the accounting state, so that
 * tests/unit/test_buffer.c drives them without an event loop. switch.c and port.c call them in
 * the order a packet meets them:
 *
 *   arrival    buffer_ingress_admit, then buffer_pg_should_xoff (before the packet is counted: the
 * XOFF goes out even when the egress then drops the packet), buffer_should_mark when marking at
 * enqueue, buffer_egress_admit, buffer_ingress_account; departure  buffer_ingress_release, then
 * buffer_pg_should_xon; buffer_should_mark when marking at dequeue.
 *
 * Thresholds: a lossless PG pauses at its XOFF threshold (the configured xoff, lowered to
 * alpha x free buffer when a dynamic threshold is set; free buffer / 8 when neither is) and
 * resumes at xon (xoff / 2 when not set); what it holds above XOFF is headroom, and past the
 * headroom it drops. A lossy PG drops above its size.
 *
 * Headroom pool: when the switch has one (switch.buffer.headroom_pool, as SONiC's shared
 * headroom pool, the ingress_lossless_pool's xoff; 0: none), the headroom every paused PG holds is
 * drawn from it: a packet that would take the pool past its size is dropped even if its PG has
 * headroom left. Each PG keeps the share it is charged (its bytes above XOFF once paused), brought
 * up to date whenever the PG gains or loses a packet, so the pool's use is the sum of those shares.
 */
#ifndef DCB_REPLAY_BUFFER_H
#define DCB_REPLAY_BUFFER_H

#include <stdbool.h>
#include <stdint.h>

#define SHARED_BUFFER_DEFAULT (32u << 20) /* bytes per switch */

struct shared_buffer { /* one per switch */
    uint64_t size, used;
    uint64_t headroom_pool; /* bytes; 0: no pool, each PG's headroom is its own (SONiC's
                               xoff 0 on the lossless pool) */
    uint64_t headroom_used; /* the PGs' charged headroom, summed */
};

struct ingress_pg {
    uint64_t bytes; /* counted in this PG; above its XOFF threshold is headroom */
    bool xoff_sent;
    bool dynamic; /* a dynamic threshold is set: alpha below */
    int64_t xoff_since_ps;
    uint64_t watermark, headroom_watermark, drops;
    uint64_t headroom_charged; /* its share of the switch's headroom pool */
    /* from the config, by port_setup(), so that a packet reads no config */
    uint64_t xoff, xon; /* configured; UINT64_MAX: not set */
    uint64_t headroom;  /* 0: not set */
    uint64_t limit;     /* a lossy group's size */
    double alpha;       /* 2^dynamic_th */
};

struct wred { /* an egress queue's WRED/ECN, from the config by port_setup() */
    bool on;  /* min and max set */
    bool ecn;
    double lo, hi, max_p; /* bytes, bytes, probability at hi */
};

enum ingress_verdict {
    INGRESS_ADMIT,
    INGRESS_FULL,          /* the shared buffer is full: a PG drop */
    INGRESS_HEADROOM,      /* lossless, past the headroom: a PG drop */
    INGRESS_LIMIT,         /* lossy, over the group's size: a queue drop */
    INGRESS_HEADROOM_POOL, /* lossless, the switch's headroom pool is used up: a PG drop */
};

enum wred_verdict {
    WRED_PASS, /* not picked */
    WRED_MARK, /* picked, and ECT on a queue that marks: CE */
    WRED_DROP, /* picked, and cannot be marked */
};

uint64_t buffer_pg_xoff_threshold(const struct shared_buffer *b, const struct ingress_pg *g);
uint64_t buffer_pg_xon_threshold(const struct ingress_pg *g, uint64_t xoff);

/* Whether a packet of `bytes` may enter by this PG. A lossless PG's packet above XOFF must fit
 * both the PG's headroom and the switch's headroom pool. */
enum ingress_verdict buffer_ingress_admit(const struct shared_buffer *b, const struct ingress_pg *g,
                                          bool lossless, uint32_t bytes);
/* A lossless PG that, holding `bytes` more, reaches its XOFF threshold and has not paused yet. */
bool buffer_pg_should_xoff(const struct shared_buffer *b, const struct ingress_pg *g,
                           uint32_t bytes);
/* The admitted packet counted in its PG and the buffer, with the watermarks. After
 * buffer_pg_should_xoff: a group holds headroom (bytes above XOFF) only once it has paused. */
void buffer_ingress_account(struct shared_buffer *b, struct ingress_pg *g, uint32_t bytes);
/* The packet left its egress queue: its bytes are free again (and the PG's headroom share). */
void buffer_ingress_release(struct shared_buffer *b, struct ingress_pg *g, uint32_t bytes);
/* A paused PG that has fallen to its XON threshold. */
bool buffer_pg_should_xon(const struct shared_buffer *b, const struct ingress_pg *g);

/* WRED/ECN on an egress queue holding queue_bytes: none at or below min, probability rising
 * linearly to max_p at max, every packet above. Draws from *rng only between min and max. A
 * picked packet is marked when it is ECT and the queue marks (switch.wred.N.ecn, the default),
 * else dropped: a queue with ecn false is WRED in drop mode, on the same line. The switch asks
 * as a packet joins the queue when the answer can only be a drop (a drop is an admission
 * decision), and as it leaves for a mark unless it marks at enqueue. */
enum wred_verdict buffer_should_mark(const struct wred *w, uint64_t queue_bytes, bool ect,
                                     uint64_t *rng);
/* A packet joins its egress queue unless WRED drops it or the queue is in a PFC watchdog storm
 * whose action drops. */
bool buffer_egress_admit(enum wred_verdict wred, bool storm_drops);

#endif
