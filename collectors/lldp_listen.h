/* A live LLDP listener on one interface: libpcap, "ether proto 0x88cc", non-blocking, drained
 * once per collection interval. Opening needs CAP_NET_RAW; without it the open fails with
 * DCB_E_PERM and the caller says so once. */
#ifndef DCB_LLDP_LISTEN_H
#define DCB_LLDP_LISTEN_H

#include <pcap/pcap.h>

#include "decode.h"
#include "err.h"

struct lldp_listener {
    pcap_t *pcap;
    int linktype;
};

int lldp_listen_open(struct lldp_listener *l, const char *ifname, struct dcb_err *err);
/* Calls fn for every LLDP frame waiting; returns how many, or a negative error. */
typedef void (*lldp_frame_fn)(const struct dcb_frame *f, void *arg);
int lldp_listen_poll(struct lldp_listener *l, lldp_frame_fn fn, void *arg, struct dcb_err *err);
void lldp_listen_close(struct lldp_listener *l);

#endif
