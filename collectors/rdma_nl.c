#include "rdma_nl.h"

#include <errno.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "nl_attr.h"
#include "reader.h"

#define RDMA_NL_BUF 32768
#define PORT_GET RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_PORT_GET)

struct port_attrs {
    struct rdma_nl_port p;
    bool has_device, has_port, has_ndev;
};

/* A NUL-terminated string attribute into out (cut to fit); false when empty or unterminated. */
static bool take_string(struct dcb_reader *r, char *out, size_t len)
{
    size_t n = rd_remaining(r);
    const uint8_t *s = rd_bytes(r, n);
    if (!s || n == 0)
        return false;
    size_t used = strnlen((const char *)s, n);
    if (used == n || used == 0)
        return false;
    snprintf(out, len, "%.*s", (int)(used < len ? used : len - 1), (const char *)s);
    return true;
}

static int port_attr(uint16_t type, struct dcb_reader *r, void *arg)
{
    struct port_attrs *a = arg;
    switch (type) {
    case RDMA_NLDEV_ATTR_DEV_NAME:
        a->has_device = take_string(r, a->p.device, sizeof(a->p.device));
        break;
    case RDMA_NLDEV_ATTR_PORT_INDEX:
        a->p.port = rd_le32(r);
        a->has_port = rd_ok(r);
        break;
    case RDMA_NLDEV_ATTR_NDEV_INDEX: a->p.ndev_index = rd_le32(r); break;
    case RDMA_NLDEV_ATTR_NDEV_NAME:
        a->has_ndev = take_string(r, a->p.ndev, sizeof(a->p.ndev));
        break;
    default: break;
    }
    return 0;
}

int rdma_nl_parse(const uint8_t *buf, size_t len, rdma_nl_port_fn fn, void *arg)
{
    struct dcb_reader r;
    rd_init(&r, buf, len);
    while (rd_remaining(&r) >= NLMSG_HDRLEN) {
        size_t start = rd_offset(&r);
        uint32_t mlen = rd_le32(&r);
        uint16_t type = rd_le16(&r);
        rd_skip(&r, NLMSG_HDRLEN - 6); /* flags, seq, pid */
        if (!rd_ok(&r) || mlen < NLMSG_HDRLEN || mlen > len - start)
            return -1;
        if (type == NLMSG_DONE)
            return 1;
        if (type == NLMSG_ERROR)
            return -1;
        struct dcb_reader attrs;
        if (!rd_sub(&r, mlen - NLMSG_HDRLEN, &attrs))
            return -1;
        if (type == PORT_GET) {
            struct port_attrs a;
            memset(&a, 0, sizeof(a));
            if (nl_attr_walk(&attrs, port_attr, &a) < 0)
                return -1;
            if (a.has_device && a.has_port && a.has_ndev && a.p.port > 0)
                fn(&a.p, arg);
        }
        size_t aligned = NLMSG_ALIGN(mlen);
        if (aligned > mlen && !rd_skip(&r, aligned - mlen))
            break; /* the last may omit its padding */
    }
    return 0;
}

int rdma_nl_ports(rdma_nl_port_fn fn, void *arg, struct dcb_err *err)
{
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
    if (fd < 0)
        return dcb_err_set(err, DCB_E_UNSUPP, "RDMA netlink: %s", strerror(errno));
    struct timeval tv = { 1, 0 };
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    struct nlmsghdr req = { .nlmsg_len = NLMSG_HDRLEN,
                            .nlmsg_type = PORT_GET,
                            .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
                            .nlmsg_seq = 1 };
    int rc = 0;
    if (send(fd, &req, req.nlmsg_len, 0) < 0) {
        rc = dcb_err_set(err, DCB_E_IO, "RDMA netlink request: %s", strerror(errno));
    } else {
        static uint8_t buf[RDMA_NL_BUF];
        for (int reads = 0; reads < 1024; reads++) {
            ssize_t n = recv(fd, buf, sizeof(buf), 0);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                rc = dcb_err_set(err, DCB_E_IO, "RDMA netlink reply: %s",
                                 n < 0 ? strerror(errno) : "closed");
                break;
            }
            int done = rdma_nl_parse(buf, (size_t)n, fn, arg);
            if (done < 0)
                rc = dcb_err_set(err, DCB_E_UNSUPP, "RDMA netlink: no port list");
            if (done != 0)
                break;
        }
    }
    close(fd);
    return rc;
}
