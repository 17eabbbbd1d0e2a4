/* The source layer: where evidence comes from, for every use (dcbtop's view, serve's export,
 * diagnose, report, collect's recording). Every source speaks the canonical vocabulary -
 * samples, events, QoS config snapshots and links - into a sink, one tick at a time:
 *
 *   local       this host: sysfs/ioctl counters, RDMA hw_counters, dcbnl, DCQCN knobs, LLDP
 *               (source_local.c, on collectors/host_source)
 *   gnmi        switches over gNMI, by address or from a fabric file (source_gnmi.c)
 *   store       a window of a store, or following a writer (source_store.c)
 *   replay      a scenario or the demo, in real time or as fast as possible (source_replay.c)
 *   pcap        a capture's evidence at its own timestamps or as fast as possible
 *               (source_pcap.c)
 *   prometheus  a window of what `dcbkit serve` exported, read back (source_prometheus.c)
 *   fabric      a fabric file's intent: config and links only (source_fabric.c)
 *
 * Several sources at once make one composite source (source_set.c). Options are parsed once for
 * every command by source_opts.h; the sinks that keep what comes are in sink_store.h. */
#ifndef DCB_SOURCE_H
#define DCB_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "err.h"
#include "sample.h"
#include "store.h"

enum dcb_source_kind {
    SOURCE_LOCAL,
    SOURCE_GNMI,
    SOURCE_STORE,
    SOURCE_REPLAY,
    SOURCE_PCAP,
    SOURCE_PROMETHEUS,
    SOURCE_FABRIC,
    SOURCE_SET,
    SOURCE_NKINDS
};

/* "local", "gnmi", ... as the options and the JSON name them. */
const char *dcb_source_kind_name(enum dcb_source_kind k);

struct dcb_sink {
    /* width_bits: the counter's width when the source knows it (32 for mlx5 Q-counters), so
     * that a wrap is told from a reset; 0: 64. */
    void (*sample)(void *arg, const struct dcb_sample *s, unsigned width_bits);
    void (*event)(void *arg, const struct dcb_event *e);
    void (*config)(void *arg, const struct store_config_row *c);
    /* device:ifname is linked to peer:peer_port; how says who says so ("fabric", "lldp",
     * "replay"). May be NULL. */
    void (*link)(void *arg, const char *device, const char *ifname, const char *peer,
                 const char *peer_port, const char *how);
    /* The source starts over (a jump in time): forget everything it gave so far. May be
     * NULL. */
    void (*reset)(void *arg);
    void *arg;
};

struct dcb_source;
struct host_source_sink;
struct gnmi_source_cb;

/* tick returns this when a finite source has given everything it has. */
#define DCB_SOURCE_END 1

struct dcb_source_ops {
    /* Produce what is new at wall time now_ns; *data_ns is the time the data stands at (the
     * evaluation time of the rules). 0, DCB_SOURCE_END, or a negative error. */
    int (*tick)(struct dcb_source *src, int64_t now_ns, int64_t *data_ns, struct dcb_err *err);
    /* Move in time by steps intervals (negative: back). NULL when the source is live. */
    int (*seek)(struct dcb_source *src, int steps, struct dcb_err *err);
    void (*close)(struct dcb_source *src);
};

#define DCB_SOURCE_STATUS_MAX 256
#define DCB_SOURCE_NAME_MAX 1100

struct dcb_source {
    const struct dcb_source_ops *ops;
    void *ctx;
    struct dcb_sink sink;
    enum dcb_source_kind kind;
    char name[DCB_SOURCE_NAME_MAX];     /* "local gpu17", "store fabric.db", ... */
    char status[DCB_SOURCE_STATUS_MAX]; /* a standing remark ("" when none) */
    int64_t interval_ns;                /* the refresh interval (dcbtop's 'd' changes it) */
    /* A source paced to the wall clock at its own speed (a replay or a capture played X times
     * faster): data seconds per wall second, so that a refresh interval spans interval_ns *
     * data_speed of the data's time (0: 1). */
    double data_speed;
    /* Such a source's data trails the wall clock by this much (the machine is too busy for the
     * simulation to keep pace): wall time; 0 when it keeps up. */
    int64_t behind_ns;
    /* A replay in real time: the wall time its simulated time 0 stands at (0: none). */
    int64_t origin_ns;
    /* Ends by itself (a capture, a scenario run as fast as possible, a store window, a
     * fabric's intent): a use that reads to the end ticks it until DCB_SOURCE_END. */
    bool finite;
    /* The store source's store, read in place by a use that reads a store anyway (diagnose,
     * report) instead of copying it through the sink; NULL for every other source. */
    struct dcb_store *direct;
    /* The reset stage in front of sink (collectors/reset_watch.h), for a source that does not
     * say its counters' resets itself; closed with the source. NULL: none. */
    struct reset_watch *watch;
};

