/* --local: this host through collectors/host_source, or saved `ethtool -S` dumps of one
 * interface (collectors/host_dump.h). A tap sees every reading as host_source gives it
 * (`dcbkit collect` prints raw counters and their rates); the sink gets the canonical rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_dump.h"
#include "host_source.h"
#include "source.h"
#include "topology_row.h"

struct local_ctx {
    struct dcb_source *src;
    struct counter_maps maps;
    struct host_source hs;
    const struct host_source_sink *tap;
    const char *const *dumps; /* saved dumps instead of the host */
    size_t ndumps;
    const char *pattern, *driver;
    int read;     /* interfaces the last tick read */
    bool any_pfc; /* some interface has a pfc.* counter */
    int ticks;
    char problem[160]; /* the last error a read gave */
};

static void on_counter(void *arg, int64_t now, const char *ifname, const struct host_counter *c,
                       const struct counter_delta *d)
{
    struct local_ctx *l = arg;
    if (l->tap && l->tap->counter)
        l->tap->counter(l->tap->arg, now, ifname, c, d);
    if (!c->mapped) /* the sink takes its own deltas, as for every source */
        return;
    struct dcb_sample s;
    dcb_sample_set(&s, now, l->hs.device, ifname, c->match.metric, c->match.prio, c->match.queue);
    s.value.counter = c->value;
    enum metric_id m = c->match.metric;
    if (m == METRIC_PFC_RX_PAUSE || m == METRIC_PFC_TX_PAUSE || m == METRIC_PFC_RX_PAUSE_US)
        l->any_pfc = true;
    l->src->sink.sample(l->src->sink.arg, &s, c->match.bits);
}

static void on_speed(void *arg, int64_t now, const char *ifname, uint64_t bps, const char *from)
{
    struct local_ctx *l = arg;
    if (l->tap && l->tap->speed)
        l->tap->speed(l->tap->arg, now, ifname, bps, from);
    struct dcb_sample s;
    dcb_sample_set(&s, now, l->hs.device, ifname, METRIC_LINK_SPEED_BPS, -1, -1);
    s.value.gauge = (double)bps;
    l->src->sink.sample(l->src->sink.arg, &s, 0);
}

static void on_event(void *arg, const struct dcb_event *e)
{
    struct local_ctx *l = arg;
    if (l->tap && l->tap->event)
        l->tap->event(l->tap->arg, e);
    l->src->sink.event(l->src->sink.arg, e);
}

static void put_row(void *arg, const struct store_config_row *row)
{
    struct local_ctx *l = arg;
    l->src->sink.config(l->src->sink.arg, row);
}

static void on_config(void *arg, const struct host_config_snap *snap)
{
    struct local_ctx *l = arg;
    if (l->tap && l->tap->config)
        l->tap->config(l->tap->arg, snap);
    struct store_config_row row = { snap->time_ns, l->hs.device, snap->ifname, snap->source,
                                    snap->json };
    l->src->sink.config(l->src->sink.arg, &row);
    if (strcmp(snap->source, "peer:lldp") || !snap->peer || !snap->peer[0])
        return;
    /* the partner LLDP names, so that the rules can join it to its own records */
    lldp_neighbor_rows(snap->time_ns, l->hs.device, snap->ifname, snap->peer, snap->peer_port,
                       snap->peer_chassis, put_row, l);
    if (l->src->sink.link)
        l->src->sink.link(l->src->sink.arg, l->hs.device, snap->ifname, snap->peer,
                          snap->peer_port ? snap->peer_port : "", "lldp");
}

static void on_message(void *arg, enum dcb_log_level level, const char *text)
{
    struct local_ctx *l = arg;
    if (l->tap && l->tap->message)
        l->tap->message(l->tap->arg, level, text);
    if (level <= DCB_LOG_ERROR)
        snprintf(l->problem, sizeof(l->problem), "%s", text);
}

