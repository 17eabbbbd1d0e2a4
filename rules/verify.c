/* The verification of advice in replay (diagnose --verify, report): each finding that proposes
 * a value for a knob is checked on the replay engine. The scenario (given with --scenario, or a
 * built-in incast over the --fabric file) runs once as it is and once with `knob=value` (and the
 * rule's `also` changes) set on every interface it applies to; the
 * finding gets both sets of figures, and advice that shows no improvement loses one severity
 * level and says so.
 *
 * Runs are cached by what determines them: the scenario as run (fabric inlined, seed applied,
 * as scenario.h keeps it in doc), the override, and the engine's version, hashed (FNV-1a, 64 bits)
 * into DIR/<hash>.json, DIR being --cache-dir, $DCBKIT_CACHE_DIR, $XDG_CACHE_HOME/dcbkit/replay
 * or ~/.cache/dcbkit/replay. A cache file that cannot be read is a miss; one that cannot be
 * written is skipped. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_text.h"
#include "scenario.h"
#include "verify.h"
#include "version.h"

#define PAUSE_SERIES_MAX 4096

/* The last rx_pause_us of every (device, ifname, prio): their sum is the run's pause time. */
struct pause_sum {
    struct {
        uint64_t key, value;
    } slot[PAUSE_SERIES_MAX];
    size_t used;
};

static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

static void on_sample(void *arg, const struct dcb_sample *s)
{
    struct pause_sum *ps = arg;
    if (s->metric != METRIC_PFC_RX_PAUSE_US)
        return;
    uint64_t key = fnv(1469598103934665603ULL, s->device, strlen(s->device) + 1);
    key = fnv(key, s->ifname, strlen(s->ifname) + 1);
    key = fnv(key, &s->prio, sizeof(s->prio)) | 1; /* 0 marks a free slot */
    size_t k = key % PAUSE_SERIES_MAX;
    for (size_t n = 0; n < PAUSE_SERIES_MAX; n++, k = (k + 1) % PAUSE_SERIES_MAX) {
        if (ps->slot[k].key == key || !ps->slot[k].key) {
            if (!ps->slot[k].key)
                ps->used++;
            ps->slot[k].key = key;
            ps->slot[k].value = s->value.counter;
            return;
        }
    }
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static void figures_of(const struct scenario_result *res, const struct pause_sum *ps,
                       struct finding_figures *f)
{
    memset(f, 0, sizeof(*f));
    for (size_t i = 0; i < PAUSE_SERIES_MAX; i++)
        f->pause_us += (double)ps->slot[i].value;
    const struct scenario_digest *dg = &res->digest;
    f->marks = (double)dg->ecn_marked;
    for (int p = 0; p < SCENARIO_PRIOS; p++)
        f->drops += (double)(dg->pg_drops[p] + dg->queue_drops[p]);
    f->watchdog_drops = (double)dg->watchdog_drops;
    const struct replay_summary *s = &res->summary;
    double *fct = s->nflows ? malloc(s->nflows * sizeof(*fct)) : NULL;
    size_t nfct = 0;
    for (size_t i = 0; i < s->nflows; i++) {
        f->throughput_bps += s->flows[i].throughput_bps;
        if (fct && s->flows[i].finish_ns > 0)
            fct[nfct++] = (double)(s->flows[i].finish_ns - s->flows[i].start_ns);
    }
    f->fct_p99_ns = -1;
    if (nfct) {
        qsort(fct, nfct, sizeof(*fct), cmp_double);
        f->fct_p99_ns = fct[(size_t)ceil(0.99 * (double)nfct) - 1];
    }
    free(fct);
    f->iter_p99_ns = res->iterations.complete ? res->iterations.p99_ns : -1;
}

/* ---- the cache ------------------------------------------------------------------------------- */

static void cache_dir_default(char *buf, size_t len)
{
    const char *env = getenv("DCBKIT_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"),
               *home = getenv("HOME");
    if (env && *env)
        snprintf(buf, len, "%s", env);
    else if (xdg && *xdg)
        snprintf(buf, len, "%s/dcbkit/replay", xdg);
    else if (home && *home)
        snprintf(buf, len, "%s/.cache/dcbkit/replay", home);
    else
        buf[0] = '\0';
}

static void mkdirs(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s", dir);
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0777);
            *p = '/';
        }
    mkdir(path, 0777);
}