/* A QoS config as a snapshot row (its JSON) into sink: 0, or DCB_E_NOMEM with err set. */
struct qos_config;
int dcb_sink_put_qos(const struct dcb_sink *sink, int64_t time_ns, const char *device,
                     const char *ifname, const char *source, const struct qos_config *c,
                     struct dcb_err *err);

/* Ticks src; closes it. Safe on a source that never opened (ops NULL). */
int dcb_source_tick(struct dcb_source *src, int64_t now_ns, int64_t *data_ns, struct dcb_err *err);
void dcb_source_close(struct dcb_source *src);
/* Puts the reset stage in front of src's sink (after it opened): 0, or DCB_E_NOMEM. */
int dcb_source_watch_resets(struct dcb_source *src, struct dcb_err *err);

/* How a use drives a source to the end or for a while (dcb_source_run). */
struct dcb_source_run {
    int64_t duration_ns; /* 0: until the source ends (or forever, if it never does) */
    long count;          /* 0: no limit; else this many ticks */
    volatile int *stop;  /* set (by a signal handler) to stop; may be NULL */
    /* called after each tick with the data time; a negative return stops the run */
    int (*after_tick)(void *arg, int64_t data_ns, struct dcb_err *err);
    void *arg;
};

/* Ticks src every src->interval_ns of wall time (a finite source that is not paced, at once)
 * until it ends, the duration or the count runs out, or *stop is set. 0 (the source ended, or
 * the run was stopped) or a negative error; *data_ns is the last data time. */
int dcb_source_run(struct dcb_source *src, const struct dcb_source_run *run, int64_t *data_ns,
                   struct dcb_err *err);

/* ---- the sources ---------------------------------------------------------------------------- */

/* local: this host's interfaces matching pattern (NULL: all but lo). */
struct source_local_options {
    const char *sysfs_root, *proc_root, *pattern, *maps_dir, *device;
    bool no_lldp;      /* no LLDP listener */
    bool all_counters; /* also counters that map to no canonical metric */
    /* What `dcbkit collect` needs beyond the canonical rows: */
    unsigned raw_every;    /* all_counters: unmapped ones every Nth tick (0: 10) */
    bool config_each_tick; /* config and knobs every tick from the first (else
                            * every 10th from the second, for a view) */
    /* saved `ethtool -S` dumps of interface pattern instead of the host, taken one interval
     * apart: the first tick gives them all and the source ends; driver names the map (NULL:
     * guessed from the counter names) */
    const char *const *dumps;
    size_t ndumps;
    const char *driver;
    /* sees every reading as collectors/host_source gives it (raw counters and their deltas,
     * the LLDP partner of a config snapshot, messages), besides the sink; may be NULL */
    const struct host_source_sink *tap;
};
int dcb_source_local_open(struct dcb_source *src, const struct source_local_options *opt,
                          struct dcb_err *err);
/* After a tick: whether some interface has PFC counters. */
bool dcb_source_local_has_pfc(const struct dcb_source *src);
struct source_local_stats {
    uint64_t samples, events, failures;
    int read; /* interfaces the last tick read */
};
void dcb_source_local_stats(const struct dcb_source *src, struct source_local_stats *st);

/* replay: a scenario file (NULL: the built-in demo) with path=value overrides. Real time runs
 * it paced to the wall clock at speed (0: 1) in a child process; fast runs it at once, within
 * the first tick, and ends. */
