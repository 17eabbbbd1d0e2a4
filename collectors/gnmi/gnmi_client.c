#include "gnmi_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gnmi.pb-c.h"

enum phase { PH_WAIT, PH_CALL, PH_DONE, PH_FAILED };
enum call_kind { CALL_SUBSCRIBE, CALL_GET };
enum path_st { PATH_OK, PATH_UNKNOWN, PATH_MISSING };

struct path_state {
    enum path_st st;
    bool reported;                   /* said missing (on_path) */
    int code;                        /* the gRPC status it was rejected with */
    int64_t retry_ns;                /* monotonic: when to ask a missing path again */
    char why[200];
};

struct gnmi_target {
    struct gnmi_client *client;
    char name[GNMI_NAME_MAX];
    struct grpc_endpoint ep;
    struct gnmi_request req;
    char *strings[8 + GNMI_MAX_PATHS];   /* owned copies behind ep and req */
    size_t nstrings;
    bool use_get;

    enum phase phase;
    enum call_kind kind;
    struct grpc_call call;
    bool in_multi;
    int64_t next_ns;                 /* PH_WAIT: when to start; PH_CALL: the next poll */
    int64_t deadline_ns;             /* the call fails when nothing arrives by then (0: none) */
    bool awaiting_sync;              /* a POLL asked and not yet answered */
    int64_t backoff_ns;
    long rounds;
    long max_rounds;                 /* 0: unbounded */
    int64_t interval_ns;             /* ONCE / POLL / Get repeat */
    bool down;                       /* an outage is open */
    int64_t down_since_ns;
    int64_t last_data_ns;
    int64_t last_data_mono;
    char down_reason[200];
    bool got_data_this_call;
    bool probing;                    /* this call is the ONCE probe */
    bool stream_error_retried;
    bool probed;                     /* the probe passed since the last failure */
    int leaf_error;
    char leaf_error_msg[DCB_ERR_MSG_MAX];
    uint64_t round_notes;            /* STREAM: notifications before the first sync */
    uint64_t notes_since;            /* STREAM: notifications since the last round */
    bool synced;                     /* STREAM: this call's first sync came */
    /* path by path (path_retry_ns > 0): req.paths holds the paths not missing */
    const char *all[GNMI_MAX_PATHS];
    size_t nall;
    struct path_state ps[GNMI_MAX_PATHS];
    bool paths_blocked;              /* the call waits for its paths to be asked one by one */
    bool paths_checked;              /* they were, and no data came since */
    int reject_code;                 /* the status that started the check */
    struct grpc_call pcall;          /* a path asked alone */
    bool p_in_multi;
    int p_index;                     /* its path, -1: none */
    bool p_stream_retried;           /* see call_finished: a lost Trailers-Only answer */
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

int64_t gnmi_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

const char *gnmi_target_name(const struct gnmi_target *t) { return t->name; }
const char *gnmi_target_address(const struct gnmi_target *t) { return t->ep.address; }
void *gnmi_target_user(const struct gnmi_target *t) { return t->user; }
void gnmi_target_set_user(struct gnmi_target *t, void *user) { t->user = user; }
const struct gnmi_target_stats *gnmi_target_stats(const struct gnmi_target *t) { return &t->stats; }
size_t gnmi_client_ntargets(const struct gnmi_client *c) { return c->n; }
struct gnmi_target *gnmi_client_target(struct gnmi_client *c, size_t i)
{
    return i < c->n ? c->t[i] : NULL;
}

int gnmi_client_new(struct gnmi_client **out, const struct gnmi_client_opts *opts,
                    const struct gnmi_client_cb *cb, struct dcb_err *err)
{
    *out = NULL;
    static int global_done;
    if (!global_done) {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
            return dcb_err_set(err, DCB_E_IO, "curl_global_init failed");
        global_done = 1;
    }
    struct gnmi_client *c = calloc(1, sizeof(*c));
    if (!c)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    c->o = *opts;
    if (c->o.timeout_ns <= 0)
        c->o.timeout_ns = 10000000000LL;
    if (c->o.interval_ns <= 0)
        c->o.interval_ns = 1000000000LL;
    if (c->o.backoff_min_ns <= 0)
        c->o.backoff_min_ns = 500000000LL;
    if (c->o.backoff_max_ns < c->o.backoff_min_ns)
        c->o.backoff_max_ns = 30000000000LL;
    c->cb = *cb;
    c->rng = (uint64_t)mono_ns() ^ 0x9e3779b97f4a7c15ULL;
    c->multi = curl_multi_init();
    if (!c->multi) {
        free(c);
        return dcb_err_set(err, DCB_E_NOMEM, "curl_multi_init failed");
    }
    *out = c;
    return 0;
}

static const char *keep(struct gnmi_target *t, const char *s)
{
    if (!s || t->nstrings >= sizeof(t->strings) / sizeof(t->strings[0]))
        return NULL;
    char *d = strdup(s);
    if (d)
        t->strings[t->nstrings++] = d;
    return d;
}

int gnmi_client_add(struct gnmi_client *c, const struct gnmi_target_conf *conf,
                    struct dcb_err *err)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 16;
        struct gnmi_target **nt = realloc(c->t, cap * sizeof(*nt));
        if (!nt)
            return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
        c->t = nt;
        c->cap = cap;
    }
    struct gnmi_target *t = calloc(1, sizeof(*t));
    if (!t)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    t->client = c;
    snprintf(t->name, sizeof(t->name), "%s",
             conf->name && *conf->name ? conf->name : conf->ep.address);
    t->ep = conf->ep;
    t->ep.address = keep(t, conf->ep.address);
    t->ep.ca_file = keep(t, conf->ep.ca_file);
    t->ep.cert_file = keep(t, conf->ep.cert_file);
    t->ep.key_file = keep(t, conf->ep.key_file);
    t->ep.server_name = keep(t, conf->ep.server_name);
    t->ep.username = keep(t, conf->ep.username);
    t->ep.password = keep(t, conf->ep.password);
    t->req = conf->req;
    t->req.target = keep(t, conf->req.target);
    t->req.prefix = keep(t, conf->req.prefix);
    for (size_t i = 0; i < conf->req.npaths && i < GNMI_MAX_PATHS; i++)
        t->all[t->nall++] = t->req.paths[i] = keep(t, conf->req.paths[i]);
    t->p_index = -1;
    t->use_get = conf->use_get;
    t->max_rounds = c->o.max_rounds;
    t->interval_ns = c->o.interval_ns;
    t->stats.using_get = conf->use_get;
    t->phase = PH_WAIT;
    t->next_ns = mono_ns();
    t->backoff_ns = c->o.backoff_min_ns;
    t->last_data_ns = gnmi_now_ns();
    c->t[c->n++] = t;
    return 0;
}

