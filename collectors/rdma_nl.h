/* RDMA netlink (NETLINK_RDMA, the nldev client): the third way to tie an RDMA port to its netdev,
 * after the GID ndev and device/net in sysfs, and the one `rdma link` (iproute2) uses. One
 * RDMA_NLDEV_CMD_PORT_GET dump lists every port with the netdev index and name it sits on. */
#ifndef DCB_RDMA_NL_H
#define DCB_RDMA_NL_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

struct rdma_nl_port {
    char device[64];
    uint32_t port;
    char ndev[IFNAMSIZ];
    uint32_t ndev_index;
};

typedef void (*rdma_nl_port_fn)(const struct rdma_nl_port *p, void *arg);

/* Parses the netlink messages in buf (one recv of a PORT_GET dump, untrusted); calls fn for each
 * port that names a device, a port and a netdev. 1 when the dump's NLMSG_DONE was seen, 0 when
 * more is to come, -1 on a malformed message or an NLMSG_ERROR. */
int rdma_nl_parse(const uint8_t *buf, size_t len, rdma_nl_port_fn fn, void *arg);
/* Asks the kernel: 0 (fn called per port), or DCB_E_UNSUPP (no RDMA netlink), DCB_E_IO. */
int rdma_nl_ports(rdma_nl_port_fn fn, void *arg, struct dcb_err *err);

#endif
