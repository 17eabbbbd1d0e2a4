/* collect --gnmi HOST:PORT ... / --fabric F [--gnmi all]: switch counters and QoS config over
 * gNMI, through the gNMI source run in this process; its tap hands this printer each leaf as
 * matched, each config, round and error. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "collect.h"
#include "qos_json.h"

static void on_sample(const struct dcb_sample *s, const char *key, void *arg)
{
    collect_print_sample(arg, s, "gnmi", key);
}

static void on_config(int64_t ts, const char *device, const char *ifname,
                      const struct qos_config *c, void *arg)
{
    struct collect_run *r = arg;
    r->configs++;
    cJSON *j = qos_to_json(c);
    char *text = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    if (!text)
        return;
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
        out_term(o->fp, "config %s %s %s\n", device, ifname[0] ? ifname : "(device)", text);
    }
    free(text);
}

/* A full round: committed at once, so a stream's samples are durable even when the targets
 * go quiet. */
static void on_round(const char *device, void *arg)
{
    (void)device;
    struct collect_run *r = arg;
    struct dcb_err err;
    if (r->record && store_flush(r->record, &err) < 0 && !r->store_failed) {
        r->store_failed = true;
        cli_fail(1, "collect", "store: %s", err.msg);
    }
    fflush(r->out.fp);
}

static void on_error(const char *device, const char *address, const char *msg, int64_t retry_ns,
                     void *arg)
{
    struct collect_run *r = arg;
    char retry[32];
    if (retry_ns != GNMI_NO_RETRY && r->ctx->verbosity < 0)
        return;
    out_term(stderr, "dcbkit: collect: gnmi %s (%s): %s%s\n", device, address, msg,
             gnmi_retry_text(retry, sizeof(retry), retry_ns));
}

/* Said once per path and device: the rest of the device is collected meanwhile. */
static void on_missing(const char *device, const char *address, const char *path, bool missing,
                       const char *why, void *arg)
{
    struct collect_run *r = arg;
    if (r->ctx->verbosity < 0 && !missing)
        return;
    if (missing)
        out_term(stderr,
                 "dcbkit: collect: gnmi %s (%s): path %s is not served (%s); collecting "
                 "the others, asking again later\n",
                 device, address, path, why);
    else
        out_term(stderr, "dcbkit: collect: gnmi %s (%s): path %s is served again\n", device,
                 address, path);
}

/* --count: rounds for poll and once, else (a stream) that many intervals and a half. */
static void pace(const struct collect_opts *o, struct source_gnmi_options *g)
{
    g->duration_ns = o->duration_ns;
    if (o->count && g->mode != GNMI_STREAM)
        g->max_rounds = o->count;
    else if (o->count && !g->duration_ns)
        g->duration_ns = o->count * o->interval_ns + o->interval_ns / 2;
}

int collect_gnmi(struct collect_run *r)
{
    const struct collect_opts *o = r->opt;
    static struct source_opts so; /* static: it holds up to 1024 target names */
    /* events come through the sink (collect_print_event_tap): the reset stage's with them */
    static const struct gnmi_source_cb printer = {
        .on_sample = on_sample,
        .on_config = on_config,
        .on_round = on_round,
        .on_error = on_error,
        .on_missing = on_missing,
    };
    static struct gnmi_source_cb tap;
    so = o->src;
    tap = printer;
    tap.arg = r;
    so.gnmi.in_process = true;
    so.gnmi.stop = (volatile int *)&collect_stop;
    so.gnmi.tap = &tap;
    pace(o, &so.gnmi);
    struct dcb_err err;
    if (collect_record_open(r, &err) < 0)
        return cli_fail(1, "collect", "%s", err.msg);
    collect_print_event_tap(r);
    if (source_opts_open(&so, sink_store_sink(&r->sink), o->interval_ns, 0, &r->src, &err) < 0)
        return collect_record_close(r, cli_fail(1, "collect", "%s", err.msg));
    struct dcb_source_run how = { 0 };
    int status = collect_record_drive(r, &how, &err) < 0 ? cli_fail(1, "collect", "%s", err.msg)
                                                         : 0;
    struct source_gnmi_stats st;
    dcb_source_gnmi_stats(&r->src, &st);
    if (r->ctx->verbosity >= 0)
        out_term(stderr,
                 "dcbkit: collected %" PRIu64 " samples, %" PRIu64 " events, %" PRIu64
                 " config snapshots from %zu gNMI device(s); %" PRIu64 " leaves not mapped\n",
                 r->samples, r->events, r->configs, st.devices, st.unmapped);
    if (st.failures || (r->samples == 0 && r->configs == 0))
        status = status ? status : 1;
    return collect_record_close(r, status);
}
