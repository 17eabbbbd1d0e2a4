#include "unit.h"

#include <linux/dcbnl.h>
#include <linux/netlink.h>

#include "dcbnl.h"

/* Appends one netlink attribute (aligned) to buf at *off. */
static void put_attr(uint8_t *buf, size_t *off, uint16_t type, const void *data, size_t len)
{
    struct nlattr a = { (uint16_t)(NLA_HDRLEN + len), type };
    memcpy(buf + *off, &a, sizeof(a));
    memcpy(buf + *off + NLA_HDRLEN, data, len);
    *off += NLA_ALIGN(NLA_HDRLEN + len);
}

/* A DCB_CMD_IEEE_GET reply as mlx5 would send it: ETS, PFC on priority 3 with counters, and an
 * APP table mapping DSCP 26 and UDP 4791 to priority 3. */
static size_t build_reply(uint8_t *out)
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
    size_t off = 0;
    put_attr(out, &off, DCB_ATTR_IFNAME, "ens1f0", 7);
    put_attr(out, &off, DCB_ATTR_IEEE | NLA_F_NESTED, inner, n);
    return off;
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
}

static void truncated_replies_are_refused(void **state)
{
    (void)state;
    uint8_t buf[2048];
    size_t len = build_reply(buf);
    for (size_t cut = 1; cut < len; cut += 3) {
        struct qos_config c;
        qos_config_init(&c);
        struct dcbnl_pfc_counters pfc = { 0 };
        dcbnl_parse_ieee(buf, cut, &c, &pfc, NULL);   /* must not read past cut (ASan) */
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
        cmocka_unit_test(truncated_replies_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
