#include "model.h"
#include "grow.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence_store.h"
#include "findings.h"
#include "qos_json.h"

#define RING_SAMPLES (1u << 18)
#define RING_EVENTS (1u << 14)
#define IFACES_MAX 4096
#define EVIDENCE_WINDOW_NS (600LL * 1000000000LL)

const struct top_col_info top_cols[TOP_NCOLS] = {
    [COL_RX] = { "RXb/s", "rx_bps", UNIT_BPS, "bits/s received (port.rx_bytes)" },
    [COL_TX] = { "TXb/s", "tx_bps", UNIT_BPS, "bits/s sent (port.tx_bytes)" },
    [COL_PFC_RX] = { "PFCrx", "pfc_rx_per_s", UNIT_PER_S,
                     "PFC frames received per second on the chosen priorities" },
    [COL_PFC_TX] = { "PFCtx", "pfc_tx_per_s", UNIT_PER_S,
                     "PFC frames sent per second on the chosen priorities" },
    [COL_PAUSED] = { "Paus%", "paused_pct", UNIT_PCT,
                     "% of time the peer kept the port paused (worst chosen priority)" },
    [COL_ECN] = { "ECN/s", "ecn_marks_per_s", UNIT_PER_S, "ECN marks per second" },
    [COL_CNP_SENT] = { "CNPtx", "cnp_sent_per_s", UNIT_PER_S, "CNPs sent per second" },
    [COL_CNP_HANDLED] = { "CNPrx", "cnp_handled_per_s", UNIT_PER_S, "CNPs handled per second" },
    [COL_OOS] = { "OOS/s", "out_of_sequence_per_s", UNIT_PER_S,
                  "RoCE packets out of sequence per second" },
    [COL_DROPS] = { "Drp/s", "drops_per_s", UNIT_PER_S,
                    "packets dropped per second (NIC discards, priority, PG and queue drops)" },
};

int model_init(struct top_model *m, struct dcb_err *err)
{
    memset(m, 0, sizeof(*m));
    m->prio = TOP_PRIO_LOSSLESS;
    rule_set_init(&m->rules);
    return store_open_ring(&m->ring, RING_SAMPLES, RING_EVENTS, err);
}

static void iface_free(struct top_iface *i)
{
    for (int a = 0; a < METRIC_COUNT; a++)
        for (int b = 0; b < TOP_SLOTS; b++)
            free(i->series[a][b]);
    free(i->config);
    free(i->peer);
    free(i);
}

static void clear_ifaces(struct top_model *m)
{
    for (size_t k = 0; k < m->n; k++)
        iface_free(m->ifaces[k]);
    m->n = 0;
    m->last_hit = 0;
}

void model_free(struct top_model *m)
{
    clear_ifaces(m);
    free(m->ifaces);
    free(m->findings);
    rule_set_free(&m->rules);
    if (m->ring)
        store_close(m->ring, NULL);
    memset(m, 0, sizeof(*m));
}

static struct top_iface *iface_of(struct top_model *m, const char *device, const char *ifname)
{
    if (m->last_hit < m->n) {
        struct top_iface *i = m->ifaces[m->last_hit];
        if (!strcmp(i->ifname, ifname) && !strcmp(i->device, device))
            return i;
    }
    for (size_t k = 0; k < m->n; k++) {
        struct top_iface *i = m->ifaces[k];
        if (!strcmp(i->ifname, ifname) && !strcmp(i->device, device)) {
            m->last_hit = k;
            return i;
        }
    }
    if (m->n == IFACES_MAX)
        return NULL;
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        struct top_iface **p = realloc(m->ifaces, cap * sizeof(*p));
        if (!p)
            return NULL;
        m->ifaces = p;
        m->cap = cap;
    }
    struct top_iface *i = calloc(1, sizeof(*i));
    if (!i)
        return NULL;
    snprintf(i->device, sizeof(i->device), "%s", device);
    snprintf(i->ifname, sizeof(i->ifname), "%s", ifname);
    for (int c = 0; c < TOP_NCOLS; c++)
        for (int h = 0; h < TOP_HIST; h++)
            i->hist[c][h] = NAN;
    i->speed_bps = NAN;
    i->severity = -1;
    m->last_hit = m->n;
    m->ifaces[m->n++] = i;
    return i;
}

/* ---- columns ------------------------------------------------------------------------------ */

struct acc {
    double sum, max;
    bool present, known;
};

