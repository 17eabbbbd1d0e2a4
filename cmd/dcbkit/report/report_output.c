/* dcbkit report's output: report.json, report.html and report.md (each through a temporary file
 * and a rename), the summary on stdout, and --from-json's re-rendering of a stored model. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file_text.h"
#include "report_cmd.h"
#include "value_units.h"
#include "units.h"

#define FAIL REPORT_UNDECIDED

struct model_writer {
    int (*write)(const cJSON *, FILE *);
    const cJSON *model;
};

static int write_model(FILE *fp, void *arg)
{
    const struct model_writer *w = arg;
    return w->write(w->model, fp);
}

/* DIR/NAME through a temporary file and a rename: the previous report survives a failure. */
static int write_file(const char *dir, const char *name, int (*write)(const cJSON *, FILE *),
                      const cJSON *model, struct dcb_err *err)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    struct model_writer w = { write, model };
    return dcb_write_file_atomic(path, write_model, &w, err);
}

/* --format json: the stored document itself, as read (it was checked to be a report). */
static const char *json_source;

static int copy_source(const cJSON *model, FILE *out)
{
    (void)model;
    FILE *in = fopen(json_source, "rb");
    if (!in)
        return -1;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
        fwrite(buf, 1, n, out);
    int rc = ferror(in) || ferror(out) ? -1 : 0;
    fclose(in);
    return rc;
}

/* --from-json with -T text: the verdict and one line per cause, as a terminal shows them. */
static int text_summary(const cJSON *m, FILE *fp)
{
    const cJSON *v = report_get(m, "verdict"), *all = report_get(m, "findings");
    out_term(fp, "REPORT %s: %s\n", report_str(v, "level"), report_str(v, "summary"));
    size_t ngroups = 0;
    struct report_group *groups = report_group_findings(all, &ngroups);
    if (!groups)
        return -1;
    for (size_t k = 0; k < ngroups; k++) {
        const cJSON *f = groups[k].first;
        char places[1024], shown[96];
        report_group_places(all, &groups[k], places, sizeof(places));
        out_term(fp, "  %-4s %s", report_str(f, "severity"), report_str(f, "rule"));
        if (groups[k].count > 1)
            fprintf(fp, " (%d places)", groups[k].count);
        out_term(fp, " at %s", places);
        if (report_str(f, "knob")[0] && report_str(f, "proposed")[0]) {
            value_unit_note(report_str(f, "knob"), report_str(f, "proposed"), shown, sizeof(shown));
            out_term(fp, ": %s=%s", report_str(f, "knob"), report_str(f, "proposed"));
            if (shown[0])
                out_term(fp, " (%s)", shown);
        }
        fputc('\n', fp);
    }
    free(groups);
    return ferror(fp) ? -1 : 0;
}

int report_from_json(const struct report_args *a)
{
    struct dcb_err err;
    cJSON *m = report_model_load(a->from_json, &err);
    if (!m)
        return cli_fail(FAIL, a->from_json, "%s", err.msg);
    json_source = a->from_json;
    int (*render)(const cJSON *, FILE *) = !strcmp(a->format, "md")     ? report_write_md
                                           : !strcmp(a->format, "json") ? copy_source
                                           : !strcmp(a->format, "text") ? text_summary
                                                                        : report_write_html;
    int status = report_model_status(m);
    if (a->out) {
        char name[32];
        snprintf(name, sizeof(name), "report.%s", a->format);
        if (write_file(a->out, name, render, m, &err) < 0)
            status = cli_fail(FAIL, "report", "%s", err.msg);
    } else if (render(m, stdout) != 0 || fflush(stdout) != 0) {
        status = cli_fail(FAIL, "writing output", "%s", strerror(errno));
    }
    cJSON_Delete(m);
    return status;
}

void report_add_raw_links(cJSON *model, int64_t since_ns, const char *store)
{
    cJSON *raw = cJSON_AddObjectToObject(model, "raw");
    cJSON *files = cJSON_AddArrayToObject(raw, "files");
    cJSON_AddItemToArray(files, cJSON_CreateString("report.json"));
    cJSON_AddItemToArray(files, cJSON_CreateString("report.md"));
    cJSON_AddStringToObject(raw, "store", store);
    char since[64], cmd[4400];
    snprintf(since, sizeof(since), "%" PRId64 "s", (int64_t)(since_ns / NS_PER_SEC));
    cJSON *cmds = cJSON_AddArrayToObject(raw, "commands");
    snprintf(cmd, sizeof(cmd), "dcbkit store export --store '%s' --since %s --jsonl", store, since);
    cJSON_AddItemToArray(cmds, cJSON_CreateString(cmd));
    snprintf(cmd, sizeof(cmd), "dcbkit diagnose --store '%s' --since %s -v", store, since);
    cJSON_AddItemToArray(cmds, cJSON_CreateString(cmd));
}

static void print_summary(struct cli_ctx *ctx, const cJSON *m, const char *out)
{
    struct dcb_out o;
    dcb_progress_wipe(); /* stdout may be the terminal the line is on */
    out_init(&o, stdout, ctx->format);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(m, "verdict");
    const cJSON *cmp = cJSON_GetObjectItemCaseSensitive(m, "comparison");
    out_obj_open(&o, NULL);
    out_u64(&o, "schema", NULL, REPORT_SCHEMA);
    out_obj_open(&o, "verdict");
    out_str(&o, "level", "REPORT %s: ", report_str(v, "level"));
    out_str(&o, "summary", "%s\n", report_str(v, "summary"));
    out_obj_close(&o);
    out_obj_open(&o, "comparison");
    out_u64(&o, "new", "  findings: %" PRIu64 " new", (uint64_t)report_num(cmp, "new"));
    out_u64(&o, "still_open", ", %" PRIu64 " still open", (uint64_t)report_num(cmp, "still_open"));
    out_u64(&o, "resolved", ", %" PRIu64 " resolved\n", (uint64_t)report_num(cmp, "resolved"));
    out_obj_close(&o);
    out_obj_open(&o, "files");
    static const char *const names[] = { "html", "json", "md" };
    out_text(&o, "  written:");
    for (size_t i = 0; i < 3; i++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/report.%s", out, names[i]);
        out_str(&o, names[i], " %s", path);
    }
    out_text(&o, "\n");
    out_obj_close(&o);
    out_obj_close(&o);
    out_finish(&o);
}

int report_write_files(struct cli_ctx *ctx, const char *out, const cJSON *model)
{
    struct dcb_err err;
    if (write_file(out, "report.json", report_write_json, model, &err) < 0 ||
        write_file(out, "report.html", report_write_html, model, &err) < 0 ||
        write_file(out, "report.md", report_write_md, model, &err) < 0)
        return cli_fail(FAIL, "report", "%s", err.msg);
    print_summary(ctx, model, out);
    return 0;
}
