/* --local: this host through collectors/host_source, the same reader `dcbkit collect` runs on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_source.h"
#include "source.h"

struct local_ctx {
    struct dcb_source *src;
    struct counter_maps maps;
    struct host_source hs;
    bool any_pfc;                 /* some interface has a pfc.* counter */
    int ticks;
    char problem[160];            /* the last error a read gave */
};

static void on_counter(void *arg, int64_t now, const char *ifname, const struct host_counter *c,
                       const struct counter_delta *d)
{
    (void)d;                      /* the model takes its own deltas, as for every source */
    struct local_ctx *l = arg;
    if (!c->mapped)
        return;
    struct dcb_sample s;
    dcb_sample_set(&s, now, l->hs.device, ifname, c->match.metric, c->match.prio,
                   c->match.queue);
    s.value.counter = c->value;
    enum metric_id m = c->match.metric;
    if (m == METRIC_PFC_RX_PAUSE || m == METRIC_PFC_TX_PAUSE || m == METRIC_PFC_RX_PAUSE_US)
        l->any_pfc = true;
    l->src->sink.sample(l->src->sink.arg, &s, c->match.bits);
}

static void on_speed(void *arg, int64_t now, const char *ifname, uint64_t bps, const char *from)
{
    (void)from;
    struct local_ctx *l = arg;
    struct dcb_sample s;
    dcb_sample_set(&s, now, l->hs.device, ifname, METRIC_LINK_SPEED_BPS, -1, -1);
    s.value.gauge = (double)bps;
    l->src->sink.sample(l->src->sink.arg, &s, 0);
}

static void on_event(void *arg, const struct dcb_event *e)
{
    struct local_ctx *l = arg;
    l->src->sink.event(l->src->sink.arg, e);
}

static void on_config(void *arg, const struct host_config_snap *snap)
{
    struct local_ctx *l = arg;
    struct store_config_row row = { snap->time_ns, l->hs.device, snap->ifname, snap->source,
                                    snap->json };
    l->src->sink.config(l->src->sink.arg, &row);
}

static void on_message(void *arg, enum dcb_log_level level, const char *text)
{
    struct local_ctx *l = arg;
    if (level <= DCB_LOG_ERROR)
        snprintf(l->problem, sizeof(l->problem), "%s", text);
}

static int local_tick(struct dcb_source *src, int64_t now_ns, int64_t *data_ns,
                      struct dcb_err *err)
{
    struct local_ctx *l = src->ctx;
    int n = host_source_tick(&l->hs, now_ns, err);
    *data_ns = now_ns;
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

static const struct dcb_source_ops local_ops = { local_tick, NULL, local_close };

int dcb_source_local_open(struct dcb_source *src, const struct source_local_options *opt,
                          struct dcb_err *err)
{
    struct local_ctx *l = calloc(1, sizeof(*l));
    if (!l)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    l->src = src;
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
        .sysfs_root = opt->sysfs_root, .proc_root = opt->proc_root, .pattern = opt->pattern,
        .device = opt->device ? opt->device : host, .maps = &l->maps, .lldp = !opt->no_lldp,
        .mapped_only = !opt->all_counters,   /* canonical metrics only, unless asked */
        .config_every = 10,          /* config changes rarely; the knobs are ~40 files a port */
        .config_delay = 1,           /* the first frame has no rates to show yet: it comes
                                      * quickly, and the config with the second */
    };
    struct host_source_sink sink = { on_counter, on_speed, on_event, on_config, on_message, l };
    if (host_source_open(&l->hs, &ho, &sink, err) < 0) {
        counter_maps_free(&l->maps);
        free(l);
        return -1;
    }
    src->ops = &local_ops;
    src->kind = SOURCE_LOCAL;
    src->ctx = l;
    snprintf(src->name, sizeof(src->name), "local %s", l->hs.device);
    return 0;
}
