#include "grpc_call.h"
#include "version.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *grpc_code_name(int code)
{
    static const char *const names[] = {
        "OK",
        "CANCELLED",
        "UNKNOWN",
        "INVALID_ARGUMENT",
        "DEADLINE_EXCEEDED",
        "NOT_FOUND",
        "ALREADY_EXISTS",
        "PERMISSION_DENIED",
        "RESOURCE_EXHAUSTED",
        "FAILED_PRECONDITION",
        "ABORTED",
        "OUT_OF_RANGE",
        "UNIMPLEMENTED",
        "INTERNAL",
        "UNAVAILABLE",
        "DATA_LOSS",
        "UNAUTHENTICATED",
    };
    if (code >= 0 && (size_t)code < sizeof(names) / sizeof(names[0]))
        return names[code];
    return "UNKNOWN_CODE";
}

static void set_error(struct grpc_call *c, int code, const char *msg)
{
    if (c->error[0])
        return;
    c->error_code = code;
    snprintf(c->error, sizeof(c->error), "%s", msg);
}

static size_t on_read(char *buf, size_t size, size_t nitems, void *userp)
{
    struct grpc_call *c = userp;
    size_t room = size * nitems;
    size_t left = c->out_len - c->out_off;
    if (left == 0) {
        c->out_len = c->out_off = 0;
        if (c->half_closed)
            return 0;
        c->upload_paused = true;
        return CURL_READFUNC_PAUSE;
    }
    size_t n = left < room ? left : room;
    memcpy(buf, c->out + c->out_off, n);
    c->out_off += n;
    return n;
}

static int deliver(const uint8_t *msg, size_t len, void *arg)
{
    struct grpc_call *c = arg;
    return c->on_message ? c->on_message(msg, len, c->arg) : 0;
}

static size_t on_write(char *data, size_t size, size_t nmemb, void *userp)
{
    struct grpc_call *c = userp;
    size_t n = size * nmemb;
    c->bytes_in += n;
    if (c->http_status == 0)
        curl_easy_getinfo(c->easy, CURLINFO_RESPONSE_CODE, &c->http_status);
    struct dcb_err err;
    dcb_err_clear(&err);
    if (grpc_deframer_feed(&c->rx, (const uint8_t *)data, n, deliver, c, &err) < 0) {
        set_error(c, err.code ? err.code : DCB_E_INVAL,
                  err.msg[0] ? err.msg : "the gRPC stream could not be read");
        return 0; /* aborts the transfer: CURLE_WRITE_ERROR */
    }
    return n;
}

static int hexval(int ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    ch = tolower(ch);
    return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/* grpc-message is percent-encoded; control bytes are dropped so it stays one printable line. */
static void percent_decode(char *dst, size_t cap, const char *src, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < len && o + 1 < cap; i++) {
        int ch = (unsigned char)src[i];
        if (ch == '%' && i + 2 < len + 0 && hexval(src[i + 1]) >= 0 && hexval(src[i + 2]) >= 0) {
            ch = hexval(src[i + 1]) * 16 + hexval(src[i + 2]);
            i += 2;
        }
        if (ch < 0x20 || ch == 0x7f)
            ch = ' ';
        dst[o++] = (char)ch;
    }
    dst[o] = '\0';
}

static bool header_is(const char *line, size_t len, const char *name, const char **value,
                      size_t *vlen)
{
    size_t n = strlen(name);
    if (len <= n || strncasecmp(line, name, n) || line[n] != ':')
        return false;
    const char *v = line + n + 1;
    const char *end = line + len;
    while (v < end && (*v == ' ' || *v == '\t'))
        v++;
    while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' '))
        end--;
    *value = v;
    *vlen = (size_t)(end - v);
    return true;
}

