#include "record_json.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qos_json.h"
#include "sample_json.h"

static bool valid_ts(const cJSON *ts)
{
    return cJSON_IsNumber(ts) && ts->valuedouble >= 0 && ts->valuedouble < 9.2e18;
}

static int event_from(const cJSON *j, struct dcb_record *r, char *why, size_t whylen)
{
    const cJSON *ts = cJSON_GetObjectItemCaseSensitive(j, "ts");
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(j, "event");
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(j, "device");
    const cJSON *ifn = cJSON_GetObjectItemCaseSensitive(j, "ifname");
    const cJSON *prio = cJSON_GetObjectItemCaseSensitive(j, "prio");
    const cJSON *details = cJSON_GetObjectItemCaseSensitive(j, "details");
    enum dcb_event_kind k = cJSON_IsString(kind) ? dcb_event_kind_lookup(kind->valuestring)
                                                 : EVENT_KIND_NONE;
    if (!valid_ts(ts) || !cJSON_IsString(dev) || !cJSON_IsString(ifn)) {
        snprintf(why, whylen, "an event needs ts (ns), event, device and ifname");
        return -1;
    }
    if (k == EVENT_KIND_NONE) {
        snprintf(why, whylen, "unknown event kind '%s'",
                 cJSON_IsString(kind) ? kind->valuestring : "");
        return -1;
    }
    if (details && !cJSON_IsObject(details)) {
        snprintf(why, whylen, "event details must be an object");
        return -1;
    }
    char *text = details ? cJSON_PrintUnformatted(details) : NULL;
    if (text && strlen(text) >= DCB_DETAILS_MAX) {
        free(text);
        snprintf(why, whylen, "event details longer than %d bytes", DCB_DETAILS_MAX - 1);
        return -1;
    }
    int p = cJSON_IsNumber(prio) && prio->valuedouble >= -1 && prio->valuedouble <= 7
                ? prio->valueint : -1;
    dcb_event_set(&r->event, (int64_t)ts->valuedouble, k, dev->valuestring, ifn->valuestring, p,
                  text ? text : "{}");
    free(text);
    r->kind = RECORD_EVENT;
    return 0;
}

static int config_from(const cJSON *j, struct dcb_record *r, char *why, size_t whylen)
{
    const cJSON *ts = cJSON_GetObjectItemCaseSensitive(j, "ts");
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(j, "device");
    const cJSON *ifn = cJSON_GetObjectItemCaseSensitive(j, "ifname");
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(j, "config_source");
    const cJSON *seen = cJSON_GetObjectItemCaseSensitive(j, "seen_on");
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(j, "config");
    if (!valid_ts(ts) || !cJSON_IsString(dev) || !cJSON_IsString(ifn) || !cJSON_IsString(src) ||
        !cJSON_IsObject(cfg) || (seen && !cJSON_IsString(seen))) {
        snprintf(why, whylen, "a config snapshot needs ts (ns), device, ifname, config_source "
                 "and a config object");
        return -1;
    }
    struct qos_config q;
    struct dcb_err err;
    qos_config_init(&q);
    if (qos_from_json(&q, cfg, "config.", &err) < 0) {
        snprintf(why, whylen, "%s", err.msg);
        return -1;
    }
    r->time_ns = (int64_t)ts->valuedouble;
    if (seen) {
        const char *colon = strchr(seen->valuestring, ':');
        if (!colon || colon == seen->valuestring || !colon[1]) {
            snprintf(why, whylen, "seen_on must be device:ifname");
            return -1;
        }
        snprintf(r->device, sizeof(r->device), "%.*s", (int)(colon - seen->valuestring),
                 seen->valuestring);
        snprintf(r->ifname, sizeof(r->ifname), "%s", colon + 1);
        snprintf(r->source, sizeof(r->source), "peer:%s", src->valuestring);
    } else {
        snprintf(r->device, sizeof(r->device), "%s", dev->valuestring);
        snprintf(r->ifname, sizeof(r->ifname), "%s", ifn->valuestring);
        snprintf(r->source, sizeof(r->source), "%s", src->valuestring);
    }
    r->json = cJSON_PrintUnformatted(cfg);
    if (!r->json) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    r->kind = RECORD_CONFIG;
    return 0;
}

int dcb_record_from_json(const char *line, struct dcb_record *r, char *why, size_t whylen)
{
    r->json = NULL;
    cJSON *j = cJSON_Parse(line);
    if (!j) {
        snprintf(why, whylen, "not JSON");
        return -1;
    }
    int rc;
    const cJSON *metric = cJSON_GetObjectItemCaseSensitive(j, "metric");
    if (!cJSON_IsObject(j)) {
        snprintf(why, whylen, "not a JSON object");
        rc = -1;
    } else if (cJSON_GetObjectItemCaseSensitive(j, "event")) {
        rc = event_from(j, r, why, whylen);
    } else if (cJSON_GetObjectItemCaseSensitive(j, "config")) {
        rc = config_from(j, r, why, whylen);
    } else if (cJSON_IsNull(metric) && cJSON_GetObjectItemCaseSensitive(j, "counter")) {
        r->kind = RECORD_SKIP;   /* collect's raw counter: no canonical metric to keep it as */
        rc = 0;
    } else {
        r->kind = RECORD_SAMPLE;
        rc = dcb_sample_from_json(line, &r->sample, why, whylen);
    }
    cJSON_Delete(j);
    return rc;
}
