/* Unit tests of whole replay runs: the last value of every counter series a run's sample hook
 * sees, one entry per device, interface, metric, priority and queue. */
#ifndef DCB_TEST_COUNTER_SEEN_H
#define DCB_TEST_COUNTER_SEEN_H

#include <stdio.h>
#include <string.h>

#include "metrics.h"
#include "sample.h"

struct counter_seen {
    char device[DCB_DEVICE_MAX], ifname[DCB_IFNAME_MAX];
    int metric, prio, queue;
    uint64_t value;
};

/* Keeps s's value in c[0..*n) (a new entry while fewer than max); gauges are skipped. */
static inline void counter_seen_keep(struct counter_seen *c, int *n, int max,
                                     const struct dcb_sample *s)
{
    if (metric_info(s->metric)->kind != METRIC_COUNTER)
        return;
    for (int i = 0; i < *n; i++) {
        struct counter_seen *k = &c[i];
        if (k->metric == (int)s->metric && k->prio == s->prio && k->queue == s->queue &&
            !strcmp(k->device, s->device) && !strcmp(k->ifname, s->ifname)) {
            k->value = s->value.counter;
            return;
        }
    }
    assert_true(*n < max);
    struct counter_seen *k = &c[(*n)++];
    snprintf(k->device, sizeof(k->device), "%s", s->device);
    snprintf(k->ifname, sizeof(k->ifname), "%s", s->ifname);
    k->metric = (int)s->metric;
    k->prio = s->prio;
    k->queue = s->queue;
    k->value = s->value.counter;
}

#endif
