/* Loading replay scenarios: the JSON document, the fabric (inline or by path, inlined into the
 * document), --set overrides, the workload and the faults. Every error is one line naming the
 * JSON path (or the --set path). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_text.h"
#include "qos_fields.h"
#include "scenario.h"
#include "scenario_json.h"

#define SET_PATH_MAX 256

static const char *const top_keys[] = { "name",
                                        "description",
                                        "signature",
                                        "comment",
                                        "fabric",
                                        "workload",
                                        "faults",
                                        "duration_ms",
                                        "seed",
                                        "sample_interval_us",
                                        "series_interval_us",
                                        "dcqcn",
                                        "mark_on_dequeue",
                                        "ack_every",
                                        "retransmit_timeout_us",
                                        "max_memory_bytes",
                                        NULL };

/* Times in a pass: from 0 (or a least figure) to the longest pass, REPLAY_TIME_MAX_NS. */
static const struct scenario_json_span any_time = { 0, REPLAY_TIME_MAX_NS, false };
static const struct scenario_json_span duration_span = { 1000, REPLAY_TIME_MAX_NS, false };
static const struct scenario_json_span sample_span = { 1000, REPLAY_TIME_MAX_NS, true };
static const struct scenario_json_span series_span = { 100, REPLAY_TIME_MAX_NS, true };
static const struct scenario_json_span rto_span = { 1000, REPLAY_TIME_MAX_NS, false };

/* ---- reading files ------------------------------------------------------------------------ */

static cJSON *parse_json(const char *text, size_t len, const char *source, struct dcb_err *err)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (root)
        return root;
    size_t off = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
    int line, col;
    dcb_text_position(text, off, &line, &col);
    dcb_err_set(err, DCB_E_INVAL, "%s:%d:%d: not valid JSON", source, line, col);
    return NULL;
}

/* A fabric named by path is read (relative to the scenario's folder) and put in its place. */
static int inline_fabric(cJSON *doc, const char *base_dir, struct dcb_err *err)
{
    cJSON *fab = cJSON_GetObjectItemCaseSensitive(doc, "fabric");
    if (!fab)
        return dcb_err_set(err, DCB_E_INVAL, "fabric: missing (a fabric object or a file path)");
    if (cJSON_IsObject(fab))
        return 0;
    if (!cJSON_IsString(fab) || !fab->valuestring[0])
        return dcb_err_set(err, DCB_E_INVAL, "fabric: must be an object or a file path");
    char path[4096];
    if (fab->valuestring[0] == '/' || !base_dir || !*base_dir)
        snprintf(path, sizeof(path), "%s", fab->valuestring);
    else
        snprintf(path, sizeof(path), "%s/%s", base_dir, fab->valuestring);
    char *text;
    size_t len;
    struct dcb_err inner;
    if (dcb_read_text_file(path, FABRIC_FILE_MAX, &text, &len, &inner) < 0)
        return dcb_err_set(err, inner.code, "fabric: %s", inner.msg);
    cJSON *obj = parse_json(text, len, path, &inner);
    free(text);
    if (!obj)
        return dcb_err_set(err, DCB_E_INVAL, "fabric: %s", inner.msg);
    cJSON_ReplaceItemInObjectCaseSensitive(doc, "fabric", obj);
    return 0;
}

/* ---- --set -------------------------------------------------------------------------------- */

/* The value as JSON when it reads as a number, true/false/null, an object, an array or a
 * quoted string; anything else is a string ("50KB", "host3"). */
static cJSON *set_value(const char *text)
{
    cJSON *v = cJSON_ParseWithOpts(text, NULL, 1); /* all of it: "64KB" is a string */
    if (v)
        return v;
    return cJSON_CreateString(text);
}

/* Sets doc.path (dots between keys, [N] or a number for list items); every step but the last
 * must exist, the last may be new (the loader then says whether it is a key it knows). */
