/* collect --local (the default) and --from-ethtool-dump: this host's interfaces, or saved dumps,
 * through the local source with every counter (raw ones too, for the printer). */
#include <inttypes.h>
#include <stdio.h>

#include "collect.h"

/* Nothing could be read at all on the first tick: stop (the reason is already printed). */
static int check_first_tick(struct collect_run *r)
{
    struct source_local_stats st;
    dcb_source_local_stats(&r->src, &st);
    if (r->ticks++ == 0 && st.read == 0) {
        r->quiet_failure = true;
        return -1;
    }
    return 0;
}

static void summary(const struct collect_run *r)
{
    struct source_local_stats st;
    dcb_source_local_stats(&r->src, &st);
    if (r->ctx->verbosity >= 0)
        out_term(stderr,
                 "dcbkit: collected %" PRIu64 " samples, %" PRIu64 " events, %" PRIu64
                 " read failures\n",
                 st.samples, st.events, st.failures);
}

int collect_local(struct collect_run *r)
{
    const struct collect_opts *o = r->opt;
    struct source_opts so = o->src; /* a copy: the printer goes in */
    static struct host_source_sink printer;
    printer = collect_local_printer(r);
    so.local.device = o->device;
    so.local.all_counters = true;
    so.local.raw_every = (unsigned)o->raw_every;
    so.local.config_each_tick = true;
    so.local.dumps = o->ndumps ? o->dumps : NULL;
    so.local.ndumps = o->ndumps;
    so.local.driver = o->driver;
    so.local.tap = &printer;
    struct dcb_err err;
    if (collect_record_open(r, &err) < 0)
        return cli_fail(1, "collect", "%s", err.msg);
    /* opened directly, not through source_opts_open: its errors stay as they always were */
    r->src.sink = sink_store_sink(&r->sink);
    r->src.interval_ns = o->interval_ns;
    if (dcb_source_local_open(&r->src, &so.local, &err) < 0)
        return collect_record_close(r, cli_fail(1, "collect", "%s", err.msg));
    cli_drop_privileges(r->ctx, &so);
    r->check_tick = check_first_tick;
    struct dcb_source_run how = { .count = collect_ticks(o) };
    int status = 0;
    if (collect_record_drive(r, &how, &err) < 0)
        status = r->quiet_failure ? 1 : cli_fail(1, "collect", "%s", err.msg);
    if (!o->ndumps)
        summary(r);
    return collect_record_close(r, status);
}