/* ---- responses ----------------------------------------------------------------------------- */

static int on_leaf(const struct gnmi_leaf *leaf, void *arg)
{
    struct gnmi_target *t = arg;
    if (t->probing && !t->client->o.probe_deliver)
        return 0;
    if (t->kind == CALL_SUBSCRIBE && t->req.mode == GNMI_STREAM && t->max_rounds &&
        t->rounds >= t->max_rounds)
        return 0;   /* --count reached: the rest of the batch is not asked for */
    t->stats.leaves++;
    return t->client->cb.on_leaf ? t->client->cb.on_leaf(t, leaf, t->client->cb.arg) : 0;
}

static void data_arrived(struct gnmi_target *t)
{
    int64_t now = gnmi_now_ns();
    if (t->down) {
        t->down = false;
        if (t->client->cb.on_gap)
            t->client->cb.on_gap(t, t->down_since_ns, now, t->down_reason, t->client->cb.arg);
    }
    t->backoff_ns = t->client->o.backoff_min_ns;
    t->last_data_ns = now;
    t->last_data_mono = mono_ns();
    t->got_data_this_call = true;
    t->paths_checked = false;
}

static int notification(struct gnmi_target *t, const Gnmi__Notification *n)
{
    struct dcb_err err;
    dcb_err_clear(&err);
    t->stats.notifications++;
    int rc = gnmi_notification_leaves(n, on_leaf, t, &err);
    if (rc < 0) {
        t->leaf_error = rc;
        snprintf(t->leaf_error_msg, sizeof(t->leaf_error_msg), "%s", err.msg);
        return rc;
    }
    return 0;
}

static void round_done(struct gnmi_target *t)
{
    t->stats.syncs++;
    t->rounds++;
    if (t->client->cb.on_sync)
        t->client->cb.on_sync(t, t->client->cb.arg);
}

/* A STREAM sends no sync after its first: a round is as many notifications as that sync
 * ended (a SAMPLE stream sends its whole tree each interval). */
