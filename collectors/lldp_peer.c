#include "lldp_peer.h"

#include <stdio.h>
#include <string.h>

static void set_val(struct qos_val *v, int64_t x)
{
    v->v = x;
    v->set = true;
}

/* Printable text as is; anything else (a MAC chassis ID) as colon-separated hex. */
static void name_of(const struct dcb_bytes *b, char *out, size_t len)
{
    bool printable = b->len > 0;
    for (size_t i = 0; i < b->len; i++)
        printable = printable && b->ptr[i] >= 0x20 && b->ptr[i] < 0x7f;
    if (printable) {
        snprintf(out, len, "%.*s", (int)(b->len < len ? b->len : len - 1), (const char *)b->ptr);
        return;
    }
    size_t o = 0;
    out[0] = '\0';
    for (size_t i = 0; i < b->len && o + 4 < len; i++)
        o += (size_t)snprintf(out + o, len - o, "%s%02x", i ? ":" : "", b->ptr[i]);
}

void lldp_peer_chassis(const struct dcb_lldp *l, char *out, size_t len)
{
    out[0] = '\0';
    if (l->chassis_id.len)
        name_of(&l->chassis_id, out, len);
}

static void add_app(struct qos_config *c, uint8_t sel, uint16_t proto, uint8_t prio)
{
    if (sel < 1 || sel > 5 || prio > 7)
        return;
    if (sel == 5 && proto < 64)
        set_val(&c->dscp2prio[proto], prio);
    if (c->napp < QOS_APP_MAX)
        c->app[c->napp++] = (struct qos_app){ sel, proto, prio };
    c->app_set = true;
}

const char *lldp_peer_config(const struct dcb_lldp *l, struct qos_config *c, char *peer,
                             size_t peer_len, char *port, size_t port_len)
{
    name_of(l->sysname.len ? &l->sysname : &l->chassis_id, peer, peer_len);
    name_of(&l->port_id, port, port_len);
    const char *mode = "none";
    if (l->ets_cfg.present) {
        for (int i = 0; i < 8; i++) {
            if (l->ets_cfg.prio_tc[i] < 8)
                set_val(&c->prio2tc[i], l->ets_cfg.prio_tc[i]);
            if (l->ets_cfg.tc_bw[i] <= 100)
                set_val(&c->ets_bw[i], l->ets_cfg.tc_bw[i]);
            uint8_t tsa = l->ets_cfg.tsa[i];
            if (tsa == QOS_TSA_STRICT || tsa == QOS_TSA_CBS || tsa == QOS_TSA_ETS ||
                tsa == QOS_TSA_VENDOR)
                set_val(&c->ets_tsa[i], tsa);
        }
        mode = "ieee";
    }
    if (l->pfc.present) {
        set_val(&c->pfc_enabled, l->pfc.enable);
        set_val(&c->pfc_willing, l->pfc.willing != 0);
        mode = "ieee";
    }
    if (l->has_app) {
        for (uint8_t i = 0; i < l->napp; i++)
            add_app(c, l->app[i].sel, l->app[i].proto, l->app[i].prio);
        mode = "ieee";
    }
    if (!strcmp(mode, "none") && l->cee.present) {
        mode = "cee";
        if (l->cee.pfc_hdr.present) {
            set_val(&c->pfc_enabled, l->cee.pfc_enable);
            set_val(&c->pfc_willing, l->cee.pfc_hdr.willing != 0);
        }
        for (uint8_t i = 0; i < l->cee.napp; i++) {
            /* CEE SF 0 = EtherType, 1 = TCP/UDP port; the priority is a bitmap: its lowest bit */
            uint8_t map = l->cee.app[i].prio_map;
            if (!map)
                continue;
            uint8_t prio = 0;
            while (!(map & 1u << prio))
                prio++;
            add_app(c, l->cee.app[i].sel == 0 ? 1 : 4, l->cee.app[i].proto, prio);
        }
    }
    if (strcmp(mode, "none") != 0)
        set_val(&c->dcbx_mode, !strcmp(mode, "ieee") ? QOS_DCBX_IEEE : QOS_DCBX_CEE);
    return mode;
}
