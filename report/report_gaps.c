/* The paths each device does not serve as of the window's end (rules/path_gaps.h): a top-level
 * "missing_paths" list and each device's "missing_paths", so that a reader sees what the
 * report could not look at and why some rules stayed undecided. */
#include <string.h>

#include "path_gaps.h"
#include "report.h"

static cJSON *gap_json(const struct path_gap *p)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "device", p->device);
    cJSON_AddStringToObject(o, "path", p->path);
    cJSON_AddStringToObject(o, "reason", p->reason);
    cJSON_AddStringToObject(o, "gives", p->gives);
    return o;
}

static void add_to_device(cJSON *model, const struct path_gap *p)
{
    cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(model, "devices")) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(d, "name");
        if (!cJSON_IsString(name) || strcmp(name->valuestring, p->device))
            continue;
        cJSON *list = cJSON_GetObjectItemCaseSensitive(d, "missing_paths");
        if (!list)
            list = cJSON_AddArrayToObject(d, "missing_paths");
        if (list)
            cJSON_AddItemToArray(list, cJSON_CreateString(p->path));
    }
}

int report_missing_paths(struct dcb_store *st, const struct report_window *w, cJSON *model,
                         struct dcb_err *err)
{
    struct path_gaps g = { 0 };
    int rc = path_gaps_load(&g, st, w->t1, err);
    cJSON *all = rc < 0 ? NULL : cJSON_AddArrayToObject(model, "missing_paths");
    for (size_t i = 0; all && i < g.n; i++) {
        cJSON_AddItemToArray(all, gap_json(&g.v[i]));
        add_to_device(model, &g.v[i]);
    }
    path_gaps_free(&g);
    return rc;
}