static size_t on_header(char *line, size_t size, size_t nitems, void *userp)
{
    struct grpc_call *c = userp;
    size_t len = size * nitems;
    const char *v;
    size_t vlen;
    if (header_is(line, len, "grpc-status", &v, &vlen)) {
        int code = 0;
        bool ok = vlen > 0 && vlen < 4;
        for (size_t i = 0; ok && i < vlen; i++) {
            if (!isdigit((unsigned char)v[i]))
                ok = false;
            else
                code = code * 10 + (v[i] - '0');
        }
        c->have_status = true;
        c->status = ok ? code : GRPC_UNKNOWN;
    } else if (header_is(line, len, "grpc-message", &v, &vlen)) {
        percent_decode(c->message, sizeof(c->message), v, vlen);
    } else if (header_is(line, len, "content-type", &v, &vlen)) {
        if (vlen < 16 || strncasecmp(v, "application/grpc", 16))
            set_error(c, DCB_E_INVAL,
                      "the server answered without content-type application/grpc "
                      "(not a gRPC endpoint?)");
    }
    return len;
}

static void format_timeout(char *buf, size_t len, int64_t ns)
{
    /* at most 8 digits (PROTOCOL-HTTP2.md); milliseconds cover 27 hours */
    int64_t ms = (ns + 999999) / 1000000;
    if (ms <= 99999999)
        snprintf(buf, len, "grpc-timeout: %lldm", (long long)ms);
    else
        snprintf(buf, len, "grpc-timeout: %lldS", (long long)(ns / 1000000000));
}

static int add_header(struct grpc_call *c, const char *h, struct dcb_err *err)
{
    struct curl_slist *n = curl_slist_append(c->headers, h);
    if (!n)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    c->headers = n;
    return 0;
}

/* DCBKIT_CURL_DEBUG=1: libcurl's own account of the transport, for debugging a target. Only
 * its text and the headers the target sent; libcurl's text also lists the request headers we
 * send ("h2h3 [password: ...]"), so those lines, and any line naming a credential, are left out. */
static int debug_text(CURL *h, curl_infotype type, char *data, size_t size, void *userp)
{
    (void)h;
    (void)userp;
    if (type != CURLINFO_TEXT && type != CURLINFO_HEADER_IN)
        return 0;
    char line[512];
    size_t n = size < sizeof(line) - 1 ? size : sizeof(line) - 1;
    memcpy(line, data, n);
    line[n] = '\0';
    if (strstr(line, "h2h3 [") || strcasestr(line, "password") || strcasestr(line, "username") ||
        strcasestr(line, "authorization"))
        return 0;
    fprintf(stderr, "curl: %s%s", line, n && line[n - 1] == '\n' ? "" : "\n");
    return 0;
}

