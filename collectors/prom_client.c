#include "prom_client.h"

#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct matrix_series {
    const cJSON *metric;
    size_t start, count; /* into the flat point arrays */
};

struct prom_matrix {
    cJSON *doc;
    struct matrix_series *series;
    size_t nseries;
    int64_t *t_ns;
    double *value;
    size_t npoints;
};

const char *prom_series_label(const struct prom_series *s, const char *key)
{
    for (size_t i = 0; i < s->nlabels; i++)
        if (!strcmp(s->keys[i], key))
            return s->values[i];
    return NULL;
}

static int bad(struct dcb_err *err, const char *what, size_t i)
{
    return dcb_err_set(err, DCB_E_INVAL, "the Prometheus answer is malformed: %s (series %zu)",
                       what, i);
}

/* "1435781430.781" seconds as Unix ns; "NaN", "+Inf", "-Inf" and numbers as values. */
static int parse_point(const cJSON *p, int64_t *t_ns, double *v)
{
    if (!cJSON_IsArray(p) || cJSON_GetArraySize(p) != 2)
        return -1;
    const cJSON *t = cJSON_GetArrayItem(p, 0), *val = cJSON_GetArrayItem(p, 1);
    if (!cJSON_IsNumber(t) || !cJSON_IsString(val) || !isfinite(t->valuedouble) ||
        t->valuedouble < 0 || t->valuedouble > 9.2e9)
        return -1;
    *t_ns = (int64_t)llround(t->valuedouble * 1e3) * 1000000LL;
    const char *s = val->valuestring;
    char *end;
    if (!strcmp(s, "NaN"))
        *v = NAN;
    else if (!strcmp(s, "+Inf"))
        *v = INFINITY;
    else if (!strcmp(s, "-Inf"))
        *v = -INFINITY;
    else {
        *v = strtod(s, &end);
        if (end == s || *end)
            return -1;
    }
    return 0;
}

static int check_series(const cJSON *r, size_t i, size_t *npoints, struct dcb_err *err)
{
    const cJSON *metric = cJSON_GetObjectItemCaseSensitive(r, "metric");
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(r, "values");
    if (!cJSON_IsObject(metric))
        return bad(err, "no metric object", i);
    if (!cJSON_IsArray(values))
        return bad(err, "no values array", i);
    size_t nl = 0;
    const cJSON *l;
    cJSON_ArrayForEach(l, metric) {
        if (!cJSON_IsString(l) || !l->string)
            return bad(err, "a label that is not a string", i);
        if (++nl > PROM_LABELS_MAX)
            return bad(err, "more than 16 labels", i);
    }
    *npoints += (size_t)cJSON_GetArraySize(values);
    return 0;
}

int prom_matrix_parse(struct prom_matrix **out, const char *text, size_t len, struct dcb_err *err)
{
    *out = NULL;
    cJSON *doc = cJSON_ParseWithLength(text, len);
    if (!doc)
        return dcb_err_set(err, DCB_E_INVAL, "the Prometheus answer is not JSON");
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(doc, "status");
    if (!cJSON_IsString(status) || strcmp(status->valuestring, "success") != 0) {
        const cJSON *et = cJSON_GetObjectItemCaseSensitive(doc, "errorType");
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(doc, "error");
        int rc = dcb_err_set(err, DCB_E_INVAL, "Prometheus answered %s: %s: %s",
                             cJSON_IsString(status) ? status->valuestring : "no status",
                             cJSON_IsString(et) ? et->valuestring : "?",
                             cJSON_IsString(e) ? e->valuestring : "no message");
        cJSON_Delete(doc);
        return rc;
    }
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(doc, "data");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(data, "resultType");
    const cJSON *result = cJSON_GetObjectItemCaseSensitive(data, "result");
    if (!cJSON_IsString(type) || strcmp(type->valuestring, "matrix") != 0 ||
        !cJSON_IsArray(result)) {
        cJSON_Delete(doc);
        return dcb_err_set(err, DCB_E_INVAL, "the Prometheus answer is not a matrix");
    }
    size_t n = (size_t)cJSON_GetArraySize(result), npoints = 0, i = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, result) {
        if (check_series(r, i++, &npoints, err) < 0) {
            cJSON_Delete(doc);
            return -1;
        }
    }
    struct prom_matrix *m = calloc(1, sizeof(*m));
    if (m) {
        m->doc = doc;
        m->series = calloc(n ? n : 1, sizeof(*m->series));
        m->t_ns = malloc((npoints ? npoints : 1) * sizeof(*m->t_ns));
        m->value = malloc((npoints ? npoints : 1) * sizeof(*m->value));
    }
    if (!m || !m->series || !m->t_ns || !m->value) {
        prom_matrix_free(m);
        if (!m)
            cJSON_Delete(doc);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory for %zu points", npoints);
    }
    i = 0;
    cJSON_ArrayForEach(r, result) {
        struct matrix_series *s = &m->series[m->nseries++];
        s->metric = cJSON_GetObjectItemCaseSensitive(r, "metric");
        s->start = m->npoints;
        const cJSON *p;
        cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(r, "values")) {
            size_t k = m->npoints;
            if (parse_point(p, &m->t_ns[k], &m->value[k]) < 0 ||
                (k > s->start && m->t_ns[k] <= m->t_ns[k - 1])) {
                prom_matrix_free(m);
                return bad(err, "a point that is not [time, \"value\"] in time order", i);
            }
            m->npoints++;
        }
        s->count = m->npoints - s->start;
        i++;
    }
    *out = m;
    return 0;
}

