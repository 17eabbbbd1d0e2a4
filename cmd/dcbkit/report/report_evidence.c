/* dcbkit report: the evidence into a store before the report reads its window.
 *   --store DB alone    the store, read in place (and opened again to record the report);
 *   any other source    run into a store - the --store DB when given (recording there), else an
 *                       in-memory ring: finite sources (--replay, --demo, --pcap, --prometheus)
 *                       to their end as fast as possible, live ones (--local, --gnmi) for
 *                       --collect (default two intervals);
 *   --collect alone     the fabric's devices: its local device through the local source, its
 *                       gNMI devices through the gNMI source.
 * A fabric device or --gnmi HOST:PORT that gave nothing in the collect time is listed as a
 * failure, with the reason when one was said.
 * A fabric file's intent is not copied into the store: the report reads the fabric itself. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "report_cmd.h"
#include "sink_store.h"
#include "units.h"

#define FAIL REPORT_UNDECIDED
#define WHY_MAX 256

/* A device of the fabric a live source should give data for. */
struct watched {
    const char *device;
    bool gnmi;
    uint64_t got;
    char why[WHY_MAX];
};

struct report_sink {
    struct sink_store store;
    struct dcb_sink inner;
    /* the gNMI source's copy of the fabric file's intent: the report reads the file itself
     * (a replay's or Prometheus' "fabric" rows are the only config there is: they stay) */
    bool drop_intent;
    struct watched *watch;
    size_t nwatch;
};

static struct watched *watched_of(struct report_sink *k, const char *device)
{
    for (size_t i = 0; i < k->nwatch; i++)
        if (!strcmp(k->watch[i].device, device))
            return &k->watch[i];
    return NULL;
}

static void on_sample(void *arg, const struct dcb_sample *s, unsigned width_bits)
{
    struct report_sink *k = arg;
    struct watched *w = watched_of(k, s->device);
    if (w)
        w->got++;
    k->inner.sample(k->inner.arg, s, width_bits);
}

static void on_event(void *arg, const struct dcb_event *e)
{
    struct report_sink *k = arg;
    k->inner.event(k->inner.arg, e);
}

static void on_config(void *arg, const struct store_config_row *c)
{
    struct report_sink *k = arg;
    bool intent = !strcmp(c->source, "fabric") || !strcmp(c->source, "peer:fabric");
    if (intent && k->drop_intent)
        return;
    /* what the fabric file or this command says of a device is not data from it */
    bool said = intent || !strncmp(c->source, "topology", 8) || !strncmp(c->source, "alias:", 6);
    struct watched *w = said ? NULL : watched_of(k, c->device);
    if (w)
        w->got++;
    k->inner.config(k->inner.arg, c);
}

static struct dcb_sink report_sink_sink(struct report_sink *k)
{
    k->inner = sink_store_sink(&k->store);
    return (struct dcb_sink){ on_sample, on_event, on_config, NULL, NULL, k };
}

/* "gnmi DEVICE (ADDRESS): MSG[; retrying[ in N s]]", the gNMI source's remark, as the device's
 * reason "gNMI ADDRESS: MSG". */
static void note_gnmi_status(struct report_sink *k, const char *status)
{
    if (strncmp(status, "gnmi ", 5) != 0)
        return;
    const char *dev = status + 5, *open = strstr(dev, " ("), *close;
    if (!open || !(close = strstr(open, "): ")))
        return;
    for (size_t i = 0; i < k->nwatch; i++) {
        struct watched *w = &k->watch[i];
        if (!w->gnmi || strlen(w->device) != (size_t)(open - dev) ||
            strncmp(w->device, dev, (size_t)(open - dev)) != 0)
            continue;
        const char *msg = close + 3, *retry = strstr(msg, "; retrying");
        int mlen = retry ? (int)(retry - msg) : (int)strlen(msg);
        snprintf(w->why, sizeof(w->why), "gNMI %.*s: %.*s", (int)(close - open - 2), open + 2, mlen,
                 msg);
    }
}

