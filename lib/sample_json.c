/* A sample as one JSON object: what `dcbkit store export --jsonl` writes and `import` reads. */
#include "sample_json.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_details.h"
#include "json_number.h"

static bool ts_ok(const cJSON *ts)
{
    return cJSON_IsNumber(ts) && ts->valuedouble >= 0 && ts->valuedouble < 9.2e18;
}

/* ts as nanoseconds: the digits themselves when written as an integer (a double would snap to
 * 256 ns today), else the double; ts_ok has checked the range. */
static int64_t ts_of(const char *line, const cJSON *ts)
{
    uint64_t exact;
    if (json_top_uint(line, "ts", &exact) == JSON_UINT_EXACT && exact <= INT64_MAX)
        return (int64_t)exact;
    return (int64_t)ts->valuedouble;
}

/* What every kind of line names: its time, device and interface. */
struct line_head {
    const cJSON *ts, *dev, *ifn;
};

/* The parsed line (the caller deletes it) and its head; NULL, why says so, when it is not JSON. */
static cJSON *parse_line(const char *line, struct line_head *h, char *why, size_t whylen)
{
    cJSON *j = cJSON_Parse(line);
    if (!j) {
        snprintf(why, whylen, "not JSON");
        return NULL;
    }
    h->ts = cJSON_GetObjectItemCaseSensitive(j, "ts");
    h->dev = cJSON_GetObjectItemCaseSensitive(j, "device");
    h->ifn = cJSON_GetObjectItemCaseSensitive(j, "ifname");
    return j;
}

int dcb_sample_from_json(const char *line, struct dcb_sample *s, char *why, size_t whylen)
{
    struct line_head h;
    cJSON *j = parse_line(line, &h, why, whylen);
    if (!j)
        return -1;
    int ret = -1;
    const cJSON *met = cJSON_GetObjectItemCaseSensitive(j, "metric");
    const cJSON *prio = cJSON_GetObjectItemCaseSensitive(j, "prio");
    const cJSON *queue = cJSON_GetObjectItemCaseSensitive(j, "queue");
    const cJSON *val = cJSON_GetObjectItemCaseSensitive(j, "value");
    enum metric_id m = cJSON_IsString(met) ? metric_lookup(met->valuestring) : METRIC_NONE;
    if (!cJSON_IsNumber(h.ts) || !cJSON_IsString(h.dev) || !cJSON_IsString(h.ifn) ||
        !cJSON_IsNumber(val)) {
        snprintf(why, whylen, "needs ts, device, ifname, metric and value");
    } else if (m == METRIC_NONE) {
        snprintf(why, whylen, "unknown metric '%s' (see 'dcbkit metrics')",
                 cJSON_IsString(met) ? met->valuestring : "");
    } else if (!ts_ok(h.ts)) {
        snprintf(why, whylen, "ts must be nanoseconds since 1970, 0 to 9.2e18");
    } else if ((cJSON_IsNumber(prio) && (prio->valuedouble < -1 || prio->valuedouble > 4095)) ||
               (cJSON_IsNumber(queue) && (queue->valuedouble < -1 || queue->valuedouble > 4095))) {
        snprintf(why, whylen, "prio and queue must be -1 to 4095");
    } else {
        int p = cJSON_IsNumber(prio) ? prio->valueint : -1;
        int q = cJSON_IsNumber(queue) ? queue->valueint : -1;
        dcb_sample_set(s, ts_of(line, h.ts), h.dev->valuestring, h.ifn->valuestring, m, p, q);
        if (metric_info(m)->kind == METRIC_COUNTER) {
            /* the digits, exact to 2^64-1 (a double is exact below 2^53 only: two days of a
             * 400G byte counter); a fraction or an exponent goes through the double */
            uint64_t exact;
            if (json_top_uint(line, "value", &exact) == JSON_UINT_EXACT) {
                s->value.counter = exact;
            } else if (!(val->valuedouble >= 0 && val->valuedouble < 18446744073709551616.0)) {
                snprintf(why, whylen, "counter value must be 0 to 2^64-1");
                goto out;
            } else {
                s->value.counter = (uint64_t)val->valuedouble;
            }
        } else {
            s->value.gauge = val->valuedouble;
        }
        ret = 0;
    }
out:
    cJSON_Delete(j);
    return ret;
}

