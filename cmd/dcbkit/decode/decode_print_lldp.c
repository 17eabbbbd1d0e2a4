/* LLDP and DCBX (IEEE and CEE) of a decoded frame, for decode_print_frame. */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "decode_print_layers.h"

#define ID_TEXT_MAX 512

/* Chassis/port ID subtypes that hold a MAC address or a network address (802.1AB 8.5.2/8.5.3). */
#define CHASSIS_MAC 4
#define CHASSIS_NETADDR 5
#define PORT_MAC 3
#define PORT_NETADDR 4
#define IANA_AF_IPV4 1
#define IANA_AF_IPV6 2

static void bytes_to_text(const struct dcb_bytes *b, char *buf, size_t len)
{
    size_t n = b->len < len - 1 ? b->len : len - 1;
    if (b->ptr)
        memcpy(buf, b->ptr, n);
    else
        n = 0;
    buf[n] = '\0';
}

static void addr_to_text(uint8_t family, const uint8_t *p, size_t n, char *buf, size_t len)
{
    if (family == IANA_AF_IPV4 && n == 4)
        inet_ntop(AF_INET, p, buf, (socklen_t)len);
    else if (family == IANA_AF_IPV6 && n == 16)
        inet_ntop(AF_INET6, p, buf, (socklen_t)len);
    else
        snprintf(buf, len, "family %u, %zu bytes", family, n);
}

static void id_to_text(uint8_t subtype, const struct dcb_bytes *id, uint8_t mac_subtype,
                       uint8_t addr_subtype, char *buf, size_t len)
{
    if (subtype == mac_subtype && id->len == 6)
        fmt_mac(id->ptr, buf, len);
    else if (subtype == addr_subtype && id->len >= 1)
        addr_to_text(id->ptr[0], id->ptr + 1, id->len - 1u, buf, len);
    else
        bytes_to_text(id, buf, len);
}

static void print_u8_array(struct dcb_out *o, const char *key, const uint8_t *v, int n)
{
    out_arr_open(o, key);
    for (int i = 0; i < n; i++)
        out_u64(o, NULL, NULL, v[i]);
    out_arr_close(o);
}

static void print_ets(struct dcb_out *o, const char *key, const struct dcb_ets *e, bool config,
                      bool verbose)
{
    out_obj_open(o, key);
    out_text(o, verbose ? (config ? " ETS-cfg" : " ETS-rec") : "");
    if (config) {
        out_u64(o, "willing", verbose ? " willing %" PRIu64 : NULL, e->willing);
        out_u64(o, "cbs", NULL, e->cbs);
        out_u64(o, "max_tcs", verbose ? " tcs %" PRIu64 : NULL, e->max_tcs);
    }
    print_u8_array(o, "prio_tc", e->prio_tc, 8);
    print_u8_array(o, "tc_bw", e->tc_bw, 8);
    print_u8_array(o, "tsa", e->tsa, 8);
    if (verbose)
        out_text(o, " bw %u/%u/%u/%u/%u/%u/%u/%u", e->tc_bw[0], e->tc_bw[1], e->tc_bw[2],
                 e->tc_bw[3], e->tc_bw[4], e->tc_bw[5], e->tc_bw[6], e->tc_bw[7]);
    out_obj_close(o);
}

static void print_ieee(struct dcb_out *o, const struct dcb_lldp *l, bool verbose)
{
    if (!l->ets_cfg.present && !l->ets_rec.present && !l->pfc.present && !l->has_app &&
        !l->cn.present)
        return;
    out_obj_open(o, "ieee");
    out_text(o, ", IEEE DCBX");
    if (l->ets_cfg.present)
        print_ets(o, "ets_cfg", &l->ets_cfg, true, verbose);
    if (l->ets_rec.present)
        print_ets(o, "ets_rec", &l->ets_rec, false, verbose);
    if (l->pfc.present) {
        out_obj_open(o, "pfc");
        out_u64(o, "willing", NULL, l->pfc.willing);
        out_u64(o, "mbc", NULL, l->pfc.mbc);
        out_u64(o, "cap", NULL, l->pfc.cap);
        out_u64(o, "enable", " PFC 0x%02" PRIx64, l->pfc.enable);
        out_obj_close(o);
    }
    if (l->has_app) {
        out_arr_open(o, "app");
        for (int i = 0; i < l->napp; i++) {
            out_obj_open(o, NULL);
            out_u64(o, "prio", " app prio %" PRIu64, l->app[i].prio);
            out_u64(o, "sel", " sel %" PRIu64, l->app[i].sel);
            out_u64(o, "proto", " proto %" PRIu64, l->app[i].proto);
            out_obj_close(o);
        }
        out_arr_close(o);
    }
    if (l->cn.present) {
        out_obj_open(o, "cn");
        out_u64(o, "cnpv", " CNPV 0x%02" PRIx64, l->cn.cnpv);
        out_u64(o, "ready", verbose ? " ready 0x%02" PRIx64 : NULL, l->cn.ready);
        out_obj_close(o);
    }
    out_obj_close(o);
}

