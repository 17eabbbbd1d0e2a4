#include "host_source.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcqcn_knobs.h"
#include "event_details.h"
#include "lldp_peer.h"
#include "out.h"
#include "qos_json.h"

#define MAX_IFACES 1024

/* Counter state per (interface, source, name), in an open-addressing table. */
struct host_counter_track {
    char key[IFNAMSIZ + 80];
    struct counter_state state;
    bool used;
};

struct host_source_iface {
    char name[IFNAMSIZ];
    bool present; /* read successfully at the last tick */
    bool warned;
    bool dcb_warned;           /* "DCB not supported" said once */
    struct qos_config *config; /* the last config snapshot taken, NULL before the first */
    struct lldp_listener lldp;
    bool lldp_tried;         /* opened, or failed and said so */
    struct qos_config *peer; /* what the link partner last advertised */
    char peer_key[160];      /* "peer:port" it came from */
};

static void say(struct host_source *hs, enum dcb_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void say(struct host_source *hs, enum dcb_log_level level, const char *fmt, ...)
{
    if (!hs->sink.message)
        return;
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    hs->sink.message(hs->sink.arg, level, text);
}

static uint64_t hash_key(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return h;
}

static struct counter_state *track(struct host_source *hs, const char *key)
{
    if ((hs->track_count + 1) * 2 > hs->track_cap) {
        size_t cap = hs->track_cap ? hs->track_cap * 2 : 4096;
        struct host_counter_track *slots = calloc(cap, sizeof(*slots));
        if (!slots)
            return NULL;
        for (size_t i = 0; i < hs->track_cap; i++) {
            if (!hs->track[i].used)
                continue;
            size_t pos = hash_key(hs->track[i].key) & (cap - 1);
            while (slots[pos].used)
                pos = (pos + 1) & (cap - 1);
            slots[pos] = hs->track[i];
        }
        free(hs->track);
        hs->track = slots;
        hs->track_cap = cap;
    }
    size_t pos = hash_key(key) & (hs->track_cap - 1);
    while (hs->track[pos].used) {
        if (!strcmp(hs->track[pos].key, key))
            return &hs->track[pos].state;
        pos = (pos + 1) & (hs->track_cap - 1);
    }
    snprintf(hs->track[pos].key, sizeof(hs->track[pos].key), "%s", key);
    hs->track[pos].used = true;
    counter_state_init(&hs->track[pos].state);
    hs->track_count++;
    return &hs->track[pos].state;
}

static void emit_event(struct host_source *hs, int64_t now, enum dcb_event_kind kind,
                       const char *ifname, int prio, const char *details)
{
    struct dcb_event e;
    dcb_event_set(&e, now, kind, hs->device, ifname, prio, details);
    hs->events++;
    if (hs->sink.event)
        hs->sink.event(hs->sink.arg, &e);
}

void host_source_counter(struct host_source *hs, int64_t now, const char *ifname,
                         const struct host_counter *c)
{
    char key[IFNAMSIZ + 80];
    snprintf(key, sizeof(key), "%s/%s/%s", ifname, c->source, c->raw);
    struct counter_state *st = track(hs, key);
    struct counter_delta d = { .kind = COUNTER_FIRST };
    if (st) {
        d = counter_update(st, c->value, now, c->mapped ? c->match.bits : 64, 0);
        if (d.kind == COUNTER_RESET) {
            struct event_details details;
            event_details_init(&details);
            event_details_str(&details, "source", c->source);
            event_details_str(&details, "counter", c->raw);
            event_details_u64(&details, "previous", d.previous);
            event_details_u64(&details, "value", c->value);
            emit_event(hs, now, EVENT_COUNTER_RESET, ifname, c->mapped ? c->match.prio : -1,
                       event_details_json(&details));
        }
    }
    hs->samples++;
    if (hs->sink.counter)
        hs->sink.counter(hs->sink.arg, now, ifname, c, &d);
}

static char *config_json(const struct qos_config *c)
{
    cJSON *j = qos_to_json(c);
    char *text = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    return text;
}

/* The interface's DCB config and DCQCN knobs, passed on when they change. */
static void snapshot_config(struct host_source *hs, int64_t now, struct host_source_iface *s,
                            const struct host_iface_reading *reading)
{
    struct qos_config c;
    qos_config_init(&c);
    char source[64] = "", knobs[32];
    struct dcb_err err;
    if (reading->dcb_status == 0) {
        c = reading->dcb;
        snprintf(source, sizeof(source), "dcbnl");
    } else if (hs->reader.live && !s->dcb_warned) {
        s->dcb_warned = true;
        say(hs, DCB_LOG_WARN, "%s: DCB config not available: %s", s->name,
            reading->dcb_status == DCB_E_UNSUPP ? "not supported by the driver" : "error");
        if (reading->driver[0])
            say(hs, DCB_LOG_INFO, "%s uses %s", s->name, reading->driver);
    }
    int rc = dcqcn_read(hs->reader.sysfs_root, s->name, &c, knobs, sizeof(knobs), &err);
    if (rc < 0 && rc != DCB_E_NOTFOUND)
        say(hs, DCB_LOG_WARN, "%s", err.msg);
    if (rc == 0)
        snprintf(source + strlen(source), sizeof(source) - strlen(source), "%s%s",
                 source[0] ? " + " : "", knobs);
    if (!source[0])
        return;
    if (s->config && qos_diff(s->config, &c, NULL, NULL) == 0)
        return;
    if (!s->config && !(s->config = malloc(sizeof(*s->config))))
        return;
    *s->config = c;
    char *text = config_json(&c);
    if (!text)
        return;
    struct host_config_snap snap = { now, s->name, source, &c, text, NULL, NULL, NULL, NULL };
    if (hs->sink.config)
        hs->sink.config(hs->sink.arg, &snap);
    free(text);
}

struct lldp_seen {
    struct host_source *hs;
    struct host_source_iface *s;
    int64_t now;
};

/* A neighbour's LLDP frame: a dcbx_seen event and the peer's advertised config, when new. */
static void on_lldp(const struct dcb_frame *f, void *arg)
{
    struct lldp_seen *ls = arg;
    struct host_source *hs = ls->hs;
    struct host_source_iface *s = ls->s;
    struct qos_config c;
    qos_config_init(&c);
    char peer[DCB_DEVICE_MAX], port[DCB_IFNAME_MAX], key[sizeof(s->peer_key)];
    const char *mode = lldp_peer_config(&f->lldp, &c, peer, sizeof(peer), port, sizeof(port));
    snprintf(key, sizeof(key), "%s:%s", peer, port);
    if (s->peer && !strcmp(key, s->peer_key) && qos_diff(s->peer, &c, NULL, NULL) == 0)
        return;
    if (!s->peer && !(s->peer = malloc(sizeof(*s->peer))))
        return;
    *s->peer = c;
    snprintf(s->peer_key, sizeof(s->peer_key), "%s", key);
    struct event_details details;
    event_details_init(&details);
    event_details_str(&details, "peer", peer);
    event_details_str(&details, "port", port);
    event_details_str(&details, "dcbx", mode);
    emit_event(hs, ls->now, EVENT_DCBX_SEEN, s->name, -1, event_details_json(&details));
    char *text = config_json(&c);
    if (!text)
        return;
    /* kept under this port: "the config its link partner advertises", which is what rules read
     * as peer.* (the partner's own name is in the dcbx_seen event) */
    char chassis[3 * DCB_DEVICE_MAX];
    lldp_peer_chassis(&f->lldp, chassis, sizeof(chassis));
    struct host_config_snap snap = { ls->now, s->name, "peer:lldp", &c,  text,
                                     peer,    port,    chassis,     mode };
    if (hs->sink.config)
        hs->sink.config(hs->sink.arg, &snap);
    free(text);
}

static void listen_lldp(struct host_source *hs, int64_t now, struct host_source_iface *s)
{
    struct dcb_err err;
    if (!s->lldp.pcap && !s->lldp_tried) {
        s->lldp_tried = true;
        int rc = lldp_listen_open(&s->lldp, s->name, &err);
        if (rc == DCB_E_PERM) {
            if (!hs->lldp_perm_warned)
                say(hs, DCB_LOG_WARN, "%s; neighbours are not recorded, counters still are",
                    err.msg);
            hs->lldp_perm_warned = true;
        } else if (rc < 0) {
            say(hs, DCB_LOG_WARN, "%s", err.msg);
        }
    }
    struct lldp_seen ls = { hs, s, now };
    if (lldp_listen_poll(&s->lldp, on_lldp, &ls, &err) < 0) {
        say(hs, DCB_LOG_WARN, "%s: %s", s->name, err.msg);
        lldp_listen_close(&s->lldp);
    }
}

static void stop_lldp(struct host_source_iface *s)
{
    lldp_listen_close(&s->lldp);
    s->lldp_tried = false; /* open again when the interface returns */
}

static bool has_wildcard(const char *p)
{
    return p && strpbrk(p, "*?[") != NULL;
}

static struct host_source_iface *iface_of(struct host_source *hs, const char *name)
{
    for (size_t i = 0; i < hs->nifaces; i++)
        if (!strcmp(hs->ifaces[i].name, name))
            return &hs->ifaces[i];
    if (hs->nifaces == MAX_IFACES)
        return NULL;
    struct host_source_iface *s = &hs->ifaces[hs->nifaces++];
    memset(s, 0, sizeof(*s));
    snprintf(s->name, sizeof(s->name), "%s", name);
    return s;
}

int host_source_open(struct host_source *hs, const struct host_source_options *opt,
                     const struct host_source_sink *sink, struct dcb_err *err)
{
    memset(hs, 0, sizeof(*hs));
    if (sink)
        hs->sink = *sink;
    hs->pattern = opt->pattern;
    hs->lldp = opt->lldp;
    hs->config_every = opt->config_every ? opt->config_every : 1;
    hs->config_delay = opt->config_delay;
    snprintf(hs->device, sizeof(hs->device), "%s", opt->device ? opt->device : "localhost");
    hs->ifaces = calloc(MAX_IFACES, sizeof(*hs->ifaces));
    if (!hs->ifaces)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    int rc = host_reader_open(&hs->reader, opt->sysfs_root, opt->maps, err);
    if (rc < 0) {
        free(hs->ifaces);
        hs->ifaces = NULL;
        return rc;
    }
    host_reader_set_proc_root(&hs->reader, opt->proc_root);
    host_reader_set_raw_every(&hs->reader, opt->mapped_only ? 0
                                           : opt->raw_every ? opt->raw_every
                                                            : HOST_RAW_EVERY);
    return 0;
}

int host_source_tick(struct host_source *hs, int64_t now, struct dcb_err *err)
{
    char names[MAX_IFACES][IFNAMSIZ];
    bool first = hs->ticks++ == 0;
    size_t n = 0;
    if (host_list_ifaces(&hs->reader, hs->pattern, names, MAX_IFACES, &n, err) < 0) {
        hs->failures++;
        return -1;
    }
    if (hs->pattern && !has_wildcard(hs->pattern) && n == 0) {
        snprintf(names[0], IFNAMSIZ, "%s", hs->pattern); /* named: report it when absent */
        n = 1;
    }
    /* interfaces seen before and not listed now are gone */
    for (size_t i = 0; i < hs->nifaces; i++) {
        bool listed = false;
        for (size_t k = 0; k < n && !listed; k++)
            listed = !strcmp(names[k], hs->ifaces[i].name);
        if (!listed && hs->ifaces[i].present) {
            hs->ifaces[i].present = false;
            stop_lldp(&hs->ifaces[i]);
            emit_event(hs, now, EVENT_SOURCE_GAP, hs->ifaces[i].name, -1,
                       "{\"reason\":\"interface gone\"}");
        }
    }
    int read = 0;
    struct host_iface_reading *reading = &hs->reading;
    for (size_t k = 0; k < n; k++) {
        struct host_source_iface *s = iface_of(hs, names[k]);
        if (!s)
            break;
        struct dcb_err ierr;
        int rc = host_read_iface(&hs->reader, names[k], reading, &ierr);
        if (rc < 0) {
            if (s->present) {
                s->present = false;
                stop_lldp(s);
                emit_event(hs, now, EVENT_SOURCE_GAP, names[k], -1,
                           rc == DCB_E_NOTFOUND ? "{\"reason\":\"interface gone\"}"
                                                : "{\"reason\":\"read failed\"}");
            } else if (!s->warned || first) {
                say(hs, DCB_LOG_ERROR, "%s", ierr.msg);
            }
            s->warned = true;
            hs->failures++;
            continue;
        }
        if (!s->present && s->warned && !first)
            say(hs, DCB_LOG_INFO, "%s is back", names[k]);
        s->present = true;
        s->warned = false;
        read++;
        for (size_t i = 0; i < reading->n; i++)
            host_source_counter(hs, now, names[k], &reading->counters[i]);
        if (reading->speed_bps) {
            hs->samples++;
            if (hs->sink.speed)
                hs->sink.speed(hs->sink.arg, now, names[k], reading->speed_bps,
                               reading->speed_source);
        }
        if (hs->ticks > hs->config_delay &&
            (hs->ticks - 1 - hs->config_delay) % hs->config_every == 0)
            snapshot_config(hs, now, s, reading);
        if (hs->lldp && hs->reader.live)
            listen_lldp(hs, now, s);
    }
    return read;
}

void host_source_close(struct host_source *hs)
{
    host_reading_free(&hs->reading);
    host_reader_close(&hs->reader);
    free(hs->track);
    for (size_t i = 0; i < hs->nifaces; i++) {
        free(hs->ifaces[i].config);
        free(hs->ifaces[i].peer);
        lldp_listen_close(&hs->ifaces[i].lldp);
    }
    free(hs->ifaces);
    memset(hs, 0, sizeof(*hs));
}
