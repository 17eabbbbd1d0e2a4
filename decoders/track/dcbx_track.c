/* DCBX neighbours and link comparison; see dcbx_track.h. */
#include "dcbx_track.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_details.h"

#define EVENT_ID_CHARS 80

const char *dcbx_protocol_name(enum dcbx_protocol p)
{
    return p == DCBX_IEEE ? "ieee" : p == DCBX_CEE ? "cee" : "none";
}

char *dcbx_id_str(uint8_t subtype, bool is_port, const uint8_t *id, uint8_t len, char *buf)
{
    bool mac = len == 6 && subtype == (is_port ? 3 : 4);
    if (mac) {
        track_mac_str(id, buf);
        return buf;
    }
    bool printable = len > 0;
    for (uint8_t i = 0; i < len; i++)
        printable = printable && id[i] >= 0x20 && id[i] < 0x7f;
    if (printable) {
        memcpy(buf, id, len);
        buf[len] = '\0';
        return buf;
    }
    for (uint8_t i = 0; i < len; i++)
        snprintf(buf + 2 * i, 3, "%02x", id[i]);
    buf[2 * len] = '\0';
    return buf;
}

void dcbx_tracker_init(struct dcbx_tracker *t, const struct track_events *events)
{
    memset(t, 0, sizeof(*t));
    if (events)
        t->events = *events;
}

void dcbx_tracker_free(struct dcbx_tracker *t)
{
    free(t->nb);
    free(t->links);
    memset(t, 0, sizeof(*t));
}

static int cmp_app(const void *a, const void *b)
{
    const struct dcbx_app *x = a, *y = b;
    if (x->sel != y->sel)
        return x->sel - y->sel;
    if (x->proto != y->proto)
        return x->proto - y->proto;
    return x->prio - y->prio;
}

static void add_app(struct dcbx_config *c, uint8_t sel, uint16_t proto, uint8_t prio)
{
    if (c->napp == DCBX_APP_MAX) {
        c->app_truncated = true;
        return;
    }
    c->app[c->napp++] = (struct dcbx_app){ .sel = sel, .proto = proto, .prio = prio };
}

static void config_from_ieee(const struct dcb_lldp *l, struct dcbx_config *c)
{
    c->protocol = DCBX_IEEE;
    if (l->pfc.present) {
        c->has_pfc = true;
        c->willing = l->pfc.willing;
        c->pfc_enable = l->pfc.enable;
        c->pfc_cap = l->pfc.cap;
    }
    if (l->ets_cfg.present) {
        c->has_ets = true;
        c->ets_willing = l->ets_cfg.willing;
        memcpy(c->prio_tc, l->ets_cfg.prio_tc, 8);
        memcpy(c->tc_bw, l->ets_cfg.tc_bw, 8);
        memcpy(c->tsa, l->ets_cfg.tsa, 8);
    }
    for (uint8_t i = 0; l->has_app && i < l->napp; i++)
        add_app(c, l->app[i].sel, l->app[i].proto, l->app[i].prio);
}

static void config_from_cee(const struct dcb_cee *cee, struct dcbx_config *c)
{
    c->protocol = DCBX_CEE;
    if (cee->pfc_hdr.present) {
        c->has_pfc = true;
        c->willing = cee->pfc_hdr.willing;
        c->pfc_enable = cee->pfc_enable;
        c->pfc_cap = cee->pfc_num_tcs;
    }
    if (cee->pg_hdr.present) {
        c->has_ets = true;
        c->ets_willing = cee->pg_hdr.willing;
        memcpy(c->prio_tc, cee->pgid, 8);
        memcpy(c->tc_bw, cee->pg_bw, 8);
    }
    for (uint8_t i = 0; cee->app_hdr.present && i < cee->napp; i++) {
        const struct dcb_cee_app *a = &cee->app[i];
        uint8_t sel = a->sel == 0 ? 1 : a->sel == 1 ? 4 : (uint8_t)(0x80 | a->sel);
        for (uint8_t prio = 0; prio < 8; prio++)
            if (a->prio_map & (1u << prio))
                add_app(c, sel, a->proto, prio);
    }
}

/* False when the frame carries no DCBX TLV at all. */
static bool config_from_frame(const struct dcb_lldp *l, struct dcbx_config *c)
{
    memset(c, 0, sizeof(*c));
    if (l->cee.present)
        config_from_cee(&l->cee, c);
    else if (l->pfc.present || l->ets_cfg.present || l->has_app)
        config_from_ieee(l, c);
    else
        return false;
    for (uint16_t i = 1; i < c->napp; i++) /* insertion sort: tables are short and */
        for (uint16_t j = i; j > 0 && cmp_app(&c->app[j - 1], &c->app[j]) > 0; j--) {
            struct dcbx_app tmp = c->app[j]; /* usually already in order */
            c->app[j] = c->app[j - 1];
            c->app[j - 1] = tmp;
        }
    return true;
}