static void print_cee_flags(struct dcb_out *o, const struct dcb_cee_feature *h)
{
    out_u64(o, "enabled", NULL, h->enabled);
    out_u64(o, "willing", NULL, h->willing);
    out_u64(o, "error", NULL, h->error);
    out_text(o, "%s%s%s", h->enabled ? " E" : "", h->willing ? " W" : "", h->error ? " Err" : "");
}

static void print_cee(struct dcb_out *o, const struct dcb_cee *c)
{
    out_obj_open(o, "cee");
    out_str(o, "flavour", ", %s", c->flavour == 1 ? "CIN" : "CEE");
    if (c->control) {
        out_u64(o, "oper_ver", NULL, c->oper_ver);
        out_u64(o, "max_ver", NULL, c->max_ver);
        out_u64(o, "seq", " seq %" PRIu64, c->seq);
        out_u64(o, "ack", " ack %" PRIu64, c->ack);
    }
    if (c->pg_hdr.present) {
        out_obj_open(o, "pg");
        out_text(o, " PG");
        print_cee_flags(o, &c->pg_hdr);
        print_u8_array(o, "pgid", c->pgid, 8);
        print_u8_array(o, "pg_bw", c->pg_bw, 8);
        out_u64(o, "num_tcs", NULL, c->pg_num_tcs);
        out_obj_close(o);
    }
    if (c->pfc_hdr.present) {
        out_obj_open(o, "pfc");
        out_text(o, " PFC");
        print_cee_flags(o, &c->pfc_hdr);
        out_u64(o, "enable", " 0x%02" PRIx64, c->pfc_enable);
        out_u64(o, "num_tcs", NULL, c->pfc_num_tcs);
        out_obj_close(o);
    }
    if (c->app_hdr.present) {
        out_obj_open(o, "app_hdr");
        print_cee_flags(o, &c->app_hdr);
        out_obj_close(o);
        out_arr_open(o, "app");
        for (int i = 0; i < c->napp; i++) {
            out_obj_open(o, NULL);
            out_u64(o, "sel", " app sel %" PRIu64, c->app[i].sel);
            out_u64(o, "proto", " proto 0x%04" PRIx64, c->app[i].proto);
            out_u64(o, "oui", NULL, c->app[i].oui);
            out_u64(o, "prio_map", " prio map 0x%02" PRIx64, c->app[i].prio_map);
            out_obj_close(o);
        }
        out_arr_close(o);
    }
    out_obj_close(o);
}

void print_lldp(struct dcb_out *o, const struct dcb_frame *f, bool verbose)
{
    const struct dcb_lldp *l = &f->lldp;
    char text[ID_TEXT_MAX];
    out_obj_open(o, "lldp");
    out_text(o, ", LLDP");
    if (l->chassis_id.ptr) {
        id_to_text(l->chassis_subtype, &l->chassis_id, CHASSIS_MAC, CHASSIS_NETADDR, text,
                   sizeof(text));
        out_u64(o, "chassis_subtype", NULL, l->chassis_subtype);
        out_str(o, "chassis_id", " chassis %s", text);
    }
    if (l->port_id.ptr) {
        id_to_text(l->port_subtype, &l->port_id, PORT_MAC, PORT_NETADDR, text, sizeof(text));
        out_u64(o, "port_subtype", NULL, l->port_subtype);
        out_str(o, "port_id", " port %s", text);
    }
    if (l->has_ttl)
        out_u64(o, "ttl", " ttl %" PRIu64, l->ttl);
    if (l->port_desc.ptr) {
        bytes_to_text(&l->port_desc, text, sizeof(text));
        out_str(o, "port_desc", verbose ? " port-desc \"%s\"" : NULL, text);
    }
    if (l->sysname.ptr) {
        bytes_to_text(&l->sysname, text, sizeof(text));
        out_str(o, "sysname", " sysname \"%s\"", text);
    }
    if (l->mgmt_addr.ptr) {
        addr_to_text(l->mgmt_subtype, l->mgmt_addr.ptr, l->mgmt_addr.len, text, sizeof(text));
        out_str(o, "mgmt_addr", verbose ? " mgmt %s" : NULL, text);
    }
    print_ieee(o, l, verbose);
    if (l->cee.present)
        print_cee(o, &l->cee);
    out_obj_close(o);
}
