/* --gnmi HOST:PORT and --fabric FILE: switches over gNMI (collectors/gnmi/gnmi_source.h). The
 * client waits on its sockets, so for a view it runs in a child process (source_child.h); a use
 * that only records (collect) runs it in process, one interval per tick. Counters come as a
 * SAMPLE stream at the refresh interval, config with Get at start. A fabric file also gives
 * every interface its intended config and its link partner's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "counter_map.h"
#include "gnmi_creds.h"
#include "gnmi_source.h"
#include "qos_json.h"
#include "source.h"
#include "source_child.h"
#include "topology_row.h"
#include "units.h"

#define FIRST_DATA_WAIT_MS 3000

struct gnmi_ctx {
    struct source_gnmi_options opt;
    struct grpc_endpoint base;
    struct gnmi_creds creds;
    struct fabric fabric;
    bool have_fabric;
    char maps_dir[4096];
    int64_t interval_ns;
    struct source_child cl;
    bool first_done; /* the first tick (which waits for data) is over */
    /* in process */
    struct dcb_source *src;
    struct gnmi_source *direct;
    size_t added;
    int failures;
    int64_t end_ns; /* monotonic; 0: none */
};

/* ---- the child ---------------------------------------------------------------------------- */

static void on_sample(const struct dcb_sample *s, const char *key, void *arg)
{
    (void)key;
    source_child_send_sample(*(int *)arg, s);
}

static void on_event(const struct dcb_event *e, void *arg)
{
    source_child_send_event(*(int *)arg, e);
}

static void on_config(int64_t time_ns, const char *device, const char *ifname,
                      const struct qos_config *c, void *arg)
{
    source_child_send_config(*(int *)arg, time_ns, device, ifname, "gnmi", c);
}

static void child_row(void *arg, const struct store_config_row *row)
{
    source_child_send_row(*(int *)arg, row);
}

static void on_neighbor(int64_t time_ns, const char *device, const char *ifname, const char *peer,
                        const char *peer_port, const char *chassis, void *arg)
{
    lldp_neighbor_rows(time_ns, device, ifname, peer, peer_port, chassis, child_row, arg);
}

static void on_error(const char *device, const char *address, const char *msg, int64_t retry_ns,
                     void *arg)
{
    char text[DCB_SOURCE_STATUS_MAX], retry[32];
    snprintf(text, sizeof(text), "gnmi %.60s (%.60s): %.100s%s", device, address, msg,
             gnmi_retry_text(retry, sizeof(retry), retry_ns));
    source_child_send_status(*(int *)arg, text);
}

/* The status names the paths not served, with the last error after them. */
static void missing_status(char *status, size_t len, const struct gnmi_source *s)
{
    if (len < 8)
        return;
    memcpy(status, "gnmi: ", 7);
    gnmi_source_missing_text(s, status + 6, len - 6);
    if (!status[6])
        status[0] = '\0';
}

struct child_arg {
    int fd;
    struct gnmi_source *s;
};

static void child_missing(const char *device, const char *address, const char *path, bool missing,
                          const char *why, void *arg)
{
    (void)device;
    (void)address;
    (void)path;
    (void)missing;
    (void)why;
    struct child_arg *a = arg;
    char text[DCB_SOURCE_STATUS_MAX];
    missing_status(text, sizeof(text), a->s);
    source_child_send_status(a->fd, text);
}

static int add_targets(struct gnmi_ctx *g, struct gnmi_source *s, size_t *added,
                       struct dcb_err *err)
{
    for (size_t i = 0; i < g->opt.naddresses; i++) {
        struct gnmi_source_target t = { .device = g->opt.device, .map = g->opt.map };
        t.ep = g->base;
        t.ep.address = g->opt.addresses[i];
        if (gnmi_source_add(s, &t, err) < 0)
            return -1;
        (*added)++;
    }
    if (g->have_fabric &&
        gnmi_source_add_fabric(s, &g->fabric, &g->base, g->opt.map, added, err) < 0)
        return -1;
    return 0;
}

