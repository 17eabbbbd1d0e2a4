/* libFuzzer: a Prometheus API answer (untrusted: any server can stand at the URL) through the
 * matrix parser that dcbkit diagnose --prometheus uses; every series and point it accepts must
 * read back, times in order. */
#include <stdint.h>
#include <stdlib.h>

#include "prom_client.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct prom_matrix *m;
    struct dcb_err err;
    if (prom_matrix_parse(&m, (const char *)data, size, &err) < 0)
        return 0;
    size_t points = 0;
    for (size_t i = 0; i < prom_matrix_series(m); i++) {
        struct prom_series s;
        prom_matrix_get(m, i, &s);
        if (!s.name || s.nlabels > PROM_LABELS_MAX)
            abort();
        int64_t prev = -1;
        for (size_t k = 0; k < s.npoints; k++) {
            int64_t t;
            double v;
            prom_matrix_point(m, i, k, &t, &v);
            if (t <= prev || t < 0)
                abort();
            prev = t;
        }
        points += s.npoints;
        prom_series_label(&s, "device");
    }
    if (points != prom_matrix_points(m))
        abort();
    prom_matrix_free(m);
    return 0;
}
