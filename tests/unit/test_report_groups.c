/* report_groups.c: findings grouped by rule, severity and knob, places compacted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "place_ranges.h"
#include "report.h"
#include "value_units.h"

static cJSON *finding(const char *rule, const char *sev, const char *dev, const char *ifn, int prio,
                      const char *knob, const char *proposed)
{
    cJSON *f = cJSON_CreateObject();
    cJSON_AddStringToObject(f, "rule", rule);
    cJSON_AddStringToObject(f, "severity", sev);
    cJSON_AddStringToObject(f, "device", dev);
    cJSON_AddStringToObject(f, "ifname", ifn);
    cJSON_AddNumberToObject(f, "prio", prio);
    cJSON_AddStringToObject(f, "knob", knob);
    cJSON_AddStringToObject(f, "proposed", proposed);
    cJSON_AddStringToObject(f, "status", "new");
    return f;
}

static void test_groups_and_ranges(void **state)
{
    (void)state;
    cJSON *all = cJSON_CreateArray();
    /* out of port order on purpose; Ethernet10 after Ethernet9, not after Ethernet1 */
    const char *ports[] = { "Ethernet2", "Ethernet0", "Ethernet1", "Ethernet10",
                            "Ethernet9", "Ethernet8", "Ethernet4" };
    for (size_t i = 0; i < 7; i++)
        cJSON_AddItemToArray(all, finding("headroom", "crit", "sw1", ports[i], 3,
                                          "switch.buffer.3.headroom", "41218"));
    cJSON_AddItemToArray(all, finding("storm", "crit", "sw1", "Ethernet8", 3, "", ""));
    cJSON_AddItemToArray(all, finding("headroom", "crit", "leaf2", "Ethernet4", 3,
                                      "switch.buffer.3.headroom", "50000"));
    size_t n = 0;
    struct report_group *g = report_group_findings(all, &n);
    assert_non_null(g);
    assert_int_equal(n, 2);
    assert_int_equal(g[0].count, 8);
    assert_int_equal(g[0].first_index, 0);
    assert_true(g[0].proposed_varies);
    assert_int_equal(g[1].count, 1);
    assert_int_equal(g[1].first_index, 7);
    char buf[256];
    assert_string_equal(report_group_places(all, &g[0], buf, sizeof(buf)),
                        "leaf2 Ethernet4; sw1 Ethernet0\u20132, Ethernet4, Ethernet8\u201310, prio "
                        "3");
    assert_string_equal(report_group_places(all, &g[1], buf, sizeof(buf)), "sw1 Ethernet8, prio 3");
    /* a buffer too small truncates, never overflows */
    char tiny[8];
    report_group_places(all, &g[0], tiny, sizeof(tiny));
    assert_int_equal(strlen(tiny), 7);
    free(g);
    cJSON_Delete(all);
}

/* numbered devices with the same ports: one range, host2 before host10 */
static void test_device_ranges(void **state)
{
    (void)state;
    struct place_ref r[] = { { "host10", "eth0", -1 }, { "host2", "eth0", -1 },
                             { "host1", "eth0", -1 },  { "host3", "eth1", -1 },
                             { "host9", "eth0", -1 },  { "leaf1", "Ethernet0", -1 } };
    char buf[200];
    assert_string_equal(place_ranges(r, 6, buf, sizeof(buf)),
                        "host1\u20132 eth0; host3 eth1; host9\u201310 eth0; leaf1 Ethernet0");
}

static void test_empty(void **state)
{
    (void)state;
    cJSON *all = cJSON_CreateArray();
    size_t n = 99;
    struct report_group *g = report_group_findings(all, &n);
    assert_non_null(g);
    assert_int_equal(n, 0);
    free(g);
    cJSON_Delete(all);
}

static void test_value_units(void **state)
{
    (void)state;
    char b[64];
    assert_string_equal(value_with_unit("pfc.rx_pause_us[200ms]", "6.785e+05", b, sizeof(b)),
                        "678 ms");
    assert_string_equal(value_with_unit("switch.buffer.3.headroom", "41218", b, sizeof(b)),
                        "41.2 KB");
    assert_string_equal(value_with_unit("nic.dcqcn.rai_mbps", "40", b, sizeof(b)), "40 Mb/s");
    assert_string_equal(value_with_unit("pg.drops[5m]", "240", b, sizeof(b)), "240");
    assert_string_equal(value_with_unit("pg.drops[5m]", "1e+06", b, sizeof(b)), "1000000");
    assert_string_equal(value_with_unit("speed_bps", "40G", b, sizeof(b)), "40G");
    assert_string_equal(value_with_unit("switch.pfcwd.action", "drop", b, sizeof(b)), "drop");
    assert_string_equal(value_unit_note("switch.buffer.3.headroom", "41218", b, sizeof(b)),
                        "41.2 KB");
    assert_string_equal(value_unit_note("switch.pfcwd.action", "drop", b, sizeof(b)), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_groups_and_ranges),
        cmocka_unit_test(test_device_ranges),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_value_units),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