static const char *const FIG_NAMES[] = { "pause_us",       "marks",      "drops",
                                         "throughput_bps", "fct_p99_ns", "iter_p99_ns",
                                         "watchdog_drops" };
#define NFIGS (sizeof(FIG_NAMES) / sizeof(FIG_NAMES[0]))

static double *fig_field(struct finding_figures *f, size_t i)
{
    double *fields[NFIGS] = { &f->pause_us,       &f->marks,      &f->drops,
                              &f->throughput_bps, &f->fct_p99_ns, &f->iter_p99_ns,
                              &f->watchdog_drops };
    return fields[i];
}

static bool cache_read(const char *path, const char *key, struct finding_figures *f)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return false;
    char buf[4096];
    size_t n = fread(buf, 1, sizeof(buf) - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    cJSON *j = cJSON_Parse(buf);
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(j, "key");
    bool ok = cJSON_IsString(k) && !strcmp(k->valuestring, key);
    for (size_t i = 0; ok && i < NFIGS; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, FIG_NAMES[i]);
        ok = cJSON_IsNumber(v);
        if (ok)
            *fig_field(f, i) = v->valuedouble;
    }
    cJSON_Delete(j);
    return ok;
}

struct cache_entry {
    const char *key;
    struct finding_figures *f;
};

static int put_cache_entry(FILE *fp, void *arg)
{
    const struct cache_entry *c = arg;
    fprintf(fp, "{\"key\":\"%s\"", c->key);
    for (size_t i = 0; i < NFIGS; i++)
        fprintf(fp, ",\"%s\":%.17g", FIG_NAMES[i], *fig_field(c->f, i));
    fprintf(fp, "}\n");
    return ferror(fp) ? -1 : 0;
}

/* A cache that cannot be written is no error: the next run replays again. */
static void cache_write(const char *dir, const char *path, const char *key,
                        struct finding_figures *f)
{
    mkdirs(dir);
    struct cache_entry c = { key, f };
    dcb_write_file_atomic(path, put_cache_entry, &c, NULL);
}

/* ---- one replay ------------------------------------------------------------------------------ */

struct verify_ctx {
    const struct rule_verify_options *v;
    const char *cache_dir;
    char *text; /* the scenario: its file, or one built over the fabric */
    size_t len;
    char base_dir[4096];
    unsigned runs, hits;
};

/* Loads the scenario with the overrides (path=value each) and runs it, or reads the cache. */
static int replay_once(struct verify_ctx *vc, const char *const *sets, size_t nsets,
                       struct finding_figures *f, bool *cached, struct dcb_err *err)
{
    struct scenario sc;
    int rc = scenario_load_text(&sc, vc->text, vc->len,
                                vc->v->scenario ? vc->v->scenario : "the fabric's incast",
                                vc->base_dir, sets, nsets, err);
    if (rc < 0)
        return rc;
    char *doc = cJSON_PrintUnformatted(sc.doc);
    uint64_t h = fnv(1469598103934665603ULL, DCBKIT_VERSION, strlen(DCBKIT_VERSION) + 1);
    h = doc ? fnv(h, doc, strlen(doc)) : h;
    free(doc);
    /* the doc holds scenario-key overrides; QoS ones live in the fabric, so hash the changes */
    for (size_t i = 0; i < nsets; i++)
        h = fnv(h, sets[i], strlen(sets[i]) + 1);
    char key[17], path[4200];
    snprintf(key, sizeof(key), "%016" PRIx64, h);
    snprintf(path, sizeof(path), "%s/%s.json", vc->cache_dir, key);
    if (vc->cache_dir[0] && cache_read(path, key, f)) {
        *cached = true;
        vc->hits++;
        scenario_free(&sc);
        return 0;
    }
    *cached = false;
    struct pause_sum *ps = calloc(1, sizeof(*ps));
    if (!ps) {
        scenario_free(&sc);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    }
    if (sc.options.sample_interval_ns <= 0)
        sc.options.sample_interval_ns = 1000000; /* the pause counters are read in samples */
    struct replay_hooks hooks = { .sample = on_sample, .arg = ps };
    struct scenario_run_options ro = { .duration_ns = sc.options.duration_ns };
    struct scenario_result res;
    rc = scenario_run(&sc, &ro, &hooks, &res, err);
    if (rc == 0) {
        figures_of(&res, ps, f);
        scenario_result_free(&res);
        vc->runs++;
        if (vc->cache_dir[0])
            cache_write(vc->cache_dir, path, key, f);
    }
    free(ps);
    scenario_free(&sc);
    return rc;
}

