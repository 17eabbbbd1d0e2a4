/* The lines `dcbkit collect --local` prints: every counter as the host gives it (mapped or raw)
 * with its rate, the link speed, events and config snapshots (the interface's, or its LLDP
 * partner's). The local source hands them over through its tap; the store gets its rows from
 * the sink. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "collect.h"
#include "log.h"
#include "out_event.h"

void collect_print_event(struct dcb_out *o, const struct dcb_event *e, bool by_device)
{
    struct out_event_form form = { .kind = "event %s ", .details = "%s\n", .stream = true };
    if (by_device)
        form.device = "%s ";
    else
        form.ifname = "%s ";
    out_event(o, e, &form);
}

static void on_event(void *arg, const struct dcb_event *e)
{
    struct collect_run *r = arg;
    collect_print_event(&r->out, e, false);
}

static void on_config(void *arg, const struct host_config_snap *snap)
{
    struct collect_run *r = arg;
    const char *device = r->opt->device;
    struct dcb_out *o = &r->out;
    if (out_is_json(o)) {
        out_obj_open(o, NULL);
        out_i64(o, "ts", NULL, snap->time_ns);
        out_str(o, "device", NULL, snap->peer ? snap->peer : device);
        out_str(o, "ifname", NULL, snap->peer ? snap->peer_port : snap->ifname);
        out_str(o, "config_source", NULL, snap->peer ? "lldp" : snap->source);
        if (snap->peer) {
            char seen[DCB_DEVICE_MAX + IFNAMSIZ + 2];
            snprintf(seen, sizeof(seen), "%s:%s", device, snap->ifname);
            out_str(o, "seen_on", NULL, seen);
        }
        fprintf(o->fp, ",\"config\":%s", snap->json);
        out_obj_close(o);
    } else if (snap->peer) {
        out_text(o, "neighbour of %s: ", snap->ifname);
        out_str(o, NULL, "%s", snap->peer);
        out_str(o, NULL, " port %s", snap->peer_port);
        out_text(o, " (%s DCBX): %s\n", snap->dcbx_mode, snap->json);
    } else {
        out_term(o->fp, "config %s (%s): %s\n", snap->ifname, snap->source, snap->json);
    }
}

static void counter_text(struct dcb_out *o, const char *ifname, const struct host_counter *c,
                         double rate)
{
    char label[24] = "";
    if (c->match.prio >= 0)
        snprintf(label, sizeof(label), "prio=%d", c->match.prio);
    else if (c->match.queue >= 0)
        snprintf(label, sizeof(label), "queue=%d", c->match.queue);
    out_term(o->fp, "%-12s %-26s %-8s %20" PRIu64, ifname, metric_info(c->match.metric)->name,
             label, c->value);
    if (isfinite(rate))
        fprintf(o->fp, " %14.1f/s", rate);
    out_term(o->fp, "   (%s %s)\n", c->source, c->raw);
}

static void on_counter(void *arg, int64_t now, const char *ifname, const struct host_counter *c,
                       const struct counter_delta *d)
{
    struct collect_run *r = arg;
    double rate = counter_rate_per_sec(d);
    struct dcb_out *o = &r->out;
    if (!out_is_json(o)) {
        if (c->mapped)
            counter_text(o, ifname, c, rate);
        return;
    }
    out_obj_open(o, NULL);
    out_i64(o, "ts", NULL, now);
    out_str(o, "device", NULL, r->opt->device);
    out_str(o, "ifname", NULL, ifname);
    out_str(o, "source", NULL, c->source);
    out_str(o, "counter", NULL, c->raw);
    if (c->mapped) {
        out_str(o, "metric", NULL, metric_info(c->match.metric)->name);
        out_i64(o, "prio", NULL, c->match.prio);
        out_i64(o, "queue", NULL, c->match.queue);
    } else {
        out_null(o, "metric", NULL);
    }
    out_u64(o, "value", NULL, c->value);
    out_dbl(o, "rate", NULL, rate);
    out_obj_close(o);
}

/* The link speed, a gauge: no rate. */
static void on_speed(void *arg, int64_t now, const char *ifname, uint64_t bps, const char *source)
{
    struct collect_run *r = arg;
    struct dcb_out *o = &r->out;
    const char *metric = metric_info(METRIC_LINK_SPEED_BPS)->name;
    if (!out_is_json(o)) {
        out_term(o->fp, "%-12s %-26s %-8s %20" PRIu64 "   (%s speed)\n", ifname, metric, "", bps,
                 source);
        return;
    }
    out_obj_open(o, NULL);
    out_i64(o, "ts", NULL, now);
    out_str(o, "device", NULL, r->opt->device);
    out_str(o, "ifname", NULL, ifname);
    out_str(o, "source", NULL, source);
    out_str(o, "counter", NULL, "speed");
    out_str(o, "metric", NULL, metric);
    out_i64(o, "prio", NULL, -1);
    out_i64(o, "queue", NULL, -1);
    out_u64(o, "value", NULL, bps);
    out_null(o, "rate", NULL);
    out_obj_close(o);
}

static void on_message(void *arg, enum dcb_log_level level, const char *text)
{
    (void)arg;
    if (level == DCB_LOG_ERROR)
        cli_fail(1, "collect", "%s", text);
    else
        dcb_log(level, "collect: %s", text);
}

struct host_source_sink collect_local_printer(struct collect_run *r)
{
    return (struct host_source_sink){ on_counter, on_speed, on_event, on_config, on_message, r };
}