static int set_json(cJSON *doc, const char *path, const char *value, struct dcb_err *err)
{
    char buf[SET_PATH_MAX];
    snprintf(buf, sizeof(buf), "%s", path);
    for (char *c = buf; *c; c++)
        if (*c == '[')
            *c = '.';
        else if (*c == ']')
            *c = ' ';
    /* "faults[1].at_ms" -> "faults.1 .at_ms": drop the spaces */
    char clean[SET_PATH_MAX];
    size_t n = 0;
    for (char *c = buf; *c && n + 1 < sizeof(clean); c++)
        if (*c != ' ')
            clean[n++] = *c;
    clean[n] = '\0';
    cJSON *node = doc;
    char *save = NULL, *tok = strtok_r(clean, ".", &save);
    char done[SET_PATH_MAX] = "";
    while (tok) {
        char *next = strtok_r(NULL, ".", &save);
        cJSON *child;
        if (cJSON_IsArray(node)) {
            char *end;
            long idx = strtol(tok, &end, 10);
            if (*end || idx < 0 || idx >= cJSON_GetArraySize(node))
                return dcb_err_set(err, DCB_E_NOTFOUND, "--set %s: %s has no item %s", path,
                                   done[0] ? done : "the scenario", tok);
            child = cJSON_GetArrayItem(node, (int)idx);
        } else if (cJSON_IsObject(node)) {
            child = cJSON_GetObjectItemCaseSensitive(node, tok);
        } else {
            return dcb_err_set(err, DCB_E_NOTFOUND, "--set %s: %s is not an object", path, done);
        }
        if (!next) {
            cJSON *v = set_value(value);
            if (!v)
                return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
            if (cJSON_IsArray(node))
                cJSON_ReplaceItemInArray(node, atoi(tok), v);
            else if (child)
                cJSON_ReplaceItemInObjectCaseSensitive(node, tok, v);
            else
                cJSON_AddItemToObject(node, tok, v);
            return 0;
        }
        if (!child)
            return dcb_err_set(err, DCB_E_NOTFOUND, "--set %s: %s%s%s does not exist", path, done,
                               done[0] ? "." : "", tok);
        size_t dl = strlen(done);
        snprintf(done + dl, sizeof(done) - dl, "%s%s", dl ? "." : "", tok);
        node = child;
        tok = next;
    }
    return dcb_err_set(err, DCB_E_INVAL, "--set %s: an empty path", path);
}

static bool is_top_key(const char *path)
{
    size_t n = strcspn(path, ".[=");
    for (const char *const *k = top_keys; *k; k++)
        if (strlen(*k) == n && !strncmp(*k, path, n))
            return true;
    return false;
}

/* Does a config field apply to a device of this role? switch.* on switches, nic.* on hosts. */
static bool field_applies(const struct qos_field *f, enum fabric_role role)
{
    if (!strncmp(f->pattern, "switch.", 7))
        return role == FABRIC_SWITCH;
    if (!strncmp(f->pattern, "nic.", 4))
        return role == FABRIC_HOST;
    return true;
}

static struct fabric_iface *get_iface(struct fabric_device *d, const char *name,
                                      struct dcb_err *err)
{
    for (size_t i = 0; i < d->nifaces; i++)
        if (!strcmp(d->ifaces[i].name, name))
            return &d->ifaces[i];
    if (d->nifaces == d->ifaces_cap) {
        size_t cap = d->ifaces_cap ? d->ifaces_cap * 2 : 4;
        struct fabric_iface *grown = realloc(d->ifaces, cap * sizeof(*grown));
        if (!grown) {
            dcb_err_set(err, DCB_E_NOMEM, "out of memory");
            return NULL;
        }
        d->ifaces = grown;
        d->ifaces_cap = cap;
    }
    struct fabric_iface *i = &d->ifaces[d->nifaces++];
    memset(i, 0, sizeof(*i));
    snprintf(i->name, sizeof(i->name), "%s", name);
    qos_config_init(&i->config);
    return i;
}

/* Links carry speed and cable length over every config layer: set them there too. */
static int set_links(struct fabric *f, const char *device, const char *ifname,
                     const struct qos_config *c, bool speed)
{
    for (size_t i = 0; i < f->nlinks; i++) {
        struct fabric_link *l = &f->links[i];
        bool match = !device;
        for (int e = 0; e < 2 && !match; e++) {
            const struct fabric_end *end = e ? &l->b : &l->a;
            match = !strcmp(end->device, device) && (!ifname || !strcmp(end->ifname, ifname));
        }
        if (!match)
            continue;
        if (speed) {
            l->speed_bps = (uint64_t)c->speed_bps.v;
        } else {
            l->cable_mm = (uint64_t)c->cable_mm.v;
            l->cable_set = true;
        }
    }
    return 0;
}

