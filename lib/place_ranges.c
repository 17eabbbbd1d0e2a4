#include "place_ranges.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Names in order, a trailing number by its value: host2 before host10. */
static int name_cmp(const char *a, const char *b)
{
    size_t la, lb;
    long na, nb;
    if (split_port(a, &la, &na) && split_port(b, &lb, &nb) && la == lb && !strncmp(a, b, la) &&
        na != nb)
        return na < nb ? -1 : 1;
    return strcmp(a, b);
}

static int place_ref_cmp(const void *pa, const void *pb)
{
    const struct place_ref *a = pa, *b = pb;
    int c = name_cmp(a->device, b->device);
    if (c)
        return c;
    c = name_cmp(a->ifname, b->ifname);
    return c ? c : a->prio - b->prio;
}

/* One device's ports, consecutive numbers of one prefix as a range: "Ethernet0–7, Ethernet12". */
static size_t device_ports(const struct place_ref *r, size_t n, char *buf, size_t len, size_t *used)
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
            while (j < n && !strcmp(r[j].device, r[0].device) && !strcmp(r[j].ifname, r[i].ifname))
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

/* Devices numbered in a row with the same ports, as one: "host1–9 eth0". */
static size_t device_run(const struct place_ref *r, size_t n, const size_t *first,
                         char (*ports)[512], size_t ndev, size_t k, long *hi_out)
{
    size_t pl;
    long lo;
    const char *name = r[first[k]].device;
    if (!split_port(name, &pl, &lo))
        return k + 1;
    long hi = lo;
    size_t m = k + 1;
    while (m < ndev) {
        size_t pl2;
        long nm;
        const char *next = r[first[m]].device;
        if (!split_port(next, &pl2, &nm) || pl2 != pl || strncmp(next, name, pl) || nm != hi + 1 ||
            strcmp(ports[m], ports[k]))
            break;
        hi = nm;
        m++;
    }
    (void)n;
    *hi_out = hi;
    return m;
}

char *place_ranges(struct place_ref *r, size_t n, char *buf, size_t len)
{
    if (!len)
        return buf;
    buf[0] = '\0';
    int prio = -2;
    for (size_t i = 0; i < n; i++)
        prio = prio == -2 ? r[i].prio : prio == r[i].prio ? prio : -3;
    if (n)
        qsort(r, n, sizeof(*r), place_ref_cmp);
    /* each device's ports, as text */
    size_t *first = calloc(n ? n : 1, sizeof(*first));
    char(*ports)[512] = calloc(n ? n : 1, sizeof(*ports));
    size_t ndev = 0;
    for (size_t i = 0; first && ports && i < n; ndev++) {
        size_t used = 0;
        first[ndev] = i;
        ports[ndev][0] = '\0';
        i += device_ports(r + i, n - i, ports[ndev], sizeof(ports[ndev]), &used);
    }
    size_t used = 0;
    for (size_t k = 0; k < ndev;) {
        const char *dev = r[first[k]].device;
        long hi = 0;
        size_t m = device_run(r, n, first, ports, ndev, k, &hi);
        append(buf, len, &used, k ? "; " : "");
        append(buf, len, &used, dev[0] ? dev : "fabric");
        if (m > k + 1) {
            char range[24];
            snprintf(range, sizeof(range), "\u2013%ld", hi);
            append(buf, len, &used, range);
        }
        append(buf, len, &used, ports[k]);
        k = m;
    }
    free(first);
    free(ports);
    if (prio >= 0) {
        char p[24];
        snprintf(p, sizeof(p), ", prio %d", prio);
        append(buf, len, &used, p);
    }
    return buf;
}