static void acc_add(struct acc *a, const struct top_iface *i, enum metric_id m, unsigned mask)
{
    for (int s = 0; s < TOP_SLOTS; s++) {
        if (!(mask & (1u << s)) || !i->series[m][s])
            continue;
        a->present = true;
        double r = i->series[m][s]->rate;
        if (isnan(r))
            continue;
        if (!a->known || r > a->max)
            a->max = r;
        a->known = true;
        a->sum += r;
    }
}

static struct top_val acc_val(const struct acc *a, double scale, bool use_max)
{
    if (!a->present)
        return (struct top_val){ NAN, VAL_ABSENT };
    if (!a->known)
        return (struct top_val){ NAN, VAL_PENDING };
    return (struct top_val){ (use_max ? a->max : a->sum) * scale, VAL_KNOWN };
}

#define NONE_SLOT (1u << 8)
#define ALL_PRIOS 0xffu

/* The first of the metrics (in order) that the interface has over mask. */
static struct top_val first_of(const struct top_iface *i, const enum metric_id *ms, size_t n,
                               unsigned mask, double scale)
{
    for (size_t k = 0; k < n; k++) {
        struct acc a = { 0 };
        acc_add(&a, i, ms[k], mask);
        if (a.present)
            return acc_val(&a, scale, false);
    }
    return (struct top_val){ NAN, VAL_ABSENT };
}

/* port: the interface row (port-wide metrics count); otherwise one priority's row. */
static void compute(const struct top_iface *i, unsigned mask, bool port, struct top_val *out)
{
    static const enum metric_id rx_port[] = { METRIC_PORT_RX_BYTES },
                                tx_port[] = { METRIC_PORT_TX_BYTES };
    static const enum metric_id rx_prio[] = { METRIC_PRIO_RX_BYTES },
                                tx_prio[] = { METRIC_PRIO_TX_BYTES, METRIC_QUEUE_TX_BYTES };
    if (port) {
        out[COL_RX] = first_of(i, rx_port, 1, NONE_SLOT, 8.0);
        if (out[COL_RX].state == VAL_ABSENT)
            out[COL_RX] = first_of(i, rx_prio, 1, ALL_PRIOS, 8.0);
        out[COL_TX] = first_of(i, tx_port, 1, NONE_SLOT, 8.0);
        if (out[COL_TX].state == VAL_ABSENT)
            out[COL_TX] = first_of(i, tx_prio, 2, ALL_PRIOS, 8.0);
    } else {
        out[COL_RX] = first_of(i, rx_prio, 1, mask, 8.0);
        out[COL_TX] = first_of(i, tx_prio, 2, mask, 8.0);
    }
    /* a capture (--pcap) sees the PFC frames on the wire, as the port they reach does */
    static const enum metric_id pfc_rx[] = { METRIC_PFC_RX_PAUSE, METRIC_CAPTURE_PFC_FRAMES };
    out[COL_PFC_RX] = first_of(i, pfc_rx, 2, mask, 1);
    struct acc a = { 0 };
    acc_add(&a, i, METRIC_PFC_TX_PAUSE, mask);
    out[COL_PFC_TX] = acc_val(&a, 1, false);
    a = (struct acc){ 0 };
    acc_add(&a, i, METRIC_PFC_RX_PAUSE_US, mask);
    if (!a.present)
        acc_add(&a, i, METRIC_CAPTURE_PFC_PAUSED_US, mask);
    out[COL_PAUSED] = acc_val(&a, 1e-4, true); /* µs per s -> % */
    if (out[COL_PAUSED].state == VAL_KNOWN && out[COL_PAUSED].v > 100)
        out[COL_PAUSED].v = 100;
    static const enum metric_id ecn[] = { METRIC_ECN_MARKED, METRIC_QUEUE_ECN_MARKED };
    out[COL_ECN] = first_of(i, ecn, 2, mask, 1);
    if (port && out[COL_ECN].state == VAL_ABSENT) {
        static const enum metric_id ce[] = { METRIC_ROCE_ECN_MARKED_RX, METRIC_CAPTURE_CE_PACKETS };
        out[COL_ECN] = first_of(i, ce, 2, NONE_SLOT, 1);
    }
    static const enum metric_id cnp_sent[] = { METRIC_CNP_SENT },
                                cnp_handled[] = { METRIC_CNP_HANDLED },
                                oos[] = { METRIC_ROCE_OUT_OF_SEQUENCE };
    struct top_val absent = { NAN, VAL_ABSENT };
    out[COL_CNP_SENT] = port ? first_of(i, cnp_sent, 1, NONE_SLOT, 1) : absent;
    out[COL_CNP_HANDLED] = port ? first_of(i, cnp_handled, 1, NONE_SLOT, 1) : absent;
    out[COL_OOS] = port ? first_of(i, oos, 1, NONE_SLOT, 1) : absent;
    a = (struct acc){ 0 };
    if (port) {
        acc_add(&a, i, METRIC_DROP_RX_DISCARDS, NONE_SLOT);
        acc_add(&a, i, METRIC_DROP_RX_BUFFER, NONE_SLOT);
    }
    acc_add(&a, i, METRIC_DROP_PRIO, mask);
    acc_add(&a, i, METRIC_PG_DROPS, mask);
    acc_add(&a, i, METRIC_QUEUE_DROPS, port ? ALL_PRIOS : mask);
    out[COL_DROPS] = acc_val(&a, 1, false);
}

