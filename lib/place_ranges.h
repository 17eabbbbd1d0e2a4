/* Places compacted for people: "leaf2 Ethernet4; switch1 Ethernet0–7, Ethernet12, prio 3". One
 * device's ports that differ only in a trailing number become a range; a priority shared by
 * every place is said once. Used by the report and dcbtop to group findings by cause. */
#ifndef DCB_PLACE_RANGES_H
#define DCB_PLACE_RANGES_H

#include <stddef.h>

struct place_ref {
    const char *device; /* "" for the fabric */
    const char *ifname; /* "" for the device */
    int prio;           /* -1: none */
};

/* Sorts refs (device, then port number) and writes the compacted list into buf (truncated to
 * len, never overflowed). Returns buf. */
char *place_ranges(struct place_ref *refs, size_t n, char *buf, size_t len);

#endif
