/* Inside the gNMI client (gnmi_client.c, gnmi_paths.c): a target's state. Not for callers. */
#ifndef DCB_GNMI_TARGET_INT_H
#define DCB_GNMI_TARGET_INT_H

#include "gnmi_client.h"

enum phase { PH_WAIT, PH_CALL, PH_DONE, PH_FAILED };
enum call_kind { CALL_SUBSCRIBE, CALL_GET };
enum path_st { PATH_OK, PATH_UNKNOWN, PATH_MISSING };

struct path_state {
    enum path_st st;
    bool reported;    /* said missing (on_path) */
    int code;         /* the gRPC status it was rejected with */
    int64_t retry_ns; /* monotonic: when to ask a missing path again */
    char why[200];
};

struct gnmi_target {
    struct gnmi_client *client;
    char name[GNMI_NAME_MAX];
    struct grpc_endpoint ep;
    struct gnmi_request req;
    char *strings[8 + GNMI_MAX_PATHS]; /* owned copies behind ep and req */
    size_t nstrings;
    bool use_get;

    enum phase phase;
    enum call_kind kind;
    struct grpc_call call;
    bool in_multi;
    int64_t next_ns;     /* PH_WAIT: when to start; PH_CALL: the next poll */
    int64_t deadline_ns; /* the call fails when nothing arrives by then (0: none) */
    bool awaiting_sync;  /* a POLL asked and not yet answered */
    int64_t backoff_ns;
    long rounds;
    long max_rounds;     /* 0: unbounded */
    int64_t interval_ns; /* ONCE / POLL / Get repeat */
    bool down;           /* an outage is open */
    int64_t down_since_ns;
    int64_t last_data_ns;
    int64_t last_data_mono;
    char down_reason[200];
    bool got_data_this_call;
    bool probing; /* this call is the ONCE probe */
    bool stream_error_retried;
    bool probed; /* the probe passed since the last failure */
    int leaf_error;
    char leaf_error_msg[DCB_ERR_MSG_MAX];
    uint64_t round_notes; /* STREAM: notifications before the first sync */
    uint64_t notes_since; /* STREAM: notifications since the last round */
    bool synced;          /* STREAM: this call's first sync came */
    /* path by path (path_retry_ns > 0): req.paths holds the paths not missing */
    const char *all[GNMI_MAX_PATHS];
    size_t nall;
    struct path_state ps[GNMI_MAX_PATHS];
    bool paths_blocked;     /* the call waits for its paths to be asked one by one */
    bool paths_checked;     /* they were, and no data came since */
    int reject_code;        /* the status that started the check */
    struct grpc_call pcall; /* a path asked alone */
    bool p_in_multi;
    int p_index;           /* its path, -1: none */
    bool p_stream_retried; /* see call_finished: a lost Trailers-Only answer */
    int64_t p_deadline;
    struct gnmi_target_stats stats;
    void *user;
};

struct gnmi_client {
    struct gnmi_client_opts o;
    struct gnmi_client_cb cb;
    CURLM *multi;
    struct gnmi_target **t;
    size_t n, cap;
    uint64_t rng;
};

void gnmi_target_end_call(struct gnmi_target *t);
/* A call set up (rc 0) joins the client's multi handle; on any failure it is cleaned up. */
int gnmi_client_attach(struct gnmi_client *c, struct grpc_call *call, int rc, struct dcb_err *err);
/* A failure: report it, open the outage, schedule the retry (or give up). */
void gnmi_target_failed(struct gnmi_target *t, const char *why);

/* gnmi_paths.c. rejected: the call's status asks for a check path by path (then check). */
bool gnmi_paths_rejected(const struct gnmi_target *t, int status);
void gnmi_paths_check(struct gnmi_target *t, int status);
/* Starts the next path asked alone; returns when to look again. */
int64_t gnmi_paths_tick(struct gnmi_target *t, int64_t now);
void gnmi_paths_probe_finished(struct gnmi_target *t, CURLcode result);
void gnmi_paths_free(struct gnmi_target *t);

#endif