#define SOURCE_REPLAY_SETS_MAX 64
struct source_replay_options {
    const char *scenario;
    const char *sets[SOURCE_REPLAY_SETS_MAX];
    size_t nsets;
    double speed;
    bool fast;
    int64_t duration_ns; /* 0: the scenario's (real time: until stopped) */
    int64_t start_ns;    /* fast: the wall time simulated time 0 stands at (0: the
                          * first tick's; a recording starts after its store's
                          * newest data) */
};
int dcb_source_replay_open(struct dcb_source *src, const struct source_replay_options *opt,
                           struct dcb_err *err);
/* What a fast replay gives before its samples: each port's config as the scenario runs it
 * ("replay"), where it sits ("topology": its role and its partner's) and the link, with prefix
 * (NULL: none) before every device name, as `dcbkit replay --device-prefix` renames them. */
struct fabric;
void source_replay_put_config(const struct fabric *f, const char *prefix, int64_t time_ns,
                              const struct dcb_sink *sink);

/* gnmi: switches by address, and every gNMI device of a fabric file. */
#define SOURCE_GNMI_MAX 1024
struct source_gnmi_options {
    const char *addresses[SOURCE_GNMI_MAX];
    size_t naddresses;
    const char *fabric;   /* devices whose reach is gNMI */
    const char *map;      /* vendor map (default openconfig) */
    const char *maps_dir; /* NULL: $DCBKIT_MAPS or the installed maps */
    const char *device;   /* the name of a single --gnmi target */
    bool plaintext, insecure;
    const char *tls_ca, *tls_cert, *tls_key, *tls_server_name, *credentials;
    int mode;                   /* enum gnmi_mode; 0: STREAM */
    int encoding;               /* enum gnmi_encoding (source_opts_init: JSON_IETF) */
    int64_t timeout_ns;         /* per call (0: 10 s) */
    int64_t config_interval_ns; /* 0: config once at start; <0: never */
    size_t max_message;         /* 0: the client's default */
    int64_t path_retry_ns;      /* a path not served is asked again (0: 5 min) */
    /* In this process, within each tick, instead of a child process: for a use that does
     * nothing else meanwhile (collect). Each tick runs the client for one interval; the
     * source ends after duration_ns (0: never), after max_rounds poll/once rounds (0: no
     * limit), or when no target is left; *stop (a signal) ends a tick at once. tap sees each
     * leaf, config, round and error as collectors/gnmi/gnmi_source gives them. */
    bool in_process;
    volatile int *stop;
    int64_t duration_ns;
    long max_rounds;
    const struct gnmi_source_cb *tap;
};
int dcb_source_gnmi_open(struct dcb_source *src, const struct source_gnmi_options *opt,
                         struct dcb_err *err);
/* In process: the devices polled, the targets that ended in failure (so far), and the
 * client's counts. */
struct source_gnmi_stats {
    size_t devices;
    int failures;
    uint64_t unmapped;
};
void dcb_source_gnmi_stats(const struct dcb_source *src, struct source_gnmi_stats *st);

/* store: at_ns 0 follows the store's newest data; window_ns is how much history before it a
 * tick gives (0: 60 intervals). */
int dcb_source_store_open(struct dcb_source *src, const char *path, int64_t at_ns,
                          int64_t window_ns, struct dcb_err *err);
/* --at -DURATION: stand that long before the store's newest data. */
void dcb_source_store_at_before_end(struct dcb_source *src, int64_t before_ns);

/* fabric: the intent of every interface, its link partner's ("peer:fabric") and the link, on
 * the first tick; then it ends. */
int dcb_source_fabric_open(struct dcb_source *src, const char *path, struct dcb_err *err);

