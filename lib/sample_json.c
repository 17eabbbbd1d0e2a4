/* A sample as one JSON object: what `dcbkit store export --jsonl` writes and `import` reads. */
#include "sample_json.h"

#include <cjson/cJSON.h>
#include <stdio.h>

int dcb_sample_from_json(const char *line, struct dcb_sample *s, char *why, size_t whylen)
{
    cJSON *j = cJSON_Parse(line);
    if (!j) {
        snprintf(why, whylen, "not JSON");
        return -1;
    }
    int ret = -1;
    const cJSON *ts = cJSON_GetObjectItemCaseSensitive(j, "ts");
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(j, "device");
    const cJSON *ifn = cJSON_GetObjectItemCaseSensitive(j, "ifname");
    const cJSON *met = cJSON_GetObjectItemCaseSensitive(j, "metric");
    const cJSON *prio = cJSON_GetObjectItemCaseSensitive(j, "prio");
    const cJSON *queue = cJSON_GetObjectItemCaseSensitive(j, "queue");
    const cJSON *val = cJSON_GetObjectItemCaseSensitive(j, "value");
    enum metric_id m = cJSON_IsString(met) ? metric_lookup(met->valuestring) : METRIC_NONE;
    if (!cJSON_IsNumber(ts) || !cJSON_IsString(dev) || !cJSON_IsString(ifn) ||
        !cJSON_IsNumber(val)) {
        snprintf(why, whylen, "needs ts, device, ifname, metric and value");
    } else if (m == METRIC_NONE) {
        snprintf(why, whylen, "unknown metric '%s' (see 'dcbkit metrics')",
                 cJSON_IsString(met) ? met->valuestring : "");
    } else if (!(ts->valuedouble >= 0 && ts->valuedouble < 9.2e18)) {
        snprintf(why, whylen, "ts must be nanoseconds since 1970, 0 to 9.2e18");
    } else if ((cJSON_IsNumber(prio) && (prio->valuedouble < -1 || prio->valuedouble > 4095)) ||
               (cJSON_IsNumber(queue) && (queue->valuedouble < -1 || queue->valuedouble > 4095))) {
        snprintf(why, whylen, "prio and queue must be -1 to 4095");
    } else {
        int p = cJSON_IsNumber(prio) ? prio->valueint : -1;
        int q = cJSON_IsNumber(queue) ? queue->valueint : -1;
        dcb_sample_set(s, (int64_t)ts->valuedouble, dev->valuestring, ifn->valuestring, m, p, q);
        if (metric_info(m)->kind == METRIC_COUNTER) {
            if (!(val->valuedouble >= 0 && val->valuedouble < 18446744073709551616.0)) {
                snprintf(why, whylen, "counter value must be 0 to 2^64-1");
                goto out;
            }
            /* cJSON keeps numbers as doubles: exact below 2^53, which counters reach only after
             * years at line rate; strtoull on the text would need cJSON's raw token */
            s->value.counter = (uint64_t)val->valuedouble;
        } else {
            s->value.gauge = val->valuedouble;
        }
        ret = 0;
    }
out:
    cJSON_Delete(j);
    return ret;
}

