/* dcbkit store: look after the history database (info, query, export, import, prune). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "log.h"
#include "out_event.h"
#include "sample_json.h"
#include "store.h"
#include "units.h"

#define IMPORT_LINE_MAX (1 << 20)

struct store_args {
    const char *path;
    bool durable;
    bool latest_only;
    bool csv;
    size_t batch;
    struct store_filter filter;
    int64_t older_than_ns;
    const char *kind;
    const char *file; /* import: the file (default stdin) */
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static int open_store(const struct cli_ctx *ctx, const struct store_args *a, bool readonly,
                      struct dcb_store **st)
{
    char path[4096];
    struct dcb_err err;
    if (a->path) {
        snprintf(path, sizeof(path), "%s", a->path);
    } else if (store_default_path(path, sizeof(path), &err) < 0) {
        return cli_fail(1, "store", "%s", err.msg);
    }
    struct store_options opt = { .path = path,
                                 .readonly = readonly,
                                 .durable = a->durable,
                                 .batch_max_samples = a->batch };
    if (store_open_sqlite(st, &opt, &err) < 0)
        return cli_fail(1, "store", "%s", err.msg);
    (void)ctx;
    return 0;
}

static void print_time(struct dcb_out *o, const char *key, int64_t ns, bool present)
{
    char text[64] = "-";
    if (present) {
        time_t secs = (time_t)(ns / 1000000000LL);
        struct tm tm;
        gmtime_r(&secs, &tm);
        size_t n = strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%S", &tm);
        snprintf(text + n, sizeof(text) - n, ".%03dZ", (int)((ns % 1000000000LL) / 1000000));
    }
    out_i64(o, key, NULL, ns);
    out_str(o, NULL, "%s", text);
}

static int cmd_info(struct cli_ctx *ctx, const struct store_args *a)
{
    struct dcb_store *st;
    int rc = open_store(ctx, a, true, &st);
    if (rc)
        return rc;
    struct store_info info;
    struct dcb_err err;
    if (store_info(st, &info, &err) < 0) {
        store_close(st, NULL);
        return cli_fail(1, "store info", "%s", err.msg);
    }
    store_close(st, NULL);
    char size[DCB_UNIT_BUF];
    struct dcb_out o;
    out_init(&o, stdout, ctx->format);
    out_obj_open(&o, NULL);
    out_u64(&o, "schema", NULL, 1);
    out_i64(&o, "schema_version", "schema version %" PRId64 "\n", info.schema_version);
    out_u64(&o, "series", "series           %" PRIu64 "\n", info.series);
    out_u64(&o, "samples", "samples          %" PRIu64 "\n", info.samples);
    out_u64(&o, "events", "events           %" PRIu64 "\n", info.events);
    out_u64(&o, "config_snapshots", "config snapshots %" PRIu64 "\n", info.config_snapshots);
    out_u64(&o, "findings", "findings         %" PRIu64 "\n", info.findings);
    out_u64(&o, "runs", "runs             %" PRIu64 "\n", info.runs);
    out_text(&o, "first sample     ");
    print_time(&o, "first_ns", info.first_ns, info.samples > 0);
    out_text(&o, "\nlast sample      ");
    print_time(&o, "last_ns", info.last_ns, info.samples > 0);
    out_u64(&o, "size_bytes", NULL, info.size_bytes);
    out_text(&o, "\nsize             %s\n", dcb_fmt_bytes(info.size_bytes, size, sizeof(size)));
    out_obj_close(&o);
    return cli_finish_output(&o, 0);
}

/* A read-only listing: the store open, and a JSON document {"schema":1, KEY:[...]} (or a text
 * table with its header) under way. */
struct listing {
    struct dcb_store *st;
    struct dcb_out o;
};

