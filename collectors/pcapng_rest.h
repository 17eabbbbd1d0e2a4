/* The rest of a pcapng file that libpcap 1.10 cannot read: it stops at the first interface whose
 * link type differs from the first interface's. */
#ifndef DCB_PCAPNG_REST_H
#define DCB_PCAPNG_REST_H

#include <stdbool.h>

#include "err.h"
#include "pcapng.h"

/* Called per packet; false stops the reading. */
typedef bool (*pcapng_packet_fn)(void *arg, const struct pcapng_packet *p);

/* Reads path with collectors/pcapng and hands fn every packet from that interface on that
 * passes the BPF filter (compiled per link type; "" passes all). Returns 1 when it did, 0 when
 * the file is not pcapng or has no such interface before the point where it fails (so libpcap
 * stopped for another reason), or a negative DCB_E_* code with err set when the file fails
 * after that interface. */
int pcapng_read_rest(const char *path, const char *filter, pcapng_packet_fn fn, void *arg,
                     struct dcb_err *err);

#endif
