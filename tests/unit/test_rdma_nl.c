#include "unit.h"

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <stdio.h>

#include "rdma_nl.h"

#define PORT_GET RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_PORT_GET)

static void put_attr(uint8_t *buf, size_t *off, uint16_t type, const void *data, size_t len)
{
    struct nlattr a = { (uint16_t)(NLA_HDRLEN + len), type };
    memcpy(buf + *off, &a, sizeof(a));
    memcpy(buf + *off + NLA_HDRLEN, data, len);
    *off += NLA_ALIGN(NLA_HDRLEN + len);
}

/* One PORT_GET answer as the kernel's nldev puts it (fill_port_info): device index and name,
 * port index, then the netdev's index and name when the port has one. */
static size_t put_port(uint8_t *buf, size_t off, const char *dev, uint32_t port, const char *ndev,
                       uint32_t ndev_index)
{
    size_t start = off;
    off += NLMSG_HDRLEN;
    uint32_t dev_index = 3;
    put_attr(buf, &off, RDMA_NLDEV_ATTR_DEV_INDEX, &dev_index, 4);
    put_attr(buf, &off, RDMA_NLDEV_ATTR_DEV_NAME, dev, strlen(dev) + 1);
    put_attr(buf, &off, RDMA_NLDEV_ATTR_PORT_INDEX, &port, 4);
    if (ndev) {
        put_attr(buf, &off, RDMA_NLDEV_ATTR_NDEV_INDEX, &ndev_index, 4);
        put_attr(buf, &off, RDMA_NLDEV_ATTR_NDEV_NAME, ndev, strlen(ndev) + 1);
    }
    struct nlmsghdr h = { (uint32_t)(off - start), PORT_GET, NLM_F_MULTI, 1, 0 };
    memcpy(buf + start, &h, sizeof(h));
    return off;
}

static size_t put_done(uint8_t *buf, size_t off)
{
    struct nlmsghdr h = { NLMSG_HDRLEN + 4, NLMSG_DONE, NLM_F_MULTI, 1, 0 };
    memcpy(buf + off, &h, sizeof(h));
    memset(buf + off + NLMSG_HDRLEN, 0, 4);
    return off + NLMSG_HDRLEN + 4;
}

struct seen {
    char text[256];
    int n;
};

static void note(const struct rdma_nl_port *p, void *arg)
{
    struct seen *s = arg;
    size_t len = strlen(s->text);
    snprintf(s->text + len, sizeof(s->text) - len, "%s/%u=%s#%u ", p->device, p->port, p->ndev,
             p->ndev_index);
    s->n++;
}

/* Two ports with a netdev, one without (an IB port), then the end of the dump. */
static size_t build_dump(uint8_t *buf)
{
    size_t off = put_port(buf, 0, "mlx5_0", 1, "ens1f0", 4);
    off = put_port(buf, off, "mlx5_2", 1, NULL, 0);
    off = put_port(buf, off, "rxe0", 1, "eth0", 2);
    return put_done(buf, off);
}

static void parses_ports_with_a_netdev(void **state)
{
    (void)state;
    uint8_t buf[1024];
    size_t len = build_dump(buf);
    struct seen s = { "", 0 };
    assert_int_equal(rdma_nl_parse(buf, len, note, &s), 1);
    assert_string_equal(s.text, "mlx5_0/1=ens1f0#4 rxe0/1=eth0#2 ");
    /* without the NLMSG_DONE: more is to come */
    memset(&s, 0, sizeof(s));
    assert_int_equal(rdma_nl_parse(buf, len - NLMSG_HDRLEN - 4, note, &s), 0);
    assert_int_equal(s.n, 2);
}

static void refuses_malformed_replies(void **state)
{
    (void)state;
    uint8_t buf[1024];
    size_t len = build_dump(buf);
    for (size_t cut = 1; cut < len; cut++) {
        struct seen s = { "", 0 };
        rdma_nl_parse(buf, cut, note, &s); /* must not read past cut (ASan) */
        assert_true(s.n <= 2);
    }
    struct nlmsghdr h;
    memcpy(&h, buf, sizeof(h));
    h.nlmsg_len = 0xffff; /* a length that lies */
    memcpy(buf, &h, sizeof(h));
    struct seen s = { "", 0 };
    assert_int_equal(rdma_nl_parse(buf, len, note, &s), -1);
    assert_int_equal(s.n, 0);
    /* an unterminated name is not a name */
    len = put_port(buf, 0, "mlx5_0", 1, "ens1f0", 4);
    buf[len - 1] = 'x';
    buf[len - 2] = 'x';
    assert_int_equal(rdma_nl_parse(buf, len, note, &s), 0);
    assert_int_equal(s.n, 0);
    /* an error reply */
    struct nlmsghdr e = { NLMSG_HDRLEN + 4, NLMSG_ERROR, 0, 1, 0 };
    memcpy(buf, &e, sizeof(e));
    assert_int_equal(rdma_nl_parse(buf, NLMSG_HDRLEN + 4, note, &s), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parses_ports_with_a_netdev),
        cmocka_unit_test(refuses_malformed_replies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
