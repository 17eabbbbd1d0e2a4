#include "collect_gnmi.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "counter_map.h"
#include "fabric.h"
#include "gnmi_source.h"
#include "qos_json.h"
#include "store.h"
#include "units.h"

void collect_gnmi_init(struct collect_gnmi_opts *g)
{
    memset(g, 0, sizeof(*g));
    g->mode = GNMI_STREAM;
    g->encoding = GNMI_ENC_JSON_IETF;
    gnmi_cli_init(&g->conn);
}

bool collect_gnmi_wanted(const struct collect_gnmi_opts *g)
{
    return g->naddresses || g->fabric;
}

int collect_gnmi_option(struct cli_ctx *ctx, struct collect_gnmi_opts *g, int opt, const char *arg)
{
    struct dcb_err err;
    switch (opt) {
    case CG_GNMI:
        if (g->naddresses == COLLECT_GNMI_MAX)
            return cli_usage_error(ctx, "at most %d --gnmi targets", COLLECT_GNMI_MAX);
        g->addresses[g->naddresses++] = arg;
        return 0;
    case CG_FABRIC: g->fabric = arg; return 0;
    case CG_MAP: g->map = arg; return 0;
    case CG_GNMI_MODE:
        if (!strcmp(arg, "stream")) g->mode = GNMI_STREAM;
        else if (!strcmp(arg, "poll")) g->mode = GNMI_POLL;
        else if (!strcmp(arg, "once")) g->mode = GNMI_ONCE;
        else return cli_usage_error(ctx, "--gnmi-mode: stream, poll or once, not '%s'", arg);
        return 0;
    case CG_CONFIG_INTERVAL: {
        int64_t ns;
        if (dcb_parse_duration(arg, &ns, &err) < 0 || ns < 0)
            return cli_usage_error(ctx, "--config-interval: %s", ns < 0 ? "not negative" : err.msg);
        g->config_interval_ns = ns == 0 ? -1 : ns;
        return 0;
    }
    case CG_ENCODING:
        if (gnmi_encoding_parse(arg, &g->encoding) < 0)
            return cli_usage_error(ctx, "--encoding: json, json_ietf or proto, not '%s'", arg);
        return 0;
    default:
        return gnmi_cli_option(ctx, &g->conn, opt, arg);
    }
}

struct run {
    struct cli_ctx *ctx;
    struct dcb_out out;
    struct dcb_store *store;
    uint64_t samples, events, configs, store_errors;
};

static void store_warn(struct run *r, const struct dcb_err *err)
{
    if (r->store_errors++ == 0)
        cli_fail(1, "collect", "store: %s", err->msg);
}

static void on_sample(const struct dcb_sample *s, const char *key, void *arg)
{
    struct run *r = arg;
    r->samples++;
    struct dcb_err err;
    if (r->store && store_put_sample(r->store, s, &err) < 0)
        store_warn(r, &err);
    const struct metric_info *mi = metric_info(s->metric);
    struct dcb_out *o = &r->out;
    if (r->ctx->verbosity < 0 && !out_is_json(o))
        return;
    bool counter = mi->kind == METRIC_COUNTER;
    out_obj_open(o, NULL);
    out_i64(o, "ts", NULL, s->time_ns);
    out_str(o, "device", "%s", s->device);
    out_str(o, "ifname", " %s", s->ifname);
    out_str(o, "source", NULL, "gnmi");
    out_str(o, "counter", NULL, key);
    out_str(o, "metric", " %s", mi->name);
    out_i64(o, "prio", s->prio >= 0 ? " prio %" PRId64 : NULL, s->prio);
    out_i64(o, "queue", s->queue >= 0 ? " queue %" PRId64 : NULL, s->queue);
    if (counter)
        out_u64(o, "value", " %" PRIu64 "\n", s->value.counter);
    else
        out_dbl(o, "value", " %.17g\n", s->value.gauge);
    out_obj_close(o);
}

static void on_event(const struct dcb_event *e, void *arg)
{
    struct run *r = arg;
    r->events++;
    struct dcb_err err;
    if (r->store && store_put_event(r->store, e, &err) < 0)
        store_warn(r, &err);
    struct dcb_out *o = &r->out;
    if (out_is_json(o)) {
        out_obj_open(o, NULL);
        out_i64(o, "ts", NULL, e->time_ns);
        out_str(o, "event", NULL, dcb_event_kind_name(e->kind));
        out_str(o, "device", NULL, e->device);
        out_str(o, "ifname", NULL, e->ifname);
        out_i64(o, "prio", NULL, e->prio);
        fprintf(o->fp, ",\"details\":%s", e->details);
        out_obj_close(o);
    } else {
        fprintf(o->fp, "event %s %s %s\n", dcb_event_kind_name(e->kind), e->device, e->details);
    }
}

static void on_config(int64_t ts, const char *device, const char *ifname,
                      const struct qos_config *c, void *arg)
{
    struct run *r = arg;
    r->configs++;
    cJSON *j = qos_to_json(c);
    char *text = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    if (!text)
        return;
    struct dcb_err err;
    struct store_config_row row = { .time_ns = ts, .device = device, .ifname = ifname,
                                    .source = "gnmi", .json = text };
    if (r->store && store_put_config(r->store, &row, &err) < 0)
        store_warn(r, &err);
    struct dcb_out *o = &r->out;
    if (out_is_json(o)) {
        out_obj_open(o, NULL);
        out_i64(o, "ts", NULL, ts);
        out_str(o, "device", NULL, device);
        out_str(o, "ifname", NULL, ifname);
        out_str(o, "config_source", NULL, "gnmi");
        fprintf(o->fp, ",\"config\":%s", text);
        out_obj_close(o);
    } else if (r->ctx->verbosity >= 0) {
        fprintf(o->fp, "config %s %s %s\n", device, ifname[0] ? ifname : "(device)", text);
    }
    free(text);
}

