#include "lldp_listen.h"

#include <stdlib.h>
#include <string.h>

int lldp_listen_open(struct lldp_listener *l, const char *ifname, struct dcb_err *err)
{
    char errbuf[PCAP_ERRBUF_SIZE] = "";
    memset(l, 0, sizeof(*l));
    pcap_t *p = pcap_create(ifname, errbuf);
    if (!p)
        return dcb_err_set(err, DCB_E_IO, "%s: LLDP listener: %s", ifname, errbuf);
    pcap_set_snaplen(p, 9216);
    pcap_set_immediate_mode(p, 1);
    pcap_set_timeout(p, 10);
    int rc = pcap_activate(p);
    if (rc == PCAP_ERROR_PERM_DENIED || rc == PCAP_ERROR_NO_SUCH_DEVICE || rc < 0) {
        int code = rc == PCAP_ERROR_PERM_DENIED      ? DCB_E_PERM
                   : rc == PCAP_ERROR_NO_SUCH_DEVICE ? DCB_E_NOTFOUND
                                                     : DCB_E_IO;
        dcb_err_set(err, code, "%s: LLDP listener: %s", ifname,
                    code == DCB_E_PERM ? "needs CAP_NET_RAW (run as root or grant the capability)"
                                       : pcap_geterr(p));
        pcap_close(p);
        return code;
    }
    struct bpf_program prog;
    if (pcap_compile(p, &prog, "ether proto 0x88cc", 1, PCAP_NETMASK_UNKNOWN) < 0 ||
        pcap_setfilter(p, &prog) < 0) {
        dcb_err_set(err, DCB_E_IO, "%s: LLDP filter: %s", ifname, pcap_geterr(p));
        pcap_close(p);
        return DCB_E_IO;
    }
    pcap_freecode(&prog);
    /* frames this host sends (its own lldpd's) are not a neighbour's; where the platform cannot
     * tell directions, every frame is taken as before */
    (void)pcap_setdirection(p, PCAP_D_IN);
    if (pcap_setnonblock(p, 1, errbuf) < 0) {
        dcb_err_set(err, DCB_E_IO, "%s: LLDP listener: %s", ifname, errbuf);
        pcap_close(p);
        return DCB_E_IO;
    }
    l->pcap = p;
    l->linktype = pcap_datalink(p);
    return 0;
}

struct poll_ctx {
    struct lldp_listener *l;
    lldp_frame_fn fn;
    void *arg;
    struct dcb_frame frame;
};

static void on_packet(u_char *user, const struct pcap_pkthdr *h, const u_char *bytes)
{
    struct poll_ctx *ctx = (struct poll_ctx *)user;
    if (dcb_decode_link_frame(ctx->l->linktype, bytes, h->caplen, h->len, &ctx->frame) &&
        (ctx->frame.layers & DCB_L_LLDP))
        ctx->fn(&ctx->frame, ctx->arg);
}

int lldp_listen_poll(struct lldp_listener *l, lldp_frame_fn fn, void *arg, struct dcb_err *err)
{
    if (!l->pcap)
        return 0;
    struct poll_ctx *ctx = malloc(sizeof(*ctx)); /* a decoded frame is large for the stack */
    if (!ctx)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory polling LLDP");
    ctx->l = l;
    ctx->fn = fn;
    ctx->arg = arg;
    int n = pcap_dispatch(l->pcap, -1, on_packet, (u_char *)ctx);
    free(ctx);
    if (n == PCAP_ERROR)
        return dcb_err_set(err, DCB_E_IO, "LLDP listener: %s", pcap_geterr(l->pcap));
    return n < 0 ? 0 : n;
}

void lldp_listen_close(struct lldp_listener *l)
{
    if (l->pcap)
        pcap_close(l->pcap);
    l->pcap = NULL;
}
