/* What the stateful trackers share: how they hand out events. The trackers turn decoded frames
 * (struct dcb_frame) into events and per-class / per-QP / per-neighbour records; dcbkit analyze,
 * the live capture collector and the replay engine's workload import all feed them the same way:
 * one call per frame, in capture order, then one finish call. */
#ifndef DCB_TRACK_H
#define DCB_TRACK_H

#include <stdint.h>

#include "decode.h"
#include "sample.h"

/* Called as an event happens (in capture time). The event is valid during the call only. */
typedef void (*track_event_fn)(void *arg, const struct dcb_event *e);

struct track_events {
    track_event_fn fn; /* NULL: no events wanted */
    void *arg;
    const char *device; /* what goes in the events' device field, e.g. the capture's name */
};

/* The sender's MAC: the Ethernet source, or a Linux cooked header's address. */
static inline const uint8_t *track_frame_src(const struct dcb_frame *f)
{
    return (f->layers & DCB_L_SLL) && f->sll.has_src ? f->sll.src : f->eth.src;
}

/* Formats a MAC address as aa:bb:cc:dd:ee:ff into buf (at least 18 bytes); returns buf. */
char *track_mac_str(const uint8_t mac[6], char *buf);
/* An IPv4 or IPv6 address (version 4 or 6) as text into buf (at least 46 bytes); returns buf. */
char *track_ip_str(uint8_t version, const uint8_t addr[16], char *buf);

#endif
