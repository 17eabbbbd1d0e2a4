#include "out_event.h"

#include "event_details.h"

/* The text formats come from the caller's form, a table of literals per command: clang cannot
 * see them at this call, so its nonliteral check is off here and nowhere else. */
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wformat-nonliteral"
#endif
void out_event(struct dcb_out *o, const struct dcb_event *e, const struct out_event_form *form)
{
    const char *kind = dcb_event_kind_name(e->kind);
    bool json = out_is_json(o);
    out_obj_open(o, NULL);
    if (json && form->stream)
        out_u64(o, "schema", NULL, OUT_EVENT_STREAM_SCHEMA);
    out_i64(o, "ts", form->ts, e->time_ns);
    out_str(o, "kind", form->kind, kind);
    if (json && form->stream)
        out_str(o, "event", NULL, kind);
    out_str(o, "device", form->device, e->device);
    out_str(o, "ifname", form->ifname, e->ifname);
    out_i64(o, "prio", form->prio, e->prio);
    if (!json || event_details_valid(e->details)) {
        out_json_value(o, "details", form->details, e->details);
    } else {
        out_obj_open(o, "details");
        out_str(o, "unparsed", NULL, e->details);
        out_obj_close(o);
    }
    out_obj_close(o);
}
#ifdef __clang__
#pragma clang diagnostic pop
#endif
