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

static int place_ref_cmp(const void *pa, const void *pb)
{
    const struct place_ref *a = pa, *b = pb;
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
static size_t device_ports(const struct place_ref *r, size_t n, char *buf, size_t len,
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
    return buf;
}
