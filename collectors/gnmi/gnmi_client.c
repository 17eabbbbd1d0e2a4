#include "gnmi_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnmi.pb-c.h"

#include "gnmi_target_int.h"
#include "pb_check.h"

const char *gnmi_retry_text(char *buf, size_t len, int64_t retry_ns)
{
    if (retry_ns > 0)
        snprintf(buf, len, "; retrying in %.1f s", (double)retry_ns / 1e9);
    else
        snprintf(buf, len, "%s", retry_ns == 0 ? "; retrying" : "");
    return buf;
}

const char *gnmi_target_name(const struct gnmi_target *t)
{
    return t->name;
}
const char *gnmi_target_address(const struct gnmi_target *t)
{
    return t->ep.address;
}
void *gnmi_target_user(const struct gnmi_target *t)
{
    return t->user;
}
void gnmi_target_set_user(struct gnmi_target *t, void *user)
{
    t->user = user;
}
const struct gnmi_target_stats *gnmi_target_stats(const struct gnmi_target *t)
{
    return &t->stats;
}
size_t gnmi_client_ntargets(const struct gnmi_client *c)
{
    return c->n;
}
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
    c->rng = (uint64_t)dcb_monotonic_ns() ^ 0x9e3779b97f4a7c15ULL;
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

int gnmi_client_add(struct gnmi_client *c, const struct gnmi_target_conf *conf, struct dcb_err *err)
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
    t->next_ns = dcb_monotonic_ns();
    t->backoff_ns = c->o.backoff_min_ns;
    t->last_data_ns = dcb_realtime_ns();
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
        return 0; /* --count reached: the rest of the batch is not asked for */
    t->stats.leaves++;
    return t->client->cb.on_leaf ? t->client->cb.on_leaf(t, leaf, t->client->cb.arg) : 0;
}

/* A response was decoded and every leaf of it taken: only then has data flowed. Bytes that
 * arrive and cannot be used neither close the outage nor reset the backoff, or a target whose
 * every answer fails would be retried at the shortest delay forever. */
static void data_flowed(struct gnmi_target *t)
{
    int64_t now = dcb_realtime_ns();
    if (t->down) {
        t->down = false;
        if (t->client->cb.on_gap)
            t->client->cb.on_gap(t, t->down_since_ns, now, t->down_reason, t->client->cb.arg);
    }
    t->backoff_ns = t->client->o.backoff_min_ns;
    t->last_data_ns = now;
    t->last_data_mono = dcb_monotonic_ns();
    t->got_data_this_call = true;
    t->paths_checked = false;
}

/* A response that does not decode: protobuf-c is not asked before the walk found it sound
 * (the walk bounds the nesting protobuf-c would recurse into), and the error says what is
 * wrong where. */
static ProtobufCMessage *unpack(struct gnmi_target *t, const ProtobufCMessageDescriptor *d,
                                const uint8_t *msg, size_t len)
{
    char why[200];
    ProtobufCMessage *m = NULL;
    if (pb_check(d, msg, len, why, sizeof(why)))
        m = protobuf_c_message_unpack(d, NULL, len, msg);
    if (!m) {
        t->leaf_error = DCB_E_INVAL;
        snprintf(t->leaf_error_msg, sizeof(t->leaf_error_msg),
                 "a %s that does not decode (%zu bytes)%s%s", d->short_name, len,
                 why[0] ? ": " : "", why);
    }
    return m;
}

