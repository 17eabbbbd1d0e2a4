/* dcbkit report: the JSON model's frame (schema, generation time, fabric, store, window), the
 * verdict and counts, writing it, and reading a stored report.json back. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"
#include "version.h"

#define REPORT_FILE_MAX (256u << 20)

const char *report_str(const cJSON *obj, const char *key)
{
    const cJSON *v = obj ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
    return cJSON_IsString(v) && v->valuestring ? v->valuestring : "";
}

void report_fill(FILE *fp, const cJSON *obj, const char *tmpl,
                 void (*escape)(FILE *fp, const char *s))
{
    for (const char *p = tmpl; *p;) {
        const char *open = strchr(p, '{'), *close = open ? strchr(open, '}') : NULL;
        if (!close) {
            fputs(p, fp);
            return;
        }
        fwrite(p, 1, (size_t)(open - p), fp);
        char key[32];
        snprintf(key, sizeof(key), "%.*s", (int)(close - open - 1), open + 1);
        escape(fp, report_str(obj, key));
        p = close + 1;
    }
}

double report_item_num(const cJSON *v)
{
    if (cJSON_IsNumber(v))
        return v->valuedouble;
    if (cJSON_IsRaw(v) && v->valuestring) /* whole numbers written exactly (report_json_int) */
        return strtod(v->valuestring, NULL);
    return NAN;
}

double report_num(const cJSON *obj, const char *key)
{
    return report_item_num(obj ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL);
}

cJSON *report_json_int(double v)
{
    if (!isfinite(v))
        return cJSON_CreateNull();
    char buf[32];
    snprintf(buf, sizeof(buf), "%.0f", v);
    return cJSON_CreateRaw(buf);
}

char *report_fmt_time(int64_t ns, char *buf, size_t len)
{
    time_t secs = (time_t)(ns / 1000000000LL);
    struct tm tm;
    if (!gmtime_r(&secs, &tm)) {
        snprintf(buf, len, "?");
        return buf;
    }
    strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm);
    return buf;
}

char *report_place(const cJSON *f, char *buf, size_t len)
{
    const char *dev = report_str(f, "device"), *ifn = report_str(f, "ifname");
    double prio = report_num(f, "prio");
    snprintf(buf, len, "%s%s%s", dev[0] ? dev : "fabric", ifn[0] ? ":" : "", ifn);
    if (prio >= 0) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, " prio %d", (int)prio);
    }
    return buf;
}

cJSON *report_model_new(const char *fabric_name, const char *fabric_file, const char *store,
                        const struct report_window *w, int64_t generated_ns)
{
    cJSON *m = cJSON_CreateObject();
    if (!m)
        return NULL;
    cJSON_AddNumberToObject(m, "schema", REPORT_SCHEMA);
    time_t secs = (time_t)(generated_ns / 1000000000LL);
    struct tm tm;
    char gen[32] = "";
    if (gmtime_r(&secs, &tm))
        strftime(gen, sizeof(gen), "%Y-%m-%dT%H:%M:%SZ", &tm);
    cJSON_AddStringToObject(m, "generated", gen);
    cJSON_AddStringToObject(m, "dcbkit_version", DCBKIT_VERSION);
    cJSON *fab = cJSON_AddObjectToObject(m, "fabric");
    cJSON_AddStringToObject(fab, "name", fabric_name ? fabric_name : "");
    cJSON_AddStringToObject(fab, "file", fabric_file ? fabric_file : "");
    cJSON_AddStringToObject(m, "store", store ? store : "");
    cJSON *win = cJSON_AddObjectToObject(m, "window");
    char t[64];
    cJSON_AddItemToObject(win, "start_ns", report_json_int((double)w->t0));
    cJSON_AddItemToObject(win, "end_ns", report_json_int((double)w->t1));
    cJSON_AddStringToObject(win, "start", report_fmt_time(w->t0, t, sizeof(t)));
    cJSON_AddStringToObject(win, "end", report_fmt_time(w->t1, t, sizeof(t)));
    cJSON_AddNumberToObject(win, "seconds", (double)((w->t1 - w->t0) / 1000000000LL));
    cJSON_AddObjectToObject(m, "verdict"); /* filled by report_verdict */
    cJSON_AddObjectToObject(m, "counts");
    return m;
}

