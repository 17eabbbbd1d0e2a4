/* dcbkit gnmi capabilities|get|subscribe: a small gNMI client for debugging a target, in the
 * spirit of gnmic, on the same transport and decoding as the collector. */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "gnmi.pb-c.h"
#include "gnmi_cli.h"
#include "gnmi_client.h"
#include "gnmi_msg.h"
#include "units.h"

static volatile sig_atomic_t gnmi_stop;

static void on_stop(int sig)
{
    (void)sig;
    gnmi_stop = 1;
}

enum {
    O_ADDRESS = 0x3100,
    O_PATH,
    O_PREFIX,
    O_TARGET,
    O_ENCODING,
    O_MODE,
    O_STREAM_MODE,
    O_SAMPLE_INTERVAL,
    O_INTERVAL,
    O_COUNT,
    O_DURATION,
    O_TYPE,
    O_UPDATES_ONLY
};

struct gnmi_cmd {
    struct cli_ctx *ctx;
    struct dcb_out out;
    const char *address;
    uint64_t leaves;
};

static void print_time(char *buf, size_t len, int64_t ns)
{
    time_t s = (time_t)(ns / 1000000000LL);
    struct tm tm;
    gmtime_r(&s, &tm);
    size_t n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf + n, len - n, ".%03dZ", (int)((ns % 1000000000LL) / 1000000));
}

static int print_leaf(struct gnmi_target *t, const struct gnmi_leaf *l, void *arg)
{
    struct gnmi_cmd *g = arg;
    struct dcb_out *o = &g->out;
    g->leaves++;
    char when[40], text[512];
    print_time(when, sizeof(when), l->time_ns);
    gnmi_leaf_text(l, text, sizeof(text));
    out_obj_open(o, NULL);
    out_i64(o, "ts", NULL, l->time_ns);
    out_str(o, NULL, "%s  ", when);
    out_str(o, "source", NULL, gnmi_target_address(t));
    out_str(o, "target", l->target[0] ? "%s:" : NULL, l->target);
    if (l->origin[0])
        out_str(o, "origin", NULL, l->origin);
    out_str(o, "path", "%s", l->path);
    switch (l->kind) {
    case GNMI_VAL_STRING: out_str(o, "value", "  %s", l->s); break;
    case GNMI_VAL_INT: out_i64(o, "value", "  %" PRId64, l->i); break;
    case GNMI_VAL_UINT: out_u64(o, "value", "  %" PRIu64, l->u); break;
    case GNMI_VAL_DOUBLE: out_dbl(o, "value", "  %.17g", l->d); break;
    case GNMI_VAL_BOOL: out_bool(o, "value", "  %s", l->b); break;
    case GNMI_VAL_DELETE: out_bool(o, "deleted", "  (deleted)", true); break;
    default: out_null(o, "value", "  null"); break;
    }
    out_text(o, "\n");
    out_obj_close(o);
    (void)text;
    return 0;
}

static void print_sync(struct gnmi_target *t, void *arg)
{
    struct gnmi_cmd *g = arg;
    (void)t;
    if (g->ctx->verbosity > 0)
        out_term(stderr, "dcbkit: gnmi: sync (%" PRIu64 " leaves so far)\n", g->leaves);
    fflush(stdout);
}

static void print_error(struct gnmi_target *t, const char *msg, int64_t retry_ns, void *arg)
{
    struct gnmi_cmd *g = arg;
    if (retry_ns != GNMI_NO_RETRY && g->ctx->verbosity < 0)
        return;
    out_term(stderr, "dcbkit: gnmi %s: %s%s\n", gnmi_target_address(t), msg,
             retry_ns != GNMI_NO_RETRY ? " (retrying)" : "");
}

static void print_gap(struct gnmi_target *t, int64_t from, int64_t to, const char *why, void *arg)
{
    struct gnmi_cmd *g = arg;
    if (g->ctx->verbosity >= 0)
        out_term(stderr, "dcbkit: gnmi %s: data again after %.3f s (%s)\n", gnmi_target_address(t),
                 (double)(to - from) / 1e9, why);
}

/* ---- capabilities -------------------------------------------------------------------------- */

struct caps {
    struct dcb_out *o;
    int printed;
};

