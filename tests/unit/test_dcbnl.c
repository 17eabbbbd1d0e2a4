#include "unit.h"

#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <stdio.h>

#include "dcbnl.h"

/* Appends one netlink attribute (aligned) to buf at *off. */
static void put_attr(uint8_t *buf, size_t *off, uint16_t type, const void *data, size_t len)
{
    struct nlattr a = { (uint16_t)(NLA_HDRLEN + len), type };
    memcpy(buf + *off, &a, sizeof(a));
    memcpy(buf + *off + NLA_HDRLEN, data, len);
    *off += NLA_ALIGN(NLA_HDRLEN + len);
}

/* Attribute types and selector of the Linux 6.3 APP trust table (older headers lack them). */
#define TRUST_TABLE 11 /* DCB_ATTR_DCB_APP_TRUST_TABLE */
#define DCB_APP_ATTR 2 /* DCB_ATTR_DCB_APP: entries with a DCB (not IEEE) selector */
#define SEL_PCP 255    /* DCB_APP_SEL_PCP */

/* A DCB_CMD_IEEE_GET reply as mlx5 would send it: ETS, PFC on priority 3 with counters, and an
 * APP table mapping DSCP 26 and UDP 4791 to priority 3; with ntrust > 0, also the APP trust
 * table a driver with dcbnl_getapptrust adds (selectors in trust order, PCP as DCB_ATTR_DCB_APP
 * and the IEEE ones as DCB_ATTR_IEEE_APP, as net/dcb/dcbnl.c puts them). */
static size_t build_reply_trust(uint8_t *out, const uint8_t *trust, size_t ntrust)
{
    uint8_t inner[1024];
    size_t n = 0;
    struct ieee_ets ets;
    memset(&ets, 0, sizeof(ets));
    for (int i = 0; i < 8; i++) {
        ets.prio_tc[i] = (uint8_t)i;
        ets.tc_tsa[i] = i == 6 ? IEEE_8021QAZ_TSA_STRICT : IEEE_8021QAZ_TSA_ETS;
    }
    ets.tc_tx_bw[0] = 50;
    ets.tc_tx_bw[3] = 50;
    put_attr(inner, &n, DCB_ATTR_IEEE_ETS, &ets, sizeof(ets));
    struct ieee_pfc pfc;
    memset(&pfc, 0, sizeof(pfc));
    pfc.pfc_en = 0x08;
    pfc.requests[3] = 12;
    pfc.indications[3] = 1450;
    put_attr(inner, &n, DCB_ATTR_IEEE_PFC, &pfc, sizeof(pfc));
    uint8_t table[64];
    size_t t = 0;
    struct dcb_app dscp = { IEEE_8021QAZ_APP_SEL_DSCP, 3, 26 };
    struct dcb_app udp = { IEEE_8021QAZ_APP_SEL_DGRAM, 3, 4791 };
    put_attr(table, &t, DCB_ATTR_IEEE_APP, &dscp, sizeof(dscp));
    put_attr(table, &t, DCB_ATTR_IEEE_APP, &udp, sizeof(udp));
    put_attr(inner, &n, DCB_ATTR_IEEE_APP_TABLE | NLA_F_NESTED, table, t);
    if (ntrust) {
        uint8_t order[64] = { 0 };
        size_t o = 0;
        for (size_t i = 0; i < ntrust; i++)
            put_attr(order, &o, trust[i] == SEL_PCP ? DCB_APP_ATTR : DCB_ATTR_IEEE_APP, &trust[i],
                     1);
        put_attr(inner, &n, TRUST_TABLE | NLA_F_NESTED, order, o);
    }
    size_t off = 0;
    put_attr(out, &off, DCB_ATTR_IFNAME, "ens1f0", 7);
    put_attr(out, &off, DCB_ATTR_IEEE | NLA_F_NESTED, inner, n);
    return off;
}

static size_t build_reply(uint8_t *out)
{
    return build_reply_trust(out, NULL, 0);
}

