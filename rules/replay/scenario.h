/* Replay scenarios: a fabric, a workload, faults, a duration and a seed in one JSON file
 * (docs/scenario.md), loaded strictly (unknown keys are errors naming their path), with
 * `path=value` overrides, and run with optional repetition and real-time pacing. This is what
 * `dcbkit replay` runs, and what dcbtop, serve and the report use as a live demo source:
 *
 *     struct scenario sc;
 *     scenario_demo(&sc, &err);                         // or scenario_load_file(...)
 *     struct scenario_run_options ro = { .duration_ns = SCENARIO_FOREVER, .realtime = true };
 *     scenario_run(&sc, &ro, &hooks, &result, &err);    // samples and events through hooks
 *
 * Samples, events and series come through the hooks with times in nanoseconds from the start of
 * the run; with realtime, Unix wall-clock time instead (the start plus simulated time / speed).
 * Over repeated passes time keeps running and counters keep counting from where they were.
 * Each pass builds and frees a simulator: a long-running caller should keep glibc from giving
 * the heap back between passes (mallopt M_TRIM_THRESHOLD / M_MMAP_THRESHOLD, as dcbkit replay
 * does), which otherwise costs about half the CPU time of the demo in page faults. */
#ifndef DCB_SCENARIO_H
#define DCB_SCENARIO_H

#include <cjson/cJSON.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "fabric.h"
#include "replay.h"
#include "workload.h"

#define SCENARIO_FILE_MAX (16u << 20)
#define SCENARIO_FOREVER INT64_MAX
#define SCENARIO_NAME_MAX 64

struct scenario {
    char name[SCENARIO_NAME_MAX];
    char source[256];     /* the file, or "demo" */
    cJSON *doc;           /* the scenario as run: fabric inlined, overrides applied */
    struct fabric fabric; /* with config overrides and "config" faults applied */
    struct workload workload;
    struct replay_fault *faults; /* injected into every pass */
    size_t nfaults;
    char **strings; /* names the faults point into (owned) */
    size_t nstrings;
    struct replay_options options; /* seed, duration of one pass, intervals, preset ... */
};

/* sets: "path=value" overrides (--set), applied in order; see docs/scenario.md. A path names a
 * scenario key ("workload.bytes", "duration_ms", "fabric.generate.hosts") or a QoS config path
 * ("switch.wred.3.min_bytes", every interface it applies to; "leaf1/...", "leaf1:Ethernet0/..."
 * for one device or interface). Errors are one line naming the path. */
int scenario_load_file(struct scenario *sc, const char *path, const char *const *sets, size_t nsets,
                       struct dcb_err *err);
/* base_dir resolves a fabric given by path (NULL: the current directory). */
int scenario_load_text(struct scenario *sc, const char *text, size_t len, const char *source,
                       const char *base_dir, const char *const *sets, size_t nsets,
                       struct dcb_err *err);
/* The built-in demo, in the words every --help uses (its "description" too): it repeats, for
 * live views. */
#define SCENARIO_DEMO_SUMMARY                                                               \
    "2 leaves x 4 hosts and 2 spines, hosts at 10G and uplinks at 20G; a 5->1 incast into " \
    "host1 on priority 3 every 20 ms, and a flow into host8, which drains at 2G"
int scenario_demo(struct scenario *sc, const char *const *sets, size_t nsets, struct dcb_err *err);
extern const char scenario_demo_json[];
/* Replaces the workload (the capture conversion in cmd/); takes w's contents. */
int scenario_set_workload(struct scenario *sc, struct workload *w, struct dcb_err *err);
void scenario_free(struct scenario *sc);

/* Config paths the engine does not model (NULL-terminated; docs/scenario.md, "Not modelled"). */
extern const char *const scenario_not_modelled[];
struct scenario_unmodelled_path {
    const char *path; /* one of scenario_not_modelled */
    size_t ifaces;    /* interfaces whose effective config sets it */
};
/* The not-modelled paths the scenario sets (its fabric, config faults, --set), in list order:
 * what `dcbkit replay` warns about. Returns how many (at most max). */
size_t scenario_unmodelled(const struct scenario *sc, struct scenario_unmodelled_path *out,
                           size_t max);

