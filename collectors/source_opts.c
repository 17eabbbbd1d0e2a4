/* The source options every command shares: one table of flags (with the group each belongs to),
 * one parser, one check, one opener and one help text. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gnmi_msg.h"
#include "source_opts.h"
#include "scenario.h"
#include "units.h"

struct source_flag {
    const char *name;
    int has_arg;
    int code;
    unsigned group;
};

static const struct source_flag source_flags[] = {
    { "local", no_argument, SO_LOCAL, SOURCE_G_LOCAL },
    { "sysfs-root", required_argument, SO_SYSFS_ROOT, SOURCE_G_LOCAL },
    { "proc-root", required_argument, SO_PROC_ROOT, SOURCE_G_LOCAL },
    { "ifname", required_argument, SO_IFNAME, SOURCE_G_LOCAL },
    { "maps", required_argument, SO_MAPS, SOURCE_G_LOCAL | SOURCE_G_GNMI },
    { "device", required_argument, SO_DEVICE, SOURCE_G_LOCAL | SOURCE_G_GNMI | SOURCE_G_PCAP },
    { "no-lldp", no_argument, SO_NO_LLDP, SOURCE_G_LOCAL },
    { "gnmi", required_argument, SO_GNMI, SOURCE_G_GNMI },
    { "map", required_argument, SO_MAP, SOURCE_G_GNMI },
    { "gnmi-mode", required_argument, SO_GNMI_MODE, SOURCE_G_GNMI },
    { "encoding", required_argument, SO_ENCODING, SOURCE_G_GNMI },
    { "config-interval", required_argument, SO_CONFIG_INTERVAL, SOURCE_G_GNMI },
    { "plaintext", no_argument, SO_PLAINTEXT, SOURCE_G_GNMI },
    { "insecure", no_argument, SO_INSECURE, SOURCE_G_GNMI },
    { "tls-ca", required_argument, SO_TLS_CA, SOURCE_G_GNMI },
    { "tls-cert", required_argument, SO_TLS_CERT, SOURCE_G_GNMI },
    { "tls-key", required_argument, SO_TLS_KEY, SOURCE_G_GNMI },
    { "tls-server-name", required_argument, SO_TLS_SERVER_NAME, SOURCE_G_GNMI },
    { "credentials", required_argument, SO_CREDENTIALS, SOURCE_G_GNMI },
    { "timeout", required_argument, SO_TIMEOUT, SOURCE_G_GNMI },
    { "max-message", required_argument, SO_MAX_MESSAGE, SOURCE_G_GNMI },
    { "gnmi-path-retry", required_argument, SO_GNMI_PATH_RETRY, SOURCE_G_GNMI },
    { "store", required_argument, SO_STORE, SOURCE_G_STORE },
    { "at", required_argument, SO_AT, SOURCE_G_STORE },
    { "window", required_argument, SO_WINDOW, SOURCE_G_STORE },
    { "replay", required_argument, SO_REPLAY, SOURCE_G_REPLAY },
    { "demo", no_argument, SO_DEMO, SOURCE_G_REPLAY },
    { "set", required_argument, SO_SET, SOURCE_G_REPLAY },
    { "replay-speed", required_argument, SO_REPLAY_SPEED, SOURCE_G_REPLAY },
    { "pcap", required_argument, SO_PCAP, SOURCE_G_PCAP },
    { "link-speed", required_argument, SO_LINK_SPEED, SOURCE_G_PCAP },
    { "lossless", required_argument, SO_LOSSLESS, SOURCE_G_PCAP },
    { "storm-ms", required_argument, SO_STORM_MS, SOURCE_G_PCAP },
    { "max-qps", required_argument, SO_MAX_QPS, SOURCE_G_PCAP },
    { "pcap-speed", required_argument, SO_PCAP_SPEED, SOURCE_G_PCAP },
    { "prometheus", required_argument, SO_PROMETHEUS, SOURCE_G_PROMETHEUS },
    { "match", required_argument, SO_MATCH, SOURCE_G_PROMETHEUS },
    { "step", required_argument, SO_STEP, SOURCE_G_PROMETHEUS },
    { "fabric", required_argument, SO_FABRIC, SOURCE_G_FABRIC | SOURCE_G_GNMI },
};
#define NFLAGS (sizeof(source_flags) / sizeof(source_flags[0]))

void source_opts_init(struct source_opts *o, unsigned groups)
{
    memset(o, 0, sizeof(*o));
    o->groups = groups;
    o->gnmi.encoding = GNMI_ENC_JSON_IETF;
    o->gnmi.mode = GNMI_STREAM;
    o->pcap.link_bps = 400000000000ULL;
}

int source_opts_longopts(unsigned groups, struct option *opts, size_t *n, size_t cap)
{
    for (size_t i = 0; i < NFLAGS; i++) {
        if (!(source_flags[i].group & groups))
            continue;
        if (*n >= cap)
            return -1;
        opts[(*n)++] = (struct option){ source_flags[i].name, source_flags[i].has_arg, NULL,
                                        source_flags[i].code };
    }
    return 0;
}

static int bad(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int bad(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return -1;
}

/* --at: Unix seconds, YYYY-MM-DDTHH:MM:SSZ, or -DURATION before the store's end. */
static int parse_at(const char *text, int64_t *ns, int64_t *before_end)
{
    struct dcb_err err;
    *ns = 0;
    *before_end = 0;
    if (text[0] == '-')
        return dcb_parse_duration(text + 1, before_end, &err) < 0 || *before_end <= 0 ? -1 : 0;
    char *end;
    errno = 0;
    double s = strtod(text, &end);
    if (end != text && !*end && !errno && s > 0) {
        *ns = (int64_t)llround(s * 1e9);
        return 0;
    }
    struct tm tm;
    memset(&tm, 0, sizeof(tm));
    end = strptime(text, "%Y-%m-%dT%H:%M:%S", &tm);
    if (!end || (*end && strcmp(end, "Z") != 0))
        return -1;
    *ns = (int64_t)timegm(&tm) * 1000000000LL;
    return 0;
}