unsigned model_prio_mask(const struct top_model *m, const struct top_iface *i)
{
    if (m->prio >= 0)
        return 1u << m->prio;
    if (i->config && i->config->pfc_enabled.set && (i->config->pfc_enabled.v & 0xff))
        return (unsigned)i->config->pfc_enabled.v & 0xff;
    if (i->peer && i->peer->pfc_enabled.set && (i->peer->pfc_enabled.v & 0xff))
        return (unsigned)i->peer->pfc_enabled.v & 0xff;
    return ALL_PRIOS; /* the lossless set is not known: every priority */
}

void model_prio_cols(const struct top_iface *i, int prio, struct top_val out[TOP_NCOLS])
{
    compute(i, 1u << prio, false, out);
}

bool model_prio_has_data(const struct top_iface *i, int prio)
{
    for (int m = 0; m < METRIC_COUNT; m++)
        if (i->series[m][prio])
            return true;
    return false;
}

double model_rate(const struct top_iface *i, enum metric_id m, int slot)
{
    return i->series[m][slot] ? i->series[m][slot]->rate : NAN;
}

static void settle(struct top_model *m, struct top_iface *i)
{
    if (i->cur_ns == i->settled_ns)
        return;
    compute(i, model_prio_mask(m, i), true, i->col);
    for (int c = 0; c < TOP_NCOLS; c++)
        i->hist[c][i->hist_pos] = i->col[c].state == VAL_KNOWN ? (float)i->col[c].v : NAN;
    i->hist_pos = (i->hist_pos + 1) % TOP_HIST;
    if (i->hist_n < TOP_HIST)
        i->hist_n++;
    i->settled_ns = i->cur_ns;
}

void model_settle(struct top_model *m)
{
    struct dcb_err err;
    if (m->ring)
        store_flush(m->ring, &err);
    for (size_t k = 0; k < m->n; k++)
        settle(m, m->ifaces[k]);
}

void model_mark_stale(struct top_model *m, int64_t wall_ns, int64_t interval_ns)
{
    int64_t after = 2 * interval_ns + 1000000000LL;
    for (size_t k = 0; k < m->n; k++) {
        struct top_iface *i = m->ifaces[k];
        int64_t gap = wall_ns - i->recv_wall_ns;
        if (!i->has_series || !i->recv_wall_ns || gap <= after) {
            i->stale_ns = 0;
            continue;
        }
        i->stale_ns = gap;
        for (int a = 0; a < METRIC_COUNT; a++)
            for (int b = 0; b < TOP_SLOTS; b++)
                if (i->series[a][b])
                    i->series[a][b]->rate = NAN;
        compute(i, model_prio_mask(m, i), true, i->col);
    }
}

void model_set_prio(struct top_model *m, int prio)
{
    m->prio = prio;
    for (size_t k = 0; k < m->n; k++)
        compute(m->ifaces[k], model_prio_mask(m, m->ifaces[k]), true, m->ifaces[k]->col);
}

/* ---- the sink ----------------------------------------------------------------------------- */

static struct top_series *series_new(void)
{
    struct top_series *r = calloc(1, sizeof(*r));
    if (r) {
        counter_state_init(&r->st);
        r->rate = NAN;
    }
    return r;
}

/* A reading of a series: its rate from the newest reading kept that is at least 3/4 of a window
 * older (else the one before it). A repeated reading of the same instant (a replay pass
 * boundary) keeps the rate; no rate spans a reset (the counter may restart from any value), so
 * a reset starts the series over from its reading. */
