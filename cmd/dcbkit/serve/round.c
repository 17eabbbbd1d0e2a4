/* One collection round of dcbkit serve: tick the feed, take each series' newest sample, run the
 * rules over the source's window, render the whole /metrics page and publish it. Scrapes only
 * ever read the published page. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "grow.h"
#include "log.h"
#include "evidence_store.h"
#include <cjson/cJSON.h>

#include "qos_json.h"
#include "serve.h"
#include "units.h"
#include "version.h"

void serve_round_init(struct serve_round *r, struct serve_feed *feed, const struct rule_set *rules)
{
    memset(r, 0, sizeof(*r));
    r->feed = feed;
    r->rules = rules;
    r->history_ns = 300 * 1000000000LL;
    r->stale_ns = 300 * 1000000000LL;
    r->stats[0].name = feed->label;
    r->stats[1].name = "rules";
    prom_buf_init(&r->page);
}

void serve_round_free(struct serve_round *r)
{
    free(r->samples);
    finding_list_free(&r->findings);
    free(r->configs);
    free(r->topology);
    prom_buf_free(&r->page);
}

static int add_sample(const struct dcb_sample *s, void *arg)
{
    struct serve_round *r = arg;
    if (r->nsamples == r->samples_cap &&
        dcb_grow(&r->samples, &r->samples_cap, sizeof(*r->samples), 1024) < 0)
        return DCB_E_NOMEM;
    r->samples[r->nsamples++] = *s;
    return 0;
}

struct config_visit {
    struct serve_round *r;
    const struct store_config_row *row;
    bool nomem;
};

static void add_config_value(const char *path, int64_t value, void *arg)
{
    struct config_visit *cv = arg;
    struct serve_round *r = cv->r;
    if (r->nconfigs == r->configs_cap) {
        size_t cap = r->configs_cap ? r->configs_cap * 2 : 256;
        struct prom_config_value *v = realloc(r->configs, cap * sizeof(*v));
        if (!v) {
            cv->nomem = true;
            return;
        }
        r->configs = v;
        r->configs_cap = cap;
    }
    struct prom_config_value *c = &r->configs[r->nconfigs++];
    snprintf(c->device, sizeof(c->device), "%s", cv->row->device);
    snprintf(c->ifname, sizeof(c->ifname), "%s", cv->row->ifname);
    snprintf(c->source, sizeof(c->source), "%s", cv->row->source);
    snprintf(c->field, sizeof(c->field), "%s", path);
    c->value = value;
}

static void copy_string(char *dst, size_t len, const cJSON *v)
{
    snprintf(dst, len, "%s", cJSON_IsString(v) ? v->valuestring : "");
}

/* A "topology" row, for dcbkit_topology_info. */
static void add_topology(struct config_visit *cv, const struct store_config_row *row,
                         const cJSON *j)
{
    struct serve_round *r = cv->r;
    if (r->ntopology == r->topology_cap) {
        size_t cap = r->topology_cap ? r->topology_cap * 2 : 64;
        struct prom_topology *v = realloc(r->topology, cap * sizeof(*v));
        if (!v) {
            cv->nomem = true;
            return;
        }
        r->topology = v;
        r->topology_cap = cap;
    }
    struct prom_topology *t = &r->topology[r->ntopology++];
    const cJSON *peer = cJSON_GetObjectItemCaseSensitive(j, "peer");
    snprintf(t->device, sizeof(t->device), "%s", row->device);
    snprintf(t->ifname, sizeof(t->ifname), "%s", row->ifname);
    copy_string(t->role, sizeof(t->role), cJSON_GetObjectItemCaseSensitive(j, "role"));
    copy_string(t->peer_device, sizeof(t->peer_device),
                cJSON_GetObjectItemCaseSensitive(peer, "device"));
    copy_string(t->peer_ifname, sizeof(t->peer_ifname),
                cJSON_GetObjectItemCaseSensitive(peer, "ifname"));
    copy_string(t->peer_role, sizeof(t->peer_role), cJSON_GetObjectItemCaseSensitive(peer, "role"));
}

/* Each config snapshot's known fields, for dcbkit_qos_config; topology rows for
 * dcbkit_topology_info. */
static int add_config(const struct store_config_row *row, void *arg)
{
    struct config_visit *cv = arg;
    cJSON *j = cJSON_Parse(row->json);
    if (!strcmp(row->source, "topology")) {
        if (cJSON_IsObject(j))
            add_topology(cv, row, j);
        cJSON_Delete(j);
        return cv->nomem ? DCB_E_NOMEM : 0;
    }
    struct qos_config c;
    qos_config_init(&c);
    if (j && qos_from_json(&c, j, "", NULL) == 0) {
        cv->row = row;
        qos_each_value(&c, add_config_value, cv);
    }
    cJSON_Delete(j);
    return cv->nomem ? DCB_E_NOMEM : 0;
}

static int run_rules(struct serve_round *r, int64_t now, struct dcb_err *err)
{
    struct evidence ev = { 0 };
    int rc = evidence_store_open(&ev, r->feed->st, now, err);
    if (rc < 0)
        return rc;
    if (!r->feed->in_place) /* a ring keeps arrival order: load the window first */
        rc = evidence_store_preload(&ev, now - r->history_ns, err);
    else
        evidence_store_limit(&ev, now - r->history_ns);
    if (rc == 0) {
        struct rule_run_options opt = { .profile = r->profile,
                                        .now_ns = now,
                                        .on_finding = finding_list_add,
                                        .arg = &r->findings };
        struct rule_run_stats stats;
        rc = rule_set_run(r->rules, &ev, &opt, &stats, err);
    }
    evidence_store_close(&ev);
    return rc;
}