/* A config override at the top of every layer: "path=value" on every device the field applies
 * to, or "device/path", "device:ifname/path" for one. Also the "config" fault. */
static int apply_config(struct fabric *f, const char *device, const char *ifname, const char *path,
                        const char *value, const char *what, struct dcb_err *err)
{
    int index;
    const struct qos_field *fld = qos_find_field(path, &index);
    if (!fld)
        return dcb_err_set(err, DCB_E_NOTFOUND,
                           "%s: no such scenario key or config path "
                           "(see docs/scenario.md, 'dcbkit fabric paths')",
                           what);
    struct qos_config probe;
    qos_config_init(&probe);
    struct dcb_err inner;
    if (qos_set(&probe, path, value, &inner) < 0)
        return dcb_err_set(err, inner.code, "%s: %s", what, inner.msg);
    bool any = false;
    for (size_t d = 0; d < f->ndevices; d++) {
        struct fabric_device *dev = &f->devices[d];
        if (device ? strcmp(dev->name, device) != 0 : !field_applies(fld, dev->role))
            continue;
        any = true;
        if (ifname) {
            struct fabric_iface *i = get_iface(dev, ifname, err);
            if (!i)
                return DCB_E_NOMEM;
            qos_set(&i->config, path, value, NULL);
        } else {
            qos_set(&dev->config, path, value, NULL);
            for (size_t i = 0; i < dev->nifaces; i++)
                qos_set(&dev->ifaces[i].config, path, value, NULL);
        }
    }
    if (device && !any)
        return dcb_err_set(err, DCB_E_NOTFOUND, "%s: no device \"%s\" in the fabric", what, device);
    if (probe.speed_bps.set)
        set_links(f, device, ifname, &probe, true);
    if (probe.cable_mm.set)
        set_links(f, device, ifname, &probe, false);
    return 0;
}

/* "[device[:ifname]/]path=value" for the fabric. */
static int apply_config_assignment(struct fabric *f, const char *assignment, struct dcb_err *err)
{
    char buf[SET_PATH_MAX + 128];
    snprintf(buf, sizeof(buf), "%s", assignment);
    char *eq = strchr(buf, '=');
    *eq = '\0';
    char *path = buf, *device = NULL, *ifname = NULL;
    char *slash = strchr(buf, '/');
    if (slash) {
        *slash = '\0';
        device = buf;
        path = slash + 1;
        char *colon = strchr(device, ':');
        if (colon) {
            *colon = '\0';
            ifname = colon + 1;
        }
    }
    char what[SET_PATH_MAX + 16];
    snprintf(what, sizeof(what), "--set %.*s", (int)(eq - buf), assignment);
    if (ifname && device) {
        const struct fabric_device *d = fabric_find_device(f, device);
        if (d && !fabric_find_link(f, device, ifname, NULL)) {
            bool known = false;
            for (size_t i = 0; i < d->nifaces; i++)
                known = known || !strcmp(d->ifaces[i].name, ifname);
            if (!known)
                return dcb_err_set(err, DCB_E_NOTFOUND, "%s: %s has no interface \"%s\"", what,
                                   device, ifname);
        }
    }
    return apply_config(f, device, ifname, path, eq + 1, what, err);
}

/* ---- faults ------------------------------------------------------------------------------- */

static const char *keep_string(struct scenario *sc, const char *s)
{
    char **grown = realloc(sc->strings, (sc->nstrings + 1) * sizeof(*grown));
    if (!grown)
        return NULL;
    sc->strings = grown;
    char *copy = strdup(s);
    if (copy)
        sc->strings[sc->nstrings++] = copy;
    return copy;
}