static bool same_config(const struct dcbx_config *a, const struct dcbx_config *b)
{
    return a->protocol == b->protocol && a->willing == b->willing && a->has_pfc == b->has_pfc &&
           a->pfc_enable == b->pfc_enable && a->pfc_cap == b->pfc_cap && a->has_ets == b->has_ets &&
           a->ets_willing == b->ets_willing && memcmp(a->prio_tc, b->prio_tc, 8) == 0 &&
           memcmp(a->tc_bw, b->tc_bw, 8) == 0 && memcmp(a->tsa, b->tsa, 8) == 0 &&
           a->napp == b->napp && memcmp(a->app, b->app, a->napp * sizeof(a->app[0])) == 0;
}

static struct dcbx_neighbour *find_neighbour(struct dcbx_tracker *t, const struct dcb_lldp *l,
                                             unsigned iface)
{
    for (size_t i = 0; i < t->nnb; i++) {
        struct dcbx_neighbour *n = &t->nb[i];
        if (n->iface == iface && n->chassis_len == l->chassis_id.len &&
            n->port_len == l->port_id.len && n->chassis_subtype == l->chassis_subtype &&
            memcmp(n->chassis, l->chassis_id.ptr, n->chassis_len) == 0 &&
            memcmp(n->port, l->port_id.ptr, n->port_len) == 0)
            return n;
    }
    if (t->nnb == DCBX_NEIGHBOURS_MAX)
        return NULL;
    if (t->nnb == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 4;
        struct dcbx_neighbour *grown = realloc(t->nb, cap * sizeof(*grown));
        if (!grown) {
            t->nomem = true;
            return NULL;
        }
        t->nb = grown;
        t->cap = cap;
    }
    struct dcbx_neighbour *n = &t->nb[t->nnb++];
    memset(n, 0, sizeof(*n));
    n->iface = iface;
    n->chassis_subtype = l->chassis_subtype;
    n->port_subtype = l->port_subtype;
    n->chassis_len = (uint8_t)(l->chassis_id.len > DCBX_ID_MAX ? DCBX_ID_MAX : l->chassis_id.len);
    n->port_len = (uint8_t)(l->port_id.len > DCBX_ID_MAX ? DCBX_ID_MAX : l->port_id.len);
    memcpy(n->chassis, l->chassis_id.ptr, n->chassis_len);
    memcpy(n->port, l->port_id.ptr, n->port_len);
    return n;
}

static void emit_seen(struct dcbx_tracker *t, const struct dcbx_neighbour *n, int64_t ts_ns)
{
    if (!t->events.fn)
        return;
    char chassis[2 * DCBX_ID_MAX + 1], port[2 * DCBX_ID_MAX + 1];
    dcbx_id_str(n->chassis_subtype, false, n->chassis, n->chassis_len, chassis);
    dcbx_id_str(n->port_subtype, true, n->port, n->port_len, port);
    chassis[EVENT_ID_CHARS] = port[EVENT_ID_CHARS] = '\0'; /* an event's details stay short */
    struct event_details details;
    event_details_init(&details);
    event_details_str(&details, "chassis", chassis);
    event_details_str(&details, "port", port);
    event_details_str(&details, "protocol", dcbx_protocol_name(n->cfg.protocol));
    event_details_u64(&details, "pfc_enable", n->cfg.pfc_enable);
    event_details_bool(&details, "willing", n->cfg.willing);
    event_details_u64(&details, "change", n->changes);
    struct dcb_event e;
    dcb_event_set(&e, ts_ns, EVENT_DCBX_SEEN, t->events.device ? t->events.device : "", "", -1,
                  event_details_json(&details));
    t->events.fn(t->events.arg, &e);
}

void dcbx_tracker_frame(struct dcbx_tracker *t, int64_t ts_ns, unsigned iface,
                        const struct dcb_frame *f)
{
    if (!(f->layers & DCB_L_LLDP))
        return;
    t->lldp_frames++;
    if (f->malformed[0]) /* a repeated or misplaced TLV: discarded, as lldpd does */
        return;
    static struct dcbx_config cfg; /* the trackers run on one thread; keeps the stack small */
    if (!config_from_frame(&f->lldp, &cfg))
        return;
    t->dcbx_frames++;
    struct dcbx_neighbour *n = find_neighbour(t, &f->lldp, iface);
    if (!n) {
        t->untracked_frames++;
        return;
    }
    bool first = n->frames++ == 0;
    memcpy(n->src, track_frame_src(f), 6);
    if (first)
        n->first_ns = ts_ns;
    n->last_ns = ts_ns;
    if (!first && same_config(&n->cfg, &cfg))
        return;
    if (!first)
        n->changes++;
    n->cfg = cfg;
    emit_seen(t, n, ts_ns);
}

