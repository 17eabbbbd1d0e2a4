/* Findings grouped for people (ARCHITECTURE.md, "one order"): one group per rule, severity and
 * knob, in the order of each group's first finding, so the worst cause comes first. The JSON
 * keeps every finding; only the renderers group. */
#include <stdlib.h>
#include <string.h>

#include "report.h"

static bool same_group(const cJSON *a, const cJSON *b)
{
    return !strcmp(report_str(a, "rule"), report_str(b, "rule")) &&
           !strcmp(report_str(a, "severity"), report_str(b, "severity")) &&
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

/* "Ethernet12" -> prefix "Ethernet", number 12; false when the name does not end in digits. */
static bool split_port(const char *name, size_t *prefix_len, long *number)
{
    size_t len = strlen(name), i = len;
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
        i--;
    if (i == len || len - i > 9)
        return false;
    *prefix_len = i;
    *number = strtol(name + i, NULL, 10);
    return true;
}

static void append(char *buf, size_t len, size_t *used, const char *s)
{
    size_t n = strlen(s);
    if (*used + n + 1 > len)
        n = *used + 1 < len ? len - *used - 1 : 0;
    memcpy(buf + *used, s, n);
    *used += n;
    buf[*used] = '\0';
}

struct port_ref {
    const char *device, *ifname;
    int prio;
};

static int port_ref_cmp(const void *pa, const void *pb)
{
    const struct port_ref *a = pa, *b = pb;
    int c = strcmp(a->device, b->device);
    if (c)
        return c;
    size_t la, lb;
    long na, nb;
    if (split_port(a->ifname, &la, &na) && split_port(b->ifname, &lb, &nb) && la == lb &&
        !strncmp(a->ifname, b->ifname, la) && na != nb)
        return na < nb ? -1 : 1;
    c = strcmp(a->ifname, b->ifname);
    return c ? c : a->prio - b->prio;
}

/* One device's ports, consecutive numbers of one prefix as a range: "Ethernet0–7, Ethernet12". */
static size_t device_ports(const struct port_ref *r, size_t n, char *buf, size_t len,
                           size_t *used)
{
    size_t i = 0;
    bool first = true;
    while (i < n && !strcmp(r[i].device, r[0].device)) {
        char part[160];
        size_t pl;
        long lo;
        size_t j = i + 1;
        if (r[i].ifname[0] && split_port(r[i].ifname, &pl, &lo)) {
            long hi = lo;
            while (j < n && !strcmp(r[j].device, r[0].device)) {
                size_t pl2;
                long nj;
                if (!split_port(r[j].ifname, &pl2, &nj) || pl2 != pl ||
                    strncmp(r[j].ifname, r[i].ifname, pl) || (nj != hi + 1 && nj != hi))
                    break;
                hi = nj;
                j++;
            }
            if (hi > lo)
                snprintf(part, sizeof(part), "%s\u2013%ld", r[i].ifname, hi);
            else
                snprintf(part, sizeof(part), "%s", r[i].ifname);
        } else {
            while (j < n && !strcmp(r[j].device, r[0].device) &&
                   !strcmp(r[j].ifname, r[i].ifname))
                j++;
            snprintf(part, sizeof(part), "%s", r[i].ifname);
        }
        if (part[0]) {
            append(buf, len, used, first ? " " : ", ");
            append(buf, len, used, part);
            first = false;
        }
        i = j;
    }
    return i;
}

char *report_group_places(const cJSON *findings, const struct report_group *g, char *buf,
                          size_t len)
{
    buf[0] = '\0';
    struct port_ref *r = calloc((size_t)g->count, sizeof(*r));
    if (!r)
        return report_place(g->first, buf, len);
    size_t n = 0;
    int prio = -2;
    const cJSON *f;
    cJSON_ArrayForEach(f, findings) {
        if (n < (size_t)g->count && same_group(g->first, f)) {
            double p = report_num(f, "prio");
            r[n].device = report_str(f, "device");
            r[n].ifname = report_str(f, "ifname");
            r[n].prio = p >= 0 ? (int)p : -1;
            prio = prio == -2 ? r[n].prio : prio == r[n].prio ? prio : -3;
            n++;
        }
    }
    qsort(r, n, sizeof(*r), port_ref_cmp);
    size_t used = 0, i = 0;
    while (i < n) {
        append(buf, len, &used, i ? "; " : "");
        append(buf, len, &used, r[i].device[0] ? r[i].device : "fabric");
        i += device_ports(r + i, n - i, buf, len, &used);
    }
    if (prio >= 0) {
        char p[24];
        snprintf(p, sizeof(p), ", prio %d", prio);
        append(buf, len, &used, p);
    }
    free(r);
    return buf;
}