/* Every dump at once, one interval apart from now: the source then ends. */
static int dumps_tick(struct dcb_source *src, struct local_ctx *l, int64_t now_ns, int64_t *data_ns,
                      struct dcb_err *err)
{
    if (l->ticks++)
        return DCB_SOURCE_END;
    for (size_t i = 0; i < l->ndumps; i++) {
        *data_ns = now_ns + (int64_t)i * src->interval_ns;
        if (host_dump_feed(&l->hs, &l->maps, l->dumps[i], l->pattern, l->driver, *data_ns, err) < 0)
            return -1;
    }
    l->read = 1;
    return DCB_SOURCE_END;
}

static int local_tick(struct dcb_source *src, int64_t now_ns, int64_t *data_ns, struct dcb_err *err)
{
    struct local_ctx *l = src->ctx;
    *data_ns = now_ns;
    if (l->ndumps)
        return dumps_tick(src, l, now_ns, data_ns, err);
    int n = host_source_tick(&l->hs, now_ns, err);
    l->read = n < 0 ? 0 : n;
    if (n < 0)
        return n;
    l->ticks++;
    if (n == 0)
        snprintf(src->status, sizeof(src->status), "no interface could be read%s%s",
                 l->problem[0] ? ": " : "", l->problem);
    else if (!l->any_pfc)
        snprintf(src->status, sizeof(src->status),
                 "no interface here has PFC counters: try dcbtop --demo");
    else
        src->status[0] = '\0';
    return 0;
}

static void local_close(struct dcb_source *src)
{
    struct local_ctx *l = src->ctx;
    host_source_close(&l->hs);
    counter_maps_free(&l->maps);
    free(l);
    src->ctx = NULL;
}

bool dcb_source_local_has_pfc(const struct dcb_source *src)
{
    const struct local_ctx *l = src->ctx;
    return l->any_pfc;
}

void dcb_source_local_stats(const struct dcb_source *src, struct source_local_stats *st)
{
    const struct local_ctx *l = src->ctx;
    *st = (struct source_local_stats){ l->hs.samples, l->hs.events, l->hs.failures, l->read };
}

static const struct dcb_source_ops local_ops = { local_tick, NULL, local_close };

int dcb_source_local_open(struct dcb_source *src, const struct source_local_options *opt,
                          struct dcb_err *err)
{
    struct local_ctx *l = calloc(1, sizeof(*l));
    if (!l)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    l->src = src;
    l->tap = opt->tap;
    l->dumps = opt->dumps;
    l->ndumps = opt->ndumps;
    l->pattern = opt->pattern;
    l->driver = opt->driver;
    char maps_dir[4096];
    const char *dir = opt->maps_dir;
    if (!dir) {
        if (counter_maps_default_dir(maps_dir, sizeof(maps_dir)) < 0) {
            free(l);
            return dcb_err_set(err, DCB_E_NOTFOUND, "no counter maps found; set DCBKIT_MAPS");
        }
        dir = maps_dir;
    }
    if (counter_maps_load_dir(&l->maps, dir, err) < 0) {
        free(l);
        return -1;
    }
    char host[DCB_DEVICE_MAX] = "localhost";
    if (!opt->device && gethostname(host, sizeof(host) - 1) < 0)
        snprintf(host, sizeof(host), "localhost");
    struct host_source_options ho = {
        .sysfs_root = opt->sysfs_root,
        .proc_root = opt->proc_root,
        .pattern = opt->pattern,
        .device = opt->device ? opt->device : host,
        .maps = &l->maps,
        .lldp = !opt->no_lldp,
        .mapped_only = !opt->all_counters, /* canonical metrics only, unless asked */
        .raw_every = opt->raw_every,
        /* for a view: config changes rarely (the knobs are ~40 files a port), and the first
         * frame has no rates to show yet: it comes quickly, and the config with the second */
        .config_every = opt->config_each_tick ? 1 : 10,
        .config_delay = opt->config_each_tick ? 0 : 1,
    };
    struct host_source_sink sink = { on_counter, on_speed, on_event, on_config, on_message, l };
    if (host_source_open(&l->hs, &ho, &sink, err) < 0) {
        counter_maps_free(&l->maps);
        free(l);
        return -1;
    }
    src->ops = &local_ops;
    src->kind = SOURCE_LOCAL;
    src->finite = opt->ndumps > 0;
    src->ctx = l;
    snprintf(src->name, sizeof(src->name), "local %s", l->hs.device);
    return 0;
}
