/* The parts of the source layer every source shares: kind names, tick and close through the
 * ops, and the loop that drives a source to its end or for a while (dcb_source_run). */
#include <stdlib.h>
#include <string.h>

#include "qos_json.h"
#include "reset_watch.h"
#include "source.h"
#include "units.h"

static const char *const kind_names[SOURCE_NKINDS] = {
    [SOURCE_LOCAL] = "local",   [SOURCE_GNMI] = "gnmi", [SOURCE_STORE] = "store",
    [SOURCE_REPLAY] = "replay", [SOURCE_PCAP] = "pcap", [SOURCE_PROMETHEUS] = "prometheus",
    [SOURCE_FABRIC] = "fabric", [SOURCE_SET] = "set",
};

const char *dcb_source_kind_name(enum dcb_source_kind k)
{
    return (unsigned)k < SOURCE_NKINDS ? kind_names[k] : "?";
}

int dcb_sink_put_qos(const struct dcb_sink *sink, int64_t time_ns, const char *device,
                     const char *ifname, const char *source, const struct qos_config *c,
                     struct dcb_err *err)
{
    cJSON *j = qos_to_json(c);
    char *text = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    if (!text)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    struct store_config_row row = { time_ns, device, ifname, source, text };
    sink->config(sink->arg, &row);
    free(text);
    return 0;
}

int dcb_source_tick(struct dcb_source *src, int64_t now_ns, int64_t *data_ns, struct dcb_err *err)
{
    *data_ns = now_ns;
    if (!src->ops)
        return DCB_SOURCE_END;
    return src->ops->tick(src, now_ns, data_ns, err);
}

void dcb_source_close(struct dcb_source *src)
{
    if (src->ops && src->ops->close)
        src->ops->close(src);
    src->ops = NULL;
    src->ctx = NULL;
    reset_watch_free(src->watch);
    src->watch = NULL;
}

int dcb_source_watch_resets(struct dcb_source *src, struct dcb_err *err)
{
    if (src->watch)
        return 0;
    src->watch = reset_watch_new(src->sink);
    if (!src->watch)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    src->sink = reset_watch_sink(src->watch);
    return 0;
}

int dcb_source_run(struct dcb_source *src, const struct dcb_source_run *run, int64_t *data_ns,
                   struct dcb_err *err)
{
    int64_t start = dcb_monotonic_ns();
    struct dcb_ticker ticker;
    dcb_ticker_start(&ticker, src->interval_ns);
    long ticks = 0;
    *data_ns = 0;
    for (;;) {
        if (run->stop && *run->stop)
            return 0;
        int rc = dcb_source_tick(src, dcb_realtime_ns(), data_ns, err);
        if (rc < 0)
            return rc;
        ticks++;
        if (run->after_tick && run->after_tick(run->arg, *data_ns, err) < 0)
            return -1;
        if (rc == DCB_SOURCE_END || (run->count && ticks >= run->count))
            return 0;
        int64_t now = dcb_monotonic_ns();
        int64_t next = dcb_ticker_next(&ticker, now);
        if (run->duration_ns && next - start > run->duration_ns)
            next = start + run->duration_ns;
        if (run->duration_ns && now - start >= run->duration_ns)
            return 0;
        dcb_sleep_until(next, run->stop);
    }
}