static int print_caps(const uint8_t *msg, size_t len, void *arg)
{
    struct caps *c = arg;
    Gnmi__CapabilityResponse *r = gnmi__capability_response__unpack(NULL, len, msg);
    if (!r)
        return DCB_E_INVAL;
    struct dcb_out *o = c->o;
    out_obj_open(o, NULL);
    out_u64(o, "schema", NULL, 1);
    out_str(o, "gnmi_version", "gNMI version: %s\n", r->gnmi_version ? r->gnmi_version : "");
    out_text(o, "supported models:\n");
    out_arr_open(o, "models");
    for (size_t i = 0; i < r->n_supported_models; i++) {
        const Gnmi__ModelData *m = r->supported_models[i];
        out_obj_open(o, NULL);
        out_str(o, "name", "  - %s", m->name ? m->name : "");
        out_str(o, "organization", ", %s", m->organization ? m->organization : "");
        out_str(o, "version", ", %s\n", m->version ? m->version : "");
        out_obj_close(o);
    }
    out_arr_close(o);
    out_text(o, "supported encodings:\n");
    out_arr_open(o, "encodings");
    for (size_t i = 0; i < r->n_supported_encodings; i++) {
        char up[32];
        snprintf(up, sizeof(up), "%s", gnmi_encoding_name(r->supported_encodings[i]));
        for (char *p = up; *p && !out_is_json(o); p++)
            *p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
        out_str(o, NULL, "  - %s\n", up);
    }
    out_arr_close(o);
    out_obj_close(o);
    c->printed = 1;
    gnmi__capability_response__free_unpacked(r, NULL);
    return 0;
}

static int run_capabilities(struct gnmi_cmd *g, const struct gnmi_cli *gc)
{
    struct grpc_endpoint ep;
    gnmi_cli_endpoint(gc, g->address, &ep);
    struct caps c = { .o = &g->out };
    struct dcb_err err;
    static int global;
    if (!global++)
        curl_global_init(CURL_GLOBAL_DEFAULT);
    if (grpc_unary(&ep, "/gnmi.gNMI/Capabilities", NULL, 0, gc->timeout_ns, print_caps, &c, &err) <
        0)
        return cli_fail(1, "gnmi capabilities", "%s: %s", g->address, err.msg);
    if (!c.printed)
        return cli_fail(1, "gnmi capabilities", "%s: no CapabilityResponse", g->address);
    return 0;
}

static int parse_mode(const char *s, enum gnmi_mode *m)
{
    if (!strcmp(s, "stream"))
        *m = GNMI_STREAM;
    else if (!strcmp(s, "once"))
        *m = GNMI_ONCE;
    else if (!strcmp(s, "poll"))
        *m = GNMI_POLL;
    else
        return -1;
    return 0;
}

static int parse_stream_mode(const char *s, enum gnmi_stream_mode *m)
{
    if (!strcmp(s, "sample"))
        *m = GNMI_SAMPLE;
    else if (!strcmp(s, "on-change") || !strcmp(s, "on_change"))
        *m = GNMI_ON_CHANGE;
    else if (!strcmp(s, "target-defined") || !strcmp(s, "target_defined"))
        *m = GNMI_TARGET_DEFINED;
    else
        return -1;
    return 0;
}

static int parse_type(const char *s, int *t)
{
    static const char *const names[] = { "all", "config", "state", "operational" };
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, names[i])) {
            *t = i;
            return 0;
        }
    return -1;
}

enum gnmi_rpc { RPC_CAPABILITIES, RPC_GET, RPC_SUBSCRIBE };

/* What the command line asked for. */
struct gnmi_args {
    struct gnmi_cmd g;
    struct gnmi_cli gc;
    struct gnmi_request req;
    int64_t interval, duration;
    long count;
    enum gnmi_rpc rpc;
};

static const struct option gnmi_longopts[] = {
    { "address", required_argument, NULL, O_ADDRESS },
    { "path", required_argument, NULL, O_PATH },
    { "prefix", required_argument, NULL, O_PREFIX },
    { "target", required_argument, NULL, O_TARGET },
    { "encoding", required_argument, NULL, O_ENCODING },
    { "mode", required_argument, NULL, O_MODE },
    { "stream-mode", required_argument, NULL, O_STREAM_MODE },
    { "sample-interval", required_argument, NULL, O_SAMPLE_INTERVAL },
    { "interval", required_argument, NULL, O_INTERVAL },
    { "count", required_argument, NULL, O_COUNT },
    { "duration", required_argument, NULL, O_DURATION },
    { "type", required_argument, NULL, O_TYPE },
    { "updates-only", no_argument, NULL, O_UPDATES_ONLY },
    GNMI_CLI_LONGOPTS,
};

