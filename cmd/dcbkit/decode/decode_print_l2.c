/* Ethernet, VLAN, PAUSE and PFC of a decoded frame, for decode_print_frame. */
#include <inttypes.h>
#include <stdio.h>

#include "decode_print_layers.h"
#include "pause_time.h"

void fmt_mac(const uint8_t *mac, char *buf, size_t len)
{
    snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2], mac[3], mac[4],
             mac[5]);
}

static void print_sll(struct dcb_out *o, const struct dcb_frame *f, bool verbose)
{
    const struct dcb_sll *s = &f->sll;
    char src[18];
    out_obj_open(o, "sll");
    out_text(o, s->v2 ? " SLL2" : " SLL");
    out_u64(o, "pkttype", verbose ? " pkttype %" PRIu64 : NULL, s->pkttype);
    if (s->has_src) {
        fmt_mac(s->src, src, sizeof(src));
        out_str(o, "src", " from %s", src);
    }
    if (s->v2)
        out_u64(o, "ifindex", verbose ? " ifindex %" PRIu64 : NULL, s->ifindex);
    out_u64(o, "type", verbose ? ", ethertype 0x%04" PRIx64 : NULL, f->eth.type);
    out_obj_close(o);
}

void print_eth(struct dcb_out *o, const struct dcb_frame *f, bool verbose)
{
    char src[18], dst[18];
    if (f->layers & DCB_L_SLL) {
        print_sll(o, f, verbose);
    } else {
        fmt_mac(f->eth.src, src, sizeof(src));
        fmt_mac(f->eth.dst, dst, sizeof(dst));
        out_obj_open(o, "eth");
        out_str(o, "src", " %s", src);
        out_str(o, "dst", " > %s", dst);
        out_u64(o, "type", verbose ? ", ethertype 0x%04" PRIx64 : NULL, f->eth.type);
        out_obj_close(o);
    }
    if (!(f->layers & DCB_L_VLAN))
        return;
    out_arr_open(o, "vlan");
    for (int i = 0; i < f->nvlan; i++) {
        const struct dcb_vlan_tag *t = &f->vlan[i];
        out_obj_open(o, NULL);
        out_u64(o, "tpid", t->tpid == DCB_ETHERTYPE_QINQ ? ", 802.1ad" : ", 802.1Q", t->tpid);
        out_u64(o, "vid", " vlan %" PRIu64, t->vid);
        out_u64(o, "pcp", " p %" PRIu64, t->pcp);
        out_u64(o, "dei", verbose ? " dei %" PRIu64 : NULL, t->dei);
        out_obj_close(o);
    }
    out_arr_close(o);
}

void print_pause(struct dcb_out *o, const struct dcb_frame *f, uint64_t link_bps)
{
    out_obj_open(o, "pause");
    out_text(o, ", PAUSE");
    out_u64(o, "quanta", " quanta %" PRIu64, f->pause.quanta);
    out_dbl(o, "ns", " (%.1f ns)", pfc_quanta_to_ns(f->pause.quanta, link_bps));
    if (f->layers & DCB_L_ETH)
        out_bool(o, "dst_ok", NULL, !f->pause.bad_dst);
    if (f->pause.bad_dst)
        out_text(o, " [destination is not 01:80:c2:00:00:01]");
    out_obj_close(o);
}

void print_pfc(struct dcb_out *o, const struct dcb_frame *f, uint64_t link_bps)
{
    const struct dcb_pfc *p = &f->pfc;
    out_obj_open(o, "pfc");
    out_u64(o, "enable", ", PFC enable 0x%02" PRIx64, p->enable_vector);
    out_arr_open(o, "quanta");
    for (int prio = 0; prio < 8; prio++)
        out_u64(o, NULL, NULL, p->quanta[prio]);
    out_arr_close(o);
    out_arr_open(o, "ns");
    for (int prio = 0; prio < 8; prio++)
        out_dbl(o, NULL, NULL, pfc_quanta_to_ns(p->quanta[prio], link_bps));
    out_arr_close(o);
    for (int prio = 0; prio < 8; prio++) {
        if (p->enable_vector >> prio & 1)
            out_text(o, " p%d=%u", prio, p->quanta[prio]);
    }
    if (f->layers & DCB_L_ETH)
        out_bool(o, "dst_ok", NULL, !p->bad_dst);
    out_bool(o, "enable_reserved", NULL, p->reserved_bits);
    if (p->bad_dst)
        out_text(o, " [destination is not 01:80:c2:00:00:01]");
    if (p->reserved_bits)
        out_text(o, " [enable bits above 7 set]");
    out_obj_close(o);
}