/* The text header is header_fmt's line (at most 127 characters). */
static int listing_begin(struct cli_ctx *ctx, const struct store_args *a, struct listing *l,
                         const char *array_key, const char *header_fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int listing_begin(struct cli_ctx *ctx, const struct store_args *a, struct listing *l,
                         const char *array_key, const char *header_fmt, ...)
{
    char header[128];
    va_list ap;
    va_start(ap, header_fmt);
    vsnprintf(header, sizeof(header), header_fmt, ap);
    va_end(ap);
    int rc = open_store(ctx, a, true, &l->st);
    if (rc)
        return rc;
    out_init(&l->o, stdout, ctx->format);
    out_obj_open(&l->o, NULL);
    out_u64(&l->o, "schema", NULL, 1);
    out_text(&l->o, "%s\n", header);
    out_arr_open(&l->o, array_key);
    return 0;
}

static int listing_end(struct listing *l, int rc, const struct dcb_err *err, const char *what)
{
    out_arr_close(&l->o);
    out_obj_close(&l->o);
    store_close(l->st, NULL);
    if (rc < 0)
        return cli_fail(1, what, "%s", err->msg);
    return cli_finish_output(&l->o, 0);
}

struct print_state {
    struct dcb_out *o;
    bool csv;
    uint64_t rows;
    struct dcb_store *st;     /* for the counters' widths (JSON only) */
    struct dcb_sample series; /* the series last printed, and its width */
    unsigned bits;
};

/* device, ifname, metric, prio, queue: the identity of a series */
static void series_fields(struct dcb_out *o, const struct dcb_sample *s)
{
    out_str(o, "device", "%-12s ", s->device);
    out_str(o, "ifname", "%-12s ", s->ifname);
    out_str(o, "metric", "%-28s ", metric_info(s->metric)->name);
    out_i64(o, "prio", "%4" PRId64 " ", s->prio);
    out_i64(o, "queue", "%5" PRId64 " ", s->queue);
}

/* bits: a counter's width, said in JSON when it is not 64 (import reads it back) */
static void sample_fields(struct dcb_out *o, const struct dcb_sample *s, unsigned bits)
{
    const struct metric_info *m = metric_info(s->metric);
    out_i64(o, "ts", "%-20" PRId64 " ", s->time_ns);
    series_fields(o, s);
    if (m->kind == METRIC_COUNTER)
        out_u64(o, "value", "%" PRIu64 "\n", s->value.counter);
    else
        out_dbl(o, "value", "%.6g\n", s->value.gauge);
    if (m->kind == METRIC_COUNTER && bits != 64)
        out_u64(o, "bits", NULL, bits);
}

/* The width of s's series: looked up when the series changes (samples come series by series). */
static unsigned series_bits(struct print_state *p, const struct dcb_sample *s)
{
    const struct dcb_sample *k = &p->series;
    if (!p->rows || s->metric != k->metric || s->prio != k->prio || s->queue != k->queue ||
        strcmp(s->ifname, k->ifname) || strcmp(s->device, k->device)) {
        p->series = *s;
        p->bits = metric_info(s->metric)->kind != METRIC_COUNTER
                      ? 64
                      : store_series_width(p->st, s->device, s->ifname, s->metric, s->prio,
                                           s->queue);
    }
    return p->bits;
}

/* RFC 4180: quoted, with quotes doubled, so a comma in a name cannot shift columns. */
static void csv_quoted(FILE *fp, const char *text)
{
    fputc('"', fp);
    for (const char *c = text; *c; c++) {
        if (*c == '"')
            fputc('"', fp);
        fputc(*c, fp);
    }
    fputs("\",", fp);
}

static int print_sample(const struct dcb_sample *s, void *arg)
{
    struct print_state *p = arg;
    unsigned bits = p->csv || !out_is_json(p->o) ? 64 : series_bits(p, s);
    p->rows++;
    if (p->csv) {
        const struct metric_info *m = metric_info(s->metric);
        FILE *fp = p->o->fp;
        fprintf(fp, "%" PRId64 ",", s->time_ns);
        csv_quoted(fp, s->device);
        csv_quoted(fp, s->ifname);
        out_term(fp, "%s,%d,%d,", m->name, s->prio, s->queue);
        if (m->kind == METRIC_COUNTER)
            fprintf(fp, "%" PRIu64 "\n", s->value.counter);
        else
            fprintf(fp, "%.17g\n", s->value.gauge);
        return ferror(fp) ? -1 : 0;
    }
    out_obj_open(p->o, NULL);
    sample_fields(p->o, s, bits);
    out_obj_close(p->o);
    return 0;
}

static int cmd_query(struct cli_ctx *ctx, const struct store_args *a)
{
    struct listing l;
    int rc = listing_begin(ctx, a, &l, "samples", "%-20s %-12s %-12s %-28s %4s %5s %s", "TIME_NS",
                           "DEVICE", "IFNAME", "METRIC", "PRIO", "QUEUE", "VALUE");
    if (rc)
        return rc;
    struct print_state p = { .o = &l.o, .st = l.st };
    struct dcb_err err;
    rc = a->latest_only ? store_latest(l.st, &a->filter, print_sample, &p, &err)
                        : store_range(l.st, &a->filter, print_sample, &p, &err);
    return listing_end(&l, rc, &err, "store query");
}

static int cmd_export(struct cli_ctx *ctx, const struct store_args *a)
{
    struct dcb_store *st;
    int rc = open_store(ctx, a, true, &st);
    if (rc)
        return rc;
    struct dcb_out o;
    out_init(&o, stdout, OUT_JSON);
    struct print_state p = { .o = &o, .csv = a->csv, .st = st };
    if (a->csv)
        fputs("ts,device,ifname,metric,prio,queue,value\n", stdout);
    struct dcb_err err;
    rc = store_range(st, &a->filter, print_sample, &p, &err);
    store_close(st, NULL);
    if (rc < 0)
        return cli_fail(1, "store export", "%s", err.msg);
    dcb_info("exported %" PRIu64 " samples", p.rows);
    return cli_finish_output(&o, rc > 0 ? 1 : 0);
}

#define IMPORT_BAD_LINE 1
#define IMPORT_SKIPPED 2

/* A sample line's "bits", the counter's width as export writes it: 1..64. */
static int import_bits(const char *line, unsigned *bits, char *why, size_t whylen)
{
    cJSON *j = cJSON_Parse(line);
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(j, "bits");
    int rc = 0;
    if (cJSON_IsNumber(b) && b->valuedouble >= 1 && b->valuedouble <= 64 &&
        b->valuedouble == (double)b->valueint)
        *bits = (unsigned)b->valueint;
    else if (b) {
        snprintf(why, whylen, "bits must be a counter's width, 1 to 64");
        rc = -1;
    }
    cJSON_Delete(j);
    return rc;
}

/* One line: a sample, an event or a config snapshot (dcb_json_line_kind tells which).
 * IMPORT_BAD_LINE with why set, IMPORT_SKIPPED for a counter collect printed raw (a store keeps
 * canonical metrics only, as collect --store does), 0, or the store's negative error. */
static int import_line(struct dcb_store *st, const char *line, char *why, size_t whylen,
                       struct dcb_err *err)
{
    enum dcb_json_line what = dcb_json_line_kind(line);
    if (what == DCB_LINE_RAW_COUNTER)
        return IMPORT_SKIPPED;
    if (what == DCB_LINE_SAMPLE) {
        struct dcb_sample s;
        unsigned bits = 0;
        if (dcb_sample_from_json(line, &s, why, whylen) < 0 ||
            (strstr(line, "\"bits\"") && import_bits(line, &bits, why, whylen) < 0))
            return IMPORT_BAD_LINE;
        int rc = bits ? store_set_series_width(st, &s, bits, err) : 0;
        return rc < 0 ? rc : store_put_sample(st, &s, err);
    }
    if (what == DCB_LINE_CONFIG) {
        struct dcb_config_line c;
        if (dcb_config_from_json(line, &c, why, whylen) < 0) {
            free(c.json);
            return IMPORT_BAD_LINE;
        }
        struct store_config_row row = { c.ts, c.device, c.ifname, c.source, c.json };
        int rc = store_put_config(st, &row, err);
        free(c.json);
        return rc;
    }
    struct dcb_event e;
    if (dcb_event_from_json(line, &e, why, whylen) < 0)
        return IMPORT_BAD_LINE;
    return store_put_event(st, &e, err);
}

static int cmd_import(struct cli_ctx *ctx, const struct store_args *a, const char *file)
{
    FILE *in = stdin;
    if (file && strcmp(file, "-") != 0) {
        in = fopen(file, "r");
        if (!in)
            return cli_fail(1, "store import", "%s: %s", file, strerror(errno));
    }
    struct dcb_store *st;
    int rc = open_store(ctx, a, false, &st);
    if (rc) {
        if (in != stdin)
            fclose(in);
        return rc;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    uint64_t lineno = 0, imported = 0, skipped = 0;
    struct dcb_err err;
    int status = 0;
    bool store_failed = false;
    while (!stop_requested && (n = getline(&line, &cap, in)) >= 0) {
        lineno++;
        if (n > IMPORT_LINE_MAX) {
            status = cli_fail(1, "store import", "line %" PRIu64 ": longer than %d bytes", lineno,
                              IMPORT_LINE_MAX);
            break;
        }
        if (strspn(line, " \t\r\n") == (size_t)n)
            continue;
        char why[128];
        int64_t before = store_pending(st);
        int put = import_line(st, line, why, sizeof(why), &err);
        if (put == IMPORT_BAD_LINE) {
            status = cli_fail(1, "store import", "line %" PRIu64 ": %s", lineno, why);
            break;
        }
        if (put < 0) {
            status = cli_fail(1, "store import", "%s", err.msg);
            store_failed = true;
            break;
        }
        if (put == IMPORT_SKIPPED) {
            skipped++;
            continue;
        }
        imported++;
        if (store_pending(st) < before + 1)
            dcb_info("committed %" PRIu64 " records (through line %" PRIu64 ")", imported, lineno);
    }
    free(line);
    if (in != stdin)
        fclose(in);
    /* What was read before an error is still committed: nothing valid is lost. */
    if (!store_failed && store_pending(st) > 0) {
        if (store_flush(st, &err) < 0)
            status = cli_fail(1, "store import", "%s", err.msg);
        else
            dcb_info("committed %" PRIu64 " records (through line %" PRIu64 ")", imported, lineno);
    }
    store_close(st, NULL);
    if (status == 0 && ctx->verbosity >= 0 && skipped)
        out_term(stderr,
                 "dcbkit: imported %" PRIu64 " samples (%" PRIu64 " raw counters "
                 "skipped: no canonical metric)\n",
                 imported, skipped);
    else if (status == 0 && ctx->verbosity >= 0)
        out_term(stderr, "dcbkit: imported %" PRIu64 " samples\n", imported);
    return status;
}

static int print_event(const struct dcb_event *e, void *arg)
{
    static const struct out_event_form row = { "%-20" PRId64 " ", "%-14s ", "%-12s ", "%-12s ",
                                               "%4" PRId64 " ",   "%s\n",   false };
    out_event(arg, e, &row);
    return 0;
}

static int cmd_events(struct cli_ctx *ctx, const struct store_args *a)
{
    struct listing l;
    int rc = listing_begin(ctx, a, &l, "events", "%-20s %-14s %-12s %-12s %4s %s", "TIME_NS",
                           "KIND", "DEVICE", "IFNAME", "PRIO", "DETAILS");
    if (rc)
        return rc;
    struct dcb_err err;
    rc = store_events(l.st, &a->filter, a->kind, print_event, &l.o, &err);
    return listing_end(&l, rc, &err, "store events");
}

/* One row per matching counter series: its increase and rate over the window. */
struct delta_ctx {
    struct dcb_store *st;
    struct dcb_out *o;
    const struct store_filter *window;
    int status;
    struct dcb_err err;
};

static int print_delta(const struct dcb_sample *s, void *arg)
{
    struct delta_ctx *d = arg;
    const struct metric_info *m = metric_info(s->metric);
    struct store_filter one = *d->window;
    one.device = s->device;
    one.ifname = s->ifname;
    one.metric = m->name;
    one.prio = s->prio;
    one.queue = s->queue;
    double delta, rate;
    uint64_t resets;
    if (store_delta(d->st, &one, 0, &delta, &rate, &resets, &d->err) < 0) {
        d->status = -1;
        return 1;
    }
    out_obj_open(d->o, NULL);
    series_fields(d->o, s);
    out_dbl(d->o, "delta", "%14.6g ", delta);
    out_dbl(d->o, "rate_per_sec", "%14.6g ", rate);
    out_u64(d->o, "resets", "%6" PRIu64 "\n", resets);
    out_obj_close(d->o);
    return 0;
}

static int cmd_delta(struct cli_ctx *ctx, const struct store_args *a)
{
    struct listing l;
    int rc = listing_begin(ctx, a, &l, "series", "%-12s %-12s %-28s %4s %5s %14s %14s %6s",
                           "DEVICE", "IFNAME", "METRIC", "PRIO", "QUEUE", "DELTA", "RATE/S",
                           "RESETS");
    if (rc)
        return rc;
    struct delta_ctx d = { l.st, &l.o, &a->filter, 0, { 0, "" } };
    struct dcb_err err;
    rc = store_latest(l.st, &a->filter, print_delta, &d, &err);
    if (d.status < 0)
        return listing_end(&l, -1, &d.err, "store delta");
    return listing_end(&l, rc, &err, "store delta");
}

static int cmd_prune(struct cli_ctx *ctx, const struct store_args *a)
{
    if (!a->older_than_ns)
        return cli_usage_error(ctx, "prune needs --older-than DURATION (e.g. 30d)");
    struct dcb_store *st;
    int rc = open_store(ctx, a, false, &st);
    if (rc)
        return rc;
    struct dcb_err err;
    int64_t deleted = store_prune(st, dcb_realtime_ns() - a->older_than_ns, &err);
    store_close(st, NULL);
    if (deleted < 0)
        return cli_fail(1, "store prune", "%s", err.msg);
    struct dcb_out o;
    out_init(&o, stdout, ctx->format);
    out_obj_open(&o, NULL);
    out_u64(&o, "schema", NULL, 1);
    out_i64(&o, "deleted", "deleted %" PRId64 " samples and events\n", deleted);
    out_obj_close(&o);
    return cli_finish_output(&o, 0);
}

enum {
    O_STORE = 256,
    O_DEVICE,
    O_IFNAME,
    O_METRIC,
    O_PRIO,
    O_QUEUE,
    O_SINCE,
    O_UNTIL,
    O_LATEST,
    O_CSV,
    O_JSONL,
    O_OLDER,
    O_DURABLE,
    O_BATCH,
    O_KIND
};

static const struct option store_longopts[] = {
    { "store", required_argument, NULL, O_STORE },
    { "device", required_argument, NULL, O_DEVICE },
    { "ifname", required_argument, NULL, O_IFNAME },
    { "metric", required_argument, NULL, O_METRIC },
    { "prio", required_argument, NULL, O_PRIO },
    { "queue", required_argument, NULL, O_QUEUE },
    { "since", required_argument, NULL, O_SINCE },
    { "until", required_argument, NULL, O_UNTIL },
    { "latest", no_argument, NULL, O_LATEST },
    { "kind", required_argument, NULL, O_KIND },
    { "csv", no_argument, NULL, O_CSV },
    { "jsonl", no_argument, NULL, O_JSONL },
    { "older-than", required_argument, NULL, O_OLDER },
    { "durable", no_argument, NULL, O_DURABLE },
    { "batch", required_argument, NULL, O_BATCH },
    CLI_COMMON_LONGOPTS,
    { NULL, 0, NULL, 0 },
};

/* --since, --until, --older-than: an age from now. */
static int age_option(struct cli_ctx *ctx, struct store_args *a, int c, const char *arg)
{
    struct dcb_err err;
    int64_t ns;
    if (dcb_parse_duration(arg, &ns, &err) < 0)
        return cli_usage_error(ctx, "%s", err.msg);
    if (c == O_SINCE)
        a->filter.t0 = dcb_realtime_ns() - ns;
    else if (c == O_UNTIL)
        a->filter.t1 = dcb_realtime_ns() - ns;
    else
        a->older_than_ns = ns;
    return CLI_NEXT;
}

/* A selection option, in cli.h's convention. */
static int filter_option(struct cli_ctx *ctx, struct store_args *a, int c, const char *arg)
{
    long v;
    int rc;
    switch (c) {
    case O_DEVICE: a->filter.device = arg; return CLI_NEXT;
    case O_IFNAME: a->filter.ifname = arg; return CLI_NEXT;
    case O_METRIC:
        if (metric_lookup(arg) == METRIC_NONE)
            return cli_usage_error(ctx, "unknown metric '%s' (see 'dcbkit metrics')", arg);
        a->filter.metric = arg;
        return CLI_NEXT;
    case O_PRIO:
    case O_QUEUE:
        if ((rc = cli_opt_long(ctx, c == O_PRIO ? "--prio" : "--queue", arg, -1, 4095, &v)) ==
            CLI_NEXT)
            *(c == O_PRIO ? &a->filter.prio : &a->filter.queue) = (int)v;
        return rc;
    case O_SINCE:
    case O_UNTIL:
    case O_OLDER: return age_option(ctx, a, c, arg);
    case O_KIND:
        if (dcb_event_kind_lookup(arg) == EVENT_KIND_NONE)
            return cli_usage_error(ctx, "unknown event kind '%s'", arg);
        a->kind = arg;
        return CLI_NEXT;
    }
    return CLI_NOT_OWN;
}

/* An output or write option, in cli.h's convention. */
static int output_option(struct cli_ctx *ctx, struct store_args *a, int c, const char *arg)
{
    long v;
    int rc;
    switch (c) {
    case O_STORE: a->path = arg; return CLI_NEXT;
    case O_LATEST: a->latest_only = true; return CLI_NEXT;
    case O_CSV: a->csv = true; return CLI_NEXT;
    case O_JSONL: a->csv = false; return CLI_NEXT;
    case O_DURABLE: a->durable = true; return CLI_NEXT;
    case O_BATCH:
        if ((rc = cli_opt_long(ctx, "--batch", arg, 1, 10000000, &v)) == CLI_NEXT)
            a->batch = (size_t)v;
        return rc;
    }
    return CLI_NOT_OWN;
}

static int store_option(struct cli_ctx *ctx, void *args, int c, const char *arg)
{
    int rc = filter_option(ctx, args, c, arg);
    return rc == CLI_NOT_OWN ? output_option(ctx, args, c, arg) : rc;
}

/* CLI_NEXT to go on, or an exit status (0 after --help). */
static int parse_store_args(struct cli_ctx *ctx, int argc, char **argv, struct store_args *a)
{
    store_filter_init(&a->filter);
    a->csv = true;
    a->path = getenv("DCBKIT_STORE");
    struct cli_parser p = { store_longopts,
                            sizeof(store_longopts) / sizeof(*store_longopts),
                            NULL,
                            store_option,
                            a,
                            NULL };
    return cli_parse(ctx, &p, argc, argv);
}

static int run_query(struct cli_ctx *ctx, const struct store_args *a)
{
    struct store_args q = *a;
    if (q.filter.t0 == INT64_MIN && q.filter.t1 == INT64_MAX)
        q.latest_only = true;
    return cmd_query(ctx, &q);
}

static int run_delta(struct cli_ctx *ctx, const struct store_args *a)
{
    if (a->filter.t0 == INT64_MIN)
        return cli_usage_error(ctx, "delta needs a window: --since DURATION");
    return cmd_delta(ctx, a);
}

static int run_import(struct cli_ctx *ctx, const struct store_args *a)
{
    return cmd_import(ctx, a, a->file);
}

static const struct {
    const char *name;
    int (*run)(struct cli_ctx *ctx, const struct store_args *a);
} store_actions[] = {
    { "info", cmd_info },     { "query", run_query },   { "export", cmd_export },
    { "import", run_import }, { "events", cmd_events }, { "delta", run_delta },
    { "prune", cmd_prune },
};

static int store_run(struct cli_ctx *ctx, int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error(ctx, "needs an action: info, query, delta, events, export, "
                                    "import or prune");
    const char *action = argv[1];
    if (strcmp(action, "-h") == 0 || strcmp(action, "--help") == 0) {
        cli_print_help(ctx->cmd, stdout);
        return 0;
    }
    struct store_args a;
    memset(&a, 0, sizeof(a));
    int rc = parse_store_args(ctx, argc - 1, argv + 1, &a);
    if (rc != CLI_NEXT)
        return rc;
    if (strcmp(action, "import") == 0 && optind < argc - 1)
        a.file = argv[1 + optind++];
    if (optind < argc - 1)
        return cli_usage_error(ctx, "unexpected argument '%s'", argv[1 + optind]);
    for (size_t i = 0; i < sizeof(store_actions) / sizeof(store_actions[0]); i++)
        if (strcmp(action, store_actions[i].name) == 0)
            return store_actions[i].run(ctx, &a);
    return cli_usage_error(ctx,
                           "unknown action '%s' (info, query, delta, events, export, "
                           "import, prune)",
                           action);
}

static const struct cli_option_doc store_options[] = {
    { "--store PATH",
      "The database (default $DCBKIT_STORE, else $XDG_DATA_HOME/dcbkit/dcbkit.db, else "
      "~/.local/share/dcbkit/dcbkit.db)." },
    { "--device NAME, --ifname NAME, --metric NAME, --prio N, --queue N",
      "Select series (query, export). prio and queue are -1 where they do not apply." },
    { "--since DURATION, --until DURATION",
      "Time window, as an age: --since 1h is the last hour. query without a window prints the "
      "latest value of each series." },
    { "--latest", "query: only the newest sample of each series, within the window." },
    { "--kind KIND",
      "events: only this kind (pfc_xoff, pfc_xon, pause_storm, counter_reset, finding ...)." },
    { "--csv, --jsonl", "export: CSV (the default) or JSON Lines, one sample per line." },
    { "--older-than DURATION",
      "prune: delete samples, events and config snapshots older than this." },
    { "--batch N", "import: samples per committed transaction (default 50000)." },
    { "--durable", "import: fsync every commit (synchronous=FULL)." },
    { NULL, NULL },
};

static const struct cli_example store_examples[] = {
    { "dcbkit store info --store fabric.db", "Counts, time range and size." },
    { "dcbkit store query --ifname eth2 --metric pfc.rx_pause",
      "Latest PFC frame counts on eth2." },
    { "dcbkit store query --metric pfc.rx_pause_us --prio 3 --since 10m -T json",
      "Ten minutes of pause time on priority 3, as JSON." },
    { "dcbkit store delta --metric pfc.rx_pause --since 5m",
      "PFC frames received per series in the last five minutes, and the rate; counter wraps "
      "and resets inside the window are handled, and resets are counted." },
    { "dcbkit store events --kind counter_reset --since 1d", "Which counters reset today." },
    { "dcbkit store export --since 24h > day.csv",
      "A day of samples for pandas or a spreadsheet." },
    { "dcbkit store export --jsonl | dcbkit store import --store copy.db -",
      "Copy samples between stores." },
    { "dcbkit store prune --older-than 30d", "Keep a month." },
    { NULL, NULL },
};

const struct cli_command cmd_store = {
    .name = "store",
    .summary = "inspect, query, export, import and prune the history database",
    .synopsis = "dcbkit store info [--store PATH]\n"
                "dcbkit store query [FILTER] [--since D] [--until D] [--latest] [-T json]\n"
                "dcbkit store delta [FILTER] --since D [--until D] [-T json]\n"
                "dcbkit store events [--kind K] [--device D] [--ifname I] [--since D] [-T json]\n"
                "dcbkit store export [FILTER] [--since D] [--csv | --jsonl]\n"
                "dcbkit store import [FILE | -] [--batch N] [--durable]\n"
                "dcbkit store prune --older-than D",
    .description =
        "Every collector, capture analysis and replay writes canonical samples, events, config "
        "snapshots and findings into one SQLite database; dcbtop, report and serve read it back. "
        "The database is in WAL mode: readers never block the writer and see whole batches "
        "only.\n\n"
        "Durability: by default commits use synchronous=NORMAL. A batch the writer reported "
        "committed survives a crash of the process; a power loss or kernel crash can lose the "
        "last batches since the most recent checkpoint, never the database's consistency. "
        "--durable (synchronous=FULL) makes every commit survive power loss, at the cost of an "
        "fsync per batch.\n\n"
        "Samples are kept packed, in two tiers (since schema 3): each commit appends its batch "
        "as a few chunk rows (a run of series each) to a recent table, so a commit costs "
        "what its samples cost whatever the number of series; once that table spans 60 s or "
        "holds 4 million samples, and when a writer closes the store, a merge moves it into "
        "blocks of up to 128 samples of one series, clustered by series and time. Every read "
        "covers both tiers. At fabric scale (96,000 series) a merge takes under a second. A "
        "store written by an older dcbkit is converted the first time it is opened for "
        "writing. There is no table of one row per sample for SQL by hand: export writes "
        "the samples as CSV or JSON Lines.\n\n"
        "Each counter series keeps its width (schema 4): a collector that knows a counter is "
        "narrower than 64 bits (mlx5 Q-counters: 32) says so, and every reader (delta, the "
        "rules' rate() and delta(), report, dcbtop --store) takes a decrease that width "
        "explains, forward through the top by at most a quarter of its range, as a wrap with "
        "its true increase, not a reset. A schema 3 store opened read-only is read as it is, "
        "every counter 64 bits wide.",
    .options = store_options,
    .examples = store_examples,
    .json_doc =
        "info: {\"schema\":1, \"schema_version\", \"series\", \"samples\", \"events\", "
        "\"config_snapshots\", \"findings\", \"runs\", \"first_ns\", \"last_ns\", "
        "\"size_bytes\"}. query: {\"schema\":1, \"samples\":[{\"ts\" (ns), \"device\", "
        "\"ifname\", \"metric\", \"prio\", \"queue\", \"value\"}]}; counters are integers, "
        "gauges numbers; a counter narrower than 64 bits has \"bits\" (32 for mlx5 "
        "Q-counters), which import keeps. delta: {\"schema\":1, \"series\":[{\"device\", "
        "\"ifname\", \"metric\", \"prio\", \"queue\", \"delta\", \"rate_per_sec\", \"resets\"}]} "
        "(null when the window "
        "holds fewer than two samples; a decrease the counter's width explains is a wrap and "
        "counts; an interval with a reset adds nothing to delta and its "
        "time is left out of rate_per_sec, as the counter may restart from any value). events: "
        "{\"schema\":1, \"events\":[{\"ts\", \"kind\", "
        "\"device\", \"ifname\", \"prio\", \"details\" (an object; {\"unparsed\": text} "
        "for details an older dcbkit stored that are not JSON)}]}. export --jsonl: the same sample "
        "objects, one per line, no header; "
        "import reads them back, and also event lines (the objects of events, with \"kind\", "
        "or \"event\" as collect and replay --stream wrote before their schema 2), what "
        "collect -T json prints (its raw counters, with metric null, skipped) "
        "and config snapshot lines {\"ts\", \"device\", \"ifname\", \"source\" (or "
        "\"config_source\"), \"config\": "
        "{...a QoS config as dcbkit fabric writes it...}} (source \"fabric\" is intent, "
        "\"peer:...\" the link partner's, \"topology\" {\"role\", \"peer\": {\"device\", "
        "\"ifname\", \"role\"}} where the port is cabled, \"topology:lldp\" the same as LLDP "
        "on the port sees it, and \"alias:BY\" {\"names\": [...]} under a device with an empty "
        "ifname: the other names it goes by, such as its LLDP chassis ID or gNMI address, which "
        "join link partners to their device). prune: {\"schema\":1, \"deleted\":N}.",
    .run = store_run,
    .actions = "info query delta events export import prune",
};