static void parses_ets_pfc_app(void **state)
{
    (void)state;
    uint8_t buf[2048];
    size_t len = build_reply(buf);
    struct qos_config c;
    qos_config_init(&c);
    struct dcbnl_pfc_counters pfc = { 0 };
    assert_int_equal(dcbnl_parse_ieee(buf, len, &c, &pfc, NULL), 0);
    char v[64];
    qos_get(&c, "pfc.enabled", v, sizeof(v), NULL);
    assert_string_equal(v, "0x08");
    qos_get(&c, "ets.tsa.6", v, sizeof(v), NULL);
    assert_string_equal(v, "strict");
    qos_get(&c, "ets.bw.3", v, sizeof(v), NULL);
    assert_string_equal(v, "50");
    qos_get(&c, "prio2tc.3", v, sizeof(v), NULL);
    assert_string_equal(v, "3");
    qos_get(&c, "dscp2prio.26", v, sizeof(v), NULL);
    assert_string_equal(v, "3");
    assert_int_equal(qos_get(&c, "dscp2prio.25", v, sizeof(v), NULL), DCB_E_NOTFOUND);
    qos_get(&c, "app", v, sizeof(v), NULL);
    assert_string_equal(v, "5:26:3,3:4791:3");
    assert_true(pfc.present && pfc.requests[3] == 12 && pfc.indications[3] == 1450);
    dcbnl_apply_dcbx_mode(DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE, &c);
    qos_get(&c, "dcbx.mode", v, sizeof(v), NULL);
    assert_string_equal(v, "ieee");
    /* no trust table (mlx5 has no dcbnl_getapptrust): trust stays unknown */
    assert_int_equal(qos_get(&c, "trust", v, sizeof(v), NULL), DCB_E_NOTFOUND);
}

static const char *trust_of(const uint8_t *order, size_t n, char *v, size_t len)
{
    uint8_t buf[2048];
    size_t blen = build_reply_trust(buf, order, n);
    struct qos_config c;
    qos_config_init(&c);
    assert_int_equal(dcbnl_parse_ieee(buf, blen, &c, NULL, NULL), 0);
    if (qos_get(&c, "trust", v, len, NULL) != 0)
        snprintf(v, len, "unknown");
    return v;
}

static void trust_table_gives_trust(void **state)
{
    (void)state;
    char v[32];
    const uint8_t dscp_pcp[] = { IEEE_8021QAZ_APP_SEL_DSCP, SEL_PCP };
    const uint8_t pcp_dscp[] = { SEL_PCP, IEEE_8021QAZ_APP_SEL_DSCP };
    const uint8_t port_pcp[] = { IEEE_8021QAZ_APP_SEL_DGRAM, SEL_PCP }; /* `order dgram pcp` */
    const uint8_t eth_only[] = { IEEE_8021QAZ_APP_SEL_ETHERTYPE };
    assert_string_equal(trust_of(dscp_pcp, 2, v, sizeof(v)), "dscp");
    assert_string_equal(trust_of(pcp_dscp, 2, v, sizeof(v)), "pcp");
    assert_string_equal(trust_of(port_pcp, 2, v, sizeof(v)), "pcp");
    assert_string_equal(trust_of(eth_only, 1, v, sizeof(v)), "unknown");
    /* a trust entry with no selector byte is malformed, not read past */
    uint8_t buf[256];
    size_t off = 0, n = 0, t = 0;
    uint8_t inner[64] = { 0 }, order[16] = { 0 };
    put_attr(order, &t, DCB_ATTR_IEEE_APP, "", 0);
    put_attr(inner, &n, TRUST_TABLE | NLA_F_NESTED, order, t);
    put_attr(buf, &off, DCB_ATTR_IEEE | NLA_F_NESTED, inner, n);
    struct qos_config c;
    qos_config_init(&c);
    assert_int_not_equal(dcbnl_parse_ieee(buf, off, &c, NULL, NULL), 0);
}

static void truncated_replies_are_refused(void **state)
{
    (void)state;
    uint8_t buf[2048];
    const uint8_t order[] = { IEEE_8021QAZ_APP_SEL_DSCP, SEL_PCP };
    size_t len = build_reply_trust(buf, order, 2);
    for (size_t cut = 1; cut < len; cut += 3) {
        struct qos_config c;
        qos_config_init(&c);
        struct dcbnl_pfc_counters pfc = { 0 };
        dcbnl_parse_ieee(buf, cut, &c, &pfc, NULL); /* must not read past cut (ASan) */
    }
    /* a length field that lies */
    buf[0] = 0xff;
    buf[1] = 0x7f;
    struct qos_config c;
    qos_config_init(&c);
    struct dcb_err err;
    assert_int_not_equal(dcbnl_parse_ieee(buf, len, &c, NULL, &err), 0);
    assert_string_equal(err.msg, "malformed DCB netlink reply");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parses_ets_pfc_app),
        cmocka_unit_test(trust_table_gives_trust),
        cmocka_unit_test(truncated_replies_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
