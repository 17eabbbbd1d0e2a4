#include "sample.h"

#include <stdio.h>
#include <string.h>

static const char *const event_kind_names[EVENT_KIND_COUNT] = {
#define DCB_EVENT_NAME(id, name) name,
    DCB_EVENT_KINDS(DCB_EVENT_NAME)
#undef DCB_EVENT_NAME
};

const char *dcb_event_kind_name(enum dcb_event_kind kind)
{
    if ((int)kind < 0 || kind >= EVENT_KIND_COUNT)
        return "unknown";
    return event_kind_names[kind];
}

enum dcb_event_kind dcb_event_kind_lookup(const char *name)
{
    for (int i = 0; name && i < EVENT_KIND_COUNT; i++)
        if (strcmp(event_kind_names[i], name) == 0)
            return (enum dcb_event_kind)i;
    return EVENT_KIND_NONE;
}

/* Truncating copy; not snprintf, which was a tenth of a store walk's CPU. */
static void copy_name(char *dst, size_t len, const char *src)
{
    size_t n = src ? strnlen(src, len - 1) : 0;
    if (n)
        memcpy(dst, src, n);
    dst[n] = '\0';
}

void dcb_sample_set(struct dcb_sample *s, int64_t time_ns, const char *device, const char *ifname,
                    enum metric_id metric, int prio, int queue)
{
    memset(s, 0, sizeof(*s));
    s->time_ns = time_ns;
    copy_name(s->device, sizeof(s->device), device);
    copy_name(s->ifname, sizeof(s->ifname), ifname);
    s->metric = metric;
    s->prio = (int16_t)prio;
    s->queue = (int16_t)queue;
}

void dcb_event_set(struct dcb_event *e, int64_t time_ns, enum dcb_event_kind kind,
                   const char *device, const char *ifname, int prio, const char *details_json)
{
    memset(e, 0, sizeof(*e));
    e->time_ns = time_ns;
    e->kind = kind;
    copy_name(e->device, sizeof(e->device), device);
    copy_name(e->ifname, sizeof(e->ifname), ifname);
    e->prio = (int16_t)prio;
    if (!details_json || !*details_json)
        details_json = "{}";
    if (strlen(details_json) >= sizeof(e->details))
        details_json = "{\"truncated\":true}"; /* a cut JSON object would not parse */
    copy_name(e->details, sizeof(e->details), details_json);
}