/* pcap: a capture file's evidence - the trackers' events (pause intervals, CE marks, CNPs,
 * NAKs, DCBX peers, as `dcbkit analyze` sees them), capture.* counters, per-QP capture.qp_*
 * series for the QPs with something to judge (source_pcap_qps.h), the capture's own port
 * ("capture", with the lossless priorities as its PFC mask; "peer:dcbx", what the DCBX heard
 * on it advertised: the union of the PFC masks, the DSCP App entries), and each DCBX
 * neighbour's advertised config ("dcbx") with the other end's as its partner's ("peer:dcbx").
 * Fast gives everything on the first tick, at the capture's times (the counters every minute
 * of capture time and at its end), and ends, also after a read error (the frames before it
 * are given; the tick returns the error); otherwise the capture plays at its own timestamps,
 * speed times faster than they were taken (0: 1), each tick giving what its time has reached,
 * shifted so the first frame is at the first tick (rates stay the capture's). Read frame by
 * frame, never held; "-" is standard input (fast only); errors start with the path. */
struct source_pcap_options {
    const char *path;
    uint64_t link_bps;      /* pause quanta to time (0: 400G) */
    bool link_speed_given;  /* link_bps was named, not the default */
    unsigned lossless_mask; /* priorities meant lossless */
    bool lossless_given;    /* lossless_mask was named (0 then: none) */
    int64_t storm_ns;       /* a pause longer than this is a storm (0: default) */
    uint32_t max_qps;       /* QPs tracked one by one (0: the trackers' default) */
    const char *device;     /* the device the capture is of (NULL: the file's
                             * base name, as diagnose has always named it) */
    double speed;
    bool fast;
    /* called every 4096 frames read (a terminal's progress: it reads the clock); NULL: none */
    void (*progress)(void *arg, uint64_t frames, uint32_t qps);
    void *progress_arg;
};
int dcb_source_pcap_open(struct dcb_source *src, const struct source_pcap_options *opt,
                         struct dcb_err *err);

struct track_set;
/* What a capture source read, for a report of its own (dcbkit analyze's tables). */
struct source_pcap_view {
    struct track_set *tracks; /* the source's own (a report sorts latencies) */
    uint64_t frames, malformed, other_linktype;
    int64_t first_ns, last_ns; /* capture time; 0 before the first frame */
    int64_t storm_ns;
    int lossless_mask;           /* -1: unknown */
    const char *lossless_source; /* "option", "dcbx" or "unknown" */
    const char *device;
};
/* 0, or -1 when src is no capture source. */
int dcb_source_pcap_view(const struct dcb_source *src, struct source_pcap_view *v);
/* The tracker flow (an index into tracks->qps.flows) a finding's qp names, or -1; and the qp
 * label of a flow, or -1 when it has no per-QP series. */
long dcb_source_pcap_qp_flow(const struct dcb_source *src, int qp);
int dcb_source_pcap_flow_qp(const struct dcb_source *src, uint32_t flow);

/* prometheus: a window of what `dcbkit serve` exported, read back from a Prometheus server with
 * query_range: the canonical metrics (from their Prometheus names and base units), the
 * dcbkit_qos_config series as config snapshots, dcbkit_topology_info as "topology" rows, and the
 * increases of dcbkit_events_total as events (at most 100000; past that one source_gap event
 * says how many were left out). Gives the whole window on the first tick and ends. Errors
 * start with the URL. */
struct source_prometheus_options {
    const char *url;                    /* http://prometheus:9090 */
    const char *match;                  /* extra label matchers (job="dcbkit"); NULL: none */
    int64_t end_ns, window_ns, step_ns; /* end 0: now; window 0: 1h; step 0: window/240 */
    long timeout_ms;                    /* 0: 10 s */
};
int dcb_source_prometheus_open(struct dcb_source *src, const struct source_prometheus_options *opt,
                               struct dcb_err *err);

/* set: several sources as one (source_set.c). Open the set, then each member in place in the
 * slot dcb_source_set_next gives (its sink and interval are the set's), and commit it once it
 * opened. A set ticks every member; it ends when every finite member ended and no member is
 * live. */
#define SOURCE_SET_MAX 8
int dcb_source_set_open(struct dcb_source *src, struct dcb_err *err);
struct dcb_source *dcb_source_set_next(struct dcb_source *set);
void dcb_source_set_commit(struct dcb_source *set);
/* The first member of this kind, or NULL (src itself when it is of that kind). */
struct dcb_source *dcb_source_find(struct dcb_source *src, enum dcb_source_kind kind);

#endif
