/* The QoS view as text (qos_text.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qos_text.h"
#include "view.h"

static void field(const struct qos_config *c, const char *path, char *buf, size_t len)
{
    struct dcb_err err;
    if (!c || qos_get(c, path, buf, len, &err) < 0)
        snprintf(buf, len, "-");
}

/* prio2tc, ets.tsa, ets.bw: eight values, "?" where unknown, "-" when all are. */
static void table8(const struct qos_config *c, const char *base, char *buf, size_t len)
{
    size_t o = 0;
    bool any = false;
    buf[0] = '\0';
    for (int k = 0; k < 8; k++) {
        char path[64], v[32];
        snprintf(path, sizeof(path), "%s.%d", base, k);
        field(c, path, v, sizeof(v));
        if (strcmp(v, "-"))
            any = true;
        int w = snprintf(buf + o, len - o, "%s%s", k ? " " : "", strcmp(v, "-") ? v : "?");
        if (w < 0 || (size_t)w >= len - o)
            break;
        o += (size_t)w;
    }
    if (!any)
        snprintf(buf, len, "-");
}

static void dscp_map(const struct qos_config *c, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int p = 0; c && p < 8; p++) {
        bool first = true;
        for (int d = 0; d < 64; d++) {
            if (!c->dscp2prio[d].set || c->dscp2prio[d].v != p)
                continue;
            int w = snprintf(buf + o, len - o, "%s%d", first ? (o ? " | " : "") : ",", d);
            if (w < 0 || (size_t)w >= len - o)
                return;
            o += (size_t)w;
            first = false;
        }
        if (!first) {
            int w = snprintf(buf + o, len - o, ">%d", p);
            if (w < 0 || (size_t)w >= len - o)
                return;
            o += (size_t)w;
        }
    }
    if (!o)
        snprintf(buf, len, "-");
}

/* Per-TC or per-PG records: "3: min_bytes=150000 ecn=1" for each index with a field set. */
static void records(const struct qos_config *c, const char *base, const char *const *subs,
                    char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int k = 0; k < 8; k++) {
        char rec[256] = "";
        size_t r = 0;
        for (int s = 0; subs[s]; s++) {
            char path[64], v[32];
            snprintf(path, sizeof(path), "%s.%d.%s", base, k, subs[s]);
            field(c, path, v, sizeof(v));
            if (!strcmp(v, "-"))
                continue;
            int w = snprintf(rec + r, sizeof(rec) - r, " %s=%s", subs[s], v);
            if (w < 0 || (size_t)w >= sizeof(rec) - r)
                break;
            r += (size_t)w;
        }
        if (!r)
            continue;
        int w = snprintf(buf + o, len - o, "%s%d:%s", o ? " | " : "", k, rec);
        if (w < 0 || (size_t)w >= len - o)
            return;
        o += (size_t)w;
    }
    if (!o)
        snprintf(buf, len, "-");
}

const struct qos_row qos_rows[QOS_NROWS] = {
    { "DCBX mode", Q_FIELD, "dcbx.mode", false },
    { "trust", Q_FIELD, "trust", false },
    { "PFC enabled", Q_FIELD, "pfc.enabled", true },
    { "PFC willing", Q_FIELD, "pfc.willing", false },
    { "DSCP>prio", Q_DSCP, "dscp2prio", true },
    { "prio>TC", Q_TABLE8, "prio2tc", true },
    { "ETS TSA", Q_TABLE8, "ets.tsa", true },
    { "ETS bw %", Q_TABLE8, "ets.bw", true },
    { "WRED/ECN", Q_WRED, "wred", false },
    { "buffers", Q_BUFFER, "buffer", false },
    { "DCQCN NP", Q_FIELD, "dcqcn.np_enabled", false },
    { "DCQCN RP", Q_FIELD, "dcqcn.rp_enabled", false },
    { "DCQCN rai", Q_FIELD, "dcqcn.rai_mbps", false },
    { "DCQCN min gap", Q_FIELD, "dcqcn.min_time_between_cnps_us", false },
    { "CNP dscp/prio", Q_FIELD, "cnp.dscp", false },
    { "PFC watchdog", Q_FIELD, "pfcwd.detect_ms", false },
    { "MTU", Q_FIELD, "mtu", false },
    { "speed", Q_FIELD, "speed_bps", false },
};

static void qos_text(const struct qos_row *r, const struct qos_config *c, char *buf, size_t len)
{
    static const char *const wred[] = { "min_bytes", "max_bytes", "max_p", "ecn", NULL };
    static const char *const buffer[] = { "size", "xoff", "xon", "headroom", "dynamic_th", NULL };
    switch (r->kind) {
    case Q_FIELD: field(c, r->path, buf, len); break;
    case Q_TABLE8: table8(c, r->path, buf, len); break;
    case Q_DSCP: dscp_map(c, buf, len); break;
    case Q_WRED: records(c, "wred", wred, buf, len); break;
    case Q_BUFFER: records(c, "buffer", buffer, buf, len); break;
    }
}


bool qos_row_text(const struct top_iface *i, size_t r, char *here, char *there, size_t len,
                  bool utf8)
{
    const struct qos_row *row = &qos_rows[r];
    qos_text(row, i->config, here, len);
    qos_text(row, i->peer, there, len);
    if (!strcmp(row->path, "speed_bps") && !strcmp(here, "-") && isfinite(i->speed_bps)) {
        view_format(here, len, (struct top_val){ i->speed_bps, VAL_KNOWN }, UNIT_BPS, utf8);
        strncat(here, "b/s (measured)", len - strlen(here) - 1);
    }
    return row->compare && strcmp(here, "-") && strcmp(there, "-") && strcmp(here, there);
}

void qos_title(const struct top_iface *i, char *buf, size_t len)
{
    snprintf(buf, len, "QoS config of %s/%s (%s)", i->device, i->ifname,
             i->config_source[0] ? i->config_source : "no config snapshot");
}

void qos_partner(const struct top_iface *i, char *buf, size_t len)
{
    if (i->peer_name[0] || i->peer)
        snprintf(buf, len, "link partner: %s port %s (%s)", i->peer_name[0] ? i->peer_name : "?",
                 i->peer_port[0] ? i->peer_port : "?",
                 i->peer_via[0] ? i->peer_via : "advertised config only");
    else
        snprintf(buf, len, "link partner: nothing advertised (no LLDP/DCBX seen)");
}
