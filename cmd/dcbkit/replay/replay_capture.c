/* dcbkit replay --workload-from: a capture's RoCEv2 data flows (QP records of the tracker that
 * 'dcbkit analyze' uses) become explicit flows between the fabric's hosts. The simulator never
 * opens a capture. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_file.h"
#include "decode.h"
#include "replay_cmd.h"
#include "track_set.h"

#define MAX_ADDRS 4096
#define SPORT_BASE 49152u

struct capture_ctx {
    struct track_set t;
    int64_t last_ns;
};

static bool on_packet(void *arg, const struct capture_packet *p)
{
    static struct dcb_frame frame;
    struct capture_ctx *c = arg;
    c->last_ns = p->ts_ns;
    if (dcb_decode_link_frame(p->linktype, p->data, p->caplen, p->len, &frame))
        track_set_frame(&c->t, p->ts_ns, p->iface, &frame);
    return true;
}

static void addr_text(const struct qp_flow *q, const uint8_t *a, char *buf, size_t len)
{
    if (!inet_ntop(q->ipver == 6 ? AF_INET6 : AF_INET, a, buf, (socklen_t)len))
        snprintf(buf, len, "?");
}

struct addr_map {
    char addr[INET6_ADDRSTRLEN];
    const char *host;
};

/* The host an address stands for: --host-map, else the next host of the fabric not yet taken. */
static const char *host_of(struct addr_map *m, size_t *n, const char *addr,
                           const char **hosts, size_t nhosts, size_t *next,
                           struct dcb_err *err)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp(m[i].addr, addr))
            return m[i].host;
    while (*next < nhosts) {
        const char *h = hosts[(*next)++];
        bool taken = false;
        for (size_t i = 0; i < *n && !taken; i++)
            taken = !strcmp(m[i].host, h);
        if (taken)
            continue;
        if (*n == MAX_ADDRS)
            break;
        snprintf(m[*n].addr, sizeof(m[*n].addr), "%s", addr);
        m[*n].host = h;
        (*n)++;
        return h;
    }
    dcb_err_set(err, DCB_E_RANGE, "the capture has more addresses than the fabric has hosts "
                "(%zu); map them with --host-map", nhosts);
    return NULL;
}

int replay_workload_from_capture(const char *path, const struct fabric *f,
                                 const char *const *map, size_t nmap, struct workload *w,
                                 struct dcb_err *err)
{
    struct capture_ctx c;
    memset(&c, 0, sizeof(c));
    if (track_set_init(&c.t, 100000000000ULL, 0, 0, NULL) < 0)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    struct dcb_err inner;
    int rc = capture_file_read(path, NULL, on_packet, &c, &inner);
    if (rc < 0) {
        track_set_free(&c.t);
        return dcb_err_set(err, rc, "--workload-from %s", inner.msg);
    }
    track_set_finish(&c.t, c.last_ns);
    size_t nhosts = workload_hosts(f, NULL, 0);
    const char **hosts = calloc(nhosts ? nhosts : 1, sizeof(*hosts));
    struct addr_map *m = calloc(MAX_ADDRS, sizeof(*m));
    if (!hosts || !m) {
        free(hosts);
        free(m);
        track_set_free(&c.t);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    }
    workload_hosts(f, hosts, nhosts);
    size_t n = 0, next = 0;
    for (size_t i = 0; i < nmap && rc == 0; i++) {
        const char *eq = strchr(map[i], '=');
        const struct fabric_device *d = fabric_find_device(f, eq + 1);
        unsigned char probe[16];
        char addr[INET6_ADDRSTRLEN];
        snprintf(addr, sizeof(addr), "%.*s", (int)(eq - map[i]), map[i]);
        if (inet_pton(AF_INET, addr, probe) != 1 && inet_pton(AF_INET6, addr, probe) != 1)
            rc = dcb_err_set(err, DCB_E_INVAL, "--host-map %s: '%s' is not an IP address", map[i],
                             addr);
        else if (!d || d->role != FABRIC_HOST)
            rc = dcb_err_set(err, DCB_E_NOTFOUND, "--host-map %s: no host \"%s\" in the fabric",
                             map[i], eq + 1);
        else if (n < MAX_ADDRS) {
            inet_ntop(strchr(addr, ':') ? AF_INET6 : AF_INET, probe, m[n].addr,
                      sizeof(m[n].addr));
            m[n++].host = d->name;
        }
    }
    /* data flows only: those that carried a PSN stream with payload */
    int64_t t0 = INT64_MAX;
    for (uint32_t i = 0; i < c.t.qps.nflows; i++) {
        const struct qp_flow *q = &c.t.qps.flows[i];
        if (q->data_packets && q->first_ns < t0)
            t0 = q->first_ns;
    }
    workload_init(w);
    w->type = WORKLOAD_FLOWS;
    for (uint32_t i = 0; i < c.t.qps.nflows && rc == 0; i++) {
        const struct qp_flow *q = &c.t.qps.flows[i];
        if (!q->data_packets || !q->goodput_bytes)
            continue;
        char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
        addr_text(q, q->src, src, sizeof(src));
        addr_text(q, q->dst, dst, sizeof(dst));
        const char *hs = host_of(m, &n, src, hosts, nhosts, &next, err);
        const char *hd = hs ? host_of(m, &n, dst, hosts, nhosts, &next, err) : NULL;
        if (!hs || !hd) {
            rc = DCB_E_RANGE;
            break;
        }
        if (!strcmp(hs, hd)) {
            rc = dcb_err_set(err, DCB_E_INVAL, "--host-map puts %s and %s on one host (%s)", src,
                             dst, hs);
            break;
        }
        uint8_t dscp = 0;
        while (dscp < 63 && !((q->dscp_seen >> dscp) & 1))
            dscp++;
        uint64_t payload = q->goodput_bytes / q->data_packets;
        if (payload < 1)
            payload = 1;
        if (payload > 9000)
            payload = 9000;
        rc = workload_add(w, hs, hd, q->goodput_bytes, q->first_ns - t0, dscp,
                          (uint16_t)(SPORT_BASE + q->dqpn % 16384), (uint32_t)payload, err);
    }
    if (rc == 0 && w->nflows == 0)
        rc = dcb_err_set(err, DCB_E_INVAL, "--workload-from %s: no RoCEv2 data flows in the "
                         "capture", path);
    if (rc < 0)
        workload_free(w);
    free(hosts);
    free(m);
    track_set_free(&c.t);
    return rc;
}
