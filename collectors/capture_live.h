/* A live capture as a source: libpcap on one interface, non-blocking, read whenever its
 * descriptor is ready, handing each frame with its nanosecond timestamp to a callback (which
 * runs the decoders and trackers). Opening needs CAP_NET_RAW. */
#ifndef DCB_CAPTURE_LIVE_H
#define DCB_CAPTURE_LIVE_H

#include <pcap/pcap.h>
#include <stdint.h>

#include "capture_file.h"
#include "err.h"

struct capture_live {
    pcap_t *pcap;
    int linktype;
    int fd; /* poll it for readability */
};

/* filter: a BPF expression, or NULL/"" for every frame. DCB_E_PERM without CAP_NET_RAW,
 * DCB_E_NOTFOUND for a missing interface, DCB_E_INVAL for a bad filter. */
int capture_live_open(struct capture_live *c, const char *ifname, const char *filter,
                      struct dcb_err *err);
/* Reads every frame waiting (without blocking), calling fn; the number read or a negative
 * error. */
int capture_live_read(struct capture_live *c, capture_packet_fn fn, void *arg, struct dcb_err *err);
/* Frames the kernel dropped since the capture opened (its buffer was full). */
uint64_t capture_live_dropped(struct capture_live *c);
void capture_live_close(struct capture_live *c);

#endif