static void series_take(struct top_series *r, uint64_t value, int64_t t, unsigned width,
                        int64_t window_ns)
{
    struct counter_delta d = counter_update(&r->st, value, t, width, 0);
    if (d.kind == COUNTER_INVALID ||
        (d.kind != COUNTER_FIRST && d.kind != COUNTER_RESET && d.interval_ns <= 0))
        return;
    if (d.kind == COUNTER_FIRST || d.kind == COUNTER_RESET) {
        r->rate = NAN;
        r->newest_ns = t;
        r->newest_total = r->total;
        r->prev_ns = 0;
        return;
    }
    r->total += d.delta;
    bool newest_old_enough = 4 * (t - r->newest_ns) >= 3 * window_ns;
    int64_t base_ns = newest_old_enough || !r->prev_ns ? r->newest_ns : r->prev_ns;
    uint64_t base_total = newest_old_enough || !r->prev_ns ? r->newest_total : r->prev_total;
    r->rate = (double)(r->total - base_total) * 1e9 / (double)(t - base_ns);
    r->prev_ns = r->newest_ns;
    r->prev_total = r->newest_total;
    r->newest_ns = t;
    r->newest_total = r->total;
}

static int slot_of(const struct dcb_sample *s)
{
    if (s->prio >= 0 && s->prio < 8)
        return s->prio;
    if (s->prio < 0 && s->queue >= 0 && s->queue < 8)
        return s->queue;
    if (s->prio < 0 && s->queue < 0)
        return 8;
    return -1;
}

static void on_sample(void *arg, const struct dcb_sample *s, unsigned width_bits)
{
    struct top_model *m = arg;
    struct dcb_err err;
    if (m->ring && width_bits && width_bits != 64) /* the rules step at the width too */
        store_set_series_width(m->ring, s, width_bits, &err);
    if (m->ring)
        store_put_sample(m->ring, s, &err);
    m->samples++;
    if (s->time_ns > m->data_ns)
        m->data_ns = s->time_ns;
    if (s->metric < 0 || s->metric >= METRIC_COUNT)
        return;
    struct top_iface *i = iface_of(m, s->device, s->ifname);
    int slot = slot_of(s);
    if (!i || slot < 0)
        return;
    i->recv_wall_ns = m->wall_ns;
    i->stale_ns = 0;
    if (s->time_ns > i->cur_ns) {
        if (i->cur_ns)
            settle(m, i);
        i->cur_ns = s->time_ns;
    }
    if (s->metric == METRIC_LINK_SPEED_BPS) {
        i->speed_bps = s->value.gauge;
        return;
    }
    if (metric_info(s->metric)->kind != METRIC_COUNTER)
        return;
    struct top_series **ser = &i->series[s->metric][slot];
    if (!*ser && !(*ser = series_new()))
        return;
    i->has_series = true;
    series_take(*ser, s->value.counter, s->time_ns, width_bits ? width_bits : 64,
                m->rate_window_ns);
}

static void peer_from_details(struct top_iface *i, const char *details)
{
    cJSON *j = cJSON_Parse(details);
    const cJSON *peer = cJSON_GetObjectItemCaseSensitive(j, "peer");
    const cJSON *port = cJSON_GetObjectItemCaseSensitive(j, "port");
    const cJSON *mode = cJSON_GetObjectItemCaseSensitive(j, "dcbx");
    if (cJSON_IsString(peer))
        snprintf(i->peer_name, sizeof(i->peer_name), "%s", peer->valuestring);
    if (cJSON_IsString(port))
        snprintf(i->peer_port, sizeof(i->peer_port), "%s", port->valuestring);
    if (cJSON_IsString(mode))
        snprintf(i->peer_via, sizeof(i->peer_via), "%.8s DCBX", mode->valuestring);
    cJSON_Delete(j);
}

static void on_event(void *arg, const struct dcb_event *e)
{
    struct top_model *m = arg;
    struct dcb_err err;
    if (m->ring)
        store_put_event(m->ring, e, &err);
    m->events++;
    if (e->kind == EVENT_DCBX_SEEN) {
        struct top_iface *i = iface_of(m, e->device, e->ifname);
        if (i)
            peer_from_details(i, e->details);
    }
}

