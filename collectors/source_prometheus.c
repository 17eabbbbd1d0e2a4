/* prometheus: placeholder until the Prometheus source lands (being written now). */
#include "source.h"

int dcb_source_prometheus_open(struct dcb_source *src, const struct source_prometheus_options *opt,
                         struct dcb_err *err)
{
    (void)src;
    (void)opt;
    return dcb_err_set(err, DCB_E_UNSUPP, "the Prometheus source is not built yet");
}