static bool same_apps(const struct dcbx_config *a, const struct dcbx_config *b)
{
    return a->napp == b->napp && memcmp(a->app, b->app, a->napp * sizeof(a->app[0])) == 0;
}

static unsigned compare(const struct dcbx_config *a, const struct dcbx_config *b)
{
    unsigned m = 0;
    if (a->protocol != b->protocol)
        m |= DCBX_MISMATCH_VERSION;
    if (a->has_pfc != b->has_pfc || a->pfc_enable != b->pfc_enable)
        m |= DCBX_MISMATCH_PFC;
    bool tsa_comparable = a->protocol == DCBX_IEEE && b->protocol == DCBX_IEEE;
    if (a->has_ets != b->has_ets ||
        (a->has_ets &&
         (memcmp(a->prio_tc, b->prio_tc, 8) != 0 || memcmp(a->tc_bw, b->tc_bw, 8) != 0 ||
          (tsa_comparable && memcmp(a->tsa, b->tsa, 8) != 0))))
        m |= DCBX_MISMATCH_ETS;
    if (!same_apps(a, b))
        m |= DCBX_MISMATCH_APP;
    return m;
}

static void emit_mismatch(struct dcbx_tracker *t, const struct dcbx_link *l, int64_t ts_ns)
{
    if (!t->events.fn || (!l->mismatches && l->willing != 2))
        return;
    struct event_details details;
    event_details_init(&details);
    event_details_u64(&details, "a", l->a);
    event_details_u64(&details, "b", l->b);
    event_details_u64(&details, "mismatches", l->mismatches);
    event_details_i64(&details, "willing", l->willing);
    struct dcb_event e;
    dcb_event_set(&e, ts_ns, EVENT_DCBX_MISMATCH, t->events.device ? t->events.device : "", "", -1,
                  event_details_json(&details));
    t->events.fn(t->events.arg, &e);
}

void dcbx_tracker_finish(struct dcbx_tracker *t, int64_t ts_ns)
{
    free(t->links);
    t->links = NULL;
    t->nlinks = 0;
    t->crowded_ifaces = 0;
    if (!t->nnb)
        return;
    t->links = calloc(t->nnb, sizeof(*t->links));
    if (!t->links) {
        t->nomem = true;
        return;
    }
    for (size_t i = 0; i < t->nnb; i++) {
        bool seen_before = false;
        for (size_t j = 0; j < i; j++)
            seen_before = seen_before || t->nb[j].iface == t->nb[i].iface;
        if (seen_before)
            continue;
        size_t count = 0, other = 0;
        for (size_t j = i; j < t->nnb; j++)
            if (t->nb[j].iface == t->nb[i].iface) {
                count++;
                if (j != i)
                    other = j;
            }
        if (count > 2)
            t->crowded_ifaces++;
        if (count != 2)
            continue;
        struct dcbx_link *l = &t->links[t->nlinks++];
        l->a = (uint32_t)i;
        l->b = (uint32_t)other;
        l->mismatches = compare(&t->nb[i].cfg, &t->nb[other].cfg);
        l->willing = t->nb[i].cfg.willing + t->nb[other].cfg.willing;
        emit_mismatch(t, l, ts_ns);
    }
}

uint8_t dcbx_tracker_pfc_union(const struct dcbx_tracker *t)
{
    uint8_t mask = 0;
    for (size_t i = 0; i < t->nnb; i++)
        mask |= t->nb[i].cfg.pfc_enable;
    return mask;
}

int dcbx_tracker_dscp_prio(const struct dcbx_tracker *t, uint8_t dscp)
{
    for (size_t i = 0; i < t->nnb; i++)
        for (uint16_t a = 0; a < t->nb[i].cfg.napp; a++)
            if (t->nb[i].cfg.app[a].sel == 5 && t->nb[i].cfg.app[a].proto == dscp)
                return t->nb[i].cfg.app[a].prio;
    return -1;
}

bool dcbx_tracker_has_dscp_app(const struct dcbx_tracker *t)
{
    for (size_t i = 0; i < t->nnb; i++)
        for (uint16_t a = 0; a < t->nb[i].cfg.napp; a++)
            if (t->nb[i].cfg.app[a].sel == 5)
                return true;
    return false;
}