static struct gnmi_source_opts source_opts(const struct gnmi_ctx *g)
{
    struct gnmi_source_opts so = {
        .client = { .timeout_ns = g->opt.timeout_ns ? g->opt.timeout_ns : 10000000000LL,
                    .interval_ns = g->interval_ns,
                    .reconnect = true,
                    .fallback_get = true,
                    .probe_once = true,
                    .probe_deliver = true },
        .mode = (enum gnmi_mode)g->opt.mode,
        .encoding = (enum gnmi_encoding)g->opt.encoding,
        .sample_interval_ns = g->interval_ns,
        .config_interval_ns = g->opt.config_interval_ns,
    };
    so.client.max_rounds = g->opt.max_rounds;
    so.client.path_retry_ns = g->opt.path_retry_ns;
    return so;
}

static int run_child(void *arg, int fd)
{
    struct gnmi_ctx *g = arg;
    struct gnmi_source_opts so = source_opts(g);
    struct child_arg ca = { fd, NULL };
    struct gnmi_source_cb cb = { .on_sample = on_sample,
                                 .on_event = on_event,
                                 .on_config = on_config,
                                 .on_error = on_error,
                                 .on_missing = child_missing,
                                 .on_neighbor = on_neighbor,
                                 .arg = &ca };
    struct gnmi_source *s = NULL;
    struct dcb_err err;
    size_t added = 0;
    int rc = gnmi_source_new(&s, g->maps_dir, &so, &cb, &err);
    ca.s = s;
    if (rc == 0)
        rc = add_targets(g, s, &added, &err);
    if (rc < 0) {
        source_child_send_status(fd, err.msg);
    } else {
        gnmi_source_run(s, &source_child_stop, 0);
    }
    gnmi_source_free(s);
    return rc;
}

/* ---- in process ------------------------------------------------------------------------- */

static void direct_sample(const struct dcb_sample *s, const char *key, void *arg)
{
    struct gnmi_ctx *g = arg;
    if (g->opt.tap && g->opt.tap->on_sample)
        g->opt.tap->on_sample(s, key, g->opt.tap->arg);
    g->src->sink.sample(g->src->sink.arg, s, 0);
}

static void direct_event(const struct dcb_event *e, void *arg)
{
    struct gnmi_ctx *g = arg;
    if (g->opt.tap && g->opt.tap->on_event)
        g->opt.tap->on_event(e, g->opt.tap->arg);
    g->src->sink.event(g->src->sink.arg, e);
}

static void direct_config(int64_t time_ns, const char *device, const char *ifname,
                          const struct qos_config *c, void *arg)
{
    struct gnmi_ctx *g = arg;
    if (g->opt.tap && g->opt.tap->on_config)
        g->opt.tap->on_config(time_ns, device, ifname, c, g->opt.tap->arg);
    cJSON *j = qos_to_json(c);
    char *text = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    if (!text)
        return;
    struct store_config_row row = { time_ns, device, ifname, "gnmi", text };
    g->src->sink.config(g->src->sink.arg, &row);
    free(text);
}

static void direct_row(void *arg, const struct store_config_row *row)
{
    struct gnmi_ctx *g = arg;
    g->src->sink.config(g->src->sink.arg, row);
}

static void direct_neighbor(int64_t time_ns, const char *device, const char *ifname,
                            const char *peer, const char *peer_port, const char *chassis, void *arg)
{
    lldp_neighbor_rows(time_ns, device, ifname, peer, peer_port, chassis, direct_row, arg);
}

static void direct_round(const char *device, void *arg)
{
    struct gnmi_ctx *g = arg;
    if (g->opt.tap && g->opt.tap->on_round)
        g->opt.tap->on_round(device, g->opt.tap->arg);
}

static void direct_error(const char *device, const char *address, const char *msg, int64_t retry_ns,
                         void *arg)
{
    struct gnmi_ctx *g = arg;
    char retry[32];
    if (g->opt.tap && g->opt.tap->on_error)
        g->opt.tap->on_error(device, address, msg, retry_ns, g->opt.tap->arg);
    snprintf(g->src->status, sizeof(g->src->status), "gnmi %.60s (%.60s): %.100s%s", device,
             address, msg, gnmi_retry_text(retry, sizeof(retry), retry_ns));
}