/* ---- judging --------------------------------------------------------------------------------- */

static bool better(double before, double after, double by, bool lower_is_better)
{
    if (before < 0 || after < 0)
        return false;
    return lower_is_better ? before > 0 && after <= before * (1 - by)
                           : after >= before * (1 + by) && after > 0;
}

/* The objective as a whole: the loss a fix removes (drops other than the watchdog's, which are
 * the watchdog doing its job: a change that only delays it "saves" them by pausing longer),
 * pause time, throughput, FCT and iteration p99. A gain in one that costs another is a
 * trade-off; pausing longer counts as a cost unless it is what stopped the loss. */
static void judge(struct finding *fd)
{
    struct finding_verified *vf = &fd->verified;
    const struct finding_figures *b = &vf->before, *a = &vf->after;
    double lost_b = b->drops - b->watchdog_drops, lost_a = a->drops - a->watchdog_drops;
    bool less_loss = better(lost_b, lost_a, 0.10, true);
    bool gain = better(b->pause_us, a->pause_us, 0.10, true) || less_loss ||
                better(b->throughput_bps, a->throughput_bps, 0.05, false) ||
                better(b->fct_p99_ns, a->fct_p99_ns, 0.05, true) ||
                better(b->iter_p99_ns, a->iter_p99_ns, 0.05, true);
    bool loss = lost_a > lost_b || a->throughput_bps < b->throughput_bps * 0.9 ||
                (b->fct_p99_ns > 0 && a->fct_p99_ns > b->fct_p99_ns * 1.1) ||
                (!less_loss && a->pause_us > b->pause_us * 1.1 + 1);
    vf->improved = gain;
    vf->tradeoff = gain && loss;
    char what[256];
    size_t o = (size_t)snprintf(what, sizeof(what), "pause time %.0f -> %.0f us", b->pause_us,
                                a->pause_us);
    if (b->pause_us > 0)
        o += (size_t)snprintf(what + o, sizeof(what) - o, " (%+.0f%%)",
                              100.0 * (a->pause_us / b->pause_us - 1));
    if ((b->drops > 0 || a->drops > 0) && o < sizeof(what))
        o += (size_t)snprintf(what + o, sizeof(what) - o, ", drops %.0f -> %.0f", b->drops,
                              a->drops);
    if ((b->watchdog_drops > 0 || a->watchdog_drops > 0) && o < sizeof(what))
        o += (size_t)snprintf(what + o, sizeof(what) - o, " (the watchdog's %.0f -> %.0f)",
                              b->watchdog_drops, a->watchdog_drops);
    if (b->throughput_bps > 0 && o < sizeof(what))
        o += (size_t)snprintf(what + o, sizeof(what) - o, ", throughput %+.1f%%",
                              100.0 * (a->throughput_bps / b->throughput_bps - 1));
    if (b->fct_p99_ns > 0 && a->fct_p99_ns > 0 && o < sizeof(what))
        snprintf(what + o, sizeof(what) - o, ", FCT p99 %+.0f%%",
                 100.0 * (a->fct_p99_ns / b->fct_p99_ns - 1));
    if (gain && !loss) {
        snprintf(vf->note, sizeof(vf->note), "replay: the change helps: %s", what);
        return;
    }
    if (gain) {
        snprintf(vf->note, sizeof(vf->note),
                 "replay: the change helps at a cost (a trade-off "
                 "to weigh): %s",
                 what);
        return;
    }
    /* advice that does not help is not given: the change tried stays in verified.change */
    snprintf(vf->note, sizeof(vf->note),
             "replay shows no improvement%s (%s): the proposal is withdrawn%s%s",
             loss ? ", it costs drops, pause time or throughput" : "", what,
             fd->severity > RULE_INFO ? ", demoted from " : "",
             fd->severity > RULE_INFO ? rule_severity_name(fd->severity) : "");
    fd->proposed[0] = '\0';
    for (size_t i = 0; i < RULE_ALSO_MAX; i++)
        fd->also[i][0] = '\0';
    if (fd->severity > RULE_INFO)
        fd->severity--;
}

