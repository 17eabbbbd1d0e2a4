/* A capture's RoCEv2 data flows (QP records of the tracker that 'dcbkit analyze' uses) become
 * explicit flows between the fabric's hosts (`dcbkit replay --workload-from`). The simulator
 * never opens a capture: this reader hands it a workload. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_file.h"
#include "decode.h"
#include "capture_workload.h"
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
static const char *host_of(struct addr_map *m, size_t *n, const char *addr, const char **hosts,
                           size_t nhosts, size_t *next, struct dcb_err *err)
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
    dcb_err_set(err, DCB_E_RANGE,
                "the capture has more addresses than the fabric has hosts "
                "(%zu); map them with --host-map",
                nhosts);
    return NULL;
}

/* The --host-map entries ("192.168.10.1=host1") into m. */
static int map_hosts(const struct fabric *f, const char *const *map, size_t nmap,
                     struct addr_map *m, size_t *n, struct dcb_err *err)
{
    for (size_t i = 0; i < nmap; i++) {
        const char *eq = strchr(map[i], '=');
        const struct fabric_device *d = fabric_find_device(f, eq + 1);
        unsigned char probe[16];
        char addr[INET6_ADDRSTRLEN];
        snprintf(addr, sizeof(addr), "%.*s", (int)(eq - map[i]), map[i]);
        if (inet_pton(AF_INET, addr, probe) != 1 && inet_pton(AF_INET6, addr, probe) != 1)
            return dcb_err_set(err, DCB_E_INVAL, "--host-map %s: '%s' is not an IP address", map[i],
                               addr);
        if (!d || d->role != FABRIC_HOST)
            return dcb_err_set(err, DCB_E_NOTFOUND,
                               "--host-map %s: no host \"%s\" in the "
                               "fabric",
                               map[i], eq + 1);
        if (*n < MAX_ADDRS) {
            inet_ntop(strchr(addr, ':') ? AF_INET6 : AF_INET, probe, m[*n].addr,
                      sizeof(m[*n].addr));
            m[(*n)++].host = d->name;
        }
    }
    return 0;
}

struct host_pick {
    struct addr_map *m;
    size_t n, next, nhosts;
    const char **hosts;
};

/* One QP's data as a flow between the hosts its addresses stand for. */
static int add_flow(struct workload *w, struct host_pick *hp, const struct qp_flow *q, int64_t t0,
                    struct dcb_err *err)
{
    char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
    addr_text(q, q->src, src, sizeof(src));
    addr_text(q, q->dst, dst, sizeof(dst));
    const char *hs = host_of(hp->m, &hp->n, src, hp->hosts, hp->nhosts, &hp->next, err);
    const char *hd = hs ? host_of(hp->m, &hp->n, dst, hp->hosts, hp->nhosts, &hp->next, err) : NULL;
    if (!hs || !hd)
        return DCB_E_RANGE;
    if (!strcmp(hs, hd))
        return dcb_err_set(err, DCB_E_INVAL, "--host-map puts %s and %s on one host (%s)", src, dst,
                           hs);
    uint8_t dscp = 0;
    while (dscp < 63 && !((q->dscp_seen >> dscp) & 1))
        dscp++;
    uint64_t payload = q->goodput_bytes / q->data_packets;
    if (payload < 1)
        payload = 1;
    if (payload > 9000)
        payload = 9000;
    return workload_add(w, hs, hd, q->goodput_bytes, q->first_ns - t0, dscp,
                        (uint16_t)(SPORT_BASE + q->dqpn % 16384), (uint32_t)payload, err);
}

/* Data flows only: those that carried a PSN stream with payload, timed from the first. */
static int flows_of(const struct qp_tracker *qps, struct host_pick *hp, struct workload *w,
                    struct dcb_err *err)
{
    int64_t t0 = INT64_MAX;
    for (uint32_t i = 0; i < qps->nflows; i++)
        if (qps->flows[i].data_packets && qps->flows[i].first_ns < t0)
            t0 = qps->flows[i].first_ns;
    workload_init(w);
    w->type = WORKLOAD_FLOWS;
    int rc = 0;
    for (uint32_t i = 0; i < qps->nflows && rc == 0; i++)
        if (qps->flows[i].data_packets && qps->flows[i].goodput_bytes)
            rc = add_flow(w, hp, &qps->flows[i], t0, err);
    return rc;
}

int capture_workload_read(const char *path, const struct fabric *f, const char *const *map,
                          size_t nmap, struct workload *w, struct dcb_err *err)
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
    struct host_pick hp = { .nhosts = workload_hosts(f, NULL, 0) };
    hp.hosts = calloc(hp.nhosts ? hp.nhosts : 1, sizeof(*hp.hosts));
    hp.m = calloc(MAX_ADDRS, sizeof(*hp.m));
    if (!hp.hosts || !hp.m)
        rc = dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    if (rc == 0) {
        workload_hosts(f, hp.hosts, hp.nhosts);
        rc = map_hosts(f, map, nmap, hp.m, &hp.n, err);
    }
    if (rc == 0)
        rc = flows_of(&c.t.qps, &hp, w, err);
    if (rc == 0 && w->nflows == 0)
        rc = dcb_err_set(err, DCB_E_INVAL,
                         "--workload-from %s: no RoCEv2 data flows in the "
                         "capture",
                         path);
    if (rc < 0)
        workload_free(w);
    free(hp.hosts);
    free(hp.m);
    track_set_free(&c.t);
    return rc;
}
