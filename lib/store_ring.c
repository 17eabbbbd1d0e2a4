/* The in-memory back end: a bounded ring of samples and one of events, for live views that must
 * not touch the disk (dcbtop). When full, the oldest entries are overwritten. Writes are
 * visible at once; flush has nothing to do. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "counter.h"
#include "store_impl.h"

struct ring_entry {
    uint32_t series;
    int64_t ts;
    uint64_t raw;      /* counter reading or gauge bits */
    uint64_t seq;      /* the write that made it: 1, 2, ... */
    uint64_t prev_seq; /* the series' previous write, 0 for none: the per-series chain */
};

struct ring_latest {
    int64_t ts;
    uint64_t raw;
    bool set;
    uint64_t last_seq; /* the series' newest write, the head of its chain */
};

#define RING_CONFIGS_MAX 4096

/* The newest config snapshot of one (device, ifname, source). */
struct ring_config {
    int64_t ts;
    char *device, *ifname, *source, *json;
};

struct ring_store {
    struct dcb_store base;
    struct ring_config *configs;
    size_t nconfigs, configs_cap;
    struct series_map map;
    struct ring_latest *latest; /* by series index */
    size_t latest_cap;
    struct ring_entry *samples;
    size_t sample_cap, sample_head, sample_count;
    struct dcb_event *events;
    size_t event_cap, event_head, event_count;
    uint64_t writes;
    const char *metric_name; /* the last metric name looked up, and its id */
    enum metric_id metric_id;
};

static const struct store_ops ring_ops;

/* The samples' slots, zeroed, their pages taken as first written. A window walks its series back
 * through the ring, a slot a few KB before the last: in huge pages where the kernel has them,
 * not a TLB miss a step. */
static struct ring_entry *slots_alloc(size_t n)
{
    if (n > SIZE_MAX / sizeof(struct ring_entry))
        return NULL; /* what calloc refused before */
    void *p = mmap(NULL, n * sizeof(struct ring_entry), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, n * sizeof(struct ring_entry), MADV_HUGEPAGE);
#endif
    return p;
}

static void slots_free(struct ring_entry *slots, size_t n)
{
    if (slots)
        munmap(slots, n * sizeof(*slots));
}

int store_open_ring(struct dcb_store **out, size_t sample_capacity, size_t event_capacity,
                    struct dcb_err *err)
{
    *out = NULL;
    struct ring_store *r = calloc(1, sizeof(*r));
    if (!r)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory for the live ring");
    r->base.ops = &ring_ops;
    series_map_init(&r->map);
    r->sample_cap = sample_capacity ? sample_capacity : 1;
    r->event_cap = event_capacity ? event_capacity : 1;
    r->samples = slots_alloc(r->sample_cap);
    r->events = calloc(r->event_cap, sizeof(*r->events));
    if (!r->samples || !r->events) {
        slots_free(r->samples, r->sample_cap);
        free(r->events);
        free(r);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory for a ring of %zu samples",
                           sample_capacity);
    }
    *out = &r->base;
    return 0;
}

static void free_config(struct ring_config *c)
{
    free(c->device);
    free(c->ifname);
    free(c->source);
    free(c->json);
}

static int cmp_config(const struct ring_config *c, const char *device, const char *ifname,
                      const char *source)
{
    int d = strcmp(c->device, device);
    if (d)
        return d;
    d = strcmp(c->ifname, ifname);
    return d ? d : strcmp(c->source, source);
}

