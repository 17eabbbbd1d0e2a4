/* What replay_run() accepts (replay.h): times within REPLAY_TIME_MAX_NS, so that no time in
 * picoseconds, nor a time plus a delay, can overflow an int64; flows whose packets fit a 32-bit
 * PSN. The scenario loader refuses bad values first, naming their keys; this is the check for
 * every other caller, and the last word. */
#include <stdio.h>

#include "sim.h"

static int time_out_of_range(const char *what, int64_t ns, struct dcb_err *err)
{
    return dcb_err_set(err, DCB_E_RANGE, "%s: %lld ns is out of range (0 to %lld)", what,
                       (long long)ns, REPLAY_TIME_MAX_NS);
}

static bool time_ok(int64_t ns)
{
    return ns >= 0 && ns <= REPLAY_TIME_MAX_NS;
}

int replay_check_flow(const struct replay_flow *f, size_t i, struct dcb_err *err)
{
    char what[48];
    snprintf(what, sizeof(what), "flow %zu: start", i);
    if (!time_ok(f->start_ns))
        return time_out_of_range(what, f->start_ns, err);
    if (f->payload > REPLAY_PAYLOAD_MAX)
        return dcb_err_set(err, DCB_E_RANGE, "flow %zu: payload %u is out of range (1 to %u)", i,
                           f->payload, REPLAY_PAYLOAD_MAX);
    uint32_t payload = f->payload ? f->payload : REPLAY_PAYLOAD_DEFAULT;
    if (f->bytes / payload >= UINT32_MAX)
        return dcb_err_set(err, DCB_E_RANGE,
                           "flow %zu: %llu bytes at %u a packet are 2^32 "
                           "packets or more (its PSN is 32-bit)",
                           i, (unsigned long long)f->bytes, payload);
    return 0;
}

static int check_faults(const struct replay_options *o, struct dcb_err *err)
{
    for (size_t i = 0; i < o->nfaults; i++) {
        const struct replay_fault *ft = &o->faults[i];
        char what[48];
        snprintf(what, sizeof(what), "fault %zu: at", i);
        if (!time_ok(ft->at_ns))
            return time_out_of_range(what, ft->at_ns, err);
        snprintf(what, sizeof(what), "fault %zu: until", i);
        if (!time_ok(ft->until_ns))
            return time_out_of_range(what, ft->until_ns, err);
        if (!(ft->drain_bps >= 0 && ft->drain_bps <= (double)QOS_SPEED_MAX_BPS))
            return dcb_err_set(err, DCB_E_RANGE,
                               "fault %zu: drain %.17g b/s is out of range "
                               "(0 to %lld)",
                               i, ft->drain_bps, QOS_SPEED_MAX_BPS);
    }
    return 0;
}

int replay_check(const struct replay_options *o, const struct replay_flow *flows, size_t n,
                 struct dcb_err *err)
{
    if (o->duration_ns <= 0 || o->duration_ns > REPLAY_TIME_MAX_NS)
        return dcb_err_set(err, DCB_E_RANGE, "duration: %lld ns is out of range (1 to %lld)",
                           (long long)o->duration_ns, REPLAY_TIME_MAX_NS);
    const struct {
        const char *what;
        int64_t ns;
    } times[] = {
        { "sample interval", o->sample_interval_ns },
        { "series interval", o->series_interval_ns },
        { "retransmit timeout", o->retransmit_timeout_ns },
        { "warm-up", o->warmup_ns },
        { "PFC response", o->pfc_response_ns < 0 ? 0 : o->pfc_response_ns },
    };
    for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++)
        if (!time_ok(times[i].ns))
            return time_out_of_range(times[i].what, times[i].ns, err);
    if (!(o->host_drain_bps >= 0 && o->host_drain_bps <= (double)QOS_SPEED_MAX_BPS))
        return dcb_err_set(err, DCB_E_RANGE, "host drain: %.17g b/s is out of range (0 to %lld)",
                           o->host_drain_bps, QOS_SPEED_MAX_BPS);
    int rc = check_faults(o, err);
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = replay_check_flow(&flows[i], i, err);
    return rc;
}