static void stream_note(struct gnmi_target *t)
{
    if (t->probing || t->req.mode != GNMI_STREAM)
        return;
    t->notes_since++;
    if (t->synced && t->round_notes && t->notes_since >= t->round_notes) {
        t->notes_since = 0;
        round_done(t);
    }
}

static int subscribe_message(const uint8_t *msg, size_t len, void *arg)
{
    struct gnmi_target *t = arg;
    Gnmi__SubscribeResponse *r = gnmi__subscribe_response__unpack(NULL, len, msg);
    if (!r) {
        t->leaf_error = DCB_E_INVAL;
        snprintf(t->leaf_error_msg, sizeof(t->leaf_error_msg),
                 "a SubscribeResponse that does not decode (%zu bytes)", len);
        return DCB_E_INVAL;
    }
    int rc = 0;
    data_arrived(t);
    switch (r->response_case) {
    case GNMI__SUBSCRIBE_RESPONSE__RESPONSE_UPDATE:
        rc = notification(t, r->update);
        stream_note(t);
        break;
    case GNMI__SUBSCRIBE_RESPONSE__RESPONSE_SYNC_RESPONSE:
        if (t->probing) {
            /* counted when the probe ends */
        } else if (t->req.mode == GNMI_POLL) {
            t->awaiting_sync = false;
            round_done(t);
        } else if (t->req.mode == GNMI_STREAM) {
            t->synced = true;
            t->round_notes = t->notes_since;
            t->notes_since = 0;
            round_done(t);
        }
        break;
    case GNMI__SUBSCRIBE_RESPONSE__RESPONSE_ERROR:
        t->leaf_error = DCB_E_IO;
        snprintf(t->leaf_error_msg, sizeof(t->leaf_error_msg), "target error %u: %s",
                 r->error ? r->error->code : 0, r->error && r->error->message ? r->error->message
                                                                              : "");
        rc = DCB_E_IO;
        break;
    default:
        break;
    }
    gnmi__subscribe_response__free_unpacked(r, NULL);
    return rc;
}

static int get_message(const uint8_t *msg, size_t len, void *arg)
{
    struct gnmi_target *t = arg;
    Gnmi__GetResponse *r = gnmi__get_response__unpack(NULL, len, msg);
    if (!r) {
        t->leaf_error = DCB_E_INVAL;
        snprintf(t->leaf_error_msg, sizeof(t->leaf_error_msg),
                 "a GetResponse that does not decode (%zu bytes)", len);
        return DCB_E_INVAL;
    }
    data_arrived(t);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < r->n_notification; i++)
        rc = notification(t, r->notification[i]);
    gnmi__get_response__free_unpacked(r, NULL);
    return rc;
}

/* ---- calls --------------------------------------------------------------------------------- */

static uint64_t rnd(struct gnmi_client *c)
{
    c->rng ^= c->rng << 13;
    c->rng ^= c->rng >> 7;
    c->rng ^= c->rng << 17;
    return c->rng;
}

static void end_call(struct gnmi_target *t)
{
    if (t->in_multi)
        curl_multi_remove_handle(t->client->multi, t->call.easy);
    t->in_multi = false;
    grpc_call_cleanup(&t->call);
}

/* A failure: report it, open the outage, schedule the retry (or give up). */
static void failed(struct gnmi_target *t, const char *why)
{
    struct gnmi_client *c = t->client;
    t->stats.failures++;
    t->probed = false;
    t->probing = false;
    snprintf(t->stats.last_error, sizeof(t->stats.last_error), "%s", why);
    if (!t->down) {
        t->down = true;
        t->down_since_ns = t->last_data_ns;
        snprintf(t->down_reason, sizeof(t->down_reason), "%s", why);
    }
    bool retry = c->o.reconnect;
    if (c->cb.on_error)
        c->cb.on_error(t, why, retry, c->cb.arg);
    if (!retry) {
        t->phase = PH_FAILED;
        t->stats.failed = true;
        return;
    }
    /* full jitter over [backoff/2, backoff] keeps many targets from retrying in step */
    int64_t half = t->backoff_ns / 2;
    int64_t delay = half + (int64_t)(rnd(c) % (uint64_t)(half + 1));
    t->phase = PH_WAIT;
    t->next_ns = mono_ns() + delay;
    t->backoff_ns = t->backoff_ns * 2 > c->o.backoff_max_ns ? c->o.backoff_max_ns
                                                            : t->backoff_ns * 2;
}