static void on_config(void *arg, const struct store_config_row *c)
{
    struct top_model *m = arg;
    struct dcb_err err;
    if (m->ring)
        store_put_config(m->ring, c, &err);
    /* where ports sit and the names devices go by are for the rules (the ring has them), not
     * rows on the screen: an alias row may name a device nothing collects */
    if (!strncmp(c->source, "topology", 8) || !strncmp(c->source, "alias:", 6))
        return;
    struct top_iface *i = iface_of(m, c->device, c->ifname);
    if (!i)
        return;
    bool peer = !strncmp(c->source, "peer:", 5);
    struct qos_config **slot = peer ? &i->peer : &i->config;
    cJSON *j = cJSON_Parse(c->json);
    struct qos_config q;
    qos_config_init(&q);
    int rc = j ? qos_from_json(&q, j, "", &err) : -1;
    cJSON_Delete(j);
    if (rc < 0)
        return;
    if (!*slot && !(*slot = malloc(sizeof(**slot))))
        return;
    if (peer)
        **slot = q; /* the partner's last advertisement */
    else if (strstr(i->config_source, c->source) || !i->config_source[0])
        **slot = q; /* a newer snapshot of the same source */
    else
        qos_merge(*slot, &q);
    if (!peer && !strstr(i->config_source, c->source)) {
        size_t used = strlen(i->config_source);
        snprintf(i->config_source + used, sizeof(i->config_source) - used, "%s%s", used ? ", " : "",
                 c->source);
    }
}

static void on_link(void *arg, const char *device, const char *ifname, const char *peer,
                    const char *peer_port, const char *how)
{
    struct top_model *m = arg;
    struct top_iface *i = iface_of(m, device, ifname);
    if (!i)
        return;
    snprintf(i->peer_name, sizeof(i->peer_name), "%s", peer);
    snprintf(i->peer_port, sizeof(i->peer_port), "%s", peer_port);
    snprintf(i->peer_via, sizeof(i->peer_via), "%s", how);
}

static void on_reset(void *arg)
{
    struct top_model *m = arg;
    clear_ifaces(m);
    struct dcb_err err;
    store_close(m->ring, NULL);
    m->ring = NULL;
    if (store_open_ring(&m->ring, RING_SAMPLES, RING_EVENTS, &err) < 0)
        m->ring = NULL;
    m->nfindings = 0;
    m->data_ns = 0;
    m->dirty = true;
}

struct dcb_sink model_sink(struct top_model *m)
{
    return (struct dcb_sink){ on_sample, on_event, on_config, on_link, on_reset, m };
}

/* ---- findings ----------------------------------------------------------------------------- */

void model_load_rules(struct top_model *m, const char *const *dirs, int ndirs, const char *profile)
{
    struct dcb_err err;
    m->profile = profile;
    if (rule_set_load_catalog(&m->rules, dirs, ndirs, &err) < 0) {
        snprintf(m->rules_error, sizeof(m->rules_error), "%s", err.msg);
        rule_set_free(&m->rules);
        rule_set_init(&m->rules);
        return;
    }
    m->rules_loaded = true;
}

static void on_finding(void *arg, const struct finding *f)
{
    struct top_model *m = arg;
    if (m->nfindings == m->findings_cap &&
        dcb_grow(&m->findings, &m->findings_cap, sizeof(*m->findings), 16) < 0)
        return;
    m->findings[m->nfindings++] = *f;
}

static int by_order(const void *a, const void *b)
{
    return finding_order(a, b);
}

int model_run_rules(struct top_model *m, struct dcb_err *err)
{
    m->nfindings = 0;
    m->findings_ns = m->data_ns ? m->data_ns : 1;
    m->dirty = false;
    for (size_t k = 0; k < m->n; k++)
        m->ifaces[k]->severity = -1;
    if (!m->rules_loaded || !m->ring || !m->data_ns)
        return 0;
    struct evidence ev = { 0 };
    if (evidence_store_open(&ev, m->ring, m->data_ns, err) < 0)
        return -1;
    int rc = evidence_store_preload(&ev, m->data_ns - EVIDENCE_WINDOW_NS, err);
    if (rc == 0) {
        struct rule_run_options opt = { .profile = m->profile,
                                        .now_ns = m->data_ns,
                                        .on_finding = on_finding,
                                        .arg = m };
        struct rule_run_stats stats;
        rc = rule_set_run(&m->rules, &ev, &opt, &stats, err);
    }
    evidence_store_close(&ev);
    if (m->nfindings)
        qsort(m->findings, m->nfindings, sizeof(*m->findings), by_order);
    for (size_t f = 0; f < m->nfindings; f++)
        for (size_t k = 0; k < m->n; k++) {
            struct top_iface *i = m->ifaces[k];
            if (!strcmp(i->device, m->findings[f].device) &&
                (!m->findings[f].ifname[0] || !strcmp(i->ifname, m->findings[f].ifname)) &&
                (int)m->findings[f].severity > i->severity)
                i->severity = (int)m->findings[f].severity;
        }
    return rc;
}