static int parse_factor(const char *flag, const char *arg, double *out, char *why, size_t len)
{
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    if (end == arg || *end || errno || !(v >= 0.001 && v <= 1000))
        return bad(why, len, "%s takes a factor from 0.001 to 1000, not '%s'", flag, arg);
    *out = v;
    return 1;
}

/* "3", "3,4" or "none" -> a priority mask. */
static int parse_lossless(const char *text, unsigned *mask, char *why, size_t len)
{
    *mask = 0;
    if (!strcmp(text, "none"))
        return 1;
    for (const char *p = text; *p; p += p[1] ? 2 : 1) {
        if (*p < '0' || *p > '7' || (p[1] && p[1] != ','))
            return bad(why, len,
                       "--lossless takes priorities 0-7 separated by commas (such "
                       "as 3 or 3,4) or 'none', not '%s'",
                       text);
        *mask |= 1u << (*p - '0');
    }
    if (!*mask)
        return bad(why, len, "--lossless: no priority in '%s'", text);
    return 1;
}

static int parse_duration_flag(const char *flag, const char *arg, int64_t min_ns, int64_t *out,
                               char *why, size_t len)
{
    struct dcb_err err;
    if (dcb_parse_duration(arg, out, &err) < 0)
        return bad(why, len, "%s: %s", flag, err.msg);
    if (*out < min_ns)
        return bad(why, len, "%s: at least %lld ms, not '%s'", flag, (long long)(min_ns / 1000000),
                   arg);
    return 1;
}

static int take_gnmi_address(struct source_opts *o, const char *arg, char *why, size_t len)
{
    o->named |= SOURCE_G_GNMI;
    if (!strcmp(arg, "all"))
        return 1; /* every gNMI device of --fabric */
    const char *colon = strrchr(arg, ':');
    if (!colon || colon == arg || !colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1))
        return bad(why, len, "--gnmi takes HOST:PORT (or 'all' with --fabric), not '%s'", arg);
    if (o->gnmi.naddresses == SOURCE_GNMI_MAX)
        return bad(why, len, "at most %d --gnmi targets (a fabric file takes more)",
                   SOURCE_GNMI_MAX);
    o->gnmi.addresses[o->gnmi.naddresses++] = arg;
    return 1;
}