static void direct_missing(const char *device, const char *address, const char *path, bool missing,
                           const char *why, void *arg)
{
    struct gnmi_ctx *g = arg;
    if (g->opt.tap && g->opt.tap->on_missing)
        g->opt.tap->on_missing(device, address, path, missing, why, g->opt.tap->arg);
    missing_status(g->src->status, sizeof(g->src->status), g->direct);
}

static int direct_tick(struct dcb_source *src, int64_t now_ns, int64_t *data_ns,
                       struct dcb_err *err)
{
    (void)err;
    struct gnmi_ctx *g = src->ctx;
    *data_ns = now_ns;
    if ((g->opt.stop && *g->opt.stop) || !gnmi_client_active(gnmi_source_client(g->direct)))
        return DCB_SOURCE_END;
    int64_t slice = src->interval_ns;
    if (g->end_ns) {
        int64_t left = g->end_ns - dcb_monotonic_ns();
        if (left <= 0)
            return DCB_SOURCE_END;
        if (left < slice)
            slice = left;
    }
    g->failures = gnmi_source_run(g->direct, (volatile sig_atomic_t *)g->opt.stop, slice);
    return 0;
}

void dcb_source_gnmi_stats(const struct dcb_source *src, struct source_gnmi_stats *st)
{
    const struct gnmi_ctx *g = src->ctx;
    *st = (struct source_gnmi_stats){ g->added, g->failures,
                                      g->direct ? gnmi_source_stats(g->direct)->unmapped : 0 };
}

/* --device NAME for one target: its address is another name of the device (a fabric file says
 * the same with the device's reach, source_fabric.c). */
static void address_alias(struct dcb_source *src, const char *device, const char *address)
{
    char *text = alias_row_json(&address, 1);
    struct store_config_row row = { dcb_realtime_ns(), device, "", "alias:gnmi", text };
    if (text)
        src->sink.config(src->sink.arg, &row);
    free(text);
}

/* The client with its targets, its callbacks into src. */
static int direct_open(struct gnmi_ctx *g, struct dcb_source *src, struct dcb_err *err)
{
    g->src = src;
    struct gnmi_source_opts so = source_opts(g);
    struct gnmi_source_cb cb = {
        .on_sample = direct_sample,
        .on_event = direct_event,
        .on_config = direct_config,
        .on_round = direct_round,
        .on_error = direct_error,
        .on_missing = direct_missing,
        .on_neighbor = direct_neighbor,
        .arg = g,
    };
    if (gnmi_source_new(&g->direct, g->maps_dir, &so, &cb, err) < 0 ||
        add_targets(g, g->direct, &g->added, err) < 0) {
        gnmi_source_free(g->direct);
        g->direct = NULL;
        return -1;
    }
    if (g->opt.duration_ns)
        g->end_ns = dcb_monotonic_ns() + g->opt.duration_ns;
    return 0;
}

/* ---- dcbtop's side ------------------------------------------------------------------------ */

static int gnmi_tick(struct dcb_source *src, int64_t now_ns, int64_t *data_ns, struct dcb_err *err)
{
    (void)err;
    struct gnmi_ctx *g = src->ctx;
    *data_ns = now_ns;
    /* only the first tick waits for data: later ones keep the use's cadence while a target
     * is unreachable */
    source_child_drain(&g->cl, src, g->first_done ? 0 : FIRST_DATA_WAIT_MS);
    g->first_done = true;
    if (g->cl.ended && !src->status[0])
        snprintf(src->status, sizeof(src->status), "the gNMI client stopped");
    return 0;
}

static void gnmi_close(struct dcb_source *src)
{
    struct gnmi_ctx *g = src->ctx;
    if (g->direct)
        gnmi_source_free(g->direct);
    else
        source_child_stop_and_wait(&g->cl);
    gnmi_creds_wipe(&g->creds);
    if (g->have_fabric)
        fabric_free(&g->fabric);
    free(g);
    src->ctx = NULL;
}

