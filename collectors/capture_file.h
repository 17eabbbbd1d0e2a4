/* Reading a capture file from start to end with nanosecond timestamps: libpcap for pcap and
 * pcapng, and collectors/pcapng for the rest of a pcapng file whose interfaces mix link types
 * (libpcap 1.10 stops there). "-" reads standard input (without that fallback). */
#ifndef DCB_CAPTURE_FILE_H
#define DCB_CAPTURE_FILE_H

#include <stdbool.h>
#include <stdint.h>

#include "err.h"

struct capture_packet {
    int linktype;        /* a libpcap DLT / pcap LINKTYPE */
    unsigned iface;      /* pcapng interface index; 0 for classic pcap */
    int64_t ts_ns;       /* since the epoch */
    const uint8_t *data; /* valid during the callback only */
    uint32_t caplen, len;
};

/* Called per packet; false stops the reading (not an error). */
typedef bool (*capture_packet_fn)(void *arg, const struct capture_packet *p);

/* Reads path, handing fn every packet that passes filter (a BPF expression; NULL or "" for all).
 * 0 at the end or when fn stopped it; a negative DCB_E_* code with err set when the file cannot
 * be opened, the filter does not compile (DCB_E_INVAL) or the file breaks part-way (err says
 * after how many packets; the packets before it were delivered). A packet whose time is before
 * 1970 or past 2262 (out of int64_t nanoseconds; a pcapng if_tsresol or tick count no real
 * capture has) stops the reading the same way, with DCB_E_RANGE: times are never wrapped. */
int capture_file_read(const char *path, const char *filter, capture_packet_fn fn, void *arg,
                      struct dcb_err *err);

#endif
