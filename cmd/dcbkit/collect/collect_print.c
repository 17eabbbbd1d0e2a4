/* The lines collect prints for a source that speaks only canonical rows (--replay/--demo,
 * --pcap): each sample, event and config snapshot as the sink takes it, in the shape the gNMI
 * lines have ("source" the source's kind, no "counter" and no "rate"). */
#include <inttypes.h>
#include <stdio.h>

#include "collect.h"

void collect_print_sample(struct collect_run *r, const struct dcb_sample *s, const char *source,
                          const char *key)
{
    r->samples++;
    const struct metric_info *mi = metric_info(s->metric);
    struct dcb_out *o = &r->out;
    if (r->ctx->verbosity < 0 && !out_is_json(o))
        return;
    out_obj_open(o, NULL);
    out_i64(o, "ts", NULL, s->time_ns);
    out_str(o, "device", "%s", s->device);
    out_str(o, "ifname", " %s", s->ifname);
    out_str(o, "source", NULL, source);
    if (key)
        out_str(o, "counter", NULL, key);
    out_str(o, "metric", " %s", mi->name);
    out_i64(o, "prio", s->prio >= 0 ? " prio %" PRId64 : NULL, s->prio);
    out_i64(o, "queue", s->queue >= 0 ? " queue %" PRId64 : NULL, s->queue);
    if (mi->kind == METRIC_COUNTER)
        out_u64(o, "value", " %" PRIu64 "\n", s->value.counter);
    else
        out_dbl(o, "value", " %.17g\n", s->value.gauge);
    out_obj_close(o);
}

static void tap_sample(void *arg, const struct dcb_sample *s, unsigned width_bits)
{
    (void)width_bits;
    struct collect_run *r = arg;
    collect_print_sample(r, s, dcb_source_kind_name(r->src.kind), NULL);
}

static void tap_event(void *arg, const struct dcb_event *e)
{
    struct collect_run *r = arg;
    r->events++;
    if (r->ctx->verbosity >= 0 || out_is_json(&r->out))
        collect_print_event(&r->out, e, true);
}

static void tap_config(void *arg, const struct store_config_row *c)
{
    struct collect_run *r = arg;
    r->configs++;
    struct dcb_out *o = &r->out;
    if (out_is_json(o)) {
        out_obj_open(o, NULL);
        out_i64(o, "ts", NULL, c->time_ns);
        out_str(o, "device", NULL, c->device);
        out_str(o, "ifname", NULL, c->ifname);
        out_str(o, "config_source", NULL, c->source);
        fprintf(o->fp, ",\"config\":%s", c->json);
        out_obj_close(o);
    } else if (r->ctx->verbosity >= 0) {
        out_term(o->fp, "config %s %s (%s): %s\n", c->device, c->ifname[0] ? c->ifname : "(device)",
                 c->source, c->json);
    }
}

void collect_print_event_tap(struct collect_run *r)
{
    r->sink.tap_event = tap_event;
    r->sink.tap_arg = r;
}

void collect_print_taps(struct collect_run *r)
{
    r->sink.tap_sample = tap_sample;
    r->sink.tap_event = tap_event;
    r->sink.tap_config = tap_config;
    r->sink.tap_arg = r;
}
