/* The record store of a collect run: the sink every source writes into (collectors/
 * sink_store.h), committed after each tick, its write errors said once. */
#include <stdio.h>

#include "collect.h"

volatile sig_atomic_t collect_stop;

static void on_stop(int sig)
{
    (void)sig;
    collect_stop = 1;
}

void collect_catch_signals(void)
{
    signal(SIGINT, on_stop);
    signal(SIGTERM, on_stop);
}

int collect_record_open(struct collect_run *r, struct dcb_err *err)
{
    out_init(&r->out, stdout, r->ctx->format);
    r->sink.record = NULL;
    if (r->opt->store_path) {
        struct store_options so = { .path = r->opt->store_path };
        if (store_open_sqlite(&r->record, &so, err) < 0)
            return -1;
        r->sink.record = r->record;
    }
    collect_catch_signals();
    return 0;
}

void collect_record_check(struct collect_run *r)
{
    struct dcb_err err;
    if (sink_store_take_error(&r->sink, &err) < 0 && !r->store_failed) {
        r->store_failed = true;
        cli_fail(1, "collect", "store: %s", err.msg);
    }
}

static int after_tick(void *arg, int64_t data_ns, struct dcb_err *err)
{
    (void)data_ns;
    (void)err;
    struct collect_run *r = arg;
    collect_record_check(r);
    struct dcb_err ferr;
    if (r->record && store_flush(r->record, &ferr) < 0 && !r->store_failed) {
        r->store_failed = true;
        cli_fail(1, "collect", "%s", ferr.msg);
    }
    fflush(r->out.fp);
    return r->check_tick ? r->check_tick(r) : 0;
}

int collect_record_drive(struct collect_run *r, const struct dcb_source_run *how,
                         struct dcb_err *err)
{
    struct dcb_source_run run = *how;
    run.stop = (volatile int *)&collect_stop;
    run.after_tick = after_tick;
    run.arg = r;
    int64_t data_ns;
    return dcb_source_run(&r->src, &run, &data_ns, err);
}

int collect_record_close(struct collect_run *r, int status)
{
    dcb_source_close(&r->src);
    collect_record_check(r);
    status = cli_finish_output(&r->out, status);
    struct dcb_err err;
    if (r->record && store_close(r->record, &err) < 0)
        status = cli_fail(1, "collect", "%s", err.msg);
    r->record = NULL;
    return r->store_failed && !status ? 1 : status;
}
