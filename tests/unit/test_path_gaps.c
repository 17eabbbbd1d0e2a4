/* Which names a gNMI map's subscription gives (collectors/gnmi/gnmi_map_gives.c), and how a
 * path not served explains a rule's undecided instance (rules/path_gaps.c). */
#include "unit.h"

#include <stdio.h>

#include "gnmi_map.h"
#include "path_gaps.h"

static const char map_text[] =
    "{\"driver\": \"t\", \"source\": \"gnmi\","
    " \"subscribe\": ["
    "  {\"target\": \"COUNTERS_DB\", \"path\": \"COUNTERS/Ethernet*\"},"
    "  {\"target\": \"COUNTERS_DB\", \"path\": \"COUNTERS/Ethernet*/Pfcwd\"},"
    "  {\"path\": \"/interfaces/interface[name=*]/state/counters\"},"
    "  {\"target\": \"CONFIG_DB\", \"path\": \"PORT_QOS_MAP\", \"config\": true},"
    "  {\"target\": \"CONFIG_DB\", \"path\": \"BUFFER_PG\", \"config\": true}],"
    " \"counters\": ["
    "  {\"match\": \"COUNTERS_DB:/COUNTERS/(Ethernet[0-9]+)/SAI_PORT_STAT_PFC_([0-7])_RX_PKTS\","
    "   \"metric\": \"pfc.rx_pause\", \"ifname\": 1, \"prio\": 2},"
    "  {\"match\": \"COUNTERS_DB:/COUNTERS/(Ethernet[0-9]+)/Pfcwd/[^/:]+:([0-9]+)/PFC_WD_A\","
    "   \"metric\": \"pfcwd.storm_detected\", \"ifname\": 1, \"queue\": 2},"
    "  {\"match\": \"COUNTERS_DB:/COUNTERS/(Ethernet[0-9]+)/Pfcwd/[^/:]+:([0-9]+)/PFC_WD_B\","
    "   \"metric\": \"pfcwd.tx_drop\", \"ifname\": 1, \"queue\": 2},"
    "  {\"match\": \"/interfaces/interface\\\\[name=([^]]+)\\\\]/state/counters/in-octets\","
    "   \"metric\": \"port.rx_bytes\", \"ifname\": 1}],"
    " \"config\": ["
    "  {\"match\": \"CONFIG_DB:/PORT_QOS_MAP/(Ethernet[0-9]+)/pfc_enable\", \"ifname\": 1,"
    "   \"field\": \"pfc.enabled\", \"format\": \"prio_list\"},"
    "  {\"match\": \"CONFIG_DB:/BUFFER_PG/(Ethernet[0-9]+)\\\\|([0-7])/profile\", \"ifname\": 1,"
    "   \"field\": \"switch.buffer.{2}\", \"format\": \"ref\","
    "   \"ref\": \"CONFIG_DB:/BUFFER_PROFILE/{value}/\"}]}";

/* Each rule goes to the most specific subscription that leads to it. */
static void map_says_what_each_path_gives(void **state)
{
    (void)state;
    struct gnmi_map m;
    struct dcb_err err;
    assert_int_equal(gnmi_map_load_text(&m, map_text, "t", &err), 0);
    assert_string_equal(gnmi_map_sub_of(&m, "COUNTERS_DB:COUNTERS/Ethernet*")->gives,
                        "pfc.rx_pause");
    assert_string_equal(gnmi_map_sub_of(&m, "COUNTERS_DB:COUNTERS/Ethernet*/Pfcwd")->gives,
                        "pfcwd.storm_detected,pfcwd.tx_drop");
    assert_string_equal(gnmi_map_sub_of(&m, "/interfaces/interface[name=*]/state/counters")->gives,
                        "port.rx_bytes");
    assert_string_equal(gnmi_map_sub_of(&m, "CONFIG_DB:PORT_QOS_MAP")->gives, "pfc.enabled");
    assert_string_equal(gnmi_map_sub_of(&m, "CONFIG_DB:BUFFER_PG")->gives, "switch.buffer");
    assert_null(gnmi_map_sub_of(&m, "CONFIG_DB:QUEUE"));
    gnmi_map_free(&m);
}