int grpc_call_init(struct grpc_call *c, const struct grpc_endpoint *ep, const char *method,
                   const uint8_t *first, size_t first_len, bool half_close, int64_t timeout_ns,
                   grpc_message_fn on_message, void *arg, struct dcb_err *err)
{
    memset(c, 0, sizeof(*c));
    c->status = -1;
    c->on_message = on_message;
    c->arg = arg;
    c->half_closed = half_close;
    grpc_deframer_init(&c->rx, ep->max_message);
    const char *host = ep->address;
    const char *colon = strrchr(host, ':');
    if (!colon || colon == host || !colon[1])
        return dcb_err_set(err, DCB_E_INVAL, "target '%s': expected HOST:PORT", host);
    const char *url_host = host;
    char connect_to[300] = "";
    char sni_host[300];
    if (ep->tls && ep->server_name && *ep->server_name) {
        /* the URL names the certificate's host; CONNECT_TO sends it to the real address */
        snprintf(sni_host, sizeof(sni_host), "%s%s", ep->server_name, colon);
        snprintf(connect_to, sizeof(connect_to), "%s:%s:%.*s:%s", ep->server_name, colon + 1,
                 (int)(colon - host), host, colon + 1);
        url_host = sni_host;
    }
    if ((size_t)snprintf(c->url, sizeof(c->url), "%s://%s%s", ep->tls ? "https" : "http", url_host,
                         method) >= sizeof(c->url))
        return dcb_err_set(err, DCB_E_INVAL, "target '%s': address too long", host);
    if ((first || half_close) &&
        grpc_frame_append(&c->out, &c->out_len, &c->out_cap, first, first_len) < 0)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    c->easy = curl_easy_init();
    if (!c->easy)
        return dcb_err_set(err, DCB_E_NOMEM, "curl_easy_init failed");
    CURL *e = c->easy;
    int rc = 0;
    if ((rc = add_header(c, "content-type: application/grpc", err)) < 0 ||
        (rc = add_header(c, "te: trailers", err)) < 0 ||
        (rc = add_header(c, "user-agent: dcbkit-gnmi/" DCBKIT_VERSION, err)) < 0 ||
        (rc = add_header(c, "grpc-accept-encoding: identity", err)) < 0 ||
        (rc = add_header(c, "Expect:", err)) < 0 || (rc = add_header(c, "Accept:", err)) < 0)
        return rc;
    if (timeout_ns > 0) {
        char h[64];
        format_timeout(h, sizeof(h), timeout_ns);
        if ((rc = add_header(c, h, err)) < 0)
            return rc;
        curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)((timeout_ns + 999999) / 1000000));
    }
    if (ep->username && *ep->username) {
        char h[600];
        snprintf(h, sizeof(h), "username: %s", ep->username);
        rc = add_header(c, h, err);
        if (rc == 0 && ep->password) {
            snprintf(h, sizeof(h), "password: %s", ep->password);
            rc = add_header(c, h, err);
        }
        memset(h, 0, sizeof(h));
        if (rc < 0)
            return rc;
    }
    curl_easy_setopt(e, CURLOPT_URL, c->url);
    if (getenv("DCBKIT_CURL_DEBUG")) {
        curl_easy_setopt(e, CURLOPT_DEBUGFUNCTION, debug_text);
        curl_easy_setopt(e, CURLOPT_VERBOSE, 1L);
    }
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, c->headers);
    curl_easy_setopt(e, CURLOPT_HTTP_VERSION,
                     ep->tls ? (long)CURL_HTTP_VERSION_2TLS
                             : (long)CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE);
    curl_easy_setopt(e, CURLOPT_POST, 1L);
    curl_easy_setopt(e, CURLOPT_READFUNCTION, on_read);
    curl_easy_setopt(e, CURLOPT_READDATA, c);
    if (half_close)
        curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)c->out_len);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_write);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, c);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, c);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_PRIVATE, c);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, c->curl_detail);
    curl_easy_setopt(e, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, ep->tls ? "https" : "http");
    if (!ep->tls) {
        /* libcurl 7.88 (Debian 12) breaks a prior-knowledge h2c connection it reuses for a
         * second stream ("Error in the HTTP2 framing layer", curl/curl#10634, fixed in 8.0 by
         * #10643), so every cleartext call gets a connection of its own. TLS (ALPN h2) is not
         * affected and shares connections. */
        curl_easy_setopt(e, CURLOPT_FRESH_CONNECT, 1L);
        curl_easy_setopt(e, CURLOPT_FORBID_REUSE, 1L);
    }
    int64_t cto = ep->connect_timeout_ns > 0 ? ep->connect_timeout_ns : 10000000000LL;
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)(cto / 1000000));
    if (connect_to[0]) {
        struct curl_slist *ct = curl_slist_append(NULL, connect_to);
        if (!ct)
            return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
        curl_easy_setopt(e, CURLOPT_CONNECT_TO, ct);
        c->connect_to = ct;
    }
    if (ep->tls) {
        if (ep->ca_file)
            curl_easy_setopt(e, CURLOPT_CAINFO, ep->ca_file);
        if (ep->cert_file)
            curl_easy_setopt(e, CURLOPT_SSLCERT, ep->cert_file);
        if (ep->key_file)
            curl_easy_setopt(e, CURLOPT_SSLKEY, ep->key_file);
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, ep->insecure ? 0L : 1L);
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, ep->insecure ? 0L : 2L);
        curl_easy_setopt(e, CURLOPT_SSLVERSION, (long)CURL_SSLVERSION_TLSv1_2);
    }
    return 0;
}

int grpc_call_send(struct grpc_call *c, const uint8_t *msg, size_t len, struct dcb_err *err)
{
    if (c->half_closed || c->done)
        return dcb_err_set(err, DCB_E_INVAL, "the call is closed for sending");
    if (grpc_frame_append(&c->out, &c->out_len, &c->out_cap, msg, len) < 0)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    if (c->upload_paused) {
        c->upload_paused = false;
        curl_easy_pause(c->easy, CURLPAUSE_CONT);
    }
    return 0;
}

void grpc_call_finish(struct grpc_call *c, CURLcode result)
{
    c->done = true;
    c->curl_result = result;
    curl_easy_getinfo(c->easy, CURLINFO_RESPONSE_CODE, &c->http_status);
}

