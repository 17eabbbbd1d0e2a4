#include "prom.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <math.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "metrics.h"
#include "utf8.h"

void prom_buf_init(struct prom_buf *b)
{
    memset(b, 0, sizeof(*b));
}

void prom_buf_free(struct prom_buf *b)
{
    free(b->data);
    prom_buf_init(b);
}

static bool buf_reserve(struct prom_buf *b, size_t extra)
{
    if (b->failed)
        return false;
    if (b->len + extra + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void prom_buf_put(struct prom_buf *b, const char *s, size_t n)
{
    if (!buf_reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void prom_buf_printf(struct prom_buf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof(small)) {
        prom_buf_put(b, small, (size_t)n);
        return;
    }
    if (!buf_reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

static void put_escaped(struct prom_buf *b, const char *s, bool quote)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        const unsigned char *run = p;
        while (*p && *p != '\\' && *p != '\n' && !(quote && *p == '"') && *p < 0x80)
            p++;
        prom_buf_put(b, (const char *)run, (size_t)(p - run));
        if (!*p)
            break;
        if (*p == '\\') {
            prom_buf_put(b, "\\\\", 2);
            p++;
        } else if (*p == '\n') {
            prom_buf_put(b, "\\n", 2);
            p++;
        } else if (*p == '"') {
            prom_buf_put(b, "\\\"", 2);
            p++;
        } else {
            size_t n = dcb_utf8_seq_len(p, NULL);
            if (n) {
                prom_buf_put(b, (const char *)p, n);
                p += n;
            } else {
                prom_buf_put(b, "\xef\xbf\xbd", 3); /* U+FFFD */
                p++;
            }
        }
    }
}

void prom_put_label_value(struct prom_buf *b, const char *s)
{
    put_escaped(b, s, true);
}

void prom_put_help(struct prom_buf *b, const char *s)
{
    put_escaped(b, s, false);
}

void prom_put_double(struct prom_buf *b, double v)
{
    if (isnan(v)) {
        prom_buf_put(b, "NaN", 3);
        return;
    }
    if (isinf(v)) {
        prom_buf_printf(b, "%cInf", v > 0 ? '+' : '-');
        return;
    }
    char text[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(text, sizeof(text), "%.*g", prec, v);
        if (strtod(text, NULL) == v)
            break;
    }
    prom_buf_put(b, text, strlen(text));
}

void prom_put_sample_value(struct prom_buf *b, const struct dcb_sample *s)
{
    const struct metric_info *m = metric_info(s->metric);
    if (m && m->kind == METRIC_COUNTER) {
        uint64_t v = s->value.counter;
        if (m->unit == UNIT_MICROSECONDS)
            prom_buf_printf(b, "%" PRIu64 ".%06" PRIu64, v / 1000000u, v % 1000000u);
        else if (m->unit == UNIT_BITS_PER_SECOND)
            prom_put_double(b, (double)v * metric_prom_scale(s->metric));
        else
            prom_buf_printf(b, "%" PRIu64, v);
        return;
    }
    prom_put_double(b, s->value.gauge * metric_prom_scale(s->metric));
}

/* ---- the page ------------------------------------------------------------------------------ */

static int cmp_sample(const void *a, const void *b)
{
    const struct dcb_sample *x = a, *y = b;
    if (x->metric != y->metric)
        return x->metric < y->metric ? -1 : 1;
    int c = strcmp(x->device, y->device);
    if (c)
        return c;
    c = strcmp(x->ifname, y->ifname);
    if (c)
        return c;
    if (x->prio != y->prio)
        return x->prio < y->prio ? -1 : 1;
    return x->queue < y->queue ? -1 : x->queue > y->queue;
}

static int strcmp_null(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

static int cmp_finding(const void *a, const void *b)
{
    const struct prom_finding *x = a, *y = b;
    int c = strcmp_null(x->rule, y->rule);
    if (!c)
        c = strcmp_null(x->device, y->device);
    if (!c)
        c = strcmp_null(x->ifname, y->ifname);
    if (!c)
        c = (x->prio > y->prio) - (x->prio < y->prio);
    if (!c)
        c = strcmp_null(x->severity, y->severity);
    if (!c)
        c = strcmp_null(x->cause, y->cause);
    return c;
}

static void put_label(struct prom_buf *b, bool *first, const char *name, const char *value)
{
    prom_buf_printf(b, "%s%s=\"", *first ? "{" : ",", name);
    prom_put_label_value(b, value);
    prom_buf_put(b, "\"", 1);
    *first = false;
}

static void put_family(struct prom_buf *b, const char *name, const char *type, const char *help)
{
    prom_buf_printf(b, "# HELP %s ", name);
    prom_put_help(b, help);
    prom_buf_printf(b, "\n# TYPE %s %s\n", name, type);
}

static void put_sample_line(struct prom_buf *b, const char *name, const struct dcb_sample *s)
{
    char idx[16];
    bool first = true;
    prom_buf_put(b, name, strlen(name));
    put_label(b, &first, "device", s->device);
    put_label(b, &first, "ifname", s->ifname);
    /* prio and queue whenever set, whatever the registry says, so two series never collide */
    if (s->prio >= 0) {
        snprintf(idx, sizeof(idx), "%d", s->prio);
        put_label(b, &first, "prio", idx);
    }
    if (s->queue >= 0) {
        snprintf(idx, sizeof(idx), "%d", s->queue);
        put_label(b, &first, metric_info(s->metric)->labels == LABELS_QP ? "qp" : "queue", idx);
    }
    prom_buf_put(b, "} ", 2);
    prom_put_sample_value(b, s);
    prom_buf_put(b, "\n", 1);
}

static void put_samples(struct prom_buf *b, struct dcb_sample *v, size_t n)
{
    if (n > 1) /* v is NULL when nothing is fresh: no qsort of NULL */
        qsort(v, n, sizeof(*v), cmp_sample);
    for (size_t i = 0; i < n;) {
        const struct metric_info *m = metric_info(v[i].metric);
        size_t j = i;
        while (j < n && v[j].metric == v[i].metric)
            j++;
        if (m) {
            char name[128];
            metric_prom_name(m->id, name, sizeof(name));
            put_family(b, name, metric_kind_name(m->kind), m->help);
            for (size_t k = i; k < j; k++)
                if (k == i || cmp_sample(&v[k - 1], &v[k]) != 0)
                    put_sample_line(b, name, &v[k]);
        }
        i = j;
    }
}

static void put_findings(struct prom_buf *b, struct prom_finding *f, size_t n)
{
    put_family(b, "dcbkit_finding", "gauge",
               "A rule that fires now (1), by rule id, severity, place and cause (root or "
               "victim); see dcbkit diagnose");
    if (n > 1)
        qsort(f, n, sizeof(*f), cmp_finding);
    for (size_t i = 0; i < n; i++) {
        if (i && cmp_finding(&f[i - 1], &f[i]) == 0)
            continue;
        bool first = true;
        prom_buf_put(b, "dcbkit_finding", 14);
        put_label(b, &first, "rule", f[i].rule);
        put_label(b, &first, "severity", f[i].severity);
        put_label(b, &first, "device", f[i].device);
        put_label(b, &first, "ifname", f[i].ifname);
        if (f[i].prio >= 0) {
            char idx[16];
            snprintf(idx, sizeof(idx), "%d", f[i].prio);
            put_label(b, &first, "prio", idx);
        }
        if (f[i].cause)
            put_label(b, &first, "cause", f[i].cause);
        prom_buf_put(b, "} 1\n", 4);
    }
}

static void put_source_family(struct prom_buf *b, const struct prom_page *p, const char *name,
                              const char *type, const char *help, int which)
{
    put_family(b, name, type, help);
    for (size_t i = 0; i < p->nsources; i++) {
        const struct prom_source_stat *s = &p->sources[i];
        if (which == 3 && !s->last_ok_ns)
            continue;
        bool first = true;
        prom_buf_put(b, name, strlen(name));
        put_label(b, &first, "source", s->name);
        prom_buf_put(b, "} ", 2);
        switch (which) {
        case 0: prom_buf_printf(b, "%" PRIu64 "\n", s->errors); break;
        case 1: prom_buf_printf(b, "%" PRIu64 "\n", s->series); break;
        case 2:
            prom_put_double(b, s->duration_s);
            prom_buf_put(b, "\n", 1);
            break;
        default:
            prom_buf_printf(b, "%" PRId64 ".%09" PRId64 "\n", (int64_t)(s->last_ok_ns / 1000000000),
                            (int64_t)(s->last_ok_ns % 1000000000));
        }
    }
}

static void put_configs(struct prom_buf *b, const struct prom_config_value *c, size_t n)
{
    if (!n)
        return;
    put_family(b, "dcbkit_qos_config", "gauge",
               "A QoS config field a source knows (unknown ones are absent), as dcbkit stores it: "
               "bytes, bits/s, ms, us, millimetres for cable_m, masks and enums as numbers");
    for (size_t i = 0; i < n; i++) {
        bool first = true;
        prom_buf_put(b, "dcbkit_qos_config", 17);
        put_label(b, &first, "device", c[i].device);
        put_label(b, &first, "ifname", c[i].ifname);
        put_label(b, &first, "source", c[i].source);
        put_label(b, &first, "field", c[i].field);
        prom_buf_printf(b, "} %" PRId64 "\n", c[i].value);
    }
}

static void put_topology(struct prom_buf *b, const struct prom_topology *t, size_t n)
{
    if (!n)
        return;
    put_family(b, "dcbkit_topology_info", "gauge",
               "Where a port sits (1): its device's role and its link partner's, from the "
               "fabric file or LLDP");
    for (size_t i = 0; i < n; i++) {
        bool first = true;
        prom_buf_put(b, "dcbkit_topology_info", 20);
        put_label(b, &first, "device", t[i].device);
        put_label(b, &first, "ifname", t[i].ifname);
        if (t[i].role[0])
            put_label(b, &first, "role", t[i].role);
        if (t[i].peer_device[0])
            put_label(b, &first, "peer_device", t[i].peer_device);
        if (t[i].peer_ifname[0])
            put_label(b, &first, "peer_ifname", t[i].peer_ifname);
        if (t[i].peer_role[0])
            put_label(b, &first, "peer_role", t[i].peer_role);
        prom_buf_put(b, "} 1\n", 4);
    }
}

static void put_events(struct prom_buf *b, const struct prom_event_count *e, size_t n)
{
    if (!n)
        return;
    put_family(b, "dcbkit_events_total", "counter",
               "Events a source reported (pfc_xoff, pause_storm, watchdog, counter_reset ...) "
               "since the exporter started");
    for (size_t i = 0; i < n; i++) {
        bool first = true;
        prom_buf_put(b, "dcbkit_events_total", 19);
        put_label(b, &first, "device", e[i].device);
        put_label(b, &first, "ifname", e[i].ifname);
        if (e[i].prio >= 0) {
            char idx[16];
            snprintf(idx, sizeof(idx), "%d", e[i].prio);
            put_label(b, &first, "prio", idx);
        }
        put_label(b, &first, "kind", dcb_event_kind_name(e[i].kind));
        prom_buf_printf(b, "} %" PRIu64 "\n", e[i].count);
    }
}

static void put_missing(struct prom_buf *b, const struct prom_missing_path *m, size_t n)
{
    if (!n)
        return;
    put_family(b, "dcbkit_source_missing_path", "gauge",
               "A path of the map the device does not serve (1): the rules that need what it "
               "gives stay undecided");
    for (size_t i = 0; i < n; i++) {
        bool first = true;
        prom_buf_put(b, "dcbkit_source_missing_path", 26);
        put_label(b, &first, "device", m[i].device);
        put_label(b, &first, "path", m[i].path);
        prom_buf_put(b, "} 1\n", 4);
    }
}

int prom_render_page(struct prom_buf *b, struct prom_page *p, struct dcb_err *err)
{
    b->len = 0;
    b->failed = false;
    put_samples(b, p->samples, p->nsamples);
    put_findings(b, p->findings, p->nfindings);
    put_configs(b, p->configs, p->nconfigs);
    put_events(b, p->events, p->nevents);
    put_topology(b, p->topology, p->ntopology);
    put_missing(b, p->missing, p->nmissing);
    put_source_family(b, p, "dcbkit_scrape_errors_total", "counter",
                      "Collections from a source that failed since the exporter started", 0);
    put_source_family(b, p, "dcbkit_source_series", "gauge",
                      "Series the last collection from a source produced", 1);
    put_source_family(b, p, "dcbkit_collect_duration_seconds", "gauge",
                      "How long the last collection from a source took", 2);
    put_source_family(b, p, "dcbkit_last_collect_timestamp_seconds", "gauge",
                      "Unix time of the last good collection from a source", 3);
    put_family(b, "dcbkit_build_info", "gauge", "The dcbkit version that serves this page");
    prom_buf_put(b, "dcbkit_build_info{version=\"", 27);
    prom_put_label_value(b, p->version ? p->version : "");
    prom_buf_put(b, "\"} 1\n", 5);
    if (b->failed)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory for the metrics page");
    return 0;
}

/* ---- routing and --listen ------------------------------------------------------------------ */

static bool path_is(const char *url, const char *path)
{
    size_t n = strlen(path);
    return strncmp(url, path, n) == 0 && (url[n] == '\0' || url[n] == '?');
}

enum prom_route prom_route(const char *method, const char *url)
{
    if (!method || !url)
        return PROM_ROUTE_NOT_FOUND;
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return PROM_ROUTE_BAD_METHOD;
    if (path_is(url, "/metrics"))
        return PROM_ROUTE_METRICS;
    if (path_is(url, "/healthz"))
        return PROM_ROUTE_HEALTH;
    if (path_is(url, "/"))
        return PROM_ROUTE_INDEX;
    return PROM_ROUTE_NOT_FOUND;
}

/* The q-value of one "coding;q=0.5" element (1 when none is given). */
static double coding_q(const char *params, size_t n)
{
    for (const char *p = params; p < params + n; p++) {
        if (*p != ';')
            continue;
        p++;
        while (p < params + n && (*p == ' ' || *p == '\t'))
            p++;
        if (p + 2 <= params + n && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=')
            return strtod(p + 2, NULL);
    }
    return 1;
}

bool prom_accepts_gzip(const char *accept_encoding)
{
    if (!accept_encoding)
        return false;
    double gzip = -1, star = -1; /* -1: not named */
    const char *p = accept_encoding;
    while (*p) {
        size_t n = strcspn(p, ",");
        const char *c = p;
        while (c < p + n && (*c == ' ' || *c == '\t'))
            c++;
        size_t len = strcspn(c, " \t;,");
        if (c + len > p + n)
            len = (size_t)(p + n - c);
        double q = coding_q(c + len, (size_t)(p + n - (c + len)));
        if ((len == 4 && !strncasecmp(c, "gzip", 4)) || (len == 6 && !strncasecmp(c, "x-gzip", 6)))
            gzip = q;
        else if (len == 1 && *c == '*')
            star = q;
        p += n;
        if (*p == ',')
            p++;
    }
    return gzip >= 0 ? gzip > 0 : star > 0;
}

int prom_parse_listen(const char *text, struct prom_listen *out, struct dcb_err *err)
{
    memset(out, 0, sizeof(*out));
    if (!text || !*text)
        return dcb_err_set(err, DCB_E_INVAL,
                           "empty address; give ADDRESS:PORT, e.g. "
                           "127.0.0.1:9876");
    char host[64];
    const char *port;
    bool v6 = text[0] == '[';
    if (v6) {
        const char *close = strchr(text, ']');
        if (!close || close[1] != ':' || (size_t)(close - text - 1) >= sizeof(host))
            return dcb_err_set(err, DCB_E_INVAL,
                               "'%s': an IPv6 address is written "
                               "[ADDRESS]:PORT, e.g. [::1]:9876",
                               text);
        memcpy(host, text + 1, (size_t)(close - text - 1));
        host[close - text - 1] = '\0';
        port = close + 2;
    } else {
        const char *colon = strrchr(text, ':');
        if (!colon || colon == text || (size_t)(colon - text) >= sizeof(host))
            return dcb_err_set(err, DCB_E_INVAL,
                               "'%s': give ADDRESS:PORT, e.g. "
                               "127.0.0.1:9876",
                               text);
        memcpy(host, text, (size_t)(colon - text));
        host[colon - text] = '\0';
        port = colon + 1;
    }
    char *end;
    unsigned long p = strtoul(port, &end, 10);
    if (!*port || *end || p > 65535 || *port == '-' || *port == '+' || *port == ' ')
        return dcb_err_set(err, DCB_E_INVAL, "'%s': the port is a number from 0 to 65535", text);
    if (v6) {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)&out->addr;
        if (inet_pton(AF_INET6, host, &a->sin6_addr) != 1)
            return dcb_err_set(err, DCB_E_INVAL, "'%s' is not a numeric IPv6 address", host);
        a->sin6_family = AF_INET6;
        a->sin6_port = htons((uint16_t)p);
        out->addrlen = sizeof(*a);
        out->loopback = IN6_IS_ADDR_LOOPBACK(&a->sin6_addr);
        snprintf(out->text, sizeof(out->text), "[%s]:%lu", host, p);
    } else {
        struct sockaddr_in *a = (struct sockaddr_in *)&out->addr;
        if (inet_pton(AF_INET, host, &a->sin_addr) != 1)
            return dcb_err_set(err, DCB_E_INVAL,
                               "'%s' is not a numeric IPv4 address (for IPv6 "
                               "write [ADDRESS]:PORT)",
                               host);
        a->sin_family = AF_INET;
        a->sin_port = htons((uint16_t)p);
        out->addrlen = sizeof(*a);
        out->loopback = (ntohl(a->sin_addr.s_addr) >> 24) == 127;
        snprintf(out->text, sizeof(out->text), "%s:%lu", host, p);
    }
    return 0;
}
