/* Where dcbkit serve's numbers come from:
 *  - local: this host (or a sysfs tree saved elsewhere) read every interval into a ring, which
 *    also feeds the rules;
 *  - store: a store that another process (dcbkit collect --store) writes; serve only reads it,
 *    and the rules run over its history. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stdio.h>
#include <unistd.h>

#include "counter_map.h"
#include "host_source.h"
#include "serve.h"
#include "units.h"

/* ---- local ----------------------------------------------------------------------------------- */

struct local_source {
    struct counter_maps maps;
    struct host_source hs;
    struct serve_source *src;
    int error;                    /* the first failed write of this tick */
    struct dcb_err err;
    bool verbose;
};

static void local_put(struct local_source *l, const struct dcb_sample *s)
{
    if (!l->error)
        l->error = serve_put_sample(l->src, s, &l->err);
}

static void on_counter(void *arg, int64_t now, const char *ifname, const struct host_counter *c,
                       const struct counter_delta *d)
{
    (void)d;
    struct local_source *l = arg;
    if (!c->mapped)
        return;
    struct dcb_sample s;
    dcb_sample_set(&s, now, l->hs.device, ifname, c->match.metric, c->match.prio,
                   c->match.queue);
    s.value.counter = c->value;
    local_put(l, &s);
}

static void on_speed(void *arg, int64_t now, const char *ifname, uint64_t bps, const char *source)
{
    (void)source;
    struct local_source *l = arg;
    struct dcb_sample s;
    dcb_sample_set(&s, now, l->hs.device, ifname, METRIC_LINK_SPEED_BPS, -1, -1);
    s.value.gauge = (double)bps;
    local_put(l, &s);
}

static void on_event(void *arg, const struct dcb_event *e)
{
    struct local_source *l = arg;
    if (!l->error)
        l->error = serve_put_event(l->src, e, &l->err);
}

static void on_config(void *arg, const struct host_config_snap *snap)
{
    struct local_source *l = arg;
    struct store_config_row row = { snap->time_ns, l->hs.device, snap->ifname, snap->source,
                                    snap->json };
    if (!l->error)
        l->error = serve_put_config(l->src, &row, &l->err);
}

static void on_message(void *arg, enum dcb_log_level level, const char *text)
{
    struct local_source *l = arg;
    if (l->verbose || level == DCB_LOG_ERROR)
        fprintf(stderr, "dcbkit: serve: %s\n", text);
}

static int local_collect(struct serve_source *src, struct dcb_err *err)
{
    struct local_source *l = src->ctx;
    l->error = 0;
    int n = host_source_tick(&l->hs, dcb_realtime_ns(), err);
    if (n < 0)
        return n;
    if (l->error) {
        *err = l->err;
        return l->error;
    }
    if (n == 0)
        return dcb_err_set(err, DCB_E_NOTFOUND, "no interface could be read");
    return 0;
}

static int64_t local_now(struct serve_source *src)
{
    (void)src;
    return dcb_realtime_ns();
}

static void local_close(struct serve_source *src)
{
    struct local_source *l = src->ctx;
    host_source_close(&l->hs);
    counter_maps_free(&l->maps);
    free(l);
}

int serve_source_local_open(struct serve_source *src, const struct serve_local_options *opt,
                            struct dcb_err *err)
{
    memset(src, 0, sizeof(*src));
    char maps_dir[4096];
    if (!opt->maps_dir && counter_maps_default_dir(maps_dir, sizeof(maps_dir)) < 0)
        return dcb_err_set(err, DCB_E_NOTFOUND, "no counter maps found; set DCBKIT_MAPS");
    struct local_source *l = calloc(1, sizeof(*l));
    if (!l)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    if (counter_maps_load_dir(&l->maps, opt->maps_dir ? opt->maps_dir : maps_dir, err) < 0) {
        free(l);
        return -1;
    }
    char host[256] = "localhost";
    if (!opt->device && gethostname(host, sizeof(host) - 1) < 0)
        snprintf(host, sizeof(host), "localhost");
    l->verbose = opt->verbose;
    struct host_source_options ho = {
        .sysfs_root = opt->sysfs_root, .proc_root = opt->proc_root, .pattern = opt->ifname,
        .device = opt->device ? opt->device : host, .maps = &l->maps,
        .lldp = opt->lldp && strcmp(opt->sysfs_root, "/sys") == 0,
    };
    struct host_source_sink sink = { on_counter, on_speed, on_event, on_config, on_message, l };
    if (host_source_open(&l->hs, &ho, &sink, err) < 0) {
        counter_maps_free(&l->maps);
        free(l);
        return -1;
    }
    src->name = "local";
    src->ctx = l;
    src->collect = local_collect;
    src->now = local_now;
    src->close = local_close;
    src->is_ring = true;
    if (store_open_ring(&src->st, opt->ring_samples, opt->ring_samples / 16 + 1, err) < 0) {
        local_close(src);
        memset(src, 0, sizeof(*src));
        return -1;
    }
    l->src = src;
    return 0;
}

