/* The replay's event queue (a timing wheel of fine slots, coarse slots, a calendar and a far
 * heap) against a plain heap on (time, insertion number): random pushes at every distance the
 * simulator uses (the same instant, a frame time, a microsecond, a DCQCN timer, past the
 * calendar, across an empty gap), pops, and peeks followed by earlier pushes, must come out in
 * exactly the heap's order. */
#include "unit.h"

#include <stdlib.h>

#include "evq.h"
#include "heap.h"

struct rng {
    uint64_t s;
};

static uint64_t next_u64(struct rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int64_t below(struct rng *r, int64_t n)
{
    return (int64_t)(next_u64(r) % (uint64_t)n);
}

/* How far ahead the simulator schedules, in picoseconds. */
static int64_t delay(struct rng *r, int mix)
{
    switch (below(r, mix)) {
    case 0: return 0;                                 /* the same instant */
    case 1: return below(r, 300000);                  /* a frame: the fine wheel */
    case 2: return 100000 + below(r, 2000000);        /* a microsecond: coarse slots */
    case 3: return 55000000 + below(r, 1000);         /* a DCQCN timer: the calendar */
    case 4: return 1000000000 + below(r, 9000000000); /* past the calendar: the far heap */
    default: return below(r, 5000);                   /* the same slot */
    }
}

static void check_pop(struct evq *q, struct heap *ref)
{
    struct heap_event got, want;
    bool have = sim_heap_pop(ref, &want);
    assert_int_equal(evq_pop(q, &got), have);
    if (!have)
        return;
    assert_int_equal(got.at, want.at);
    assert_int_equal(got.seq, want.seq);
    assert_int_equal(got.a, want.a);
    assert_int_equal(got.b, want.b);
}

static void push_both(struct evq *q, struct heap *ref, int64_t at, uint32_t id)
{
    unsigned kind = id % 7;
    /* the queue numbers its events from 0 in push order: the reference does the same */
    struct heap_event e = { at, HEAP_SEQ(q->next_seq, kind), id, ~id };
    assert_true(evq_push(q, at, kind, id, ~id));
    assert_true(sim_heap_insert(ref, &e));
}

static struct evq *open_pair(struct heap *ref)
{
    struct evq *q = malloc(sizeof(*q));
    assert_non_null(q);
    evq_init(q);
    sim_heap_init(ref);
    return q;
}

/* Both empty, then freed. */
static void close_pair(struct evq *q, struct heap *ref)
{
    while (ref->n)
        check_pop(q, ref);
    check_pop(q, ref);
    assert_int_equal(q->pending, 0);
    evq_free(q);
    free(q);
    sim_heap_free(ref);
}

static void run_mix(uint64_t seed, int mix, int steps)
{
    struct rng r = { seed };
    struct heap ref;
    struct evq *q = open_pair(&ref);
    int64_t now = 0;
    uint32_t id = 0;
    for (int i = 0; i < 64; i++)
        push_both(q, &ref, delay(&r, mix), id++);
    for (int step = 0; step < steps; step++) {
        const struct heap_event *peeked = below(&r, 2) ? evq_peek(q) : NULL;
        int64_t next_at = peeked ? peeked->at : -1; /* a push may move the slot's array */
        /* what the simulator does between a pop and the next: pushes at or after now */
        int pushes = (int)below(&r, 4);
        for (int k = 0; k < pushes; k++)
            push_both(q, &ref, now + delay(&r, mix), id++);
        if (next_at > now && below(&r, 4) == 0)
            push_both(q, &ref, now + below(&r, next_at - now), id++); /* before the peeked */
        if (!ref.n)
            break;
        int64_t top = ref.v[0].at;
        check_pop(q, &ref);
        now = top;
    }
    close_pair(q, &ref);
}

static void frames_only(void **state)
{
    (void)state;
    run_mix(1, 2, 200000); /* the same instant and the fine wheel */
}

static void frames_and_microseconds(void **state)
{
    (void)state;
    run_mix(2, 3, 200000);
}

static void with_timers(void **state)
{
    (void)state;
    run_mix(3, 4, 300000);
}

static void everything(void **state)
{
    (void)state;
    run_mix(4, 6, 300000);
    run_mix(5, 5, 300000);
}

/* Nothing for a long time, then far events: the wheel jumps over the empty calendar. */
static void gaps(void **state)
{
    (void)state;
    struct heap ref;
    struct evq *q = open_pair(&ref);
    uint32_t id = 0;
    int64_t at[] = { 7,           50000000000LL, 50000000000LL, 50000001000LL, 9000000000LL,
                     123456789LL, 4400000000LL,  4294967296LL };
    for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++)
        push_both(q, &ref, at[i], id++);
    check_pop(q, &ref);
    check_pop(q, &ref);
    push_both(q, &ref, 123456789LL + 1, id++); /* right behind the one just out */
    push_both(q, &ref, 123456789LL + 300000000LL, id++);
    while (ref.n)
        check_pop(q, &ref);
    check_pop(q, &ref);
    /* only far events, two of them a bucket apart: the jump must file both in the calendar */
    int64_t last = 50000001000LL, far[] = { 10000000000LL + 5000, 10000000000LL + 2000000,
                                            10000000000LL + 100000000, 20000000000LL };
    for (size_t i = 0; i < sizeof(far) / sizeof(far[0]); i++)
        push_both(q, &ref, last + far[3 - i], id++);
    close_pair(q, &ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(frames_only), cmocka_unit_test(frames_and_microseconds),
        cmocka_unit_test(with_timers), cmocka_unit_test(everything),
        cmocka_unit_test(gaps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