static void gap(struct path_gaps *g, const char *device, const char *details)
{
    struct dcb_event e;
    dcb_event_set(&e, 1, EVENT_SOURCE_GAP, device, "", -1, details);
    path_gaps_take(g, &e);
}

static void undecided_names_the_path(void **state)
{
    (void)state;
    struct path_gaps g = { 0 };
    gap(&g, "sw1", "{\"from_ns\":1,\"to_ns\":2}"); /* an outage: no path */
    gap(&g, "sw1",
        "{\"path\":\"CONFIG_DB:PORT_QOS_MAP\",\"served\":false,"
        "\"gives\":\"pfc.enabled\",\"reason\":\"NOT_FOUND\"}");
    gap(&g, "sw1",
        "{\"path\":\"COUNTERS_DB:COUNTERS/Ethernet*/Pfcwd\",\"served\":false,"
        "\"gives\":\"pfcwd.storm_detected,pfcwd.tx_drop\",\"reason\":\"NOT_FOUND\"}");
    assert_int_equal(g.n, 2);
    struct rule_undecided u = { .prio = -1 };
    snprintf(u.device, sizeof(u.device), "sw1");
    snprintf(u.missing, sizeof(u.missing), "pfc.enabled, switch.pfcwd.detect_ms");
    path_gaps_explain(&g, &u);
    assert_string_equal(u.not_served, "path CONFIG_DB:PORT_QOS_MAP not served by sw1");
    snprintf(u.missing, sizeof(u.missing), "delta(pfcwd.tx_drop{queue=3}[5m])");
    path_gaps_explain(&g, &u);
    assert_string_equal(u.not_served, "path COUNTERS_DB:COUNTERS/Ethernet*/Pfcwd not served by "
                                      "sw1");
    /* the partner's field is not this device's path */
    snprintf(u.missing, sizeof(u.missing), "peer.pfc.enabled");
    path_gaps_explain(&g, &u);
    assert_string_equal(u.not_served, "");
    snprintf(u.device, sizeof(u.device), "sw2");
    snprintf(u.missing, sizeof(u.missing), "pfc.enabled");
    path_gaps_explain(&g, &u);
    assert_string_equal(u.not_served, "");
    /* what the rules' coalesce() must not default: only this device's refused paths */
    assert_true(path_gaps_lacks(&g, "sw1", "pfcwd.tx_drop"));
    assert_true(path_gaps_lacks(&g, "sw1", "pfc.enabled"));
    assert_false(path_gaps_lacks(&g, "sw1", "pfcwd.tx"));
    assert_false(path_gaps_lacks(&g, "sw1", "port.rx_bytes"));
    assert_false(path_gaps_lacks(&g, "sw2", "pfcwd.tx_drop"));
    gap(&g, "sw3",
        "{\"path\":\"CONFIG_DB:BUFFER_PG\",\"served\":false,"
        "\"gives\":\"switch.buffer\",\"reason\":\"NOT_FOUND\"}");
    assert_true(path_gaps_lacks(&g, "sw3", "switch.buffer.#.xoff"));
    assert_false(path_gaps_lacks(&g, "sw3", "switch.buffers"));
    g.n--;
    /* served again: no longer said */
    gap(&g, "sw1", "{\"path\":\"CONFIG_DB:PORT_QOS_MAP\",\"served\":true,\"gives\":\"\"}");
    assert_int_equal(g.n, 1);
    snprintf(u.device, sizeof(u.device), "sw1");
    path_gaps_explain(&g, &u);
    assert_string_equal(u.not_served, "");
    path_gaps_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(map_says_what_each_path_gives),
        cmocka_unit_test(undecided_names_the_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