static int fault_host(struct scenario *sc, const cJSON *fj, const char *where,
                      struct replay_fault *ft, struct dcb_err *err)
{
    const char *host = NULL;
    int rc;
    if ((rc = scenario_json_need(fj, "host", where, err)) < 0 ||
        (rc = scenario_json_string(fj, "host", DCB_DEVICE_MAX, &host, where, err)) < 0)
        return rc;
    const struct fabric_device *d = fabric_find_device(&sc->fabric, host);
    if (!d)
        return dcb_err_set(err, DCB_E_NOTFOUND, "%s.host: no host \"%s\" in the fabric", where,
                           host);
    if (d->role != FABRIC_HOST)
        return dcb_err_set(err, DCB_E_INVAL, "%s.host: \"%s\" is a switch, not a host", where,
                           host);
    ft->device = keep_string(sc, host);
    return ft->device ? 0 : dcb_err_set(err, DCB_E_NOMEM, "out of memory");
}

static int fault_config(struct scenario *sc, const cJSON *fj, const char *where,
                        struct dcb_err *err)
{
    static const char *const keys[] = { "type", "device", "ifname", "set", "comment", NULL };
    const char *device = NULL, *ifname = NULL;
    int rc;
    if ((rc = scenario_json_keys(fj, keys, where, err)) < 0 ||
        (rc = scenario_json_string(fj, "device", DCB_DEVICE_MAX, &device, where, err)) < 0 ||
        (rc = scenario_json_string(fj, "ifname", DCB_IFNAME_MAX, &ifname, where, err)) < 0 ||
        (rc = scenario_json_need(fj, "set", where, err)) < 0)
        return rc;
    if (ifname && !device)
        return dcb_err_set(err, DCB_E_INVAL, "%s.ifname: needs a device", where);
    if (device && !fabric_find_device(&sc->fabric, device))
        return dcb_err_set(err, DCB_E_NOTFOUND, "%s.device: no device \"%s\" in the fabric", where,
                           device);
    const cJSON *set = cJSON_GetObjectItemCaseSensitive(fj, "set");
    if (!cJSON_IsObject(set) || !set->child)
        return dcb_err_set(err, DCB_E_INVAL, "%s.set: an object of config paths and values", where);
    const cJSON *it;
    cJSON_ArrayForEach(it, set) {
        char what[300], value[128];
        snprintf(what, sizeof(what), "%s.set.%s", where, it->string);
        if (cJSON_IsString(it))
            snprintf(value, sizeof(value), "%s", it->valuestring);
        else if (cJSON_IsNumber(it))
            snprintf(value, sizeof(value), "%.17g", it->valuedouble);
        else if (cJSON_IsBool(it))
            snprintf(value, sizeof(value), "%s", cJSON_IsTrue(it) ? "true" : "false");
        else
            return dcb_err_set(err, DCB_E_INVAL, "%s: a number, a string or true/false", what);
        if ((rc = apply_config(&sc->fabric, device, ifname, it->string, value, what, err)) < 0)
            return rc;
    }
    return 0;
}

