/* A live capture through libpcap; see capture_live.h. */
#include "capture_live.h"

#include <string.h>

#define LIVE_SNAPLEN 262144
#define LIVE_BUFFER_BYTES (16 << 20)
#define READ_MAX_FRAMES 1000000 /* per call, so a flood cannot hold off the next tick */

int capture_live_open(struct capture_live *c, const char *ifname, const char *filter,
                      struct dcb_err *err)
{
    char errbuf[PCAP_ERRBUF_SIZE] = "";
    memset(c, 0, sizeof(*c));
    c->fd = -1;
    pcap_t *p = pcap_create(ifname, errbuf);
    if (!p)
        return dcb_err_set(err, DCB_E_INVAL, "%s: %s", ifname, errbuf);
    pcap_set_snaplen(p, LIVE_SNAPLEN);
    pcap_set_promisc(p, 1);
    pcap_set_buffer_size(p, LIVE_BUFFER_BYTES);
    pcap_set_tstamp_precision(p, PCAP_TSTAMP_PRECISION_NANO);
    pcap_set_immediate_mode(p, 1);
    int rc = pcap_activate(p);
    if (rc < 0) {
        int code = rc == PCAP_ERROR_PERM_DENIED      ? DCB_E_PERM
                   : rc == PCAP_ERROR_NO_SUCH_DEVICE ? DCB_E_NOTFOUND
                                                     : DCB_E_IO;
        dcb_err_set(err, code, "%s: %s", ifname,
                    code == DCB_E_PERM ? "capturing needs CAP_NET_RAW (run as root)"
                    : rc == PCAP_ERROR ? pcap_geterr(p)
                                       : pcap_statustostr(rc));
        pcap_close(p);
        return code;
    }
    if (filter && filter[0]) {
        struct bpf_program prog;
        if (pcap_compile(p, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) < 0) {
            dcb_err_set(err, DCB_E_INVAL, "filter '%s': %s", filter, pcap_geterr(p));
            pcap_close(p);
            return DCB_E_INVAL;
        }
        rc = pcap_setfilter(p, &prog);
        pcap_freecode(&prog);
        if (rc < 0) {
            dcb_err_set(err, DCB_E_INVAL, "filter '%s': %s", filter, pcap_geterr(p));
            pcap_close(p);
            return DCB_E_INVAL;
        }
    }
    if (pcap_setnonblock(p, 1, errbuf) < 0) {
        dcb_err_set(err, DCB_E_IO, "%s: %s", ifname, errbuf);
        pcap_close(p);
        return DCB_E_IO;
    }
    c->pcap = p;
    c->linktype = pcap_datalink(p);
    c->fd = pcap_get_selectable_fd(p);
    return 0;
}

struct dispatch_ctx {
    struct capture_live *c;
    capture_packet_fn fn;
    void *arg;
};

static void on_frame(u_char *user, const struct pcap_pkthdr *h, const u_char *data)
{
    struct dispatch_ctx *d = (struct dispatch_ctx *)user;
    struct capture_packet p = {
        .linktype = d->c->linktype,
        .ts_ns = (int64_t)h->ts.tv_sec * 1000000000 + h->ts.tv_usec,
        .data = data,
        .caplen = h->caplen,
        .len = h->len,
    };
    d->fn(d->arg, &p);
}

int capture_live_read(struct capture_live *c, capture_packet_fn fn, void *arg, struct dcb_err *err)
{
    struct dispatch_ctx d = { c, fn, arg };
    int total = 0;
    for (;;) {
        int n = pcap_dispatch(c->pcap, -1, on_frame, (u_char *)&d);
        if (n < 0)
            return dcb_err_set(err, DCB_E_IO, "capture: %s", pcap_geterr(c->pcap));
        total += n;
        if (n == 0 || total >= READ_MAX_FRAMES)
            return total;
    }
}

uint64_t capture_live_dropped(struct capture_live *c)
{
    struct pcap_stat ps = { 0 };
    if (!c->pcap || pcap_stats(c->pcap, &ps) < 0)
        return 0;
    return (uint64_t)ps.ps_drop + ps.ps_ifdrop;
}

void capture_live_close(struct capture_live *c)
{
    if (c->pcap)
        pcap_close(c->pcap);
    c->pcap = NULL;
    c->fd = -1;
}