static int start_call(struct gnmi_target *t, struct dcb_err *err)
{
    struct gnmi_client *c = t->client;
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc;
    t->got_data_this_call = false;
    t->leaf_error = 0;
    t->awaiting_sync = false;
    t->synced = false;
    t->notes_since = t->round_notes = 0;
    if (t->use_get) {
        t->kind = CALL_GET;
        rc = gnmi_encode_get(&t->req, &buf, &len, err);
        if (rc == 0)
            rc = grpc_call_init(&t->call, &t->ep, "/gnmi.gNMI/Get", buf, len, true,
                                c->o.timeout_ns, get_message, t, err);
        t->deadline_ns = mono_ns() + c->o.timeout_ns;
    } else {
        t->kind = CALL_SUBSCRIBE;
        t->probing = c->o.probe_once && t->req.mode == GNMI_POLL && !t->probed;
        struct gnmi_request r = t->req;
        if (t->probing)
            r.mode = GNMI_ONCE;
        rc = gnmi_encode_subscribe(&r, &buf, &len, err);
        /* Only POLL keeps the request side open (the polls go there). ONCE and STREAM
         * half-close after the SubscriptionList: the client has nothing more to say, targets
         * keep streaming (the gNMI reference target does not read again in STREAM mode), and
         * libcurl 7.88 stops reading an HTTP/2 stream whose upload is paused once the
         * target's flow-control window is full (large notifications stalled). */
        if (rc == 0)
            rc = grpc_call_init(&t->call, &t->ep, "/gnmi.gNMI/Subscribe", buf, len,
                                r.mode != GNMI_POLL, 0, subscribe_message, t, err);
        t->deadline_ns = mono_ns() + c->o.timeout_ns;
        if (r.mode == GNMI_POLL) {
            t->awaiting_sync = true;   /* the initial data ends with a sync */
            t->next_ns = mono_ns() + t->interval_ns;
        }
    }
    free(buf);
    if (rc < 0) {
        grpc_call_cleanup(&t->call);
        return rc;
    }
    if (curl_multi_add_handle(c->multi, t->call.easy) != CURLM_OK) {
        grpc_call_cleanup(&t->call);
        return dcb_err_set(err, DCB_E_IO, "curl_multi_add_handle failed");
    }
    t->in_multi = true;
    t->phase = PH_CALL;
    t->stats.calls++;
    return 0;
}

static bool rounds_done(struct gnmi_target *t)
{
    return t->max_rounds && t->rounds >= t->max_rounds;
}

void gnmi_target_config_interval(struct gnmi_target *t, int64_t interval_ns)
{
    if (interval_ns > 0) {
        t->interval_ns = interval_ns;
        t->max_rounds = 0;
    } else {
        t->max_rounds = 1;
    }
}

static bool path_rejected(const struct gnmi_target *t, int status);
static void check_paths(struct gnmi_target *t, int status);

static void call_finished(struct gnmi_target *t, CURLcode result)
{
    grpc_call_finish(&t->call, result);
    struct dcb_err err;
    dcb_err_clear(&err);
    int rc = grpc_call_result(&t->call, &err);
    bool unimplemented = t->call.have_status && t->call.status == GRPC_UNIMPLEMENTED;
    int status = t->call.have_status ? t->call.status : -1;
    /* libcurl 7.88 can lose a Trailers-Only answer when the target resets the stream right
     * after it (CURLE_HTTP2_STREAM, nothing received): ask once more at once, so the status
     * (UNAUTHENTICATED...) is what gets reported rather than a framing error. */
    if (result == CURLE_HTTP2_STREAM && !t->call.have_status && t->call.bytes_in == 0 &&
        !t->call.error[0] && !t->stream_error_retried) {
        t->stream_error_retried = true;
        end_call(t);
        t->phase = PH_WAIT;
        t->next_ns = mono_ns();
        return;
    }
    t->stream_error_retried = false;
    t->stats.bytes_in += t->call.bytes_in;
    if (t->leaf_error && rc == 0)
        rc = dcb_err_set(&err, t->leaf_error, "%s", t->leaf_error_msg);
    else if (t->leaf_error && t->call.error[0] == '\0')
        snprintf(err.msg, sizeof(err.msg), "%s", t->leaf_error_msg);
    end_call(t);
    bool probe = t->probing;
    t->probing = false;
    if (rc == 0 && probe) {
        t->probed = true;
        if (t->client->o.probe_deliver && t->got_data_this_call)
            round_done(t);
        t->phase = PH_WAIT;
        t->next_ns = mono_ns();
        return;
    }
    if (rc == 0) {
        if (t->kind == CALL_GET || t->req.mode == GNMI_ONCE) {
            if (t->kind == CALL_GET)
                round_done(t);
            else if (t->got_data_this_call)
                round_done(t);
            if (rounds_done(t)) {
                t->phase = PH_DONE;
                return;
            }
            t->phase = PH_WAIT;
            t->next_ns = mono_ns() + t->interval_ns;
            return;
        }
        /* a STREAM or POLL subscription the target ended cleanly: subscribe again */
        if (rounds_done(t)) {
            t->phase = PH_DONE;
            return;
        }
        failed(t, "the target ended the subscription");
        return;
    }
    if (path_rejected(t, status)) {
        check_paths(t, status);
        return;
    }
    if (unimplemented && t->kind == CALL_SUBSCRIBE && t->client->o.fallback_get) {
        t->use_get = true;
        t->stats.using_get = true;
        if (t->client->cb.on_error)
            t->client->cb.on_error(t, "Subscribe is UNIMPLEMENTED; polling with Get instead",
                                   true, t->client->cb.arg);
        t->phase = PH_WAIT;
        t->next_ns = mono_ns();
        return;
    }
    failed(t, err.msg);
}