static int load_fault(struct scenario *sc, const cJSON *fj, size_t idx, struct dcb_err *err)
{
    static const char *const slow_keys[] = { "type",  "host",     "drain",   "xoff_bytes",
                                             "at_ms", "until_ms", "comment", NULL };
    static const char *const storm_keys[] = { "type",     "host",    "prio", "at_ms",
                                              "until_ms", "comment", NULL };
    static const char *const down_keys[] = { "type", "link", "at_ms", "until_ms", "comment", NULL };
    char where[48];
    snprintf(where, sizeof(where), "faults[%zu]", idx);
    const char *type = NULL;
    int rc;
    if ((rc = scenario_json_object(fj, where, err)) < 0 ||
        (rc = scenario_json_need(fj, "type", where, err)) < 0 ||
        (rc = scenario_json_string(fj, "type", 32, &type, where, err)) < 0)
        return rc;
    if (!strcmp(type, "config"))
        return fault_config(sc, fj, where, err);
    struct replay_fault ft;
    memset(&ft, 0, sizeof(ft));
    if (!strcmp(type, "slow-receiver")) {
        ft.kind = REPLAY_FAULT_SLOW_RECEIVER;
        if ((rc = scenario_json_keys(fj, slow_keys, where, err)) < 0 ||
            (rc = fault_host(sc, fj, where, &ft, err)) < 0 ||
            (rc = scenario_json_need(fj, "drain", where, err)) < 0 ||
            (rc = scenario_json_speed(fj, "drain", QOS_SPEED_MIN_BPS, QOS_SPEED_MAX_BPS,
                                      &ft.drain_bps, where, err)) < 0 ||
            (rc = scenario_json_bytes(fj, "xoff_bytes", 0, SJ_XOFF_MAX, &ft.rx_xoff_bytes, where,
                                      err)) < 0)
            return rc;
    } else if (!strcmp(type, "pause-storm")) {
        int64_t prio = 3;
        ft.kind = REPLAY_FAULT_PAUSE_STORM;
        if ((rc = scenario_json_keys(fj, storm_keys, where, err)) < 0 ||
            (rc = fault_host(sc, fj, where, &ft, err)) < 0 ||
            (rc = scenario_json_int(fj, "prio", 0, 7, &prio, where, err)) < 0)
            return rc;
        ft.prio = (int)prio;
    } else if (!strcmp(type, "link-down")) {
        const char *link = NULL;
        ft.kind = REPLAY_FAULT_LINK_DOWN;
        if ((rc = scenario_json_keys(fj, down_keys, where, err)) < 0 ||
            (rc = scenario_json_need(fj, "link", where, err)) < 0 ||
            (rc = scenario_json_string(fj, "link", DCB_DEVICE_MAX + DCB_IFNAME_MAX, &link, where,
                                       err)) < 0)
            return rc;
        char dev[DCB_DEVICE_MAX + DCB_IFNAME_MAX];
        snprintf(dev, sizeof(dev), "%s", link);
        char *colon = strchr(dev, ':');
        if (!colon)
            return dcb_err_set(err, DCB_E_INVAL, "%s.link: \"%s\" is not device:interface", where,
                               link);
        *colon = '\0';
        if (!fabric_find_link(&sc->fabric, dev, colon + 1, NULL))
            return dcb_err_set(err, DCB_E_NOTFOUND, "%s.link: no link at \"%s\" in the fabric",
                               where, link);
        ft.device = keep_string(sc, dev);
        ft.ifname = keep_string(sc, colon + 1);
        if (!ft.device || !ft.ifname)
            return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    } else {
        return dcb_err_set(err, DCB_E_INVAL,
                           "%s.type: \"%s\" is not slow-receiver, pause-storm, "
                           "link-down or config",
                           where, type);
    }
    if ((rc = scenario_json_time(fj, "at_ms", 1000000, &any_time, &ft.at_ns, where, err)) < 0 ||
        (rc = scenario_json_time(fj, "until_ms", 1000000, &any_time, &ft.until_ns, where, err)) < 0)
        return rc;
    if (ft.until_ns && ft.until_ns <= ft.at_ns)
        return dcb_err_set(err, DCB_E_RANGE, "%s.until_ms: must be after at_ms", where);
    struct replay_fault *grown = realloc(sc->faults, (sc->nfaults + 1) * sizeof(*grown));
    if (!grown)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    sc->faults = grown;
    sc->faults[sc->nfaults++] = ft;
    return 0;
}

/* ---- the document ------------------------------------------------------------------------- */