enum report_status report_verdict(cJSON *model, bool have_data)
{
    const cJSON *findings = cJSON_GetObjectItemCaseSensitive(model, "findings");
    int counts[3] = { 0 };
    const cJSON *f, *worst = NULL;
    cJSON_ArrayForEach(f, findings) {
        const char *s = report_str(f, "severity");
        int k = !strcmp(s, "crit") ? 2 : !strcmp(s, "warn") ? 1 : 0;
        counts[k]++;
        if (!worst)
            worst = f; /* ranked: the first is the worst */
    }
    enum report_status st = counts[2] ? REPORT_CRIT : counts[1] ? REPORT_WARN : REPORT_OK;
    if (!have_data)
        st = REPORT_UNDECIDED;
    static const char *const levels[] = { "ok", "warn", "crit", "unknown" };
    char summary[1200];
    int n = cJSON_GetArraySize(findings);
    if (!have_data && worst) /* such as why a device gave nothing */
        snprintf(summary, sizeof(summary),
                 "could not decide: no samples from any device in the "
                 "window (%d findings from what there was); worst: %s",
                 n, report_str(worst, "summary"));
    else if (!have_data)
        snprintf(summary, sizeof(summary),
                 "could not decide: no samples from any device in the "
                 "window (%d findings from what there was)",
                 n);
    else if (n)
        snprintf(summary, sizeof(summary), "%d findings (%d crit, %d warn, %d info); worst: %s", n,
                 counts[2], counts[1], counts[0], report_str(worst, "summary"));
    else
        snprintf(summary, sizeof(summary), "healthy: no findings");
    cJSON *v = cJSON_GetObjectItemCaseSensitive(model, "verdict");
    cJSON_AddStringToObject(v, "level", levels[st]);
    cJSON_AddNumberToObject(v, "exit", st);
    cJSON_AddStringToObject(v, "summary", summary);
    cJSON *c = cJSON_GetObjectItemCaseSensitive(model, "counts");
    cJSON_AddNumberToObject(c, "crit", counts[2]);
    cJSON_AddNumberToObject(c, "warn", counts[1]);
    cJSON_AddNumberToObject(c, "info", counts[0]);
    return st;
}

enum report_status report_model_status(const cJSON *model)
{
    double e = report_num(cJSON_GetObjectItemCaseSensitive(model, "verdict"), "exit");
    return e >= 0 && e <= 3 ? (enum report_status)(int)e : REPORT_UNDECIDED;
}

cJSON *report_model_load(const char *path, struct dcb_err *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        dcb_err_set(err, DCB_E_IO, "%s", strerror(errno));
        return NULL;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 65536;
            char *g = cap <= REPORT_FILE_MAX + 1 ? realloc(buf, cap + 1) : NULL;
            if (!g) {
                free(buf);
                fclose(fp);
                dcb_err_set(err, DCB_E_RANGE, "larger than %u MB", REPORT_FILE_MAX >> 20);
                return NULL;
            }
            buf = g;
        }
        size_t n = fread(buf + len, 1, cap - len, fp);
        len += n;
        if (n == 0)
            break;
    }
    int read_error = ferror(fp);
    fclose(fp);
    if (read_error) {
        free(buf);
        dcb_err_set(err, DCB_E_IO, "read error");
        return NULL;
    }
    buf[len] = '\0';
    cJSON *m = report_model_parse(buf, len, err);
    free(buf);
    return m;
}

cJSON *report_model_parse(const char *text, size_t len, struct dcb_err *err)
{
    const char *end = NULL;
    cJSON *m = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (!m) {
        const char *at = cJSON_GetErrorPtr();
        size_t off = at && at >= text && at <= text + len ? (size_t)(at - text) : len;
        dcb_err_set(err, DCB_E_INVAL, "not JSON (at byte %zu)", off);
        return NULL;
    }
    double schema = report_num(m, "schema");
    if (!cJSON_IsObject(m) || schema != REPORT_SCHEMA ||
        !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(m, "findings")) ||
        !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(m, "verdict"))) {
        if (isfinite(schema) && schema != REPORT_SCHEMA)
            dcb_err_set(err, DCB_E_INVAL, "report schema %.0f; this dcbkit reads schema %d", schema,
                        REPORT_SCHEMA);
        else
            dcb_err_set(err, DCB_E_INVAL,
                        "not a dcbkit report (it needs schema %d, findings "
                        "and verdict)",
                        REPORT_SCHEMA);
        cJSON_Delete(m);
        return NULL;
    }
    return m;
}

int report_write_json(const cJSON *model, FILE *fp)
{
    char *text = cJSON_Print(model);
    if (!text)
        return -1;
    fputs(text, fp);
    fputc('\n', fp);
    free(text);
    return ferror(fp) ? -1 : 0;
}