static int take_gnmi(struct source_opts *o, int code, const char *arg, char *why, size_t len)
{
    struct dcb_err err;
    uint64_t bytes;
    switch (code) {
    case SO_GNMI: return take_gnmi_address(o, arg, why, len);
    case SO_MAP: o->gnmi.map = arg; return 1;
    case SO_GNMI_MODE:
        if (!strcmp(arg, "stream"))
            o->gnmi.mode = GNMI_STREAM;
        else if (!strcmp(arg, "poll"))
            o->gnmi.mode = GNMI_POLL;
        else if (!strcmp(arg, "once"))
            o->gnmi.mode = GNMI_ONCE;
        else
            return bad(why, len, "--gnmi-mode: stream, poll or once, not '%s'", arg);
        return 1;
    case SO_ENCODING:
        if (!strcmp(arg, "json"))
            o->gnmi.encoding = GNMI_ENC_JSON;
        else if (!strcmp(arg, "json_ietf"))
            o->gnmi.encoding = GNMI_ENC_JSON_IETF;
        else if (!strcmp(arg, "proto"))
            o->gnmi.encoding = GNMI_ENC_PROTO;
        else
            return bad(why, len, "--encoding: json, json_ietf or proto, not '%s'", arg);
        return 1;
    case SO_CONFIG_INTERVAL:
        if (!strcmp(arg, "never")) {
            o->gnmi.config_interval_ns = -1;
            return 1;
        }
        if (parse_duration_flag("--config-interval", arg, 0, &o->gnmi.config_interval_ns, why,
                                len) < 0)
            return -1;
        if (o->gnmi.config_interval_ns == 0)
            o->gnmi.config_interval_ns = -1; /* 0 is never, as collect always took it */
        return 1;
    case SO_PLAINTEXT: o->gnmi.plaintext = true; return 1;
    case SO_INSECURE: o->gnmi.insecure = true; return 1;
    case SO_TLS_CA: o->gnmi.tls_ca = arg; return 1;
    case SO_TLS_CERT: o->gnmi.tls_cert = arg; return 1;
    case SO_TLS_KEY: o->gnmi.tls_key = arg; return 1;
    case SO_TLS_SERVER_NAME: o->gnmi.tls_server_name = arg; return 1;
    case SO_CREDENTIALS: o->gnmi.credentials = arg; return 1;
    case SO_TIMEOUT:
        return parse_duration_flag("--timeout", arg, 1000000, &o->gnmi.timeout_ns, why, len);
    case SO_MAX_MESSAGE:
        if (dcb_parse_bytes(arg, &bytes, &err) < 0 || bytes < 1024 || bytes > (1u << 30))
            return bad(why, len, "--max-message: a size from 1KiB to 1GiB, not '%s'", arg);
        o->gnmi.max_message = (size_t)bytes;
        return 1;
    case SO_GNMI_PATH_RETRY:
        return parse_duration_flag("--gnmi-path-retry", arg, 100000000, &o->gnmi.path_retry_ns, why,
                                   len);
    }
    return 0;
}

static int take_local(struct source_opts *o, int code, const char *arg)
{
    switch (code) {
    case SO_LOCAL: o->named |= SOURCE_G_LOCAL; return 1;
    case SO_SYSFS_ROOT: o->local.sysfs_root = arg; return 1;
    case SO_PROC_ROOT: o->local.proc_root = arg; return 1;
    case SO_IFNAME: o->local.pattern = arg; return 1;
    case SO_MAPS: o->local.maps_dir = o->gnmi.maps_dir = arg; return 1;
    case SO_DEVICE: o->local.device = o->gnmi.device = o->pcap.device = arg; return 1;
    case SO_NO_LLDP: o->local.no_lldp = true; return 1;
    }
    return 0;
}