static int notification(struct gnmi_target *t, const Gnmi__Notification *n, const char *in)
{
    struct dcb_err err;
    dcb_err_clear(&err);
    t->stats.notifications++;
    int rc = gnmi_notification_leaves(n, on_leaf, t, &err);
    if (rc < 0) {
        t->leaf_error = rc;
        snprintf(t->leaf_error_msg, sizeof(t->leaf_error_msg), "in a %s: %.200s", in,
                 err.msg[0] ? err.msg : "a leaf was refused");
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
    Gnmi__SubscribeResponse *r =
        (Gnmi__SubscribeResponse *)unpack(t, &gnmi__subscribe_response__descriptor, msg, len);
    if (!r)
        return DCB_E_INVAL;
    int rc = 0;
    switch (r->response_case) {
    case GNMI__SUBSCRIBE_RESPONSE__RESPONSE_UPDATE:
        rc = notification(t, r->update, "SubscribeResponse");
        if (rc < 0)
            break;
        data_flowed(t);
        stream_note(t);
        break;
    case GNMI__SUBSCRIBE_RESPONSE__RESPONSE_SYNC_RESPONSE:
        data_flowed(t);
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
                 r->error ? r->error->code : 0,
                 r->error && r->error->message ? r->error->message : "");
        rc = DCB_E_IO;
        break;
    default: break;
    }
    gnmi__subscribe_response__free_unpacked(r, NULL);
    return rc;
}

static int get_message(const uint8_t *msg, size_t len, void *arg)
{
    struct gnmi_target *t = arg;
    Gnmi__GetResponse *r = (Gnmi__GetResponse *)unpack(t, &gnmi__get_response__descriptor, msg,
                                                       len);
    if (!r)
        return DCB_E_INVAL;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < r->n_notification; i++)
        rc = notification(t, r->notification[i], "GetResponse");
    if (rc == 0)
        data_flowed(t);
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

void gnmi_target_end_call(struct gnmi_target *t)
{
    if (t->in_multi)
        curl_multi_remove_handle(t->client->multi, t->call.easy);
    t->in_multi = false;
    grpc_call_cleanup(&t->call);
}

/* A failure: report it, open the outage, schedule the retry (or give up). */
void gnmi_target_failed(struct gnmi_target *t, const char *why)
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
    if (!c->o.reconnect) {
        t->phase = PH_FAILED;
        t->stats.failed = true;
        if (c->cb.on_error)
            c->cb.on_error(t, why, GNMI_NO_RETRY, c->cb.arg);
        return;
    }
    /* full jitter over [backoff/2, backoff] keeps many targets from retrying in step */
    int64_t half = t->backoff_ns / 2;
    int64_t delay = half + (int64_t)(rnd(c) % (uint64_t)(half + 1));
    t->phase = PH_WAIT;
    t->next_ns = dcb_monotonic_ns() + delay;
    t->backoff_ns = t->backoff_ns * 2 > c->o.backoff_max_ns ? c->o.backoff_max_ns
                                                            : t->backoff_ns * 2;
    if (c->cb.on_error)
        c->cb.on_error(t, why, delay, c->cb.arg);
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
            rc = grpc_call_init(&t->call, &t->ep, "/gnmi.gNMI/Get", buf, len, true, c->o.timeout_ns,
                                get_message, t, err);
        t->deadline_ns = dcb_monotonic_ns() + c->o.timeout_ns;
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
        t->deadline_ns = dcb_monotonic_ns() + c->o.timeout_ns;
        if (r.mode == GNMI_POLL) {
            t->awaiting_sync = true; /* the initial data ends with a sync */
            t->next_ns = dcb_monotonic_ns() + t->interval_ns;
        }
    }
    free(buf);
    if ((rc = gnmi_client_attach(c, &t->call, rc, err)) < 0)
        return rc;
    t->in_multi = true;
    t->phase = PH_CALL;
    t->stats.calls++;
    return 0;
}