int dcb_event_from_json(const char *line, struct dcb_event *e, char *why, size_t whylen)
{
    struct line_head h;
    cJSON *j = parse_line(line, &h, why, whylen);
    if (!j)
        return -1;
    int ret = -1;
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(j, "kind");
    if (!kind)
        kind = cJSON_GetObjectItemCaseSensitive(j, "event");
    const cJSON *prio = cJSON_GetObjectItemCaseSensitive(j, "prio");
    const cJSON *details = cJSON_GetObjectItemCaseSensitive(j, "details");
    enum dcb_event_kind k = cJSON_IsString(kind) ? dcb_event_kind_lookup(kind->valuestring)
                                                 : EVENT_KIND_NONE;
    char *text = NULL;
    if (!ts_ok(h.ts) || !cJSON_IsString(h.dev) || !cJSON_IsString(h.ifn)) {
        snprintf(why, whylen, "an event needs ts (ns since 1970), kind, device and ifname");
    } else if (k == EVENT_KIND_NONE) {
        snprintf(why, whylen, "unknown event kind '%s'",
                 cJSON_IsString(kind) ? kind->valuestring : "");
    } else if (cJSON_IsNumber(prio) && (prio->valuedouble < -1 || prio->valuedouble > 7)) {
        snprintf(why, whylen, "an event's prio must be -1 to 7");
    } else if (details && !cJSON_IsObject(details)) {
        snprintf(why, whylen, "an event's details must be an object");
    } else if (details && !(text = cJSON_PrintUnformatted(details))) {
        snprintf(why, whylen, "out of memory");
    } else if (text && strlen(text) >= DCB_DETAILS_MAX) {
        snprintf(why, whylen, "an event's details must be under %d bytes", DCB_DETAILS_MAX);
    } else if (text && !event_details_valid(text)) {
        snprintf(why, whylen, "an event's details must be valid UTF-8"); /* cJSON passes it */
    } else {
        dcb_event_set(e, ts_of(line, h.ts), k, h.dev->valuestring, h.ifn->valuestring,
                      cJSON_IsNumber(prio) ? prio->valueint : -1, text ? text : "{}");
        ret = 0;
    }
    free(text);
    cJSON_Delete(j);
    return ret;
}

int dcb_config_from_json(const char *line, struct dcb_config_line *c, char *why, size_t whylen)
{
    memset(c, 0, sizeof(*c));
    struct line_head h;
    cJSON *j = parse_line(line, &h, why, whylen);
    if (!j)
        return -1;
    int ret = -1;
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(j, "source");
    if (!src)
        src = cJSON_GetObjectItemCaseSensitive(j, "config_source");
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(j, "config");
    if (!ts_ok(h.ts) || !cJSON_IsString(h.dev) || !cJSON_IsString(h.ifn) || !cJSON_IsString(src) ||
        !cJSON_IsObject(cfg)) {
        snprintf(why, whylen,
                 "a config snapshot needs ts, device, ifname, source and a config "
                 "object");
    } else if (!(c->json = cJSON_PrintUnformatted(cfg))) {
        snprintf(why, whylen, "out of memory");
    } else {
        c->ts = ts_of(line, h.ts);
        snprintf(c->device, sizeof(c->device), "%s", h.dev->valuestring);
        snprintf(c->ifname, sizeof(c->ifname), "%s", h.ifn->valuestring);
        snprintf(c->source, sizeof(c->source), "%s", src->valuestring);
        ret = 0;
    }
    cJSON_Delete(j);
    return ret;
}

enum dcb_json_line dcb_json_line_kind(const char *line)
{
    /* A sample line names none of these anywhere: no parse needed (import's common case). */
    if (!strstr(line, "\"kind\"") && !strstr(line, "\"event\"") && !strstr(line, "\"config\"") &&
        !strstr(line, "null"))
        return DCB_LINE_SAMPLE;
    cJSON *j = cJSON_Parse(line);
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(j, "kind");
    const cJSON *event = cJSON_GetObjectItemCaseSensitive(j, "event");
    const cJSON *metric = cJSON_GetObjectItemCaseSensitive(j, "metric");
    enum dcb_json_line what = DCB_LINE_SAMPLE;
    if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(j, "config")))
        what = DCB_LINE_CONFIG;
    else if (!metric && (cJSON_IsString(kind) || cJSON_IsString(event)))
        what = DCB_LINE_EVENT;
    else if (cJSON_IsNull(metric) && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, "counter")))
        what = DCB_LINE_RAW_COUNTER;
    cJSON_Delete(j);
    return what;
}