static void abort_call(struct gnmi_target *t, const char *why)
{
    if (t->call.easy)
        t->stats.bytes_in += t->call.bytes_in;
    end_call(t);
    failed(t, why);
}

/* ---- path by path ---------------------------------------------------------------------- */

static bool is_rejection(int code)
{
    return code == GRPC_NOT_FOUND || code == GRPC_INVALID_ARGUMENT || code == GRPC_UNIMPLEMENTED;
}

/* A rejection before any data, not yet checked path by path. One path that a Subscribe
 * finds UNIMPLEMENTED is the RPC's answer (fallback_get), as before. */
static bool path_rejected(const struct gnmi_target *t, int status)
{
    if (t->client->o.path_retry_ns <= 0 || !is_rejection(status) || t->got_data_this_call ||
        t->paths_checked || t->nall == 0)
        return false;
    return !(status == GRPC_UNIMPLEMENTED && t->kind == CALL_SUBSCRIBE && t->req.npaths <= 1 &&
             t->client->o.fallback_get);
}

static void rebuild_paths(struct gnmi_target *t)
{
    t->req.npaths = 0;
    for (size_t i = 0; i < t->nall; i++)
        if (t->ps[i].st != PATH_MISSING)
            t->req.paths[t->req.npaths++] = t->all[i];
}

/* The call's paths are asked one by one before it starts again. */
static void check_paths(struct gnmi_target *t, int status)
{
    for (size_t i = 0; i < t->nall; i++)
        if (t->ps[i].st == PATH_OK)
            t->ps[i].st = PATH_UNKNOWN;
    t->reject_code = status;
    t->paths_blocked = true;
    t->phase = PH_WAIT;
    t->next_ns = mono_ns();
}

static void end_probe(struct gnmi_target *t)
{
    if (t->p_in_multi)
        curl_multi_remove_handle(t->client->multi, t->pcall.easy);
    t->p_in_multi = false;
    grpc_call_cleanup(&t->pcall);
    t->p_index = -1;
}

static int drop_message(const uint8_t *msg, size_t len, void *arg)
{
    (void)msg;
    (void)len;
    (void)arg;
    return 0;
}

static int start_probe(struct gnmi_target *t, int i, struct dcb_err *err)
{
    struct gnmi_client *c = t->client;
    struct gnmi_request r = t->req;
    r.npaths = 1;
    r.paths[0] = t->all[i];
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc;
    if (t->use_get) {
        rc = gnmi_encode_get(&r, &buf, &len, err);
        if (rc == 0)
            rc = grpc_call_init(&t->pcall, &t->ep, "/gnmi.gNMI/Get", buf, len, true,
                                c->o.timeout_ns, drop_message, t, err);
    } else {
        r.mode = GNMI_ONCE;
        rc = gnmi_encode_subscribe(&r, &buf, &len, err);
        if (rc == 0)
            rc = grpc_call_init(&t->pcall, &t->ep, "/gnmi.gNMI/Subscribe", buf, len, true, 0,
                                drop_message, t, err);
    }
    free(buf);
    if (rc < 0) {
        grpc_call_cleanup(&t->pcall);
        return rc;
    }
    if (curl_multi_add_handle(c->multi, t->pcall.easy) != CURLM_OK) {
        grpc_call_cleanup(&t->pcall);
        return dcb_err_set(err, DCB_E_IO, "curl_multi_add_handle failed");
    }
    t->p_in_multi = true;
    t->p_index = i;
    t->p_deadline = mono_ns() + c->o.timeout_ns;
    return 0;
}