/* The request's own options, in cli.h's convention. */
static int request_option(struct cli_ctx *ctx, struct gnmi_request *req, int c, const char *arg)
{
    struct dcb_err err;
    int64_t ns = 0;
    switch (c) {
    case O_PATH:
        if (req->npaths == GNMI_MAX_PATHS)
            return cli_usage_error(ctx, "at most %d --path", GNMI_MAX_PATHS);
        req->paths[req->npaths++] = arg;
        return CLI_NEXT;
    case O_PREFIX: req->prefix = arg; return CLI_NEXT;
    case O_TARGET: req->target = arg; return CLI_NEXT;
    case O_ENCODING:
        if (gnmi_encoding_parse(arg, &req->encoding) < 0)
            return cli_usage_error(ctx,
                                   "--encoding: json, json_ietf, proto, ascii or bytes, "
                                   "not '%s'",
                                   arg);
        return CLI_NEXT;
    case O_MODE:
        if (parse_mode(arg, &req->mode) < 0)
            return cli_usage_error(ctx, "--mode: stream, once or poll, not '%s'", arg);
        return CLI_NEXT;
    case O_STREAM_MODE:
        if (parse_stream_mode(arg, &req->stream_mode) < 0)
            return cli_usage_error(ctx,
                                   "--stream-mode: sample, on-change or target-defined, "
                                   "not '%s'",
                                   arg);
        return CLI_NEXT;
    case O_SAMPLE_INTERVAL:
        if (dcb_parse_duration(arg, &ns, &err) < 0 || ns <= 0)
            return cli_usage_error(ctx, "--sample-interval: %s", ns <= 0 ? "above zero" : err.msg);
        req->sample_interval_ns = (uint64_t)ns;
        return CLI_NEXT;
    case O_TYPE:
        if (parse_type(arg, &req->get_type) < 0)
            return cli_usage_error(ctx, "--type: all, config, state or operational, not '%s'", arg);
        return CLI_NEXT;
    case O_UPDATES_ONLY: req->updates_only = true; return CLI_NEXT;
    }
    return CLI_NOT_OWN;
}

/* How long and how often, in cli.h's convention. */
static int timing_option(struct cli_ctx *ctx, struct gnmi_args *a, int c, const char *arg)
{
    struct dcb_err err;
    switch (c) {
    case O_INTERVAL:
        if (dcb_parse_duration(arg, &a->interval, &err) < 0 || a->interval < 1000000)
            return cli_usage_error(ctx, "--interval: %s",
                                   a->interval < 1000000 ? "at least 1ms" : err.msg);
        return CLI_NEXT;
    case O_COUNT: return cli_opt_long(ctx, "--count", arg, 1, 1000000000L, &a->count);
    case O_DURATION:
        if (dcb_parse_duration(arg, &a->duration, &err) < 0 || a->duration <= 0)
            return cli_usage_error(ctx, "--duration: %s",
                                   a->duration <= 0 ? "above zero" : err.msg);
        return CLI_NEXT;
    }
    return CLI_NOT_OWN;
}

static int parse_rpc(struct cli_ctx *ctx, struct gnmi_args *a, int argc, char **argv)
{
    if (optind >= argc)
        return cli_usage_error(ctx, "which RPC? capabilities, get or subscribe");
    const char *rpc = argv[optind++];
    if (optind < argc)
        return cli_usage_error(ctx, "unexpected argument '%s'", argv[optind]);
    if (!a->g.address)
        return cli_usage_error(ctx, "--address HOST:PORT is needed");
    if (!strcmp(rpc, "capabilities") || !strcmp(rpc, "cap"))
        a->rpc = RPC_CAPABILITIES;
    else if (!strcmp(rpc, "get"))
        a->rpc = RPC_GET;
    else if (!strcmp(rpc, "subscribe") || !strcmp(rpc, "sub"))
        a->rpc = RPC_SUBSCRIBE;
    else
        return cli_usage_error(ctx, "unknown RPC '%s' (capabilities, get or subscribe)", rpc);
    if (a->rpc != RPC_CAPABILITIES && a->req.npaths == 0)
        return cli_usage_error(ctx, "%s needs at least one --path", rpc);
    return gnmi_cli_finish(ctx, &a->gc);
}

