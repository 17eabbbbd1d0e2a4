/* A client of the Prometheus HTTP API (/api/v1/query_range) over libcurl: what `dcbkit
 * diagnose --prometheus` reads a fleet's window through. The answer is untrusted: it is parsed
 * with cJSON under a size cap, and every field is checked (status, resultType "matrix", each
 * series a metric object of string labels and values of [time, "number"]). */
#ifndef DCB_PROM_CLIENT_H
#define DCB_PROM_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define PROM_LABELS_MAX 16

/* One series of a matrix: its labels (__name__ among them) and its points, in time order. */
struct prom_series {
    const char *name; /* __name__, "" when absent */
    size_t nlabels;
    const char *keys[PROM_LABELS_MAX];
    const char *values[PROM_LABELS_MAX];
    size_t npoints;
};

/* The value of label key, or NULL. */
const char *prom_series_label(const struct prom_series *s, const char *key);

struct prom_matrix;

/* Parses an API answer (the bytes as received). DCB_E_INVAL with the reason: not JSON, status
 * "error" (Prometheus' own errorType and error quoted), not a matrix, a malformed series. */
int prom_matrix_parse(struct prom_matrix **out, const char *text, size_t len, struct dcb_err *err);
size_t prom_matrix_series(const struct prom_matrix *m);
size_t prom_matrix_points(const struct prom_matrix *m);
/* Series i; its point k as Unix ns and value (NaN, +Inf and -Inf as such). */
void prom_matrix_get(const struct prom_matrix *m, size_t i, struct prom_series *out);
void prom_matrix_point(const struct prom_matrix *m, size_t i, size_t k, int64_t *t_ns,
                       double *value);
void prom_matrix_free(struct prom_matrix *m);

struct prom_query {
    const char *base_url; /* http://prometheus:9090, with or without a path prefix */
    const char *query;    /* PromQL */
    int64_t start_ns, end_ns, step_ns;
    long timeout_ms;  /* the whole request (0: 30 s) */
    size_t max_bytes; /* the answer (0: 256 MiB) */
};

/* GET /api/v1/query_range and parse the answer. DCB_E_IO for transport errors and HTTP errors
 * (with Prometheus' message when it sent one), DCB_E_TIMEOUT, DCB_E_RANGE past max_bytes. */
int prom_query_range(const struct prom_query *q, struct prom_matrix **out, struct dcb_err *err);

#endif
