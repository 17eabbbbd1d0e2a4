#include "dcbnl.h"

#include <errno.h>
#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "nl_attr.h"
#include "reader.h"

#define NL_BUF 16384

/* Linux 6.3 added the APP trust table to the DCB_ATTR_IEEE nest (ieee_attrs 11). Each entry is a
 * u8 selector, in trust order, carried as DCB_ATTR_IEEE_APP (1) for the IEEE selectors and as
 * DCB_ATTR_DCB_APP (2) for DCB_APP_SEL_PCP (255); named here because older headers lack them. */
#define DCBNL_ATTR_APP_TRUST_TABLE 11
#define DCBNL_ATTR_DCB_APP 2
#define DCBNL_APP_SEL_PCP 255

static void set_val(struct qos_val *v, int64_t x)
{
    v->v = x;
    v->set = true;
}

struct ieee_ctx {
    struct qos_config *c;
    struct dcbnl_pfc_counters *pfc;
};

static int app_entry(uint16_t type, struct dcb_reader *p, void *arg)
{
    struct qos_config *c = arg;
    if (type != DCB_ATTR_IEEE_APP)
        return 0;
    struct dcb_app app;
    if (rd_remaining(p) < sizeof(app) || !rd_copy(p, &app, sizeof(app)))
        return -1;
    if (app.selector == IEEE_8021QAZ_APP_SEL_DSCP && app.protocol < 64 && app.priority < 8)
        set_val(&c->dscp2prio[app.protocol], app.priority);
    if (c->napp < QOS_APP_MAX && app.selector >= 1 && app.selector <= 5 && app.priority < 8)
        c->app[c->napp++] = (struct qos_app){ app.selector, app.protocol, app.priority };
    c->app_set = true;
    return 0;
}

/* The first trusted selector that classifies by a packet field: DSCP -> dscp, PCP -> pcp. */
static int trust_entry(uint16_t type, struct dcb_reader *p, void *arg)
{
    struct qos_config *c = arg;
    if (type != DCB_ATTR_IEEE_APP && type != DCBNL_ATTR_DCB_APP)
        return 0;
    if (rd_remaining(p) < 1)
        return -1;
    uint8_t selector = rd_u8(p);
    if (c->trust.set)
        return 0;
    if (selector == IEEE_8021QAZ_APP_SEL_DSCP)
        set_val(&c->trust, QOS_TRUST_DSCP);
    else if (selector == DCBNL_APP_SEL_PCP)
        set_val(&c->trust, QOS_TRUST_PCP);
    return 0;
}

static int ieee_attr(uint16_t type, struct dcb_reader *p, void *arg)
{
    struct ieee_ctx *x = arg;
    struct qos_config *c = x->c;
    if (type == DCB_ATTR_IEEE_ETS) {
        struct ieee_ets ets;
        if (rd_remaining(p) < sizeof(ets) || !rd_copy(p, &ets, sizeof(ets)))
            return -1;
        for (int i = 0; i < 8; i++) {
            if (ets.prio_tc[i] < 8)
                set_val(&c->prio2tc[i], ets.prio_tc[i]);
            if (ets.tc_tx_bw[i] <= 100)
                set_val(&c->ets_bw[i], ets.tc_tx_bw[i]);
            uint8_t tsa = ets.tc_tsa[i];
            if (tsa == IEEE_8021QAZ_TSA_STRICT || tsa == IEEE_8021QAZ_TSA_CB_SHAPER ||
                tsa == IEEE_8021QAZ_TSA_ETS || tsa == IEEE_8021QAZ_TSA_VENDOR)
                set_val(&c->ets_tsa[i], tsa);
        }
    } else if (type == DCB_ATTR_IEEE_PFC) {
        struct ieee_pfc pfc;
        if (rd_remaining(p) < sizeof(pfc) || !rd_copy(p, &pfc, sizeof(pfc)))
            return -1;
        set_val(&c->pfc_enabled, pfc.pfc_en);
        if (x->pfc) {
            x->pfc->present = true;
            memcpy(x->pfc->requests, pfc.requests, sizeof(pfc.requests));
            memcpy(x->pfc->indications, pfc.indications, sizeof(pfc.indications));
        }
    } else if (type == DCB_ATTR_IEEE_APP_TABLE) {
        c->napp = 0;
        if (nl_attr_walk(p, app_entry, c) < 0)
            return -1;
    } else if (type == DCBNL_ATTR_APP_TRUST_TABLE) {
        c->trust.set = false;
        if (nl_attr_walk(p, trust_entry, c) < 0)
            return -1;
    }
    return 0;
}

static int top_attr(uint16_t type, struct dcb_reader *p, void *arg)
{
    if (type == DCB_ATTR_IEEE)
        return nl_attr_walk(p, ieee_attr, arg);
    return 0;
}

int dcbnl_parse_ieee(const uint8_t *attrs, size_t len, struct qos_config *c,
                     struct dcbnl_pfc_counters *pfc, struct dcb_err *err)
{
    struct dcb_reader r;
    rd_init(&r, attrs, len);
    struct ieee_ctx x = { c, pfc };
    if (nl_attr_walk(&r, top_attr, &x) < 0)
        return dcb_err_set(err, DCB_E_INVAL, "malformed DCB netlink reply");
    return 0;
}