struct run_state {
    struct report_sink *sink;
    struct dcb_source *src;
    struct dcb_progress *progress;
    int64_t collect_ns;              /* a live source's collect time; 0: to its end */
    int64_t start_ns, first_data_ns; /* monotonic; the data's first time (0: none yet) */
};

static void show_progress(struct run_state *r, int64_t data_ns)
{
    if (!r->first_data_ns)
        r->first_data_ns = data_ns;
    if (!dcb_progress_due(r->progress))
        return;
    const struct report_sink *k = r->sink;
    size_t answering = 0;
    for (size_t i = 0; i < k->nwatch; i++)
        answering += k->watch[i].got > 0;
    char devices[64] = "";
    if (k->nwatch)
        snprintf(devices, sizeof(devices), ", %zu of %zu devices answering", answering, k->nwatch);
    if (r->collect_ns)
        dcb_progress_show(r->progress, "report: collecting, %.0f of %.0f s%s",
                          (double)(dcb_monotonic_ns() - r->start_ns) / 1e9,
                          (double)r->collect_ns / 1e9, devices);
    else
        dcb_progress_show(r->progress, "report: reading %s, %.1f s of data%s", r->src->name,
                          (double)(data_ns - r->first_data_ns) / 1e9, devices);
}

static int after_tick(void *arg, int64_t data_ns, struct dcb_err *err)
{
    struct run_state *r = arg;
    show_progress(r, data_ns);
    struct dcb_source *g = dcb_source_find(r->src, SOURCE_GNMI);
    if (g && g->status[0])
        note_gnmi_status(r->sink, g->status);
    if (sink_store_take_error(&r->sink->store, err) < 0)
        return -1;
    return store_flush(r->sink->store.st, err);
}

/* ---- which sources, and which devices to watch ---------------------------------------------- */

static const struct fabric_device *first_local(const struct fabric *fab)
{
    for (size_t i = 0; fab && i < fab->ndevices; i++)
        if (fab->devices[i].reach == REACH_LOCAL)
            return &fab->devices[i];
    return NULL;
}

static bool has_gnmi(const struct fabric *fab)
{
    for (size_t i = 0; fab && i < fab->ndevices; i++)
        if (fab->devices[i].reach == REACH_GNMI)
            return true;
    return false;
}

/* --collect without a live source: the fabric's devices, the local one through the local
 * source (named as the fabric names it), the gNMI ones through the gNMI source. */
static void plan_sources(const struct report_args *a, const struct fabric *fab,
                         struct source_opts *o)
{
    const struct fabric_device *local = first_local(fab);
    bool live = o->named & (SOURCE_G_LOCAL | SOURCE_G_GNMI);
    if (a->collect_given && !live && fab) {
        if (local)
            o->named |= SOURCE_G_LOCAL;
        if (has_gnmi(fab))
            o->named |= SOURCE_G_GNMI;
    }
    if ((o->named & SOURCE_G_LOCAL) && !o->local.device && local)
        o->local.device = local->name;
    if ((o->named & SOURCE_G_REPLAY) && a->collect_given)
        o->replay.duration_ns = a->collect_ns; /* else one pass of the scenario */
}

static bool watching(const struct report_sink *k, const char *device)
{
    for (size_t i = 0; i < k->nwatch; i++)
        if (!strcmp(k->watch[i].device, device))
            return true;
    return false;
}

/* The fabric's devices a live source collects, and each --gnmi HOST:PORT, named as the gNMI
 * source names it (--device, else the address): one that gives nothing is said with its
 * reason, whether or not a fabric file lists it. */