/* ---- store ----------------------------------------------------------------------------------- */

static int64_t store_now(struct serve_source *src)
{
    struct store_info info;
    struct dcb_err err;
    if (store_info(src->st, &info, &err) < 0 || !info.last_ns)
        return dcb_realtime_ns();
    return info.last_ns;
}

int serve_source_store_open(struct serve_source *src, const char *path, struct dcb_err *err)
{
    memset(src, 0, sizeof(*src));
    struct store_options so = { .path = path, .readonly = true };
    if (store_open_sqlite(&src->st, &so, err) < 0)
        return -1;
    src->name = "store";
    src->now = store_now;
    return 0;
}

int serve_put_sample(struct serve_source *src, const struct dcb_sample *s, struct dcb_err *err)
{
    int rc = store_put_sample(src->st, s, err);
    return rc == 0 && src->record ? store_put_sample(src->record, s, err) : rc;
}

static int cmp_event_key(const struct prom_event_count *c, const struct dcb_event *e)
{
    int d = strcmp(c->device, e->device);
    if (!d)
        d = strcmp(c->ifname, e->ifname);
    if (!d)
        d = (c->prio > e->prio) - (c->prio < e->prio);
    if (!d)
        d = (c->kind > e->kind) - (c->kind < e->kind);
    return d;
}

/* One more event of its (device, ifname, prio, kind): a binary search in the sorted table. */
static void count_event(struct serve_source *src, const struct dcb_event *e)
{
    size_t lo = 0, hi = src->nevents;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int d = cmp_event_key(&src->events[mid], e);
        if (d == 0) {
            src->events[mid].count++;
            return;
        }
        if (d < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (src->nevents == src->events_cap) {
        size_t cap = src->events_cap ? src->events_cap * 2 : 64;
        struct prom_event_count *v = realloc(src->events, cap * sizeof(*v));
        if (!v) {
            src->events_nomem = true;
            return;
        }
        src->events = v;
        src->events_cap = cap;
    }
    memmove(&src->events[lo + 1], &src->events[lo], (src->nevents - lo) * sizeof(*src->events));
    struct prom_event_count *c = &src->events[lo];
    memset(c, 0, sizeof(*c));
    snprintf(c->device, sizeof(c->device), "%s", e->device);
    snprintf(c->ifname, sizeof(c->ifname), "%s", e->ifname);
    c->prio = e->prio;
    c->kind = e->kind;
    c->count = 1;
    src->nevents++;
}

int serve_put_event(struct serve_source *src, const struct dcb_event *e, struct dcb_err *err)
{
    count_event(src, e);
    int rc = store_put_event(src->st, e, err);
    return rc == 0 && src->record ? store_put_event(src->record, e, err) : rc;
}

int serve_put_config(struct serve_source *src, const struct store_config_row *c,
                     struct dcb_err *err)
{
    int rc = store_put_config(src->st, c, err);
    return rc == 0 && src->record ? store_put_config(src->record, c, err) : rc;
}

void serve_source_close(struct serve_source *src)
{
    if (src->close)
        src->close(src);
    if (src->st)
        store_close(src->st, NULL);
    if (src->record)
        store_close(src->record, NULL);
    free(src->events);
    memset(src, 0, sizeof(*src));
}