static int load_options(struct scenario *sc, const cJSON *doc, struct dcb_err *err)
{
    struct replay_options *o = &sc->options;
    const cJSON *dur = cJSON_GetObjectItemCaseSensitive(doc, "duration_ms");
    int rc;
    if ((rc = scenario_json_need(doc, "duration_ms", "", err)) < 0)
        return rc;
    if (!cJSON_IsNumber(dur))
        return dcb_err_set(err, DCB_E_INVAL, "duration_ms: must be a number of milliseconds");
    if ((rc = scenario_json_time(doc, "duration_ms", 1000000, &duration_span, &o->duration_ns, "",
                                 err)) < 0)
        return rc;
    if ((rc = scenario_json_bytes(doc, "max_memory_bytes", SJ_MEMORY_MIN, SJ_MEMORY_MAX,
                                  &o->max_memory_bytes, "", err)) < 0)
        return rc;
    int64_t seed = 1;
    if ((rc = scenario_json_int(doc, "seed", 0, (int64_t)1 << 53, &seed, "", err)) < 0)
        return rc;
    o->seed = (uint64_t)seed;
    o->sample_interval_ns = o->duration_ns / 100 > 1000 ? o->duration_ns / 100 : 1000;
    if (o->sample_interval_ns > 1000000)
        o->sample_interval_ns = 1000000;
    o->series_interval_ns = o->sample_interval_ns / 10 > 1000 ? o->sample_interval_ns / 10 : 1000;
    bool dequeue = true;
    if ((rc = scenario_json_time(doc, "sample_interval_us", 1000, &sample_span,
                                 &o->sample_interval_ns, "", err)) < 0 ||
        (rc = scenario_json_time(doc, "series_interval_us", 1000, &series_span,
                                 &o->series_interval_ns, "", err)) < 0 ||
        (rc = scenario_json_bool(doc, "mark_on_dequeue", &dequeue, "", err)) < 0 ||
        (rc = scenario_json_time(doc, "retransmit_timeout_us", 1000, &rto_span,
                                 &o->retransmit_timeout_ns, "", err)) < 0)
        return rc;
    o->mark_on_enqueue = !dequeue;
    int64_t ack_every = o->ack_every;
    if ((rc = scenario_json_int(doc, "ack_every", 1, 1024, &ack_every, "", err)) < 0)
        return rc;
    o->ack_every = (uint32_t)ack_every;
    const cJSON *dq = cJSON_GetObjectItemCaseSensitive(doc, "dcqcn");
    if (dq) {
        static const char *const keys[] = { "preset", "enabled", NULL };
        const char *preset = NULL;
        bool enabled = true;
        if ((rc = scenario_json_object(dq, "dcqcn", err)) < 0 ||
            (rc = scenario_json_keys(dq, keys, "dcqcn", err)) < 0 ||
            (rc = scenario_json_string(dq, "preset", 16, &preset, "dcqcn", err)) < 0 ||
            (rc = scenario_json_bool(dq, "enabled", &enabled, "dcqcn", err)) < 0)
            return rc;
        if (preset && !strcmp(preset, "mlx5"))
            o->preset = DCQCN_PRESET_MLX5;
        else if (preset && strcmp(preset, "paper"))
            return dcb_err_set(err, DCB_E_INVAL, "dcqcn.preset: \"%s\" is not paper or mlx5",
                               preset);
        o->dcqcn_off = !enabled;
    }
    return 0;
}

struct first_iface {
    char name[DCB_IFNAME_MAX];
};

static void take_first(const char *ifname, void *arg)
{
    struct first_iface *fi = arg;
    if (!fi->name[0])
        snprintf(fi->name, sizeof(fi->name), "%s", ifname);
}

/* The DSCP a host's NIC marks its RoCE with (nic.roce_dscp), as its config sets it, else -1. */
static int nic_roce_dscp(const struct fabric *f, const struct fabric_device *d)
{
    struct first_iface fi = { "" };
    fabric_each_iface(f, d, take_first, &fi);
    struct qos_config q;
    if (!fi.name[0] || fabric_effective_config(f, d->name, fi.name, &q, NULL) < 0)
        return d->config.roce_dscp.set ? (int)d->config.roce_dscp.v : -1;
    return q.roce_dscp.set ? (int)q.roce_dscp.v : -1;
}

/* A NIC given a RoCE DSCP (nic.roce_dscp, like mlx5's enforced traffic_class) marks every RoCE
 * flow it sends with it, whatever the workload says; a NIC without one is given the DSCP of its
 * first RoCE flow, the ToS its RoCE goes out with, so that the config the run writes says what
 * its RoCE carries. A flow the workload makes TCP keeps its own DSCP. */