static int watch_devices(const struct source_opts *o, const struct fabric *fab,
                         struct report_sink *k)
{
    size_t cap = (fab ? fab->ndevices : 0) + o->gnmi.naddresses;
    k->watch = calloc(cap ? cap : 1, sizeof(*k->watch));
    if (!k->watch)
        return -1;
    for (size_t i = 0; fab && i < fab->ndevices; i++) {
        const struct fabric_device *d = &fab->devices[i];
        bool local = d->reach == REACH_LOCAL && (o->named & SOURCE_G_LOCAL) && o->local.device &&
                     !strcmp(o->local.device, d->name);
        bool gnmi = d->reach == REACH_GNMI && (o->named & SOURCE_G_GNMI);
        if (local || gnmi)
            k->watch[k->nwatch++] = (struct watched){ .device = d->name, .gnmi = gnmi };
    }
    for (size_t i = 0; (o->named & SOURCE_G_GNMI) && i < o->gnmi.naddresses; i++) {
        const char *name = o->gnmi.device ? o->gnmi.device : o->gnmi.addresses[i];
        if (!watching(k, name))
            k->watch[k->nwatch++] = (struct watched){ .device = name, .gnmi = true };
    }
    return 0;
}

static int add_failure(struct report_evidence *ev, const char *device, const char *why)
{
    struct report_collect_result *g = realloc(ev->failed, (ev->nfailed + 1) * sizeof(*g));
    if (!g)
        return -1;
    ev->failed = g;
    snprintf(g[ev->nfailed].device, sizeof(g->device), "%s", device);
    snprintf(g[ev->nfailed].why, sizeof(g->why), "%s", why);
    ev->nfailed++;
    return 0;
}

static int list_failures(const struct report_sink *k, struct report_evidence *ev)
{
    for (size_t i = 0; i < k->nwatch; i++) {
        const struct watched *w = &k->watch[i];
        if (w->got)
            continue;
        const char *why = w->why[0] ? w->why
                          : w->gnmi ? "gNMI: no counters and no config came in the collect time"
                                    : "local: no counters came in the collect time";
        if (add_failure(ev, w->device, why) < 0)
            return -1;
    }
    return 0;
}

/* ---- running them ----------------------------------------------------------------------- */

/* Opens the sources; a gNMI source that cannot even start (its credentials, its maps) while
 * collecting the fabric makes each gNMI device a failure, and the rest goes on. */
static int open_sources(struct source_opts *o, struct report_sink *k, int64_t interval_ns,
                        struct report_evidence *ev, struct dcb_err *err)
{
    struct dcb_sink sink = report_sink_sink(k);
    int rc = source_opts_open(o, sink, interval_ns, SOURCE_OPEN_FAST, &ev->src, err);
    if (rc == 0 || !(o->named & SOURCE_G_GNMI) || o->gnmi.naddresses || !o->fabric)
        return rc;
    for (size_t i = 0; i < k->nwatch; i++)
        if (k->watch[i].gnmi) {
            snprintf(k->watch[i].why, sizeof(k->watch[i].why), "%s", err->msg);
            k->watch[i].got = 0;
        }
    o->named &= ~SOURCE_G_GNMI;
    if (!o->named)
        return 0; /* nothing else to run */
    return source_opts_open(o, sink, interval_ns, SOURCE_OPEN_FAST, &ev->src, err);
}

static int open_target(const struct report_args *a, struct report_evidence *ev, struct dcb_err *err)
{
    const char *path = a->src.store.path;
    if (!path) {
        unsigned big = (a->src.named & SOURCE_G_PROMETHEUS) ? 1u << 22 : 0;
        ev->own_st = true;
        return sink_store_open_ring(&ev->st, big, 0, err);
    }
    struct store_options so = { .path = path };
    if (store_open_sqlite(&ev->st, &so, err) < 0)
        return -1;
    ev->own_st = true;
    ev->record = ev->st;
    ev->store_path = path;
    return 0;
}

