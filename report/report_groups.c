/* Findings grouped for people (ARCHITECTURE.md, "one order"): one group per rule, severity,
 * cause (root or victim) and knob, in the order of each group's first finding, so the worst cause
 * comes first. The JSON keeps every finding; only the renderers group. */
#include <stdlib.h>
#include <string.h>

#include "place_ranges.h"
#include "report.h"

static bool same_group(const cJSON *a, const cJSON *b)
{
    return !strcmp(report_str(a, "rule"), report_str(b, "rule")) &&
           !strcmp(report_str(a, "severity"), report_str(b, "severity")) &&
           !strcmp(report_str(a, "cause"), report_str(b, "cause")) &&
           !strcmp(report_str(a, "knob"), report_str(b, "knob"));
}

struct report_group *report_group_findings(const cJSON *findings, size_t *ngroups)
{
    size_t n = (size_t)cJSON_GetArraySize(findings), used = 0;
    *ngroups = 0;
    struct report_group *g = calloc(n ? n : 1, sizeof(*g));
    if (!g)
        return NULL;
    const cJSON *f;
    int index = 0;
    cJSON_ArrayForEach(f, findings) {
        size_t k = 0;
        while (k < used && !same_group(g[k].first, f))
            k++;
        if (k == used) {
            g[used].first = f;
            g[used].first_index = index;
            used++;
        }
        g[k].count++;
        if (strcmp(report_str(g[k].first, "proposed"), report_str(f, "proposed")))
            g[k].proposed_varies = true;
        const char *status = report_str(f, "status");
        if (!strcmp(status, "new"))
            g[k].n_new++;
        index++;
    }
    *ngroups = used;
    return g;
}

char *report_group_places(const cJSON *findings, const struct report_group *g, char *buf,
                          size_t len)
{
    buf[0] = '\0';
    struct place_ref *r = calloc((size_t)g->count, sizeof(*r));
    if (!r)
        return report_place(g->first, buf, len);
    size_t n = 0;
    const cJSON *f;
    cJSON_ArrayForEach(f, findings) {
        if (n < (size_t)g->count && same_group(g->first, f)) {
            double p = report_num(f, "prio");
            r[n].device = report_str(f, "device");
            r[n].ifname = report_str(f, "ifname");
            r[n].prio = p >= 0 ? (int)p : -1;
            n++;
        }
    }
    place_ranges(r, n, buf, len);
    free(r);
    return buf;
}