static int take_store_replay(struct source_opts *o, int code, const char *arg, char *why,
                             size_t len)
{
    switch (code) {
    case SO_STORE:
        o->store.path = arg;
        o->named |= SOURCE_G_STORE;
        return 1;
    case SO_AT:
        if (parse_at(arg, &o->store.at_ns, &o->store.before_end_ns) < 0)
            return bad(why, len,
                       "--at takes Unix seconds, YYYY-MM-DDTHH:MM:SSZ or -DURATION "
                       "(before the store's end), not '%s'",
                       arg);
        return 1;
    case SO_WINDOW: return parse_duration_flag("--window", arg, 1, &o->store.window_ns, why, len);
    case SO_REPLAY:
        o->replay.scenario = arg;
        o->demo = false;
        o->named |= SOURCE_G_REPLAY;
        return 1;
    case SO_DEMO:
        o->replay.scenario = NULL;
        o->demo = true;
        o->named |= SOURCE_G_REPLAY;
        return 1;
    case SO_SET:
        if (!strchr(arg, '='))
            return bad(why, len, "--set takes PATH=VALUE, not '%s'", arg);
        if (o->replay.nsets == SOURCE_REPLAY_SETS_MAX)
            return bad(why, len, "at most %d --set", SOURCE_REPLAY_SETS_MAX);
        o->replay.sets[o->replay.nsets++] = arg;
        return 1;
    case SO_REPLAY_SPEED: return parse_factor("--replay-speed", arg, &o->replay.speed, why, len);
    }
    return 0;
}

static int take_pcap_prom(struct source_opts *o, int code, const char *arg, char *why, size_t len)
{
    struct dcb_err err;
    char *end;
    switch (code) {
    case SO_PCAP:
        o->pcap.path = arg;
        o->named |= SOURCE_G_PCAP;
        return 1;
    case SO_LINK_SPEED:
        if (dcb_parse_speed(arg, &o->pcap.link_bps, &err) < 0 || !o->pcap.link_bps)
            return bad(why, len, "--link-speed: %s",
                       o->pcap.link_bps ? err.msg : "must be more than 0");
        o->pcap.link_speed_given = true;
        return 1;
    case SO_LOSSLESS:
        o->pcap.lossless_given = true;
        return parse_lossless(arg, &o->pcap.lossless_mask, why, len);
    case SO_MAX_QPS:
        errno = 0;
        long qps = strtol(arg, &end, 10);
        if (end == arg || *end || errno || qps < 1 || qps > (1L << 26))
            return bad(why, len, "--max-qps takes a whole number from 1 to %ld, not '%s'", 1L << 26,
                       arg);
        o->pcap.max_qps = (uint32_t)qps;
        return 1;
    case SO_STORM_MS: {
        errno = 0;
        long v = strtol(arg, &end, 10);
        if (end == arg || *end || errno || v < 1 || v > 3600000)
            return bad(why, len, "--storm-ms takes a whole number from 1 to 3600000, not '%s'",
                       arg);
        o->pcap.storm_ns = v * 1000000LL;
        return 1;
    }
    case SO_PCAP_SPEED: return parse_factor("--pcap-speed", arg, &o->pcap.speed, why, len);
    case SO_PROMETHEUS:
        if (strncmp(arg, "http://", 7) != 0 && strncmp(arg, "https://", 8) != 0)
            return bad(why, len, "--prometheus takes an http:// or https:// URL, not '%s'", arg);
        o->prometheus.url = arg;
        o->named |= SOURCE_G_PROMETHEUS;
        return 1;
    case SO_MATCH: o->prometheus.match = arg; return 1;
    case SO_STEP:
        return parse_duration_flag("--step", arg, 1000000, &o->prometheus.step_ns, why, len);
    case SO_FABRIC:
        o->fabric = arg;
        o->named |= SOURCE_G_FABRIC;
        return 1;
    }
    return 0;
}

int source_opts_take(struct source_opts *o, int code, const char *arg, char *why, size_t len)
{
    if (code < SO_LOCAL || code >= SO_END)
        return 0;
    int rc = take_local(o, code, arg);
    if (!rc)
        rc = take_gnmi(o, code, arg, why, len);
    if (!rc)
        rc = take_store_replay(o, code, arg, why, len);
    if (!rc)
        rc = take_pcap_prom(o, code, arg, why, len);
    return rc;
}