static void on_round(const char *device, void *arg)
{
    struct run *r = arg;
    (void)device;
    struct dcb_err err;
    if (r->store && store_flush(r->store, &err) < 0)
        store_warn(r, &err);
    fflush(r->out.fp);
}

static void on_error(const char *device, const char *address, const char *msg, bool retrying,
                     void *arg)
{
    struct run *r = arg;
    if (retrying && r->ctx->verbosity < 0)
        return;
    fprintf(stderr, "dcbkit: collect: gnmi %s (%s): %s%s\n", device, address, msg,
            retrying ? "; retrying" : "");
}

static int add_fabric(struct gnmi_source *src, const struct collect_gnmi_opts *g,
                      const char *path, size_t *added, struct dcb_err *err)
{
    struct fabric f;
    fabric_init(&f);
    int rc = fabric_load_file(&f, path, err);
    if (rc == 0)
        rc = gnmi_source_add_fabric(src, &f, &g->conn.ep, g->map, added, err);
    fabric_free(&f);
    return rc;
}

int collect_gnmi_cmd(struct cli_ctx *ctx, struct collect_gnmi_opts *g, const char *store_path,
                     const char *device, int64_t interval_ns, long count, int64_t duration_ns,
                     volatile sig_atomic_t *stop)
{
    int rc = gnmi_cli_finish(ctx, &g->conn);
    if (rc)
        return rc;
    if (device && g->naddresses > 1)
        return cli_usage_error(ctx, "--device names one switch; with several --gnmi each is "
                               "named by its HOST:PORT");
    char maps_dir[4096];
    if (counter_maps_default_dir(maps_dir, sizeof(maps_dir)) < 0)
        return cli_fail(1, "collect", "no counter maps found; set DCBKIT_MAPS");
    struct run r;
    memset(&r, 0, sizeof(r));
    r.ctx = ctx;
    out_init(&r.out, stdout, ctx->format);
    struct gnmi_source_opts so = {
        .client = { .timeout_ns = g->conn.timeout_ns, .interval_ns = interval_ns,
                    .reconnect = true, .fallback_get = true, .probe_once = true,
                    .probe_deliver = true },
        .mode = g->mode,
        .encoding = g->encoding,
        .sample_interval_ns = interval_ns,
        .config_interval_ns = g->config_interval_ns,
    };
    if (count && g->mode != GNMI_STREAM)
        so.client.max_rounds = count;
    else if (count && !duration_ns)
        duration_ns = count * interval_ns + interval_ns / 2;
    struct gnmi_source_cb cb = { .on_sample = on_sample, .on_event = on_event,
                                 .on_config = on_config, .on_round = on_round,
                                 .on_error = on_error, .arg = &r };
    struct dcb_err err;
    struct gnmi_source *src = NULL;
    int status = 0;
    if (gnmi_source_new(&src, maps_dir, &so, &cb, &err) < 0) {
        status = cli_fail(1, "collect", "%s", err.msg);
        goto out;
    }
    size_t added = 0;
    for (size_t i = 0; i < g->naddresses; i++) {
        struct gnmi_source_target t = { .device = device, .map = g->map };
        gnmi_cli_endpoint(&g->conn, g->addresses[i], &t.ep);
        if (gnmi_source_add(src, &t, &err) < 0) {
            status = cli_fail(1, "collect", "%s: %s", g->addresses[i], err.msg);
            goto out;
        }
        added++;
    }
    if (g->fabric && add_fabric(src, g, g->fabric, &added, &err) < 0) {
        status = cli_fail(1, "collect", "%s", err.msg);
        goto out;
    }
    if (!added) {
        status = cli_fail(1, "collect", "%s: no device is reached over gNMI", g->fabric);
        goto out;
    }
    if (store_path) {
        struct store_options opt = { .path = store_path };
        if (store_open_sqlite(&r.store, &opt, &err) < 0) {
            status = cli_fail(1, "collect", "%s", err.msg);
            goto out;
        }
    }
    /* in slices of one interval, committing the store after each: a stream's samples are
     * durable within an interval even when the targets go quiet */
    int failures = 0;
    int64_t start = gnmi_now_ns();
    while (!(stop && *stop) && gnmi_client_active(gnmi_source_client(src))) {
        int64_t slice = interval_ns;
        if (duration_ns) {
            int64_t left = start + duration_ns - gnmi_now_ns();
            if (left <= 0)
                break;
            if (left < slice)
                slice = left;
        }
        failures = gnmi_source_run(src, stop, slice);
        if (r.store && store_flush(r.store, &err) < 0)
            store_warn(&r, &err);
    }
    const struct gnmi_source_stats *st = gnmi_source_stats(src);
    if (ctx->verbosity >= 0)
        fprintf(stderr, "dcbkit: collected %" PRIu64 " samples, %" PRIu64 " events, %" PRIu64
                " config snapshots from %zu gNMI device(s); %" PRIu64 " leaves not mapped\n",
                r.samples, r.events, r.configs, added, st->unmapped);
    if (failures || (r.samples == 0 && r.configs == 0))
        status = 1;
out:
    if (r.store && store_close(r.store, &err) < 0)
        status = cli_fail(1, "collect", "%s", err.msg);
    if (r.store_errors)
        status = 1;
    gnmi_source_free(src);
    gnmi_cli_free(&g->conn);
    return cli_finish_output(&r.out, status);
}
