#include "unit.h"

#include "json_number.h"
#include "sample_json.h"

static void parses_counters_and_gauges(void **state)
{
    (void)state;
    struct dcb_sample s;
    char why[128];
    assert_int_equal(dcb_sample_from_json("{\"ts\":7,\"device\":\"h1\",\"ifname\":\"eth0\","
                                          "\"metric\":\"pfc.rx_pause\",\"prio\":3,\"value\":42}",
                                          &s, why, sizeof(why)),
                     0);
    assert_true(s.time_ns == 7 && s.value.counter == 42 && s.prio == 3 && s.queue == -1);
    assert_int_equal(dcb_sample_from_json("{\"ts\":1,\"device\":\"sw\",\"ifname\":\"Ethernet0\","
                                          "\"metric\":\"queue.depth_bytes\",\"queue\":3,"
                                          "\"value\":1.5}",
                                          &s, why, sizeof(why)),
                     0);
    assert_true(s.value.gauge == 1.5 && s.queue == 3);
}

static void refuses_with_a_reason(void **state)
{
    (void)state;
    struct dcb_sample s;
    char why[128];
    static const struct {
        const char *line, *reason;
    } bad[] = {
        { "{\"ts\": oops", "not JSON" },
        { "{\"ts\":1,\"device\":\"h\",\"ifname\":\"e\",\"metric\":\"pfc.nope\",\"value\":1}",
          "unknown metric 'pfc.nope' (see 'dcbkit metrics')" },
        { "{\"ts\":1,\"device\":\"h\",\"metric\":\"pfc.rx_pause\",\"value\":1}",
          "needs ts, device, ifname, metric and value" },
        { "{\"ts\":1e300,\"device\":\"h\",\"ifname\":\"e\",\"metric\":\"pfc.rx_pause\",\"value\":"
          "1}",
          "ts must be nanoseconds since 1970, 0 to 9.2e18" },
        { "{\"ts\":1,\"device\":\"h\",\"ifname\":\"e\",\"metric\":\"pfc.rx_pause\",\"value\":-1}",
          "counter value must be 0 to 2^64-1" },
        { "{\"ts\":1,\"device\":\"h\",\"ifname\":\"e\",\"metric\":\"pfc.rx_pause\",\"value\":1e30}",
          "counter value must be 0 to 2^64-1" },
        { "{\"ts\":1,\"device\":\"h\",\"ifname\":\"e\",\"metric\":\"pfc.rx_pause\",\"prio\":1e12,"
          "\"value\":1}",
          "prio and queue must be -1 to 4095" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(dcb_sample_from_json(bad[i].line, &s, why, sizeof(why)), -1);
        assert_string_equal(why, bad[i].reason);
    }
}

/* ts and counters from their digits (a double snaps ts to 256 ns and counters past 2^53) */
static void exact_integers(void **state)
{
    (void)state;
    struct dcb_sample s;
    char why[128];
    assert_int_equal(dcb_sample_from_json("{\"details\":{\"ts\":5},\"x\":\"\\\"ts\\\": 7\","
                                          "\"ts\": 1700000000123456789,\"device\":\"h\","
                                          "\"ifname\":\"e\",\"metric\":\"port.rx_bytes\","
                                          "\"value\":18446744073709551615,\"ts\":3}",
                                          &s, why, sizeof(why)),
                     0);
    assert_int_equal(s.time_ns, 1700000000123456789LL);
    assert_true(s.value.counter == UINT64_MAX);
    assert_int_equal(dcb_sample_from_json("{\"ts\":1.7e18,\"device\":\"h\",\"ifname\":\"e\","
                                          "\"metric\":\"port.rx_bytes\",\"value\":"
                                          "9007199254740993}",
                                          &s, why, sizeof(why)),
                     0);
    assert_int_equal(s.time_ns, 1700000000000000000LL);
    assert_true(s.value.counter == 9007199254740993ULL);
    assert_int_equal(dcb_sample_from_json("{\"ts\":1,\"device\":\"h\",\"ifname\":\"e\","
                                          "\"metric\":\"port.rx_bytes\",\"value\":"
                                          "18446744073709551616}",
                                          &s, why, sizeof(why)),
                     -1);
    assert_string_equal(why, "counter value must be 0 to 2^64-1");

    uint64_t v = 0;
    assert_int_equal(json_top_uint("{\"a\":[1,{\"b\":\"}\"}],\"b\" : 42 }", "b", &v),
                     JSON_UINT_EXACT);
    assert_true(v == 42);
    assert_int_equal(json_top_uint("{\"b\":-1}", "b", &v), JSON_UINT_OTHER);
    assert_int_equal(json_top_uint("{\"b\":1e3}", "b", &v), JSON_UINT_OTHER);
    assert_int_equal(json_top_uint("{\"b\":1.0}", "b", &v), JSON_UINT_OTHER);
    assert_int_equal(json_top_uint("{\"b\":\"1\"}", "b", &v), JSON_UINT_OTHER);
    assert_int_equal(json_top_uint("{\"c\":{\"b\":1}}", "b", &v), JSON_UINT_OTHER);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parses_counters_and_gauges),
        cmocka_unit_test(refuses_with_a_reason),
        cmocka_unit_test(exact_integers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
