/* One gRPC call over libcurl HTTP/2: h2c with prior knowledge for plain text, TLS with ALPN h2.
 *
 * The request body is fed by a read callback from a queue of framed messages. When the queue is
 * empty and the call is not half-closed, the callback pauses the upload (CURL_READFUNC_PAUSE);
 * grpc_call_send() queues a message and resumes it (curl_easy_pause CONT). That is the
 * full-duplex path Subscribe POLL needs, driven by a curl multi handle the caller owns, so one
 * thread runs many calls. Responses are deframed as DATA arrives; the status comes from
 * grpc-status/grpc-message in the trailers (or the headers, for Trailers-Only answers).
 *
 * Credentials go out as `username`/`password` metadata only; nothing here logs headers. */
#ifndef DCB_GRPC_CALL_H
#define DCB_GRPC_CALL_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stdint.h>

#include "err.h"
#include "grpc_frame.h"

/* gRPC status codes (grpc/grpc doc/statuscodes.md) that the client treats specially. */
enum grpc_code {
    GRPC_OK = 0,
    GRPC_CANCELLED = 1,
    GRPC_UNKNOWN = 2,
    GRPC_INVALID_ARGUMENT = 3,
    GRPC_DEADLINE_EXCEEDED = 4,
    GRPC_NOT_FOUND = 5,
    GRPC_PERMISSION_DENIED = 7,
    GRPC_RESOURCE_EXHAUSTED = 8,
    GRPC_UNIMPLEMENTED = 12,
    GRPC_INTERNAL = 13,
    GRPC_UNAVAILABLE = 14,
    GRPC_UNAUTHENTICATED = 16,
};
const char *grpc_code_name(int code);

struct grpc_endpoint {
    const char *address; /* host:port */
    bool tls;
    bool insecure; /* TLS without verifying the certificate */
    const char *ca_file, *cert_file, *key_file;
    const char *server_name; /* verify the certificate against this name (TLS) */
    const char *username, *password;
    size_t max_message;         /* 0: GRPC_DEFAULT_MAX_MESSAGE */
    int64_t connect_timeout_ns; /* 0: 10 s */
};

struct grpc_call {
    CURL *easy;
    struct curl_slist *headers;
    char url[512];
    struct grpc_deframer rx;
    grpc_message_fn on_message;
    void *arg;
    /* outgoing */
    uint8_t *out;
    size_t out_len, out_off, out_cap;
    bool half_closed;
    bool upload_paused;
    /* result */
    bool have_status;
    bool upload_paused_done; /* the owner has acted on have_status */
    int status;              /* grpc-status; -1 until known */
    char message[256];       /* grpc-message, percent-decoded */
    char error[256];         /* the client-side error (deframing, transport), when any */
    int error_code;          /* its DCB_E_* code */
    bool done;
    CURLcode curl_result;
    char curl_detail[CURL_ERROR_SIZE]; /* libcurl's own words for curl_result, when it has them */
    long http_status;
    uint64_t bytes_in;
    struct curl_slist *connect_to;
};

/* Sets up a call of method ("/gnmi.gNMI/Subscribe") on the endpoint. timeout_ns > 0 bounds the
 * whole call (grpc-timeout is sent with it); streaming calls pass 0 and watch idleness instead.
 * The first message (if any) is queued; half_close closes the request side after it (unary). */
int grpc_call_init(struct grpc_call *c, const struct grpc_endpoint *ep, const char *method,
                   const uint8_t *first, size_t first_len, bool half_close, int64_t timeout_ns,
                   grpc_message_fn on_message, void *arg, struct dcb_err *err);
/* Queues one more message on a streaming call and wakes the paused upload. */
int grpc_call_send(struct grpc_call *c, const uint8_t *msg, size_t len, struct dcb_err *err);
/* Called by the owner of the multi handle when curl reports the transfer done. */
void grpc_call_finish(struct grpc_call *c, CURLcode result);
/* The outcome once done: 0 when grpc-status is OK; otherwise a negative code and a one-line
 * reason in err (transport error, HTTP status, deframing error, or the gRPC status). */
int grpc_call_result(const struct grpc_call *c, struct dcb_err *err);
void grpc_call_cleanup(struct grpc_call *c);

/* Runs a unary call to completion on a private multi handle. */
int grpc_unary(const struct grpc_endpoint *ep, const char *method, const uint8_t *req,
               size_t req_len, int64_t timeout_ns, grpc_message_fn on_message, void *arg,
               struct dcb_err *err);

#endif