static int run_sources(const struct report_args *a, struct source_opts *o, const struct fabric *fab,
                       struct report_evidence *ev, struct dcb_progress *progress,
                       struct dcb_err *err)
{
    struct report_sink k = { .drop_intent = fab && (o->named & SOURCE_G_GNMI) };
    int rc = watch_devices(o, fab, &k);
    if (rc < 0)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    rc = open_target(a, ev, err);
    k.store.st = ev->st;
    /* the store takes what the sources give; the report reads the fabric file's intent
     * itself (a fabric source would put it over what the sources say) */
    o->named &= ~(SOURCE_G_STORE | SOURCE_G_FABRIC);
    if (rc == 0)
        rc = open_sources(o, &k, a->interval_ns, ev, err);
    if (rc == 0 && ev->src.ops) {
        snprintf(ev->label, sizeof(ev->label), "%s",
                 ev->store_path ? ev->store_path : ev->src.name);
        bool live = o->named & (SOURCE_G_LOCAL | SOURCE_G_GNMI);
        struct run_state r = { &k, &ev->src, progress, live ? a->collect_ns : 0, dcb_monotonic_ns(),
                               0 };
        struct dcb_source_run run = { .duration_ns = live ? a->collect_ns : 0,
                                      .after_tick = after_tick,
                                      .arg = &r };
        rc = dcb_source_run(&ev->src, &run, &ev->data_ns, err);
        dcb_source_close(&ev->src);
    }
    if (rc == 0 && list_failures(&k, ev) < 0)
        rc = dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    free(k.watch);
    return rc;
}

/* ---- in place -------------------------------------------------------------------------- */

static int open_in_place(const struct report_args *a, struct report_evidence *ev)
{
    struct source_opts o = a->src;
    struct dcb_err err;
    char def[4096];
    if (!o.store.path && !(o.store.path = getenv("DCBKIT_STORE"))) {
        if (store_default_path(def, sizeof(def), &err) < 0)
            return cli_fail(FAIL, "store", "%s", err.msg);
        o.store.path = def;
    }
    o.named = SOURCE_G_STORE;
    if (source_opts_open(&o, (struct dcb_sink){ 0 }, a->interval_ns, 0, &ev->src, &err) == 0) {
        ev->st = ev->src.direct;
    } else {
        /* the store source wants samples to show; a report says it could not decide */
        struct store_options ro = { .path = o.store.path, .readonly = true };
        if (store_open_sqlite(&ev->st, &ro, NULL) < 0)
            return cli_fail(FAIL, "report", "%s", err.msg);
        ev->own_st = true;
    }
    ev->store_path = a->src.store.path ? a->src.store.path : getenv("DCBKIT_STORE");
    snprintf(ev->label, sizeof(ev->label), "%s", o.store.path);
    /* the report is recorded there for the next one's comparison, when it may be written */
    struct store_options so = { .path = o.store.path };
    if (store_open_sqlite(&ev->record, &so, NULL) < 0) {
        ev->record = NULL;
        ev->readonly = true;
    }
    return 0;
}

/* ---- the whole thing --------------------------------------------------------------------- */

/* The window as Prometheus kept it, at a step that stays under its 11,000 points. */
static void prometheus_window(struct report_args *a)
{
    struct source_prometheus_options *p = &a->src.prometheus;
    p->end_ns = dcb_realtime_ns();
    p->window_ns = a->since_ns;
    if (!p->step_ns) {
        p->step_ns = a->since_ns / 10000;
        if (p->step_ns < 15 * NS_PER_SEC)
            p->step_ns = 15 * NS_PER_SEC;
    }
    p->timeout_ms = 60000;
}

int report_evidence_get(const struct report_args *args, const struct fabric *fab,
                        struct report_evidence *ev, struct dcb_progress *progress)
{
    struct report_args a = *args;
    memset(ev, 0, sizeof(*ev));
    if (a.src.named & SOURCE_G_PROMETHEUS)
        prometheus_window(&a);
    struct source_opts o = a.src;
    plan_sources(&a, fab, &o);
    if (!(o.named & ~(SOURCE_G_STORE | SOURCE_G_FABRIC)))
        return open_in_place(&a, ev);
    struct dcb_err err;
    if (run_sources(&a, &o, fab, ev, progress, &err) == 0)
        return 0;
    return cli_fail(FAIL, a.collect_given ? "report --collect" : "report", "%s", err.msg);
}

void report_evidence_free(struct report_evidence *ev)
{
    dcb_source_close(&ev->src); /* the store source closes the store it read */
    if (ev->record && ev->record != ev->st)
        store_close(ev->record, NULL);
    if (ev->own_st && ev->st)
        store_close(ev->st, NULL);
    free(ev->failed);
    memset(ev, 0, sizeof(*ev));
}