/* A path served again rejoins the call: a running STREAM or POLL starts again with it. */
static void path_back(struct gnmi_target *t, struct path_state *p, size_t i)
{
    struct gnmi_client *c = t->client;
    p->st = PATH_OK;
    if (p->reported && c->cb.on_path)
        c->cb.on_path(t, t->all[i], false, "", c->cb.arg);
    p->reported = false;
    rebuild_paths(t);
    if (t->phase == PH_CALL && t->kind == CALL_SUBSCRIBE && t->req.mode != GNMI_ONCE)
        end_call(t);
    if (t->phase == PH_CALL && t->call.easy == NULL) {
        t->phase = PH_WAIT;
        t->next_ns = mono_ns();
    }
}

/* The probe's outcome; why is set when it did not end with a status. */
static void probe_outcome(struct gnmi_target *t, int rc, int status, const char *why)
{
    struct gnmi_client *c = t->client;
    size_t i = (size_t)t->p_index;
    struct path_state *p = &t->ps[i];
    end_probe(t);
    if (rc == 0) {
        if (p->st == PATH_MISSING)
            path_back(t, p, i);
        p->st = PATH_OK;
        return;
    }
    if (status >= 0 && is_rejection(status)) {
        p->st = PATH_MISSING;
        p->code = status;
        snprintf(p->why, sizeof(p->why), "%s", why);
        p->retry_ns = mono_ns() + c->o.path_retry_ns;
        return;
    }
    if (p->st == PATH_MISSING) {     /* no answer this time: ask again later */
        p->retry_ns = mono_ns() + c->o.path_retry_ns;
        return;
    }
    /* the target cannot be asked now: the call is retried whole, as any failure */
    for (size_t k = 0; k < t->nall; k++)
        if (t->ps[k].st == PATH_UNKNOWN)
            t->ps[k].st = PATH_OK;
    t->paths_blocked = false;
    rebuild_paths(t);
    failed(t, why);
}

static void probe_finished(struct gnmi_target *t, CURLcode result)
{
    grpc_call_finish(&t->pcall, result);
    if (result == CURLE_HTTP2_STREAM && !t->pcall.have_status && t->pcall.bytes_in == 0 &&
        !t->pcall.error[0] && !t->p_stream_retried) {
        t->p_stream_retried = true;   /* asked again on the next tick */
        end_probe(t);
        return;
    }
    t->p_stream_retried = false;
    struct dcb_err err;
    dcb_err_clear(&err);
    int rc = grpc_call_result(&t->pcall, &err);
    probe_outcome(t, rc, t->pcall.have_status ? t->pcall.status : -1, err.msg);
}

static bool every_path_unimplemented(const struct gnmi_target *t)
{
    for (size_t i = 0; i < t->nall; i++)
        if (t->ps[i].st != PATH_MISSING || t->ps[i].code != GRPC_UNIMPLEMENTED)
            return false;
    return true;
}

/* Every path was asked alone: say the missing ones, and the call goes on with the rest. */
static void paths_checked(struct gnmi_target *t)
{
    struct gnmi_client *c = t->client;
    t->paths_blocked = false;
    t->paths_checked = true;
    t->phase = PH_WAIT;
    t->next_ns = mono_ns();
    if (!t->use_get && t->reject_code == GRPC_UNIMPLEMENTED && c->o.fallback_get &&
        every_path_unimplemented(t)) {
        for (size_t i = 0; i < t->nall; i++)
            t->ps[i].st = PATH_OK;
        rebuild_paths(t);
        t->use_get = true;
        t->stats.using_get = true;
        t->paths_checked = false;
        if (c->cb.on_error)
            c->cb.on_error(t, "Subscribe is UNIMPLEMENTED; polling with Get instead", true,
                           c->cb.arg);
        return;
    }
    for (size_t i = 0; i < t->nall; i++) {
        struct path_state *p = &t->ps[i];
        if (p->st == PATH_MISSING && !p->reported) {
            p->reported = true;
            if (c->cb.on_path)
                c->cb.on_path(t, t->all[i], true, p->why, c->cb.arg);
        }
    }
    rebuild_paths(t);
    if (t->req.npaths == 0 && t->max_rounds)
        t->phase = PH_DONE;          /* nothing to ask, and no rounds to wait for */
}