static const struct dcb_source_ops gnmi_ops = { gnmi_tick, NULL, gnmi_close };
static const struct dcb_source_ops direct_ops = { direct_tick, NULL, gnmi_close };

/* The targets and maps are checked here, where an error can still be said on stderr. */
static int check_targets(struct gnmi_ctx *g, struct dcb_err *err)
{
    struct gnmi_source_opts so = source_opts(g);
    struct gnmi_source_cb cb = { 0 };
    struct gnmi_source *s = NULL;
    int rc = gnmi_source_new(&s, g->maps_dir, &so, &cb, err);
    if (rc == 0)
        rc = add_targets(g, s, &g->added, err);
    gnmi_source_free(s);
    return rc;
}

static int fail(struct gnmi_ctx *g, int rc)
{
    gnmi_creds_wipe(&g->creds);
    if (g->have_fabric)
        fabric_free(&g->fabric);
    free(g);
    return rc;
}

int dcb_source_gnmi_open(struct dcb_source *src, const struct source_gnmi_options *opt,
                         struct dcb_err *err)
{
    struct gnmi_ctx *g = calloc(1, sizeof(*g));
    if (!g)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    g->opt = *opt;
    if (!g->opt.map)
        g->opt.map = "openconfig";
    g->interval_ns = src->interval_ns;
    g->base.tls = !opt->plaintext;
    g->base.insecure = opt->insecure;
    g->base.ca_file = opt->tls_ca;
    g->base.cert_file = opt->tls_cert;
    g->base.key_file = opt->tls_key;
    g->base.server_name = opt->tls_server_name;
    g->base.max_message = opt->max_message;
    int rc = opt->credentials ? gnmi_creds_from_file(&g->creds, opt->credentials, err)
                              : (gnmi_creds_from_env(&g->creds), 0);
    if (rc < 0)
        return fail(g, rc);
    g->base.username = g->creds.username[0] ? g->creds.username : NULL;
    g->base.password = g->creds.username[0] ? g->creds.password : NULL;
    if (opt->maps_dir)
        snprintf(g->maps_dir, sizeof(g->maps_dir), "%s", opt->maps_dir);
    else if (counter_maps_default_dir(g->maps_dir, sizeof(g->maps_dir)) < 0)
        return fail(g, dcb_err_set(err, DCB_E_NOTFOUND,
                                   "no counter maps found; set "
                                   "DCBKIT_MAPS"));
    if (opt->fabric) {
        fabric_init(&g->fabric);
        g->have_fabric = true;
        if (fabric_load_file(&g->fabric, opt->fabric, err) < 0)
            return fail(g, -1);
    }
    rc = opt->in_process ? direct_open(g, src, err) : check_targets(g, err);
    if (rc < 0)
        return fail(g, rc);
    size_t added = g->added;
    if (!added) {
        gnmi_source_free(g->direct);
        return fail(g, dcb_err_set(err, DCB_E_NOTFOUND, "%s: no device is reached over gNMI",
                                   opt->fabric ? opt->fabric : "--gnmi"));
    }
    if (!opt->in_process && source_child_start(&g->cl, run_child, g, err) < 0)
        return fail(g, -1);
    src->ops = opt->in_process ? &direct_ops : &gnmi_ops;
    src->kind = SOURCE_GNMI;
    src->ctx = g;
    if (opt->fabric)
        snprintf(src->name, sizeof(src->name), "fabric %s (%zu gNMI devices)", opt->fabric, added);
    else
        snprintf(src->name, sizeof(src->name), "gnmi %s%s", opt->addresses[0],
                 opt->naddresses > 1 ? " and more" : "");
    if (g->have_fabric)
        source_fabric_intent(src, &g->fabric, dcb_realtime_ns());
    else if (opt->device && opt->naddresses == 1)
        address_alias(src, opt->device, opt->addresses[0]);
    return 0;
}
