/* dcbkit report --collect, the fabric's gNMI devices: one gNMI source (collectors/gnmi/
 * gnmi_source.h) drives them all for the collect time, in this process, into the store;
 * counters and QoS config as `dcbkit collect --fabric` stores them. A device that gave neither
 * a sample nor its config in that time is a collection failure, with the last error the source
 * reported for it. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "counter_map.h"
#include "gnmi_source.h"
#include "qos_json.h"
#include "report.h"

struct gnmi_device {
    const char *name;
    uint64_t samples, configs;
    char why[200];               /* the last error */
};

struct gnmi_run {
    struct dcb_store *store;
    struct gnmi_device *devs;
    size_t ndevs;
    uint64_t store_errors;
    struct dcb_err store_err;
};

static struct gnmi_device *device_of(struct gnmi_run *r, const char *name)
{
    for (size_t i = 0; i < r->ndevs; i++)
        if (!strcmp(r->devs[i].name, name))
            return &r->devs[i];
    return NULL;
}

static void on_sample(const struct dcb_sample *s, const char *key, void *arg)
{
    struct gnmi_run *r = arg;
    (void)key;
    struct gnmi_device *d = device_of(r, s->device);
    if (d)
        d->samples++;
    if (store_put_sample(r->store, s, &r->store_err) < 0)
        r->store_errors++;
}

static void on_event(const struct dcb_event *e, void *arg)
{
    struct gnmi_run *r = arg;
    if (store_put_event(r->store, e, &r->store_err) < 0)
        r->store_errors++;
}

static void on_config(int64_t ts, const char *device, const char *ifname,
                      const struct qos_config *c, void *arg)
{
    struct gnmi_run *r = arg;
    struct gnmi_device *d = device_of(r, device);
    if (d)
        d->configs++;
    cJSON *j = qos_to_json(c);
    char *text = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    if (!text) {
        r->store_errors++;
        dcb_err_set(&r->store_err, DCB_E_NOMEM, "out of memory");
        return;
    }
    struct store_config_row row = { .time_ns = ts, .device = device, .ifname = ifname,
                                    .source = "gnmi", .json = text };
    if (store_put_config(r->store, &row, &r->store_err) < 0)
        r->store_errors++;
    free(text);
}

static void on_error(const char *device, const char *address, const char *msg, bool retrying,
                     void *arg)
{
    struct gnmi_device *d = device_of(arg, device);
    (void)retrying;
    if (d)
        snprintf(d->why, sizeof(d->why), "gNMI %.60s: %.130s", address, msg);
}

int report_collect_gnmi(const struct fabric *fab, const char *store_path, int64_t duration_ns,
                        int64_t interval_ns, struct report_collect_result **failed,
                        size_t *nfailed, struct dcb_err *err)
{
    struct gnmi_run r;
    memset(&r, 0, sizeof(r));
    for (size_t i = 0; i < fab->ndevices; i++)
        r.ndevs += fab->devices[i].reach == REACH_GNMI;
    if (!r.ndevs)
        return 0;
    char maps_dir[4096];
    if (counter_maps_default_dir(maps_dir, sizeof(maps_dir)) < 0) {
        for (size_t i = 0; i < fab->ndevices; i++)
            if (fab->devices[i].reach == REACH_GNMI &&
                report_collect_fail(failed, nfailed, fab->devices[i].name,
                                    "no gNMI counter maps found; set DCBKIT_MAPS") < 0)
                return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
        return 0;
    }
    r.devs = calloc(r.ndevs, sizeof(*r.devs));
    if (!r.devs)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    r.ndevs = 0;
    for (size_t i = 0; i < fab->ndevices; i++)
        if (fab->devices[i].reach == REACH_GNMI)
            r.devs[r.ndevs++].name = fab->devices[i].name;
    struct gnmi_source_opts so = {
        .client = { .timeout_ns = interval_ns < 2000000000LL ? 2000000000LL : interval_ns,
                    .interval_ns = interval_ns, .reconnect = true, .fallback_get = true,
                    .probe_once = true, .probe_deliver = true },
        .mode = GNMI_STREAM,
        .encoding = GNMI_ENC_JSON_IETF,
        .sample_interval_ns = interval_ns,
        .config_interval_ns = 0,
    };
    struct gnmi_source_cb cb = { .on_sample = on_sample, .on_event = on_event,
                                 .on_config = on_config, .on_error = on_error, .arg = &r };
    struct store_options sto = { .path = store_path };
    struct gnmi_source *src = NULL;
    struct grpc_endpoint base = { .tls = true };
    size_t added = 0;
    int rc = 0;
    if (store_open_sqlite(&r.store, &sto, err) < 0) {
        free(r.devs);
        return -1;
    }
    if (gnmi_source_new(&src, maps_dir, &so, &cb, err) < 0 ||
        gnmi_source_add_fabric(src, fab, &base, NULL, &added, err) < 0) {
        /* a device the source cannot even take (its credentials file, its map): every gNMI
         * device is then a finding with that reason, and the rest of the report goes on */
        for (size_t i = 0; i < r.ndevs && rc == 0; i++)
            rc = report_collect_fail(failed, nfailed, r.devs[i].name, err->msg);
        goto out;
    }
    /* in slices of one interval, the store committed after each */
    int64_t end = gnmi_now_ns() + duration_ns, left;
    while ((left = end - gnmi_now_ns()) > 0 && gnmi_client_active(gnmi_source_client(src))) {
        gnmi_source_run(src, NULL, left < interval_ns ? left : interval_ns);
        struct dcb_err ferr;
        if (store_flush(r.store, &ferr) < 0 && r.store_errors++ == 0)
            r.store_err = ferr;
    }
    for (size_t i = 0; i < r.ndevs && rc == 0; i++) {
        const struct gnmi_device *d = &r.devs[i];
        if (d->samples || d->configs)
            continue;
        rc = report_collect_fail(failed, nfailed, d->name,
                                 d->why[0] ? d->why : "gNMI: no counters and no config came in "
                                 "the collect time");
    }
out:
    gnmi_source_free(src);
    struct dcb_err cerr;
    if (store_close(r.store, &cerr) < 0 && r.store_errors++ == 0)
        r.store_err = cerr;
    free(r.devs);
    if (rc < 0)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    if (r.store_errors)
        return dcb_err_set(err, r.store_err.code, "store %s: %s", store_path, r.store_err.msg);
    return 0;
}