/* Starts the next probe; returns when to look again. */
static int64_t paths_tick(struct gnmi_target *t, int64_t now)
{
    int64_t far = now + 3600000000000LL;
    if (t->client->o.path_retry_ns <= 0 || t->phase == PH_FAILED || t->phase == PH_DONE)
        return far;
    if (t->p_index >= 0) {
        if (now > t->p_deadline)
            probe_outcome(t, DCB_E_TIMEOUT, -1, "deadline exceeded asking for one path");
        return t->p_index >= 0 ? t->p_deadline : now;
    }
    int next = -1;
    int64_t wake = far;
    for (size_t i = 0; i < t->nall && next < 0; i++) {
        const struct path_state *p = &t->ps[i];
        if (p->st == PATH_UNKNOWN || (p->st == PATH_MISSING && now >= p->retry_ns))
            next = (int)i;
        else if (p->st == PATH_MISSING && p->retry_ns < wake)
            wake = p->retry_ns;
    }
    if (next < 0) {
        if (t->paths_blocked)
            paths_checked(t);
        return t->paths_blocked ? now : wake;
    }
    struct dcb_err err;
    dcb_err_clear(&err);
    if (start_probe(t, next, &err) < 0) {
        t->p_index = next;
        probe_outcome(t, err.code ? err.code : DCB_E_IO, -1, err.msg);
        return now;
    }
    return t->p_deadline;
}

/* Timers: start waiting targets, send polls, enforce deadlines. Returns the next wake-up. */
static int64_t tick(struct gnmi_client *c, int64_t now)
{
    int64_t wake = now + 1000000000LL;
    for (size_t i = 0; i < c->n; i++) {
        struct gnmi_target *t = c->t[i];
        int64_t pw = paths_tick(t, now);
        if (pw < wake)
            wake = pw;
        bool waits = t->paths_blocked || (t->nall && !t->req.npaths);
        if (t->phase == PH_WAIT && now >= t->next_ns && !waits) {
            struct dcb_err err;
            dcb_err_clear(&err);
            if (start_call(t, &err) < 0) {
                t->phase = PH_FAILED;
                t->stats.failed = true;
                snprintf(t->stats.last_error, sizeof(t->stats.last_error), "%s", err.msg);
                if (c->cb.on_error)
                    c->cb.on_error(t, err.msg, false, c->cb.arg);
                continue;
            }
        }
        if (t->phase == PH_CALL && t->kind == CALL_SUBSCRIBE && t->req.mode == GNMI_STREAM &&
            !t->probing && rounds_done(t)) {
            end_call(t);
            t->phase = PH_DONE;
            continue;
        }
        if (t->phase == PH_CALL && t->kind == CALL_SUBSCRIBE) {
            if (t->probing) {
                if (now > t->deadline_ns) {
                    abort_call(t, "deadline exceeded waiting for the subscription's first data");
                    continue;
                }
                if (t->deadline_ns < wake)
                    wake = t->deadline_ns;
                continue;
            }
            if (t->req.mode == GNMI_POLL && !t->awaiting_sync && now >= t->next_ns) {
                if (rounds_done(t)) {
                    end_call(t);
                    t->phase = PH_DONE;
                    continue;
                }
                uint8_t *buf = NULL;
                size_t len = 0;
                struct dcb_err err;
                if (gnmi_encode_poll(&buf, &len, &err) == 0 &&
                    grpc_call_send(&t->call, buf, len, &err) == 0) {
                    t->awaiting_sync = true;
                    t->deadline_ns = now + c->o.timeout_ns;
                }
                free(buf);
                t->next_ns += t->interval_ns;
                if (t->next_ns < now)
                    t->next_ns = now + t->interval_ns;
            }
            if (t->req.mode == GNMI_POLL && t->awaiting_sync && now > t->deadline_ns) {
                abort_call(t, "deadline exceeded waiting for the poll answer");
                continue;
            }
            if (t->req.mode == GNMI_STREAM) {
                /* data pushes the deadline; silence longer than that kills the stream */
                int64_t idle = c->o.timeout_ns + 2 * (int64_t)t->req.sample_interval_ns;
                int64_t limit = t->got_data_this_call ? t->last_data_mono + idle : t->deadline_ns;
                if (now > limit) {
                    abort_call(t, t->got_data_this_call ? "deadline exceeded: the stream went silent"
                                                        : "deadline exceeded: no answer to Subscribe");
                    continue;
                }
                if (limit < wake)
                    wake = limit;
            }
            if ((t->req.mode == GNMI_ONCE || t->probing) && now > t->deadline_ns) {
                abort_call(t, "deadline exceeded waiting for the ONCE answer");
                continue;
            }
        }
        if (t->phase == PH_CALL && t->kind == CALL_SUBSCRIBE && t->req.mode == GNMI_POLL) {
            int64_t w = t->awaiting_sync ? t->deadline_ns : t->next_ns;
            if (w < wake)
                wake = w;
        }
        if (t->phase == PH_CALL && (t->kind == CALL_GET || t->req.mode == GNMI_ONCE) &&
            t->deadline_ns < wake)
            wake = t->deadline_ns;
        if (t->phase == PH_WAIT && !waits && t->next_ns < wake)
            wake = t->next_ns;

    }
    return wake;
}