void dcbnl_apply_dcbx_mode(uint8_t flags, struct qos_config *c)
{
    if (flags & DCB_CAP_DCBX_VER_IEEE)
        set_val(&c->dcbx_mode, QOS_DCBX_IEEE);
    else if (flags & DCB_CAP_DCBX_VER_CEE)
        set_val(&c->dcbx_mode, QOS_DCBX_CEE);
    else
        set_val(&c->dcbx_mode, QOS_DCBX_OFF);
}

/* One request/reply; returns the reply's attribute bytes in buf (after struct dcbmsg). */
static int dcb_request(int fd, const char *ifname, uint8_t cmd, uint8_t *buf, size_t buflen,
                       const uint8_t **attrs, size_t *attrs_len, struct dcb_err *err)
{
    struct {
        struct nlmsghdr nh;
        struct dcbmsg dm;
        struct nlattr ifattr;
        char ifname[IFNAMSIZ];
    } req;
    memset(&req, 0, sizeof(req));
    size_t name_len = strnlen(ifname, IFNAMSIZ - 1) + 1;
    req.nh.nlmsg_len = (uint32_t)(NLMSG_LENGTH(sizeof(req.dm)) + NLA_ALIGN(NLA_HDRLEN + name_len));
    req.nh.nlmsg_type = RTM_GETDCB;
    req.nh.nlmsg_flags = NLM_F_REQUEST;
    req.nh.nlmsg_seq = cmd;
    req.dm.dcb_family = AF_UNSPEC;
    req.dm.cmd = cmd;
    req.ifattr.nla_len = (uint16_t)(NLA_HDRLEN + name_len);
    req.ifattr.nla_type = DCB_ATTR_IFNAME;
    memcpy(req.ifname, ifname, name_len - 1);
    if (send(fd, &req, req.nh.nlmsg_len, 0) < 0)
        return dcb_err_set(err, DCB_E_IO, "%s: DCB netlink request: %s", ifname, strerror(errno));
    ssize_t n = recv(fd, buf, buflen, 0);
    if (n < 0)
        return dcb_err_set(err, errno == EAGAIN ? DCB_E_TIMEOUT : DCB_E_IO,
                           "%s: DCB netlink reply: %s", ifname, strerror(errno));
    struct dcb_reader r;
    rd_init(&r, buf, (size_t)n);
    uint32_t len = rd_le32(&r);
    uint16_t type = rd_le16(&r);
    if (!rd_ok(&r) || len < NLMSG_HDRLEN || len > (size_t)n)
        return dcb_err_set(err, DCB_E_IO, "%s: malformed DCB netlink reply", ifname);
    if (type == NLMSG_ERROR) {
        rd_skip(&r, NLMSG_HDRLEN - 6);        /* flags, seq, pid */
        int32_t error = (int32_t)rd_le32(&r); /* struct nlmsgerr starts with the errno */
        int code = rd_ok(&r) ? -error : EIO;
        if (code == EOPNOTSUPP || code == ENODEV || code == EINVAL)
            return dcb_err_set(err, code == ENODEV ? DCB_E_NOTFOUND : DCB_E_UNSUPP, "%s: %s",
                               ifname, code == ENODEV ? "no such interface" : "DCB not supported");
        return dcb_err_set(err, DCB_E_IO, "%s: DCB netlink: %s", ifname, strerror(code));
    }
    if (type != RTM_GETDCB || len < NLMSG_LENGTH(sizeof(struct dcbmsg)))
        return dcb_err_set(err, DCB_E_IO, "%s: unexpected DCB netlink reply", ifname);
    *attrs = buf + NLMSG_LENGTH(sizeof(struct dcbmsg));
    *attrs_len = len - NLMSG_LENGTH(sizeof(struct dcbmsg));
    return 0;
}

static int dcbx_attr(uint16_t type, struct dcb_reader *p, void *arg)
{
    if (type == DCB_ATTR_DCBX && rd_remaining(p) >= 1)
        dcbnl_apply_dcbx_mode(rd_u8(p), arg);
    return 0;
}

int dcbnl_read(const char *ifname, struct qos_config *c, struct dcbnl_pfc_counters *pfc,
               struct dcb_err *err)
{
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    if (fd < 0)
        return dcb_err_set(err, DCB_E_IO, "netlink socket: %s", strerror(errno));
    struct timeval tv = { 1, 0 };
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    static uint8_t buf[NL_BUF];
    const uint8_t *attrs;
    size_t len;
    int rc = dcb_request(fd, ifname, DCB_CMD_IEEE_GET, buf, sizeof(buf), &attrs, &len, err);
    if (rc == 0)
        rc = dcbnl_parse_ieee(attrs, len, c, pfc, err);
    if (rc == 0 &&
        dcb_request(fd, ifname, DCB_CMD_GDCBX, buf, sizeof(buf), &attrs, &len, NULL) == 0) {
        struct dcb_reader r;
        rd_init(&r, attrs, len);
        nl_attr_walk(&r, dcbx_attr, c);
    }
    close(fd);
    return rc;
}