/* Kept sorted by (device, ifname, source): a snapshot replaces the one with its key. */
static int ring_put_config(struct dcb_store *base, const struct store_config_row *row,
                           struct dcb_err *err)
{
    struct ring_store *r = (struct ring_store *)base;
    const char *device = row->device ? row->device : "", *ifname = row->ifname ? row->ifname : "";
    const char *source = row->source ? row->source : "", *json = row->json ? row->json : "{}";
    size_t lo = 0, hi = r->nconfigs;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (cmp_config(&r->configs[mid], device, ifname, source) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    char *copy = strdup(json);
    if (!copy)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory for a config snapshot");
    if (lo < r->nconfigs && !cmp_config(&r->configs[lo], device, ifname, source)) {
        free(r->configs[lo].json);
        r->configs[lo].json = copy;
        r->configs[lo].ts = row->time_ns;
        return 0;
    }
    if (r->nconfigs == RING_CONFIGS_MAX) {
        free(copy);
        return dcb_err_set(err, DCB_E_RANGE, "the live ring keeps at most %d config snapshots",
                           RING_CONFIGS_MAX);
    }
    if (r->nconfigs == r->configs_cap) {
        size_t cap = r->configs_cap ? r->configs_cap * 2 : 16;
        struct ring_config *grown = realloc(r->configs, cap * sizeof(*grown));
        if (!grown) {
            free(copy);
            return dcb_err_set(err, DCB_E_NOMEM, "out of memory for a config snapshot");
        }
        r->configs = grown;
        r->configs_cap = cap;
    }
    struct ring_config c = { row->time_ns, strdup(device), strdup(ifname), strdup(source), copy };
    if (!c.device || !c.ifname || !c.source) {
        free_config(&c);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory for a config snapshot");
    }
    memmove(&r->configs[lo + 1], &r->configs[lo], (r->nconfigs - lo) * sizeof(c));
    r->configs[lo] = c;
    r->nconfigs++;
    return 0;
}

static int ring_configs(struct dcb_store *base, const char *device, const char *ifname, int64_t t1,
                        store_config_cb cb, void *arg, struct dcb_err *err)
{
    (void)err;
    (void)t1;
    struct ring_store *r = (struct ring_store *)base;
    for (size_t i = 0; i < r->nconfigs; i++) {
        const struct ring_config *c = &r->configs[i];
        if ((device && strcmp(device, c->device)) || (ifname && strcmp(ifname, c->ifname)))
            continue;
        struct store_config_row row = { c->ts, c->device, c->ifname, c->source, c->json };
        int rc = cb(&row, arg);
        if (rc)
            return rc;
    }
    return 0;
}

static int ring_close(struct dcb_store *base, struct dcb_err *err)
{
    (void)err;
    struct ring_store *r = (struct ring_store *)base;
    for (size_t i = 0; i < r->nconfigs; i++)
        free_config(&r->configs[i]);
    free(r->configs);
    series_map_free(&r->map);
    free(r->latest);
    slots_free(r->samples, r->sample_cap);
    free(r->events);
    free(r);
    return 0;
}

static uint64_t sample_raw(const struct dcb_sample *s)
{
    if (metric_info(s->metric)->kind == METRIC_COUNTER)
        return s->value.counter;
    uint64_t raw;
    memcpy(&raw, &s->value.gauge, sizeof(raw));
    return raw;
}

static void raw_to_sample(uint64_t raw, struct dcb_sample *s)
{
    if (metric_info(s->metric)->kind == METRIC_COUNTER)
        s->value.counter = raw;
    else
        memcpy(&s->value.gauge, &raw, sizeof(raw));
}

/* The index of s's series, added if new with room for its latest entry; -1 when out of
 * memory (err set). */
static int64_t ring_series(struct ring_store *r, const struct dcb_sample *s, struct dcb_err *err)
{
    bool added;
    int64_t idx = series_map_intern(&r->map, s, &added);
    if (idx < 0) {
        dcb_err_set(err, DCB_E_NOMEM, "out of memory adding a series");
        return -1;
    }
    if ((size_t)idx >= r->latest_cap) {
        size_t cap = r->map.key_cap;
        struct ring_latest *l = realloc(r->latest, cap * sizeof(*l));
        if (!l) {
            dcb_err_set(err, DCB_E_NOMEM, "out of memory adding a series");
            return -1;
        }
        memset(l + r->latest_cap, 0, (cap - r->latest_cap) * sizeof(*l));
        r->latest = l;
        r->latest_cap = cap;
    }
    return idx;
}

static int ring_set_series_width(struct dcb_store *base, const struct dcb_sample *s, unsigned bits,
                                 struct dcb_err *err)
{
    struct ring_store *r = (struct ring_store *)base;
    int64_t idx = ring_series(r, s, err);
    if (idx < 0)
        return DCB_E_NOMEM;
    r->map.keys[idx].bits = (uint8_t)bits;
    return 0;
}

static unsigned ring_series_width(struct dcb_store *base, const char *device, const char *ifname,
                                  enum metric_id metric, int prio, int queue)
{
    struct ring_store *r = (struct ring_store *)base;
    int64_t idx = series_map_find(&r->map, device, ifname, metric, prio, queue);
    return idx < 0 ? 0 : r->map.keys[idx].bits;
}

static int ring_put_sample(struct dcb_store *base, const struct dcb_sample *s, struct dcb_err *err)
{
    struct ring_store *r = (struct ring_store *)base;
    int64_t idx = ring_series(r, s, err);
    if (idx < 0)
        return DCB_E_NOMEM;
    uint64_t raw = sample_raw(s);
    struct ring_latest *l = &r->latest[idx];
    if (!l->set || s->time_ns >= l->ts) {
        l->ts = s->time_ns;
        l->raw = raw;
        l->set = true;
    }
    struct ring_entry *e = &r->samples[r->sample_head];
    e->series = (uint32_t)idx;
    e->ts = s->time_ns;
    e->raw = raw;
    e->seq = ++r->writes;
    e->prev_seq = l->last_seq;
    l->last_seq = e->seq;
    r->sample_head = (r->sample_head + 1) % r->sample_cap;
    if (r->sample_count < r->sample_cap)
        r->sample_count++;
    return 0;
}

static int ring_put_event(struct dcb_store *base, const struct dcb_event *e, struct dcb_err *err)
{
    (void)err;
    struct ring_store *r = (struct ring_store *)base;
    r->events[r->event_head] = *e;
    r->event_head = (r->event_head + 1) % r->event_cap;
    if (r->event_count < r->event_cap)
        r->event_count++;
    return 0;
}

static int64_t ring_flush(struct dcb_store *base, struct dcb_err *err)
{
    (void)base;
    (void)err;
    return 0;
}

static int64_t ring_pending(const struct dcb_store *base)
{
    (void)base;
    return 0;
}

static int ring_latest_read(struct dcb_store *base, const struct store_filter *f,
                            store_sample_cb cb, void *arg, struct dcb_err *err)
{
    (void)err;
    struct ring_store *r = (struct ring_store *)base;
    for (size_t i = 0; i < r->map.count; i++) {
        const struct ring_latest *l = &r->latest[i];
        if (!l->set || l->ts < f->t0 || l->ts > f->t1 || !series_key_matches(&r->map.keys[i], f))
            continue;
        struct dcb_sample s;
        series_key_to_sample(&r->map.keys[i], &s);
        s.time_ns = l->ts;
        raw_to_sample(l->raw, &s);
        int rc = cb(&s, arg);
        if (rc)
            return rc;
    }
    return 0;
}

/* The samples of a range, by series: series i's are ts[start[i] .. start[i + 1]), in time order. */
struct ring_gather {
    size_t *start; /* nseries + 1 */
    int64_t *ts;
    uint64_t *raw;
    size_t n;
};

static void gather_free(struct ring_gather *g)
{
    free(g->start);
    free(g->ts);
    free(g->raw);
}

struct ring_pair {
    int64_t ts;
    uint64_t raw;
};

static int cmp_pair(const void *a, const void *b)
{
    const struct ring_pair *x = a, *y = b;
    return (x->ts > y->ts) - (x->ts < y->ts);
}

/* A writer that went back in time within a series: put that series in order. */
static int sort_series(int64_t *ts, uint64_t *raw, size_t n)
{
    struct ring_pair *p = malloc(n * sizeof(*p));
    if (!p)
        return -1;
    for (size_t i = 0; i < n; i++)
        p[i] = (struct ring_pair){ ts[i], raw[i] };
    qsort(p, n, sizeof(*p), cmp_pair);
    for (size_t i = 0; i < n; i++) {
        ts[i] = p[i].ts;
        raw[i] = p[i].raw;
    }
    free(p);
    return 0;
}

static int ring_gather(const struct ring_store *r, const struct store_filter *f,
                       struct ring_gather *g, struct dcb_err *err)
{
    memset(g, 0, sizeof(*g));
    size_t nseries = r->map.count;
    bool *match = calloc(nseries + 1, sizeof(bool));
    g->start = calloc(nseries + 1, sizeof(size_t));
    if (!match || !g->start) {
        free(match);
        gather_free(g);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory reading the ring");
    }
    for (size_t i = 0; i < nseries; i++)
        match[i] = series_key_matches(&r->map.keys[i], f);
    /* a counting sort by series, stable: the ring holds each series in arrival order, which is
     * time order for every writer, so (series, time) order costs two passes, not a sort */
    /* the ring in its two straight pieces, oldest first: no modulo per entry */
    size_t first = (r->sample_head + r->sample_cap - r->sample_count) % r->sample_cap, n = 0;
    size_t piece_len[2] = { r->sample_count, 0 };
    if (first + r->sample_count > r->sample_cap) {
        piece_len[0] = r->sample_cap - first;
        piece_len[1] = r->sample_count - piece_len[0];
    }
    size_t *start = g->start;
    const struct ring_entry *piece[2] = { r->samples + first, r->samples };
    for (int pc = 0; pc < 2; pc++)
        for (size_t k = 0; k < piece_len[pc]; k++) {
            const struct ring_entry *e = &piece[pc][k];
            if (match[e->series] && e->ts >= f->t0 && e->ts <= f->t1) {
                start[e->series + 1]++;
                n++;
            }
        }
    for (size_t i = 0; i < nseries; i++)
        start[i + 1] += start[i];
    g->ts = malloc((n + 1) * sizeof(*g->ts)); /* the matches only */
    g->raw = malloc((n + 1) * sizeof(*g->raw));
    if (!g->ts || !g->raw) {
        free(match);
        gather_free(g);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory reading the ring");
    }
    for (int pc = 0; pc < 2; pc++)
        for (size_t k = 0; k < piece_len[pc]; k++) {
            const struct ring_entry *e = &piece[pc][k];
            if (match[e->series] && e->ts >= f->t0 && e->ts <= f->t1) {
                size_t at = start[e->series]++;
                g->ts[at] = e->ts;
                g->raw[at] = e->raw;
            }
        }
    free(match);
    /* each series' end is now the next one's start: shift back */
    memmove(start + 1, start, nseries * sizeof(*start));
    start[0] = 0;
    g->n = n;
    for (size_t i = 0; i < nseries; i++)
        for (size_t k = start[i] + 1; k < start[i + 1]; k++)
            if (g->ts[k] < g->ts[k - 1]) {
                if (sort_series(g->ts + start[i], g->raw + start[i], start[i + 1] - start[i]) < 0) {
                    gather_free(g);
                    return dcb_err_set(err, DCB_E_NOMEM, "out of memory reading the ring");
                }
                break;
            }
    return 0;
}

static int ring_range_runs(struct dcb_store *base, const struct store_filter *f, store_run_cb cb,
                           void *arg, struct store_samples *out, struct dcb_err *err)
{
    struct ring_store *r = (struct ring_store *)base;
    struct ring_gather g;
    int rc = ring_gather(r, f, &g, err);
    if (rc < 0)
        return rc;
    struct dcb_sample key;
    for (size_t i = 0; i < r->map.count && rc == 0; i++) {
        if (g.start[i] == g.start[i + 1])
            continue;
        const struct series_key *k = &r->map.keys[i];
        series_key_to_sample(k, &key);
        struct store_run run = { &key,
                                 k->bits >= 1 && k->bits <= 64 ? k->bits : 64,
                                 g.ts + g.start[i],
                                 g.raw + g.start[i],
                                 g.start[i],
                                 g.start[i + 1] - g.start[i] };
        rc = cb(&run, arg);
    }
    if (out && rc == 0) {
        *out = (struct store_samples){ g.ts, g.raw, g.n };
        g.ts = NULL;
        g.raw = NULL;
    }
    gather_free(&g);
    return rc;
}

struct ring_range_arg {
    store_sample_cb cb;
    void *arg;
};

/* store_range's samples, one run at a time: the key's strings once per series. */
static int range_run_samples(const struct store_run *run, void *arg)
{
    const struct ring_range_arg *ra = arg;
    struct dcb_sample s = *run->key;
    for (size_t k = 0; k < run->n; k++) {
        s.time_ns = run->ts[k];
        raw_to_sample(run->raw[k], &s);
        int rc = ra->cb(&s, ra->arg);
        if (rc)
            return rc;
    }
    return 0;
}

static int ring_range(struct dcb_store *base, const struct store_filter *f, store_sample_cb cb,
                      void *arg, struct dcb_err *err)
{
    struct ring_range_arg ra = { cb, arg };
    return ring_range_runs(base, f, range_run_samples, &ra, NULL, err);
}

/* The entry write seq made, if the ring still holds it. */
static const struct ring_entry *ring_at(const struct ring_store *r, uint64_t seq)
{
    if (!seq || seq + r->sample_count <= r->writes)
        return NULL;
    const struct ring_entry *e = &r->samples[(seq - 1) % r->sample_cap];
    return e->seq == seq ? e : NULL;
}

/* The entry before e in its series' chain, if the ring still holds it: e's slot less the writes
 * between them, which are fewer than the ring holds (no division on the way down a chain). */
static const struct ring_entry *ring_before(const struct ring_store *r, const struct ring_entry *e)
{
    uint64_t prev = e->prev_seq;
    if (!prev || prev + r->sample_count <= r->writes)
        return NULL;
    size_t at = (size_t)(e - r->samples), back = (size_t)(e->seq - prev);
    const struct ring_entry *p = &r->samples[at >= back ? at - back : at + r->sample_cap - back];
    return p->seq == prev ? p : NULL;
}

/* Walks one series' chain back from its newest sample: O(samples in the window). */
static int ring_aggregate(struct dcb_store *base, const struct store_filter *f, enum store_agg agg,
                          double *out, struct dcb_err *err)
{
    (void)err;
    struct ring_store *r = (struct ring_store *)base;
    if (!r->metric_name ||
        (f->metric != r->metric_name && strcmp(f->metric, metric_info(r->metric_id)->name) != 0)) {
        r->metric_name = f->metric; /* the same metric as last time: no registry scan */
        r->metric_id = metric_lookup(f->metric);
    }
    enum metric_id m = r->metric_id;
    int64_t idx = m == METRIC_NONE
                      ? -1
                      : series_map_find(&r->map, f->device, f->ifname, m, f->prio, f->queue);
    if (idx < 0 || !r->latest[idx].set)
        return 0;
    bool counter = metric_info(m)->kind == METRIC_COUNTER;
    unsigned bits = r->map.keys[idx].bits;
    uint64_t n = 0, newer = 0;
    double sum = 0, mn = 0, mx = 0, last = 0, delta = 0;
    int64_t first_ts = 0, last_ts = 0, newer_ts = 0, busy_ns = 0, reset_ns = 0;
    for (const struct ring_entry *e = ring_at(r, r->latest[idx].last_seq); e;
         e = ring_before(r, e)) {
        if (e->ts > f->t1)
            continue;
        if (e->ts < f->t0)
            break;
        double v;
        if (counter) {
            v = (double)e->raw;
            uint64_t step; /* newer is the reading after this one in time */
            if (n && !counter_step(e->raw, newer, bits, &step)) {
                reset_ns += newer_ts - e->ts; /* a reset: its interval counts for nothing */
            } else if (n) {
                delta += (double)step;
                if (step && newer_ts > e->ts)
                    busy_ns += newer_ts - e->ts;
            }
            newer = e->raw;
            newer_ts = e->ts;
        } else {
            memcpy(&v, &e->raw, sizeof(v));
        }
        if (!n) {
            last = mn = mx = v;
            last_ts = e->ts;
        }
        mn = v < mn ? v : mn;
        mx = v > mx ? v : mx;
        sum += v;
        first_ts = e->ts;
        n++;
    }
    if (!n)
        return 0;
    switch (agg) {
    case STORE_AGG_DELTA:
    case STORE_AGG_RATE:
        if (n < 2 || (agg == STORE_AGG_RATE && last_ts - first_ts - reset_ns <= 0))
            return 0;
        *out = agg == STORE_AGG_DELTA ? delta
                                      : delta * 1e9 / (double)(last_ts - first_ts - reset_ns);
        return 1;
    case STORE_AGG_BUSY_RATE:
        if (busy_ns <= 0)
            return 0;
        *out = delta * 1e9 / (double)busy_ns;
        return 1;
    case STORE_AGG_AVG: *out = sum / (double)n; break;
    case STORE_AGG_MAX: *out = mx; break;
    case STORE_AGG_MIN: *out = mn; break;
    case STORE_AGG_LAST: *out = last; break;
    }
    return 1;
}

static int ring_events(struct dcb_store *base, const struct store_filter *f, const char *kind,
                       store_event_cb cb, void *arg, struct dcb_err *err)
{
    (void)err;
    struct ring_store *r = (struct ring_store *)base;
    enum dcb_event_kind want = kind ? dcb_event_kind_lookup(kind) : EVENT_KIND_NONE;
    if (kind && want == EVENT_KIND_NONE)
        return 0;
    size_t start = (r->event_head + r->event_cap - r->event_count) % r->event_cap;
    for (size_t k = 0; k < r->event_count; k++) {
        const struct dcb_event *e = &r->events[(start + k) % r->event_cap];
        if (e->time_ns < f->t0 || e->time_ns > f->t1 || (kind && e->kind != want) ||
            (f->device && strcmp(f->device, e->device) != 0) ||
            (f->ifname && strcmp(f->ifname, e->ifname) != 0) ||
            (f->prio != STORE_ANY && f->prio != e->prio))
            continue;
        int rc = cb(e, arg);
        if (rc)
            return rc;
    }
    return 0;
}

static int ring_info(struct dcb_store *base, struct store_info *info, struct dcb_err *err)
{
    (void)err;
    struct ring_store *r = (struct ring_store *)base;
    info->backend = "ring";
    info->series = r->map.count;
    info->samples = r->sample_count;
    info->events = r->event_count;
    if (r->sample_count) {
        size_t start = (r->sample_head + r->sample_cap - r->sample_count) % r->sample_cap;
        info->first_ns = INT64_MAX;
        for (size_t k = 0; k < r->sample_count; k++) {
            int64_t ts = r->samples[(start + k) % r->sample_cap].ts;
            if (ts < info->first_ns)
                info->first_ns = ts;
            if (ts > info->last_ns)
                info->last_ns = ts;
        }
    }
    info->size_bytes = r->sample_cap * sizeof(*r->samples) + r->event_cap * sizeof(*r->events) +
                       r->map.key_cap * sizeof(*r->map.keys);
    info->config_snapshots = r->nconfigs;
    return 0;
}

static int64_t ring_prune(struct dcb_store *base, int64_t cutoff_ns, struct dcb_err *err)
{
    (void)base;
    (void)cutoff_ns;
    (void)err;
    return 0; /* the ring forgets by itself */
}

static const struct store_ops ring_ops = {
    .close = ring_close,
    .put_sample = ring_put_sample,
    .put_event = ring_put_event,
    .flush = ring_flush,
    .pending = ring_pending,
    .latest = ring_latest_read,
    .range = ring_range,
    .range_runs = ring_range_runs,
    .events = ring_events,
    .put_config = ring_put_config,
    .aggregate = ring_aggregate,
    .configs = ring_configs,
    .info = ring_info,
    .prune = ring_prune,
    .set_series_width = ring_set_series_width,
    .series_width = ring_series_width,
};