static bool anything_left(const struct gnmi_client *c)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->t[i]->phase == PH_WAIT || c->t[i]->phase == PH_CALL)
            return true;
    return false;
}

bool gnmi_client_active(const struct gnmi_client *c)
{
    return anything_left(c);
}

int gnmi_client_run(struct gnmi_client *c, volatile sig_atomic_t *stop, int64_t duration_ns)
{
    int64_t start = mono_ns();
    while (!(stop && *stop) && anything_left(c)) {
        int64_t now = mono_ns();
        if (duration_ns && now - start >= duration_ns)
            break;
        int64_t wake = tick(c, now);
        int running = 0;
        curl_multi_perform(c->multi, &running);
        CURLMsg *m;
        int left;
        bool ended = false;          /* a call ended: what follows it starts without a wait */
        while ((m = curl_multi_info_read(c->multi, &left))) {
            if (m->msg != CURLMSG_DONE)
                continue;
            ended = true;
            struct grpc_call *call = NULL;
            curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&call);
            for (size_t i = 0; i < c->n; i++) {
                if (c->t[i]->phase == PH_CALL && &c->t[i]->call == call) {
                    call_finished(c->t[i], m->data.result);
                    break;
                }
                if (c->t[i]->p_index >= 0 && &c->t[i]->pcall == call) {
                    probe_finished(c->t[i], m->data.result);
                    break;
                }
            }
        }
        /* A status in the trailers (or a Trailers-Only answer) ends the call even while our
         * request side is still open and paused, which libcurl would otherwise wait on. */
        for (size_t i = 0; i < c->n; i++) {
            struct gnmi_target *t = c->t[i];
            if (t->phase == PH_CALL && t->call.have_status && !t->call.upload_paused_done) {
                t->call.upload_paused_done = true;
                if (t->kind == CALL_SUBSCRIBE && t->req.mode != GNMI_ONCE)
                    call_finished(t, CURLE_OK);
            }
        }
        now = mono_ns();
        int64_t wait_ms = (wake - now) / 1000000;
        if (duration_ns && start + duration_ns - now < wait_ms * 1000000)
            wait_ms = (start + duration_ns - now) / 1000000;
        if (wait_ms < 0 || ended)
            wait_ms = 0;
        if (wait_ms > 200)
            wait_ms = 200;   /* stop flags are checked at least this often */
        curl_multi_poll(c->multi, NULL, 0, (int)wait_ms, NULL);
    }
    /* calls in flight stay open: run again to go on, gnmi_client_free ends them */
    int failures = 0;
    for (size_t i = 0; i < c->n; i++)
        if (c->t[i]->phase == PH_FAILED)
            failures++;
    return failures;
}

void gnmi_client_free(struct gnmi_client *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++) {
        struct gnmi_target *t = c->t[i];
        if (t->call.easy)
            end_call(t);
        if (t->pcall.easy)
            end_probe(t);
        for (size_t s = 0; s < t->nstrings; s++) {
            memset(t->strings[s], 0, strlen(t->strings[s]));
            free(t->strings[s]);
        }
        free(t);
    }
    free(c->t);
    curl_multi_cleanup(c->multi);
    free(c);
}