struct scenario_run_options {
    int64_t duration_ns;               /* 0: one pass (forever if the workload repeats);
                                        * SCENARIO_FOREVER: until *stop */
    bool realtime;                     /* pace simulated time to the wall clock */
    double speed;                      /* simulated seconds per wall second (0: 1) */
    const volatile sig_atomic_t *stop; /* set (by a signal handler) to end the run */
    int64_t wall_start_ns;             /* times are this Unix time + simulated time / speed; with
                                        * realtime 0 means now, else 0 keeps times from 0 */
    int64_t warmup_ns;                 /* the summary and the digest measure from here on: counters
                                        * from the first sample at or after it */
    /* Times are wall_start_ns + simulated time: the data's own clock, neither divided by speed
     * nor moved to the wall clock when the simulation falls behind, so that rates taken over
     * them are the fabric's whatever the pace (dcbtop's and serve's demo). */
    bool simulated_stamps;
    /* After the last sample of each round, with the hooks' arg and the round's time as the
     * samples have it; NULL: not (replay_options.round_end). */
    void (*round_end)(void *arg, int64_t time_ns);
};

/* What the signatures of docs/scenario.md are judged on, over the whole run (all passes) after
 * the warm-up. */
#define SCENARIO_PRIOS 8
struct scenario_host {
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX];
    double rx_util, tx_util; /* bytes on the wire over the run / line rate */
    uint64_t pfc_tx;         /* PFC frames the host sent */
};

struct scenario_digest {
    uint64_t pg_drops[SCENARIO_PRIOS];      /* ingress, by priority group (lossless loss) */
    uint64_t queue_drops[SCENARIO_PRIOS];   /* egress, by traffic class (lossy loss, WRED) */
    uint64_t pfc_tx_switch[SCENARIO_PRIOS]; /* PFC frames switches sent, by priority */
    uint64_t pfc_tx_host[SCENARIO_PRIOS];   /* PFC frames hosts sent */
    uint64_t ecn_marked, cnp_sent, cnp_handled, ce_received;
    uint64_t cnp_ignored;                                  /* CNPs to QPs whose RP is off */
    uint64_t out_of_sequence, naks_received, ack_timeouts; /* go-back-N (roce.*) */
    uint64_t wred_drops;                       /* queue.wred_drops (also in queue_drops) */
    uint64_t watchdog_drops;                   /* pfcwd.tx_drop (also in queue_drops) */
    uint64_t oversize_drops;                   /* drop.rx_oversize + drop.tx_oversize: the MTU */
    uint64_t fcs_errors;                       /* link.fcs_errors: frames lost to a bad FCS */
    uint64_t pause_global_tx, pause_global_rx; /* 802.3x PAUSE frames sent, received */
    int64_t first_pause_ns;                    /* the first XOFF, -1 if none */
    uint64_t marks_by_first_pause;             /* marks counted by the first sample after it */
    int64_t longest_pause_ns;                  /* longest unbroken pause of a priority (sampled) */
    char longest_pause_port[DCB_DEVICE_MAX + DCB_IFNAME_MAX];
    int longest_pause_prio;
    uint64_t watchdog_storms;
    double bottleneck_util;    /* the busiest host link (rx) */
    double uplink_ratio;       /* max uplink load / mean of its siblings (leaves);
                                * infinite when the siblings carried nothing */
    uint64_t uplink_max_bytes; /* that uplink's bytes, and its siblings' mean */
    double uplink_siblings_bytes;
    char uplink_device[DCB_DEVICE_MAX];
    struct scenario_host *hosts;
    size_t nhosts;
};

struct scenario_result {
    struct replay_summary summary;         /* of the last pass */
    struct workload_iterations iterations; /* ring all-reduce: over every pass */
    struct scenario_digest digest;
    uint64_t passes, events, packet_hops;
    int64_t simulated_ns, last_pass_ns; /* in all; the pass the summary is of */
    int64_t warmup_ns;                  /* the options' */
    int64_t measured_from_ns;           /* the digest's counters: from this sample on */
    double wall_s, cpu_s;
    bool stopped; /* *stop ended it */
};

int scenario_run(const struct scenario *sc, const struct scenario_run_options *ro,
                 const struct replay_hooks *hooks, struct scenario_result *res,
                 struct dcb_err *err);
void scenario_result_free(struct scenario_result *r);

/* "20ms", "1.5s", "forever" (SCENARIO_FOREVER) for --duration; ns out. */
int scenario_parse_duration(const char *text, int64_t *ns, struct dcb_err *err);

#endif
