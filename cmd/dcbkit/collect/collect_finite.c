/* collect --replay SCENARIO / --demo, --pcap FILE and --fabric FILE alone: a source that ends,
 * recorded whole as fast as it goes, as one run of the store. A replay starts after the store's
 * newest data, as `dcbkit replay --store` does, so that two recordings never overlap. */
#include <inttypes.h>
#include <stdio.h>

#include "collect.h"
#include "units.h"

/* Where the run's data starts: now, or just after what the store holds. */
static int start_time(struct collect_run *r, int64_t *t0, struct dcb_err *err)
{
    *t0 = dcb_realtime_ns();
    if (!r->record)
        return 0;
    struct store_info info;
    if (store_info(r->record, &info, err) < 0)
        return -1;
    if (info.last_ns >= *t0)
        *t0 = info.last_ns + 1000000;
    return 0;
}

static const char *what_of(const struct collect_opts *o)
{
    if (o->src.named & SOURCE_G_PCAP)
        return o->src.pcap.path;
    if (o->src.named == SOURCE_G_FABRIC)
        return o->src.fabric;
    return o->src.replay.scenario ? o->src.replay.scenario : "demo";
}

/* Opens the store, the run and the source. 0, or an exit status after the error. */
static int open_all(struct collect_run *r, struct source_opts *so, int64_t *run_id)
{
    struct dcb_err err;
    int64_t t0;
    if (collect_record_open(r, &err) < 0)
        return cli_fail(1, "collect", "%s", err.msg);
    if (start_time(r, &t0, &err) < 0 ||
        (r->record && store_begin_run(r->record, "collect", what_of(r->opt), t0, run_id, &err) < 0))
        return collect_record_close(r, cli_fail(1, "collect", "store %s: %s", r->opt->store_path,
                                                err.msg));
    so->replay.start_ns = t0;
    so->replay.duration_ns = r->opt->duration_ns;
    collect_print_taps(r);
    if (source_opts_open(so, sink_store_sink(&r->sink), r->opt->interval_ns, SOURCE_OPEN_FAST,
                         &r->src, &err) < 0)
        return collect_record_close(r, cli_fail(1, "collect", "%s", err.msg));
    return 0;
}

int collect_finite(struct collect_run *r)
{
    static struct source_opts so;
    so = r->opt->src;
    int64_t run_id = 0;
    int status = open_all(r, &so, &run_id);
    if (status)
        return status;
    struct dcb_err err;
    struct dcb_source_run how = { 0 };
    if (collect_record_drive(r, &how, &err) < 0)
        status = cli_fail(1, "collect", "%s: %s", what_of(r->opt), err.msg);
    if (r->record && store_end_run(r->record, run_id, dcb_realtime_ns(), &err) < 0 && !status)
        status = cli_fail(1, "collect", "store %s: %s", r->opt->store_path, err.msg);
    if (r->ctx->verbosity >= 0)
        out_term(stderr,
                 "dcbkit: collected %" PRIu64 " samples, %" PRIu64 " events, %" PRIu64
                 " config snapshots from %s\n",
                 r->samples, r->events, r->configs, r->src.name);
    return collect_record_close(r, status);
}