static int load_scenario_text(struct verify_ctx *vc, struct dcb_err *err)
{
    const struct rule_verify_options *v = vc->v;
    if (v->scenario) {
        if (dcb_read_text_file(v->scenario, SCENARIO_FILE_MAX, &vc->text, &vc->len, err) < 0)
            return -1;
        const char *slash = strrchr(v->scenario, '/');
        snprintf(vc->base_dir, sizeof(vc->base_dir), "%.*s", slash ? (int)(slash - v->scenario) : 1,
                 slash ? v->scenario : ".");
        return 0;
    }
    if (!v->fabric)
        return dcb_err_set(err, DCB_E_INVAL,
                           "--verify needs a scenario (--scenario FILE) or "
                           "a fabric (--fabric FILE)");
    /* a fabric alone: every other host sends to the last one on the RoCE class for 10 ms */
    cJSON *doc = cJSON_CreateObject(), *wl = cJSON_CreateObject();
    char abs[4096];
    if (!realpath(v->fabric, abs))
        snprintf(abs, sizeof(abs), "%s", v->fabric);
    cJSON_AddStringToObject(doc, "name", "fabric-incast");
    cJSON_AddStringToObject(doc, "fabric", abs);
    cJSON_AddStringToObject(wl, "type", "incast");
    cJSON_AddNumberToObject(wl, "dscp", 26);
    cJSON_AddItemToObject(doc, "workload", wl);
    cJSON_AddNumberToObject(doc, "duration_ms", 10);
    cJSON_AddNumberToObject(doc, "seed", 1);
    vc->text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    if (!vc->text)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    vc->len = strlen(vc->text);
    snprintf(vc->base_dir, sizeof(vc->base_dir), ".");
    return 0;
}

int rule_verify(const struct rule_verify_options *v, struct finding *findings, size_t n,
                struct rule_verify_stats *stats, struct dcb_err *err)
{
    struct verify_ctx vc = { .v = v, .cache_dir = stats->cache_dir };
    if (v->cache_dir)
        snprintf(stats->cache_dir, sizeof(stats->cache_dir), "%s", v->cache_dir);
    else
        cache_dir_default(stats->cache_dir, sizeof(stats->cache_dir));
    int rc = load_scenario_text(&vc, err);
    struct finding_figures base;
    bool base_cached = false, have_base = false;
    for (size_t i = 0; i < n && rc == 0; i++) {
        struct finding *fd = &findings[i];
        struct finding_verified *vf = &fd->verified;
        if (!fd->knob[0])
            continue;
        if (!fd->proposed[0]) {
            snprintf(vf->note, sizeof(vf->note), "not verified: the rule proposes no value");
            continue;
        }
        const char *sets[1 + RULE_ALSO_MAX];
        char first[160];
        snprintf(first, sizeof(first), "%s=%s", fd->knob, fd->proposed);
        sets[0] = first;
        size_t nsets = 1;
        for (int k = 0; k < RULE_ALSO_MAX; k++)
            if (fd->also[k][0])
                sets[nsets++] = fd->also[k];
        size_t used = 0;
        for (size_t k = 0; k < nsets && used < sizeof(vf->change); k++)
            used += (size_t)snprintf(vf->change + used, sizeof(vf->change) - used, "%s%s",
                                     k ? " " : "", sets[k]);
        /* the same change proposed by another finding was replayed already */
        const struct finding *same = NULL;
        for (size_t k = 0; k < i && !same; k++)
            if (findings[k].verified.done && !strcmp(findings[k].verified.change, vf->change))
                same = &findings[k];
        if (same) {
            vf->done = true;
            vf->cached = true;
            vf->before = same->verified.before;
            vf->after = same->verified.after;
            judge(fd);
            continue;
        }
        if (!have_base) {
            if ((rc = replay_once(&vc, NULL, 0, &base, &base_cached, err)) < 0)
                break;
            have_base = true;
        }
        struct dcb_err verr;
        bool cached = false;
        if (replay_once(&vc, sets, nsets, &vf->after, &cached, &verr) < 0) {
            snprintf(vf->note, sizeof(vf->note), "not verified: %.170s", verr.msg);
            continue;
        }
        vf->before = base;
        vf->done = true;
        vf->cached = base_cached && cached;
        judge(fd);
    }
    stats->runs = vc.runs;
    stats->hits = vc.hits;
    free(vc.text);
    return rc;
}
