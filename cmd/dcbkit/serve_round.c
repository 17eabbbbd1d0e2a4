/* One collection round of dcbkit serve: read the source, take each series' newest sample, run
 * the rules over the source's window, render the whole /metrics page and publish it. Scrapes
 * only ever read the published page. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evidence_store.h"
#include <cjson/cJSON.h>

#include "qos_json.h"
#include "serve.h"
#include "units.h"
#include "version.h"

void serve_round_init(struct serve_round *r, struct serve_source *src,
                      const struct rule_set *rules)
{
    memset(r, 0, sizeof(*r));
    r->src = src;
    r->rules = rules;
    r->history_ns = 300 * 1000000000LL;
    r->stale_ns = 300 * 1000000000LL;
    r->stats[0].name = src->name;
    r->stats[1].name = "rules";
    prom_buf_init(&r->page);
}

void serve_round_free(struct serve_round *r)
{
    free(r->samples);
    free(r->findings);
    free(r->configs);
    free(r->topology);
    prom_buf_free(&r->page);
}

static int add_sample(const struct dcb_sample *s, void *arg)
{
    struct serve_round *r = arg;
    if (r->nsamples == r->samples_cap) {
        size_t cap = r->samples_cap ? r->samples_cap * 2 : 1024;
        struct dcb_sample *v = realloc(r->samples, cap * sizeof(*v));
        if (!v)
            return DCB_E_NOMEM;
        r->samples = v;
        r->samples_cap = cap;
    }
    r->samples[r->nsamples++] = *s;
    return 0;
}

static void add_finding(void *arg, const struct finding *f)
{
    struct serve_round *r = arg;
    if (r->nfindings == r->findings_cap) {
        size_t cap = r->findings_cap ? r->findings_cap * 2 : 64;
        struct finding *v = realloc(r->findings, cap * sizeof(*v));
        if (!v)
            return;                   /* the page says fewer findings; the next round retries */
        r->findings = v;
        r->findings_cap = cap;
    }
    r->findings[r->nfindings++] = *f;
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
    copy_string(t->peer_role, sizeof(t->peer_role),
                cJSON_GetObjectItemCaseSensitive(peer, "role"));
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
    int rc = evidence_store_open(&ev, r->src->st, now, err);
    if (rc < 0)
        return rc;
    if (r->src->is_ring)
        rc = evidence_store_preload(&ev, now - r->history_ns, err);
    else
        evidence_store_limit(&ev, now - r->history_ns);
    if (rc == 0) {
        struct rule_run_options opt = { .profile = r->profile, .now_ns = now,
                                        .on_finding = add_finding, .arg = r };
        struct rule_run_stats stats;
        rc = rule_set_run(r->rules, &ev, &opt, &stats, err);
    }
    evidence_store_close(&ev);
    return rc;
}

int serve_round_run(struct serve_round *r, struct serve_board *board, struct dcb_err *err)
{
    char problem[DCB_ERR_MSG_MAX + 32] = "";
    struct dcb_err e;
    bool ok = true;
    int64_t t0 = dcb_monotonic_ns();
    if (r->src->collect && r->src->collect(r->src, &e) < 0) {
        r->stats[0].errors++;
        ok = false;
        snprintf(problem, sizeof(problem), "%s: %s", r->src->name, e.msg);
        if (r->verbose)
            fprintf(stderr, "dcbkit: serve: %s\n", problem);
    }
    if (ok && r->src->intent && !r->src->intent_put) {
        if (serve_put_intent(r->src, &e) < 0) {
            r->stats[0].errors++;
            ok = false;
            snprintf(problem, sizeof(problem), "the fabric's intent: %s", e.msg);
        } else {
            r->src->intent_put = true;
        }
    }
    if (r->src->record && store_flush(r->src->record, &e) < 0) {
        r->stats[0].errors++;
        ok = false;
        snprintf(problem, sizeof(problem), "recording to the store: %s", e.msg);
    }
    int64_t wall = dcb_realtime_ns();
    r->nsamples = 0;
    struct store_filter f;
    store_filter_init(&f);
    f.t0 = wall - r->stale_ns;
    if (store_latest(r->src->st, &f, add_sample, r, &e) < 0) {
        r->stats[0].errors++;
        ok = false;
        snprintf(problem, sizeof(problem), "%s: %s", r->src->name, e.msg);
    }
    r->nconfigs = 0;
    r->ntopology = 0;
    struct config_visit cv = { r, NULL, false };
    if (store_configs(r->src->st, NULL, NULL, INT64_MAX, add_config, &cv, &e) < 0) {
        r->stats[0].errors++;
        ok = false;
        snprintf(problem, sizeof(problem), "%s: %s", r->src->name, e.msg);
    }
    int64_t t1 = dcb_monotonic_ns();
    r->stats[0].duration_s = (double)(t1 - t0) / 1e9;
    r->stats[0].series = r->nsamples;
    if (ok)
        r->stats[0].last_ok_ns = wall;

    r->nfindings = 0;
    if (r->rules) {
        if (run_rules(r, r->src->now(r->src), &e) < 0) {
            r->stats[1].errors++;
            r->nfindings = 0;
            if (!problem[0])
                snprintf(problem, sizeof(problem), "rules: %s", e.msg);
            if (r->verbose)
                fprintf(stderr, "dcbkit: serve: rules: %s\n", e.msg);
        } else {
            r->stats[1].last_ok_ns = wall;
        }
        r->stats[1].series = r->nfindings;
        r->stats[1].duration_s = (double)(dcb_monotonic_ns() - t1) / 1e9;
    }

    struct prom_finding *pf = calloc(r->nfindings ? r->nfindings : 1, sizeof(*pf));
    if (!pf)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory for the findings");
    for (size_t i = 0; i < r->nfindings; i++) {
        const struct finding *fd = &r->findings[i];
        pf[i] = (struct prom_finding){ fd->rule->id, rule_severity_name(fd->rule->severity),
                                       fd->device, fd->ifname, fd->prio };
    }
    struct prom_page page = { r->samples, r->nsamples, pf, r->nfindings, r->stats,
                              r->rules ? 2 : 1, DCBKIT_VERSION, r->configs, r->nconfigs,
                              r->src->events, r->src->nevents, r->topology, r->ntopology };
    int rc = prom_render_page(&r->page, &page, err);
    free(pf);
    if (rc < 0)
        return rc;
    serve_board_publish(board, &r->page, ok, wall, problem);
    return 0;
}