static int gnmi_option(struct cli_ctx *ctx, void *args, int c, const char *arg)
{
    struct gnmi_args *a = args;
    int rc = gnmi_cli_option(ctx, &a->gc, c, arg);
    if (rc != CLI_NOT_OWN)
        return rc;
    if ((rc = request_option(ctx, &a->req, c, arg)) != CLI_NOT_OWN)
        return rc;
    if ((rc = timing_option(ctx, a, c, arg)) != CLI_NOT_OWN)
        return rc;
    if (c != 'a' && c != O_ADDRESS)
        return CLI_NOT_OWN;
    a->g.address = arg;
    return CLI_NEXT;
}

/* CLI_NEXT to go on, or an exit status (0 after --help). */
static int parse_args(struct cli_ctx *ctx, int argc, char **argv, struct gnmi_args *a)
{
    a->g.ctx = ctx;
    gnmi_cli_init(&a->gc);
    a->req.encoding = GNMI_ENC_JSON_IETF;
    a->req.mode = GNMI_STREAM;
    a->req.stream_mode = GNMI_SAMPLE;
    a->req.sample_interval_ns = 1000000000ULL;
    a->interval = 1000000000LL;
    struct cli_parser p = {
        gnmi_longopts, sizeof(gnmi_longopts) / sizeof(*gnmi_longopts), "a:", gnmi_option, a, NULL
    };
    int rc = cli_parse(ctx, &p, argc, argv);
    if (rc != CLI_NEXT)
        return rc;
    rc = parse_rpc(ctx, a, argc, argv);
    return rc ? rc : CLI_NEXT;
}

/* Get or Subscribe until the rounds, the duration or a signal end it. */
static int run_calls(struct gnmi_args *a)
{
    bool get = a->rpc == RPC_GET;
    long count = a->count;
    struct gnmi_client_opts co = {
        .timeout_ns = a->gc.timeout_ns,
        .interval_ns = a->interval,
        .reconnect = false,
        .fallback_get = false,
        .probe_once = true,     /* an immediate error shows as its gRPC status */
        .probe_deliver = false, /* but the output is only the subscription's own data */
        .max_rounds = get || a->req.mode == GNMI_ONCE ? (count ? count : 1)
                      : a->req.mode == GNMI_POLL      ? (count ? count + 1 : 0)
                                                      : count,
    };
    struct gnmi_client_cb cb = { .on_leaf = print_leaf,
                                 .on_sync = print_sync,
                                 .on_gap = print_gap,
                                 .on_error = print_error,
                                 .arg = &a->g };
    struct gnmi_client *client;
    struct dcb_err err;
    if (gnmi_client_new(&client, &co, &cb, &err) < 0)
        return cli_fail(1, "gnmi", "%s", err.msg);
    struct gnmi_target_conf tc = { .name = a->g.address, .req = a->req, .use_get = get };
    gnmi_cli_endpoint(&a->gc, a->g.address, &tc.ep);
    if (gnmi_client_add(client, &tc, &err) < 0) {
        gnmi_client_free(client);
        return cli_fail(1, "gnmi", "%s", err.msg);
    }
    signal(SIGINT, on_stop);
    signal(SIGTERM, on_stop);
    int failures = gnmi_client_run(client, &gnmi_stop, a->duration);
    gnmi_client_free(client);
    return failures ? 1 : 0;
}

static int gnmi_run_cmd(struct cli_ctx *ctx, int argc, char **argv)
{
    static struct gnmi_args a;
    memset(&a, 0, sizeof(a));
    int rc = parse_args(ctx, argc, argv, &a);
    if (rc != CLI_NEXT) {
        gnmi_cli_free(&a.gc);
        return rc;
    }
    out_init(&a.g.out, stdout, ctx->format);
    rc = a.rpc == RPC_CAPABILITIES ? run_capabilities(&a.g, &a.gc) : run_calls(&a);
    gnmi_cli_free(&a.gc);
    return cli_finish_output(&a.g.out, rc);
}