/* The transport failure as libcurl put it for this call, else its code's text: "SSL peer
 * certificate or SSH remote key was not OK" says the same of a wrong CA and of a wrong name,
 * "SSL: no alternative certificate subject name matches target host name '127.0.0.1'" which. */
static const char *curl_text(const struct grpc_call *c)
{
    return c->curl_detail[0] ? c->curl_detail : curl_easy_strerror(c->curl_result);
}

int grpc_call_result(const struct grpc_call *c, struct dcb_err *err)
{
    if (c->error[0])
        return dcb_err_set(err, c->error_code ? c->error_code : DCB_E_INVAL, "%s", c->error);
    if (c->curl_result != CURLE_OK && !c->have_status && !grpc_deframer_idle(&c->rx))
        return dcb_err_set(err, DCB_E_TRUNC,
                           "the stream ended inside a message (%zu of %zu bytes): %s", c->rx.got,
                           c->rx.want, curl_text(c));
    if (c->curl_result != CURLE_OK && !c->have_status) {
        int code = c->curl_result == CURLE_OPERATION_TIMEDOUT ? DCB_E_TIMEOUT : DCB_E_IO;
        if (c->curl_result == CURLE_OPERATION_TIMEDOUT)
            return dcb_err_set(err, code, "deadline exceeded (%s)", curl_text(c));
        return dcb_err_set(err, code, "%s", curl_text(c));
    }
    if (!c->have_status) {
        if (c->http_status && c->http_status != 200)
            return dcb_err_set(err, DCB_E_IO, "HTTP status %ld, no gRPC status", c->http_status);
        if (!grpc_deframer_idle(&c->rx))
            return dcb_err_set(err, DCB_E_TRUNC, "the stream ended inside a message");
        return dcb_err_set(err, DCB_E_IO, "the stream ended without a gRPC status");
    }
    if (c->status != GRPC_OK) {
        int code = c->status == GRPC_UNIMPLEMENTED ? DCB_E_UNSUPP
                   : c->status == GRPC_UNAUTHENTICATED || c->status == GRPC_PERMISSION_DENIED
                       ? DCB_E_PERM
                   : c->status == GRPC_DEADLINE_EXCEEDED ? DCB_E_TIMEOUT
                                                         : DCB_E_IO;
        return dcb_err_set(err, code, "%s%s%s", grpc_code_name(c->status),
                           c->message[0] ? ": " : "", c->message);
    }
    return 0;
}

void grpc_call_cleanup(struct grpc_call *c)
{
    if (c->easy)
        curl_easy_cleanup(c->easy);
    curl_slist_free_all(c->headers);
    curl_slist_free_all(c->connect_to);
    grpc_deframer_free(&c->rx);
    if (c->out)
        memset(c->out, 0, c->out_cap);
    free(c->out);
    memset(c, 0, sizeof(*c));
}

int grpc_unary(const struct grpc_endpoint *ep, const char *method, const uint8_t *req,
               size_t req_len, int64_t timeout_ns, grpc_message_fn on_message, void *arg,
               struct dcb_err *err)
{
    struct grpc_call c;
    int rc = grpc_call_init(&c, ep, method, req, req_len, true, timeout_ns, on_message, arg, err);
    if (rc < 0) {
        grpc_call_cleanup(&c);
        return rc;
    }
    CURLM *m = curl_multi_init();
    if (!m) {
        grpc_call_cleanup(&c);
        return dcb_err_set(err, DCB_E_NOMEM, "curl_multi_init failed");
    }
    curl_multi_add_handle(m, c.easy);
    int running = 1;
    while (running) {
        if (curl_multi_perform(m, &running) != CURLM_OK)
            break;
        if (running)
            curl_multi_poll(m, NULL, 0, 200, NULL);
    }
    CURLMsg *msg;
    int left;
    CURLcode result = CURLE_OK;
    while ((msg = curl_multi_info_read(m, &left)))
        if (msg->msg == CURLMSG_DONE)
            result = msg->data.result;
    grpc_call_finish(&c, result);
    rc = grpc_call_result(&c, err);
    curl_multi_remove_handle(m, c.easy);
    curl_multi_cleanup(m);
    grpc_call_cleanup(&c);
    return rc;
}