int source_opts_check(const struct source_opts *o, char *why, size_t len)
{
    const struct source_gnmi_options *g = &o->gnmi;
    if (g->plaintext && (g->insecure || g->tls_ca || g->tls_cert))
        return bad(why, len,
                   "--plaintext turns TLS off; it cannot go with --insecure or "
                   "--tls-* options");
    if (!g->tls_cert != !g->tls_key)
        return bad(why, len, "--tls-cert and --tls-key go together");
    if ((o->named & SOURCE_G_GNMI) && !g->naddresses && !o->fabric)
        return bad(why, len, "--gnmi all polls the devices of a fabric file: give --fabric FILE");
    if (g->naddresses > 1 && g->device)
        return bad(why, len,
                   "--device names one switch; with several --gnmi each is named by "
                   "its HOST:PORT");
    if ((o->store.at_ns || o->store.before_end_ns) && !o->store.path)
        return bad(why, len, "--at needs --store DB");
    if (o->replay.nsets && !(o->named & SOURCE_G_REPLAY))
        return bad(why, len, "--set changes a replay: give --replay SCENARIO or --demo");
    return 0;
}

/* ---- opening ----------------------------------------------------------------------------- */

static int open_one(const struct source_opts *o, enum dcb_source_kind k, unsigned flags,
                    struct dcb_source *src, struct dcb_err *err)
{
    switch (k) {
    case SOURCE_LOCAL: return dcb_source_local_open(src, &o->local, err);
    case SOURCE_GNMI: {
        struct source_gnmi_options *g = malloc(sizeof(*g));
        if (!g)
            return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
        *g = o->gnmi;
        g->fabric = o->fabric;
        int rc = dcb_source_gnmi_open(src, g, err);
        free(g);
        /* a switch's counters come raw: their resets are found in the one stage for it */
        if (rc == 0 && dcb_source_watch_resets(src, err) < 0) {
            dcb_source_close(src);
            return -1;
        }
        return rc;
    }
    case SOURCE_STORE: {
        int rc = dcb_source_store_open(src, o->store.path, o->store.at_ns, o->store.window_ns, err);
        if (rc == 0 && o->store.before_end_ns)
            dcb_source_store_at_before_end(src, o->store.before_end_ns);
        return rc;
    }
    case SOURCE_REPLAY: {
        struct source_replay_options r = o->replay;
        r.fast = flags & SOURCE_OPEN_FAST;
        return dcb_source_replay_open(src, &r, err);
    }
    case SOURCE_PCAP: {
        struct source_pcap_options p = o->pcap;
        p.fast = flags & SOURCE_OPEN_FAST;
        return dcb_source_pcap_open(src, &p, err);
    }
    case SOURCE_PROMETHEUS: return dcb_source_prometheus_open(src, &o->prometheus, err);
    case SOURCE_FABRIC: return dcb_source_fabric_open(src, o->fabric, err);
    default: return dcb_err_set(err, DCB_E_INVAL, "no such source");
    }
}

/* What the source is called in an error: its file, address or flag. */
static const char *what_of(const struct source_opts *o, enum dcb_source_kind k)
{
    switch (k) {
    case SOURCE_GNMI: return o->gnmi.naddresses ? o->gnmi.addresses[0] : o->fabric;
    case SOURCE_STORE: return o->store.path;
    case SOURCE_REPLAY: return o->replay.scenario ? o->replay.scenario : "--demo";
    case SOURCE_PCAP: return o->pcap.path;
    case SOURCE_PROMETHEUS: return o->prometheus.url;
    case SOURCE_FABRIC: return o->fabric;
    default: return "local";
    }
}

static int open_named(const struct source_opts *o, enum dcb_source_kind k, unsigned flags,
                      struct dcb_source *src, struct dcb_err *err)
{
    int rc = open_one(o, k, flags, src, err);
    if (rc < 0) {
        char msg[sizeof(err->msg)];
        snprintf(msg, sizeof(msg), "%s", err->msg);
        const char *what = what_of(o, k);
        /* most errors already start with the file's name */
        if (strncmp(msg, what, strlen(what)) != 0)
            dcb_err_set(err, rc, "%s: %s", what, msg);
    }
    return rc;
}

