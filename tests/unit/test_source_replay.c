/* The replay source in real time hands dcbtop whole sample rounds only. Its child writes a round
 * sample by sample down a pipe; a tick that drained the pipe while the child was half way
 * through one (the child preempted on a busy machine, or dcbtop polling for new data just then)
 * used to deliver half a round: the frame then stood at the round's time while the ports not
 * yet read kept the rates of half a refresh earlier (issue 31: "one port's second differs by a
 * few 64-byte control frames").
 *   whole_rounds_at_any_tick: the demo at 2x, every round forwarded, ticked every 200 us
 *       (far more often than rounds come, so ticks land inside rounds): after every tick, each
 *       round seen so far has as many samples as the same run as fast as possible gives at
 *       that simulated time, and no tick's data stands at a round not seen whole.
 *   half_a_round_waits: a child that stops in the middle of a round until told to go on: the
 *       tick in between delivers nothing of it; the round's end delivers all of it. */
#include "unit.h"

#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "source.h"
#include "source_child.h"

#define MS 1000000LL
#define SEC_NS 1000000000LL
#define ORIGIN (1700000000LL * SEC_NS)
#define DURATION_NS (1 * SEC_NS)
#define ROUND_NS (10 * MS) /* the demo's sample interval */
#define NROUNDS (DURATION_NS / ROUND_NS + 1)

struct counts {
    int64_t origin_ns;
    unsigned at[NROUNDS]; /* samples per round, by simulated time */
    unsigned strays;      /* samples at no round's time */
};

static void count_sample(void *arg, const struct dcb_sample *s, unsigned width_bits)
{
    (void)width_bits;
    struct counts *c = arg;
    int64_t rel = s->time_ns - c->origin_ns;
    if (rel < 0 || rel % ROUND_NS || rel / ROUND_NS >= NROUNDS)
        c->strays++;
    else
        c->at[rel / ROUND_NS]++;
}

static void no_event(void *arg, const struct dcb_event *e)
{
    (void)arg;
    (void)e;
}

static void no_config(void *arg, const struct store_config_row *c)
{
    (void)arg;
    (void)c;
}

static struct dcb_sink counting(struct counts *c)
{
    return (struct dcb_sink){ .sample = count_sample,
                              .event = no_event,
                              .config = no_config,
                              .arg = c };
}

static void sleep_ns(int64_t ns)
{
    struct timespec ts = { 0, (long)ns };
    nanosleep(&ts, NULL);
}

static void whole_rounds_at_any_tick(void **state)
{
    (void)state;
    static struct counts ref, got;
    struct dcb_err err;
    /* the reference: the same run as fast as possible */
    struct dcb_source fast = { 0 };
    ref.origin_ns = ORIGIN;
    fast.sink = counting(&ref);
    struct source_replay_options fo = { .fast = true,
                                        .duration_ns = DURATION_NS,
                                        .start_ns = ORIGIN };
    assert_int_equal(dcb_source_replay_open(&fast, &fo, &err), 0);
    int64_t data_ns;
    assert_int_equal(dcb_source_tick(&fast, ORIGIN, &data_ns, &err), DCB_SOURCE_END);
    dcb_source_close(&fast);
    assert_int_equal(ref.strays, 0);
    assert_true(ref.at[NROUNDS - 1] > 100);

    /* in real time at 2x, every round forwarded (half a refresh is one sample interval) */
    const double speed = 2;
    struct dcb_source live = { 0 };
    live.sink = counting(&got);
    live.interval_ns = (int64_t)(2 * ROUND_NS / speed);
    struct source_replay_options lo = { .speed = speed, .duration_ns = DURATION_NS };
    assert_int_equal(dcb_source_replay_open(&live, &lo, &err), 0);
    got.origin_ns = live.origin_ns;
    int rc = 0;
    unsigned ticks = 0, partial_ticks = 0;
    int64_t give_up = ORIGIN; /* set from the first tick's wall time */
    for (;;) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        int64_t wall = (int64_t)now.tv_sec * SEC_NS + now.tv_nsec;
        if (give_up == ORIGIN)
            give_up = wall + 60 * SEC_NS;
        rc = dcb_source_tick(&live, wall, &data_ns, &err);
        ticks++;
        bool partial = false;
        for (int k = 0; k < NROUNDS; k++)
            partial |= got.at[k] && got.at[k] != ref.at[k];
        int64_t rel = data_ns - got.origin_ns;
        if (rel >= 0 && rel / ROUND_NS < NROUNDS && got.at[rel / ROUND_NS])
            partial |= got.at[rel / ROUND_NS] != ref.at[rel / ROUND_NS];
        partial_ticks += partial;
        if (rc != 0 || wall > give_up)
            break;
        sleep_ns(200000);
    }
    dcb_source_close(&live);
    assert_int_equal(rc, DCB_SOURCE_END);
    assert_int_equal(got.strays, 0);
    if (partial_ticks)
        fail_msg("%u of %u ticks saw part of a round", partial_ticks, ticks);
    for (int k = 0; k < NROUNDS; k++)
        if (got.at[k] != ref.at[k])
            fail_msg("round at %d ms: %u samples, as fast as possible %u", k * 10, got.at[k],
                     ref.at[k]);
}