size_t prom_matrix_series(const struct prom_matrix *m)
{
    return m->nseries;
}

size_t prom_matrix_points(const struct prom_matrix *m)
{
    return m->npoints;
}

void prom_matrix_get(const struct prom_matrix *m, size_t i, struct prom_series *out)
{
    memset(out, 0, sizeof(*out));
    out->name = "";
    const cJSON *l;
    cJSON_ArrayForEach(l, m->series[i].metric) {
        if (!strcmp(l->string, "__name__"))
            out->name = l->valuestring;
        out->keys[out->nlabels] = l->string;
        out->values[out->nlabels++] = l->valuestring;
    }
    out->npoints = m->series[i].count;
}

void prom_matrix_point(const struct prom_matrix *m, size_t i, size_t k, int64_t *t_ns,
                       double *value)
{
    size_t at = m->series[i].start + k;
    *t_ns = m->t_ns[at];
    *value = m->value[at];
}

void prom_matrix_free(struct prom_matrix *m)
{
    if (!m)
        return;
    cJSON_Delete(m->doc);
    free(m->series);
    free(m->t_ns);
    free(m->value);
    free(m);
}

/* ---- HTTP ------------------------------------------------------------------------------------ */

struct body {
    char *data;
    size_t len, cap, max;
    bool too_big;
};

static size_t on_data(char *ptr, size_t size, size_t nmemb, void *arg)
{
    struct body *b = arg;
    size_t n = size * nmemb;
    if (b->len + n > b->max) {
        b->too_big = true;
        return 0;
    }
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 65536;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->data, cap);
        if (!p)
            return 0;
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, ptr, n);
    b->len += n;
    b->data[b->len] = '\0';
    return n;
}

int prom_query_range(const struct prom_query *q, struct prom_matrix **out, struct dcb_err *err)
{
    *out = NULL;
    CURL *c = curl_easy_init();
    if (!c)
        return dcb_err_set(err, DCB_E_NOMEM, "cannot start libcurl");
    char *query = curl_easy_escape(c, q->query, 0);
    size_t ulen = strlen(q->base_url) + (query ? strlen(query) : 0) + 160;
    char *url = malloc(ulen);
    if (!query || !url) {
        curl_free(query);
        free(url);
        curl_easy_cleanup(c);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    }
    size_t blen = strlen(q->base_url);
    while (blen && q->base_url[blen - 1] == '/')
        blen--;
    snprintf(url, ulen, "%.*s/api/v1/query_range?query=%s&start=%.3f&end=%.3f&step=%.3f", (int)blen,
             q->base_url, query, (double)q->start_ns / 1e9, (double)q->end_ns / 1e9,
             (double)q->step_ns / 1e9);
    curl_free(query);
    struct body b = { .max = q->max_bytes ? q->max_bytes : (256u << 20) };
    char curl_err[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, q->timeout_ms ? q->timeout_ms : 30000L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, ""); /* gzip when the server offers it */
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, curl_err);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "dcbkit");
    CURLcode cc = curl_easy_perform(c);
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(c);
    int rc = 0;
    if (b.too_big)
        rc = dcb_err_set(err, DCB_E_RANGE,
                         "the answer is larger than %zu bytes; narrow the "
                         "window or raise the step",
                         b.max);
    else if (cc == CURLE_OPERATION_TIMEDOUT)
        rc = dcb_err_set(err, DCB_E_TIMEOUT, "no answer within %ld ms",
                         q->timeout_ms ? q->timeout_ms : 30000L);
    else if (cc != CURLE_OK)
        rc = dcb_err_set(err, DCB_E_IO, "%s", curl_err[0] ? curl_err : curl_easy_strerror(cc));
    else if (status != 200 && status != 400 && status != 422 && status != 503)
        rc = dcb_err_set(err, DCB_E_IO, "HTTP %ld (is this a Prometheus?)", status);
    else
        rc = prom_matrix_parse(out, b.data ? b.data : "", b.len, err);
    free(b.data);
    free(url);
    return rc;
}