int source_opts_open(const struct source_opts *o, struct dcb_sink sink, int64_t interval_ns,
                     unsigned flags, struct dcb_source *src, struct dcb_err *err)
{
    unsigned kinds = o->named;
    /* the fabric file is the gNMI source's device list when gNMI is named; its intent still
     * comes with it (the gNMI source gives it) */
    if ((kinds & SOURCE_G_GNMI) && o->fabric)
        kinds &= ~SOURCE_G_FABRIC;
    memset(src, 0, sizeof(*src));
    src->sink = sink;
    src->interval_ns = interval_ns;
    if (!kinds)
        return dcb_err_set(err, DCB_E_INVAL, "no source named");
    if (!(kinds & (kinds - 1))) {
        for (int k = 0; k < SOURCE_SET; k++)
            if (kinds == 1u << k)
                return open_named(o, (enum dcb_source_kind)k, flags, src, err);
    }
    if (dcb_source_set_open(src, err) < 0)
        return -1;
    for (int k = 0; k < SOURCE_SET; k++) {
        if (!(kinds & (1u << k)))
            continue;
        struct dcb_source *m = dcb_source_set_next(src);
        if (!m || open_named(o, (enum dcb_source_kind)k, flags, m, err) < 0) {
            dcb_source_close(src);
            return m ? -1 : dcb_err_set(err, DCB_E_INVAL, "too many sources");
        }
        dcb_source_set_commit(src);
    }
    return 0;
}

/* ---- help --------------------------------------------------------------------------------- */