int gnmi_client_attach(struct gnmi_client *c, struct grpc_call *call, int rc, struct dcb_err *err)
{
    if (rc == 0 && curl_multi_add_handle(c->multi, call->easy) != CURLM_OK)
        rc = dcb_err_set(err, DCB_E_IO, "curl_multi_add_handle failed");
    if (rc < 0)
        grpc_call_cleanup(call);
    return rc;
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
        gnmi_target_end_call(t);
        t->phase = PH_WAIT;
        t->next_ns = dcb_monotonic_ns();
        return;
    }
    t->stream_error_retried = false;
    t->stats.bytes_in += t->call.bytes_in;
    /* a message we could not use is what ended the call (the transfer was aborted for it) */
    if (t->leaf_error)
        rc = dcb_err_set(&err, t->leaf_error, "%s", t->leaf_error_msg);
    gnmi_target_end_call(t);
    bool probe = t->probing;
    t->probing = false;
    if (rc == 0 && probe) {
        t->probed = true;
        if (t->client->o.probe_deliver && t->got_data_this_call)
            round_done(t);
        t->phase = PH_WAIT;
        t->next_ns = dcb_monotonic_ns();
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
            t->next_ns = dcb_monotonic_ns() + t->interval_ns;
            return;
        }
        /* a STREAM or POLL subscription the target ended cleanly: subscribe again */
        if (rounds_done(t)) {
            t->phase = PH_DONE;
            return;
        }
        gnmi_target_failed(t, "the target ended the subscription");
        return;
    }
    if (gnmi_paths_rejected(t, status)) {
        gnmi_paths_check(t, status);
        return;
    }
    if (unimplemented && t->kind == CALL_SUBSCRIBE && t->client->o.fallback_get) {
        t->use_get = true;
        t->stats.using_get = true;
        if (t->client->cb.on_error)
            t->client->cb.on_error(t, "Subscribe is UNIMPLEMENTED; polling with Get instead", 0,
                                   t->client->cb.arg);
        t->phase = PH_WAIT;
        t->next_ns = dcb_monotonic_ns();
        return;
    }
    gnmi_target_failed(t, err.msg);
}

static void abort_call(struct gnmi_target *t, const char *why)
{
    if (t->call.easy)
        t->stats.bytes_in += t->call.bytes_in;
    gnmi_target_end_call(t);
    gnmi_target_failed(t, why);
}

/* Timers: start waiting targets, send polls, enforce deadlines. Returns the next wake-up. */
static int64_t tick(struct gnmi_client *c, int64_t now)
{
    int64_t wake = now + 1000000000LL;
    for (size_t i = 0; i < c->n; i++) {
        struct gnmi_target *t = c->t[i];
        int64_t pw = gnmi_paths_tick(t, now);
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
                    c->cb.on_error(t, err.msg, GNMI_NO_RETRY, c->cb.arg);
                continue;
            }
        }
        if (t->phase == PH_CALL && t->kind == CALL_SUBSCRIBE && t->req.mode == GNMI_STREAM &&
            !t->probing && rounds_done(t)) {
            gnmi_target_end_call(t);
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
                    gnmi_target_end_call(t);
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
                    abort_call(t, t->got_data_this_call
                                      ? "deadline exceeded: the stream went silent"
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
    int64_t start = dcb_monotonic_ns();
    while (!(stop && *stop) && anything_left(c)) {
        int64_t now = dcb_monotonic_ns();
        if (duration_ns && now - start >= duration_ns)
            break;
        int64_t wake = tick(c, now);
        int running = 0;
        curl_multi_perform(c->multi, &running);
        CURLMsg *m;
        int left;
        bool ended = false; /* a call ended: what follows it starts without a wait */
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
                    gnmi_paths_probe_finished(c->t[i], m->data.result);
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
        now = dcb_monotonic_ns();
        int64_t wait_ms = (wake - now) / 1000000;
        if (duration_ns && start + duration_ns - now < wait_ms * 1000000)
            wait_ms = (start + duration_ns - now) / 1000000;
        if (wait_ms < 0 || ended)
            wait_ms = 0;
        if (wait_ms > 200)
            wait_ms = 200; /* stop flags are checked at least this often */
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
            gnmi_target_end_call(t);
        gnmi_paths_free(t);
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
