/* The gNMI client: many targets, one thread, one curl multi handle.
 *
 * Each target runs one subscription (STREAM, ONCE repeated every interval, or POLL every
 * interval) or, for targets that answer Subscribe with UNIMPLEMENTED, Get every interval.
 * Every update is flattened into leaves (gnmi_msg.h) and handed to on_leaf; the caller maps
 * them (gnmi_map.h) into canonical samples and config. When a target fails (transport error,
 * a gRPC error status, a deadline) it is retried with exponential backoff and jitter, and once
 * data flows again on_gap reports the outage (from the last data to the first new data).
 *
 * Path by path (path_retry_ns > 0): when the target rejects a call before any data with
 * NOT_FOUND, INVALID_ARGUMENT or UNIMPLEMENTED, each of its paths is asked alone (Subscribe
 * ONCE, or Get), on a side call whose data is dropped. The error text is not used to find the
 * path: it is the target's own words (SONiC names the path, others name a key or nothing), and
 * one call per path answers for every target. Each path rejected alone is dropped from the
 * call and said once (on_path); it is asked alone again every path_retry_ns, and a path served
 * again rejoins the call (a STREAM or POLL call restarts with it). Every other path flows.
 * When every path of a Subscribe is UNIMPLEMENTED, the RPC is (fallback_get applies).
 *
 * Deadlines: a unary call (Get, Capabilities) and a poll answer must come within timeout_ns;
 * a STREAM subscription that sends nothing for timeout_ns plus twice its sample interval is
 * treated as dead. */
#ifndef DCB_GNMI_CLIENT_H
#define DCB_GNMI_CLIENT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "clock.h"
#include "err.h"
#include "gnmi_msg.h"
#include "grpc_call.h"

#define GNMI_NAME_MAX 64

struct gnmi_target_conf {
    const char *name; /* device name for samples (default: the address) */
    struct grpc_endpoint ep;
    struct gnmi_request req; /* the subscription (or the Get, mode ignored) */
    bool use_get;            /* poll with Get instead of subscribing */
};

struct gnmi_client_opts {
    int64_t timeout_ns;     /* per-call deadline (default 10 s) */
    int64_t interval_ns;    /* POLL / ONCE / Get repeat interval (default 1 s) */
    int64_t backoff_min_ns; /* first retry delay (default 500 ms) */
    int64_t backoff_max_ns; /* cap (default 30 s) */
    bool reconnect;         /* false: a failed target stays failed */
    bool fallback_get;      /* UNIMPLEMENTED Subscribe -> Get polling (default on) */
    long max_rounds;        /* ONCE/POLL/Get rounds per target, 0: unbounded */
    /* Before a POLL subscription, subscribe ONCE (half-closed). libcurl 7.88 does not report
     * a stream the server ends while our request side is open and paused, so an immediate
     * error (UNAUTHENTICATED, UNIMPLEMENTED...) would only show as a deadline; the ONCE call
     * gets it at once. (STREAM and ONCE half-close, so they see errors directly.) probe_deliver:
     * hand the ONCE data to on_leaf (a first round) rather than dropping it. */
    bool probe_once;
    bool probe_deliver;
    /* > 0: a rejected path is dropped and asked again this often (see above); 0: a rejection
     * fails the call as a whole */
    int64_t path_retry_ns;
};

struct gnmi_target;

struct gnmi_client_cb {
    /* a negative return ends that target's current call as an error */
    int (*on_leaf)(struct gnmi_target *t, const struct gnmi_leaf *leaf, void *arg);
    void (*on_sync)(struct gnmi_target *t, void *arg); /* a full round arrived */
    void (*on_gap)(struct gnmi_target *t, int64_t from_ns, int64_t to_ns, const char *reason,
                   void *arg);
    /* retry_ns: the wait before the next try (0: at once), GNMI_NO_RETRY: given up */
    void (*on_error)(struct gnmi_target *t, const char *msg, int64_t retry_ns, void *arg);
    /* path_retry_ns > 0: a path the target rejected alone (missing, with the target's words),
     * said once per target, or one it serves again (!missing) */
    void (*on_path)(struct gnmi_target *t, const char *path, bool missing, const char *why,
                    void *arg);
    void *arg;
};

struct gnmi_client;

#define GNMI_NO_RETRY (-1)
/* The end of an error line: "; retrying in 1.2 s", "; retrying" (at once), or "" (given up).
 * Returns buf. */
const char *gnmi_retry_text(char *buf, size_t len, int64_t retry_ns);

int gnmi_client_new(struct gnmi_client **out, const struct gnmi_client_opts *opts,
                    const struct gnmi_client_cb *cb, struct dcb_err *err);
/* Copies what it needs from conf. */
int gnmi_client_add(struct gnmi_client *c, const struct gnmi_target_conf *conf,
                    struct dcb_err *err);
/* Runs until *stop, until duration_ns has passed (0: no limit), or until no target can make
 * progress (every one done or failed without reconnect). Calls in flight stay open, so a
 * caller may run in slices (a TUI between redraws). Returns the number of targets that ended
 * in failure. */
int gnmi_client_run(struct gnmi_client *c, volatile sig_atomic_t *stop, int64_t duration_ns);
/* True while some target still has work (a call, or a retry or round to come). */
bool gnmi_client_active(const struct gnmi_client *c);
void gnmi_client_free(struct gnmi_client *c);

const char *gnmi_target_name(const struct gnmi_target *t);
const char *gnmi_target_address(const struct gnmi_target *t);
void *gnmi_target_user(const struct gnmi_target *t);
void gnmi_target_set_user(struct gnmi_target *t, void *user);
/* Counters for progress and benchmarks. */
struct gnmi_target_stats {
    uint64_t notifications, leaves, syncs, calls, failures, bytes_in;
    bool using_get;
    bool failed; /* gave up (no reconnect) */
    char last_error[256];
};
/* Rounds: a sync (POLL, ONCE, a Get answer), and for a STREAM after its first sync, each
 * further batch of as many notifications as came before that sync. */
/* Get / ONCE targets: repeat every interval_ns (> 0), or run once (0). */
void gnmi_target_config_interval(struct gnmi_target *t, int64_t interval_ns);
const struct gnmi_target_stats *gnmi_target_stats(const struct gnmi_target *t);
size_t gnmi_client_ntargets(const struct gnmi_client *c);
struct gnmi_target *gnmi_client_target(struct gnmi_client *c, size_t i);


#endif