static void apply_nic_roce_dscp(struct scenario *sc)
{
    struct fabric *f = &sc->fabric;
    struct workload *w = &sc->workload;
    int *given = malloc((f->ndevices ? f->ndevices : 1) * sizeof(*given));
    if (!given)
        return;
    for (size_t i = 0; i < f->ndevices; i++)
        given[i] = nic_roce_dscp(f, &f->devices[i]);
    for (size_t i = 0; i < w->nflows; i++) {
        const struct fabric_device *src = fabric_find_device(f, w->flows[i].src);
        if (!src || w->transport[i] == REPLAY_TRANSPORT_TCP)
            continue;
        size_t k = (size_t)(src - f->devices);
        if (given[k] >= 0)
            w->flows[i].dscp = (uint8_t)given[k];
        else if (!f->devices[k].config.roce_dscp.set)
            f->devices[k].config.roce_dscp = (struct qos_val){ .v = w->flows[i].dscp, .set = true };
    }
    free(given);
}

static int load_doc(struct scenario *sc, const char *const *qos_sets, size_t nqos,
                    struct dcb_err *err)
{
    const cJSON *doc = sc->doc;
    int rc;
    if ((rc = scenario_json_object(doc, "the scenario", err)) < 0 ||
        (rc = scenario_json_keys(doc, top_keys, "", err)) < 0)
        return rc;
    const char *name = NULL;
    if ((rc = scenario_json_string(doc, "name", SCENARIO_NAME_MAX, &name, "", err)) < 0)
        return rc;
    const cJSON *desc = cJSON_GetObjectItemCaseSensitive(doc, "description");
    if (desc && !cJSON_IsString(desc))
        return dcb_err_set(err, DCB_E_INVAL, "description: must be a string");
    const cJSON *sig = cJSON_GetObjectItemCaseSensitive(doc, "signature");
    if (sig && !cJSON_IsString(sig))
        return dcb_err_set(err, DCB_E_INVAL, "signature: must be a string");
    if (name)
        snprintf(sc->name, sizeof(sc->name), "%s", name);
    if ((rc = load_options(sc, doc, err)) < 0)
        return rc;
    struct dcb_err inner;
    if (fabric_load_json(&sc->fabric, cJSON_GetObjectItemCaseSensitive(doc, "fabric"), &inner) <
        0) {
        /* "links[3].b: ..." is a path inside the fabric; other messages are about all of it */
        size_t word = strcspn(inner.msg, ": ");
        bool is_path = inner.msg[word] == ':';
        return dcb_err_set(err, inner.code, "fabric%s%s", is_path ? "." : ": ", inner.msg);
    }
    const cJSON *faults = cJSON_GetObjectItemCaseSensitive(doc, "faults");
    if (faults && !cJSON_IsArray(faults))
        return dcb_err_set(err, DCB_E_INVAL, "faults: must be a list");
    const cJSON *fj;
    size_t idx = 0;
    cJSON_ArrayForEach(fj, faults) {
        if ((rc = load_fault(sc, fj, idx++, err)) < 0)
            return rc;
    }
    /* the command line has the last word, over "config" faults too */
    for (size_t i = 0; i < nqos; i++)
        if ((rc = apply_config_assignment(&sc->fabric, qos_sets[i], err)) < 0)
            return rc;
    if ((rc = scenario_json_need(doc, "workload", "", err)) < 0)
        return rc;
    if ((rc = workload_from_json(&sc->workload, cJSON_GetObjectItemCaseSensitive(doc, "workload"),
                                 &sc->fabric, sc->options.seed, "workload", err)) < 0)
        return rc;
    apply_nic_roce_dscp(sc);
    return 0;
}

static void scenario_init(struct scenario *sc, const char *source)
{
    memset(sc, 0, sizeof(*sc));
    fabric_init(&sc->fabric);
    workload_init(&sc->workload);
    replay_options_init(&sc->options);
    snprintf(sc->source, sizeof(sc->source), "%s", source);
}