const struct source_option_doc source_option_docs[] = {
    { SOURCE_G_LOCAL, "--local",
      "This host: netdev, ethtool (SIOCETHTOOL) and RDMA hw_counters, "
      "dcbnl config, DCQCN knobs, LLDP partners." },
    { SOURCE_G_LOCAL, "--sysfs-root DIR",
      "Read a sysfs tree saved elsewhere instead of /sys "
      "(no ioctl then)." },
    { SOURCE_G_LOCAL, "--proc-root DIR",
      "A folder holding net/dev, for netdev counters without "
      "sysfs statistics." },
    { SOURCE_G_LOCAL, "--ifname PATTERN",
      "Interfaces to read, a shell pattern (default: all "
      "but lo)." },
    { SOURCE_G_LOCAL | SOURCE_G_GNMI, "--maps DIR",
      "Counter maps (default: $DCBKIT_MAPS or "
      "the installed maps)." },
    { SOURCE_G_LOCAL | SOURCE_G_GNMI | SOURCE_G_PCAP, "--device NAME",
      "The device name the "
      "data carries (default: the host name; a single --gnmi target's HOST:PORT)." },
    { SOURCE_G_LOCAL, "--no-lldp", "Do not listen for LLDP partners." },
    { SOURCE_G_GNMI, "--gnmi HOST:PORT",
      "A switch over gNMI (repeatable). --gnmi all with "
      "--fabric FILE: every device of the fabric whose reach is gNMI." },
    { SOURCE_G_GNMI, "--map NAME",
      "The vendor counter map: sonic, openconfig (default), "
      "srlinux." },
    { SOURCE_G_GNMI, "--gnmi-mode stream|poll|once",
      "How counters come: a SAMPLE stream at "
      "the interval (default), a POLL every interval on one long-lived call, or a ONCE "
      "subscription every interval. A target that answers UNIMPLEMENTED to Subscribe is polled "
      "with Get." },
    { SOURCE_G_GNMI, "--encoding json|json_ietf|proto",
      "The encoding asked for (default "
      "json_ietf)." },
    { SOURCE_G_GNMI, "--config-interval DURATION|never",
      "How often the QoS config is read "
      "with Get (default: once at start; 0 or never: not at all)." },
    { SOURCE_G_GNMI, "--plaintext", "No TLS: gRPC over cleartext HTTP/2 (h2c)." },
    { SOURCE_G_GNMI, "--insecure",
      "TLS without verifying the target's certificate (lab use "
      "only)." },
    { SOURCE_G_GNMI, "--tls-ca FILE",
      "CA certificates that sign the target's certificate "
      "(default: the system's). TLS with verification is the default." },
    { SOURCE_G_GNMI, "--tls-cert FILE, --tls-key FILE",
      "Client certificate and key, for "
      "mutual TLS." },
    { SOURCE_G_GNMI, "--tls-server-name NAME",
      "Verify the certificate against NAME instead "
      "of the host." },
    { SOURCE_G_GNMI, "--credentials FILE",
      "Username and password from a file of 'username: "
      "NAME' and 'password: SECRET' lines that only its owner may read (mode 0600). Without "
      "it, DCBKIT_GNMI_USERNAME and DCBKIT_GNMI_PASSWORD when set. Never on the command line." },
    { SOURCE_G_GNMI, "--timeout DURATION",
      "Deadline of each gNMI call and poll answer; a "
      "stream silent for this long plus two intervals is reconnected (default 10s)." },
    { SOURCE_G_GNMI, "--max-message SIZE",
      "Refuse gRPC messages larger than this (default "
      "16MiB)." },
    { SOURCE_G_GNMI, "--gnmi-path-retry DURATION",
      "A path the target rejects (NOT_FOUND, "
      "INVALID_ARGUMENT, UNIMPLEMENTED: a SONiC without the PFC watchdog has no Pfcwd table) is "
      "dropped, said once, and asked for again this often (default 5m); the other paths flow "
      "meanwhile." },
    { SOURCE_G_STORE, "--store DB", "A store that dcbkit collect, replay or serve wrote." },
    { SOURCE_G_STORE, "--at TIME",
      "With --store: stand at Unix seconds, YYYY-MM-DDTHH:MM:SSZ, "
      "or -DURATION before the store's newest data (default: follow the newest data)." },
    { SOURCE_G_STORE, "--window DURATION",
      "With --store: how much history before that time "
      "to read (at least three of the store's sample spacings; dcbtop takes rates over its "
      "refresh interval, or over the store's own spacing where that is longer)." },
    { SOURCE_G_REPLAY, "--replay SCENARIO",
      "The embedded simulator on a scenario file "
      "(docs/scenario.md)." },
    { SOURCE_G_REPLAY, "--demo", "The simulator on the built-in demo: " SCENARIO_DEMO_SUMMARY "." },
    { SOURCE_G_REPLAY, "--set PATH=VALUE",
      "Change one scenario field by its dotted path "
      "(repeatable)." },
    { SOURCE_G_REPLAY, "--replay-speed X",
      "Simulated seconds per wall second where the "
      "replay runs in real time (default 1)." },
    { SOURCE_G_PCAP, "--pcap FILE",
      "A capture (pcap or pcapng): its pauses, PFC, CE marks, "
      "CNPs, NAKs and DCBX peers, as dcbkit analyze reads them." },
    { SOURCE_G_PCAP, "--link-speed SPEED",
      "With --pcap: the link speed that turns pause "
      "quanta into time (default 400G)." },
    { SOURCE_G_PCAP, "--lossless LIST",
      "With --pcap: the lossless priorities, such as 3 or "
      "3,4 (default: the capture's DCBX PFC masks)." },
    { SOURCE_G_PCAP, "--storm-ms MS", "With --pcap: a pause longer than this is a storm." },
    { SOURCE_G_PCAP, "--max-qps N",
      "With --pcap: QPs tracked one by one (default 262144); "
      "packets of later QPs are counted as untracked." },
    { SOURCE_G_PCAP, "--pcap-speed X",
      "With --pcap where it plays in real time: capture "
      "seconds per wall second (default 1)." },
    { SOURCE_G_PROMETHEUS, "--prometheus URL",
      "A Prometheus server that scrapes dcbkit "
      "serve: the window is read back with query_range." },
    { SOURCE_G_PROMETHEUS, "--match LABELS",
      "With --prometheus: extra label matchers, such "
      "as job=\"dcbkit\"." },
    { SOURCE_G_PROMETHEUS, "--step DURATION",
      "With --prometheus: the query resolution "
      "(default: the window / 240)." },
    { SOURCE_G_FABRIC, "--fabric FILE",
      "The fabric file: devices, links and intended QoS "
      "config (docs/fabric.md). By itself it opens no connection; with --gnmi all its gNMI "
      "devices are polled." },
    { 0, NULL, NULL },
};
