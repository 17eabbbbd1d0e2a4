/* One event for humans or machines: every command that prints events prints them here.
 *
 * JSON: {"ts", "kind", "device", "ifname", "prio", "details": {...}}. The streams (collect and
 * replay --stream, JSON Lines) called the type "event" before their event lines' schema 2; they
 * carry "schema": 2 and "event" beside "kind" (the same value) for that one schema version.
 * Details that are not one valid object (a store written before the builder) are shown as
 * {"unparsed": "<the stored text>"}, so every line stays JSON.
 *
 * Text: each field through its printf-style format (NULL leaves it out), as the out_* calls do;
 * details are their JSON text, made safe for a terminal. */
#ifndef DCB_OUT_EVENT_H
#define DCB_OUT_EVENT_H

#include <stdbool.h>

#include "out.h"
#include "sample.h"

#define OUT_EVENT_STREAM_SCHEMA 2

struct out_event_form {
    const char *ts, *kind, *device, *ifname, *prio, *details; /* text formats (ts, prio: int64) */
    bool stream; /* JSON: the stream line's "schema" and the "event" alias */
};

void out_event(struct dcb_out *o, const struct dcb_event *e, const struct out_event_form *form);

#endif