/* The first problem of the round is the one /healthz tells. */
static void problem_of(struct serve_round *r, char *problem, size_t len, const char *what,
                       const struct dcb_err *e)
{
    r->stats[0].errors++;
    char line[DCB_ERR_MSG_MAX * 2];
    dcb_err_line(line, sizeof(line), what, e->msg);
    if (!problem[0] && len) {
        size_t n = strnlen(line, len - 1);
        memcpy(problem, line, n);
        problem[n] = '\0';
    }
    if (r->verbose)
        dcb_cmd_error("serve", "%s", line);
}

/* Ticks the feed, then reads each series' newest sample and every config snapshot. */
static bool collect(struct serve_round *r, int64_t wall, int64_t *data_ns, char *problem,
                    size_t len)
{
    struct dcb_err e;
    size_t errors = r->stats[0].errors;
    int64_t t0 = dcb_monotonic_ns();
    if (serve_feed_tick(r->feed, data_ns, &e) < 0)
        problem_of(r, problem, len, r->feed->label, &e);
    r->nsamples = 0;
    r->nconfigs = 0;
    r->ntopology = 0;
    if (!r->feed->st) /* a store that holds nothing yet */
        return false;
    struct store_filter f;
    store_filter_init(&f);
    f.t0 = wall - r->stale_ns;
    if (store_latest(r->feed->st, &f, add_sample, r, &e) < 0)
        problem_of(r, problem, len, r->feed->label, &e);
    struct config_visit cv = { r, NULL, false };
    if (store_configs(r->feed->st, NULL, NULL, INT64_MAX, add_config, &cv, &e) < 0)
        problem_of(r, problem, len, r->feed->label, &e);
    if (r->feed->in_place) { /* a store another process writes: as it says now */
        path_gaps_free(&r->feed->gaps);
        if (path_gaps_load(&r->feed->gaps, r->feed->st, INT64_MAX, &e) < 0)
            problem_of(r, problem, len, r->feed->label, &e);
    }
    r->stats[0].duration_s = (double)(dcb_monotonic_ns() - t0) / 1e9;
    r->stats[0].series = r->nsamples;
    bool ok = r->stats[0].errors == errors;
    if (ok)
        r->stats[0].last_ok_ns = wall;
    return ok;
}

static void evaluate(struct serve_round *r, int64_t data_ns, int64_t wall, char *problem,
                     size_t len)
{
    struct dcb_err e;
    int64_t t0 = dcb_monotonic_ns();
    finding_list_clear(&r->findings);
    if (run_rules(r, data_ns, &e) < 0) {
        r->stats[1].errors++;
        finding_list_clear(&r->findings);
        if (!problem[0])
            snprintf(problem, len, "rules: %s", e.msg);
        if (r->verbose)
            dcb_cmd_error("serve", "rules: %s", e.msg);
    } else {
        r->stats[1].last_ok_ns = wall;
    }
    r->stats[1].series = r->findings.n;
    r->stats[1].duration_s = (double)(dcb_monotonic_ns() - t0) / 1e9;
}

static int render(struct serve_round *r, struct dcb_err *err)
{
    size_t n = r->findings.n;
    struct prom_finding *pf = calloc(n ? n : 1, sizeof(*pf));
    if (!pf)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory for the findings");
    for (size_t i = 0; i < n; i++) {
        const struct finding *fd = &r->findings.v[i];
        pf[i] = (struct prom_finding){ fd->rule->id, rule_severity_name(fd->severity),
                                       fd->device,   fd->ifname,
                                       fd->prio,     finding_cause_name(fd->cause) };
    }
    const struct serve_events *ev = &r->feed->events;
    const struct path_gaps *g = &r->feed->gaps;
    struct prom_missing_path *pm = calloc(g->n ? g->n : 1, sizeof(*pm));
    if (!pm) {
        free(pf);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory for the missing paths");
    }
    for (size_t i = 0; i < g->n; i++)
        pm[i] = (struct prom_missing_path){ g->v[i].device, g->v[i].path };
    struct prom_page page = {
        r->samples,     r->nsamples, pf,          n,     r->stats, r->rules ? 2 : 1,
        DCBKIT_VERSION, r->configs,  r->nconfigs, ev->v, ev->n,    r->topology,
        r->ntopology,   pm,          g->n
    };
    int rc = prom_render_page(&r->page, &page, err);
    free(pm);
    free(pf);
    return rc;
}

int serve_round_run(struct serve_round *r, struct serve_board *board, struct dcb_err *err)
{
    char problem[DCB_ERR_MSG_MAX + 32] = "";
    int64_t wall = dcb_realtime_ns(), data_ns = wall;
    bool ok = collect(r, wall, &data_ns, problem, sizeof(problem));
    if (r->rules && r->feed->st)
        evaluate(r, data_ns, wall, problem, sizeof(problem));
    else
        finding_list_clear(&r->findings);
    if (render(r, err) < 0)
        return -1;
    serve_board_publish(board, &r->page, ok, wall, problem);
    return 0;
}
