/* The Prometheus text exposition format (version 0.0.4), written from canonical samples: what
 * `dcbkit serve` answers on /metrics. Names and units come from the metric registry
 * (metric_prom_name, metric_prom_scale); label values are escaped as the format says (\\, \",
 * \n) and invalid UTF-8 becomes U+FFFD, so a hostile interface or device name cannot break the
 * page. Also the exporter's request routing and --listen parsing, kept here so that tests and
 * fuzz targets reach them. */
#ifndef DCB_PROM_H
#define DCB_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "err.h"
#include "sample.h"

#define PROM_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

/* A growing text buffer; a failed allocation sets failed and drops later writes. */
struct prom_buf {
    char *data;
    size_t len, cap;
    bool failed;
};

void prom_buf_init(struct prom_buf *b);
void prom_buf_free(struct prom_buf *b);
void prom_buf_put(struct prom_buf *b, const char *s, size_t n);
void prom_buf_printf(struct prom_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A label value between the quotes: \ " and newline escaped, invalid UTF-8 as U+FFFD. */
void prom_put_label_value(struct prom_buf *b, const char *s);
/* HELP text: \ and newline escaped, invalid UTF-8 as U+FFFD. */
void prom_put_help(struct prom_buf *b, const char *s);
/* The shortest decimal that reads back as v; NaN, +Inf, -Inf as the format spells them. */
void prom_put_double(struct prom_buf *b, double v);
/* A sample's value in the Prometheus base unit of its metric: counters exactly (microseconds
 * as seconds with six decimals), gauges scaled. */
void prom_put_sample_value(struct prom_buf *b, const struct dcb_sample *s);

/* An active finding, for dcbkit_finding{rule,severity,device,ifname,prio} 1. */
struct prom_finding {
    const char *rule, *severity, *device, *ifname;
    int prio;          /* -1: no prio label */
    const char *cause; /* "root" or "victim"; NULL: no cause label */
};

/* One evidence source's health, for dcbkit_scrape_errors_total{source} and friends. */
struct prom_source_stat {
    const char *name;   /* "local", "store", "replay", "rules" ... */
    uint64_t errors;    /* collections that failed, since start */
    uint64_t series;    /* series the last collection produced */
    double duration_s;  /* how long the last collection took */
    int64_t last_ok_ns; /* Unix time of the last good collection, 0 for none */
};

/* One known QoS config field of a port, for dcbkit_qos_config{device,ifname,source,field}. */
struct prom_config_value {
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX], source[32];
    char field[64]; /* the dotted path: "pfc.enabled", "switch.buffer.3.xoff" */
    int64_t value;  /* as stored: the unit its path names, enums as numbers */
};

/* Where a port sits, for dcbkit_topology_info{device,ifname,role,peer_device,peer_ifname,
 * peer_role} 1: what the rules' role() and peer_role() read. "" leaves a label out. */
struct prom_topology {
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX], role[8];
    char peer_device[DCB_DEVICE_MAX], peer_ifname[DCB_IFNAME_MAX], peer_role[8];
};

/* Events a source produced since the exporter started, for dcbkit_events_total. */
struct prom_event_count {
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX];
    int prio; /* -1: no prio label */
    enum dcb_event_kind kind;
    uint64_t count;
};

/* A path a device does not serve (the gNMI source's word), for
 * dcbkit_source_missing_path{device,path} 1. */
struct prom_missing_path {
    const char *device, *path;
};

struct prom_page {
    struct dcb_sample *samples; /* the newest sample of each series; sorted in place */
    size_t nsamples;
    struct prom_finding *findings; /* sorted in place; duplicates written once */
    size_t nfindings;
    const struct prom_source_stat *sources;
    size_t nsources;
    const char *version;
    const struct prom_config_value *configs;
    size_t nconfigs;
    const struct prom_event_count *events;
    size_t nevents;
    const struct prom_topology *topology;
    size_t ntopology;
    const struct prom_missing_path *missing;
    size_t nmissing;
};

/* Writes the whole page: canonical metrics in registry order, each family once with its HELP
 * and TYPE, then the findings and the exporter's own metrics. 0, or DCB_E_NOMEM. */
int prom_render_page(struct prom_buf *b, struct prom_page *page, struct dcb_err *err);

/* ---- the exporter's HTTP surface ------------------------------------------------------------ */

enum prom_route {
    PROM_ROUTE_METRICS, /* /metrics */
    PROM_ROUTE_HEALTH,  /* /healthz */
    PROM_ROUTE_INDEX,   /* / : a short page that links the others */
    PROM_ROUTE_NOT_FOUND,
    PROM_ROUTE_BAD_METHOD, /* anything but GET and HEAD: 405 */
};

/* The route of a request: method as sent, url the path with any query string (which is
 * ignored). NULL arguments are a bad request: PROM_ROUTE_NOT_FOUND. */
enum prom_route prom_route(const char *method, const char *url);

/* Whether a request's Accept-Encoding header (NULL: none sent) accepts gzip: "gzip" or
 * "x-gzip", or "*" without gzip named, at a q-value above 0 (RFC 9110 12.5.3). */
bool prom_accepts_gzip(const char *accept_encoding);

struct prom_listen {
    struct sockaddr_storage addr;
    socklen_t addrlen;
    bool loopback; /* 127.0.0.0/8 or ::1 */
    char text[80]; /* as it should be printed: 127.0.0.1:9876, [::1]:9876 */
};

/* "127.0.0.1:9876", "[::1]:9876", "0.0.0.0:9876" (numeric addresses only, port 0..65535; 0
 * asks the kernel for a free one). */
int prom_parse_listen(const char *text, struct prom_listen *out, struct dcb_err *err);

#endif