int scenario_load_text(struct scenario *sc, const char *text, size_t len, const char *source,
                       const char *base_dir, const char *const *sets, size_t nsets,
                       struct dcb_err *err)
{
    scenario_init(sc, source ? source : "scenario");
    struct dcb_err inner;
    const char **qos = calloc(nsets ? nsets : 1, sizeof(*qos));
    if (!qos)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    size_t nqos = 0;
    int rc = 0;
    sc->doc = parse_json(text, len, sc->source, &inner);
    if (!sc->doc) {
        free(qos);
        return dcb_err_set(err, DCB_E_INVAL, "%s", inner.msg);
    }
    if (!cJSON_IsObject(sc->doc))
        rc = dcb_err_set(&inner, DCB_E_INVAL, "the scenario must be a JSON object");
    if (rc == 0)
        rc = inline_fabric(sc->doc, base_dir, &inner);
    for (size_t i = 0; rc == 0 && i < nsets; i++) {
        const char *eq = strchr(sets[i], '=');
        size_t plen = eq ? (size_t)(eq - sets[i]) : 0;
        if (!eq || plen == 0)
            rc = dcb_err_set(&inner, DCB_E_INVAL, "--set '%s': expected path=value", sets[i]);
        else if (plen >= SET_PATH_MAX)
            rc = dcb_err_set(&inner, DCB_E_INVAL, "--set: a path longer than %d characters",
                             SET_PATH_MAX - 1);
        else if (is_top_key(sets[i]) && !memchr(sets[i], '/', plen)) {
            char path[SET_PATH_MAX];
            memcpy(path, sets[i], plen);
            path[plen] = '\0';
            rc = set_json(sc->doc, path, eq + 1, &inner);
        } else {
            qos[nqos++] = sets[i];
        }
    }
    if (rc == 0)
        rc = load_doc(sc, qos, nqos, &inner);
    free(qos);
    if (rc < 0) {
        scenario_free(sc);
        return dcb_err_set(err, rc, "%s: %s", source ? source : "scenario", inner.msg);
    }
    if (!sc->name[0]) {
        const char *base = strrchr(sc->source, '/');
        snprintf(sc->name, sizeof(sc->name), "%.*s", (int)sizeof(sc->name) - 1,
                 base ? base + 1 : sc->source);
        char *dot = strrchr(sc->name, '.');
        if (dot && dot != sc->name)
            *dot = '\0';
    }
    return 0;
}

int scenario_load_file(struct scenario *sc, const char *path, const char *const *sets, size_t nsets,
                       struct dcb_err *err)
{
    scenario_init(sc, path);
    char *text;
    size_t len;
    int rc = dcb_read_text_file(path, SCENARIO_FILE_MAX, &text, &len, err);
    if (rc < 0)
        return rc;
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof(dir), ".");
    rc = scenario_load_text(sc, text, len, path, dir, sets, nsets, err);
    free(text);
    return rc;
}

int scenario_set_workload(struct scenario *sc, struct workload *w, struct dcb_err *err)
{
    for (size_t i = 0; i < w->nflows; i++) {
        const struct fabric_device *s = fabric_find_device(&sc->fabric, w->flows[i].src);
        const struct fabric_device *d = fabric_find_device(&sc->fabric, w->flows[i].dst);
        if (!s || !d || s->role != FABRIC_HOST || d->role != FABRIC_HOST)
            return dcb_err_set(err, DCB_E_NOTFOUND, "flow %zu: no host \"%s\" in the fabric", i,
                               !s || s->role != FABRIC_HOST ? w->flows[i].src : w->flows[i].dst);
        int rc = replay_check_flow(&w->flows[i], i, err);
        if (rc < 0)
            return rc;
    }
    bool repeat = sc->workload.repeat;
    workload_free(&sc->workload);
    sc->workload = *w;
    sc->workload.repeat = sc->workload.repeat || repeat;
    workload_init(w);
    return 0;
}

void scenario_free(struct scenario *sc)
{
    cJSON_Delete(sc->doc);
    fabric_free(&sc->fabric);
    workload_free(&sc->workload);
    for (size_t i = 0; i < sc->nstrings; i++)
        free(sc->strings[i]);
    free(sc->strings);
    free(sc->faults);
    sc->doc = NULL;
    sc->strings = NULL;
    sc->faults = NULL;
    sc->nstrings = sc->nfaults = 0;
}

int scenario_demo(struct scenario *sc, const char *const *sets, size_t nsets, struct dcb_err *err)
{
    return scenario_load_text(sc, scenario_demo_json, strlen(scenario_demo_json), "demo", NULL,
                              sets, nsets, err);
}