static const struct cli_option_doc gnmi_options[] = {
    { "-a, --address HOST:PORT", "The gNMI target (IANA port 9339; SONiC often 8080, Arista 6030, "
                                 "SR Linux 57400)." },
    { "--path PATH", "A path, as /interfaces/interface[name=Ethernet0]/state/counters; repeat "
                     "for more. An origin goes before ':/' (openconfig:/interfaces)." },
    { "--prefix PATH", "A prefix common to every path." },
    { "--target NAME", "The prefix target; SONiC selects its database with it (COUNTERS_DB, "
                       "CONFIG_DB, STATE_DB)." },
    { "--encoding E", "json, json_ietf (default), proto, ascii or bytes." },
    { "--mode stream|once|poll", "Subscribe mode (default stream)." },
    { "--stream-mode sample|on-change|target-defined", "How a stream sends (default sample)." },
    { "--sample-interval DURATION", "Interval of a sample stream (default 1s)." },
    { "--interval DURATION", "Time between polls in poll mode (default 1s)." },
    { "--count N",
      "Stop after N rounds: polls; of a stream, its first sync and then each "
      "further sample (as many notifications as came before that sync); get/once: 1." },
    { "--duration DURATION", "Stop after this long." },
    { "--type all|config|state|operational", "Get: which data (default all)." },
    { "--updates-only", "Subscribe: only changes after the initial sync." },
    GNMI_CLI_OPTION_DOCS,
    { NULL, NULL },
};

static const struct cli_example gnmi_examples[] = {
    { "dcbkit gnmi -a leaf1:8080 --tls-ca ca.pem --credentials ~/.dcbkit/leaf1.cred capabilities",
      "What the target supports: gNMI version, models, encodings." },
    { "dcbkit gnmi -a leaf1:8080 --plaintext --target COUNTERS_DB "
      "--path 'COUNTERS/Ethernet0' get",
      "One port's SONiC COUNTERS_DB entry (numbers arrive as strings)." },
    { "dcbkit gnmi -a leaf1:8080 --plaintext --target COUNTERS_DB --mode poll --interval 5s "
      "--count 3 --path 'COUNTERS/Ethernet*/Queues' subscribe",
      "Three polls of every queue counter." },
    { "dcbkit gnmi -a spine1:6030 --tls-ca ca.pem --sample-interval 1s -T json "
      "--path '/interfaces/interface[name=*]/state/counters' subscribe",
      "Stream OpenConfig interface counters as JSON Lines." },
    { NULL, NULL },
};

static const struct cli_exit gnmi_exits[] =
    CLI_EXITS("the RPC ended well",
              "the RPC failed: its gRPC status and message are printed "
              "(UNAUTHENTICATED, UNIMPLEMENTED, RESOURCE_EXHAUSTED, a deadline, a malformed or "
              "oversized message), or the credentials could not be read");

const struct cli_command cmd_gnmi = {
    .name = "gnmi",
    .summary = "a small gNMI client: capabilities, get, subscribe (debugging a target)",
    .synopsis = "dcbkit gnmi -a HOST:PORT [TLS and credential options] capabilities\n"
                "dcbkit gnmi -a HOST:PORT [--target T] [--prefix P] --path P... [--type T] get\n"
                "dcbkit gnmi -a HOST:PORT --path P... [--mode stream|once|poll] "
                "[--stream-mode sample|on-change] [--sample-interval D] [--interval D] "
                "[--count N] [--duration D] subscribe",
    .description =
        "Talks gNMI (gRPC over HTTP/2 with libcurl: TLS with ALPN h2, or cleartext h2c with "
        "--plaintext) to one target and prints what it answers, one leaf per line: the time, "
        "the prefix target, the path and the value. JSON and JSON_IETF values are flattened to "
        "their leaves (module prefixes dropped; list entries as [name=...]); numbers sent as "
        "strings (SONiC) are printed as sent.\n\n"
        "TLS verifies the target's certificate unless --insecure is given. Credentials come "
        "only from a --credentials file (mode 0600) or the environment; they are sent as the "
        "username/password gRPC metadata and never printed, even with -v.",
    .options = gnmi_options,
    .examples = gnmi_examples,
    .json_doc =
        "capabilities: one document {\"schema\":1, \"gnmi_version\", \"models\":[{\"name\", "
        "\"organization\", \"version\"}], \"encodings\":[\"json\", ...]}. get and subscribe: "
        "JSON Lines, one object per leaf: {\"ts\" (ns, the notification's timestamp), "
        "\"source\" (HOST:PORT), \"target\" (prefix target or \"\"), \"origin\" (when set), "
        "\"path\", \"value\" (string, number or bool as the target sent it; null when it sent "
        "none)} or {..., \"deleted\": true} for a deleted path.",
    .run = gnmi_run_cmd,
    .actions = "capabilities get subscribe",
    .exits = gnmi_exits,
};