/* ---- half_a_round_waits --------------------------------------------------------------------- */

struct scripted {
    int go[2]; /* the parent writes a byte: finish the round */
};

static void send_at(int fd, int64_t t, uint64_t value)
{
    struct dcb_sample s;
    dcb_sample_set(&s, t, "host1", "eth0", METRIC_PORT_RX_BYTES, -1, -1);
    s.value.counter = value;
    source_child_send_sample(fd, &s);
}

/* Two samples of the round at ORIGIN, a stop until told, the third and the round's end. */
static int half_then_rest(void *arg, int fd)
{
    struct scripted *sc = arg;
    send_at(fd, ORIGIN, 1);
    send_at(fd, ORIGIN, 2);
    char byte;
    if (read(sc->go[0], &byte, 1) != 1)
        return -1;
    send_at(fd, ORIGIN, 3);
    source_child_send_round_end(fd);
    return 0;
}

static void half_a_round_waits(void **state)
{
    (void)state;
    static struct counts got;
    struct scripted sc;
    struct dcb_err err;
    assert_int_equal(pipe(sc.go), 0);
    got.origin_ns = ORIGIN;
    struct dcb_source src = { 0 };
    src.sink = counting(&got);
    struct source_child cl;
    assert_int_equal(source_child_start(&cl, half_then_rest, &sc, &err), 0);
    cl.rounds = true;
    /* the first half is in the pipe (both records: 2 x 8 bytes of framing each) */
    size_t want = 2 * (2 * sizeof(uint32_t) + sizeof(struct dcb_sample));
    int queued = 0;
    for (int k = 0; k < 5000 && (size_t)queued < want; k++) {
        sleep_ns(1000000);
        assert_int_equal(ioctl(cl.fd, FIONREAD, &queued), 0);
    }
    assert_true((size_t)queued >= want);
    source_child_drain(&cl, &src, 0);
    assert_int_equal(got.at[0], 0);
    assert_int_equal(cl.newest_ns, 0);
    assert_false(cl.got_data);
    /* the rest and the round's end: all three at once */
    assert_int_equal(write(sc.go[1], "g", 1), 1);
    for (int k = 0; k < 5000 && !cl.ended; k++) {
        source_child_drain(&cl, &src, 0);
        sleep_ns(1000000);
    }
    assert_true(cl.ended);
    assert_int_equal(got.at[0], 3);
    assert_int_equal(cl.newest_ns, ORIGIN);
    source_child_stop_and_wait(&cl);
    close(sc.go[0]);
    close(sc.go[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(whole_rounds_at_any_tick),
        cmocka_unit_test(half_a_round_waits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
