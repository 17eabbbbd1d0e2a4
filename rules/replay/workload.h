/* Workloads for the replay engine: the traffic patterns operators ask what-if questions about,
 * turned into the flat list of flows the simulator runs (replay.h). A workload comes from the
 * "workload" object of a scenario (docs/scenario.md) or is built flow by flow (the capture
 * conversion in cmd/ does that). Host names are checked against the fabric: a workload naming a
 * host the fabric lacks is refused with the JSON path. */
#ifndef DCB_WORKLOAD_H
#define DCB_WORKLOAD_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "fabric.h"
#include "replay.h"

/* An all-to-all of 1,448 hosts; about 0.6 KB each in a run (docs/scenario.md), which
 * max_memory_bytes bounds. Each workload type checks it before it builds a flow. */
#define WORKLOAD_MAX_FLOWS 2097152

enum workload_type {
    WORKLOAD_INCAST,         /* N senders -> 1 receiver */
    WORKLOAD_ALL_TO_ALL,     /* every host to every other */
    WORKLOAD_RING_ALLREDUCE, /* 2(N-1) steps per iteration around a ring */
    WORKLOAD_PERMUTATION,    /* each host to one other, a random derangement from the seed */
    WORKLOAD_FLOWS,          /* an explicit list (also what a capture becomes) */
};

struct workload {
    enum workload_type type;
    struct replay_flow *flows;
    struct replay_after *after; /* parallel to flows */
    uint8_t *transport;         /* parallel to flows: enum replay_transport */
    size_t nflows, cap;
    char **names; /* host names the flows point into (owned) */
    size_t nnames, names_cap;
    uint32_t *name_slots; /* names by hash, index + 1 (0: free), at most half full */
    size_t nslots;
    bool repeat; /* the workload starts again every pass, for live use */
    /* ring all-reduce: flows are grouped by iteration, steps in order */
    unsigned iterations;
    size_t flows_per_iteration;
    uint64_t message_bytes;
};

/* Iteration times of a ring all-reduce over a run (from the flows' finish times). */
struct workload_iterations {
    unsigned complete; /* iterations that finished within the run */
    double mean_ns, p99_ns, max_ns;
};

void workload_init(struct workload *w);
void workload_free(struct workload *w);
const char *workload_type_name(enum workload_type t);

/* Builds the flows that obj describes; errors name prefix + the JSON path
 * ("workload.receiver: no host \"host9\" in the fabric"). seed drives the permutation. */
int workload_from_json(struct workload *w, const cJSON *obj, const struct fabric *f, uint64_t seed,
                       const char *prefix, struct dcb_err *err);

/* Appends one flow (names are copied). bytes 0 runs for the whole pass. */
int workload_add(struct workload *w, const char *src, const char *dst, uint64_t bytes,
                 int64_t start_ns, uint8_t dscp, uint16_t sport, uint32_t payload,
                 struct dcb_err *err);

/* The hosts of the fabric in file order; a host is a device with the host role. */
size_t workload_hosts(const struct fabric *f, const char **names, size_t max);

/* From a finished run's summary; zero iterations for other workloads. */
void workload_iterations(const struct workload *w, const struct replay_summary *s,
                         struct workload_iterations *out);

#endif
