/* dcbkit analyze: the DCBX section (neighbours and the links between them). */
#include <inttypes.h>
#include <stdio.h>

#include "analyze.h"

#define APP_SHOWN_IN_TEXT 12

static const char *app_sel_name(uint8_t sel)
{
    static const char *const names[] = { "sel0",    "ethertype", "tcp",  "udp",
                                         "tcp/udp", "dscp",      "sel6", "sel7" };
    return sel < 8 ? names[sel] : "cee-sel";
}

static void print_u8x8(struct dcb_out *o, const char *key, const char *label, const uint8_t v[8])
{
    out_text(o, " %s ", label);
    out_arr_open(o, key);
    for (int i = 0; i < 8; i++)
        out_u64(o, NULL, i ? ",%" PRIu64 : "%" PRIu64, v[i]);
    out_arr_close(o);
}

static void print_id(struct dcb_out *o, const struct dcbx_neighbour *n, const char *chassis_fmt,
                     const char *port_fmt) OUT_TEXT_FORMAT(3) OUT_TEXT_FORMAT(4);
static void print_id(struct dcb_out *o, const struct dcbx_neighbour *n, const char *chassis_fmt,
                     const char *port_fmt)
{
    char id[2 * DCBX_ID_MAX + 1];
    out_str(o, "chassis", chassis_fmt,
            dcbx_id_str(n->chassis_subtype, false, n->chassis, n->chassis_len, id));
    out_str(o, "port", port_fmt, dcbx_id_str(n->port_subtype, true, n->port, n->port_len, id));
}

static void print_neighbour(struct dcb_out *o, const struct dcbx_neighbour *n)
{
    const struct dcbx_config *c = &n->cfg;
    char mac[18], mask[32];
    out_obj_open(o, NULL);
    print_id(o, n, "  %s", " port %s");
    out_str(o, "src", " (%s)", track_mac_str(n->src, mac));
    out_u64(o, "iface", NULL, n->iface);
    out_str(o, "protocol", ": %s", dcbx_protocol_name(c->protocol));
    out_u64(o, "frames", ", %" PRIu64 " frames", n->frames);
    out_u64(o, "changes", ", %" PRIu64 " changes\n", n->changes);
    out_bool(o, "willing", "    willing %s", c->willing);
    out_u64(o, "pfc_enable", NULL, c->pfc_enable);
    out_text(o, "; PFC %s",
             c->has_pfc ? analyze_mask_str(c->pfc_enable, 8, mask, sizeof(mask))
                        : "not advertised");
    out_u64(o, "pfc_cap", NULL, c->pfc_cap);
    out_bool(o, "has_ets", NULL, c->has_ets);
    if (c->has_ets) {
        out_text(o, ";");
        print_u8x8(o, "prio_tc", c->protocol == DCBX_CEE ? "prio->PG" : "prio->TC", c->prio_tc);
        print_u8x8(o, "tc_bw", "bw%", c->tc_bw);
        if (c->protocol == DCBX_IEEE)
            print_u8x8(o, "tsa", "TSA", c->tsa);
    }
    out_text(o, "\n    App:");
    out_arr_open(o, "app");
    for (uint16_t i = 0; i < c->napp; i++) {
        const struct dcbx_app *app = &c->app[i];
        bool shown = out_is_json(o) || i < APP_SHOWN_IN_TEXT;
        out_obj_open(o, NULL);
        out_u64(o, "sel", NULL, app->sel);
        out_u64(o, "proto", NULL, app->proto);
        out_u64(o, "prio", NULL, app->prio);
        if (shown)
            out_text(o, app->sel == 1 ? " %s 0x%04x->%u" : " %s %u->%u", app_sel_name(app->sel),
                     app->proto, app->prio);
        out_obj_close(o);
    }
    out_arr_close(o);
    if (!out_is_json(o) && c->napp > APP_SHOWN_IN_TEXT)
        out_text(o, " (+%u more; -T json lists all)", c->napp - APP_SHOWN_IN_TEXT);
    out_text(o, "%s\n", c->napp ? "" : " none");
    out_obj_close(o);
}

static void print_link(struct dcb_out *o, const struct dcbx_tracker *t, const struct dcbx_link *l)
{
    static const struct {
        unsigned bit;
        const char *name;
    } kinds[] = {
        { DCBX_MISMATCH_VERSION, "dcbx_version" },
        { DCBX_MISMATCH_PFC, "pfc_enable" },
        { DCBX_MISMATCH_ETS, "ets" },
        { DCBX_MISMATCH_APP, "app" },
    };
    out_obj_open(o, NULL);
    out_obj_open(o, "a");
    print_id(o, &t->nb[l->a], "  link %s", "/%s");
    out_obj_close(o);
    out_obj_open(o, "b");
    print_id(o, &t->nb[l->b], " <-> %s", "/%s:");
    out_obj_close(o);
    out_arr_open(o, "mismatches");
    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
        if (l->mismatches & kinds[k].bit)
            out_str(o, NULL, " %s", kinds[k].name);
    out_arr_close(o);
    out_text(o, "%s", l->mismatches ? " differ" : " agree");
    out_str(o, "willing", "; willing: %s\n",
            l->willing == 2   ? "both"
            : l->willing == 1 ? "one"
                              : "neither");
    out_obj_close(o);
}

void analyze_print_dcbx(struct dcb_out *o, const struct analysis *a)
{
    const struct dcbx_tracker *t = &a->t->dcbx;
    out_obj_open(o, "dcbx");
    out_text(o, "\nDCBX\n");
    out_u64(o, "lldp_frames", "  %" PRIu64 " LLDP frames", t->lldp_frames);
    out_u64(o, "dcbx_frames", ", %" PRIu64 " with DCBX", t->dcbx_frames);
    out_u64(o, "neighbours_count", ", %" PRIu64 " neighbours\n", (uint64_t)t->nnb);
    out_arr_open(o, "neighbours");
    for (size_t i = 0; i < t->nnb; i++)
        print_neighbour(o, &t->nb[i]);
    out_arr_close(o);
    out_arr_open(o, "links");
    for (size_t i = 0; i < t->nlinks; i++)
        print_link(o, t, &t->links[i]);
    out_arr_close(o);
    out_obj_close(o);
}
