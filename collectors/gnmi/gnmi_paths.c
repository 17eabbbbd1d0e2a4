/* Path by path (gnmi_client.h): a call the target rejects is asked again one path at a time on
 * a side call; the paths rejected alone are dropped, said once, and asked again every
 * path_retry_ns. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnmi_target_int.h"

static bool is_rejection(int code)
{
    return code == GRPC_NOT_FOUND || code == GRPC_INVALID_ARGUMENT || code == GRPC_UNIMPLEMENTED;
}

/* A rejection before any data, not yet checked path by path. One path that a Subscribe
 * finds UNIMPLEMENTED is the RPC's answer (fallback_get), as before. */
bool gnmi_paths_rejected(const struct gnmi_target *t, int status)
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
void gnmi_paths_check(struct gnmi_target *t, int status)
{
    for (size_t i = 0; i < t->nall; i++)
        if (t->ps[i].st == PATH_OK)
            t->ps[i].st = PATH_UNKNOWN;
    t->reject_code = status;
    t->paths_blocked = true;
    t->phase = PH_WAIT;
    t->next_ns = dcb_monotonic_ns();
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
    if ((rc = gnmi_client_attach(c, &t->pcall, rc, err)) < 0)
        return rc;
    t->p_in_multi = true;
    t->p_index = i;
    t->p_deadline = dcb_monotonic_ns() + c->o.timeout_ns;
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
        gnmi_target_end_call(t);
    if (t->phase == PH_CALL && t->call.easy == NULL) {
        t->phase = PH_WAIT;
        t->next_ns = dcb_monotonic_ns();
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
        p->retry_ns = dcb_monotonic_ns() + c->o.path_retry_ns;
        return;
    }
    if (p->st == PATH_MISSING) { /* no answer this time: ask again later */
        p->retry_ns = dcb_monotonic_ns() + c->o.path_retry_ns;
        return;
    }
    /* the target cannot be asked now: the call is retried whole, as any failure */
    for (size_t k = 0; k < t->nall; k++)
        if (t->ps[k].st == PATH_UNKNOWN)
            t->ps[k].st = PATH_OK;
    t->paths_blocked = false;
    rebuild_paths(t);
    gnmi_target_failed(t, why);
}

void gnmi_paths_probe_finished(struct gnmi_target *t, CURLcode result)
{
    grpc_call_finish(&t->pcall, result);
    if (result == CURLE_HTTP2_STREAM && !t->pcall.have_status && t->pcall.bytes_in == 0 &&
        !t->pcall.error[0] && !t->p_stream_retried) {
        t->p_stream_retried = true; /* asked again on the next tick */
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
    t->next_ns = dcb_monotonic_ns();
    if (!t->use_get && t->reject_code == GRPC_UNIMPLEMENTED && c->o.fallback_get &&
        every_path_unimplemented(t)) {
        for (size_t i = 0; i < t->nall; i++)
            t->ps[i].st = PATH_OK;
        rebuild_paths(t);
        t->use_get = true;
        t->stats.using_get = true;
        t->paths_checked = false;
        if (c->cb.on_error)
            c->cb.on_error(t, "Subscribe is UNIMPLEMENTED; polling with Get instead", 0, c->cb.arg);
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
        t->phase = PH_DONE; /* nothing to ask, and no rounds to wait for */
}

/* Starts the next probe; returns when to look again. */
int64_t gnmi_paths_tick(struct gnmi_target *t, int64_t now)
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

void gnmi_paths_free(struct gnmi_target *t)
{
    if (t->pcall.easy)
        end_probe(t);
}
